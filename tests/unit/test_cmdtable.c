/* test_cmdtable.c - the table of commands (src/cmd/table.c) is what the
 * docs and the help say: every command and every option of the table has
 * its place in docs/cli.md (a row in the table of the command's "###
 * `nvscope NAME`" section) and
 * in docs/nvscope.1 (the command's SYNOPSIS entry and its paragraph), and
 * the --help text is rendered from the entry (usage, every option with its
 * help lines, the notes).  Run from the source tree (NVS_TOP). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "config/cli.h"

static char *slurp(const char *rel)
{
	const char *top = getenv("NVS_TOP");
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", top && *top ? top : ".", rel);
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* The man page as plain text: no font escapes, "\-" as "-". */
static char *man_plain(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;
	while (*s) {
		if (s[0] == '\\' && s[1] == 'f' && s[2]) {
			s += 3;
		} else if (s[0] == '\\' && (s[1] == '-' || s[1] == '(')) {
			s++;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

/* A copy of [from, to) of @s. */
static char *cut(const char *from, const char *to)
{
	return strndup(from, (size_t)(to - from));
}

/* docs/cli.md's section "### `nvscope NAME`" (the console: `nvscope console`). */
static char *md_section(const char *doc, const char *name)
{
	char head[128];
	snprintf(head, sizeof(head), "\n### `nvscope %s`", name);
	const char *p = strstr(doc, head);
	if (!p)
		return NULL;
	const char *e = strstr(p + 1, "\n#");
	return cut(p, e ? e : p + strlen(p));
}

/* nvscope.1's text for command @name: its SYNOPSIS entries (".B nvscope
 * NAME" up to .br), and its paragraph (".TP / .B NAME" up to the next .TP
 * or .SH); for the console the entries ".B nvscope" and section CONSOLE. */
static char *man_block(const char *man, const char *name, bool console)
{
	char *buf = NULL, key[128];
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	const char *syn = strstr(man, "\n.SH SYNOPSIS"),
		   *syn_end = syn ? strstr(syn + 1, "\n.SH") : NULL;
	snprintf(key, sizeof(key), "\n.B nvscope%s%s\n", console ? "" : " ", console ? "" : name);
	for (const char *p = syn; p && syn_end && (p = strstr(p, key)) && p < syn_end; p++) {
		const char *e = strstr(p + 1, "\n.br");
		if (!e || e > syn_end)
			e = syn_end;
		fwrite(p, 1, (size_t)(e - p), m);
	}
	if (console)
		snprintf(key, sizeof(key), "\n.SH CONSOLE\n");
	else
		snprintf(key, sizeof(key), "\n.TP\n.B %s\n", name);
	const char *p = strstr(man, key);
	if (p) {
		const char *e1 = strstr(p + strlen(key), "\n.TP"), *e2 = strstr(p + 1, "\n.SH");
		const char *e = e1 && (!e2 || e1 < e2) && !console ? e1 : e2;
		fwrite(p, 1, e ? (size_t)(e - p) : strlen(p), m);
	}
	fclose(m);
	return buf;
}

/* "--name" in @s as a whole option name (not the start of a longer one). */
static bool has_opt(const char *s, const char *name)
{
	char want[96];
	snprintf(want, sizeof(want), "--%s", name);
	for (const char *p = s; p && (p = strstr(p, want)); p++) {
		char c = p[strlen(want)];
		if (!(c == '-' || c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			return true;
	}
	return false;
}

/* A row of the section's option table: "| `--name..." or "| `-X`, `--name...". */
static bool has_row(const char *sec, const char *name)
{
	char want[96];
	snprintf(want, sizeof(want), "`--%s", name);
	for (const char *p = sec; p && (p = strstr(p, want)); p++) {
		char c = p[strlen(want)];
		const char *bol = p;
		while (bol > sec && bol[-1] != '\n')
			bol--;
		if ((c == '`' || c == '=' || c == '[') && !strncmp(bol, "| ", 2) &&
		    (p == bol + 2 || (p - bol == 8 && !strncmp(p - 2, ", ", 2))))
			return true;
	}
	return false;
}

START_TEST(test_docs_name_every_command_and_option)
{
	char *md = slurp("docs/cli.md"), *raw = slurp("docs/nvscope.1"), *man = man_plain(raw);
	int missing = 0;

	for (const struct cmd_entry *const *e = cmd_table; *e; e++) {
		bool console = *e == &cmd_console_entry;
		char *sec = md_section(md, (*e)->name), *blk = man_block(man, (*e)->name, console);
		if (!sec) {
			fprintf(stderr, "docs/cli.md: no section ### `nvscope %s`\n", (*e)->name);
			missing++;
		}
		if (!blk[0]) {
			fprintf(stderr, "docs/nvscope.1: no SYNOPSIS entry or paragraph for %s\n",
				(*e)->name);
			missing++;
		}
		for (const struct cmd_opt *o = (*e)->opts; o && o->o.name; o++) {
			if (sec && !has_row(sec, o->o.name)) {
				fprintf(stderr, "docs/cli.md: nvscope %s: --%s missing\n",
					(*e)->name, o->o.name);
				missing++;
			}
			if (!has_opt(blk, o->o.name)) {
				fprintf(stderr, "docs/nvscope.1: nvscope %s: --%s missing\n",
					(*e)->name, o->o.name);
				missing++;
			}
		}
		free(sec);
		free(blk);
	}
	free(md);
	free(raw);
	free(man);
	ck_assert_msg(!missing, "%d commands or options of the table are not in the docs", missing);
}
END_TEST

/* Every line of @text is a line (after white space) of @help. */
static void lines_in(const char *help, const char *text, const char *what)
{
	for (const char *p = text; p && *p;) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);
		ck_assert_msg(strstr(help, line), "%s: '%s' not in the help", what, line);
		free(line);
		p += n + (p[n] == '\n');
	}
}

START_TEST(test_help_is_the_table)
{
	for (const struct cmd_entry *const *e = cmd_table; *e; e++) {
		char *buf = NULL, first[128];
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		cmd_help(m, *e);
		fclose(m);
		ck_assert_ptr_eq(cmd_find((*e)->name), *e);
		ck_assert_msg((*e)->summary && (*e)->usage && (*e)->exec, "%s", (*e)->name);
		snprintf(first, sizeof(first), "usage: nvscope %s",
			 *e == &cmd_console_entry ? "" : (*e)->name);
		ck_assert_msg(!strncmp(buf, first, strlen(first)), "%s: %.60s", (*e)->name, buf);
		lines_in(buf, (*e)->text, (*e)->name);
		lines_in(buf, (*e)->notes, (*e)->name);
		for (const struct cmd_opt *o = (*e)->opts; o && o->o.name; o++) {
			ck_assert_msg(has_opt(buf, o->o.name), "%s --%s", (*e)->name, o->o.name);
			ck_assert_msg(o->help && o->help[0], "%s --%s: no help", (*e)->name,
				      o->o.name);
			ck_assert_msg((o->arg != NULL) == (o->o.has_arg != no_argument), "%s --%s",
				      (*e)->name, o->o.name);
			lines_in(buf, o->help, o->o.name);
			/* one name, one id, one letter per command */
			for (const struct cmd_opt *k = (*e)->opts; k < o; k++) {
				ck_assert_msg(strcmp(k->o.name, o->o.name), "%s: --%s twice",
					      (*e)->name, o->o.name);
				ck_assert_msg(k->o.val != o->o.val, "%s: --%s and --%s share an id",
					      (*e)->name, k->o.name, o->o.name);
				ck_assert_msg(!o->letter || k->letter != o->letter, "%s: -%c twice",
					      (*e)->name, o->letter);
			}
		}
		ck_assert(strstr(buf, "  -h, --help"));
		free(buf);
	}
}
END_TEST

START_TEST(test_exit_of)
{
	ck_assert_int_eq(cmd_exit_of(0), 0);
	ck_assert_int_eq(cmd_exit_of(1), 1);
	ck_assert_int_eq(cmd_exit_of(130), 130);
	ck_assert_int_eq(cmd_exit_of(-EINVAL), 2);
	ck_assert_int_eq(cmd_exit_of(-EBUSY), 2);
	ck_assert_int_eq(cmd_exit_of(-ELOOP), 2);
	ck_assert_int_eq(cmd_exit_of(-ENODEV), 2);
	ck_assert_int_eq(cmd_exit_of(-EIO), 1);
	ck_assert_int_eq(cmd_exit_of(-ENOSPC), 1);
	ck_assert_int_eq(cmd_exit_of(-ENOMEM), 1);
	ck_assert_int_eq(cmd_exit_of(-ETIMEDOUT), 1);
}
END_TEST

START_TEST(test_parse)
{
	struct cmd_args a;
	char *v1[] = {"report", "d1", "-o", "f1", "--output=f2", "-of3", "--", "-x", NULL};
	ck_assert_int_eq(cmd_parse(&cmd_report_entry, 8, v1, &a), 0);
	ck_assert_uint_eq(a.nopt, 3);
	ck_assert_str_eq(cmd_get(&a, 'o'), "f3");
	ck_assert_str_eq(a.opt[0].val, "f1");
	ck_assert_str_eq(a.opt[1].val, "f2");
	ck_assert_uint_eq(a.npos, 2);
	ck_assert_str_eq(a.pos[0], "d1");
	ck_assert_str_eq(a.pos[1], "-x");
	cmd_args_free(&a);
	char *v2[] = {"list", "-jt", "--json", NULL};
	ck_assert_int_eq(cmd_parse(&cmd_list_entry, 3, v2, &a), 0);
	ck_assert_uint_eq(a.nopt, 3);
	ck_assert(cmd_has(&a, 't'));
	cmd_args_free(&a);
	char *v3[] = {"list", "--js", NULL}; /* no abbreviations */
	ck_assert_int_eq(cmd_parse(&cmd_list_entry, 2, v3, &a), -EINVAL);
	cmd_args_free(&a);
	char *v4[] = {"list", "--json=1", NULL};
	ck_assert_int_eq(cmd_parse(&cmd_list_entry, 2, v4, &a), -EINVAL);
	cmd_args_free(&a);
	char *v5[] = {"report", "--output", NULL};
	ck_assert_int_eq(cmd_parse(&cmd_report_entry, 2, v5, &a), -EINVAL);
	cmd_args_free(&a);
	char *v6[] = {"report", "x", "--help", "--bogus", NULL};
	ck_assert_int_eq(cmd_parse(&cmd_report_entry, 4, v6, &a), 1);
	cmd_args_free(&a);
	/* a workload command: cli_take sees the workload options first */
	char *v7[] = {"run", "--target", "t1", "--bs=4k", "-q", "--rw", "read", "job.fio", NULL};
	ck_assert_int_eq(cmd_parse(&cmd_run_entry, 8, v7, &a), 0);
	ck_assert_uint_eq(a.cli->ntargets, 1);
	ck_assert_uint_eq(a.cli->nkv, 2);
	ck_assert_uint_eq(a.nopt, 1);
	ck_assert_uint_eq(a.npos, 1);
	cmd_args_free(&a);
}
END_TEST

Suite *cmdtable_suite(void)
{
	Suite *s = suite_create("cmdtable");
	TCase *tc = tcase_create("cmdtable");
	tcase_add_test(tc, test_docs_name_every_command_and_option);
	tcase_add_test(tc, test_help_is_the_table);
	tcase_add_test(tc, test_exit_of);
	tcase_add_test(tc, test_parse);
	suite_add_tcase(s, tc);
	return s;
}

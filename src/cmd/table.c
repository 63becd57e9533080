/* table.c - the table of commands, the dispatcher, the help generated from
 * the entries, and the one mapping from -errno to an exit status. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "nvscope.h"
#include "cmd/cmd.h"
#include "base/termesc.h"

static int exec_help(const struct cmd_entry *self, struct cmd_args *a);

static const struct cmd_opt help_opts[] = {{{NULL, 0, NULL, 0}, 0, NULL, NULL}};

static const struct cmd_entry cmd_help_entry = {
    .name = "help",
    .summary = "this list, or the help of one command",
    .usage = "help [COMMAND]",
    .text = "Without COMMAND: the commands and the console's options; with it, the same\n"
	    "text as `nvscope COMMAND --help`.",
    .opts = help_opts,
    .exec = exec_help,
};

const struct cmd_entry *const cmd_table[] = {
    &cmd_console_entry,	      &cmd_run_entry,	 &cmd_list_entry,	  &cmd_health_entry,
    &cmd_purge_entry,	      &cmd_plan_entry,	 &cmd_steady_entry,	  &cmd_report_entry,
    &cmd_check_entry,	      &cmd_replay_entry, &cmd_trace_record_entry, &cmd_trace_show_entry,
    &cmd_trace_convert_entry, &cmd_agent_entry,	 &cmd_help_entry,	  NULL,
};

const struct cmd_entry *cmd_find(const char *name)
{
	for (const struct cmd_entry *const *e = cmd_table; *e; e++)
		if (!strcmp((*e)->name, name) || ((*e)->alias && !strcmp((*e)->alias, name)))
			return *e;
	return NULL;
}

void cmd_say(const struct cmd_entry *e, const char *fmt, ...)
{
	va_list ap;

	if (e == &cmd_console_entry)
		fputs("nvscope: ", stderr);
	else
		fprintf(stderr, "nvscope %s: ", e->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* @s line by line, each line after @first (the first) or @rest. */
static void put_lines(FILE *f, const char *first, const char *rest, const char *s)
{
	for (const char *p = s, *pre = first; p && *p; pre = rest) {
		size_t n = strcspn(p, "\n");
		fprintf(f, "%s%.*s\n", pre, (int)n, p);
		p += n + (p[n] == '\n');
	}
}

#define HELP_COL 28

static void put_opt(FILE *f, char letter, const char *name, int has_arg, const char *arg,
		    const char *help)
{
	char left[128];
	int n;

	if (letter)
		n = snprintf(left, sizeof(left), "  -%c, --%s", letter, name);
	else
		n = snprintf(left, sizeof(left), "      --%s", name);
	if (arg && n >= 0 && (size_t)n < sizeof(left))
		snprintf(left + n, sizeof(left) - (size_t)n, "%s%s%s",
			 has_arg == optional_argument ? "[=" : "=", arg,
			 has_arg == optional_argument ? "]" : "");
	if (strlen(left) >= HELP_COL - 1) {
		fprintf(f, "%s\n", left);
		put_lines(f, "                            ", "                            ", help);
	} else {
		fprintf(f, "%-*s", HELP_COL, left);
		put_lines(f, "", "                            ", help);
	}
}

void cmd_help(FILE *f, const struct cmd_entry *e)
{
	/* usage: one form a line; a line that starts with a space goes on */
	for (const char *p = e->usage, *pre = "usage: nvscope "; *p; pre = "       nvscope ") {
		size_t n = strcspn(p, "\n");
		fprintf(f, "%s%.*s\n", *p == ' ' ? "              " : pre, (int)n, p);
		p += n + (p[n] == '\n');
	}
	if (e->text)
		put_lines(f, "", "", e->text);
	fprintf(f, "options:\n");
	for (const struct cmd_opt *o = e->opts; o && o->o.name; o++)
		put_opt(f, o->letter, o->o.name, o->o.has_arg, o->arg, o->help);
	put_opt(f, 'h', "help", no_argument, NULL, "this text");
	if (e->notes)
		put_lines(f, "", "", e->notes);
}

void cmd_help_all(FILE *f)
{
	fprintf(f, "usage: nvscope [console options]        the full-screen console\n"
		   "       nvscope COMMAND [options]          (nvscope help COMMAND, or\n"
		   "                                          nvscope COMMAND --help)\n"
		   "commands:\n");
	for (const struct cmd_entry *const *e = cmd_table; *e; e++)
		fprintf(f, "  %-13s %s\n", (*e)->name, (*e)->summary);
	fprintf(f, "\nthe console (nvscope console --help):\n");
	cmd_help(f, &cmd_console_entry);
	fprintf(f, "See nvscope(1) (docs/nvscope.1) and docs/cli.md.\n");
}

/* The commands named "@group ..." ("trace" -> record, show). */
static bool is_group(const char *group)
{
	size_t n = strlen(group);
	for (const struct cmd_entry *const *e = cmd_table; *e; e++)
		if (!strncmp((*e)->name, group, n) && (*e)->name[n] == ' ')
			return true;
	return false;
}

static void group_help(FILE *f, const char *group)
{
	size_t n = strlen(group);
	bool first = true;
	for (const struct cmd_entry *const *e = cmd_table; *e; e++)
		if (!strncmp((*e)->name, group, n) && (*e)->name[n] == ' ') {
			if (!first)
				fputc('\n', f);
			cmd_help(f, *e);
			first = false;
		}
}

static int exec_help(const struct cmd_entry *self, struct cmd_args *a)
{
	const struct cmd_entry *e;

	if (!a->npos) {
		cmd_help_all(stdout);
		return NVS_EXIT_OK;
	}
	if (a->npos == 2 || is_group(a->pos[0])) {
		char name[64];
		if (a->npos == 1) {
			group_help(stdout, a->pos[0]);
			return NVS_EXIT_OK;
		}
		snprintf(name, sizeof(name), "%.20s %.20s", a->pos[0], a->pos[1]);
		e = cmd_find(name);
	} else {
		e = a->npos == 1 ? cmd_find(a->pos[0]) : NULL;
	}
	if (!e) {
		cmd_say(self, "no command '%s' (nvscope help lists them)", a->pos[0]);
		return NVS_EXIT_USAGE;
	}
	cmd_help(stdout, e);
	return NVS_EXIT_OK;
}

int cmd_exit_of(int rc)
{
	if (rc >= 0)
		return rc;
	switch (rc) {
	case -EINVAL:
	case -EPERM:
	case -EACCES:
	case -EBUSY:
	case -EEXIST:
	case -ENOENT:
	case -ENOTTY:
	case -EISDIR:
	case -ENOTDIR:
	case -EROFS:
	case -ENAMETOOLONG:
	case -EOPNOTSUPP:
	case -ENODEV:
	case -ENXIO:
	case -ELOOP:
	case -EAGAIN: /* the path changed while it was being opened: refused */
	case -EXDEV:
	case -ETXTBSY:
	case -ERANGE:
	case -EOVERFLOW:
	case -EFBIG:
		return NVS_EXIT_USAGE;
	default: /* EIO, ENOSPC, EDQUOT, ENOMEM, ETIMEDOUT, EINTR ...: the run failed */
		return NVS_EXIT_IOERR;
	}
}

static int run_entry(const struct cmd_entry *e, int argc, char **argv)
{
	struct cmd_args a;
	int rc = cmd_parse(e, argc, argv, &a);

	if (rc == 1) {
		cmd_help(stdout, e);
		rc = NVS_EXIT_OK;
	} else if (!rc) {
		rc = e->exec(e, &a);
	}
	cmd_args_free(&a);
	return cmd_exit_of(rc);
}

/* The console and replay draw with ncurses on stdout (which escapes what it
 * draws itself: src/ui/); every other command's stdout is text. */
static bool uses_curses(const char *a1)
{
	if (!strcmp(a1, "--version") || !strcmp(a1, "-V") || !strcmp(a1, "--help") ||
	    !strcmp(a1, "-h"))
		return false;
	return !a1[0] || a1[0] == '-' || !strcmp(a1, "console") || !strcmp(a1, "replay");
}

int cmd_main(int argc, char **argv)
{
	const char *a1 = argc > 1 ? argv[1] : "";
	const struct cmd_entry *e;

	/* issue 20, cause 9: no byte from outside (a file, device or plan name,
	 * a drive's model, a message quoting one) reaches a terminal as a
	 * control: stderr, and stdout but for the console, escape them */
	termesc_install(!uses_curses(a1));

	if (!strcmp(a1, "--version") || !strcmp(a1, "-V")) {
		printf("nvscope %s\n", NVS_VERSION);
		return NVS_EXIT_OK;
	}
	if (!strcmp(a1, "--help") || !strcmp(a1, "-h"))
		return run_entry(&cmd_help_entry, argc - 1, argv + 1);
	if (!a1[0] || a1[0] == '-') /* options only: the console */
		return run_entry(&cmd_console_entry, argc, argv);
	if ((e = cmd_find(a1)))
		return run_entry(e, argc - 1, argv + 1);
	if (is_group(a1)) {
		const char *sub = argc > 2 ? argv[2] : "";
		char name[64];
		if (!sub[0] || !strcmp(sub, "-h") || !strcmp(sub, "--help")) {
			group_help(sub[0] ? stdout : stderr, a1);
			return sub[0] ? NVS_EXIT_OK : NVS_EXIT_USAGE;
		}
		snprintf(name, sizeof(name), "%.20s %.20s", a1, sub);
		if ((e = cmd_find(name)))
			return run_entry(e, argc - 2, argv + 2);
		fprintf(stderr, "nvscope %s: unknown subcommand '%s' (nvscope help %s)\n", a1, sub,
			a1);
		return NVS_EXIT_USAGE;
	}
	fprintf(stderr, "nvscope: unknown command '%s' (try nvscope --help)\n", a1);
	return NVS_EXIT_USAGE;
}

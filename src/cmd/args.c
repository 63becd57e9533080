/* args.c - a command line parsed against a command's entry (cmd.h): the
 * options it declares (--name VALUE, --name=VALUE, -X VALUE, -XVALUE, -X,
 * -- ends them) in the order given, the other arguments in order, and for
 * CMD_WORKLOAD commands the workload options (config/cli.c, tried first,
 * as before).  Not getopt_long: getopt cannot hand the options it does not
 * know to cli_take in place, and the workload options are not a fixed list. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "config/cli.h"

static const struct cmd_opt *find_long(const struct cmd_entry *e, const char *name, size_t n)
{
	for (const struct cmd_opt *o = e->opts; o && o->o.name; o++)
		if (strlen(o->o.name) == n && !strncmp(o->o.name, name, n))
			return o;
	return NULL;
}

static const struct cmd_opt *find_short(const struct cmd_entry *e, char c)
{
	for (const struct cmd_opt *o = e->opts; o && o->o.name; o++)
		if (o->letter && o->letter == c)
			return o;
	return NULL;
}

static int bad(const struct cmd_entry *e, const char *pre, const char *a, const char *post)
{
	cmd_say(e, "%s '%s'%s (see nvscope %s%s--help)", pre, a, post,
		e == &cmd_console_entry ? "" : e->name, e == &cmd_console_entry ? "" : " ");
	return -EINVAL;
}

static void add(struct cmd_args *a, int id, const char *val)
{
	a->opt[a->nopt].id = id;
	a->opt[a->nopt++].val = val;
}

/* A long option at argv[*i]: 0, 1 (--help), -EINVAL. */
static int take_long(const struct cmd_entry *e, int argc, char **argv, int *i, struct cmd_args *a)
{
	const char *s = argv[*i] + 2, *eq = strchr(s, '=');
	size_t n = eq ? (size_t)(eq - s) : strlen(s);
	const struct cmd_opt *o = find_long(e, s, n);

	if (!o) {
		if (n == 4 && !strncmp(s, "help", 4) && !eq)
			return 1;
		return bad(e, "unknown option", argv[*i], "");
	}
	if (o->o.has_arg == no_argument) {
		if (eq)
			return bad(e, "option", argv[*i], " takes no value");
		add(a, o->o.val, NULL);
	} else if (eq) {
		add(a, o->o.val, eq + 1);
	} else if (o->o.has_arg == required_argument && *i + 1 < argc) {
		add(a, o->o.val, argv[++*i]);
	} else if (o->o.has_arg == required_argument) {
		return bad(e, "option", argv[*i], " needs a value");
	} else {
		add(a, o->o.val, NULL);
	}
	return 0;
}

/* Short options at argv[*i] ("-q", "-oFILE", "-o FILE", "-qj"). */
static int take_short(const struct cmd_entry *e, int argc, char **argv, int *i, struct cmd_args *a)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const struct cmd_opt *o = find_short(e, *p);
		if (!o) {
			if (*p == 'h')
				return 1;
			return bad(e, "unknown option", argv[*i], "");
		}
		if (o->o.has_arg == no_argument) {
			add(a, o->o.val, NULL);
			continue;
		}
		if (p[1]) {
			add(a, o->o.val, p + 1);
		} else if (*i + 1 < argc) {
			add(a, o->o.val, argv[++*i]);
		} else {
			return bad(e, "option", argv[*i], " needs a value");
		}
		break;
	}
	return 0;
}

int cmd_parse(const struct cmd_entry *e, int argc, char **argv, struct cmd_args *a)
{
	bool opts_end = false;
	char err[512];
	int rc = 0;

	memset(a, 0, sizeof(*a));
	a->opt = calloc((size_t)argc + 1, sizeof(*a->opt));
	a->pos = calloc((size_t)argc + 1, sizeof(*a->pos));
	if ((e->flags & CMD_WORKLOAD) && !(a->cli = calloc(1, sizeof(*a->cli))))
		rc = -ENOMEM;
	if (!a->opt || !a->pos || rc) {
		cmd_say(e, "out of memory");
		return -ENOMEM;
	}
	for (int i = 1; i < argc && !rc; i++) {
		const char *s = argv[i];
		if (opts_end || s[0] != '-' || !s[1]) {
			a->pos[a->npos++] = argv[i];
			continue;
		}
		if (!strcmp(s, "--")) {
			opts_end = true;
			continue;
		}
		if (a->cli) {
			int k = i;
			int t = cli_take(a->cli, argc, argv, &k, err, sizeof(err));
			if (t < 0) {
				cmd_say(e, "%s", err);
				return -EINVAL;
			}
			if (t > 0) {
				i = k - 1; /* cli_take moved past the option (and its value) */
				continue;
			}
		}
		rc = s[1] == '-' ? take_long(e, argc, argv, &i, a)
				 : take_short(e, argc, argv, &i, a);
	}
	return rc;
}

void cmd_args_free(struct cmd_args *a)
{
	free(a->opt);
	free(a->pos);
	free(a->cli);
	memset(a, 0, sizeof(*a));
}

const char *cmd_get(const struct cmd_args *a, int id)
{
	for (unsigned i = a->nopt; i-- > 0;)
		if (a->opt[i].id == id)
			return a->opt[i].val ? a->opt[i].val : "";
	return NULL;
}

bool cmd_has(const struct cmd_args *a, int id)
{
	return cmd_get(a, id) != NULL;
}

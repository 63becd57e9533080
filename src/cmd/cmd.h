/* cmd.h - the commands as data, in the manner of tmux's cmd_entry: each
 * command is one `struct cmd_entry` (name, summary, usage, options with
 * their help, exec) declared in its own file and listed in table.c.  The
 * dispatcher (cmd_main) finds the command, parses its options from the
 * entry (args.c), answers --help and a bad option from the entry, runs
 * exec, and turns what exec returns into the exit status (cmd_exit_of):
 * the only place -errno becomes an exit status. */
#ifndef NVS_CMD_H
#define NVS_CMD_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include "nvscope.h"

struct cli;

/* One option: getopt's struct option (o.val is the option's id, passed to
 * exec), its short form (-X, or 0 for none) and its help. */
struct cmd_opt {
	struct option o;
	char letter;	  /* -X as well as --name, or 0 */
	const char *arg;  /* the value's name in the help ("FILE"); NULL: a flag */
	const char *help; /* what it does; more lines after '\n' */
};

/* The command line as parsed: the options in the order given, the other
 * arguments in order, and (CMD_WORKLOAD) the workload options. */
struct cmd_arg {
	int id;		 /* the option's o.val */
	const char *val; /* its value; NULL for a flag */
};
struct cmd_args {
	struct cmd_arg *opt;
	unsigned nopt;
	char **pos;
	unsigned npos;
	struct cli *cli; /* CMD_WORKLOAD only, else NULL */
};

/* The workload options every CMD_WORKLOAD command takes.  cli_take reads
 * them (and every fio option) before the table is looked at: these rows
 * are for the help and the docs (ids below 0: never seen by exec). */
/* clang-format off */
#define CMD_WORKLOAD_OPTS                                                                        \
	{{"target", required_argument, NULL, -1}, 0, "PATH",                                     \
	 "a target: a block device, NVMe generic node or file\n"                                 \
	 "(repeat, or a,b, for more)"},                                                           \
	    {{"preset", required_argument, NULL, -2}, 0, "NAME", "a preset's jobs (presets/)"},      \
	    {{"job", required_argument, NULL, -3}, 0, "FILE", "a fio job file"}
/* clang-format on */

enum cmd_flags {
	CMD_WORKLOAD = 1, /* also takes the workload options (config/cli.h), tried first */
};

struct cmd_entry {
	const char *name;	    /* "run", "trace record" */
	const char *alias;	    /* another name, or NULL */
	const char *summary;	    /* one line, for `nvscope help` */
	const char *usage;	    /* after "usage: nvscope "; more forms after '\n' */
	const char *text;	    /* what it does, before the options; or NULL */
	const struct cmd_opt *opts; /* ends with a zeroed entry; --help is added */
	const char *notes;	    /* after the options (exit statuses ...); or NULL */
	unsigned flags;		    /* enum cmd_flags */
	/* Returns an exit status (enum nvs_exit, or 128 + a signal) or a
	 * -errno, which cmd_exit_of turns into one.  Prints its own errors. */
	int (*exec)(const struct cmd_entry *self, struct cmd_args *args);
};

/* table.c: every command, the console first; NULL-terminated. */
extern const struct cmd_entry *const cmd_table[];

extern const struct cmd_entry cmd_console_entry, cmd_replay_entry, cmd_run_entry, cmd_list_entry,
    cmd_health_entry, cmd_purge_entry, cmd_plan_entry, cmd_steady_entry, cmd_report_entry,
    cmd_check_entry, cmd_agent_entry, cmd_trace_record_entry, cmd_trace_show_entry,
    cmd_trace_convert_entry;

/* nvscope's whole command line (argv[0] is the program): finds the command,
 * parses, runs it.  Returns the process's exit status. */
int cmd_main(int argc, char **argv);
/* The command named @name ("list", "trace record"), or NULL. */
const struct cmd_entry *cmd_find(const char *name);
/* The --help text of @e, from the entry only. */
void cmd_help(FILE *f, const struct cmd_entry *e);
/* `nvscope help`: the commands and their summaries, then the console's help. */
void cmd_help_all(FILE *f);
/* A message on stderr, named as @e is ("nvscope run: ...", "nvscope: ..."
 * for the console), ended with a newline. */
void cmd_say(const struct cmd_entry *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* args.c: parses argv[1..argc) (argv[0] is the command's name) against @e's
 * options into @a (freed by cmd_args_free).  Returns 0; 1 when --help was
 * given (nothing else looked at after it); -EINVAL with the message printed
 * ("unknown option", "needs a value" ...); -ENOMEM. */
int cmd_parse(const struct cmd_entry *e, int argc, char **argv, struct cmd_args *a);
void cmd_args_free(struct cmd_args *a);
/* The last value of option @id, or NULL (a flag given: ""). */
const char *cmd_get(const struct cmd_args *a, int id);
bool cmd_has(const struct cmd_args *a, int id);

/* THE one place a -errno from a lower layer becomes an exit status:
 * refusals and bad input (a device in use or holding data, an output
 * refused, a name too long, a bad value; nothing was touched) are 2, a
 * failure while running (I/O error, no space, no memory) 1.  A value >= 0
 * is an exit status already and is returned as it is. */
int cmd_exit_of(int rc);

#endif

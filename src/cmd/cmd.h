/* cmd.h - the subcommands; each returns the process exit status (enum
 * nvs_exit).  argv[0] is the subcommand's name ("run"), or "nvscope" for the
 * console when no subcommand was given. */
#ifndef NVS_CMD_H
#define NVS_CMD_H

int cmd_run(int argc, char **argv);     /* run.c: headless workload */
int cmd_list(int argc, char **argv);    /* list.c: devices and targets */
int cmd_health(int argc, char **argv);  /* health.c: SMART / health log */
int cmd_purge(int argc, char **argv);   /* purge.c: format/sanitize/trim */
int cmd_plan(int argc, char **argv);    /* plan.c: review procedures */
int cmd_steady(int argc, char **argv);  /* steady.c: steady-state rule on a series */
int cmd_report(int argc, char **argv);  /* report.c: HTML/SVG report */
int cmd_check(int argc, char **argv);   /* check.c: PASS/FAIL per drive */
int cmd_replay(int argc, char **argv);  /* console.c: replay a results dir */
int cmd_console(int argc, char **argv); /* console.c: the full-screen console */
int cmd_trace(int argc, char **argv);   /* trace.c: record and show block traces */

#include <errno.h>
#include "nvscope.h"
/* A -errno from a lower layer as an exit status: refusals (a device in use
 * or holding data, an output file or directory refused, bad input; nothing
 * was touched) are 2, failures while running 1. */
static inline int cmd_exit_of(int rc)
{
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
		return NVS_EXIT_USAGE;
	default:
		return NVS_EXIT_IOERR;
	}
}

#endif

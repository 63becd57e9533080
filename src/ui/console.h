/* console.h - the full-screen console (ncursesw): entry point used by
 * src/cmd/console.c for `nvscope` and `nvscope replay DIR`. */
#ifndef NVS_UI_CONSOLE_H
#define NVS_UI_CONSOLE_H

#include <stdbool.h>
#include "nvscope.h"
#include "io/opt/spec.h"
#include "stats/steady.h"

struct source_hosts;

struct console_opts {
	const char *targets[NVS_MAX_TARGETS]; /* preselected targets */
	unsigned ntargets;
	const struct spec *jobs; /* start these at once (copied), NULL = none */
	unsigned njobs;
	const char *run_name; /* name of that run (the preset's, "custom") */
	const char *theme;    /* theme name, NULL = default */
	const char *results;  /* results directory, NULL = results/<stamp>-<name> */
	const char *show_dir; /* show this results directory instead (source_open) */
	bool ascii, demo;
	bool showfloor;		     /* --showfloor: a booth (big figures, locked keys) */
	bool no_mouse;		     /* --no-mouse: leave the mouse to the terminal */
	bool no_settings;	     /* --no-settings: neither read nor write settings.ini */
	double speed;		     /* replay speed, 0 = 1x */
	const char *plan;	     /* --plan NAME: start this plan on the targets */
	const char *check;	     /* --check PROFILE: check the targets at once */
	bool all_nvme;		     /* --all-nvme: every NVMe namespace is a target */
	const char *confirm;	     /* --yes-destroy-data list for it */
	const char *plan_ovr[32][2]; /* its duration overrides (key, value) */
	unsigned nplan_ovr;
	double round_s;		 /* steady-state round, s; 0 = 60 */
	struct steady_params ss; /* the rule (ss_given: from the command line) */
	bool ss_given;
	struct spec base;	    /* defaults plus the command line's workload
				     * options, under presets launched from the screen */
	struct source_hosts *hosts; /* --host: other hosts shown (taken), NULL none */
};

/* Runs the console until the user quits (or SIGINT/SIGTERM).  Restores the
 * terminal on every exit path.  Returns the exit status: 0, 2 for bad input
 * found before the screen opens (message on stderr), 1 for a fatal error. */
int console_run(const struct console_opts *o);

#endif

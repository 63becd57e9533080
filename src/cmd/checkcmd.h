/* checkcmd.h - the drive check of `nvscope check` (check.c) as one call:
 * choosing the drives, the confirmation and safety checks before anything
 * is touched, the results directory, the run, the results and the exit
 * status.  `nvscope check` calls it with its command line; `nvscope agent`
 * (agent.c) with a client's request, its --allow list, its own progress,
 * cancel flag and output. */
#ifndef NVS_CMD_CHECKCMD_H
#define NVS_CMD_CHECKCMD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "nvscope.h"

struct check_batch;

struct checkcmd {
	const char *targets[NVS_MAX_TARGETS];
	unsigned ntargets;
	bool all_nvme, json, quiet, force;
	const char *model, *profile, *csv, *dir, *confirm, *resume;
	/* NULL for the command; the agent's: */
	/* may @path be checked?  0, or -errno with @err (a target refused by
	 * name before anything is opened; --all-nvme skips what is refused) */
	int (*allow)(void *arg, const char *path, char *err, size_t errlen);
	void *allow_arg;
	/* progress (from the calling thread, ~5 Hz); NULL: the command's line */
	void (*tick)(const struct check_batch *b, void *arg);
	void *tick_arg;
	/* stops the run; NULL: the stop signals (caught during the run) */
	const _Atomic int *cancel;
	/* the checked batch (@batch_json: a cJSON *, the caller's only for
	 * the call); NULL: the table or --json on stdout */
	void (*out)(const struct check_batch *b, void *batch_json, const char *dir, void *arg);
	void *out_arg;
};

/* Runs the check @o says.  Returns the exit status of `nvscope check`:
 * 0 every drive PASS or WARN, 1 a FAIL, N/A or interrupted, 2 bad input
 * or refused (nothing touched); messages on stderr. */
int checkcmd_run(const struct checkcmd *o);

#endif

/* cli.h - workload options on a command line (`run`, the console, plans):
 * --target, --preset, --job and any fio option as --name=value, turned into
 * the list of jobs to run.  Shared so every command reads them the same. */
#ifndef NVS_CLI_H
#define NVS_CLI_H

#include <stddef.h>
#include "io/opt/spec.h"

struct preset_extra;

#define CLI_MAX_KV 128

struct cli {
	struct {
		const char *key, *val; /* point into argv */
		size_t klen;           /* key ends before '=' */
	} kv[CLI_MAX_KV];
	unsigned nkv;
	const char *targets[NVS_MAX_TARGETS];
	unsigned ntargets;
	const char *preset; /* --preset NAME */
	const char *job;    /* --job FILE.fio */
	bool no_target_ok;  /* cli_jobs: a job without a target is fine (--parse-only) */
	const char *fileset; /* --filename=a:b: fio's one job over the files, or NULL */
	/* NULL, or what cli_jobs hands the loader: x->file learns each file
	 * read (the preset or job file, its includes) */
	const struct preset_extra *extra;
};

/* If argv[*i] is a workload option, records it (consuming a separate value
 * argument when there is one) and advances *i past it: returns 1.  Returns 0
 * when argv[*i] is something else (left for the caller), -EINVAL with @err
 * for a workload option that is malformed.  Accepted forms: --key=value,
 * --key value, and --flag for boolean options. */
int cli_take(struct cli *c, int argc, char **argv, int *i, char *err, size_t errlen);
/* Builds the jobs: defaults, then the preset or job file (if any), then the
 * command-line options in order, then the targets (which replace a file's
 * filename=).  *@jobs is malloc'ed (caller frees).  Every job is validated.
 * Returns 0, -ENOENT (preset not found) or -EINVAL with @err. */
int cli_jobs(const struct cli *c, struct spec **jobs, unsigned *njobs, char *err, size_t errlen);

#endif

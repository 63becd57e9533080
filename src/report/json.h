/* json.h - results as JSON in fio's layout (jobs[].read|write ...) plus an
 * "nvscope" key for what fio has not (series, drops, CPU per core, device). */
#ifndef NVS_JSON_H
#define NVS_JSON_H

#include <stdio.h>
#include "io/opt/spec.h"
#include "stats/collect.h"
#include "stats/cpu.h"
#include "stats/diskstat.h"
#include "stats/result.h"

/* What fio reports per job beyond the result (optional, per jobs[] entry). */
struct fioss;
struct json_job {
	const struct spec *spec;  /* the job's own workload (rw, bs...); NULL: run->spec */
	double elapsed_s;	  /* wall time including ramp_time */
	uint64_t ctx, majf, minf; /* context switches, major/minor faults (process) */
	/* fio's job_runtime: the sum over the jobs group_reporting folded into
	 * this entry (fio's total_run_time; CPU % are of it); 0: the result's */
	double job_runtime_s;
	struct fioss *ss; /* fio's steady state, or NULL (report/jsonss.h);
			   * the caller's (run/runsteps.c frees it) */
	/* "job options" (and their iodepth) from this spec, NULL: @spec's; a
	 * group_reporting entry's are its last job's, as fio's (stat.c
	 * opt_lists: the last job of the group sets them) */
	const struct spec *opt_spec;
};

struct json_run {
	const struct spec *spec;
	const struct result *jobs; /* one per queue depth step / target */
	unsigned njobs;
	const struct result *targets; /* per target: [job * ntargets + t], or NULL */
	unsigned ntargets;
	const struct series *series; /* aggregate series of each job, or NULL */
	const double *series_t0;     /* each series' start, subtracted from its
				      * points' t in the JSON (NULL: 0) */
	/* machine CPU per job (optional): [job * CPU_MAX + core], ncores[job] */
	const struct cpu_util *cores;
	const unsigned *ncores;
	uint64_t dropped;
	const char *extra_key;	      /* optional extra object under "nvscope" */
	const char *extra_json;	      /* ... its JSON text */
	const struct json_job *info;  /* [njobs] or NULL */
	const struct diskstat *disks; /* disk_util entries (deltas over the run) */
	unsigned ndisks;
	bool plus; /* json+: clat_ns.bins (fio's histogram bins) */
	/* lat_ns.bins too, of the job and of each target (fio's json+ with
	 * lat_percentiles=1): the full histograms the report's QoS is built
	 * from (report/qos.h); a plan's step JSON has them */
	bool lat_bins;
	const unsigned *groupid; /* [njobs]: fio's groupid of each job, or NULL (the index) */
	int stop_signal;	 /* a signal stopped the run: nvscope.stopped_by_signal */
	const char *repeat_json; /* --repeat's summary (a JSON object): nvscope.repeat, or NULL */
};

#define JSON_MAX_BYTES (256u << 20)
/* Reads and parses the JSON file @path (a regular file of at most
 * JSON_MAX_BYTES, base/input.h).  Returns a cJSON tree the caller frees
 * with cJSON_Delete (declared void * so this header needs no cJSON), or
 * NULL with errno set (EINVAL: not valid JSON or not a regular file,
 * EFBIG: larger). */
void *json_read_file(const char *path);

/* Makes every string (keys and values) of the cJSON @tree well-formed
 * UTF-8, replacing each byte that is not by U+FFFD: text from outside
 * (paths, job names, a drive's model and serial) never makes invalid JSON.
 * 0 or -ENOMEM. */
int json_make_utf8(void *tree);
/* json_make_utf8, then cJSON_Print: what every JSON writer prints with
 * (cJSON writes NaN and infinities as null).  malloc'ed text, or NULL. */
char *json_print(void *tree);
/* json_print's text and a newline on @f (the tree stays the caller's; a
 * NULL @tree is a tree that could not be built).  0, -ENOMEM or -EIO. */
int json_puts(void *tree, FILE *f);

/* Writes the whole document to @f.  0 or -errno. */
int json_write_run(FILE *f, const struct json_run *run);

#endif

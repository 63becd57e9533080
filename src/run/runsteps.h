/* runsteps.h - the steps of a headless run (`nvscope run`): each job at each
 * of its queue depths, alone or with the other jobs of its fio run group,
 * and the results they leave, one entry per result in parallel arrays (the
 * arrays fio's report and the JSON writer read). */
#ifndef NVS_RUNSTEPS_H
#define NVS_RUNSTEPS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <time.h>
#include "nvscope.h"
#include "io/opt/spec.h"
#include "report/json.h"
#include "run/runjob.h"
#include "stats/cpu.h"
#include "stats/diskstat.h"
#include "stats/result.h"
#include "stats/series.h"

/* The run's results: parallel arrays of @cap entries, [n] used (tres
 * [n * ntargets], cores [n * CPU_MAX], disks [n * NVS_MAX_TARGETS]); a
 * step's numjobs copies are one entry each when fio lists them apart. */
struct runsteps {
	struct result *res, *tres;
	unsigned ntargets;
	struct series *ser;
	struct json_job *info; /* info[i].ss: owned */
	unsigned *gid;	       /* fio's groupid (a QD sweep: the step's index) */
	char **tjson;	       /* nvscope.trace of the step (read_iolog), owned */
	struct cpu_util *cores;
	unsigned *ncores;
	struct diskstat *disks; /* the step's disk deltas, on its first entry */
	unsigned *ndisks;
	unsigned *step; /* the run step (job x depth) of each entry, or NULL */
	unsigned n;
	unsigned cap;	/* entries allocated (runsteps_alloc) */
	unsigned nstep; /* steps recorded */
};

/* How many entries @jobs' results may take (every depth of every job, each
 * numjobs copy apart); *@nsteps: the steps (job x depth). */
unsigned runsteps_size(const struct spec *jobs, unsigned njobs, unsigned *nsteps);
/* Allocates @rs's arrays for @cap entries of @ntargets targets each.  0 or
 * -ENOMEM (runsteps_release frees what was allocated). */
int runsteps_alloc(struct runsteps *rs, unsigned cap, unsigned ntargets);
/* Frees @rs's arrays and everything its entries own. */
void runsteps_release(struct runsteps *rs);

/* The process, time and disk figures around one step. */
struct runsteps_meter {
	struct rusage ru0, ru1;
	struct timespec t0, t1;
	struct diskstat d0[NVS_MAX_TARGETS];
	bool have[NVS_MAX_TARGETS];
};
/* Before the step of @s: its targets' disk counters, the process's
 * figures, the time. */
void runsteps_meter_start(struct runsteps_meter *m, const struct spec *s);
/* After the step: the time and the process's figures. */
void runsteps_meter_stop(struct runsteps_meter *m);

/* fio without group_reporting lists each of numjobs copies apart; with
 * it, one entry whose job_runtime is theirs summed. */
bool runsteps_apart(const struct spec *s, const struct runjob *rj);
/* Records step rs->nstep, @rj of job @s (@sweep: the run is a QD sweep,
 * the groupid is the step's index), measured by @m: one entry per copy
 * (runsteps_apart) or one for all, the process and disk figures on the
 * first; takes the series, trace JSON and steady state @rj owns (the
 * step's aggregate series stays in @rj when its copies are apart).
 * Returns the step's first entry. */
unsigned runsteps_add(struct runsteps *rs, const struct spec *s, bool sweep, struct runjob *rj,
		      const struct runsteps_meter *m);

/* `nvscope run --repeat N` (KDiskMark's repeat: each test run N times,
 * its average and peak): a step's N runs summed up.  Each figure's mean,
 * min, max and sample standard deviation ([RUNSTEPS_MEAN ..]); a run's
 * IOPS and MB/s are its entries' (numjobs copies) summed, its latency
 * their merged histograms'. */
enum { RUNSTEPS_MEAN, RUNSTEPS_MIN, RUNSTEPS_MAX, RUNSTEPS_SD, RUNSTEPS_NSTAT };
struct runsteps_rep {
	const struct spec *spec; /* the job */
	unsigned iodepth;
	unsigned n; /* runs recorded (fewer than asked: interrupted) */
	double iops[RUNSTEPS_NSTAT], mbps[RUNSTEPS_NSTAT];
	double mean_us[RUNSTEPS_NSTAT], p99_us[RUNSTEPS_NSTAT];
};
/* The steps of @rs (entries of the same job and depth, each run its own
 * step number) into @out (room for @max); returns how many, or -ENOMEM. */
int runsteps_repeats(const struct runsteps *rs, struct runsteps_rep *out, unsigned max);

/* Sums the disk deltas of every entry by device into @out
 * (NVS_MAX_TARGETS); returns how many devices. */
unsigned runsteps_merge_disks(const struct runsteps *rs, struct diskstat *out);

/* A fio run group (jobs between stonewalls) run together: the results of
 * its jobs [first, first + n), handed out one by one. */
struct runsteps_group {
	struct runjob *r;
	unsigned first, n;
	int rc; /* runjob_run_many's */
};
/* Runs jobs [first, first + n) of @jobs together, each at its first depth
 * (the group before, if any, released first), at their places in the run
 * (@places[j] for @jobs[j]; NULL: jobs run alone).  rc as runjob_run_many's,
 * with @err. */
int runsteps_group_run(struct runsteps_group *g, const struct spec *jobs,
		       const struct datagen_place *places, unsigned first, unsigned n,
		       const _Atomic int *cancel, runjob_tick_fn tick, char *err, size_t errlen);
/* Is job @j of the group run (its results there)? */
bool runsteps_group_has(const struct runsteps_group *g, unsigned j);
/* Hands job @j's results over to @out (runsteps_group_has): the group's
 * rc. */
int runsteps_group_take(struct runsteps_group *g, unsigned j, struct runjob *out);
void runsteps_group_release(struct runsteps_group *g);

#endif

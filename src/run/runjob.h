/* runjob.h - run one job at one queue depth to the end, headless: the loop
 * every non-interactive consumer needs (run, plans).  The console drives
 * the pool itself, frame by frame (session.c), from the same set-up
 * (runjob_pool_new). */
#ifndef NVS_RUNJOB_H
#define NVS_RUNJOB_H

#include <stdatomic.h>
#include "io/core/pool.h"
#include "stats/collect.h"
#include "stats/cpu.h"
#include "stats/fioss.h"
#include "stats/result.h"

struct runjob {
	struct result agg;	   /* all targets */
	struct result *per_target; /* [ntargets], malloc'ed */
	unsigned ntargets;
	struct series series;	      /* aggregate per-interval rows (owned) */
	struct series *target_series; /* [ntargets] per-target rows (owned) */
	uint64_t dropped, missing;    /* samples dropped on rings / missing in rows */
	int error;		      /* first I/O-time error, -errno, 0 */
	char msg[256];
	bool cancelled;
	double elapsed_s; /* wall time from start to the last completion */
	/* machine CPU over the whole job, from /proc/stat (valid when ncores) */
	unsigned ncores;
	struct cpu_util cores[CPU_MAX];
	struct cpu_util cpu_total;
	/* fio's numjobs copies (fio without group_reporting lists each
	 * clone): numjobs > 1 and no replay; else nclones is 0.  clone[c],
	 * clone_target[c * ntargets + t] and clone_series[c] as agg,
	 * per_target and series of copy c (owned) */
	unsigned nclones;
	struct result *clone;
	struct result *clone_target;
	struct series *clone_series;
	/* trace replay (read_iolog): nvscope.trace as JSON text and one line
	 * for people (report/tracejson.h); NULL/"" without a trace */
	char *trace_json;
	char trace_line[1024];
	/* fio's steady state (steadystate=, ss_dur=): the detector, NULL when
	 * off (or held by another job of its group_reporting group) */
	struct fioss *ss;
};

/* Called about every 100 ms while the job runs (progress display). */
typedef void (*runjob_tick_fn)(const struct pool *p, const struct collect *c, void *arg);

/* Runs @s at queue depth @qd (0 = its first) until it ends or *@cancel
 * becomes non-zero.  Set-up failures return -errno with @err (nothing ran);
 * otherwise 0 with @out filled (out->error tells of I/O errors).  Release
 * @out with runjob_release. */
int runjob_run(const struct spec *s, unsigned qd, const _Atomic int *cancel, runjob_tick_fn tick,
	       void *arg, struct runjob *out, char *err, size_t errlen);
/* What runjob_run_rows takes besides runjob_run's: a hook called for every
 * aggregate row as it is emitted (collect_on_row; NULL none: fio's
 * histogram log), the job's place among its run's jobs (io/core/datagen.h;
 * NULL: a job run alone). */
struct runjob_more {
	collect_row_fn row;
	void *row_arg;
	const struct datagen_place *place;
};
int runjob_run_rows(const struct spec *s, unsigned qd, const _Atomic int *cancel,
		    runjob_tick_fn tick, void *arg, const struct runjob_more *more,
		    struct runjob *out, char *err, size_t errlen);
/* The checks of a run group's options together (fio's steadystate options
 * consistent within a report group), made by runjob_run_many before any of
 * its jobs opens a file; `nvscope run` makes them for every group before
 * the first.  0 or -EINVAL with @err. */
int runjob_check_group(const struct spec *specs, unsigned n, char *err, size_t errlen);
/* Runs @n jobs together, as fio runs one group of jobs between stonewalls:
 * @specs[i] at queue depth @qds[i] (0 = its first); all are set up before
 * any starts, then started at once; returns when the last one ends or
 * *@cancel becomes non-zero (which stops them all).  fio's exitall: when a
 * job with spec.exitall ends, the others of its report group stop
 * (exit_what=group), or all of them (stonewall, all).  @outs[i] as
 * runjob_run fills it (CPU figures are the machine's over the whole group).
 * Set-up failures return -errno with @err (nothing ran).  Release each
 * @outs[i] with runjob_release. */
int runjob_run_many(const struct spec *specs, const struct datagen_place *places,
		    const unsigned *qds, unsigned n, const _Atomic int *cancel, runjob_tick_fn tick,
		    void *arg, struct runjob *outs, char *err, size_t errlen);
/* The one set-up of a job's pool (not started) and its collector, for
 * runjob_run*, and the console's session: pool_new for @s at queue depth
 * @qd (0 = its first), then a collector with one group per target (one for
 * a stripe set), *@groups set.  0, or -errno with @err (nothing left). */
int runjob_pool_new(const struct spec *s, unsigned qd, struct pool **pp, struct collect **cp,
		    unsigned *groups, char *err, size_t errlen);
/* Frees what runjob_run allocated in @r.  NULL-safe. */
void runjob_release(struct runjob *r);

/* A replay's figures as text (nvscope.trace JSON and one line), built by a
 * higher layer (report/tracejson.c); main.c registers it once at start.
 * Without it a replay reports no trace figures. */
struct trace;
struct replay_stats;
struct runjob_trace_fmt {
	char *(*build)(const struct spec *s, const struct trace *t, const struct result *res,
		       const struct replay_stats *const *ts, unsigned n);
	void (*line)(const struct trace *t, const struct replay_stats *const *ts, unsigned n,
		     bool timed, char *buf, size_t len);
};
void runjob_set_trace_fmt(const struct runjob_trace_fmt *f);

#endif

/* lattarget.h - fio's latency target (latency_target, latency_window,
 * latency_percentile, latency_run; fio's io_u.c lat_target_*): a job searches
 * the queue depth at which the given percentage of its I/Os (reads and
 * writes) complete within the target, one window at a time.  It starts at
 * depth 1, doubles while a window succeeds, bisects between the last good
 * and the first bad depth once one fails; without latency_run, when a
 * success leaves the depth where it was, a last window runs at that depth
 * with the statistics reset (what the job reports), then the job ends.
 *
 * The state is the worker's own (no locks, no atomics): the worker calls
 * lattarget_note() per completion, lattarget_check() after each reap, and
 * holds new I/O while lattarget_depth() are in flight or quiesce is set. */
#ifndef NVS_LATTARGET_H
#define NVS_LATTARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/opt/opt.h"
#include "io/opt/spec.h"

enum lattarget_act {
	LT_NONE,    /* go on */
	LT_QUIESCE, /* lower depth (or the final window next): let the in-flight
		     * I/O complete, then call lattarget_resume() */
	LT_DONE,    /* the final window is over: end the job */
	LT_FATAL,   /* latency_percentile=100 and an I/O late at depth 1: fio's
		     * "max latency exceeded" (ETIMEDOUT) */
};

struct lattarget {
	bool on;
	uint64_t target_ns, window_ns;
	double pct;
	bool run;     /* latency_run: keep adjusting, never end */
	unsigned max; /* the job's iodepth */
	unsigned qd, qd_low, qd_high, stable;
	uint64_t cycle_ns;	 /* the window's start */
	uint64_t ios, cycle_ios; /* completed reads/writes; at the window's start */
	uint64_t failed;	 /* of those, above target this window */
	bool quiesce, end_run, reset_due;
};

/* Sets up @lt for a job of @s at queue depth @max, at time @now (fio's
 * lat_target_init); without latency_target lt->on is false and the depth
 * is @max. */
void lattarget_init(struct lattarget *lt, const struct spec *s, unsigned max, uint64_t now);
/* The measurement starts (after ramp_time): fio's reset_all_stats restarts
 * the search unless the final window runs. */
void lattarget_restart(struct lattarget *lt, uint64_t now);
/* The depth to keep at most in flight. */
static inline unsigned lattarget_depth(const struct lattarget *lt)
{
	return lt->qd;
}
/* One read or write completed with latency @lat_ns.  LT_NONE, LT_QUIESCE
 * (percentile 100: ramped down at once) or LT_FATAL. */
enum lattarget_act lattarget_note(struct lattarget *lt, uint64_t lat_ns);
/* After a reap at @now: when the window is over, judges it (LT_NONE,
 * LT_QUIESCE or LT_DONE). */
enum lattarget_act lattarget_check(struct lattarget *lt, uint64_t now);
/* The in-flight I/O has completed after LT_QUIESCE: a new window starts at
 * @now.  True when the job's statistics are to be reset first (the final
 * window at the depth found). */
bool lattarget_resume(struct lattarget *lt, uint64_t now);

/* latency_target, latency_window, latency_percentile, latency_run: rows
 * of io/opt's table. */
#define LATTARGET_NOPTS 4
extern const struct opt_row lattarget_opts[LATTARGET_NOPTS];
/* Consistency with the rest of @s.  0 or -EINVAL with @err. */
int lattarget_spec_validate(const struct spec *s, char *err, size_t errlen);

#endif

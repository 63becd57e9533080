/* series.h - the per-interval history of one target (or of the aggregate):
 * a growing, time-ordered array of points that the collector fills, the
 * console draws and the writers (csv, json, html, fio logs) read.  Pure
 * data: no I/O, no report/ui/cmd code.
 *
 * Memory: a point is kept compact (see struct point) because a console run
 * holds one per target per interval for its whole length (24 targets x
 * 16,000 s of 1-s points must fit in 64 MiB, bench/console-rss.c); per-
 * interval latency histograms are never kept, only the quantiles drawn. */
#ifndef NVS_SERIES_H
#define NVS_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "nvscope.h"

/* One interval of one target (or of the aggregate): 112 bytes (196 with
 * doubles everywhere).  Time and interval length stay 64-bit (a run's clock
 * needs the digits) and an interval's errors an exact count; bandwidth,
 * rates, latencies and CPU are 32-bit floats, 7 significant digits
 * (relative error < 6e-8), far finer than anything the panes draw or the
 * CSV prints (%.1f IOPS, %.3f MB/s, %.2f us).  Code that reads a value
 * field through an offset (draw.c's plots: IOPS, MB/s, latency) reads a
 * float - every plotted field must be one (bandwidth was a double and the
 * MB/s strip drew garbage: tests/ui/console_mbps.sh). */
struct point {
	double t;  /* end of interval, s since the job's start */
	double dt; /* interval length, s */
	uint64_t errors;
	float bw[NVS_NDIR]; /* bytes/s */
	float iops[NVS_NDIR];
	float lat_mean_us[NVS_NDIR];
	/* of lat_mean_us, the part before clat (clat = the rest): fio's slat
	 * when the job measures it (sample.h) */
	float slat_mean_us[NVS_NDIR];
	float lat_p99_us[NVS_NDIR];
	float lat_max_us[NVS_NDIR];
	float lat_mean_all_us; /* both directions */
	float lat_p99_all_us;
	float cpu_pct;	  /* worker threads, % of one core */
	uint16_t workers; /* workers that reported (< expected: drops; saturates) */
	uint8_t ramp;	  /* 1 during ramp_time */
};

/* IOPS and bytes/s of all directions (reads, writes, trims) together. */
static inline double point_iops(const struct point *p)
{
	return (double)p->iops[NVS_READ] + p->iops[NVS_WRITE] + p->iops[NVS_TRIM];
}
static inline double point_bw(const struct point *p)
{
	return p->bw[NVS_READ] + p->bw[NVS_WRITE] + p->bw[NVS_TRIM];
}

/* A growing array of points. */
struct series {
	struct point *pt;
	size_t n, cap;
};

/* Appends one point to @s (grows it).  0 or -ENOMEM. */
int series_push(struct series *s, const struct point *p);

/* Multi-resolution history (an RRD's consolidation, issue 25): a console
 * keeps per target what it can draw, and the full-resolution points are in
 * the results directory.
 *
 * point_merge: @b, the interval right after @a, merged into @a: one point
 * ending at b's end over both intervals; rates and CPU are time-weighted
 * means, mean latencies weighted by each interval's I/Os, errors summed,
 * the p99 and max latencies the larger of the two (a coarse point's p99 is
 * its worst interval's: the tail is never smoothed away), workers the
 * fewer.  point_mergeable: @b starts where @a ends (within 1% of b's
 * length) and both are ramp or both not.
 *
 * The archive (as an RRD keeps one): the newest @keep points of a series
 * at full resolution, the older ones at one coarser resolution for all
 * (@res seconds a point, twice the interval at first, doubled whenever
 * they are more than @keep), so a series holds at most 2.25 x keep + 1
 * points however long the run.  Points that cannot merge (a gap, the ramp's
 * edge) stay apart. */
void point_merge(struct point *a, const struct point *b);
bool point_mergeable(const struct point *a, const struct point *b);

struct series_rrd {
	size_t keep;
	size_t nold; /* pt[0 .. nold) are the coarse ones */
	double res;  /* their length, s (0: none yet) */
};
/* After a push: once more than keep + keep / 4 points are fine, the oldest
 * of them merged into the coarse part (each into its last point while that
 * spans less than res), which is halved when it grows past keep.  Returns
 * how many points were removed. */
size_t series_rrd_fold(struct series *s, struct series_rrd *r);

/* @live with the points of @win (a full-resolution stretch read back, in
 * time order) in place of live's points over the same time: live's points
 * that end at or before win's first starts, win's, then live's that end
 * after win's last (a millisecond's slack: a CSV's times), into @out
 * (emptied first).  0 or -ENOMEM. */
int series_compose(const struct series *live, const struct series *win, struct series *out);
/* Frees the points of @s (not @s itself). */
void series_release(struct series *s);

#endif

/* rwhtml.h - mixed workloads in the HTML report (html.c), issue 23 item
 * 8: a 70/30 step's read and write latency apart (mean and p99 of each
 * direction, from each row's JSON: a step table holds them merged), in a
 * table under the step table, in the thread x QD grid and on the rate
 * curve; and the rate curve's charts themselves: latency against the
 * achieved IOPS (or MB/s for a 64K or sequential curve) with the points in
 * order of it, so that a point that fell short of its asked rate does not
 * turn the line back, and the achieved against the requested rate as a
 * chart of its own.  Input is outside data: range-checked, escaped. */
#ifndef NVS_RWHTML_H
#define NVS_RWHTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "report/rtable.h"

/* One direction of one row: NAN where unknown or unsupported (p99 needs
 * 100 I/Os, as the QoS columns). */
struct rw_dir {
	double ios, iops, mean_us, p99_us;
};
/* The rows of one drive's step table. */
struct rw_rows {
	size_t n;
	struct rw_dir (*d)[2]; /* [n][0 read, 1 write] */
	bool mixed;	       /* some row did both reads and writes */
};

/* Loads each row of @t (step @kind: "measure", "rate-curve", "grid") of
 * @dir/@sub from its JSON.  0 or -ENOMEM (then @rw is empty). */
int rwhtml_load(const char *dir, const char *sub, const char *kind, const struct rtab *t,
		struct rw_rows *rw);
void rwhtml_free(struct rw_rows *rw);

/* One drive of a step: its label, colour, dash pattern (NULL: solid),
 * table and rows. */
struct rwhtml_drive {
	const char *label, *color, *dash;
	const struct rtab *t;
	const struct rw_rows *rw;
};
/* "Read and write apart" under the step table of @kind: a row per row of
 * each mixed drive (nothing when none is mixed). */
void rwhtml_table(FILE *f, const struct rwhtml_drive *d, unsigned nd, const char *kind);
/* The thread x QD grids of read and of write latency ("mean / p99") of one
 * drive's grid @t (nothing when it is not mixed). */
void rwhtml_grid(FILE *f, const struct rtab *t, const struct rw_rows *rw);
/* The rate curve's charts: mean and p99 latency against the achieved IOPS
 * (@mbps: MB/s or GB/s), each drive's points in order of it, read and
 * write apart (write dashed; dotted for a drive drawn dashed) for a mixed
 * drive; then achieved against
 * requested IOPS with the line where they are equal. */
void rwhtml_rate_charts(FILE *f, const struct rwhtml_drive *d, unsigned nd, bool mbps);

#endif

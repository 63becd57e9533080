/* qos.h - latency QoS read back from a results directory's fio-layout JSON:
 * the full latency histogram of a job (or of one target) rebuilt from its
 * json+ bins, the percentiles reviews quote (p50 ... p99.9999) with the
 * I/O count each needs, and the exceedance (1 - CDF) and histogram curves
 * the HTML report draws.  The input is outside data (a results directory
 * may be hostile): every key and count is range-checked, nothing is cut. */
#ifndef NVS_QOS_H
#define NVS_QOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "stats/hist.h"

/* The QoS levels of the report: percentile and the I/Os it needs. */
#define QOS_NLEVELS 6
struct qos_level {
	double pct;	  /* 50, 99, 99.9 ... 99.9999 */
	const char *name; /* "p50", "p99", ... "p99.9999" */
	uint64_t min_ios; /* stated only with at least this many I/Os */
};
extern const struct qos_level qos_levels[QOS_NLEVELS];

/* Largest count accepted in a bin (a double holds integers exactly up to
 * 2^53; cJSON reads numbers as doubles). */
#define QOS_MAX_COUNT (1ull << 53)

/* Merges the "lat_ns" histograms of the "read" and "write" objects of
 * @job (a cJSON jobs[] entry or an nvscope.targets[] entry, as void * so
 * this header needs no cJSON) into @h (hist_init'ed here): bucket
 * hist_index(key) += count for every bin.  The bins must add up to each
 * direction's "N" (a histogram that does not is not the full one); h->min
 * and h->max are the directions' exact min and max when given (the
 * percentiles are clamped to them, as the writer's are).  0; -ENOENT when
 * neither direction has bins (a results directory written before the
 * bins, or no I/O); -EINVAL for a bad key, count or a sum that is not N;
 * -EOVERFLOW when the counts overflow. */
int qos_job_hist(const void *job, struct hist *h);

/* Percentile @pct of @h (nearest rank, hist_percentile), or false when
 * @h holds fewer I/Os than the level needs (@min_ios): "n/a", never a
 * figure the I/Os cannot support. */
bool qos_value(const struct hist *h, double pct, uint64_t min_ios, uint64_t *ns);

/* The exceedance curve of @h as a step line: for every non-empty bucket of
 * value v (ns), the points (v, share of I/Os at or above v) and (v, share
 * above v), x in microseconds.  @x and @y hold 2 * HIST_NBUCKETS; returns
 * the number of points (the last share, 0, is left out: it has no place on
 * a log axis). */
size_t qos_exceedance(const struct hist *h, double *x, double *y);

/* The latency histogram of @h regrouped into QOS_HIST_PER_DECADE bins per
 * decade of latency (by each bucket's value), as a step outline: x in
 * microseconds, y the % of I/Os in the bin.  @x and @y hold
 * QOS_HIST_MAX_POINTS; returns the number of points. */
#define QOS_HIST_PER_DECADE 20
#define QOS_HIST_MAX_POINTS (4 * 12 * QOS_HIST_PER_DECADE + 4)
size_t qos_histogram(const struct hist *h, double *x, double *y);

#endif

/* collect.h - the consumer side: merges the workers' interval samples into
 * per-interval rows (aggregate and per target) - the series that the console
 * draws and the reporters write.  Single-threaded (the consumer's thread). */
#ifndef NVS_COLLECT_H
#define NVS_COLLECT_H

#include <stddef.h>
#include <stdint.h>
#include "nvscope.h"
#include "stats/sample.h"
#include "stats/series.h"

struct collect;

/* @worker_target[w] is the target index of worker w (ntargets >= 1). */
struct collect *collect_new(unsigned nworkers, unsigned ntargets, const unsigned *worker_target,
			    uint64_t interval_ns);
/* NULL-safe. */
void collect_free(struct collect *c);
/* Feeds one sample (signature fits pool_drain's callback; @arg is the
 * collect).  A row is emitted once every worker has reported its interval
 * or a later one. */
void collect_sample(const struct sample *s, void *arg);
/* Called once per emitted row of the aggregate, on the consumer's thread,
 * with the row and its latency bucket counts: @bucket[d * HIST_NBUCKETS + i]
 * (d a direction, i a hist.h bucket), this interval only. */
typedef void (*collect_row_fn)(const struct point *pt, const uint32_t *bucket, void *arg);
/* Sets (or with NULL clears) the row hook of @c. */
void collect_on_row(struct collect *c, collect_row_fn fn, void *arg);
/* Hands every emitted row to @fn (@t = -1 for the aggregate, else the
 * target) instead of keeping it: collect_series() then stays empty, so a
 * consumer that keeps its own history (the console's session) holds the one
 * copy.  Set it before the first sample; NULL keeps the rows again. */
typedef void (*collect_point_fn)(int t, const struct point *pt, void *arg);
void collect_on_point(struct collect *c, collect_point_fn fn, void *arg);
/* Emits the rows still waiting for workers (end of job). */
void collect_flush(struct collect *c);
/* The rows so far: of target @t, or of the aggregate when @t < 0. */
const struct series *collect_series(const struct collect *c, int t);
/* Samples received / workers' samples missing from emitted rows. */
uint64_t collect_received(const struct collect *c);
uint64_t collect_missing(const struct collect *c);
/* Rows not emitted because a worker did not run through them (SAMPLE_GAP). */
uint64_t collect_gaps(const struct collect *c);

#endif

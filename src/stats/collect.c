/* collect.c - merges interval samples from all workers into rows.
 *
 * Workers share one clock origin and interval, so sample seq k of every
 * worker covers the same time slice.  Rows wait in a small window keyed by
 * seq until every live worker has reported k or later (a worker whose
 * sample k was dropped on a full ring shows up with k+1: the row is then
 * emitted without it and the gap counted as missing).  Latency percentiles
 * of a row are exact to the histogram: the workers' interval bucket counts
 * are added, then walked.  A row that any worker flagged SAMPLE_GAP (it did
 * not run through the interval: the process was stopped) is not emitted:
 * the series then jumps in time, as for a row whose samples were all
 * dropped - never a row of 0 IOPS. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "stats/collect.h"

#define WINDOW 16

struct part { /* one target (or the aggregate) within a pending row */
	uint64_t ios[NVS_NDIR], bytes[NVS_NDIR], errors;
	uint64_t lat_n[NVS_NDIR], lat_sum[NVS_NDIR], lat_max[NVS_NDIR];
	uint64_t slat_sum[NVS_NDIR];
	uint64_t cpu_ns;
	unsigned workers;
	/* NVS_NDIR * HIST_NBUCKETS, from the collector's pool once a sample
	 * with latencies arrives (NULL: none yet), back to it with the row */
	uint32_t *bucket;
	/* a target with one worker: its one sample's percentiles, taken as it
	 * arrives (own_p99), so its part holds no buckets at all */
	bool own;
	uint64_t p99[NVS_NDIR], p99_all;
};

struct row {
	bool used;
	uint64_t seq;
	uint64_t t_start, t_end;
	uint32_t flags;
	struct part *parts; /* [0] aggregate, [1 + t] target t */
};

struct collect {
	unsigned nworkers, ntargets;
	unsigned *worker_target;
	unsigned *tworkers; /* per target: the workers it has */
	uint64_t interval_ns;
	uint64_t *next_seq; /* per worker: the seq it will report next */
	bool *done;	    /* per worker: its last sample arrived */
	uint64_t base;	    /* oldest seq not yet emitted */
	struct row rows[WINDOW];
	struct series *series; /* [0] aggregate, [1 + t] */
	uint64_t received, missing, gaps;
	uint32_t *tmp; /* scratch buckets for both-direction p99 */
	/* the parts' bucket arrays not in a row (zeroed): a row holds them
	 * only for the parts that had latencies while it waited, so the
	 * memory follows the rows in flight (usually one or two), not the
	 * window's 16 x (targets + 1) */
	uint32_t **pool;
	unsigned npool;
	uint32_t *zero;	       /* the row hook's buckets of a row without latencies */
	collect_row_fn row_fn; /* optional hook per aggregate row */
	void *row_arg;
	collect_point_fn point_fn; /* takes every row instead of the series */
	void *point_arg;
};

struct collect *collect_new(unsigned nworkers, unsigned ntargets, const unsigned *worker_target,
			    uint64_t interval_ns)
{
	struct collect *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->nworkers = nworkers;
	c->ntargets = ntargets ? ntargets : 1;
	c->interval_ns = interval_ns;
	c->worker_target = calloc(nworkers, sizeof(unsigned));
	c->tworkers = calloc(c->ntargets, sizeof(unsigned));
	c->next_seq = calloc(nworkers, sizeof(uint64_t));
	c->done = calloc(nworkers, sizeof(bool));
	c->series = calloc(c->ntargets + 1, sizeof(struct series));
	c->tmp = malloc(HIST_NBUCKETS * sizeof(uint32_t));
	/* at most every part of every row holds an array: room for them all */
	c->pool = calloc((size_t)WINDOW * (c->ntargets + 1), sizeof(*c->pool));
	c->zero = calloc(NVS_NDIR * HIST_NBUCKETS, sizeof(uint32_t));
	if (!c->worker_target || !c->tworkers || !c->next_seq || !c->done || !c->series ||
	    !c->tmp || !c->pool || !c->zero)
		goto free_collect;
	for (unsigned w = 0; w < nworkers; w++) {
		c->worker_target[w] = worker_target ? worker_target[w] : 0;
		c->tworkers[c->worker_target[w] % c->ntargets]++;
	}
	for (unsigned i = 0; i < WINDOW; i++) {
		c->rows[i].parts = calloc(c->ntargets + 1, sizeof(struct part));
		if (!c->rows[i].parts)
			goto free_collect;
	}
	return c;

free_collect:
	collect_free(c);
	return NULL;
}

void collect_free(struct collect *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < WINDOW; i++) {
		if (!c->rows[i].parts)
			continue;
		for (unsigned p = 0; p <= c->ntargets; p++)
			free(c->rows[i].parts[p].bucket);
		free(c->rows[i].parts);
	}
	for (unsigned k = 0; k < c->npool; k++)
		free(c->pool[k]);
	free(c->pool);
	free(c->zero);
	if (c->series)
		for (unsigned p = 0; p <= c->ntargets; p++)
			series_release(&c->series[p]);
	free(c->series);
	free(c->tmp);
	free(c->done);
	free(c->next_seq);
	free(c->worker_target);
	free(c->tworkers);
	free(c);
}

static void reset_row(struct collect *c, struct row *r)
{
	for (unsigned p = 0; p <= c->ntargets; p++) {
		uint32_t *b = r->parts[p].bucket;
		memset(&r->parts[p], 0, sizeof(r->parts[p]));
		if (b) { /* back to the pool, zeroed (the pool has room for all) */
			memset(b, 0, NVS_NDIR * HIST_NBUCKETS * sizeof(uint32_t));
			c->pool[c->npool++] = b;
		}
	}
	r->used = false;
	r->flags = 0;
	r->t_start = UINT64_MAX;
	r->t_end = 0;
}

/* The bucket arrays of part @p: the pool's, or a new one.  false: out of
 * memory (the sample is then counted missing, not added in part). */
static bool part_buckets(struct collect *c, struct part *p)
{
	if (p->bucket)
		return true;
	p->bucket =
	    c->npool ? c->pool[--c->npool] : calloc(NVS_NDIR * HIST_NBUCKETS, sizeof(uint32_t));
	return p->bucket != NULL;
}

/* The percentiles of part @p from its one sample @s (part own). */
static void own_p99(struct collect *c, struct part *p, const struct sample *s)
{
	uint64_t n_all = 0;
	memset(c->tmp, 0, HIST_NBUCKETS * sizeof(uint32_t));
	for (int d = 0; d < NVS_NDIR; d++) {
		const struct sample_dir *sd = &s->dir[d];
		if (!sd->lat_n)
			continue;
		p->p99[d] = hist_percentile_counts(sd->lat_bucket, sd->lat_n, 99);
		for (unsigned i = 0; i < HIST_NBUCKETS; i++)
			c->tmp[i] += sd->lat_bucket[i];
		n_all += sd->lat_n;
	}
	p->p99_all = n_all ? hist_percentile_counts(c->tmp, n_all, 99) : 0;
	p->own = true;
}

static void add_part(struct part *p, const struct sample *s)
{
	for (int d = 0; d < NVS_NDIR; d++) {
		const struct sample_dir *sd = &s->dir[d];
		p->ios[d] += sd->ios;
		p->bytes[d] += sd->bytes;
		p->errors += sd->errors;
		p->lat_n[d] += sd->lat_n;
		p->lat_sum[d] += sd->lat_sum;
		p->slat_sum[d] += sd->slat_sum;
		if (sd->lat_n && sd->lat_max > p->lat_max[d])
			p->lat_max[d] = sd->lat_max;
		if (sd->lat_n && p->bucket) {
			uint32_t *b = p->bucket + d * HIST_NBUCKETS;
			for (unsigned i = 0; i < HIST_NBUCKETS; i++)
				b[i] += sd->lat_bucket[i];
		}
	}
	p->cpu_ns += s->usr_ns + s->sys_ns;
	p->workers++;
}

static void part_point(struct collect *c, const struct row *r, const struct part *p,
		       struct point *pt)
{
	double dt = (double)(r->t_end - r->t_start) / 1e9;
	uint64_t n_all = 0, sum_all = 0;

	memset(pt, 0, sizeof(*pt));
	pt->t = (double)r->t_end / 1e9;
	pt->dt = dt;
	if (dt <= 0)
		dt = 1e-9;
	memset(c->tmp, 0, HIST_NBUCKETS * sizeof(uint32_t));
	for (int d = 0; d < NVS_NDIR; d++) {
		const uint32_t *b = (p->bucket ? p->bucket : c->zero) + d * HIST_NBUCKETS;
		pt->iops[d] = (double)p->ios[d] / dt;
		pt->bw[d] = (double)p->bytes[d] / dt;
		if (p->lat_n[d]) {
			pt->lat_mean_us[d] = (double)p->lat_sum[d] / (double)p->lat_n[d] / 1e3;
			pt->slat_mean_us[d] = (double)p->slat_sum[d] / (double)p->lat_n[d] / 1e3;
			pt->lat_p99_us[d] =
			    (double)(p->own ? p->p99[d]
					    : hist_percentile_counts(b, p->lat_n[d], 99)) /
			    1e3;
			pt->lat_max_us[d] = (double)p->lat_max[d] / 1e3;
		}
		for (unsigned i = 0; !p->own && i < HIST_NBUCKETS; i++)
			c->tmp[i] += b[i];
		n_all += p->lat_n[d];
		sum_all += p->lat_sum[d];
	}
	if (n_all) {
		pt->lat_mean_all_us = (double)sum_all / (double)n_all / 1e3;
		pt->lat_p99_all_us =
		    (double)(p->own ? p->p99_all : hist_percentile_counts(c->tmp, n_all, 99)) / 1e3;
	}
	pt->errors = p->errors;
	pt->cpu_pct = (double)p->cpu_ns / 1e9 / dt * 100.0;
	pt->workers = p->workers;
	pt->ramp = !!(r->flags & SAMPLE_RAMP);
}

/* Emits the row of seq c->base, if anyone reported it (an interval whose
 * every sample was dropped leaves a gap: points carry their own time). */
static void emit_oldest(struct collect *c)
{
	struct row *r = &c->rows[c->base % WINDOW];
	struct point pt;

	if (r->used && r->seq == c->base) {
		unsigned expected = 0;
		for (unsigned w = 0; w < c->nworkers; w++)
			expected += !c->done[w] || c->next_seq[w] > c->base;
		if (r->parts[0].workers < expected)
			c->missing += expected - r->parts[0].workers;
		if (r->flags & SAMPLE_GAP) { /* not measured: no row, a gap in time */
			c->gaps++;
			reset_row(c, r);
			c->base++;
			return;
		}
		for (unsigned p = 0; p <= c->ntargets; p++) {
			if (p > 0 && !r->parts[p].workers)
				continue;
			part_point(c, r, &r->parts[p], &pt);
			if (c->point_fn)
				c->point_fn((int)p - 1, &pt, c->point_arg);
			else
				series_push(&c->series[p], &pt);
			if (p == 0 && c->row_fn)
				c->row_fn(&pt, r->parts[0].bucket ? r->parts[0].bucket : c->zero,
					  c->row_arg);
		}
		reset_row(c, r);
	}
	c->base++;
}

/* True when no live worker can still report seq c->base. */
static bool oldest_complete(const struct collect *c)
{
	for (unsigned w = 0; w < c->nworkers; w++)
		if (!c->done[w] && c->next_seq[w] <= c->base)
			return false;
	return true;
}

static bool any_pending(const struct collect *c)
{
	for (unsigned i = 0; i < WINDOW; i++)
		if (c->rows[i].used)
			return true;
	return false;
}

void collect_sample(const struct sample *s, void *arg)
{
	struct collect *c = arg;
	struct row *r;

	if (s->worker >= c->nworkers)
		return;
	c->received++;
	if (s->seq < c->base) {
		c->missing++; /* arrived after its row was forced out */
		goto progress;
	}
	while (s->seq >= c->base + WINDOW)
		emit_oldest(c); /* a worker ran far ahead of a stalled one */
	r = &c->rows[s->seq % WINDOW];
	if (!r->used) {
		reset_row(c, r);
		r->used = true;
		r->seq = s->seq;
	}
	if (s->t_start_ns < r->t_start)
		r->t_start = s->t_start_ns;
	if (s->t_end_ns > r->t_end)
		r->t_end = s->t_end_ns;
	unsigned t = c->worker_target[s->worker] % c->ntargets;
	struct part *agg = &r->parts[0], *tp = &r->parts[1 + t];
	bool own = c->tworkers[t] == 1; /* the target's part is this sample */
	if (!part_buckets(c, agg) || (!own && !part_buckets(c, tp))) {
		c->missing++; /* out of memory: not added, counted */
		goto progress;
	}
	r->flags |= s->flags;
	add_part(agg, s);
	if (own)
		own_p99(c, tp, s);
	add_part(tp, s);
progress:
	if (s->seq + 1 > c->next_seq[s->worker])
		c->next_seq[s->worker] = s->seq + 1;
	if (s->flags & SAMPLE_LAST)
		c->done[s->worker] = true;
	while (any_pending(c) && oldest_complete(c))
		emit_oldest(c);
}

void collect_on_row(struct collect *c, collect_row_fn fn, void *arg)
{
	c->row_fn = fn;
	c->row_arg = arg;
}

void collect_on_point(struct collect *c, collect_point_fn fn, void *arg)
{
	c->point_fn = fn;
	c->point_arg = arg;
}

void collect_flush(struct collect *c)
{
	while (any_pending(c))
		emit_oldest(c);
}

const struct series *collect_series(const struct collect *c, int t)
{
	if (t >= (int)c->ntargets)
		return NULL;
	return &c->series[t < 0 ? 0 : 1 + t];
}

uint64_t collect_received(const struct collect *c)
{
	return c->received;
}

uint64_t collect_missing(const struct collect *c)
{
	return c->missing;
}

uint64_t collect_gaps(const struct collect *c)
{
	return c->gaps;
}

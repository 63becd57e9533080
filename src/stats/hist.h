/* hist.h - log-linear latency histogram (fio's scheme), see hist.c. */
#ifndef NVS_HIST_H
#define NVS_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_BITS     6 /* 64 linear sub-buckets per power of two: < 1% error */
#define HIST_VAL      (1u << HIST_BITS)
#define HIST_GROUPS   32 /* values up to 2^(HIST_BITS+HIST_GROUPS-1) ns, ~274 s */
#define HIST_NBUCKETS (HIST_GROUPS * HIST_VAL)

/* A histogram of nanosecond values plus exact count/sum/min/max/sum of
 * squares.  A plain value type: embed it; all zero is an empty one (min
 * and max mean nothing while n is 0), so memory that was never written -
 * calloc's fresh pages - needs no init and stays unwritten until a value
 * reaches it (issue 25: results sized to what a job measures). */
struct hist {
	uint64_t n, sum, min, max;
	double sumsq;
	uint64_t bucket[HIST_NBUCKETS];
};

/* Bucket index of value @v (ns).  Values past the last group clamp. */
static inline unsigned hist_index(uint64_t v)
{
	if (v < 2 * HIST_VAL)
		return (unsigned)v;
	unsigned msb = 63u - (unsigned)__builtin_clzll(v);
	unsigned err = msb - HIST_BITS;
	unsigned idx = ((err + 1) << HIST_BITS) + (unsigned)((v >> err) & (HIST_VAL - 1));
	return idx < HIST_NBUCKETS ? idx : HIST_NBUCKETS - 1;
}

/* Records @v whose bucket index @idx was computed by hist_index(). */
static inline void hist_add_idx(struct hist *h, uint64_t v, unsigned idx)
{
	if (!h->n || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->bucket[idx]++;
	h->n++;
	h->sum += v;
	h->sumsq += (double)v * (double)v;
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	hist_add_idx(h, v, hist_index(v));
}

/* Records @v @n times (the same as @n hist_add calls, but the sum of
 * squares' rounding). */
static inline void hist_add_n(struct hist *h, uint64_t v, uint64_t n)
{
	if (!h->n || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->bucket[hist_index(v)] += n;
	h->n += n;
	h->sum += v * n;
	h->sumsq += (double)v * (double)v * (double)n;
}

/* Empties @h (zeroes it: hist_clear). */
void hist_init(struct hist *h);
/* Zeroes @len bytes at @p where they are not zero already, a page at a
 * time: a page never written is only read (the kernel's zero page), so it
 * does not join the process's resident memory. */
void hist_clear(void *p, size_t len);
/* Adds every count of @src into @dst; exact. */
void hist_merge(struct hist *dst, const struct hist *src);
/* Adds an interval delta (32-bit buckets plus summary) into @dst; exact. */
void hist_merge_counts(struct hist *dst, const uint32_t *bucket, uint64_t n, uint64_t sum,
		       uint64_t min, uint64_t max, double sumsq);
/* Representative value (ns) of bucket @idx: its midpoint; exact below 128. */
uint64_t hist_bucket_value(unsigned idx);
/* Value at percentile @pct (0..100) of @h, 0 when empty.  Clamped to the
 * exact min and max so p0/p100 are exact. */
uint64_t hist_percentile(const struct hist *h, double pct);
/* Percentile of bare 32-bit bucket counts holding @n values (interval data). */
uint64_t hist_percentile_counts(const uint32_t *bucket, uint64_t n, double pct);
/* hist_percentile of @a and @b together, exactly as if they were merged,
 * without a merged copy (no 16 KiB temporary). */
uint64_t hist_percentile2(const struct hist *a, const struct hist *b, double pct);
double hist_mean(const struct hist *h);
double hist_stddev(const struct hist *h);

#endif

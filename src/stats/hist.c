/* hist.c - log-linear latency histogram.
 *
 * The scheme is fio's (stat.h, "FIO_IO_U_PLAT_BITS"): values below 2*64 get a
 * bucket each; above, every power of two [2^k, 2^(k+1)) is cut into 64 equal
 * sub-buckets.  A bucket's width is 2^(k-6), so reporting its midpoint is off
 * by at most half a width: a relative error below 1/128 (0.8%) for any value.
 * Counting is one clz, a shift and an increment - cheap enough to record every
 * I/O - and two histograms merge exactly by adding bucket counts, which is
 * how workers' figures combine into a job's.  32 groups reach 2^37 ns (137 s);
 * slower completions clamp into the last bucket (max stays exact).
 *
 * fio's json+ bins (stat.c, FIO_IO_U_PLAT_BITS 6, 29 groups) are this very
 * scheme: bucket i here is fio's bin i for every i < 29 * 64, and
 * hist_bucket_value(i) equals fio's plat_idx_to_val(i) (the bucket's lower
 * edge plus half its width, rounded down), so report/json.c writes json+
 * bins with no conversion error at all - the only error is the bucketing
 * itself, the same as fio's: a value is known to within its bucket, i.e.
 * +-1/128 of it (below 128 ns: exact).  Past 2^34 ns (17 s) fio folds
 * everything into its last bin; nvscope's three extra groups keep their own
 * bins and keys (fio's tools read any integer key).
 *
 * Percentiles walk the cumulative counts to the first bucket whose count
 * reaches ceil(pct/100 * n) (the "nearest rank" definition) and report that
 * bucket's midpoint, clamped to the exact min and max. */
#include <math.h>
#include <string.h>
#include "stats/hist.h"

void hist_clear(void *p, size_t len)
{
	unsigned char *c = p;
	for (size_t off = 0; off < len; off += 4096) {
		size_t k = len - off < 4096 ? len - off : 4096;
		unsigned char *q = c + off;
		size_t i = 0;
		while (i < k && !q[i])
			i++;
		if (i < k)
			memset(q, 0, k);
	}
}

void hist_init(struct hist *h)
{
	hist_clear(h, sizeof(*h));
}

/* The n, sum, extremes and sum of squares of @n values more (@dst empty:
 * its extremes are theirs). */
static void add_summary(struct hist *dst, uint64_t n, uint64_t sum, uint64_t min, uint64_t max,
			double sumsq)
{
	if (!dst->n || min < dst->min)
		dst->min = min;
	if (!dst->n || max > dst->max)
		dst->max = max;
	dst->n += n;
	dst->sum += sum;
	dst->sumsq += sumsq;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	if (!src->n)
		return;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		if (src->bucket[i]) /* (a page of buckets no value reached stays unwritten) */
			dst->bucket[i] += src->bucket[i];
	add_summary(dst, src->n, src->sum, src->min, src->max, src->sumsq);
}

void hist_merge_counts(struct hist *dst, const uint32_t *bucket, uint64_t n, uint64_t sum,
		       uint64_t min, uint64_t max, double sumsq)
{
	if (!n)
		return;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		if (bucket[i])
			dst->bucket[i] += bucket[i];
	add_summary(dst, n, sum, min, max, sumsq);
}

uint64_t hist_bucket_value(unsigned idx)
{
	if (idx < 2 * HIST_VAL)
		return idx;
	unsigned err = (idx >> HIST_BITS) - 1;
	uint64_t base = (uint64_t)1 << (err + HIST_BITS);
	uint64_t k = idx & (HIST_VAL - 1);
	uint64_t width = (uint64_t)1 << err;
	return base + k * width + width / 2;
}

/* Nearest-rank walk shared by both bucket widths. */
#define PERCENTILE_WALK(bucket, n, pct)                                                            \
	do {                                                                                       \
		if (!(n))                                                                          \
			return 0;                                                                  \
		double want_ = ceil((pct) / 100.0 * (double)(n));                                  \
		uint64_t rank_ = want_ < 1 ? 1 : (uint64_t)want_;                                  \
		uint64_t seen_ = 0;                                                                \
		for (unsigned i_ = 0; i_ < HIST_NBUCKETS; i_++) {                                  \
			seen_ += (bucket)[i_];                                                     \
			if (seen_ >= rank_) {                                                      \
				v = hist_bucket_value(i_);                                         \
				break;                                                             \
			}                                                                          \
		}                                                                                  \
	} while (0)

uint64_t hist_percentile(const struct hist *h, double pct)
{
	uint64_t v = h->max;
	PERCENTILE_WALK(h->bucket, h->n, pct);
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

uint64_t hist_percentile_counts(const uint32_t *bucket, uint64_t n, double pct)
{
	uint64_t v = 0;
	PERCENTILE_WALK(bucket, n, pct);
	return v;
}

uint64_t hist_percentile2(const struct hist *a, const struct hist *b, double pct)
{
	uint64_t n = a->n + b->n, v = 0, min = UINT64_MAX, max = 0;
	const struct hist *h[2] = {a, b};
	for (int k = 0; k < 2; k++)
		if (h[k]->n) {
			min = h[k]->min < min ? h[k]->min : min;
			max = h[k]->max > max ? h[k]->max : max;
		}
	if (!n)
		return 0;
	double want = ceil(pct / 100.0 * (double)n);
	uint64_t rank = want < 1 ? 1 : (uint64_t)want, seen = 0;
	v = max;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		seen += a->bucket[i] + b->bucket[i];
		if (seen >= rank) {
			v = hist_bucket_value(i);
			break;
		}
	}
	return v < min ? min : v > max ? max : v;
}

double hist_mean(const struct hist *h)
{
	return h->n ? (double)h->sum / (double)h->n : 0.0;
}

double hist_stddev(const struct hist *h)
{
	if (h->n < 2)
		return 0.0;
	double mean = hist_mean(h);
	double var = (h->sumsq - (double)h->n * mean * mean) / (double)(h->n - 1);
	return var > 0 ? sqrt(var) : 0.0;
}

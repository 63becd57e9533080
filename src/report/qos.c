/* qos.c - latency QoS from json+ bins (see qos.h).
 *
 * nvscope's histogram is fio's scheme (stats/hist.c) and a bin's key is its
 * bucket's value, hist_bucket_value(i), so hist_index(key) gives the bucket
 * back exactly: the rebuilt histogram is the one the run recorded and its
 * percentiles are those the writer computed (lat_ns.percentile), to the
 * nanosecond.  A key that is no bucket value (another tool's, or a hostile
 * file) still lands in the bucket that holds it.
 *
 * A percentile is stated only when the I/Os support it: pX with k nines
 * after "99" needs 10^(k+2) I/Os, so that at least one I/O lies at or beyond
 * it (p99.99 of 5,000 I/Os would be the maximum under another name). */
#include "report/qos.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "base/num.h"

const struct qos_level qos_levels[QOS_NLEVELS] = {
    {50, "p50", 1},
    {99, "p99", 100},
    {99.9, "p99.9", 1000},
    {99.99, "p99.99", 10000},
    {99.999, "p99.999", 100000},
    {99.9999, "p99.9999", 1000000},
};

/* A whole number in [0, QOS_MAX_COUNT]: a count, a latency in ns. */
static int count_of(const cJSON *x, uint64_t *out)
{
	uint64_t u;
	if (!cJSON_IsNumber(x) || num_to_u64(x->valuedouble, QOS_MAX_COUNT, &u) ||
	    (double)u != x->valuedouble)
		return -EINVAL;
	*out = u;
	return 0;
}

/* Adds the bins of one direction's lat_ns into @h, its exact min and max
 * into *@lo / *@hi (*@exact false when they are missing or bad).  0,
 * -ENOENT (no bins), -EINVAL, -EOVERFLOW. */
static int add_dir(const cJSON *lat, struct hist *h, uint64_t *lo, uint64_t *hi, bool *exact)
{
	const cJSON *bins = cJSON_GetObjectItem(lat, "bins"), *b;
	uint64_t n = 0, want, mn, mx;
	if (!cJSON_IsObject(bins))
		return -ENOENT;
	if (count_of(cJSON_GetObjectItem(lat, "N"), &want))
		return -EINVAL;
	cJSON_ArrayForEach(b, bins)
	{
		uint64_t key, c;
		if (!b->string || num_parse_u64(b->string, 0, UINT64_MAX, &key) || count_of(b, &c))
			return -EINVAL;
		unsigned i = hist_index(key);
		if (c > UINT64_MAX - h->n || c > UINT64_MAX - h->bucket[i])
			return -EOVERFLOW;
		h->bucket[i] += c;
		h->n += c;
		n += c;
	}
	if (n != want)
		return -EINVAL; /* not the full histogram */
	if (!n)
		return 0;
	if (count_of(cJSON_GetObjectItem(lat, "min"), &mn) ||
	    count_of(cJSON_GetObjectItem(lat, "max"), &mx) || mn > mx) {
		*exact = false;
		return 0;
	}
	*lo = mn < *lo ? mn : *lo;
	*hi = mx > *hi ? mx : *hi;
	return 0;
}

int qos_job_hist(const void *job, struct hist *h)
{
	static const char *const dirs[] = {"read", "write"};
	uint64_t lo = UINT64_MAX, hi = 0;
	bool exact = true, any = false;
	hist_init(h);
	for (unsigned d = 0; d < 2; d++) {
		const cJSON *o = cJSON_GetObjectItem((const cJSON *)job, dirs[d]);
		int rc = add_dir(cJSON_GetObjectItem(o, "lat_ns"), h, &lo, &hi, &exact);
		if (rc == -ENOENT)
			continue;
		if (rc)
			return rc;
		any = true;
	}
	if (!any || !h->n)
		return -ENOENT;
	/* the percentiles are clamped to the exact extremes, as the writer's */
	h->min = exact ? lo : 0;
	h->max = exact ? hi : UINT64_MAX;
	return 0;
}

bool qos_value(const struct hist *h, double pct, uint64_t min_ios, uint64_t *ns)
{
	if (!h->n || h->n < min_ios)
		return false;
	*ns = hist_percentile(h, pct);
	return true;
}

static double clamp_us(const struct hist *h, uint64_t v)
{
	v = v < h->min ? h->min : v > h->max ? h->max : v;
	return (double)v / 1000.0;
}

size_t qos_exceedance(const struct hist *h, double *x, double *y)
{
	size_t k = 0;
	uint64_t seen = 0;
	if (!h->n)
		return 0;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		double v = clamp_us(h, hist_bucket_value(i));
		x[k] = v;
		y[k++] = (double)(h->n - seen) / (double)h->n;
		seen += h->bucket[i];
		if (seen < h->n) {
			x[k] = v;
			y[k++] = (double)(h->n - seen) / (double)h->n;
		}
	}
	return k;
}

size_t qos_histogram(const struct hist *h, double *x, double *y)
{
	enum { NB = 12 * QOS_HIST_PER_DECADE }; /* 1 ns .. 10^12 ns */
	uint64_t cnt[NB] = {0};
	int first = NB, last = -1;
	size_t k = 0;
	if (!h->n)
		return 0;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		uint64_t v = hist_bucket_value(i);
		int b = (int)floor(log10(v ? (double)v : 1.0) * QOS_HIST_PER_DECADE);
		b = b < 0 ? 0 : b >= NB ? NB - 1 : b;
		cnt[b] += h->bucket[i]; /* cannot overflow: the sum is h->n */
		first = b < first ? b : first;
		last = b > last ? b : last;
	}
	double d = QOS_HIST_PER_DECADE;
	x[k] = pow(10, first / d) / 1000.0;
	y[k++] = 0;
	for (int b = first; b <= last; b++) {
		double pct = 100.0 * (double)cnt[b] / (double)h->n;
		x[k] = pow(10, b / d) / 1000.0;
		y[k++] = pct;
		x[k] = pow(10, (b + 1) / d) / 1000.0;
		y[k++] = pct;
	}
	x[k] = pow(10, (last + 1) / d) / 1000.0;
	y[k++] = 0;
	return k;
}

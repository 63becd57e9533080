/* test_hist.c - histogram percentiles against an exact sort; exact merge. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include "stats/hist.h"
#include "stats/result.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
	return *s;
}

/* Nearest-rank percentile of sorted @v. */
static uint64_t exact(const uint64_t *v, size_t n, double pct)
{
	size_t rank = (size_t)ceil(pct / 100.0 * (double)n);
	return v[rank ? rank - 1 : 0];
}

START_TEST(test_percentiles_within_error)
{
	const size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v)), s = 42 + (uint64_t)_i;
	struct hist *h = malloc(sizeof(*h));
	const double pcts[] = {1, 10, 50, 90, 99, 99.9, 99.99};

	hist_init(h);
	for (size_t i = 0; i < n; i++) {
		/* log-uniform over 100 ns .. 100 ms, like real latencies */
		double e = 2.0 + 6.0 * (double)(rnd(&s) % 1000000) / 1e6;
		v[i] = (uint64_t)pow(10, e);
		hist_add(h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		double want = (double)exact(v, n, pcts[i]);
		double got = (double)hist_percentile(h, pcts[i]);
		ck_assert_msg(fabs(got - want) / want < 0.01, "p%g: hist %g exact %g", pcts[i], got,
			      want);
	}
	ck_assert_uint_eq(hist_percentile(h, 100), v[n - 1]);
	ck_assert_uint_eq(hist_percentile(h, 0), v[0]);
	ck_assert_uint_eq(h->n, n);
	free(v);
	free(h);
}
END_TEST

START_TEST(test_small_values_exact)
{
	struct hist *h = malloc(sizeof(*h));
	hist_init(h);
	for (uint64_t i = 0; i < 128; i++) {
		ck_assert_uint_eq(hist_index(i), i);
		ck_assert_uint_eq(hist_bucket_value(hist_index(i)), i);
		hist_add(h, i);
	}
	ck_assert_uint_eq(hist_percentile(h, 50), 63);
	ck_assert_double_eq_tol(hist_mean(h), 63.5, 1e-9);
	free(h);
}
END_TEST

START_TEST(test_bucket_bounds)
{
	/* every value maps to a bucket whose midpoint is within 1% */
	for (uint64_t v = 128; v < (1ULL << 36); v = v * 3 / 2 + 7) {
		uint64_t m = hist_bucket_value(hist_index(v));
		ck_assert_msg(fabs((double)m - (double)v) / (double)v < 0.0079, "v=%llu m=%llu",
			      (unsigned long long)v, (unsigned long long)m);
	}
	ck_assert_uint_eq(hist_index(UINT64_MAX), HIST_NBUCKETS - 1);
}
END_TEST

START_TEST(test_merge_exact)
{
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *all = malloc(sizeof(*all));
	uint64_t s = 7;

	hist_init(a);
	hist_init(b);
	hist_init(all);
	for (int i = 0; i < 50000; i++) {
		uint64_t v = rnd(&s) % 5000000;
		hist_add(i % 3 ? a : b, v);
		hist_add(all, v);
	}
	hist_merge(a, b);
	ck_assert_uint_eq(a->n, all->n);
	ck_assert_uint_eq(a->sum, all->sum);
	ck_assert_uint_eq(a->min, all->min);
	ck_assert_uint_eq(a->max, all->max);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		ck_assert_uint_eq(a->bucket[i], all->bucket[i]);
	ck_assert_uint_eq(hist_percentile(a, 99.9), hist_percentile(all, 99.9));
	free(a);
	free(b);
	free(all);
}
END_TEST

START_TEST(test_stddev)
{
	struct hist *h = malloc(sizeof(*h));
	hist_init(h);
	ck_assert_uint_eq(hist_percentile(h, 99), 0);
	hist_add(h, 1000);
	hist_add(h, 3000);
	ck_assert_double_eq_tol(hist_mean(h), 2000, 1e-9);
	ck_assert_double_eq_tol(hist_stddev(h), sqrt(2e6), 1e-6);
	free(h);
}
END_TEST

/* result_lat_all: both directions' figures equal those of one merged
 * histogram, for an empty side, both empty and random data (no copy made). */
START_TEST(test_lat_all_is_merge)
{
	static struct result r;
	static struct hist m;
	struct lat_all l;
	result_init(&r);
	result_lat_all(&r, &l);
	ck_assert_uint_eq(l.n, 0);
	ck_assert(l.mean_us == 0 && l.p99_us == 0 && l.max_us == 0);
	srand(7);
	for (int pass = 0; pass < 3; pass++) {
		int nr = pass == 0 ? 0 : 5000, nw = pass == 1 ? 0 : 3000;
		result_init(&r);
		for (int i = 0; i < nr; i++)
			hist_add(&r.dir[NVS_READ].lat, 1000 + (uint64_t)(rand() % 200000));
		for (int i = 0; i < nw; i++)
			hist_add(&r.dir[NVS_WRITE].lat, 50000 + (uint64_t)(rand() % 9000000));
		hist_init(&m);
		hist_merge(&m, &r.dir[NVS_READ].lat);
		hist_merge(&m, &r.dir[NVS_WRITE].lat);
		result_lat_all(&r, &l);
		ck_assert_uint_eq(l.n, m.n);
		ck_assert(l.mean_us == hist_mean(&m) / 1e3);
		ck_assert(l.p99_us == (double)hist_percentile(&m, 99) / 1e3);
		ck_assert(l.p9999_us == (double)hist_percentile(&m, 99.99) / 1e3);
		ck_assert(l.max_us == (double)m.max / 1e3);
		for (double pct = 0; pct <= 100; pct += 12.5)
			ck_assert_uint_eq(hist_percentile2(&r.dir[0].lat, &r.dir[1].lat, pct),
					  hist_percentile(&m, pct));
	}
}
END_TEST

Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, test_percentiles_within_error, 0, 3);
	tcase_add_test(tc, test_small_values_exact);
	tcase_add_test(tc, test_bucket_bounds);
	tcase_add_test(tc, test_merge_exact);
	tcase_add_test(tc, test_stddev);
	tcase_add_test(tc, test_lat_all_is_merge);
	suite_add_tcase(s, tc);
	return s;
}

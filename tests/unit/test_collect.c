/* test_collect.c - merging workers' interval samples into rows. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "stats/collect.h"

static struct sample *mk(unsigned worker, uint64_t seq, uint64_t ios, uint64_t lat_ns,
			 uint32_t flags)
{
	struct sample *s = calloc(1, sizeof(*s));
	s->worker = worker;
	s->seq = seq;
	s->t_start_ns = seq * 1000000000ULL;
	s->t_end_ns = (seq + 1) * 1000000000ULL;
	s->flags = flags;
	s->usr_ns = 100000000; /* 10% of a core each */
	struct sample_dir *d = &s->dir[NVS_READ];
	d->ios = ios;
	d->bytes = ios * 4096;
	d->lat_n = ios;
	d->lat_sum = ios * lat_ns;
	d->slat_sum = ios * (lat_ns / 10); /* slat: a tenth of each I/O's lat */
	d->lat_min = d->lat_max = lat_ns;
	d->lat_bucket[hist_index(lat_ns)] = (uint32_t)ios;
	return s;
}

static void feed(struct collect *c, struct sample *s)
{
	collect_sample(s, c);
	free(s);
}

START_TEST(test_rows_merge_workers)
{
	unsigned wt[3] = {0, 0, 1};
	struct collect *c = collect_new(3, 2, wt, 1000000000ULL);
	const struct series *agg, *t0, *t1;

	ck_assert_ptr_nonnull(c);
	feed(c, mk(0, 0, 1000, 100000, SAMPLE_RAMP));
	feed(c, mk(1, 0, 2000, 100000, SAMPLE_RAMP));
	agg = collect_series(c, -1);
	ck_assert_uint_eq(agg->n, 0); /* worker 2 has not reported interval 0 */
	feed(c, mk(2, 0, 4000, 1000000, 0));
	ck_assert_uint_eq(agg->n, 1);
	ck_assert_double_eq_tol(agg->pt[0].iops[NVS_READ], 7000, 1e-6);
	ck_assert_double_eq_tol(agg->pt[0].bw[NVS_READ], 7000.0 * 4096, 1e-3);
	/* mean latency weighted by I/Os; p99 in the slow worker's bucket */
	ck_assert_double_eq_tol(agg->pt[0].lat_mean_us[NVS_READ],
				(3000 * 100.0 + 4000 * 1000.0) / 7000, 1e-4); /* float, series.h */
	/* slat the same way (fio's _slat log; clat = lat - slat) */
	ck_assert_double_eq_tol(agg->pt[0].slat_mean_us[NVS_READ],
				(3000 * 10.0 + 4000 * 100.0) / 7000, 1e-5);
	ck_assert_double_eq_tol(agg->pt[0].lat_p99_us[NVS_READ], 1000, 10);
	ck_assert_double_eq_tol(agg->pt[0].lat_max_us[NVS_READ], 1000, 1e-9);
	ck_assert_double_eq_tol(agg->pt[0].cpu_pct, 30, 1e-6);
	ck_assert_int_eq(agg->pt[0].ramp, 1);
	t0 = collect_series(c, 0);
	t1 = collect_series(c, 1);
	ck_assert_double_eq_tol(t0->pt[0].iops[NVS_READ], 3000, 1e-6);
	ck_assert_double_eq_tol(t1->pt[0].iops[NVS_READ], 4000, 1e-6);
	ck_assert_uint_eq(collect_missing(c), 0);
	collect_free(c);
}
END_TEST

START_TEST(test_dropped_sample_counted_missing)
{
	struct collect *c = collect_new(2, 1, NULL, 1000000000ULL);
	const struct series *agg = collect_series(c, -1);

	feed(c, mk(0, 0, 10, 1000, 0));
	feed(c, mk(1, 0, 10, 1000, 0));
	feed(c, mk(0, 1, 10, 1000, 0));
	/* worker 1's interval 1 was dropped on its ring: it shows up with 2 */
	feed(c, mk(1, 2, 10, 1000, 0));
	ck_assert_uint_eq(agg->n, 2);
	ck_assert_double_eq_tol(agg->pt[1].iops[NVS_READ], 10, 1e-9);
	ck_assert_uint_eq(agg->pt[1].workers, 1);
	ck_assert_uint_eq(collect_missing(c), 1);
	feed(c, mk(0, 2, 10, 1000, SAMPLE_LAST));
	feed(c, mk(1, 3, 5, 1000, SAMPLE_LAST));
	collect_flush(c);
	ck_assert_uint_eq(agg->n, 4);
	ck_assert_double_eq_tol(agg->pt[2].iops[NVS_READ], 20, 1e-9);
	ck_assert_uint_eq(collect_received(c), 6);
	collect_free(c);
}
END_TEST

/* A stopped process (SIGSTOP): intervals a worker flagged SAMPLE_GAP are
 * not rows of 0 IOPS; the series jumps in time over them. */
START_TEST(test_gap_rows_not_emitted)
{
	struct collect *c = collect_new(2, 1, NULL, 1000000000ULL);
	const struct series *agg = collect_series(c, -1);

	feed(c, mk(0, 0, 10, 1000, 0));
	feed(c, mk(1, 0, 10, 1000, 0));
	for (uint64_t k = 1; k <= 3; k++) { /* stopped: nothing done */
		feed(c, mk(0, k, k == 1 ? 5 : 0, 1000, SAMPLE_GAP));
		feed(c, mk(1, k, 0, 1000, k == 3 ? SAMPLE_GAP : 0));
	}
	feed(c, mk(0, 4, 10, 1000, SAMPLE_LAST));
	feed(c, mk(1, 4, 10, 1000, SAMPLE_LAST));
	collect_flush(c);
	ck_assert_uint_eq(agg->n, 2);
	ck_assert_double_eq_tol(agg->pt[0].t, 1, 1e-9);
	ck_assert_double_eq_tol(agg->pt[1].t, 5, 1e-9);
	for (size_t i = 0; i < agg->n; i++)
		ck_assert_double_gt(agg->pt[i].iops[NVS_READ], 0);
	ck_assert_uint_eq(collect_gaps(c), 3);
	ck_assert_uint_eq(collect_missing(c), 0);
	collect_free(c);
}
END_TEST

START_TEST(test_far_ahead_worker_forces_rows)
{
	struct collect *c = collect_new(2, 1, NULL, 1000000000ULL);
	const struct series *agg = collect_series(c, -1);

	/* worker 1 stalls; worker 0 runs 40 intervals ahead: rows are forced out
	 * (window of 16) rather than held forever */
	for (uint64_t k = 0; k < 40; k++)
		feed(c, mk(0, k, 1, 1000, 0));
	ck_assert_uint_ge(agg->n, 40 - 16);
	collect_free(c);
	collect_free(NULL);
}
END_TEST

Suite *collect_suite(void)
{
	Suite *s = suite_create("collect");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_rows_merge_workers);
	tcase_add_test(tc, test_dropped_sample_counted_missing);
	tcase_add_test(tc, test_far_ahead_worker_forces_rows);
	tcase_add_test(tc, test_gap_rows_not_emitted);
	suite_add_tcase(s, tc);
	return s;
}

/* test_series.c - the multi-resolution history (issue 25): two intervals
 * merged into one (rates by time, latency by I/Os, the tail's worst kept),
 * the older part of a series folded with the newest kept, a window read
 * back composed in, and the CSV window reader against the whole file. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "report/csv.h"
#include "stats/series.h"

static struct point pt(double t, double dt, float riops, float rlat, float p99)
{
	struct point p = {.t = t, .dt = dt, .workers = 4};
	p.iops[NVS_READ] = riops;
	p.bw[NVS_READ] = riops * 4096.0f;
	p.lat_mean_us[NVS_READ] = rlat;
	p.lat_p99_us[NVS_READ] = p99;
	p.lat_max_us[NVS_READ] = 2 * p99;
	p.lat_mean_all_us = rlat;
	p.lat_p99_all_us = p99;
	p.cpu_pct = 10;
	return p;
}

START_TEST(merge_weighs_each_figure)
{
	struct point a = pt(1, 1, 1000, 100, 300), b = pt(4, 3, 3000, 20, 200);
	b.errors = 2;
	b.workers = 3;
	b.cpu_pct = 30;
	ck_assert(point_mergeable(&a, &b));
	point_merge(&a, &b);
	ck_assert_double_eq(a.t, 4);
	ck_assert_double_eq(a.dt, 4);
	/* 1000 + 9000 I/Os over 4 s */
	ck_assert_double_eq_tol(a.iops[NVS_READ], 2500, 1e-3);
	ck_assert_double_eq_tol(a.bw[NVS_READ], 2500 * 4096.0, 1);
	/* the mean latency by I/Os: (1000 x 100 + 9000 x 20) / 10000 */
	ck_assert_double_eq_tol(a.lat_mean_us[NVS_READ], 28, 1e-4);
	ck_assert_double_eq_tol(a.lat_mean_all_us, 28, 1e-4);
	ck_assert_double_eq(a.lat_p99_us[NVS_READ], 300); /* the worst interval's */
	ck_assert_double_eq(a.lat_max_us[NVS_READ], 600);
	ck_assert_double_eq_tol(a.cpu_pct, 25, 1e-4); /* by time */
	ck_assert_uint_eq(a.errors, 2);
	ck_assert_uint_eq(a.workers, 3);
}
END_TEST

START_TEST(merge_refused_across_a_gap_or_the_ramp)
{
	struct point a = pt(1, 1, 1, 1, 1), b = pt(3, 1, 1, 1, 1), c = pt(2, 1, 1, 1, 1);
	ck_assert(!point_mergeable(&a, &b)); /* b starts at 2: a second missing */
	ck_assert(point_mergeable(&a, &c));
	a.ramp = 1;
	ck_assert(!point_mergeable(&a, &c));
}
END_TEST

/* Pushes 1-s points from @from to @to (their read IOPS = their time x 10,
 * p99 = their time), folding after each; returns the I/Os pushed. */
static double feed(struct series *s, struct series_rrd *r, int from, int to)
{
	double ios = 0;
	for (int i = from; i <= to; i++) {
		struct point p = pt(i, 1, (float)(i * 10), 50, (float)i);
		ios += p.iops[NVS_READ];
		ck_assert_int_eq(series_push(s, &p), 0);
		series_rrd_fold(s, r);
		ck_assert_uint_le(s->n, 2 * r->keep + r->keep / 4 + 1);
	}
	return ios;
}

START_TEST(rrd_keeps_the_newest_and_the_totals)
{
	struct series s = {0};
	struct series_rrd r = {.keep = 20};
	double ios = feed(&s, &r, 1, 25);
	ck_assert_uint_eq(s.n, 25); /* not past keep + keep / 4: as pushed */
	ck_assert_uint_eq(r.nold, 0);
	ios += feed(&s, &r, 26, 10000);
	size_t fine = s.n - r.nold;
	ck_assert(fine >= 20 && fine <= 25);
	for (size_t i = s.n - 20; i < s.n; i++) /* the newest 20 as they were */
		ck_assert_double_eq(s.pt[i].t, 10000 - (double)(s.n - 1 - i));
	ck_assert_uint_le(r.nold, 20);
	double sum = 0, end = 0, p99 = 0;
	for (size_t i = 0; i < s.n; i++) {
		ck_assert_double_eq_tol(s.pt[i].t - s.pt[i].dt, end, 1e-6); /* no gap */
		end = s.pt[i].t;
		sum += s.pt[i].iops[NVS_READ] * s.pt[i].dt;
		if (i < r.nold) /* one resolution for the old part (the last one filling) */
			ck_assert(s.pt[i].dt <= r.res * 1.01 &&
				  (i + 1 == r.nold || s.pt[i].dt >= r.res * 0.99));
		p99 = s.pt[i].lat_p99_us[NVS_READ] > p99 ? s.pt[i].lat_p99_us[NVS_READ] : p99;
	}
	ck_assert_double_eq_tol(sum, ios, ios * 1e-6);
	ck_assert_double_eq(p99, 10000);
	ck_assert_double_eq(s.pt[0].lat_p99_us[NVS_READ], s.pt[0].dt); /* its worst second's */
	ck_assert(r.res >= 512); /* 10,000 s in at most 20 points */
	series_release(&s);
}
END_TEST

START_TEST(rrd_leaves_a_gap_apart)
{
	struct series s = {0};
	struct series_rrd r = {.keep = 4};
	for (int i = 1; i <= 40; i++) {
		struct point p = pt(i < 10 ? i : i + 100, 1, 1, 1, 1); /* 100 s missing after 9 */
		series_push(&s, &p);
		series_rrd_fold(&s, &r);
	}
	bool gap = false;
	for (size_t i = 1; i < s.n; i++)
		gap |= s.pt[i].t - s.pt[i].dt > s.pt[i - 1].t + 50;
	ck_assert(gap);
	series_release(&s);
}
END_TEST

START_TEST(compose_puts_the_window_in_place)
{
	struct series live = {0}, win = {0}, out = {0};
	struct point p;
	p = pt(4, 4, 1, 1, 1), series_push(&live, &p);	/* 0..4 */
	p = pt(8, 4, 2, 1, 1), series_push(&live, &p);	/* 4..8: the window */
	p = pt(12, 4, 3, 1, 1), series_push(&live, &p); /* 8..12 */
	for (int i = 5; i <= 8; i++)
		p = pt(i, 1, 7, 1, 1), series_push(&win, &p);
	ck_assert_int_eq(series_compose(&live, &win, &out), 0);
	ck_assert_uint_eq(out.n, 6);
	double want[] = {4, 5, 6, 7, 8, 12};
	for (int i = 0; i < 6; i++)
		ck_assert_double_eq(out.pt[i].t, want[i]);
	series_release(&live);
	series_release(&win);
	series_release(&out);
}
END_TEST

START_TEST(csv_window_matches_the_whole_file)
{
	char path[] = "/tmp/nvs-series-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w+");
	csv_write_header(f);
	for (int i = 1; i <= 5000; i++) {
		struct point p = pt(i * 0.1, 0.1, (float)i, 10, 20);
		csv_write_point(f, &p);
	}
	fflush(f);
	struct series all = {0}, w = {0};
	char err[256];
	ck_assert_int_eq(csv_read_series(path, &all, err, sizeof(err)), 0);
	/* a window deep in the file: the rows overlapping [250.05, 260] */
	ck_assert_int_eq(csv_read_window(f, 250.05, 260, 1000, &w), 0);
	ck_assert_uint_eq(w.n, 100);
	ck_assert_double_eq_tol(w.pt[0].t, 250.1, 1e-9);
	ck_assert_double_eq_tol(w.pt[0].dt, 0.1, 1e-9);
	for (size_t i = 0; i < w.n; i++) {
		const struct point *a = &all.pt[2500 + i];
		ck_assert_double_eq(w.pt[i].t, a->t);
		ck_assert_double_eq(w.pt[i].iops[NVS_READ], a->iops[NVS_READ]);
	}
	/* the start, the end, a cap, a window past the end */
	ck_assert_int_eq(csv_read_window(f, 0, 0.25, 1000, &w), 0);
	ck_assert_uint_eq(w.n, 3);
	ck_assert_double_eq_tol(w.pt[0].dt, 0.1, 1e-9);
	ck_assert_int_eq(csv_read_window(f, 499.95, 1e9, 1000, &w), 0);
	ck_assert_uint_eq(w.n, 1);
	ck_assert_int_eq(csv_read_window(f, 10, 400, 7, &w), 0);
	ck_assert_uint_eq(w.n, 7);
	ck_assert_int_eq(csv_read_window(f, 600, 700, 1000, &w), 0);
	ck_assert_uint_eq(w.n, 0);
	/* a row being written (no newline yet) is not read */
	fputs("500.100,1", f);
	fflush(f);
	ck_assert_int_eq(csv_read_window(f, 499.95, 1e9, 1000, &w), 0);
	ck_assert_uint_eq(w.n, 1);
	fclose(f);
	unlink(path);
	series_release(&all);
	series_release(&w);
}
END_TEST

Suite *series_suite(void)
{
	Suite *s = suite_create("series");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, merge_weighs_each_figure);
	tcase_add_test(tc, merge_refused_across_a_gap_or_the_ramp);
	tcase_add_test(tc, rrd_keeps_the_newest_and_the_totals);
	tcase_add_test(tc, rrd_leaves_a_gap_apart);
	tcase_add_test(tc, compose_puts_the_window_in_place);
	tcase_add_test(tc, csv_window_matches_the_whole_file);
	suite_add_tcase(s, tc);
	return s;
}

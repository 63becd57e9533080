/* test_axis.c - linear and log axes, nice ticks, labels. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "ui/axis.h"

START_TEST(nice_steps)
{
	ck_assert_double_eq_tol(axis_nice_step(100, 4), 50, 1e-9);
	ck_assert_double_eq_tol(axis_nice_step(10, 5), 2, 1e-9);
	ck_assert_double_eq_tol(axis_nice_step(857000, 4), 500000, 1e-6);
	ck_assert_double_eq_tol(axis_nice_step(0.3, 3), 0.1, 1e-12);
}
END_TEST

START_TEST(linear_autoscale_and_map)
{
	struct axis a;
	axis_autoscale(&a, 120000, 857000, false);
	ck_assert(!a.log);
	ck_assert_double_eq(a.lo, 0); /* counts start at 0 */
	ck_assert(a.hi >= 857000 && a.hi <= 1000000);
	ck_assert_int_eq(axis_map(&a, 0, 10), 0);
	ck_assert_int_eq(axis_map(&a, a.hi, 10), 9);
	ck_assert_int_eq(axis_map(&a, a.hi * 2, 10), 9); /* clamped */
	ck_assert_int_eq(axis_map(&a, -5, 10), 0);
	ck_assert_int_eq(axis_map(&a, a.hi / 2, 11), 5);
	ck_assert_int_eq(axis_map(&a, NAN, 10), -1);
	/* flat and empty data still give a usable range */
	axis_autoscale(&a, 0, 0, false);
	ck_assert(a.hi > a.lo);
	axis_autoscale(&a, 5, 5, false);
	ck_assert(a.hi >= 5 && a.lo == 0);
	/* unmap inverts map at pixel centres */
	axis_autoscale(&a, 0, 100, false);
	for (int px = 0; px < 20; px++)
		ck_assert_int_eq(axis_map(&a, axis_unmap(&a, px, 20), 20), px);
}
END_TEST

START_TEST(linear_ticks)
{
	struct axis a = {0, 1000, false};
	double t[AXIS_MAX_TICKS];
	int n = axis_ticks(&a, t, 5);
	ck_assert_int_ge(n, 2);
	ck_assert_int_le(n, 5);
	ck_assert_double_eq(t[0], 0);
	ck_assert_double_eq(t[n - 1], 1000);
	for (int i = 1; i < n; i++)
		ck_assert(t[i] > t[i - 1]);
	n = axis_ticks(&a, t, 2);
	ck_assert_int_eq(n, 2);
	ck_assert_double_eq(t[1], 1000);
	n = axis_ticks(&a, t, 1);
	ck_assert_int_eq(n, 1);
}
END_TEST

START_TEST(log_axis)
{
	struct axis a;
	axis_autoscale(&a, 150, 98000, true);
	ck_assert(a.log);
	ck_assert_double_eq_tol(a.lo, 100, 1e-9);
	ck_assert_double_eq_tol(a.hi, 100000, 1e-6);
	ck_assert_int_eq(axis_map(&a, 100, 31), 0);
	ck_assert_int_eq(axis_map(&a, 1000, 31), 10); /* one decade = 1/3 */
	ck_assert_int_eq(axis_map(&a, 10000, 31), 20);
	ck_assert_int_eq(axis_map(&a, 100000, 31), 30);
	ck_assert_int_eq(axis_map(&a, 0, 31), -1); /* not drawable */
	ck_assert_int_eq(axis_map(&a, -3, 31), -1);
	double t[AXIS_MAX_TICKS];
	int n = axis_ticks(&a, t, 8);
	ck_assert_int_eq(n, 4);
	ck_assert_double_eq_tol(t[0], 100, 1e-9);
	ck_assert_double_eq_tol(t[3], 100000, 1e-6);
	/* many decades, few ticks: every other decade */
	struct axis w = {1, 1e10, true};
	n = axis_ticks(&w, t, 4);
	ck_assert_int_le(n, 4);
	ck_assert_int_ge(n, 2);
	/* flat and non-positive data */
	axis_autoscale(&a, 0, 0, true);
	ck_assert(a.lo > 0 && a.hi > a.lo);
	axis_autoscale(&a, 0, 500, true);
	ck_assert_double_eq_tol(a.lo, 100, 1e-9);
	ck_assert_double_eq_tol(a.hi, 1000, 1e-9);
}
END_TEST

START_TEST(near_axis)
{
	struct axis a;
	axis_autoscale_near(&a, 41, 54.5);
	ck_assert(!a.log);
	ck_assert(a.lo > 30 && a.lo <= 41);
	ck_assert(a.hi >= 54.5 && a.hi < 70);
	ck_assert_int_eq(axis_map(&a, 41, 100), axis_map(&a, a.lo + (41 - a.lo), 100));
	ck_assert_int_gt(axis_map(&a, 54, 100), 50); /* the data fill the axis */
	axis_autoscale_near(&a, 45, 45);	     /* flat */
	ck_assert(a.lo < 45 && a.hi > 45);
	axis_autoscale_near(&a, NAN, 3);
	ck_assert(a.hi > a.lo);
}
END_TEST

START_TEST(labels)
{
	char b[32];
	ck_assert_str_eq(axis_fmt(857000, UNIT_IOPS, true, b, sizeof(b)), "857k");
	ck_assert_str_eq(axis_fmt(1500000, UNIT_IOPS, true, b, sizeof(b)), "1.5M");
	ck_assert_str_eq(axis_fmt(999, UNIT_IOPS, true, b, sizeof(b)), "999");
	ck_assert_str_eq(axis_fmt(0, UNIT_IOPS, true, b, sizeof(b)), "0");
	ck_assert_str_eq(axis_fmt(1.97e9, UNIT_BPS, true, b, sizeof(b)), "2GB/s");
	ck_assert_str_eq(axis_fmt(350e6, UNIT_BPS, true, b, sizeof(b)), "350MB/s");
	ck_assert_str_eq(axis_fmt(85, UNIT_US, true, b, sizeof(b)), "85us");
	ck_assert_str_eq(axis_fmt(85, UNIT_US, false, b, sizeof(b)), "85\xc2\xb5s");
	ck_assert_str_eq(axis_fmt(1250, UNIT_US, true, b, sizeof(b)), "1.2ms");
	ck_assert_str_eq(axis_fmt(2.5e6, UNIT_US, true, b, sizeof(b)), "2.5s");
	ck_assert_str_eq(axis_fmt(45, UNIT_DEGC, true, b, sizeof(b)), "45C");
	ck_assert_str_eq(axis_fmt(16000, UNIT_SEC, true, b, sizeof(b)), "4.4h");
	ck_assert_str_eq(axis_fmt(90, UNIT_SEC, true, b, sizeof(b)), "90s");
	ck_assert_str_eq(axis_fmt(NAN, UNIT_US, true, b, sizeof(b)), "N/A");
}
END_TEST

Suite *axis_suite(void)
{
	Suite *s = suite_create("axis");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, nice_steps);
	tcase_add_test(tc, linear_autoscale_and_map);
	tcase_add_test(tc, linear_ticks);
	tcase_add_test(tc, log_axis);
	tcase_add_test(tc, near_axis);
	tcase_add_test(tc, labels);
	suite_add_tcase(s, tc);
	return s;
}

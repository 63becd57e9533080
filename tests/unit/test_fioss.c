/* test_fioss.c - fio's in-job steady state (stats/fioss.c) against numbers
 * worked by hand from fio 3.33's steadystate.c: mean deviation and
 * least-squares slope windows, absolute and percent limits (with fio's
 * integer mean in the percent slope), the window's order in fio's JSON,
 * the parser of steadystate=, and the binning of rows into seconds; fio
 * master's latency criteria (lat, lat_slope: mean clat per check interval)
 * and steadystate_check_interval, worked from its steadystate.c. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "run/runss.h"
#include "stats/fioss.h"

START_TEST(test_parse)
{
	unsigned c;
	double l;

	ck_assert_int_eq(fioss_parse("iops:2%", &c, &l), 0);
	ck_assert_uint_eq(c, FIOSS_IOPS | FIOSS_PCT);
	ck_assert_double_eq(l, 2.0);
	ck_assert_int_eq(fioss_parse("iops_slope:0.1%", &c, &l), 0);
	ck_assert_uint_eq(c, FIOSS_IOPS | FIOSS_SLOPE | FIOSS_PCT);
	ck_assert_double_eq_tol(l, 0.1, 1e-12);
	ck_assert_int_eq(fioss_parse("bw:1000000", &c, &l), 0);
	ck_assert_uint_eq(c, 0);
	ck_assert_double_eq(l, 1000000.0);
	ck_assert_int_eq(fioss_parse("bw_slope:1m", &c, &l), 0); /* fio: a size, kilo 1024 */
	ck_assert_uint_eq(c, FIOSS_SLOPE);
	ck_assert_double_eq(l, 1048576.0);
	ck_assert_int_eq(fioss_parse("iops:3", &c, &l), 0);
	ck_assert_uint_eq(c, FIOSS_IOPS);
	/* fio master's latency criteria: % of the window's mean, or a time read
	 * as fio's check_str_time reads it (microseconds, no unit: us) */
	ck_assert_int_eq(fioss_parse("lat:5%", &c, &l), 0);
	ck_assert_uint_eq(c, FIOSS_LAT | FIOSS_PCT);
	ck_assert_double_eq(l, 5.0);
	ck_assert_int_eq(fioss_parse("lat_slope:0.1%", &c, &l), 0);
	ck_assert_uint_eq(c, FIOSS_LAT | FIOSS_SLOPE | FIOSS_PCT);
	ck_assert_int_eq(fioss_parse("lat:100us", &c, &l), 0);
	ck_assert_uint_eq(c, FIOSS_LAT);
	ck_assert_double_eq(l, 100.0);
	ck_assert_int_eq(fioss_parse("lat:1ms", &c, &l), 0);
	ck_assert_double_eq(l, 1000.0);
	ck_assert_int_eq(fioss_parse("lat:250", &c, &l), 0);
	ck_assert_double_eq(l, 250.0);
	ck_assert_int_eq(fioss_parse("lat_slope:2s", &c, &l), 0);
	ck_assert_uint_eq(c, FIOSS_LAT | FIOSS_SLOPE);
	ck_assert_double_eq(l, 2e6);
	ck_assert_int_eq(fioss_parse("lat:500ns", &c, &l), 0); /* fio: an unknown unit is 1 */
	ck_assert_double_eq(l, 500.0);
	const char *bad[] = {"iops",	"iops:",  "lat:",     "lat",	 "lat:x",   "lat:-1",
			     "lat:1parsec", "lat:nan", "latency:2%", "iops:nan", "iops:inf%",
			     "iops:-1", "bw:1.5", "iops:%", "iops:2%%"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(fioss_parse(bad[i], &c, &l) == -EINVAL, "%s accepted", bad[i]);
	ck_assert_int_eq(fioss_parse(NULL, &c, &l), -EINVAL);
}
END_TEST

/* iops:10%, ss_dur=3: 100 110 90 -> mean 100, max deviation 10 = 10%, not
 * below 10; + 105 -> 110 90 105, mean 101.667, deviation 11.667 = 11.475%;
 * + 100 -> 90 105 100, mean 98.333, deviation 8.333 = 8.475%: attained. */
START_TEST(test_deviation_pct)
{
	struct fioss *ss = fioss_new(FIOSS_IOPS | FIOSS_PCT, 10.0, 3, 0);
	char buf[64];

	ck_assert_ptr_nonnull(ss);
	ck_assert(!fioss_add(ss, 100, 1000));
	ck_assert(!fioss_add(ss, 110, 1100));
	ck_assert(!fioss_add(ss, 90, 900));
	ck_assert_double_eq_tol(fioss_deviation(ss), 10.0, 1e-9);
	ck_assert_double_eq_tol(fioss_criterion(ss), 10.0, 1e-9);
	ck_assert(!fioss_add(ss, 105, 1050));
	ck_assert_double_eq_tol(fioss_criterion(ss), 100.0 * (35.0 / 3) / (305.0 / 3), 1e-9);
	/* a failed check: the window (fio's JSON order) is the last three */
	ck_assert_uint_eq(fioss_iops_at(ss, 0), 110);
	ck_assert_uint_eq(fioss_iops_at(ss, 1), 90);
	ck_assert_uint_eq(fioss_iops_at(ss, 2), 105);
	ck_assert(fioss_add(ss, 100, 1000));
	ck_assert(fioss_attained(ss));
	ck_assert_double_eq_tol(fioss_deviation(ss), 25.0 / 3, 1e-9);
	ck_assert_double_eq_tol(fioss_criterion(ss), 100.0 * (25.0 / 3) / (295.0 / 3), 1e-9);
	ck_assert_uint_eq(fioss_iops_at(ss, 0), 90);
	ck_assert_uint_eq(fioss_iops_at(ss, 1), 105);
	ck_assert_uint_eq(fioss_iops_at(ss, 2), 100);
	ck_assert_uint_eq(fioss_bw_at(ss, 0), 900);
	ck_assert_uint_eq(fioss_iops_mean(ss), 98); /* 295 / 3 in integers */
	ck_assert_uint_eq(fioss_bw_mean(ss), 983);
	ck_assert(fioss_add(ss, 1, 1)); /* attained: further samples ignored */
	ck_assert_uint_eq(fioss_iops_at(ss, 0), 90);
	ck_assert_str_eq(fioss_name(ss, buf, sizeof(buf)), "iops:10.000000%");
	fioss_free(ss);
}
END_TEST

/* iops_slope:3 (absolute), ss_dur=4, x = 0..3: 10 20 30 40 -> slope 10;
 * + 40 -> 20 30 40 40, slope (230 - 195) / 5 = 7; + 40 -> 30 40 40 40,
 * slope (240 - 225) / 5 = 3, not below 3; + 40 -> slope 0: attained. */
START_TEST(test_slope_abs)
{
	struct fioss *ss = fioss_new(FIOSS_IOPS | FIOSS_SLOPE, 3.0, 4, 0);

	ck_assert(!fioss_add(ss, 10, 0));
	ck_assert(!fioss_add(ss, 20, 0));
	ck_assert(!fioss_add(ss, 30, 0));
	ck_assert_double_eq(fioss_slope(ss), 0); /* not judged before the window fills */
	ck_assert(!fioss_add(ss, 40, 0));
	ck_assert_double_eq_tol(fioss_slope(ss), 10.0, 1e-9);
	ck_assert(!fioss_add(ss, 40, 0));
	ck_assert_double_eq_tol(fioss_slope(ss), 7.0, 1e-9);
	ck_assert(!fioss_add(ss, 40, 0));
	ck_assert_double_eq_tol(fioss_criterion(ss), 3.0, 1e-9);
	ck_assert(fioss_add(ss, 40, 0));
	ck_assert_double_eq_tol(fioss_slope(ss), 0.0, 1e-9);
	fioss_free(ss);
	/* a falling series: |slope| is compared (-10 is not below 3) */
	ss = fioss_new(FIOSS_IOPS | FIOSS_SLOPE, 3.0, 4, 0);
	for (int i = 0; i < 4; i++)
		ck_assert(!fioss_add(ss, 100 - 10 * (uint64_t)i, 0));
	ck_assert_double_eq_tol(fioss_slope(ss), -10.0, 1e-9);
	fioss_free(ss);
}
END_TEST

/* bw_slope in percent: 30 40 40 40 has slope 3 and mean 37.5, but fio
 * divides by the integer mean 37: 8.108%, not 8.0% - so 8.05% is not met. */
START_TEST(test_slope_pct_integer_mean)
{
	struct fioss *ss = fioss_new(FIOSS_SLOPE | FIOSS_PCT, 8.05, 4, 0);
	const uint64_t y[] = {30, 40, 40, 40};

	for (int i = 0; i < 4; i++)
		ck_assert(!fioss_add(ss, 0, y[i]));
	ck_assert_double_eq_tol(fioss_criterion(ss), 300.0 / 37, 1e-9);
	fioss_free(ss);
	ss = fioss_new(FIOSS_SLOPE | FIOSS_PCT, 8.2, 4, 0);
	for (int i = 0; i < 3; i++)
		ck_assert(!fioss_add(ss, 0, y[i]));
	ck_assert(fioss_add(ss, 0, y[3]));
	fioss_free(ss);
}
END_TEST

/* Rows into seconds: ten 100-ms rows of 100 I/Os make one 1000-IOPS
 * sample; with ss_ramp=2 the first two seconds are not counted. */
START_TEST(test_feed_bins)
{
	struct fioss *ss = fioss_new(FIOSS_IOPS, 0.5, 2, 2.0);

	for (int r = 1; r <= 20; r++) /* seconds 0 and 1: ramp */
		ck_assert(!fioss_feed(ss, r * 0.1, 0.1, 100 * r, 4096.0 * r));
	for (int r = 21; r <= 30; r++)
		ck_assert(!fioss_feed(ss, r * 0.1, 0.1, 100, 409600));
	ck_assert_uint_eq(fioss_iops_at(ss, 0), 1000);
	ck_assert_uint_eq(fioss_bw_at(ss, 0), 4096000);
	ck_assert_uint_eq(fioss_iops_at(ss, 1), 0); /* not yet */
	for (int r = 31; r < 40; r++)
		ck_assert(!fioss_feed(ss, r * 0.1, 0.1, 100, 409600));
	ck_assert(fioss_feed(ss, 4.0, 0.1, 100, 409600)); /* 1000, 1000: deviation 0 */
	fioss_free(ss);
	/* 1-s rows are a sample each; a 2-s row is one sample at its rate */
	ss = fioss_new(FIOSS_IOPS, 1, 2, 0);
	ck_assert(!fioss_feed(ss, 1.0, 1.0, 500, 0));
	ck_assert(!fioss_feed(ss, 3.0, 2.0, 2000, 0));
	ck_assert_uint_eq(fioss_iops_at(ss, 1), 1000);
	ck_assert(!fioss_feed(ss, NAN, 1.0, 1, 0));
	fioss_free(ss);
	ck_assert_ptr_null(fioss_new(FIOSS_IOPS, 1, 0, 0));
	ck_assert_ptr_null(fioss_new(FIOSS_IOPS, NAN, 3, 0));
}
END_TEST

/* lat:5%, n = 3: mean clat (ns) per interval 1000 1100 900 -> mean 1000,
 * deviation 100 = 10%; + 1020 -> 1100 900 1020, mean 1006.667, deviation
 * 106.667 = 10.596%; + 1000 -> 900 1020 1000, mean 973.333, deviation 73.333
 * = 7.534%; + 1010 -> 1020 1000 1010, mean 1010, deviation 10 = 0.990%:
 * attained; fio's JSON: lat[] oldest first, lat_mean 3030 / 3 = 1010. */
START_TEST(test_lat_deviation_pct)
{
	struct fioss *ss = fioss_new(FIOSS_LAT | FIOSS_PCT, 5.0, 3, 0);
	char buf[64];

	ck_assert_ptr_nonnull(ss);
	ck_assert(!fioss_add_lat(ss, 50, 5000, 1000));
	ck_assert(!fioss_add_lat(ss, 50, 5000, 1100));
	ck_assert(!fioss_add_lat(ss, 50, 5000, 900));
	ck_assert_double_eq_tol(fioss_criterion(ss), 10.0, 1e-9);
	ck_assert(!fioss_add_lat(ss, 50, 5000, 1020));
	ck_assert_double_eq_tol(fioss_criterion(ss), 100.0 * (320.0 / 3) / (3020.0 / 3), 1e-9);
	ck_assert(!fioss_add_lat(ss, 50, 5000, 1000));
	ck_assert_double_eq_tol(fioss_criterion(ss), 100.0 * (220.0 / 3) / (2920.0 / 3), 1e-9);
	ck_assert(fioss_add_lat(ss, 50, 5000, 1010));
	ck_assert_double_eq_tol(fioss_deviation(ss), 10.0, 1e-9);
	ck_assert_double_eq_tol(fioss_criterion(ss), 100.0 * 10.0 / 1010.0, 1e-9);
	ck_assert_uint_eq(fioss_lat_at(ss, 0), 1020);
	ck_assert_uint_eq(fioss_lat_at(ss, 1), 1000);
	ck_assert_uint_eq(fioss_lat_at(ss, 2), 1010);
	ck_assert_uint_eq(fioss_lat_mean(ss), 1010);
	ck_assert_uint_eq(fioss_iops_mean(ss), 50); /* the other data still kept */
	ck_assert_str_eq(fioss_name(ss, buf, sizeof(buf)), "lat:5.000000%");
	fioss_free(ss);
}
END_TEST

/* lat_slope:5 (fio's number: a time in us, compared with ns), ss_dur=8 with
 * a check interval of 2 s: n = 4 samples, x = 0..3: 1000 1010 1020 1030 ->
 * slope 10; + 1030 -> 1010 1020 1030 1030: sum_y 4090, sum_xy 6170, slope
 * (6170 - 6 * 4090 / 4) / (14 - 36 / 4) = 7; + 1030 -> 1020 1030 1030 1030:
 * sum_y 4110, sum_xy 6180, slope (6180 - 6165) / 5 = 3 < 5: attained. */
START_TEST(test_lat_slope_abs)
{
	unsigned c;
	double l;
	char buf[64];

	ck_assert_int_eq(fioss_parse("lat_slope:5us", &c, &l), 0);
	struct fioss *ss = fioss_new_check(c, l, 8, 2, 0);
	ck_assert_ptr_nonnull(ss);
	ck_assert_uint_eq(fioss_n(ss), 4);
	ck_assert_uint_eq(fioss_dur(ss), 8);
	ck_assert(!fioss_add_lat(ss, 1, 1, 1000));
	ck_assert(!fioss_add_lat(ss, 1, 1, 1010));
	ck_assert(!fioss_add_lat(ss, 1, 1, 1020));
	ck_assert(!fioss_add_lat(ss, 1, 1, 1030));
	ck_assert_double_eq_tol(fioss_slope(ss), 10.0, 1e-9);
	ck_assert(!fioss_add_lat(ss, 1, 1, 1030));
	ck_assert_double_eq_tol(fioss_slope(ss), 7.0, 1e-9);
	ck_assert(fioss_add_lat(ss, 1, 1, 1030));
	ck_assert_double_eq_tol(fioss_slope(ss), 3.0, 1e-9);
	ck_assert_str_eq(fioss_name(ss, buf, sizeof(buf)), "lat_slope:5.000000");
	fioss_free(ss);
	ck_assert_ptr_null(fioss_new_check(FIOSS_LAT, 1, 9, 2, 0)); /* not a multiple */
	ck_assert_ptr_null(fioss_new_check(FIOSS_LAT, 1, 2, 2, 0)); /* not longer */
	ck_assert_ptr_null(fioss_new_check(FIOSS_LAT, 1, 2, 0, 0));
}
END_TEST

/* Rows into check intervals of 2 s: each interval's latency is its
 * completions' mean clat, I/O-weighted across rows (fio: the clat sum over
 * the samples since the last check): 100 I/Os at 1000 ns and 300 at 2000
 * ns, twice -> 1,400,000 / 800 = 1750 ns, 400 IOPS; then four rows of 200
 * I/Os at 1760 ns -> 1760: mean 1755, deviation 5 = 0.285% < 1%. */
START_TEST(test_lat_feed_bins)
{
	struct fioss *ss = fioss_new_check(FIOSS_LAT | FIOSS_PCT, 1.0, 4, 2, 0);

	ck_assert_ptr_nonnull(ss);
	ck_assert(!fioss_feed_lat(ss, 0.5, 0.5, 100, 0, 100 * 1000.0));
	ck_assert(!fioss_feed_lat(ss, 1.0, 0.5, 300, 0, 300 * 2000.0));
	ck_assert(!fioss_feed_lat(ss, 1.5, 0.5, 100, 0, 100 * 1000.0));
	ck_assert(!fioss_feed_lat(ss, 2.0, 0.5, 300, 0, 300 * 2000.0));
	ck_assert_uint_eq(fioss_lat_at(ss, 0), 1750);
	ck_assert_uint_eq(fioss_iops_at(ss, 0), 400);
	for (int r = 5; r < 8; r++)
		ck_assert(!fioss_feed_lat(ss, r * 0.5, 0.5, 200, 0, 200 * 1760.0));
	ck_assert(fioss_feed_lat(ss, 4.0, 0.5, 200, 0, 200 * 1760.0));
	ck_assert_uint_eq(fioss_lat_at(ss, 1), 1760);
	ck_assert_double_eq_tol(fioss_criterion(ss), 100.0 * 5 / 1755.0, 1e-9);
	fioss_free(ss);
}
END_TEST

/* The options: parsed in opt_set, fio's default criterion, off at 0. */
START_TEST(test_spec_options)
{
	struct spec s, t;
	struct fioss *ss;
	char err[256];

	spec_init(&s);
	ck_assert_int_eq(runss_new(&s, &ss), 0);
	ck_assert_ptr_null(ss); /* ss_dur 0: off */
	ck_assert_int_eq(opt_set(&s, "ss_dur", "5", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "steadystate_ramp_time", "2s", err, sizeof(err)), 0);
	ck_assert_int_eq(runss_new(&s, &ss), 0);
	ck_assert_uint_eq(fioss_crit(ss), FIOSS_IOPS | FIOSS_SLOPE | FIOSS_PCT); /* fio's default */
	ck_assert_double_eq(fioss_limit(ss), 0.01);
	ck_assert_uint_eq(fioss_dur(ss), 5);
	ck_assert_double_eq(fioss_ramp_s(ss), 2.0);
	fioss_free(ss);
	t = s;
	ck_assert_int_eq(opt_set(&s, "ss", "bw:2%", err, sizeof(err)), 0);
	ck_assert(!runss_same(&s, &t));
	ck_assert_int_eq(opt_set(&s, "ss", "lat:2%", err, sizeof(err)), 0); /* fio master's */
	ck_assert_uint_eq(s.ss_crit, FIOSS_LAT | FIOSS_PCT);
	ck_assert_int_eq(opt_set(&s, "ss", "latency:2%", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "lat_slope"));
	/* steadystate_check_interval: whole seconds, ss_dur a multiple of it */
	ck_assert_int_eq(opt_set(&s, "ss_dur", "10", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "filename", "/dev/x", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "steadystate_check_interval", "2", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.ss_check_s, 2);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
	ck_assert_int_eq(runss_new(&s, &ss), 0);
	ck_assert_uint_eq(fioss_n(ss), 5);
	fioss_free(ss);
	ck_assert_int_eq(opt_set(&s, "ss_interval", "3s", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "multiple"));
	ck_assert_int_eq(opt_set(&s, "ss_interval", "1500ms", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "ss_interval", "0", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "ss_interval", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "ss_dur", "-1", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "ss_ramp", "x", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "ss_dur", "1m", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.ss_dur_s, 60);
}
END_TEST

Suite *fioss_suite(void)
{
	Suite *s = suite_create("fioss");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_deviation_pct);
	tcase_add_test(tc, test_slope_abs);
	tcase_add_test(tc, test_slope_pct_integer_mean);
	tcase_add_test(tc, test_feed_bins);
	tcase_add_test(tc, test_spec_options);
	tcase_add_test(tc, test_lat_deviation_pct);
	tcase_add_test(tc, test_lat_slope_abs);
	tcase_add_test(tc, test_lat_feed_bins);
	suite_add_tcase(s, tc);
	return s;
}

/* test_steady.c - the steady-state rule on constructed series with known
 * answers: flat, noisy within limits, trending, step change, too short, and
 * the boundaries of both SNIA criteria; the fio-style alternative. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include "stats/steady.h"

static struct steady_params snia(void)
{
	struct steady_params p;
	steady_params_init(&p);
	return p;
}

START_TEST(test_defaults)
{
	struct steady_params p = snia();
	ck_assert_uint_eq(p.window, 5);
	ck_assert_double_eq(p.range_pct, 20.0);
	ck_assert_double_eq(p.slope_pct, 10.0);
	ck_assert_int_eq(steady_params_check(&p), 0);
	p.window = 1;
	ck_assert_int_eq(steady_params_check(&p), -EINVAL);
	p.window = 5;
	p.range_pct = -1;
	ck_assert_int_eq(steady_params_check(&p), -EINVAL);
}
END_TEST

START_TEST(test_flat)
{
	double v[] = {1000, 1000, 1000, 1000, 1000, 1000};
	struct steady_params p = snia();
	struct steady_verdict first, last;
	ck_assert_uint_eq(steady_scan(v, 6, &p, &first, &last), 5);
	ck_assert(first.attained && first.valid && first.pct_valid);
	ck_assert_uint_eq(first.round, 5);
	ck_assert_double_eq_tol(first.avg, 1000, 1e-9);
	ck_assert_double_eq_tol(first.range_pct, 0, 1e-9);
	ck_assert_double_eq_tol(first.slope_pct, 0, 1e-9);
	ck_assert_uint_eq(last.round, 6);
}
END_TEST

START_TEST(test_noisy_within)
{
	/* avg 100.8, range 13 (12.9 %), slope -0.9/round: excursion 3.6 (3.57 %) */
	double v[] = {100, 108, 95, 103, 98};
	struct steady_params p = snia();
	struct steady_verdict vd;
	steady_eval(v, 5, &p, &vd);
	ck_assert(vd.attained);
	ck_assert_double_eq_tol(vd.avg, 100.8, 1e-9);
	ck_assert_double_eq_tol(vd.slope, -0.9, 1e-9);
	ck_assert_double_eq_tol(vd.range_pct, 13.0 / 100.8 * 100, 1e-9);
	ck_assert_double_eq_tol(vd.slope_pct, 3.6 / 100.8 * 100, 1e-9);
}
END_TEST

START_TEST(test_trending)
{
	double v[20];
	for (int i = 0; i < 20; i++)
		v[i] = 100 * pow(1.1, i); /* +10 %/round: range and slope both exceed */
	struct steady_params p = snia();
	struct steady_verdict first, last;
	ck_assert_uint_eq(steady_scan(v, 20, &p, &first, &last), 0);
	ck_assert(!first.attained);
	ck_assert(last.valid && !last.attained && !last.range_ok && !last.slope_ok);
	ck_assert_uint_eq(last.round, 20);
	ck_assert(last.slope > 0);
}
END_TEST

START_TEST(test_slope_only_fails)
{
	/* range 12/106 = 11.3 % passes; excursion 3*4 = 12 -> 11.3 % > 10 % */
	double v[] = {100, 103, 106, 109, 112};
	struct steady_params p = snia();
	struct steady_verdict vd;
	steady_eval(v, 5, &p, &vd);
	ck_assert(vd.range_ok);
	ck_assert(!vd.slope_ok);
	ck_assert(!vd.attained);
}
END_TEST

START_TEST(test_range_only_fails)
{
	/* symmetric spike: slope 0, range 25/105 = 23.8 % */
	double v[] = {100, 100, 125, 100, 100};
	struct steady_params p = snia();
	struct steady_verdict vd;
	steady_eval(v, 5, &p, &vd);
	ck_assert(!vd.range_ok);
	ck_assert(vd.slope_ok);
	ck_assert_double_eq_tol(vd.slope, 0, 1e-12);
	ck_assert(!vd.attained);
}
END_TEST

START_TEST(test_step_change)
{
	/* fresh-out-of-box high, then a drop: the first steady window is the
	 * first one holding only post-drop rounds (rounds 4..8). */
	double v[] = {400, 400, 400, 100, 101, 99, 100, 100, 100, 101};
	struct steady_params p = snia();
	struct steady_verdict first;
	ck_assert_uint_eq(steady_scan(v, 10, &p, &first, NULL), 8);
	ck_assert_uint_eq(first.round, 8);
	ck_assert_double_eq_tol(first.avg, 100, 1e-9);
}
END_TEST

START_TEST(test_too_short)
{
	double v[] = {100, 100, 100, 100};
	struct steady_params p = snia();
	struct steady_verdict vd, first, last;
	steady_eval(v, 4, &p, &vd);
	ck_assert(!vd.valid && !vd.attained);
	ck_assert_uint_eq(steady_scan(v, 4, &p, &first, &last), 0);
	ck_assert(!last.valid);
	steady_eval(v, 0, &p, &vd);
	ck_assert(!vd.valid);
}
END_TEST

START_TEST(test_range_boundary)
{
	/* avg 100, max - min = 20: exactly 20 % is within */
	double at[] = {90, 110, 100, 100, 100};
	double over[] = {90, 110.05, 100, 100, 100};
	struct steady_params p = snia();
	struct steady_verdict vd;
	steady_eval(at, 5, &p, &vd);
	ck_assert_double_eq_tol(vd.range_pct, 20.0, 1e-9);
	ck_assert(vd.range_ok && vd.slope_ok && vd.attained);
	steady_eval(over, 5, &p, &vd);
	ck_assert(!vd.range_ok && !vd.attained);
	ck_assert(vd.slope_ok);
}
END_TEST

START_TEST(test_slope_boundary)
{
	/* a line of +2.5/round around 100: excursion 2.5*4 = 10 = 10 % */
	double at[] = {95, 97.5, 100, 102.5, 105};
	double over[] = {94.96, 97.48, 100, 102.52, 105.04}; /* 2.52/round */
	struct steady_params p = snia();
	struct steady_verdict vd;
	steady_eval(at, 5, &p, &vd);
	ck_assert_double_eq_tol(vd.slope_pct, 10.0, 1e-9);
	ck_assert(vd.slope_ok && vd.range_ok && vd.attained);
	steady_eval(over, 5, &p, &vd);
	ck_assert(!vd.slope_ok && !vd.attained);
	ck_assert(vd.range_ok);
	/* a tighter slope limit turns the first one down too */
	p.slope_pct = 9.99;
	steady_eval(at, 5, &p, &vd);
	ck_assert(!vd.attained);
}
END_TEST

START_TEST(test_window_param)
{
	/* window 3: the last 3 rounds of a settling series */
	double v[] = {300, 200, 150, 120, 120, 121};
	struct steady_params p = snia();
	p.window = 3;
	ck_assert_uint_eq(steady_scan(v, 6, &p, NULL, NULL), 6); /* 150,120,120 fails */
	p.window = 5;
	ck_assert_uint_eq(steady_scan(v, 6, &p, NULL, NULL), 0);
}
END_TEST

START_TEST(test_zero_average)
{
	double v[] = {0, 0, 0, 0, 0};
	struct steady_params p = snia();
	struct steady_verdict vd;
	steady_eval(v, 5, &p, &vd);
	ck_assert(vd.valid && !vd.pct_valid && !vd.attained);
}
END_TEST

START_TEST(test_fio_parse)
{
	struct steady_params p = snia();
	ck_assert_int_eq(steady_parse_fio("iops_slope:0.3%", &p), 0);
	ck_assert_int_eq(p.rule, STEADY_FIO_SLOPE);
	ck_assert(p.fio_pct);
	ck_assert_double_eq_tol(p.fio_limit, 0.3, 1e-12);
	ck_assert_int_eq(steady_parse_fio("bw:1000", &p), 0);
	ck_assert_int_eq(p.rule, STEADY_FIO_DEV);
	ck_assert_int_eq(p.metric, STEADY_BW);
	ck_assert(!p.fio_pct);
	ck_assert_int_eq(steady_parse_fio("iops", &p), -EINVAL);
	ck_assert_int_eq(steady_parse_fio("lat:5%", &p), -EINVAL);
	ck_assert_int_eq(steady_parse_fio("iops:x", &p), -EINVAL);
	ck_assert_int_eq(steady_parse_fio("iops:5%%", &p), -EINVAL);
	ck_assert_int_eq(steady_parse_fio("iops:-1", &p), -EINVAL);
	ck_assert_int_eq(steady_parse_fio(NULL, &p), -EINVAL);
}
END_TEST

START_TEST(test_tolerance_parse)
{
	double d = -1;
	ck_assert_int_eq(steady_parse_tolerance("20", &d), 0);
	ck_assert(d == 20);
	ck_assert_int_eq(steady_parse_tolerance("12.5%", &d), 0);
	ck_assert(d == 12.5);
	ck_assert_int_eq(steady_parse_tolerance("1000", &d), 0);
	ck_assert(d == 1000);
	ck_assert_int_eq(steady_parse_tolerance("0", &d), 0);
	ck_assert(d == 0);
	d = 7;
	static const char *const bad[] = {"", "%", "1001", "-1", "nan", "inf", "1e400", " 20",
					  "20 ", "20%%", "20%x", "0x10", "20s"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(steady_parse_tolerance(bad[i], &d) == -EINVAL, "%s", bad[i]);
	ck_assert_int_eq(steady_parse_tolerance(NULL, &d), -EINVAL);
	ck_assert(d == 7);
}
END_TEST

START_TEST(test_fio_rules)
{
	/* mean 100, max deviation 4: iops:4% holds, iops:3.9% does not */
	double v[] = {96, 104, 100, 100, 100};
	struct steady_params p = snia();
	struct steady_verdict vd;
	ck_assert_int_eq(steady_parse_fio("iops:4%", &p), 0);
	steady_eval(v, 5, &p, &vd);
	ck_assert(vd.attained);
	ck_assert_double_eq_tol(vd.range_pct, 4.0, 1e-9);
	ck_assert_int_eq(steady_parse_fio("iops:3.9%", &p), 0);
	steady_eval(v, 5, &p, &vd);
	ck_assert(!vd.attained);
	ck_assert_int_eq(steady_parse_fio("iops:4", &p), 0); /* absolute */
	steady_eval(v, 5, &p, &vd);
	ck_assert(vd.attained);
	/* slope 2.5/round on mean 100: iops_slope:2.5% holds, 2.4% not */
	double line[] = {95, 97.5, 100, 102.5, 105};
	ck_assert_int_eq(steady_parse_fio("iops_slope:2.5%", &p), 0);
	steady_eval(line, 5, &p, &vd);
	ck_assert(vd.attained);
	ck_assert_double_eq_tol(vd.slope_pct, 2.5, 1e-9);
	ck_assert_int_eq(steady_parse_fio("iops_slope:2.4%", &p), 0);
	steady_eval(line, 5, &p, &vd);
	ck_assert(!vd.attained);
}
END_TEST

START_TEST(test_tracker)
{
	struct steady_params p = snia();
	struct steady *s = steady_new(&p);
	struct steady_verdict vd;
	ck_assert_ptr_nonnull(s);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(steady_push(s, 1000, &vd), 0);
		ck_assert(!vd.valid);
	}
	ck_assert_uint_eq(steady_attained_round(s), 0);
	ck_assert_int_eq(steady_push(s, 1000, &vd), 0);
	ck_assert(vd.attained);
	ck_assert_uint_eq(steady_attained_round(s), 5);
	ck_assert(!steady_left(s));
	for (int i = 0; i < 200; i++) /* grows past the first allocation */
		steady_push(s, 1000, NULL);
	ck_assert(!steady_left(s));
	steady_push(s, 500, &vd); /* the drive falls out of steady state */
	ck_assert(!vd.attained);
	ck_assert(steady_left(s));
	ck_assert_uint_eq(steady_attained_round(s), 5);
	ck_assert_uint_eq(steady_count(s), 206);
	ck_assert_double_eq(steady_values(s)[205], 500);
	steady_free(s);
	steady_free(NULL);
	p.window = 0;
	ck_assert_ptr_null(steady_new(&p));
}
END_TEST

Suite *steady_suite(void)
{
	Suite *s = suite_create("steady");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_tolerance_parse);
	tcase_add_test(tc, test_flat);
	tcase_add_test(tc, test_noisy_within);
	tcase_add_test(tc, test_trending);
	tcase_add_test(tc, test_slope_only_fails);
	tcase_add_test(tc, test_range_only_fails);
	tcase_add_test(tc, test_step_change);
	tcase_add_test(tc, test_too_short);
	tcase_add_test(tc, test_range_boundary);
	tcase_add_test(tc, test_slope_boundary);
	tcase_add_test(tc, test_window_param);
	tcase_add_test(tc, test_zero_average);
	tcase_add_test(tc, test_fio_parse);
	tcase_add_test(tc, test_fio_rules);
	tcase_add_test(tc, test_tracker);
	suite_add_tcase(s, tc);
	return s;
}

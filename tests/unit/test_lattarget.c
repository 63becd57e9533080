/* test_lattarget.c - fio's latency-target search (io/feat/lattarget.c) driven by
 * synthetic latencies: a "device" whose latency grows with the depth, the
 * steps fio's io_u.c takes (double, bisect, three stable successes, the
 * final window with the statistics reset), percentile 100's immediate
 * ramp-down and its fatal case at depth 1, and the option parsers. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include "io/feat/lattarget.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"

#define US  1000ull
#define WIN (100 * US * 1000) /* 100 ms */

static struct spec mk(uint64_t target_ns, double pct, bool run)
{
	struct spec s;
	spec_init(&s);
	s.lat_target_ns = target_ns;
	s.lat_window_ns = WIN;
	s.lat_pct = pct;
	s.lat_run = run;
	return s;
}

/* One window on a device answering in qd x 100 us: @n completions, then
 * the check at the window's end.  Handles a quiesce as the worker does. */
static enum lattarget_act window(struct lattarget *lt, uint64_t *now, unsigned n, bool *reset)
{
	enum lattarget_act a = LT_NONE;
	for (unsigned i = 0; i < n; i++) {
		a = lattarget_note(lt, lattarget_depth(lt) * 100 * US);
		if (a == LT_FATAL)
			return a;
	}
	*now += WIN;
	a = lattarget_check(lt, *now);
	if (a == LT_QUIESCE)
		*reset = lattarget_resume(lt, *now);
	return a;
}

START_TEST(test_lattarget_off)
{
	struct spec s = mk(0, 100, false);
	struct lattarget lt;
	lattarget_init(&lt, &s, 32, 0);
	ck_assert(!lt.on);
	ck_assert_uint_eq(lattarget_depth(&lt), 32);
	ck_assert_int_eq(lattarget_check(&lt, 10 * WIN), LT_NONE);
}
END_TEST

START_TEST(test_lattarget_doubles_to_max)
{
	struct spec s = mk(1000000 * US, 100, false); /* 1 s: always met */
	struct lattarget lt;
	uint64_t now = 0;
	bool reset = false;
	unsigned seen[8], n = 0;

	lattarget_init(&lt, &s, 16, now);
	ck_assert_uint_eq(lattarget_depth(&lt), 1);
	/* not a full window yet: nothing changes */
	ck_assert_int_eq(lattarget_check(&lt, WIN - 1), LT_NONE);
	ck_assert_uint_eq(lattarget_depth(&lt), 1);
	for (; n < 4; n++) {
		ck_assert_int_eq(window(&lt, &now, 100, &reset), LT_NONE);
		seen[n] = lattarget_depth(&lt);
	}
	ck_assert_uint_eq(seen[0], 2);
	ck_assert_uint_eq(seen[1], 4);
	ck_assert_uint_eq(seen[2], 8);
	ck_assert_uint_eq(seen[3], 16);
	ck_assert(!reset);
	/* 16 again: the same depth twice, the final window with a reset ... */
	ck_assert_int_eq(window(&lt, &now, 100, &reset), LT_QUIESCE);
	ck_assert(lt.end_run);
	ck_assert(reset);
	ck_assert_uint_eq(lattarget_depth(&lt), 16);
	/* ... then done at 16 */
	reset = false;
	ck_assert_int_eq(window(&lt, &now, 100, &reset), LT_DONE);
	ck_assert_uint_eq(lattarget_depth(&lt), 16);
}
END_TEST

START_TEST(test_lattarget_bisects)
{
	/* 550 us: depth 5 (500 us) meets it, depth 6 (600 us) does not */
	struct spec s = mk(550 * US, 99.0, false);
	struct lattarget lt;
	uint64_t now = 0;
	bool reset = false;
	enum lattarget_act a = LT_NONE;
	unsigned steps = 0;

	lattarget_init(&lt, &s, 128, now);
	while (a != LT_DONE && steps++ < 50) {
		reset = false;
		a = window(&lt, &now, 1000, &reset);
		ck_assert_int_ne(a, LT_FATAL);
		ck_assert_uint_ge(lattarget_depth(&lt), 1);
		ck_assert_uint_le(lattarget_depth(&lt), 128);
	}
	ck_assert_int_eq(a, LT_DONE);
	ck_assert_uint_eq(lattarget_depth(&lt), 5);
	ck_assert(lt.end_run);
}
END_TEST

START_TEST(test_lattarget_percentile)
{
	struct spec s = mk(100 * US, 99.9, false);
	struct lattarget lt;

	/* 1 late of 1000 is 99.9 % within: a success (depth 1 -> 2) */
	lattarget_init(&lt, &s, 8, 0);
	for (int i = 0; i < 999; i++)
		lattarget_note(&lt, 50 * US);
	ck_assert_int_eq(lattarget_note(&lt, 500 * US), LT_NONE);
	ck_assert_int_eq(lattarget_check(&lt, WIN), LT_NONE);
	ck_assert_uint_eq(lattarget_depth(&lt), 2);
	/* 2 late of 1000: failed, bisect down to 1 (quiesce) */
	for (int i = 0; i < 998; i++)
		lattarget_note(&lt, 50 * US);
	lattarget_note(&lt, 500 * US);
	lattarget_note(&lt, 500 * US);
	ck_assert_int_eq(lattarget_check(&lt, 2 * WIN), LT_QUIESCE);
	ck_assert_uint_eq(lattarget_depth(&lt), 1);
	ck_assert(!lattarget_resume(&lt, 2 * WIN));
	/* a window without I/O fails (fio: 0/0); at depth 1 it grows on */
	ck_assert_int_eq(lattarget_check(&lt, 3 * WIN), LT_NONE);
	ck_assert_uint_eq(lattarget_depth(&lt), 1);
}
END_TEST

START_TEST(test_lattarget_pct100)
{
	struct spec s = mk(100 * US, 100.0, false);
	struct lattarget lt;
	bool reset = false;
	uint64_t now = 0;

	lattarget_init(&lt, &s, 8, 0);
	ck_assert_int_eq(window(&lt, &now, 10, &reset), LT_NONE); /* 100 us: within */
	ck_assert_uint_eq(lattarget_depth(&lt), 2);
	/* one late I/O ramps down at once, without waiting for the window */
	ck_assert_int_eq(lattarget_note(&lt, 101 * US), LT_QUIESCE);
	ck_assert_uint_eq(lattarget_depth(&lt), 1);
	/* late completions during the quiesce are not judged */
	ck_assert_int_eq(lattarget_note(&lt, 900 * US), LT_NONE);
	lattarget_resume(&lt, now);
	/* at depth 1 a late I/O is fio's "max latency exceeded" */
	ck_assert_int_eq(lattarget_note(&lt, 101 * US), LT_FATAL);
}
END_TEST

START_TEST(test_lattarget_run_keeps_going)
{
	struct spec s = mk(550 * US, 99.0, true);
	struct lattarget lt;
	uint64_t now = 0;
	bool reset = false;

	lattarget_init(&lt, &s, 64, now);
	for (int i = 0; i < 40; i++) {
		reset = false;
		ck_assert_int_ne(window(&lt, &now, 1000, &reset), LT_DONE);
		ck_assert(!reset);
		if (i >= 10) /* past the doubling: around 5 (6 fails, 5 holds) */
			ck_assert_uint_le(lattarget_depth(&lt), 7);
	}
	ck_assert_uint_ge(lattarget_depth(&lt), 4);
}
END_TEST

START_TEST(test_lattarget_restart_after_ramp)
{
	struct spec s = mk(1000 * US, 100, false);
	struct lattarget lt;
	uint64_t now = 0;
	bool reset;

	lattarget_init(&lt, &s, 8, now);
	window(&lt, &now, 10, &reset);
	ck_assert_uint_eq(lattarget_depth(&lt), 2);
	lattarget_restart(&lt, now); /* fio's reset_all_stats at the ramp's end */
	ck_assert_uint_eq(lattarget_depth(&lt), 1);
}
END_TEST

START_TEST(test_lattarget_options)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert(s.lat_pct == 100.0);
	ck_assert_int_eq(opt_set(&s, "latency_target", "500000", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.lat_target_ns, 500000 * US); /* bare: us, as in fio */
	ck_assert_int_eq(opt_set(&s, "latency-window", "5s", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.lat_window_ns, 5000000 * US);
	ck_assert_int_eq(opt_set(&s, "latency_percentile", "99.9", err, sizeof(err)), 0);
	ck_assert(fabs(s.lat_pct - 99.9) < 1e-9);
	ck_assert_int_eq(opt_set(&s, "latency_run", NULL, err, sizeof(err)), 0);
	ck_assert(s.lat_run);
	ck_assert_int_eq(opt_set(&s, "latency_run", "0", err, sizeof(err)), 0);
	ck_assert(!s.lat_run);
	static const char *const bad_time[] = {
	    "nan", "inf", "-1", "1e400", "", "5x", "99999999999999999999999", "2h"};
	for (size_t i = 0; i < sizeof(bad_time) / sizeof(bad_time[0]); i++) {
		ck_assert_int_eq(opt_set(&s, "latency_target", bad_time[i], err, sizeof(err)),
				 -EINVAL);
		ck_assert_int_eq(opt_set(&s, "latency_window", bad_time[i], err, sizeof(err)),
				 -EINVAL);
	}
	ck_assert_ptr_nonnull(strstr(err, "latency_window"));
	static const char *const bad_pct[] = {"nan", "inf", "-0.1", "100.01", "1e400", "", "x"};
	for (size_t i = 0; i < sizeof(bad_pct) / sizeof(bad_pct[0]); i++)
		ck_assert_int_eq(opt_set(&s, "latency_percentile", bad_pct[i], err, sizeof(err)),
				 -EINVAL);
	ck_assert_int_eq(opt_set(&s, "latency_run", "maybe", err, sizeof(err)), -EINVAL);
	ck_assert(fabs(s.lat_pct - 99.9) < 1e-9); /* untouched by the refusals */
	ck_assert_uint_eq(s.lat_target_ns, 500000 * US);
	/* a QD sweep has no single maximum to search up to */
	ck_assert_int_eq(opt_set(&s, "target", "/dev/null", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "iodepth", "1,4", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "latency_target"));
}
END_TEST

Suite *lattarget_suite(void)
{
	Suite *s = suite_create("lattarget");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_lattarget_off);
	tcase_add_test(tc, test_lattarget_doubles_to_max);
	tcase_add_test(tc, test_lattarget_bisects);
	tcase_add_test(tc, test_lattarget_percentile);
	tcase_add_test(tc, test_lattarget_pct100);
	tcase_add_test(tc, test_lattarget_run_keeps_going);
	tcase_add_test(tc, test_lattarget_restart_after_ramp);
	tcase_add_test(tc, test_lattarget_options);
	suite_add_tcase(s, tc);
	return s;
}

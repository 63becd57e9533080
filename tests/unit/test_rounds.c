/* test_rounds.c - the console's live steady state: cutting a per-interval
 * series into rounds (means, ramp, partial and empty rounds, boundaries),
 * the rule over them (attained, left) and the window's cells on a strip. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include "ui/rounds.h"

/* @n one-second intervals, IOPS from @iops[i] (reads), t = i + 1. */
static void series_of(struct point *pt, const double *iops, size_t n)
{
	memset(pt, 0, n * sizeof(*pt));
	for (size_t i = 0; i < n; i++) {
		pt[i].t = (double)(i + 1);
		pt[i].dt = 1;
		pt[i].iops[0] = iops[i];
	}
}

START_TEST(test_build_means)
{
	double v[] = {100, 200, 300, 400, 500, 600, 700};
	struct point pt[7];
	struct rounds r = {0};
	series_of(pt, v, 7);
	ck_assert_int_eq(rounds_build(pt, 7, 0, 3, &r), 2); /* 7 s: 2 complete rounds of 3 s */
	ck_assert_double_eq_tol(r.v[0], 200, 1e-9);
	ck_assert_double_eq_tol(r.v[1], 500, 1e-9);
	ck_assert_double_eq(r.t0[1], 3);
	ck_assert_double_eq(r.t1[1], 6);
	ck_assert_int_eq(rounds_build(pt, 6, 0, 3, &r), 2); /* exactly on the boundary */
	ck_assert_int_eq(rounds_build(pt, 5, 0, 3, &r), 1);
	ck_assert_int_eq(rounds_build(pt, 2, 0, 3, &r), 0);
	ck_assert_int_eq(rounds_build(pt, 0, 0, 3, &r), 0);
	ck_assert_int_eq(rounds_build(pt, 7, 0, 0, &r), -EINVAL);
	ck_assert_int_eq(rounds_build(pt, 7, 0, 1, &r), 7);
	ck_assert_double_eq_tol(r.v[6], 700, 1e-9);
	/* from an origin: the earlier intervals are another workload */
	ck_assert_int_eq(rounds_build(pt, 7, 2.5, 2, &r), 2); /* [2.5,4.5) [4.5,6.5) */
	ck_assert_double_eq(r.t0[0], 2.5);
	ck_assert_double_eq_tol(r.v[0], 350, 1e-9); /* t = 3, 4 */
	ck_assert_double_eq_tol(r.v[1], 550, 1e-9); /* t = 5, 6 */
	rounds_release(&r);
	rounds_release(NULL);
}
END_TEST

START_TEST(test_build_weights_reads_writes_ramp)
{
	struct point pt[4];
	struct rounds r = {0};
	memset(pt, 0, sizeof(pt));
	/* round of 4 s: a ramp second (ignored), then 0.5 s + 1.5 s + 1 s */
	pt[0] = (struct point){.t = 1, .dt = 1, .iops = {9999, 0}, .ramp = 1};
	pt[1] = (struct point){.t = 1.5, .dt = 0.5, .iops = {100, 100}};
	pt[2] = (struct point){.t = 3, .dt = 1.5, .iops = {0, 400}};
	pt[3] = (struct point){.t = 4, .dt = 1, .iops = {300, 0}};
	ck_assert_int_eq(rounds_build(pt, 4, 0, 4, &r), 1);
	/* (200*0.5 + 400*1.5 + 300*1) / 3 */
	ck_assert_double_eq_tol(r.v[0], (100 + 600 + 300) / 3.0, 1e-9);
	/* a round of ramp only is left out; the next one counts */
	ck_assert_int_eq(rounds_build(pt, 4, 0, 1, &r), 3);
	ck_assert_double_eq(r.t0[0], 1); /* [0,1) was the ramp */
	rounds_release(&r);
}
END_TEST

START_TEST(test_build_straddle_and_tail)
{
	/* 2 s intervals on 3 s rounds: the interval ending at 4 (midpoint 3)
	 * belongs to the second round */
	struct point pt[4];
	double v[] = {10, 20, 30, 40};
	struct rounds r = {0};
	series_of(pt, v, 4);
	for (int i = 0; i < 4; i++) {
		pt[i].t = 2.0 * (i + 1);
		pt[i].dt = 2;
	}
	ck_assert_int_eq(rounds_build(pt, 4, 0, 3, &r), 2); /* data to 8 s: rounds 0-3, 3-6 */
	ck_assert_double_eq_tol(r.v[0], 10, 1e-9);
	ck_assert_double_eq_tol(r.v[1], 25, 1e-9);
	/* a short last interval just shy of the end still completes it */
	pt[3].t = 5.8;
	pt[3].dt = 1.8;
	ck_assert_int_eq(rounds_build(pt, 4, 0, 3, &r), 2);
	pt[3].t = 5.0;
	pt[3].dt = 1.0;
	ck_assert_int_eq(rounds_build(pt, 4, 0, 3, &r), 1);
	rounds_release(&r);
}
END_TEST

START_TEST(test_steady_attained_and_left)
{
	struct steady_params p;
	struct steady_view sv;
	struct rounds r = {0};
	steady_params_init(&p);
	/* too short */
	for (int i = 0; i < 4; i++)
		rounds_push(&r, i * 60, (i + 1) * 60, 1000);
	rounds_steady(&r, &p, &sv);
	ck_assert_uint_eq(sv.nrounds, 4);
	ck_assert(!sv.last.valid);
	ck_assert_uint_eq(sv.attained, 0);
	ck_assert(!sv.left);
	/* a falling start, then flat: steady at round 7 */
	struct rounds q = {0};
	double v[] = {5000, 3000, 1500, 1000, 1010, 990, 1000, 1005};
	for (int i = 0; i < 8; i++)
		rounds_push(&q, i * 60, (i + 1) * 60, v[i]);
	rounds_steady(&q, &p, &sv);
	ck_assert_uint_eq(sv.attained, 8);
	ck_assert_double_eq(sv.attained_s, 480);
	ck_assert(sv.last.attained && sv.last.range_ok && sv.last.slope_ok);
	ck_assert(!sv.left);
	/* then a collapse: left steady state */
	rounds_push(&q, 480, 540, 400);
	rounds_steady(&q, &p, &sv);
	ck_assert_uint_eq(sv.attained, 8);
	ck_assert(sv.left);
	ck_assert(!sv.last.range_ok);
	rounds_release(&r);
	rounds_release(&q);
}
END_TEST

START_TEST(test_cols)
{
	/* 10 cells = 20 dots over [0, 19]: one dot per second */
	ck_assert_int_eq(rounds_col(0, 0, 19, 10), 0);
	ck_assert_int_eq(rounds_col(1, 0, 19, 10), 0);
	ck_assert_int_eq(rounds_col(2, 0, 19, 10), 1);
	ck_assert_int_eq(rounds_col(19, 0, 19, 10), 9);
	ck_assert_int_lt(rounds_col(-5, 0, 19, 10), 0);
	ck_assert_int_ge(rounds_col(40, 0, 19, 10), 10);
	ck_assert_int_eq(rounds_col(5, 5, 5, 10), -1); /* empty range */
	int c0, c1;
	ck_assert(rounds_span_cols(4, 9, 0, 19, 10, &c0, &c1));
	ck_assert_int_eq(c0, 2);
	ck_assert_int_eq(c1, 4);
	ck_assert(rounds_span_cols(-10, 4, 0, 19, 10, &c0, &c1)); /* clipped left */
	ck_assert_int_eq(c0, 0);
	ck_assert(rounds_span_cols(10, 100, 0, 19, 10, &c0, &c1)); /* clipped right */
	ck_assert_int_eq(c1, 9);
	ck_assert(!rounds_span_cols(-10, -5, 0, 19, 10, &c0, &c1));
	ck_assert(!rounds_span_cols(30, 40, 0, 19, 10, &c0, &c1));
	ck_assert(!rounds_span_cols(4, 9, 0, 19, 0, &c0, &c1));
	/* huge values do not overflow */
	ck_assert_int_ge(rounds_col(1e300, 0, 1, 10), 10);
	ck_assert_int_lt(rounds_col(-1e300, 0, 1, 10), 0);
}
END_TEST

/* `nvscope steady --round` and the console cut rounds one way: the console
 * hands its points to rounds_build (from the current step's start in a QD
 * sweep), the command reads (t, dt, r + w IOPS) rows, ramp rows left out,
 * and hands them to rounds_build_values.  Same rounds, same verdict, for a
 * series with ramp, unequal intervals, a short tail and a sweep origin. */
START_TEST(test_console_and_cli_agree)
{
	enum { N = 64 };
	struct point pt[N];
	double t[N], dt[N], v[N];
	struct rounds rc = {0}, rl = {0};
	struct steady_params sp;
	struct steady_view vc, vl;
	double now = 0;
	memset(pt, 0, sizeof(pt));
	for (size_t i = 0; i < N; i++) {
		double d = i == N - 1 ? 0.1 : (i % 3 == 0 ? 0.5 : (i % 3 == 1 ? 1.5 : 1.0));
		now += d;
		pt[i].t = now;
		pt[i].dt = d;
		pt[i].iops[0] = 1000 + 37.0 * (double)(i % 5) + (i < 20 ? 500 : 0);
		pt[i].iops[1] = 200 + 11.0 * (double)(i % 7);
		pt[i].ramp = i < 3 || (i >= 30 && i < 32);
	}
	steady_params_init(&sp);
	sp.window = 3;
	double origins[] = {0, pt[29].t, 17.25};
	double lens[] = {1, 2, 5, 7.5};
	for (size_t o = 0; o < 3; o++)
		for (size_t L = 0; L < 4; L++) {
			size_t m = 0;
			for (size_t i = 0; i < N; i++) /* what cmd/steady.c reads */
				if (!pt[i].ramp) {
					t[m] = pt[i].t;
					dt[m] = pt[i].dt;
					v[m++] = pt[i].iops[0] + pt[i].iops[1];
				}
			int nc = rounds_build(pt, N, origins[o], lens[L], &rc);
			int nl = rounds_build_values(t, dt, v, m, origins[o], lens[L], &rl);
			ck_assert_int_gt(nc, 2);
			ck_assert_int_eq(nc, nl);
			for (int k = 0; k < nc; k++) {
				ck_assert_double_eq(rc.t0[k], rl.t0[k]);
				ck_assert_double_eq(rc.t1[k], rl.t1[k]);
				ck_assert_double_eq_tol(rc.v[k], rl.v[k], 1e-9 * rc.v[k]);
			}
			rounds_steady(&rc, &sp, &vc);
			rounds_steady(&rl, &sp, &vl);
			ck_assert_uint_eq(vc.attained, vl.attained);
			ck_assert_int_eq(vc.last.attained, vl.last.attained);
			ck_assert_int_eq(vc.left, vl.left);
		}
	rounds_release(&rc);
	rounds_release(&rl);
}
END_TEST

/* The verdict at a replay position: only the rounds that had ended by it,
 * the same after a seek back as after playing there. */
START_TEST(test_verdict_at_position)
{
	struct rounds all = {0}, out = {0};
	struct steady_params sp;
	struct steady_view v;
	steady_params_init(&sp);
	sp.window = 2;
	/* 3 rounds of 1 s from 0; round 2 and 3 steady (100, 100) */
	rounds_push(&all, 0, 1, 50);
	rounds_push(&all, 1, 2, 100);
	rounds_push(&all, 2, 3, 100);
	ck_assert_int_eq(rounds_at(&all, 0, 3, true, &sp, &out, &v), 0);
	ck_assert_uint_eq(v.nrounds, 3);
	ck_assert_uint_eq(v.attained, 3);
	ck_assert(v.last.attained);
	/* seek back to 1.5 s: one round, no verdict (not the one of the end) */
	ck_assert_int_eq(rounds_at(&all, 0, 1.5, false, &sp, &out, &v), 0);
	ck_assert_uint_eq(v.nrounds, 1);
	ck_assert_uint_eq(v.attained, 0);
	ck_assert(!v.last.valid);
	/* 2 s: round 2 ended, window 2 of 50 and 100: not steady */
	rounds_at(&all, 0, 2, false, &sp, &out, &v);
	ck_assert_uint_eq(v.nrounds, 2);
	ck_assert(v.last.valid && !v.last.attained && !v.last.range_ok);
	/* a round ends a little after its last sample (5 % of its length) */
	rounds_at(&all, 0, 2.97, false, &sp, &out, &v);
	ck_assert_uint_eq(v.attained, 3);
	rounds_at(&all, 0, 2.9, false, &sp, &out, &v);
	ck_assert_uint_eq(v.nrounds, 2);
	/* a plan replay: the step starts at 10 s on the replay's axis */
	rounds_at(&all, 10, 2.5, false, &sp, &out, &v);
	ck_assert_uint_eq(v.nrounds, 0);
	rounds_at(&all, 10, 12, false, &sp, &out, &v);
	ck_assert_uint_eq(v.nrounds, 2);
	ck_assert_double_eq(out.t0[1], 11);
	ck_assert_double_eq(v.attained_s, 0);
	rounds_at(&all, 10, 13, false, &sp, &out, &v);
	ck_assert_double_eq(v.attained_s, 13);
	/* and forward again after the seek: the same as played there */
	rounds_at(&all, 0, 0, false, &sp, &out, &v);
	ck_assert_uint_eq(v.nrounds, 0);
	rounds_at(&all, 0, 3, false, &sp, &out, &v);
	ck_assert_uint_eq(v.attained, 3);
	rounds_release(&all);
	rounds_release(&out);
}
END_TEST

Suite *rounds_suite(void)
{
	Suite *s = suite_create("rounds");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_build_means);
	tcase_add_test(tc, test_build_weights_reads_writes_ramp);
	tcase_add_test(tc, test_build_straddle_and_tail);
	tcase_add_test(tc, test_steady_attained_and_left);
	tcase_add_test(tc, test_cols);
	tcase_add_test(tc, test_console_and_cli_agree);
	tcase_add_test(tc, test_verdict_at_position);
	suite_add_tcase(s, tc);
	return s;
}

/* test_planres.c - what the console shows of a plan step: its result from
 * step.json/steady.json (attained at round N; not attained with range and
 * slope against the limits; bad files), the planned lengths and the ETA of
 * a plan, and the bounded event list (evlist.h). */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ui/evlist.h"
#include "run/planres.h"

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(test_result_files)
{
	char dir[] = "/tmp/nvs-planres-XXXXXX", buf[160];
	struct planres r;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(planres_read(dir, &r), -ENOENT); /* no step.json */
	put(dir, "step.json", "{\"status\":\"done\"}");
	ck_assert_int_eq(planres_read(dir, &r), 0);
	ck_assert(r.done && !r.has_verdict && !planres_failed(&r));
	planres_verdict(&r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	/* not attained: the failed mark, both criteria against the limits */
	put(dir, "steady.json",
	    "{\"rule\":\"snia\",\"window\":2,\"range_limit_pct\":20,\"slope_limit_pct\":10,"
	    "\"attained\":false,\"round\":null,\"rounds\":4,\"max_rounds\":4,"
	    "\"window_avg\":1000,\"range_pct\":25.04,\"slope_pct\":3.1,\"values\":[1,2]}");
	ck_assert_int_eq(planres_read(dir, &r), 0);
	ck_assert(r.has_verdict && !r.attained && planres_failed(&r) && r.has_pct);
	planres_verdict(&r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "NOT steady: range 25.0% > 20%, slope 3.1% <= 10% (4 rounds)");
	/* the failed criterion first, whichever it is (a narrow screen cuts
	 * the end: issue 22 item 5) */
	put(dir, "steady.json",
	    "{\"rule\":\"snia\",\"window\":2,\"range_limit_pct\":20,\"slope_limit_pct\":10,"
	    "\"attained\":false,\"round\":null,\"rounds\":4,\"max_rounds\":4,"
	    "\"window_avg\":1000,\"range_pct\":5,\"slope_pct\":13.5,\"values\":[1,2]}");
	ck_assert_int_eq(planres_read(dir, &r), 0);
	planres_verdict(&r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "NOT steady: slope 13.5% > 10%, range 5.0% <= 20% (4 rounds)");
	/* attained at round 3 */
	put(dir, "steady.json",
	    "{\"window\":2,\"range_limit_pct\":20,\"slope_limit_pct\":10,\"attained\":true,"
	    "\"round\":3,\"rounds\":3,\"window_avg\":1000,\"range_pct\":1,\"slope_pct\":1}");
	ck_assert_int_eq(planres_read(dir, &r), 0);
	ck_assert(r.attained && !planres_failed(&r));
	ck_assert_uint_eq(r.round, 3);
	planres_verdict(&r, buf, sizeof(buf));
	ck_assert_str_eq(buf, "steady at round 3");
	/* junk: no verdict (never a made-up one); huge or negative numbers
	 * are not taken */
	put(dir, "steady.json", "{\"attained\":fals");
	ck_assert_int_eq(planres_read(dir, &r), 0);
	ck_assert(!r.has_verdict && !planres_failed(&r));
	put(dir, "steady.json",
	    "{\"attained\":false,\"rounds\":-3,\"window_avg\":1e400,\"range_pct\":5,"
	    "\"slope_pct\":1}");
	ck_assert_int_eq(planres_read(dir, &r), 0);
	ck_assert(planres_failed(&r) && !r.has_pct);
	ck_assert_uint_eq(r.rounds, 0);
	char p[600];
	snprintf(p, sizeof(p), "%s/step.json", dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/steady.json", dir);
	unlink(p);
	rmdir(dir);
}
END_TEST

START_TEST(test_eta)
{
	struct plan_step st[4];
	struct plan p = {.steps = st, .nsteps = 4};
	bool unknown, upper;
	char b[32];
	memset(st, 0, sizeof(st));
	st[0].kind = STEP_FILL;
	st[1].kind = STEP_PRECONDITION;
	st[1].round_ns = 2000000000ull;
	st[1].max_rounds = 5;
	st[2].kind = STEP_MEASURE;
	st[2].spec.runtime_ns = 3000000000ull;
	st[2].spec.ramp_ns = 1000000000ull;
	st[2].spec.niodepth = 2;
	st[3].kind = STEP_RATE_CURVE;
	st[3].spec.runtime_ns = 1000000000ull;
	st[3].npoints = 3;
	ck_assert_double_eq(planres_step_seconds(&st[0]), 0); /* depends on the drive */
	ck_assert_double_eq(planres_step_seconds(&st[1]), 10);
	ck_assert_double_eq(planres_step_seconds(&st[2]), 8);
	ck_assert_double_eq(planres_step_seconds(&st[3]), 4); /* the maximum + 3 points */
	/* in the fill: unknown length, a lower bound */
	ck_assert_double_eq(planres_eta(&p, 0, 5, &unknown, &upper), 22);
	ck_assert(unknown && upper);
	/* 4 s into the precondition: at most 6 s of it left */
	ck_assert_double_eq(planres_eta(&p, 1, 4, &unknown, &upper), 18);
	ck_assert(!unknown && upper);
	/* the measure ran over its plan: never a negative remainder */
	ck_assert_double_eq(planres_eta(&p, 2, 30, &unknown, &upper), 4);
	ck_assert(!unknown && !upper);
	planres_fmt_dur(65, b, sizeof(b));
	ck_assert_str_eq(b, "1m05s");
	planres_fmt_dur(3725, b, sizeof(b));
	ck_assert_str_eq(b, "1h02m");
	planres_fmt_dur(9, b, sizeof(b));
	ck_assert_str_eq(b, "9s");
	planres_fmt_dur(NAN, b, sizeof(b));
	ck_assert_str_eq(b, "?");
	planres_fmt_dur(-1, b, sizeof(b));
	ck_assert_str_eq(b, "?");
}
END_TEST

START_TEST(test_evlist_ring)
{
	struct evlist *l = evlist_new(3);
	char t[16];
	ck_assert_ptr_nonnull(l);
	ck_assert_ptr_null(evlist_new(0));
	ck_assert_ptr_null(evlist_get(l, 0));
	for (int i = 0; i < 5; i++) {
		snprintf(t, sizeof(t), "e%d", i);
		ck_assert_int_eq(evlist_push(l, 100 + i, i, t), 0);
	}
	/* bounded: the last 3, oldest first */
	ck_assert_uint_eq(evlist_count(l), 3);
	ck_assert_uint_eq(evlist_total(l), 5);
	ck_assert_str_eq(evlist_get(l, 0)->text, "e2");
	ck_assert_int_eq((int)evlist_get(l, 0)->t, 102);
	ck_assert_str_eq(evlist_get(l, 2)->text, "e4");
	ck_assert_int_eq(evlist_get(l, 2)->role, 4);
	ck_assert_ptr_null(evlist_get(l, 3));
	/* a long text is kept whole */
	char big[5000];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(evlist_push(l, 1, 0, big), 0);
	ck_assert_uint_eq(strlen(evlist_get(l, 2)->text), sizeof(big) - 1);
	evlist_free(l);
	evlist_free(NULL);
	ck_assert_uint_eq(evlist_count(NULL), 0);
}
END_TEST

Suite *planres_suite(void)
{
	Suite *s = suite_create("planres");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_result_files);
	tcase_add_test(tc, test_eta);
	tcase_add_test(tc, test_evlist_ring);
	suite_add_tcase(s, tc);
	return s;
}

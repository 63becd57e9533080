/* test_session.c - the console's run driver on a real (small) file: a
 * queue-depth sweep runs one pool per depth, the whole-run series is
 * continuous, the per-step results are exact, the results directory is
 * written and replayable; stop and bad specs. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "report/csv.h"
#include "run/session.h"

static char dir[64], file[128];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/nvs-session-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/target.img", dir);
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void make_spec(struct spec *s, const char *iodepth, const char *runtime)
{
	char err[256];
	spec_init(s);
	snprintf(s->targets[0], sizeof(s->targets[0]), "%s", file);
	s->ntargets = 1;
	const char *kv[][2] = {{"rw", "randread"},  {"bs", "4k"},	  {"size", "8m"},
			       {"direct", "0"},	    {"iodepth", iodepth}, {"runtime", runtime},
			       {"time_based", "1"}, {"interval", "100ms"}};
	for (unsigned i = 0; i < sizeof(kv) / sizeof(kv[0]); i++)
		ck_assert_msg(opt_set(s, kv[i][0], kv[i][1], err, sizeof(err)) == 0, "%s", err);
}

static void wait_end(struct session *s, double max_s)
{
	for (int i = 0; i < max_s * 50 && session_state(s) == SESS_RUNNING; i++) {
		session_poll(s);
		nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
	}
	ck_assert_int_ne(session_state(s), SESS_RUNNING);
}

START_TEST(sweep_runs_each_depth)
{
	struct spec s;
	char err[256] = "", res[128];
	make_spec(&s, "1,4", "400ms");
	snprintf(res, sizeof(res), "%s/res", dir);
	struct session *x = session_new();
	ck_assert_ptr_nonnull(x);
	ck_assert_msg(session_start(x, &s, 1, res, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(session_state(x), SESS_RUNNING);
	ck_assert_int_eq(session_start(x, &s, 1, NULL, err, sizeof(err)), -EBUSY);
	ck_assert_uint_eq(session_nsteps(x), 2);
	ck_assert_double_eq_tol(session_planned(x), 0.8, 1e-9);
	wait_end(x, 15);
	ck_assert_msg(session_state(x) == SESS_DONE, "%s", session_message(x));
	const struct session_step *a = session_step(x, 0), *b = session_step(x, 1);
	ck_assert(a->done && b->done);
	ck_assert_uint_eq(a->iodepth, 1);
	ck_assert_uint_eq(b->iodepth, 4);
	ck_assert_uint_gt(a->res.dir[0].ios, 0);
	ck_assert_uint_gt(b->res.dir[0].ios, 0);
	ck_assert(b->t0 >= 0.3); /* the second step follows the first on one axis */
	ck_assert_ptr_null(session_step(x, 2));

	const struct series *agg = session_series(x, -1);
	ck_assert_uint_ge(agg->n, 6);
	for (size_t i = 1; i < agg->n; i++)
		ck_assert_msg(agg->pt[i].t >= agg->pt[i - 1].t, "time goes back at %zu", i);
	ck_assert(agg->pt[agg->n - 1].t > b->t0);
	ck_assert_uint_eq(session_ntargets(x), 1);
	ck_assert_uint_ge(session_series(x, 0)->n, 1);
	ck_assert_ptr_null(session_series(x, 1));
	ck_assert_str_eq(session_target(x, 0), file);
	/* run histogram holds every measured I/O of both steps */
	ck_assert_uint_gt(session_hist(x, 0)->n, 0);
	ck_assert_uint_le(session_hist(x, 0)->n, a->res.dir[0].ios + b->res.dir[0].ios);

	/* results directory: the CSV replays to the same series */
	char path[256];
	struct series back = {0};
	snprintf(path, sizeof(path), "%s/samples.csv", res);
	ck_assert_msg(csv_read_series(path, &back, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(back.n, agg->n);
	ck_assert_double_eq_tol(back.pt[back.n - 1].t, agg->pt[agg->n - 1].t, 1e-3);
	series_release(&back);
	snprintf(path, sizeof(path), "%s/summary.json", res);
	ck_assert_int_eq(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/events.log", res);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	char line[256];
	int starts = 0;
	while (fgets(line, sizeof(line), f))
		starts += strstr(line, "start step") != NULL;
	fclose(f);
	ck_assert_int_eq(starts, 2);
	ck_assert_str_eq(session_dir(x), res);
	session_free(x);
}
END_TEST

START_TEST(several_targets_recorded)
{
	struct spec s;
	char err[256] = "", res[128], path[256];
	make_spec(&s, "2", "300ms");
	snprintf(s.targets[1], sizeof(s.targets[1]), "%s/second.img", dir);
	s.ntargets = 2;
	snprintf(res, sizeof(res), "%s/multi", dir);
	struct session *x = session_new();
	ck_assert_msg(session_start(x, &s, 1, res, err, sizeof(err)) == 0, "%s", err);
	wait_end(x, 15);
	ck_assert_msg(session_state(x) == SESS_DONE, "%s", session_message(x));
	ck_assert_uint_eq(session_ntargets(x), 2);
	for (unsigned t = 0; t < 2; t++) {
		struct series back = {0};
		snprintf(path, sizeof(path), "%s/target-%u.csv", res, t);
		ck_assert_msg(csv_read_series(path, &back, err, sizeof(err)) == 0, "%s", err);
		ck_assert_uint_ge(back.n, 1);
		ck_assert_uint_eq(back.n, session_series(x, (int)t)->n);
		series_release(&back);
	}
	snprintf(path, sizeof(path), "%s/targets.txt", res);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	char line[300], want[300];
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	snprintf(want, sizeof(want), "0 %s\n", file);
	ck_assert_str_eq(line, want);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert(strstr(line, "1 ") == line && strstr(line, "second.img"));
	fclose(f);
	session_free(x);
}
END_TEST

/* Issue 25: a target's older points are folded (memory flat in time) and
 * read back from its CSV where the view goes. */
START_TEST(history_folds_and_reads_back)
{
	struct spec s;
	char err[256] = "", res[128], path[256];
	make_spec(&s, "1", "2s");
	snprintf(s.targets[1], sizeof(s.targets[1]), "%s/second.img", dir);
	s.ntargets = 2;
	snprintf(res, sizeof(res), "%s/hist", dir);
	struct session *x = session_new();
	session_set_history(x, 4);
	ck_assert_msg(session_start(x, &s, 1, res, err, sizeof(err)) == 0, "%s", err);
	wait_end(x, 15);
	ck_assert_msg(session_state(x) == SESS_DONE, "%s", session_message(x));
	struct series back = {0};
	snprintf(path, sizeof(path), "%s/target-0.csv", res);
	ck_assert_msg(csv_read_series(path, &back, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_ge(back.n, 15);
	const struct series *h = session_series(x, 0);
	ck_assert_uint_le(h->n, 10); /* bounded: 2.25 x what is kept + 1 */
	double ios = 0, all = 0;
	for (size_t i = 0; i < h->n; i++)
		ios += h->pt[i].iops[NVS_READ] * h->pt[i].dt;
	for (size_t i = 0; i < back.n; i++)
		all += back.pt[i].iops[NVS_READ] * back.pt[i].dt;
	ck_assert_double_eq_tol(ios, all, all * 0.01 + 1); /* every I/O still counted */
	ck_assert_double_eq_tol(h->pt[h->n - 1].t, back.pt[back.n - 1].t, 1e-3);
	ck_assert(h->pt[0].dt > 0.15); /* the oldest folded */

	/* the view goes back to [0.5, 0.9]: its rows at full resolution */
	ck_assert_int_eq(session_window(x, 0.5, 0.9), 1);
	h = session_series(x, 0);
	size_t in = 0;
	for (size_t i = 0; i < h->n; i++)
		if (h->pt[i].t > 0.5 && h->pt[i].t <= 0.9) {
			ck_assert_double_eq_tol(h->pt[i].dt, 0.1, 0.02);
			in++;
		}
	ck_assert_uint_ge(in, 3);
	ck_assert_double_eq_tol(h->pt[h->n - 1].t, back.pt[back.n - 1].t, 1e-3);
	ck_assert_int_eq(session_window(x, 0.5, 0.9), 0); /* read once */
	/* a window over the kept points: the folded series again */
	double end = back.pt[back.n - 1].t;
	ck_assert_int_eq(session_window(x, end - 0.3, end), 1);
	ck_assert_uint_le(session_series(x, 0)->n, 10);
	series_release(&back);
	session_free(x);
}
END_TEST

START_TEST(stop_skips_the_rest)
{
	struct spec s;
	char err[256] = "";
	make_spec(&s, "1,2,4", "20s");
	struct session *x = session_new();
	ck_assert_int_eq(session_start(x, &s, 1, NULL, err, sizeof(err)), 0);
	/* run until a few intervals are in (up to 5 s on a loaded machine) */
	for (int i = 0; i < 250 && session_series(x, -1)->n < 2; i++) {
		session_poll(x);
		nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
	}
	/* the newest interval's percentiles are held while the step runs */
	const struct series *agg = session_series(x, -1);
	ck_assert_uint_ge(agg->n, 1);
	double t = agg->pt[agg->n - 1].t;
	double p50 = session_interval_pct(x, t, 50), p9999 = session_interval_pct(x, t, 99.99);
	ck_assert_msg(!isnan(p50) && !isnan(p9999), "no interval percentiles at t=%f", t);
	ck_assert(p50 > 0 && p9999 >= p50);
	ck_assert(isnan(session_interval_pct(x, t + 100, 50))); /* not yet */
	session_stop(x, NULL);
	wait_end(x, 5);
	/* the run over: its last intervals are still there (the Numbers
	 * pane's "now" is the last one's, as its mean and p99) */
	agg = session_series(x, -1);
	double tl = agg->pt[agg->n - 1].t;
	ck_assert_msg(!isnan(session_interval_pct(x, tl, 99.99)), "none at the end, t=%f", tl);
	ck_assert_int_eq(session_state(x), SESS_DONE);
	ck_assert(session_step(x, 0)->done);
	ck_assert(!session_step(x, 1)->done);
	ck_assert(session_elapsed(x) < 5);
	ck_assert_str_eq(session_dir(x), "");
	session_free(x);
}
END_TEST

/* fio's steadystate in a console step: iops:1000% over 2 s (a deviation
 * of two samples is at most 100% of their mean, so always met) ends the
 * 20-s step once two seconds of 100-ms rows are in, and says so. */
START_TEST(steadystate_ends_the_step)
{
	struct spec s;
	char err[256] = "", res[128], path[256], line[256];
	make_spec(&s, "1", "20s");
	ck_assert_int_eq(opt_set(&s, "ss", "iops:1000%", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "ss_dur", "2", err, sizeof(err)), 0);
	snprintf(res, sizeof(res), "%s/res", dir);
	struct session *x = session_new();
	ck_assert_msg(session_start(x, &s, 1, res, err, sizeof(err)) == 0, "%s", err);
	wait_end(x, 15);
	ck_assert_msg(session_state(x) == SESS_DONE, "%s", session_message(x));
	ck_assert(session_step(x, 0)->done);
	ck_assert_msg(session_elapsed(x) < 15, "ran %.1f s", session_elapsed(x));
	snprintf(path, sizeof(path), "%s/events.log", res);
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	int said = 0;
	while (fgets(line, sizeof(line), f))
		said += strstr(line, "steady state attained") != NULL;
	fclose(f);
	ck_assert_int_eq(said, 1);
	session_free(x);
}
END_TEST

START_TEST(bad_specs)
{
	struct spec s;
	char err[256] = "";
	struct session *x = session_new();
	spec_init(&s); /* no target */
	ck_assert_int_lt(session_start(x, &s, 1, NULL, err, sizeof(err)), 0);
	ck_assert(err[0]);
	ck_assert_int_eq(session_state(x), SESS_FAILED);
	ck_assert_str_eq(session_message(x), err);
	ck_assert_int_eq(session_start(x, &s, 0, NULL, err, sizeof(err)), -EINVAL);
	/* a target that cannot be opened: refused before anything runs */
	make_spec(&s, "1", "1s");
	snprintf(s.targets[0], sizeof(s.targets[0]), "/nonexistent-dir/x.img");
	char res[128];
	snprintf(res, sizeof(res), "%s/never", dir);
	ck_assert_int_lt(session_start(x, &s, 1, res, err, sizeof(err)), 0);
	ck_assert_int_eq(session_state(x), SESS_FAILED);
	ck_assert_int_ne(access(res, F_OK), 0); /* no results dir for a run that never ran */
	ck_assert_str_eq(session_dir(x), "");
	ck_assert_int_eq(session_poll(x), 0);
	session_free(x);
	session_free(NULL);
	char name[128];
	session_default_dir("4k-randread", name, sizeof(name));
	ck_assert(!strncmp(name, "results/", 8));
	ck_assert(strstr(name, "-4k-randread"));
}
END_TEST

Suite *session_suite(void)
{
	Suite *s = suite_create("session");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, sweep_runs_each_depth);
	tcase_add_test(tc, several_targets_recorded);
	tcase_add_test(tc, history_folds_and_reads_back);
	tcase_add_test(tc, stop_skips_the_rest);
	tcase_add_test(tc, bad_specs);
	tcase_add_test(tc, steadystate_ends_the_step);
	suite_add_tcase(s, tc);
	return s;
}

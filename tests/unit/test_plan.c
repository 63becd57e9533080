/* test_plan.c - plan files: steps in order with their settings and the
 * documented precedence, overrides, bad files (each with file:line), and
 * every shipped plan in presets/plans parses and validates. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/plan.h"

static const char *good = "; a review-style plan\n"
			  "[plan]\n"
			  "name = demo\n"
			  "description = short demo\n"
			  "runtime = 2s\n"
			  "\n"
			  "[global]\n"
			  "direct = 1\n"
			  "size = 50%\n"
			  "\n"
			  "[purge]\n"
			  "\n"
			  "[fill]\n"
			  "passes = 0.5\n"
			  "\n"
			  "[precondition 4k-randwrite]\n"
			  "rw = randwrite\n"
			  "bs = 4k\n"
			  "iodepth = 32\n"
			  "round = 1s\n"
			  "max_rounds = 7\n"
			  "window = 3\n"
			  "range = 25%\n"
			  "track = write_iops\n"
			  "\n"
			  "[measure 4k-randread]\n"
			  "rw = randread\n"
			  "bs = 4k\n"
			  "iodepth = 1,2,4\n"
			  "runtime = 3s\n"
			  "\n"
			  "[rate-curve 4k-read]\n"
			  "rw = randread\n"
			  "iodepth = 8\n"
			  "points = 10,50,100,120\n"
			  "\n"
			  "[grid]\n"
			  "threads = 1,2\n"
			  "iodepth = 1,4\n"
			  "\n"
			  "[matrix snia]\n"
			  "bs_list = 512,4k,8k\n"
			  "mixes = 100,65,0\n"
			  "max_rounds = 3\n"
			  "track_cell = 4k/0\n";

static struct plan *parse_ok(const char *text)
{
	struct plan *p = NULL;
	char err[512] = "";
	int rc = plan_parse(text, "t.ini", NULL, &p, err, sizeof(err));
	ck_assert_msg(rc == 0, "parse failed: %s", err);
	ck_assert_ptr_nonnull(p);
	return p;
}

/* Parses @text expecting a failure whose message starts with @prefix and
 * contains @word. */
static void parse_bad(const char *text, const char *prefix, const char *word)
{
	struct plan *p = (struct plan *)1;
	char err[512] = "";
	int rc = plan_parse(text, "bad.ini", NULL, &p, err, sizeof(err));
	ck_assert_msg(rc < 0, "'%s' parsed", text);
	ck_assert_ptr_null(p);
	ck_assert_msg(!strncmp(err, prefix, strlen(prefix)), "message '%s' lacks '%s'", err,
		      prefix);
	ck_assert_msg(strstr(err, word) != NULL, "message '%s' lacks '%s'", err, word);
}

START_TEST(test_steps_in_order)
{
	struct plan *p = parse_ok(good);
	ck_assert_str_eq(p->name, "demo");
	ck_assert_str_eq(p->description, "short demo");
	ck_assert_uint_eq(p->nsteps, 7);
	ck_assert_int_eq(p->steps[0].kind, STEP_PURGE);
	ck_assert_int_eq(p->steps[0].purge_method, PURGE_TRIM);
	ck_assert_uint_eq(p->steps[0].line, 11);
	ck_assert_int_eq(p->steps[1].kind, STEP_FILL);
	ck_assert_int_eq(p->steps[2].kind, STEP_PRECONDITION);
	ck_assert_str_eq(p->steps[2].label, "4k-randwrite");
	ck_assert_str_eq(p->steps[2].name, "precondition 4k-randwrite");
	ck_assert_int_eq(p->steps[3].kind, STEP_MEASURE);
	ck_assert_int_eq(p->steps[4].kind, STEP_RATE_CURVE);
	ck_assert_int_eq(p->steps[5].kind, STEP_GRID);
	ck_assert_str_eq(p->steps[5].label, "grid");
	ck_assert_int_eq(p->steps[6].kind, STEP_MATRIX);
	ck_assert(strstr(p->text, "[matrix snia]") != NULL);
	plan_free(p);
}
END_TEST

START_TEST(test_step_settings)
{
	struct plan *p = parse_ok(good);
	const struct plan_step *f = &p->steps[1], *pc = &p->steps[2], *m = &p->steps[3];
	const struct plan_step *rc = &p->steps[4], *g = &p->steps[5], *mx = &p->steps[6];
	/* fill: 128k sequential write, [global] region, passes */
	ck_assert_int_eq(f->spec.rw, RW_WRITE);
	ck_assert_uint_eq(f->spec.bs[0].bs, 128 * 1024);
	ck_assert(!f->spec.time_based);
	ck_assert_double_eq_tol(f->fill_passes, 0.5, 1e-12);
	ck_assert_double_eq_tol(f->spec.size_pct, 50, 1e-9);
	/* precondition: rounds of 1 s, window and limits */
	ck_assert_int_eq(pc->spec.rw, RW_RANDWRITE);
	ck_assert_uint_eq(pc->spec.iodepth[0], 32);
	ck_assert_uint_eq(pc->round_ns, 1000000000ULL);
	ck_assert_uint_eq(pc->spec.runtime_ns, 1000000000ULL);
	ck_assert(pc->spec.time_based);
	ck_assert_uint_eq(pc->max_rounds, 7);
	ck_assert_uint_eq(pc->ss.window, 3);
	ck_assert_double_eq_tol(pc->ss.range_pct, 25, 1e-12);
	ck_assert_double_eq_tol(pc->ss.slope_pct, 10, 1e-12);
	ck_assert_int_eq(pc->track, TRACK_WRITE_IOPS);
	/* measure: the step's runtime beats [plan]'s */
	ck_assert_uint_eq(m->spec.niodepth, 3);
	ck_assert_uint_eq(m->spec.iodepth[2], 4);
	ck_assert_uint_eq(m->spec.runtime_ns, 3000000000ULL);
	/* rate curve and grid take [plan]'s runtime */
	ck_assert_uint_eq(rc->spec.runtime_ns, 2000000000ULL);
	ck_assert_uint_eq(rc->npoints, 4);
	ck_assert_double_eq_tol(rc->points[3], 120, 1e-12);
	ck_assert_uint_eq(g->nthreads, 2);
	ck_assert_uint_eq(g->spec.niodepth, 2);
	ck_assert_uint_eq(g->spec.runtime_ns, 2000000000ULL);
	/* matrix */
	ck_assert_uint_eq(mx->nmbs, 3);
	ck_assert_uint_eq(mx->mbs[0], 512);
	ck_assert_uint_eq(mx->nmixes, 3);
	ck_assert_uint_eq(mx->mixes[1], 65);
	ck_assert_uint_eq(mx->track_bs, 4096);
	ck_assert_uint_eq(mx->track_mix, 0);
	ck_assert_uint_eq(mx->max_rounds, 3);
	plan_free(p);
}
END_TEST

START_TEST(test_overrides)
{
	struct plan *p = parse_ok(good);
	char err[256];
	ck_assert_int_eq(plan_override(p, "runtime", "500ms", err, sizeof(err)), 0);
	ck_assert_uint_eq(p->steps[3].spec.runtime_ns, 500000000ULL);
	ck_assert_uint_eq(p->steps[6].spec.runtime_ns, 500000000ULL);
	ck_assert_uint_eq(p->steps[1].spec.runtime_ns, 0); /* fill runs by size */
	ck_assert_uint_eq(p->steps[2].spec.runtime_ns, 1000000000ULL);
	ck_assert_int_eq(plan_override(p, "round", "200ms", err, sizeof(err)), 0);
	ck_assert_uint_eq(p->steps[2].round_ns, 200000000ULL);
	ck_assert_uint_eq(p->steps[2].spec.runtime_ns, 200000000ULL);
	ck_assert_int_eq(plan_override(p, "max-rounds", "4", err, sizeof(err)), 0);
	ck_assert_uint_eq(p->steps[2].max_rounds, 4);
	ck_assert_int_eq(plan_override(p, "fill", "0.01", err, sizeof(err)), 0);
	ck_assert_double_eq_tol(p->steps[1].fill_passes, 0.01, 1e-12);
	ck_assert_int_eq(plan_override(p, "iodepth", "1,8", err, sizeof(err)), 0);
	ck_assert_uint_eq(p->steps[3].spec.niodepth, 2);
	ck_assert_uint_eq(p->steps[2].spec.niodepth, 1); /* precondition keeps its QD */
	ck_assert_int_eq(plan_override(p, "bogus", "1", err, sizeof(err)), -ENOENT);
	ck_assert(strstr(err, "bogus") != NULL);
	ck_assert_int_eq(plan_override(p, "runtime", "soon", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(plan_override(p, "round", "10ms", err, sizeof(err)), -EINVAL);
	plan_free(p);
}
END_TEST

START_TEST(test_fio_steady_and_name)
{
	struct plan *p = parse_ok("[precondition]\nrw=randwrite\nsteady=iops_slope:0.3%\n");
	ck_assert_int_eq(p->steps[0].ss.rule, STEADY_FIO_SLOPE);
	ck_assert_double_eq_tol(p->steps[0].ss.fio_limit, 0.3, 1e-12);
	ck_assert_str_eq(p->name, "t"); /* from the file name */
	ck_assert_uint_eq(p->steps[0].max_rounds, 25);
	ck_assert_uint_eq(p->steps[0].round_ns, 60000000000ULL);
	plan_free(p);
}
END_TEST

START_TEST(test_bad_files)
{
	parse_bad("[measure]\nrw=randread\nbz=4k\n", "bad.ini:3:", "unknown option 'bz'");
	parse_bad("[measure]\nrw=randread\n\nbs=4q\n", "bad.ini:4:", "bs");
	parse_bad("[measure]\nrw=randread\n[measure]\nbs=8k\n", "bad.ini:3:", "again");
	parse_bad("[warmup]\nrw=randread\n", "bad.ini:1:", "unknown step [warmup]");
	parse_bad("rw=randread\n[measure]\n", "bad.ini:1:", "outside");
	parse_bad("[measure]\nthis is not a pair\n", "bad.ini:2:", "not a [section]");
	parse_bad("[fill]\nrw=randread\n", "bad.ini:1:", "sequential write");
	parse_bad("[precondition]\nrw=randread\n", "bad.ini:1:", "must write");
	parse_bad("[precondition]\nrw=randwrite\niodepth=1,2\n", "bad.ini:1:", "one queue depth");
	parse_bad("[measure]\nfilename=/dev/sda\n", "bad.ini:2:", "--target");
	parse_bad("[purge]\nmethod=shred\n", "bad.ini:2:", "method");
	parse_bad("[purge]\nbs=4k\n", "bad.ini:2:", "unknown purge option");
	parse_bad("[plan]\nspeed=fast\n[measure]\n", "bad.ini:2:", "unknown [plan] key");
	parse_bad("[precondition]\nrw=randwrite\nwindow=1\n", "bad.ini:3:", "window");
	parse_bad("[precondition]\nrw=randwrite\nsteady=lat:1%\n", "bad.ini:3:", "steady");
	parse_bad("[rate-curve]\npoints=10,abc\n", "bad.ini:2:", "points");
	parse_bad("[grid]\nthreads=0\n", "bad.ini:2:", "threads");
	parse_bad("[matrix]\nbs_list=4k\n", "bad.ini:1:", "mixes");
	parse_bad("[matrix]\nbs_list=4k,3000\nmixes=0\n", "bad.ini:2:", "bs_list");
	parse_bad("[matrix]\nbs_list=8k\nmixes=0\nmax_rounds=5\n", "bad.ini:1:", "track_cell");
	parse_bad("[plan]\nname=x\n", "bad.ini", "no steps");
	parse_bad("", "bad.ini", "no steps");
	char longline[600];
	memset(longline, 'x', sizeof(longline));
	memcpy(longline, "[measure]\nbs=", 13);
	strcpy(longline + 590, "\n");
	parse_bad(longline, "bad.ini:2:", "too long");
}
END_TEST

START_TEST(test_validate_with_target)
{
	struct spec base;
	struct plan *p = NULL;
	char err[512];
	spec_init(&base);
	ck_assert_int_eq(opt_set(&base, "filename", "/tmp/x", err, sizeof(err)), 0);
	ck_assert_int_eq(
	    plan_parse("[measure]\nrw=randread\nbs=4k\n", "v.ini", &base, &p, err, sizeof(err)), 0);
	ck_assert_uint_eq(p->steps[0].spec.ntargets, 1);
	ck_assert_str_eq(p->steps[0].spec.targets[0], "/tmp/x");
	plan_free(p);
	p = NULL;
	/* spec_validate runs per step: 1000-byte blocks are refused at the step */
	ck_assert_int_lt(
	    plan_parse("[purge]\n[measure x]\nbs=1000\n", "v.ini", &base, &p, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "v.ini:2:") != NULL, "%s", err);
	ck_assert_ptr_null(p);
}
END_TEST

START_TEST(test_load_missing)
{
	struct plan *p = (struct plan *)1;
	char err[512], path[512];
	ck_assert_int_eq(plan_load("/nonexistent/p.ini", NULL, &p, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_null(p);
	ck_assert(strstr(err, "/nonexistent/p.ini") != NULL);
	ck_assert_int_eq(plan_find("no-such-plan-anywhere", path, sizeof(path)), -ENOENT);
	/* a shipped plan by name through $NVSCOPE_PRESETS */
	const char *top = getenv("NVS_TOP");
	char presets[1024];
	snprintf(presets, sizeof(presets), "%s/presets", top && *top ? top : ".");
	char *old = getenv("NVSCOPE_PRESETS") ? strdup(getenv("NVSCOPE_PRESETS")) : NULL;
	setenv("NVSCOPE_PRESETS", presets, 1);
	ck_assert_int_eq(plan_find("quick-demo", path, sizeof(path)), 0);
	ck_assert(strstr(path, "plans/quick-demo.ini") != NULL);
	if (old)
		setenv("NVSCOPE_PRESETS", old, 1);
	else
		unsetenv("NVSCOPE_PRESETS");
	free(old);
	plan_free(NULL);
}
END_TEST

/* Every shipped plan parses (with a target, so spec_validate runs). */
START_TEST(test_shipped_plans)
{
	const char *top = getenv("NVS_TOP");
	char dir[1024], path[1400], err[512];
	struct spec base;
	snprintf(dir, sizeof(dir), "%s/presets/plans", top && *top ? top : ".");
	DIR *d = opendir(dir);
	ck_assert_msg(d != NULL, "no %s", dir);
	spec_init(&base);
	ck_assert_int_eq(opt_set(&base, "filename", "/tmp/x", err, sizeof(err)), 0);
	unsigned n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 5 || strcmp(e->d_name + l - 4, ".ini"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		struct plan *p = NULL;
		int rc = plan_load(path, &base, &p, err, sizeof(err));
		ck_assert_msg(rc == 0, "%s", err);
		ck_assert_uint_gt(p->nsteps, 0);
		ck_assert_msg(p->description[0], "%s has no description", path);
		plan_free(p);
		n++;
	}
	closedir(d);
	ck_assert_uint_ge(n, 7);
}
END_TEST

/* [trace NAME]: a measure step replaying presets/traces/NAME.log (tests run
 * in the source tree, where ./presets/traces is found first) */
START_TEST(test_trace_step)
{
	struct plan *p = parse_ok("[trace ext4-build]\niodepth = 8\nruntime = 30s\n"
				  "[trace mine]\nread_iolog = /tmp/x.log\nreplay_no_stall = 1\n"
				  "[trace storm]\ntrace = sqlite-oltp\ntrace_copies = 4\n");
	ck_assert_uint_eq(p->nsteps, 3);
	ck_assert_int_eq(p->steps[0].kind, STEP_MEASURE);
	ck_assert_str_eq(p->steps[0].label, "ext4-build");
	const char *f = p->steps[0].spec.replay.iolog, *want = "presets/traces/ext4-build.log";
	ck_assert_msg(strlen(f) >= strlen(want) && !strcmp(f + strlen(f) - strlen(want), want),
		      "%s", f);
	ck_assert_uint_eq(p->steps[0].spec.iodepth[0], 8);
	ck_assert_str_eq(p->steps[1].spec.replay.iolog, "/tmp/x.log");
	ck_assert(p->steps[1].spec.replay.no_stall);
	ck_assert_ptr_nonnull(
	    strstr(p->steps[2].spec.replay.iolog, "presets/traces/sqlite-oltp.log"));
	ck_assert_uint_eq(p->steps[2].spec.replay.copies, 4);
	plan_free(p);
	parse_bad("[trace x]\ntrace = ../etc/passwd\n", "bad.ini:2:", "not a trace name");
	parse_bad("[trace no-such-trace]\n", "bad.ini:1:", "presets/traces/no-such-trace.log");
}
END_TEST

Suite *plan_suite(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_steps_in_order);
	tcase_add_test(tc, test_step_settings);
	tcase_add_test(tc, test_overrides);
	tcase_add_test(tc, test_fio_steady_and_name);
	tcase_add_test(tc, test_bad_files);
	tcase_add_test(tc, test_validate_with_target);
	tcase_add_test(tc, test_load_missing);
	tcase_add_test(tc, test_shipped_plans);
	tcase_add_test(tc, test_trace_step);
	suite_add_tcase(s, tc);
	return s;
}

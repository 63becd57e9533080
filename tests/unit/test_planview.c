/* test_planview.c - the console's plan view parses what a plan writes:
 * samples.csv lines (complete, header, partial, bad) and the step tables
 * (qd.csv, rate.csv, grid.csv rows). */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "config/plan.h"
#include "report/csv.h"
#include "run/planview.h"

START_TEST(test_point)
{
	struct point p;
	const char *l = "2.007,100.0,300.0,0.4,1.2,50.0,150.0,80.0,900.0,1000.0,2000.0,3,8.7,0\n";
	ck_assert_int_eq(csv_parse_point(l, 1.003, &p), 0);
	ck_assert_double_eq_tol(p.t, 2.007, 1e-9);
	ck_assert_double_eq_tol(p.dt, 1.004, 1e-9);
	ck_assert_double_eq_tol(p.iops[1], 300, 1e-9);
	ck_assert_double_eq_tol(p.bw[1], 1.2e6, 1e-3);
	ck_assert_double_eq_tol(p.lat_mean_all_us, (50 * 100 + 150 * 300) / 400.0, 1e-9);
	ck_assert_double_eq_tol(p.lat_p99_all_us, 900, 1e-9);
	ck_assert_uint_eq(p.errors, 3);
	ck_assert_int_eq(p.ramp, 0);
	ck_assert_int_eq(csv_parse_point(l, -1, &p), 0);
	ck_assert_double_eq_tol(p.dt, 2.007, 1e-9); /* first row: from 0 */
	/* header, partial line, trailing junk */
	ck_assert_int_eq(csv_parse_point("time_s,read_iops,write_iops\n", -1, &p), -EINVAL);
	ck_assert_int_eq(csv_parse_point("2.007,100.0,300.0,0.4", -1, &p), -EINVAL);
	ck_assert_int_eq(csv_parse_point("1,0,0,0,0,0,0,0,0,0,0,0,0,0x\n", -1, &p), -EINVAL);
	/* no I/O: latency N/A */
	ck_assert_int_eq(csv_parse_point("1,0,0,0,0,0,0,0,0,0,0,0,0,1\n", -1, &p), 0);
	ck_assert(isnan(p.lat_mean_all_us));
	ck_assert_int_eq(p.ramp, 1);
}
END_TEST

START_TEST(test_rows)
{
	struct resdir_row q;
	/* qd.csv: qd,iops,read_iops,write_iops,mbps,mean,p99,max,cpu */
	ck_assert_int_eq(resdir_row_parse("32,93428,93428,0,382.7,342.5,1220.6,29081.4,40\n",
					  RESDIR_TABLE_QD, &q),
			 0);
	ck_assert_uint_eq(q.qd, 32);
	ck_assert_double_eq_tol(q.iops, 93428, 1e-9);
	ck_assert_double_eq_tol(q.bw, 382.7e6, 1);
	ck_assert_double_eq_tol(q.p99_us, 1220.6, 1e-9);
	ck_assert_double_eq_tol(q.cpu_pct, 40, 1e-9);
	/* grid.csv: threads,qd,...: the cell's total depth */
	ck_assert_int_eq(resdir_row_parse("4,8,1000,1000,0,4,10,20,30,5\n", RESDIR_TABLE_GRID, &q),
			 0);
	ck_assert_uint_eq(q.qd, 32);
	ck_assert_double_eq_tol(q.max_us, 30, 1e-9);
	/* rate.csv: point,target_iops,...: the point; "max" is 0 */
	ck_assert_int_eq(resdir_row_parse("25,17611.1,17609.7,17609.7,0.0,72.129,215.87,1368.06,"
					  "19399.40,32.7\n",
					  RESDIR_TABLE_RATE, &q),
			 0);
	ck_assert_uint_eq(q.qd, 25);
	ck_assert_double_eq_tol(q.iops, 17609.7, 1e-9);
	ck_assert_double_eq_tol(q.asked, 17611.1, 1e-9); /* asked vs achieved */
	ck_assert_int_eq(resdir_row_parse("max,0,70444.4,70444.4,0.0,288.540,227.11,1171.46,"
					  "24989.33,33.6\n",
					  RESDIR_TABLE_RATE, &q),
			 0);
	ck_assert_uint_eq(q.qd, 0);
	ck_assert_double_eq_tol(q.iops, 70444.4, 1e-9);
	ck_assert_double_eq(q.asked, 0);
	ck_assert_int_eq(resdir_row_parse("qd,iops,read_iops\n", RESDIR_TABLE_QD, &q), -EINVAL);
	ck_assert_int_eq(resdir_row_parse("point,target_iops\n", RESDIR_TABLE_RATE, &q), -EINVAL);
	ck_assert_int_eq(resdir_row_parse("32,93428\n", RESDIR_TABLE_QD, &q), -EINVAL);
}
END_TEST

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* The durations the view plans with (its ETA) are the run's: plan.ini's
 * runtime with state.json's overrides applied (issue 22 item 5: the ETA
 * said 12 s while 30 s remained, from the file's runtime). */
START_TEST(test_overrides_applied)
{
	char dir[] = "/tmp/nvscope-planview.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	put(dir, "plan.ini", "[plan]\ndescription = t\nruntime = 2s\n\n[measure a]\nrw = randread\n");
	put(dir, "state.json",
	    "{\"version\": 1, \"plan\": \"t\", \"step\": 0, \"sub\": 0, \"finished\": false,"
	    " \"targets\": [\"/dev/null\"], \"overrides\": [[\"runtime\", \"7s\"]]}\n");
	struct planview *v = NULL;
	char err[256];
	ck_assert_int_eq(planview_new(dir, &v, err, sizeof(err)), 0);
	ck_assert_uint_eq(planview_plan(v)->steps[0].spec.runtime_ns, 2000000000ull);
	planview_poll(v);
	ck_assert_uint_eq(planview_plan(v)->steps[0].spec.runtime_ns, 7000000000ull);
	planview_free(v);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *planview_suite(void)
{
	Suite *s = suite_create("planview");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_point);
	tcase_add_test(tc, test_rows);
	tcase_add_test(tc, test_overrides_applied);
	suite_add_tcase(s, tc);
	return s;
}

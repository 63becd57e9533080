/* test_planview.c - the console's plan view parses what a plan writes:
 * samples.csv lines (complete, header, partial, bad) and the step tables
 * (qd.csv, rate.csv, grid.csv rows). */
#include <check.h>
#include <errno.h>
#include <math.h>
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

Suite *planview_suite(void)
{
	Suite *s = suite_create("planview");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_point);
	tcase_add_test(tc, test_rows);
	suite_add_tcase(s, tc);
	return s;
}

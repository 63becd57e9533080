/* test_graphs.c - the pure parts of the console's graphs: step markers read
 * from events.log, the showfloor latency figure and digit size, the CPU
 * bar's fill. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "ui/showfloor.h"
#include "run/stepmarks.h"
#include "ui/tables.h"

START_TEST(marks_from_events)
{
	const char *log = "0.0 start step 1/3: job qd-sweep at QD 1\n"
			  "0.0 override: none\n"
			  "10.0 start step 2/3: job qd-sweep at QD 8\n"
			  "20.1 start step 3/3: job two words at QD 8\n"
			  "30.2 end: done\n";
	struct source_mark m[8];
	int n = stepmarks_parse(log, m, 8);
	ck_assert_int_eq(n, 2); /* the first step has no marker */
	ck_assert(fabs(m[0].t - 10.0) < 1e-9);
	ck_assert_str_eq(m[0].label, "QD8");
	ck_assert(fabs(m[1].t - 20.1) < 1e-9);
	ck_assert_str_eq(m[1].label, "step 3");		 /* same depth: the step */
	ck_assert_int_eq(stepmarks_parse(log, m, 1), 1); /* room for one */
}
END_TEST

START_TEST(marks_refuse_junk)
{
	struct source_mark m[8];
	const char *bad = "x start step 1/2: job a at QD 1\n"
			  "nan start step 1/2: job a at QD 1\n"
			  "-5 start step 1/2: job a at QD 1\n"
			  "inf start step 1/2: job a at QD 1\n"
			  "1e400 start step 1/2: job a at QD 1\n";
	ck_assert_int_eq(stepmarks_parse(bad, m, 8), 0);
	/* a depth out of range is no label, the time still a marker */
	const char *odd = "0 start step 1/2: job a at QD 4\n"
			  "5 start step 2/2: job a at QD 99999999999999999999\n";
	ck_assert_int_eq(stepmarks_parse(odd, m, 8), 1);
	ck_assert_str_eq(m[0].label, "step 2");
	ck_assert_int_eq(stepmarks_parse("", m, 8), 0);
}
END_TEST

/* A plan step of three measurements: ramp, measure, ramp, measure, ... */
START_TEST(marks_from_ramps)
{
	struct series s = {0};
	static const int ramp[] = {1, 0, 0, 1, 0, 0, 1, 0};
	for (int i = 0; i < 8; i++) {
		struct point p = {.t = i + 1.0, .dt = 1.0, .ramp = ramp[i]};
		ck_assert_int_eq(series_push(&s, &p), 0);
	}
	struct resdir_row rows[2] = {{.qd = 1}, {.qd = 16}}; /* the third not written yet */
	struct source_mark m[8];
	int n = stepmarks_ramps(&s, rows, 2, false, m, 8);
	ck_assert_int_eq(n, 2);
	ck_assert(fabs(m[0].t - 3.0) < 1e-9); /* the start of the ramp interval */
	ck_assert_str_eq(m[0].label, "QD16");
	ck_assert(fabs(m[1].t - 6.0) < 1e-9);
	ck_assert_str_eq(m[1].label, "step 3");
	rows[1].qd = 50;
	n = stepmarks_ramps(&s, rows, 2, true, m, 8);
	ck_assert_str_eq(m[0].label, "50%");
	ck_assert_int_eq(stepmarks_ramps(&s, rows, 2, false, m, 1), 1);
	series_release(&s);
	/* no ramp: no markers */
	struct series flat = {0};
	for (int i = 0; i < 4; i++) {
		struct point p = {.t = i + 1.0, .dt = 1.0};
		series_push(&flat, &p);
	}
	ck_assert_int_eq(stepmarks_ramps(&flat, rows, 2, false, m, 8), 0);
	series_release(&flat);
}
END_TEST

/* The big digits grow with the room and never overflow it. */
START_TEST(showfloor_size)
{
	const char *t[3] = {"245k", "1003", "85"}, *l[3] = {"IOPS", "MB/s", "p99 latency us"};
	ck_assert_int_eq(showfloor_scale(80, 7, t, l), 1); /* 80x24: 3x5 */
	ck_assert_int_eq(showfloor_scale(80, 17, t, l), 1); /* too narrow for 6x10 */
	ck_assert_int_eq(showfloor_scale(200, 18, t, l), 3); /* 200x55: 9x15 */
	ck_assert_int_eq(showfloor_scale(200, 16, t, l), 2); /* 9x15 too tall */
	ck_assert_int_eq(showfloor_scale(120, 30, t, l), 2);
	ck_assert_int_eq(showfloor_scale(119, 30, t, l), 1);
}
END_TEST

/* The bar is busy time, as its figure: iowait (idle) is not load. */
START_TEST(cpu_bar_busy)
{
	struct cpu_util u = {.user = 20, .system = 10, .iowait = 50, .irq = 5, .idle = 15};
	double pct[3];
	ck_assert(fabs(tables_cpu_fill(&u, pct) - 35) < 1e-9);
	ck_assert(fabs(pct[0] + pct[1] + pct[2] - 35) < 1e-9);
}
END_TEST

START_TEST(showfloor_latency)
{
	char t[24], l[32];
	showfloor_lat_text(245.4, t, sizeof(t), l, sizeof(l));
	ck_assert_str_eq(t, "245");
	ck_assert_str_eq(l, "p99 latency us");
	showfloor_lat_text(1250, t, sizeof(t), l, sizeof(l));
	ck_assert_str_eq(t, "1.25");
	ck_assert_str_eq(l, "p99 latency ms");
	showfloor_lat_text(999.7, t, sizeof(t), l, sizeof(l)); /* not "1000 us" */
	ck_assert_str_eq(t, "1.00");
	showfloor_lat_text(2.5e6, t, sizeof(t), l, sizeof(l));
	ck_assert_str_eq(t, "2.50");
	ck_assert_str_eq(l, "p99 latency s");
	showfloor_lat_text(NAN, t, sizeof(t), l, sizeof(l));
	ck_assert_str_eq(t, "-");
}
END_TEST

Suite *graphs_suite(void)
{
	Suite *s = suite_create("graphs");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, marks_from_events);
	tcase_add_test(tc, marks_refuse_junk);
	tcase_add_test(tc, marks_from_ramps);
	tcase_add_test(tc, showfloor_latency);
	tcase_add_test(tc, showfloor_size);
	tcase_add_test(tc, cpu_bar_busy);
	suite_add_tcase(s, tc);
	return s;
}

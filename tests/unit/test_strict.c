/* test_strict.c - the parsers of outside input built on base/num refuse what
 * issue 8 found accepted: NaN, infinities, overflow, over-long values (a
 * target path cut to a prefix that names another file). */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include "config/cli.h"
#include "config/plan.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "report/csv.h"
#include "stats/steady.h"
#include "ui/theme.h"

START_TEST(test_spec_numbers)
{
	static const char *const bad[][2] = {
	    {"size", "nan"},
	    {"size", "nan%"},
	    {"size", "inf"},
	    {"size", "-1"},
	    {"size", "1e400"},
	    {"size", "18446744073709551616"},
	    {"size", "4k junk"},
	    {"size", "16384p"},
	    {"size", "0x1000"},
	    {"size", "101%"},
	    {"io_size", "nan"},
	    {"offset", "nan"},
	    {"offset", "-nan%"},
	    {"runtime", "nan"},
	    {"runtime", "inf"},
	    {"runtime", "-1"},
	    {"ramp_time", "1e400"},
	    {"interval", "nan"},
	    {"bs", "nan"},
	    {"bssplit", "4k/nan"},
	    {"bssplit", "nan/100"},
	    {"iodepth", "1,nan"},
	    {"iodepth", "4294967297"},
	    {"numjobs", "4294967297"},
	    {"rwmixread", "nan"},
	    {"rate_iops", "1e400"},
	    {"randseed", "18446744073709551616"},
	    {"loops", "-1"},
	    {"cpus_allowed", "0-99999999999999999999"},
	    {"cpus_allowed", "5-2"},
	    {"stripe", "nan"},
	};
	struct spec s;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		spec_init(&s);
		ck_assert_msg(opt_set(&s, bad[i][0], bad[i][1], err, sizeof(err)) == -EINVAL,
			      "%s=%s accepted", bad[i][0], bad[i][1]);
		ck_assert_uint_eq(s.size, 0);
		ck_assert(s.size_pct == 0);
	}
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "size", "12.5%", err, sizeof(err)), 0);
	ck_assert(s.size_pct == 12.5);
	ck_assert_int_eq(opt_set(&s, "runtime", "0.5s", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.runtime_ns, 500000000ULL);
}
END_TEST

START_TEST(test_long_values)
{
	struct spec s;
	struct cli c;
	char err[256], path[300], name[100], list[600];

	memset(path, 'p', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "filename", path, err, sizeof(err)), -EINVAL);
	ck_assert_uint_eq(s.ntargets, 0);
	ck_assert_ptr_nonnull(strstr(err, "longer than 255"));

	char *argv[] = {"nvscope", "--target", path, NULL};
	int i = 1;
	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(cli_take(&c, 3, argv, &i, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "longer than 255"));
	ck_assert_uint_eq(c.ntargets, 0);

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	ck_assert_int_eq(opt_set(&s, "name", name, err, sizeof(err)), -EINVAL);

	memset(list, 0, sizeof(list));
	for (size_t k = 0; k + 5 < sizeof(list) - 1; k += 5)
		memcpy(list + k, "1,2,4", 5), list[k + 5] = ',';
	list[sizeof(list) - 2] = '1';
	list[sizeof(list) - 1] = '\0';
	ck_assert_int_eq(opt_set(&s, "iodepth", list, err, sizeof(err)), -EINVAL);
}
END_TEST

START_TEST(test_plan_numbers)
{
	static const char *const bad[] = {
	    "[plan]\nruntime = nan\n[measure m]\nrw = randread\n",
	    "[precondition p]\nrw = randwrite\nround = nan\n",
	    "[precondition p]\nrw = randwrite\nwindow = 4294967298\n",
	    "[precondition p]\nrw = randwrite\nrange = nan\n",
	    "[precondition p]\nrw = randwrite\nmax_rounds = 1e400\n",
	    "[fill]\npasses = nan\n",
	    "[fill]\npasses = inf\n",
	    "[rate-curve r]\npoints = 10,nan\n",
	    "[grid g]\nthreads = 1,4294967297\n",
	    "[matrix x]\nmixes = 100,nan\n",
	    "[matrix x]\ntrack_cell = 4k/nan\n",
	    "[purge]\nses = 4294967297\n",
	    "[measure m]\nsize = nan%\n",
	    "[measure aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa]\n"
	    "rw = randread\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct plan *p = NULL;
		char err[512];
		ck_assert_msg(plan_parse(bad[i], "t.ini", NULL, &p, err, sizeof(err)) != 0,
			      "accepted: %s", bad[i]);
		ck_assert_ptr_null(p);
	}
}
END_TEST

START_TEST(test_readers)
{
	struct point p;
	struct steady_params sp;
	struct colour c;

	ck_assert_int_eq(csv_parse_point("1,2,3,4,5,6,7,8,9,10,11,0,13,0\n", -1, &p), 0);
	ck_assert_int_eq(csv_parse_point("nan,2,3,4,5,6,7,8,9,10,11,0,13,0\n", -1, &p), -EINVAL);
	ck_assert_int_eq(csv_parse_point("1,inf,3,4,5,6,7,8,9,10,11,0,13,0\n", -1, &p), -EINVAL);
	ck_assert_int_eq(csv_parse_point("1,2,3,4,5,6,7,8,9,10,11,1e300,13,0\n", -1, &p), -EINVAL);
	ck_assert_int_eq(csv_parse_point("1,2,3,4,5,6,7,8,9,10,11,0,13,1e300\n", -1, &p), -EINVAL);
	ck_assert_int_eq(csv_parse_point("1,2,3,4,5,6,7,8,9,10,11,0,13,nan\n", -1, &p), -EINVAL);
	steady_params_init(&sp);
	ck_assert_int_eq(steady_parse_fio("iops:nan%", &sp), -EINVAL);
	ck_assert_int_eq(steady_parse_fio("iops:0x10", &sp), -EINVAL);
	ck_assert_int_eq(steady_parse_fio("iops:20%", &sp), 0);
	ck_assert_int_eq(theme_parse_colour("4294967297", &c), -EINVAL);
	ck_assert_int_eq(theme_parse_colour("256", &c), -EINVAL);
}
END_TEST

Suite *strict_suite(void)
{
	Suite *s = suite_create("strict");
	TCase *tc = tcase_create("strict");
	tcase_add_test(tc, test_spec_numbers);
	tcase_add_test(tc, test_long_values);
	tcase_add_test(tc, test_plan_numbers);
	tcase_add_test(tc, test_readers);
	suite_add_tcase(s, tc);
	return s;
}

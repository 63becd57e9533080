/* test_num.c - the strict number module: every parser refuses NaN,
 * infinities, signs where meaningless, overflow and trailing junk; the
 * double-to-integer helpers refuse what a cast would make undefined. */
#include <check.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include "base/num.h"

START_TEST(test_integers)
{
	uint64_t u = 7;
	unsigned w = 7;
	int64_t i = 7;

	ck_assert_int_eq(num_parse_u64("0", 0, UINT64_MAX, &u), 0);
	ck_assert_uint_eq(u, 0);
	ck_assert_int_eq(num_parse_u64("18446744073709551615", 0, UINT64_MAX, &u), 0);
	ck_assert_uint_eq(u, UINT64_MAX);
	ck_assert_int_eq(num_parse_u64("18446744073709551616", 0, UINT64_MAX, &u), -ERANGE);
	ck_assert_uint_eq(u, UINT64_MAX); /* untouched */
	ck_assert_int_eq(num_parse_u64("99999999999999999999999", 0, UINT64_MAX, &u), -ERANGE);
	ck_assert_int_eq(num_parse_uint("4294967295", 0, UINT32_MAX, &w), 0);
	ck_assert_uint_eq(w, 4294967295u);
	ck_assert_int_eq(num_parse_uint("4294967297", 0, UINT32_MAX, &w), -ERANGE);
	ck_assert_uint_eq(w, 4294967295u);
	ck_assert_int_eq(num_parse_uint("-1", 0, UINT32_MAX, &w), -EINVAL);
	ck_assert_int_eq(num_parse_uint("+1", 0, UINT32_MAX, &w), -EINVAL);
	ck_assert_int_eq(num_parse_uint(" 1", 0, UINT32_MAX, &w), -EINVAL);
	ck_assert_int_eq(num_parse_uint("1 ", 0, UINT32_MAX, &w), -EINVAL);
	ck_assert_int_eq(num_parse_uint("", 0, UINT32_MAX, &w), -EINVAL);
	ck_assert_int_eq(num_parse_uint(NULL, 0, UINT32_MAX, &w), -EINVAL);
	ck_assert_int_eq(num_parse_uint("nan", 0, UINT32_MAX, &w), -EINVAL);
	ck_assert_int_eq(num_parse_uint("0x10", 0, UINT32_MAX, &w), -EINVAL);
	ck_assert_int_eq(num_parse_uint("1.5", 0, UINT32_MAX, &w), -EINVAL);
	ck_assert_int_eq(num_parse_uint("4k", 0, UINT32_MAX, &w), -EINVAL);
	ck_assert_int_eq(num_parse_uint("0", 1, 10, &w), -ERANGE);
	ck_assert_int_eq(num_parse_uint("11", 1, 10, &w), -ERANGE);
	ck_assert_int_eq(num_parse_i64("-9223372036854775808", INT64_MIN, INT64_MAX, &i), 0);
	ck_assert(i == INT64_MIN);
	ck_assert_int_eq(num_parse_i64("9223372036854775808", INT64_MIN, INT64_MAX, &i), -ERANGE);
	ck_assert_int_eq(num_parse_i64("-9223372036854775809", INT64_MIN, INT64_MAX, &i), -ERANGE);
	ck_assert_int_eq(num_parse_i64("-5", -10, 10, &i), 0);
	ck_assert_int_eq(i, -5);
	ck_assert_int_eq(num_parse_i64("--5", -10, 10, &i), -EINVAL);
	ck_assert_int_eq(num_parse_i64("-", -10, 10, &i), -EINVAL);
}
END_TEST

START_TEST(test_doubles)
{
	double d = 7;
	const char *end;

	ck_assert_int_eq(num_parse_double("1.5", 0, 10, &d), 0);
	ck_assert_double_eq(d, 1.5);
	ck_assert_int_eq(num_parse_double("-0.5", -1, 1, &d), 0);
	ck_assert_double_eq(d, -0.5);
	ck_assert_int_eq(num_parse_double("1e3", 0, 1e9, &d), 0);
	ck_assert_double_eq(d, 1000);
	ck_assert_int_eq(num_parse_double(".5", 0, 1, &d), 0);
	ck_assert_double_eq(d, 0.5);
	d = 7;
	const char *bad[] = {"nan",   "NaN", "-nan",	"inf", "-inf", "infinity", "",	 " 1", "1 ",
			     "0x1p3", "1e",  "4k junk", "1,5", ".",    "-",	   "e5", NULL};
	for (int k = 0; bad[k]; k++)
		ck_assert_msg(num_parse_double(bad[k], -1e300, 1e300, &d) == -EINVAL, "%s", bad[k]);
	ck_assert_int_eq(num_parse_double("1e400", -1e300, 1e300, &d), -ERANGE);
	ck_assert_int_eq(num_parse_double("-1e400", -1e300, 1e300, &d), -ERANGE);
	ck_assert_int_eq(num_parse_double("-1", 0, 10, &d), -ERANGE);
	ck_assert_double_eq(d, 7);
	ck_assert_int_eq(num_scan_double("2.5,3", &end, &d), 0);
	ck_assert_double_eq(d, 2.5);
	ck_assert_int_eq(*end, ',');
	ck_assert_int_eq(num_scan_double("nan,3", &end, &d), -EINVAL);
	/* independent of the locale's decimal point */
	if (setlocale(LC_NUMERIC, "de_DE.UTF-8")) {
		ck_assert_int_eq(num_parse_double("2.25", 0, 10, &d), 0);
		ck_assert_double_eq(d, 2.25);
		setlocale(LC_NUMERIC, "C");
	}
}
END_TEST

START_TEST(test_pct)
{
	double p = 7;

	ck_assert_int_eq(num_parse_pct("50%", &p), 0);
	ck_assert_double_eq(p, 50);
	ck_assert_int_eq(num_parse_pct("12.5", &p), 0);
	ck_assert_double_eq(p, 12.5);
	ck_assert_int_eq(num_parse_pct("0%", &p), 0);
	ck_assert_int_eq(num_parse_pct("100%", &p), 0);
	ck_assert_int_eq(num_parse_pct("nan%", &p), -EINVAL);
	ck_assert_int_eq(num_parse_pct("inf%", &p), -EINVAL);
	ck_assert_int_eq(num_parse_pct("-1%", &p), -ERANGE);
	ck_assert_int_eq(num_parse_pct("100.01%", &p), -ERANGE);
	ck_assert_int_eq(num_parse_pct("1e400%", &p), -ERANGE);
	ck_assert_int_eq(num_parse_pct("%", &p), -EINVAL);
	ck_assert_int_eq(num_parse_pct("5%%", &p), -EINVAL);
	ck_assert_int_eq(num_parse_pct("", &p), -EINVAL);
}
END_TEST

START_TEST(test_sizes)
{
	uint64_t v = 7;

	ck_assert_int_eq(num_parse_size("4k", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(num_parse_size("4KB", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(num_parse_size("4KiB", &v), 0); /* fio, kb_base=1024 */
	ck_assert_uint_eq(v, 4000);
	ck_assert_int_eq(num_parse_size("2g", &v), 0);
	ck_assert_uint_eq(v, 2ULL << 30);
	ck_assert_int_eq(num_parse_size("16383p", &v), 0);
	ck_assert_uint_eq(v, 16383ULL << 50);
	ck_assert_int_eq(num_parse_size("16384p", &v), -ERANGE);
	ck_assert_int_eq(num_parse_size("18446744073709551615", &v), 0);
	ck_assert_int_eq(num_parse_size("18446744073709551616", &v), -ERANGE);
	ck_assert_int_eq(num_parse_size("1e400", &v), -EINVAL);
	ck_assert_uint_eq(v, UINT64_MAX);
	const char *bad[] = {"nan", "inf",  "-1",   "-4k", "",	  "4k junk", "4 k",
			     "4x",  "1.5k", "0x10", "k",   "+4k", NULL};
	for (int k = 0; bad[k]; k++)
		ck_assert_msg(num_parse_size(bad[k], &v) == -EINVAL, "%s", bad[k]);
}
END_TEST

START_TEST(test_times)
{
	uint64_t ns = 7;

	ck_assert_int_eq(num_parse_time_ns("30", 1000000000ULL, &ns), 0);
	ck_assert_uint_eq(ns, 30000000000ULL);
	ck_assert_int_eq(num_parse_time_ns("500ms", 1000000000ULL, &ns), 0);
	ck_assert_uint_eq(ns, 500000000ULL);
	ck_assert_int_eq(num_parse_time_ns("0.5s", 1000000000ULL, &ns), 0);
	ck_assert_uint_eq(ns, 500000000ULL);
	ck_assert_int_eq(num_parse_time_ns("2m", 1000000000ULL, &ns), 0);
	ck_assert_uint_eq(ns, 120000000000ULL);
	ck_assert_int_eq(num_parse_time_ns("1d", 1000000000ULL, &ns), 0);
	ck_assert_uint_eq(ns, 86400000000000ULL);
	ck_assert_int_eq(num_parse_time_ns("250", 1000000ULL, &ns), 0); /* msec default */
	ck_assert_uint_eq(ns, 250000000ULL);
	ck_assert_int_eq(num_parse_time_ns("213503d", 1000000000ULL, &ns), 0);
	ck_assert_int_eq(num_parse_time_ns("213504d", 1000000000ULL, &ns), -ERANGE);
	ck_assert_int_eq(num_parse_time_ns("18446744073709551616", 1, &ns), -ERANGE);
	const char *bad[] = {"nan", "inf",  "-1",	"",  "soon", "1e400",
			     "1e3", "30 s", "30s junk", ".", "0x10", NULL};
	for (int k = 0; bad[k]; k++)
		ck_assert_msg(num_parse_time_ns(bad[k], 1000000000ULL, &ns) == -EINVAL, "%s",
			      bad[k]);
}
END_TEST

START_TEST(test_conversions)
{
	uint64_t u = 7;
	int64_t i = 7;

	ck_assert_int_eq(num_to_u64(NAN, UINT64_MAX, &u), -ERANGE);
	ck_assert_int_eq(num_to_u64(INFINITY, UINT64_MAX, &u), -ERANGE);
	ck_assert_int_eq(num_to_u64(-1, UINT64_MAX, &u), -ERANGE);
	ck_assert_int_eq(num_to_u64(0x1p64, UINT64_MAX, &u), -ERANGE);
	ck_assert_int_eq(num_to_u64(1e300, UINT64_MAX, &u), -ERANGE);
	ck_assert_uint_eq(u, 7);
	ck_assert_int_eq(num_to_u64(4294967296.0, UINT32_MAX, &u), -ERANGE);
	ck_assert_int_eq(num_to_u64(42.9, 100, &u), 0);
	ck_assert_uint_eq(u, 42);
	ck_assert_int_eq(num_to_u64(-0.0, 100, &u), 0);
	ck_assert_uint_eq(u, 0);
	ck_assert_int_eq(num_to_i64(NAN, INT64_MIN, INT64_MAX, &i), -ERANGE);
	ck_assert_int_eq(num_to_i64(-INFINITY, INT64_MIN, INT64_MAX, &i), -ERANGE);
	ck_assert_int_eq(num_to_i64(0x1p63, INT64_MIN, INT64_MAX, &i), -ERANGE);
	ck_assert_int_eq(num_to_i64(-0x1p63, INT64_MIN, INT64_MAX, &i), 0);
	ck_assert(i == INT64_MIN);
	ck_assert_int_eq(num_to_i64(-2.5, -10, 10, &i), 0);
	ck_assert_int_eq(i, -2);
	ck_assert_int_eq(num_to_i64(-11, -10, 10, &i), -ERANGE);
}
END_TEST

Suite *num_suite(void)
{
	Suite *s = suite_create("num");
	TCase *tc = tcase_create("num");
	tcase_add_test(tc, test_integers);
	tcase_add_test(tc, test_doubles);
	tcase_add_test(tc, test_pct);
	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_times);
	tcase_add_test(tc, test_conversions);
	suite_add_tcase(s, tc);
	return s;
}

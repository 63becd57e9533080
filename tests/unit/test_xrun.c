/* test_xrun.c - fio's job-running options (io/feat/xrun.c): parsing and
 * refusals (each naming its option), thinktime's pause logic with
 * thinktime_iotime, iodepth_low's hold. */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <time.h>
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "io/feat/xrun.h"

static int set(struct spec *s, const char *k, const char *v)
{
	char err[256] = "";
	int rc = opt_set(s, k, v, err, sizeof(err));
	if (rc)
		ck_assert_msg(strstr(err, k) != NULL, "'%s' does not name %s", err, k);
	return rc;
}

START_TEST(test_parse)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert_int_eq(set(&s, "nice", "-5"), 0);
	ck_assert(s.xrun.nice_set);
	ck_assert_int_eq(s.xrun.nice, -5);
	ck_assert_int_eq(set(&s, "thinktime_spin", "10"), 0); /* us */
	ck_assert_uint_eq(s.xrun.think_spin_ns, 10000);
	ck_assert_int_eq(set(&s, "thinktime_iotime", "2"), 0); /* seconds */
	ck_assert_uint_eq(s.xrun.think_iotime_ns, 2000000000ULL);
	ck_assert_int_eq(set(&s, "thinktime_iotime", "500ms"), 0);
	ck_assert_uint_eq(s.xrun.think_iotime_ns, 500000000ULL);
	ck_assert_int_eq(set(&s, "iodepth_low", "4"), 0);
	ck_assert_uint_eq(s.xrun.iodepth_low, 4);
	ck_assert_int_eq(set(&s, "exitall_on_error", NULL), 0);
	ck_assert(s.xrun.exitall_error);
	ck_assert_int_eq(set(&s, "numa_cpu_nodes", "0"), 0);
	ck_assert_uint_eq(s.xrun.cpu_nodes, 1);
	ck_assert_int_eq(set(&s, "numa_mem_policy", "bind:0"), 0);
	ck_assert_int_eq(s.xrun.mpol, 2);
	ck_assert_int_eq(set(&s, "numa_mem_policy", "prefer:0"), 0);
	ck_assert_int_eq(s.xrun.mpol, 1);
	ck_assert_int_eq(set(&s, "numa_mem_policy", "local"), 0);
	ck_assert_int_eq(s.xrun.mpol, 4);
	ck_assert_int_eq(set(&s, "numa_mem_policy", "interleave"), 0);
	ck_assert_uint_eq(s.xrun.mem_nodes & 1, 1); /* all nodes: 0 at least */
	const char *bad[][2] = {{"nice", "20"},
				{"nice", "-21"},
				{"nice", "nan"},
				{"nice", "1e1"},
				{"thinktime_spin", "inf"},
				{"thinktime_spin", "-1"},
				{"thinktime_iotime", "99999999999999999999"},
				{"thinktime_iotime", "nan"},
				{"iodepth_low", "-1"},
				{"iodepth_low", "4294967297"},
				{"exitall_on_error", "2"},
				{"numa_cpu_nodes", "63"}, /* no such node here */
				{"numa_cpu_nodes", "64"},
				{"numa_cpu_nodes", "1-0"},
				{"numa_cpu_nodes", ""},
				{"numa_mem_policy", "bind"},
				{"numa_mem_policy", "prefer"},
				{"numa_mem_policy", "local:0"},
				{"numa_mem_policy", "bind:63"},
				{"numa_mem_policy", "sometimes"}};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(set(&s, bad[i][0], bad[i][1]) == -EINVAL, "%s=%s accepted", bad[i][0],
			      bad[i][1]);
	ck_assert_uint_eq(s.xrun.iodepth_low, 4); /* unchanged by refusals */
	ck_assert_int_eq(opt_set(&s, "target", "/dev/null", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL); /* iotime, no thinktime */
	ck_assert_ptr_nonnull(strstr(err, "thinktime"));
	ck_assert_int_eq(set(&s, "thinktime", "5"), 0); /* 5 us < spin 10 us */
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "thinktime_spin"));
	ck_assert_int_eq(set(&s, "thinktime", "20"), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_think)
{
	struct spec s;
	struct think k;

	spec_init(&s);
	ck_assert_int_eq(set(&s, "thinktime", "1ms"), 0);
	ck_assert_int_eq(set(&s, "thinktime_blocks", "2"), 0);
	think_init(&k, &s, 0, true);
	ck_assert(!think_hold(&k, &s, 0));
	think_issued(&k);
	think_issued(&k);
	ck_assert(think_hold(&k, &s, 10));		  /* 2 issued: due */
	ck_assert_uint_eq(think_step(&k, &s, 10, 1), 10); /* one in flight: not yet */
	ck_assert_uint_eq(k.until, 0);
	think_step(&k, &s, 20, 0);
	ck_assert_uint_eq(k.until, 20 + 1000000);
	ck_assert(think_hold(&k, &s, 30));
	think_step(&k, &s, 20 + 1000000, 0); /* over: counting again */
	ck_assert(!think_hold(&k, &s, 20 + 1000000));
	ck_assert_uint_eq(k.left, 2);

	/* thinktime_iotime without thinktime_blocks: time alone */
	spec_init(&s);
	ck_assert_int_eq(set(&s, "thinktime", "1ms"), 0);
	ck_assert_int_eq(set(&s, "thinktime_iotime", "1s"), 0);
	think_init(&k, &s, 0, true);
	for (int i = 0; i < 1000; i++)
		think_issued(&k);
	ck_assert(!think_hold(&k, &s, 1000999999)); /* fio: iotime + thinktime first */
	ck_assert(think_hold(&k, &s, 1001000000));
	think_step(&k, &s, 1001000000, 0);
	think_step(&k, &s, 1002000000, 0);
	ck_assert(!think_hold(&k, &s, 1002000001));
	ck_assert(think_hold(&k, &s, 2002000000)); /* then iotime after each pause */

	/* thinktime_spin: the pause's first part spins */
	spec_init(&s);
	ck_assert_int_eq(set(&s, "thinktime", "10s"), 0); /* no spin overshoot reaches it */
	ck_assert_int_eq(set(&s, "thinktime_spin", "1ms"), 0);
	think_init(&k, &s, 0, true);
	think_issued(&k);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	uint64_t t0 = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	uint64_t t1 = think_step(&k, &s, t0, 0);
	ck_assert_uint_ge(t1, t0 + 1000000);
	ck_assert_uint_eq(k.until, t0 + 10000000000ULL);
}
END_TEST

START_TEST(test_low)
{
	bool hold = false;

	ck_assert(!xrun_low_hold(&hold, 0, 16, 0)); /* not set: never */
	ck_assert(!xrun_low_hold(&hold, 4, 10, 6));
	ck_assert(xrun_low_hold(&hold, 4, 16, 0)); /* full */
	ck_assert(xrun_low_hold(&hold, 4, 5, 11));
	ck_assert(!xrun_low_hold(&hold, 4, 4, 12)); /* down to the mark */
	ck_assert(!xrun_low_hold(&hold, 4, 10, 6));
}
END_TEST

Suite *xrun_suite(void)
{
	Suite *s = suite_create("xrun");
	TCase *t = tcase_create("core");
	tcase_add_test(t, test_parse);
	tcase_add_test(t, test_think);
	tcase_add_test(t, test_low);
	suite_add_tcase(s, t);
	return s;
}

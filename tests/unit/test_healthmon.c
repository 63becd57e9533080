/* test_healthmon.c - the health reader thread hands readings over its ring
 * and stops promptly. */
#include <check.h>
#include <time.h>
#include "dev/healthmon.h"

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

START_TEST(test_readings_arrive_and_stop_is_prompt)
{
	/* not an NVMe device: every reading arrives, marked failed */
	struct healthmon *m = healthmon_new("/dev/null", 0.2);
	struct healthmon_reading r;
	int got = 0;
	double t0 = now_s();

	ck_assert_ptr_nonnull(m);
	while (now_s() - t0 < 3 && got < 3) {
		if (healthmon_poll(m, &r)) {
			ck_assert(!r.ok);
			got++;
		} else {
			struct timespec ts = {0, 20000000};
			nanosleep(&ts, NULL);
		}
	}
	ck_assert_int_eq(got, 3); /* first at once, then every 0.2 s */
	t0 = now_s();
	healthmon_free(m);
	ck_assert(now_s() - t0 < 3.0); /* a loose bound: it sleeps in 0.1 s steps */
	healthmon_free(NULL);
	ck_assert(!healthmon_poll(NULL, &r));
}
END_TEST

Suite *healthmon_suite(void)
{
	Suite *s = suite_create("healthmon");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_readings_arrive_and_stop_is_prompt);
	suite_add_tcase(s, tc);
	return s;
}

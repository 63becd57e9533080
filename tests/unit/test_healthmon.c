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

/* A health change is an event: bits appearing in the alert role, named as
 * the NVMe spec names them (shown in the alert role); clearing; nothing
 * when nothing changed. */
START_TEST(test_cw_change)
{
	char b[256];
	ck_assert_int_eq(healthmon_cw_change(0, 0, b, sizeof(b)), -1);
	ck_assert_int_eq(healthmon_cw_change(4, 4, b, sizeof(b)), -1);
	ck_assert_int_eq(healthmon_cw_change(0, 4, b, sizeof(b)), HEALTHMON_CW_WORSE);
	ck_assert_str_eq(b, "critical warning: reliability degraded");
	/* only the new bit is named */
	ck_assert_int_eq(healthmon_cw_change(4, 4 | 8, b, sizeof(b)), HEALTHMON_CW_WORSE);
	ck_assert_str_eq(b, "critical warning: read-only");
	ck_assert_int_eq(healthmon_cw_change(4 | 8, 8, b, sizeof(b)), HEALTHMON_CW_FEWER);
	ck_assert_str_eq(b, "critical warning now: read-only");
	ck_assert_int_eq(healthmon_cw_change(8, 0, b, sizeof(b)), HEALTHMON_CW_CLEARED);
	ck_assert_str_eq(b, "critical warning cleared");
}
END_TEST

Suite *healthmon_suite(void)
{
	Suite *s = suite_create("healthmon");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_readings_arrive_and_stop_is_prompt);
	tcase_add_test(tc, test_cw_change);
	suite_add_tcase(s, tc);
	return s;
}

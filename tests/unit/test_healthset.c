/* test_healthset.c - the health of every running controller (issue 22
 * item 3): a warning on the second controller is in the summary the
 * strip shows; changes between readings become events; duplicates are
 * watched once. */
#include <check.h>
#include <string.h>
#include "dev/devmodel.h"
#include "dev/healthset.h"

static struct healthmon_reading reading(uint8_t cw, uint64_t media, uint64_t elog)
{
	struct healthmon_reading r;
	memset(&r, 0, sizeof(r));
	r.ok = true;
	r.h.critical_warning = cw;
	r.h.media_errors = media;
	r.h.error_log_entries = elog;
	return r;
}

START_TEST(test_second_controller_warning)
{
	const char *p[] = {"/dev/nvme0", "/dev/nvme1", "/dev/nvme0"};
	struct healthset *s = healthset_new(p, 3, 0);
	struct healthset_event ev[4];
	char buf[256];
	ck_assert_uint_eq(healthset_count(s), 2);
	struct healthmon_reading ok = reading(0, 0, 5), bad = reading(DEV_CW_RELIABILITY, 0, 5);
	ck_assert_int_eq(healthset_note(s, 0, &ok, ev, 4), 0); /* baselines */
	ck_assert_int_eq(healthset_note(s, 1, &ok, ev, 4), 0);
	ck_assert_uint_eq(healthset_summary(s, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	/* the second controller degrades: an event, and the summary names it */
	ck_assert_int_eq(healthset_note(s, 1, &bad, ev, 4), 1);
	ck_assert_int_eq(ev[0].level, HEALTHMON_CW_WORSE);
	ck_assert_str_eq(ev[0].text, "nvme1: critical warning: reliability degraded");
	ck_assert_uint_eq(healthset_summary(s, buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "2 drives, 1 CRITICAL: nvme1 reliability degraded");
	/* media errors and error-log entries rising mid-run are news */
	struct healthmon_reading worse = reading(DEV_CW_RELIABILITY, 3, 7);
	ck_assert_int_eq(healthset_note(s, 1, &worse, ev, 4), 2);
	ck_assert_str_eq(ev[0].text, "nvme1: media errors rose 0 -> 3");
	ck_assert_int_eq(ev[0].level, HEALTHMON_CW_WORSE);
	ck_assert_str_eq(ev[1].text, "nvme1: error log entries rose 5 -> 7");
	/* a failed read changes nothing; a cleared warning is an event */
	struct healthmon_reading failed = {.ok = false};
	ck_assert_int_eq(healthset_note(s, 1, &failed, ev, 4), 0);
	struct healthmon_reading clear = reading(0, 3, 7);
	ck_assert_int_eq(healthset_note(s, 1, &clear, ev, 4), 1);
	ck_assert_int_eq(ev[0].level, HEALTHMON_CW_CLEARED);
	ck_assert_uint_eq(healthset_summary(s, buf, sizeof(buf)), 0);
	healthset_free(s);
}
END_TEST

START_TEST(test_one_controller_and_small_buffer)
{
	const char *p[] = {"/dev/nvme3"};
	struct healthset *s = healthset_new(p, 1, 0);
	struct healthset_event ev[1];
	char buf[256], tiny[12];
	struct healthmon_reading r = reading(DEV_CW_TEMPERATURE, 0, 0);
	healthset_note(s, 0, &r, ev, 1);
	ck_assert_uint_eq(healthset_summary(s, buf, sizeof(buf)), 1);
	ck_assert_str_eq(buf, "CRITICAL: temperature");
	ck_assert_uint_eq(healthset_summary(s, tiny, sizeof(tiny)), 1);
	ck_assert_uint_eq(strlen(tiny), sizeof(tiny) - 1); /* cut, terminated */
	healthset_free(s);
}
END_TEST

Suite *healthset_suite(void)
{
	Suite *s = suite_create("healthset");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_second_controller_warning);
	tcase_add_test(tc, test_one_controller_and_small_buffer);
	suite_add_tcase(s, tc);
	return s;
}

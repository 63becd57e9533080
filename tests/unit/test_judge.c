/* test_judge.c - the drive check's judging rules: each criterion at, below
 * and above its threshold; missing fields are "not available", never a pass
 * or a fail; the sibling-median rule with 1, 2 and many drives. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "check/judge.h"

static struct judge_input healthy(void)
{
	struct judge_input d;
	memset(&d, 0, sizeof(d));
	snprintf(d.model, sizeof(d.model), "ACME 1TB");
	d.health_valid = true;
	d.health.avail_spare = 100;
	d.health.spare_thresh = 10;
	d.health.temperature_c = 40;
	d.health.temperature_valid = true;
	return d;
}

/* The reason for @crit in @v, or NULL. */
static const struct judge_reason *find(const struct judge_verdict *v, const char *crit)
{
	for (unsigned i = 0; i < v->n; i++)
		if (!strcmp(v->r[i].criterion, crit))
			return &v->r[i];
	return NULL;
}

static int level_of(const struct judge_input *d, const struct judge_thresholds *t, const char *crit)
{
	struct judge_verdict v;
	judge_drive(d, 1, 0, t, &v);
	const struct judge_reason *r = find(&v, crit);
	return r ? (int)r->level : -1;
}

static struct judge_thresholds th(void)
{
	struct judge_thresholds t;
	judge_thresholds_init(&t);
	return t;
}

static struct judge_limit lim(double v)
{
	return (struct judge_limit){.set = true, .v = v};
}

START_TEST(test_healthy_passes)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	struct judge_verdict v;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_PASS);
	ck_assert_str_eq(judge_level_name(v.level), "PASS");
	ck_assert_ptr_nonnull(find(&v, "critical_warning"));
}
END_TEST

START_TEST(test_critical_warning_named)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	struct judge_verdict v;
	char buf[512];
	d.health.critical_warning = DEV_CW_RELIABILITY | DEV_CW_READ_ONLY;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_FAIL);
	judge_summary(&v, JUDGE_WARN, buf, sizeof(buf));
	ck_assert_str_eq(buf,
			 "critical warning: reliability degraded; critical warning: read-only");
	d.health.critical_warning = DEV_CW_SPARE;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_str_eq(find(&v, "critical_warning")->text,
			 "critical warning: spare below threshold");
	d.health.critical_warning = DEV_CW_VOLATILE_MEM;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_str_eq(find(&v, "critical_warning")->text,
			 "critical warning: volatile backup failed");
	d.health.critical_warning = DEV_CW_PMR_RO;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_str_eq(find(&v, "critical_warning")->text, "critical warning: PMR read-only");
	d.health.critical_warning = DEV_CW_TEMPERATURE;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_str_eq(find(&v, "critical_warning")->text, "critical warning: temperature");
}
END_TEST

START_TEST(test_spare)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	struct judge_verdict v;
	d.health.avail_spare = 8; /* below */
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_FAIL);
	ck_assert_str_eq(find(&v, "spare")->text, "spare 8% < threshold 10%");
	d.health.avail_spare = 10; /* at */
	ck_assert_int_eq(level_of(&d, &t, "spare"), JUDGE_PASS);
	d.health.avail_spare = 11; /* above */
	ck_assert_int_eq(level_of(&d, &t, "spare"), JUDGE_PASS);
	/* the profile's floor */
	t.spare_min = lim(50);
	d.health.avail_spare = 49;
	ck_assert_int_eq(level_of(&d, &t, "spare"), JUDGE_FAIL);
	d.health.avail_spare = 50;
	ck_assert_int_eq(level_of(&d, &t, "spare"), JUDGE_PASS);
	d.health.avail_spare = 51;
	ck_assert_int_eq(level_of(&d, &t, "spare"), JUDGE_PASS);
}
END_TEST

START_TEST(test_percentage_used)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	/* no limit: not judged */
	d.health.percent_used = 250;
	ck_assert_int_eq(level_of(&d, &t, "percentage_used"), -1);
	t.used_warn = lim(80);
	t.used_max = lim(100);
	d.health.percent_used = 79;
	ck_assert_int_eq(level_of(&d, &t, "percentage_used"), JUDGE_PASS);
	d.health.percent_used = 80;
	ck_assert_int_eq(level_of(&d, &t, "percentage_used"), JUDGE_PASS);
	d.health.percent_used = 81;
	ck_assert_int_eq(level_of(&d, &t, "percentage_used"), JUDGE_WARN);
	d.health.percent_used = 100;
	ck_assert_int_eq(level_of(&d, &t, "percentage_used"), JUDGE_WARN);
	d.health.percent_used = 101;
	ck_assert_int_eq(level_of(&d, &t, "percentage_used"), JUDGE_FAIL);
}
END_TEST

START_TEST(test_media_errors)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	struct judge_verdict v;
	t.media_errors_max = lim(1);
	d.health.media_errors = 0;
	ck_assert_int_eq(level_of(&d, &t, "media_errors"), JUDGE_PASS);
	d.health.media_errors = 1;
	ck_assert_int_eq(level_of(&d, &t, "media_errors"), JUDGE_PASS);
	d.health.media_errors = 2;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_FAIL);
	ck_assert_str_eq(find(&v, "media_errors")->text,
			 "media and data integrity errors 2 > limit 1");
}
END_TEST

START_TEST(test_error_log)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	t.error_log_warn = lim(10);
	d.health.error_log_entries = 9;
	ck_assert_int_eq(level_of(&d, &t, "error_log"), JUDGE_PASS);
	d.health.error_log_entries = 10;
	ck_assert_int_eq(level_of(&d, &t, "error_log"), JUDGE_PASS);
	d.health.error_log_entries = 11;
	ck_assert_int_eq(level_of(&d, &t, "error_log"), JUDGE_WARN);
	/* new entries during the check: needs the reading at the end */
	t.error_log_new_max = lim(0);
	ck_assert_int_eq(level_of(&d, &t, "error_log_new"), JUDGE_NA);
	d.health_after = d.health;
	d.health_after_valid = true;
	ck_assert_int_eq(level_of(&d, &t, "error_log_new"), JUDGE_PASS);
	d.health_after.error_log_entries = 12;
	ck_assert_int_eq(level_of(&d, &t, "error_log_new"), JUDGE_FAIL);
	t.error_log_new_max = lim(1);
	ck_assert_int_eq(level_of(&d, &t, "error_log_new"), JUDGE_PASS);
	t.error_log_new_max = lim(0.5);
	ck_assert_int_eq(level_of(&d, &t, "error_log_new"), JUDGE_FAIL);
	/* a counter that went backwards (another drive answered?) is not judged */
	d.health_after.error_log_entries = 3;
	ck_assert_int_eq(level_of(&d, &t, "error_log_new"), JUDGE_NA);
}
END_TEST

START_TEST(test_temperature)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	t.temp_warn_c = lim(60);
	t.temp_max_c = lim(70);
	d.health.temperature_c = 60;
	ck_assert_int_eq(level_of(&d, &t, "temperature"), JUDGE_PASS);
	d.health.temperature_c = 61;
	ck_assert_int_eq(level_of(&d, &t, "temperature"), JUDGE_WARN);
	d.health.temperature_c = 70;
	ck_assert_int_eq(level_of(&d, &t, "temperature"), JUDGE_WARN);
	d.health.temperature_c = 70.5;
	ck_assert_int_eq(level_of(&d, &t, "temperature"), JUDGE_FAIL);
	d.health.temperature_valid = false; /* the drive reports 0 K */
	ck_assert_int_eq(level_of(&d, &t, "temperature"), JUDGE_NA);
	struct judge_verdict v;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_PASS); /* decided by the rest, not by the missing field */
}
END_TEST

START_TEST(test_thermal_times)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	t.warn_temp_minutes_max = lim(10);
	t.crit_temp_minutes_max = lim(0);
	t.throttle_seconds_max = lim(100);
	/* not reported: not available */
	ck_assert_int_eq(level_of(&d, &t, "warning_temp_time"), JUDGE_NA);
	ck_assert_int_eq(level_of(&d, &t, "critical_temp_time"), JUDGE_NA);
	ck_assert_int_eq(level_of(&d, &t, "throttle"), JUDGE_NA);
	d.health.warning_temp_valid = d.health.critical_temp_valid = d.health.thm_valid = true;
	d.health.warning_temp_minutes = 10;
	ck_assert_int_eq(level_of(&d, &t, "warning_temp_time"), JUDGE_PASS);
	d.health.warning_temp_minutes = 11;
	ck_assert_int_eq(level_of(&d, &t, "warning_temp_time"), JUDGE_WARN);
	ck_assert_int_eq(level_of(&d, &t, "critical_temp_time"), JUDGE_PASS);
	d.health.critical_temp_minutes = 1;
	ck_assert_int_eq(level_of(&d, &t, "critical_temp_time"), JUDGE_FAIL);
	d.health.thm_total_seconds[0] = 60;
	d.health.thm_total_seconds[1] = 40;
	ck_assert_int_eq(level_of(&d, &t, "throttle"), JUDGE_PASS);
	d.health.thm_total_seconds[1] = 41;
	ck_assert_int_eq(level_of(&d, &t, "throttle"), JUDGE_WARN);
}
END_TEST

START_TEST(test_health_missing)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	struct judge_verdict v;
	d.health_valid = false;
	d.health.critical_warning = 0xff; /* garbage in an invalid reading is never judged */
	snprintf(d.health_msg, sizeof(d.health_msg), "not an NVMe device");
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_NA); /* nothing judged: no verdict by accident */
	ck_assert_str_eq(find(&v, "health")->text, "health: not available (not an NVMe device)");
	/* an NVMe drive whose SMART log could not be read: a warning, not a pass */
	d.health_expected = true;
	snprintf(d.health_msg, sizeof(d.health_msg), "NVMe status 0x2");
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_WARN);
	ck_assert_str_eq(find(&v, "health")->text, "health: could not be read (NVMe status 0x2)");
	d.health_expected = false;
	/* with a job that ran, the verdict is that of the job */
	d.njobs = 1;
	snprintf(d.jobs[0].name, sizeof(d.jobs[0].name), "read-sample");
	d.jobs[0].role = JUDGE_ROLE_READ;
	d.jobs[0].ran = true;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_PASS);
}
END_TEST

START_TEST(test_selftest)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	struct judge_verdict v;
	ck_assert_int_eq(level_of(&d, &t, "selftest"), -1); /* not asked */
	d.st = JUDGE_ST_NOT_SUPPORTED;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(find(&v, "selftest")->level, JUDGE_NA);
	ck_assert_str_eq(find(&v, "selftest")->text, "self-test: not supported");
	ck_assert_int_eq(v.level, JUDGE_PASS); /* a result, not a failure */
	d.st = JUDGE_ST_DONE;
	d.selftest.supported = d.selftest.have_last = true;
	d.selftest.last_code = 1;
	d.selftest.last_result = 0;
	ck_assert_int_eq(level_of(&d, &t, "selftest"), JUDGE_PASS);
	d.selftest.last_result = 7;
	d.selftest.last_segment = 3;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_FAIL);
	ck_assert_str_eq(find(&v, "selftest")->text, "self-test: failed in segment 3");
	d.selftest.last_result = 5;
	ck_assert_int_eq(level_of(&d, &t, "selftest"), JUDGE_FAIL);
	d.selftest.last_result = 2; /* aborted by a reset */
	ck_assert_int_eq(level_of(&d, &t, "selftest"), JUDGE_WARN);
	d.selftest.have_last = false;
	ck_assert_int_eq(level_of(&d, &t, "selftest"), JUDGE_WARN);
	d.st = JUDGE_ST_TIMEOUT;
	ck_assert_int_eq(level_of(&d, &t, "selftest"), JUDGE_WARN);
}
END_TEST

START_TEST(test_jobs)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	struct judge_verdict v;
	d.njobs = 2;
	snprintf(d.jobs[0].name, sizeof(d.jobs[0].name), "read-surface");
	d.jobs[0].role = JUDGE_ROLE_READ;
	d.jobs[0].ran = true;
	snprintf(d.jobs[1].name, sizeof(d.jobs[1].name), "verify-surface");
	d.jobs[1].role = JUDGE_ROLE_VERIFY;
	d.jobs[1].ran = true;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_PASS);
	d.jobs[1].mismatches = 2;
	d.jobs[1].first_bad = 4096;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_FAIL);
	ck_assert_str_eq(find(&v, "job:verify-surface")->text,
			 "verify-surface: 2 blocks read back different from what was written "
			 "(first at byte 4096)");
	d.jobs[1].mismatches = 0;
	d.jobs[0].errors = 3;
	snprintf(d.jobs[0].msg, sizeof(d.jobs[0].msg), "Input/output error");
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_FAIL);
	ck_assert_str_eq(find(&v, "job:read-surface")->text,
			 "read-surface: 3 I/O errors: Input/output error");
	d.jobs[0].errors = 0;
	d.jobs[0].ran = false;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(v.level, JUDGE_FAIL);
}
END_TEST

static void perf(struct judge_input *d, double figure)
{
	d->njobs = 1;
	snprintf(d->jobs[0].name, sizeof(d->jobs[0].name), "4k-randread");
	d->jobs[0].role = JUDGE_ROLE_PERF;
	d->jobs[0].ran = true;
	d->jobs[0].random = true;
	d->jobs[0].figure = figure;
}

START_TEST(test_perf_min)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	struct judge_verdict v;
	perf(&d, 50000);
	d.jobs[0].min = lim(50000);
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(find(&v, "perf:4k-randread")->level, JUDGE_PASS);
	d.jobs[0].figure = 49999;
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(find(&v, "perf:4k-randread")->level, JUDGE_FAIL);
	ck_assert_str_eq(find(&v, "perf:4k-randread")->text, "4k-randread 50k IOPS < minimum 50k");
	d.jobs[0].figure = NAN; /* never measured: not available */
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(find(&v, "perf:4k-randread")->level, JUDGE_NA);
}
END_TEST

/* One drive: no sibling, the median rule is not available. */
START_TEST(test_median_one)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	struct judge_verdict v;
	perf(&d, 10);
	judge_drive(&d, 1, 0, &t, &v);
	ck_assert_int_eq(find(&v, "perf:4k-randread")->level, JUDGE_NA);
	ck_assert_int_eq(v.level, JUDGE_PASS);
}
END_TEST

/* Two drives: which one is the outlier is not knowable (issue 22 item 4: a
 * healthy drive FAILed because the host was busy while it was measured):
 * N/A by default; a profile that says outlier_min_drives=2 compares each
 * with the other. */
START_TEST(test_median_two)
{
	struct judge_input d[2] = {healthy(), healthy()};
	struct judge_thresholds t = th();
	struct judge_verdict v[2];
	perf(&d[0], 41000);
	perf(&d[1], 79000);
	judge_batch(d, 2, &t, v);
	ck_assert_int_eq(find(&v[0], "perf:4k-randread")->level, JUDGE_NA);
	ck_assert_str_eq(find(&v[0], "perf:4k-randread")->text,
			 "4k-randread 41k IOPS: 2 drives of this model, an outlier needs 3 "
			 "(outlier_min_drives)");
	ck_assert_int_eq(v[0].level, JUDGE_PASS);
	ck_assert_int_eq(v[1].level, JUDGE_PASS);
	t.outlier_min_drives = 2;
	judge_batch(d, 2, &t, v);
	ck_assert_int_eq(v[0].level, JUDGE_FAIL);
	ck_assert_str_eq(find(&v[0], "perf:4k-randread")->text,
			 "4k-randread 41k IOPS = 52% of batch median 79k (outlier)");
	ck_assert_int_eq(v[1].level, JUDGE_PASS);
	/* at 80 % exactly: passes; just below: fails */
	d[0].jobs[0].figure = 80;
	d[1].jobs[0].figure = 100;
	judge_batch(d, 2, &t, v);
	ck_assert_int_eq(v[0].level, JUDGE_PASS);
	d[0].jobs[0].figure = 79.9;
	judge_batch(d, 2, &t, v);
	ck_assert_int_eq(v[0].level, JUDGE_FAIL);
	/* a different model is no sibling */
	snprintf(d[1].model, sizeof(d[1].model), "OTHER");
	judge_batch(d, 2, &t, v);
	ck_assert_int_eq(find(&v[0], "perf:4k-randread")->level, JUDGE_NA);
	/* outlier rule off */
	snprintf(d[1].model, sizeof(d[1].model), "%s", d[0].model);
	t.outlier_pct = 0;
	judge_batch(d, 2, &t, v);
	ck_assert_ptr_null(find(&v[0], "perf:4k-randread"));
}
END_TEST

/* Many drives: the median of the others; a drive whose job failed does
 * not count as a sibling. */
START_TEST(test_median_many)
{
	struct judge_input d[5];
	struct judge_thresholds t = th();
	struct judge_verdict v[5];
	double f[5] = {100, 98, 102, 50, 1000};
	for (int i = 0; i < 5; i++) {
		d[i] = healthy();
		perf(&d[i], f[i]);
	}
	judge_batch(d, 5, &t, v);
	ck_assert_int_eq(v[0].level, JUDGE_PASS);
	ck_assert_int_eq(v[1].level, JUDGE_PASS);
	ck_assert_int_eq(v[2].level, JUDGE_PASS);
	ck_assert_int_eq(v[3].level, JUDGE_FAIL); /* 50 vs median(100,98,102,1000) = 101 */
	ck_assert_str_eq(find(&v[3], "perf:4k-randread")->text,
			 "4k-randread 50 IOPS = 50% of batch median 101 (outlier)");
	ck_assert_int_eq(v[4].level, JUDGE_PASS); /* faster is no failure */
	d[4].jobs[0].errors = 1;		  /* no longer a sibling */
	judge_batch(d, 5, &t, v);
	ck_assert_str_eq(find(&v[3], "perf:4k-randread")->text,
			 "4k-randread 50 IOPS = 50% of batch median 100 (outlier)");
	ck_assert_int_eq(v[4].level, JUDGE_FAIL);
}
END_TEST

/* Rounds: a drive whose rounds disagree more than round_spread_pct was
 * measured on a busy host: N/A, never FAIL; within it, the figure (the
 * median of the rounds) is judged. */
START_TEST(test_rounds_spread)
{
	struct judge_input d[3] = {healthy(), healthy(), healthy()};
	struct judge_thresholds t = th();
	struct judge_verdict v[3];
	double f[3] = {100, 100, 40};
	for (int i = 0; i < 3; i++) {
		perf(&d[i], f[i]);
		d[i].jobs[0].nrounds = 3;
		for (int r = 0; r < 3; r++)
			d[i].jobs[0].rounds[r] = f[i];
	}
	judge_batch(d, 3, &t, v); /* slowed for the whole run: FAIL, with the figures */
	ck_assert_int_eq(v[2].level, JUDGE_FAIL);
	ck_assert_str_eq(find(&v[2], "perf:4k-randread")->text,
			 "4k-randread 40 IOPS = 40% of batch median 100 (outlier)");
	ck_assert_int_eq(v[0].level, JUDGE_PASS);
	/* slowed in one round of three: its median holds */
	d[2].jobs[0].rounds[0] = 40;
	d[2].jobs[0].rounds[1] = d[2].jobs[0].rounds[2] = 99;
	d[2].jobs[0].figure = 99;
	judge_batch(d, 3, &t, v);
	ck_assert_int_eq(find(&v[2], "perf:4k-randread")->level, JUDGE_NA);
	ck_assert_str_eq(find(&v[2], "perf:4k-randread")->text,
			 "4k-randread: host too busy to judge: its 3 rounds ran 40..99 IOPS, 60% "
			 "apart (> 25%)");
	ck_assert_int_eq(v[2].level, JUDGE_PASS);
	t.round_spread_pct = 0; /* off: the median is judged */
	judge_batch(d, 3, &t, v);
	ck_assert_int_eq(find(&v[2], "perf:4k-randread")->level, JUDGE_PASS);
}
END_TEST

START_TEST(test_median_fn)
{
	double a[] = {3, 1, 2}, b[] = {4, 1, 3, 2};
	ck_assert_double_eq(judge_median(a, 3), 2);
	ck_assert_double_eq(judge_median(b, 4), 2.5);
	ck_assert(isnan(judge_median(NULL, 0)));
}
END_TEST

START_TEST(test_summary_truncates)
{
	struct judge_input d = healthy();
	struct judge_thresholds t = th();
	struct judge_verdict v;
	char small[20];
	d.health.critical_warning = 0x3f;
	judge_drive(&d, 1, 0, &t, &v);
	judge_summary(&v, JUDGE_FAIL, small, sizeof(small));
	ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
	ck_assert_str_eq(small + sizeof(small) - 4, "...");
}
END_TEST

Suite *judge_suite(void)
{
	Suite *s = suite_create("judge");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_healthy_passes);
	tcase_add_test(tc, test_critical_warning_named);
	tcase_add_test(tc, test_spare);
	tcase_add_test(tc, test_percentage_used);
	tcase_add_test(tc, test_media_errors);
	tcase_add_test(tc, test_error_log);
	tcase_add_test(tc, test_temperature);
	tcase_add_test(tc, test_thermal_times);
	tcase_add_test(tc, test_health_missing);
	tcase_add_test(tc, test_selftest);
	tcase_add_test(tc, test_jobs);
	tcase_add_test(tc, test_perf_min);
	tcase_add_test(tc, test_median_one);
	tcase_add_test(tc, test_median_two);
	tcase_add_test(tc, test_median_many);
	tcase_add_test(tc, test_median_fn);
	tcase_add_test(tc, test_rounds_spread);
	tcase_add_test(tc, test_summary_truncates);
	suite_add_tcase(s, tc);
	return s;
}

/* test_checkprofile.c - drive-check profiles: the shipped ones load with
 * the roles and limits they document; a job that would write outside a
 * verify-* section, an unknown key, a bad number (NaN, inf, negative) or a
 * limit for a job that does not exist are refused. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check/profile.h"

static char path[64];

static const char *write_tmp(const char *text)
{
	snprintf(path, sizeof(path), "/tmp/nvscope-prof-XXXXXX.ini");
	int fd = mkstemps(path, 4);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	return path;
}

static int load_text(const char *text, struct check_profile **p, char *err, size_t len)
{
	int rc = check_profile_load(write_tmp(text), p, err, len);
	unlink(path);
	return rc;
}

START_TEST(test_shipped)
{
	struct check_profile *p = NULL;
	char err[512] = "";
	ck_assert_msg(!check_profile_load("quick", &p, err, sizeof(err)), "%s", err);
	ck_assert_str_eq(p->name, "quick");
	ck_assert(!check_profile_writes(p));
	ck_assert_uint_eq(p->njobs, 3);
	ck_assert_int_eq(p->role[0], JUDGE_ROLE_READ);
	ck_assert_int_eq(p->role[1], JUDGE_ROLE_PERF);
	ck_assert_int_eq(p->selftest, 0);
	ck_assert(p->th.critical_warning);
	ck_assert(p->th.media_errors_max.set && p->th.media_errors_max.v == 0);
	ck_assert_double_eq(p->th.outlier_pct, 80);
	check_profile_free(p);
	ck_assert_msg(!check_profile_load("rma", &p, err, sizeof(err)), "%s", err);
	ck_assert_uint_eq(p->njobs, 0); /* health, error log, self-test only */
	ck_assert_int_eq(p->selftest, 1);
	ck_assert(p->error_log && !check_profile_writes(p));
	check_profile_free(p);
	ck_assert_msg(!check_profile_load("burn-in", &p, err, sizeof(err)), "%s", err);
	ck_assert(check_profile_writes(p));
	check_profile_free(p);
	ck_assert_int_eq(check_profile_load("no-such-profile", &p, err, sizeof(err)), -ENOENT);
	ck_assert_ptr_null(p);
}
END_TEST

START_TEST(test_read_only_jobs_never_write)
{
	struct check_profile *p = NULL;
	char err[512];
	ck_assert_int_eq(load_text("[read-x]\nrw=randwrite\n", &p, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "writes: only verify-* jobs may write"));
	ck_assert_int_eq(load_text("[perf-x]\nrw=randrw\n", &p, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(load_text("[global]\nrw=write\n[perf-x]\nbs=4k\n", &p, err, sizeof(err)),
			 -EINVAL);
	ck_assert_int_eq(load_text("[read-x]\nrw=trim\n", &p, err, sizeof(err)), -EINVAL);
	/* a verify job writes sequentially with one block size */
	ck_assert_int_eq(load_text("[verify-x]\nrw=randwrite\n", &p, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(load_text("[verify-x]\nrw=write\nbs=1m\n", &p, err, sizeof(err)), 0);
	ck_assert(check_profile_writes(p));
	check_profile_free(p);
	/* other job names, and targets in the file, are refused */
	ck_assert_int_eq(load_text("[bench]\nrw=read\n", &p, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(load_text("[read-x]\nfilename=/dev/sda\n", &p, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "command line"));
}
END_TEST

START_TEST(test_thresholds)
{
	struct check_profile *p = NULL;
	char err[512];
	ck_assert_int_eq(load_text("[thresholds]\nspare_min=10\npercentage_used_max=100\n"
				   "temperature_max=75.5\noutlier_pct=70\ncritical_warning=0\n"
				   "perf-a.min=1000\n[perf-a]\nrw=randread\nruntime=1\n",
				   &p, err, sizeof(err)),
			 0);
	ck_assert(p->th.spare_min.set && p->th.spare_min.v == 10);
	ck_assert(p->th.temp_max_c.v == 75.5 && !p->th.temp_warn_c.set);
	ck_assert_double_eq(p->th.outlier_pct, 70);
	ck_assert(!p->th.critical_warning);
	ck_assert(p->job_min[0].set && p->job_min[0].v == 1000);
	ck_assert_uint_eq(p->stall_timeout_ns, 10000000000ULL); /* the default: 10 s */
	check_profile_free(p);
	ck_assert_int_eq(load_text("[check]\nstall_timeout=1500ms\n[read-a]\nrw=read\n", &p, err,
				   sizeof(err)),
			 0);
	ck_assert_uint_eq(p->stall_timeout_ns, 1500000000ULL);
	check_profile_free(p);
	static const char *const bad[] = {
	    "[thresholds]\nspare_min=nan\n",
	    "[thresholds]\nspare_min=inf\n",
	    "[thresholds]\nspare_min=-1\n",
	    "[thresholds]\nspare_min=10x\n",
	    "[thresholds]\nspare_min=\n",
	    "[thresholds]\nsparemin=1\n",
	    "[thresholds]\noutlier_pct=101\n",
	    "[thresholds]\ncritical_warning=maybe\n",
	    "[thresholds]\nperf-b.min=1\n",
	    "[thresholds]\nread-a.min=1\n[read-a]\nrw=read\n",
	    "[check]\nselftest=long\n",
	    "[check]\nselftest_timeout=0\n",
	    "[check]\nstall_timeout=0\n",
	    "[check]\nstall_timeout=nan\n",
	    "[check]\nstall_timeout=\n",
	    "[check]\nunknown=1\n",
	    "[thresholds]\nmedia_errors_max=1e999\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p = NULL;
		ck_assert_msg(load_text(bad[i], &p, err, sizeof(err)) == -EINVAL, "accepted: %s",
			      bad[i]);
		ck_assert_ptr_null(p);
	}
}
END_TEST

START_TEST(test_parse_limit)
{
	struct judge_limit l = {0};
	ck_assert_int_eq(check_parse_limit("0", &l), 0);
	ck_assert(l.set && l.v == 0);
	ck_assert_int_eq(check_parse_limit("12.5", &l), 0);
	ck_assert(l.v == 12.5);
	/* the job-file reader trims values; the number reader is strict */
	ck_assert_int_eq(check_parse_limit(" 12.5 ", &l), -EINVAL);
	ck_assert_int_eq(check_parse_limit("inf", &l), -EINVAL);
	ck_assert_int_eq(check_parse_limit("1e400", &l), -EINVAL);
	ck_assert_int_eq(check_parse_limit("12x", &l), -EINVAL);
	ck_assert_int_eq(check_parse_limit("1e3", &l), 0);
	ck_assert(l.v == 1000);
	ck_assert_int_eq(check_parse_limit(NULL, &l), -EINVAL);
	ck_assert_int_eq(check_parse_limit("-0.5", &l), -EINVAL);
	ck_assert_int_eq(check_parse_limit("NAN", &l), -EINVAL);
}
END_TEST

Suite *checkprofile_suite(void)
{
	Suite *s = suite_create("checkprofile");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_shipped);
	tcase_add_test(tc, test_read_only_jobs_never_write);
	tcase_add_test(tc, test_thresholds);
	tcase_add_test(tc, test_parse_limit);
	suite_add_tcase(s, tc);
	return s;
}

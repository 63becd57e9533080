/* profile.h - drive-check profiles (presets/checks/NAME.ini): fio job
 * sections plus [check] (self-test, error log) and [thresholds] (the
 * judging limits); format in docs/check.md.
 *
 * A job's role comes from its section name: read-* (a read pass: judged by
 * its errors), perf-* (a performance figure: IOPS for random reads, MB/s for
 * sequential ones) and verify-* (nvscope's write/read-back verifier over the
 * job's region: the only jobs that write).  read-* and perf-* jobs that
 * would write are refused when the profile is loaded. */
#ifndef NVS_CHECK_PROFILE_H
#define NVS_CHECK_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "check/judge.h"
#include "io/opt/spec.h"

#define CHECK_PROFILE_MAX_BYTES (1u << 20) /* a profile file: a bigger one is refused */

struct check_profile {
	char name[64];
	char path[4096];
	char description[160];
	int selftest;		      /* 0 none, 1 short, 2 extended */
	uint64_t selftest_timeout_ns; /* give up waiting after this */
	uint64_t stall_timeout_ns;    /* no I/O completed this long: not responding */
	bool error_log;		      /* read the Error Information log */
	unsigned perf_rounds;	      /* performance jobs: rounds across the batch (3) */
	struct judge_thresholds th;
	unsigned njobs;
	struct spec jobs[JUDGE_MAX_JOBS];
	enum judge_role role[JUDGE_MAX_JOBS];
	struct judge_limit job_min[JUDGE_MAX_JOBS];
	char *text; /* the file as read (saved in the results directory) */
};

/* Resolves profile @name (or a path to an .ini file) into @path: searched
 * in $NVSCOPE_PRESETS/checks, ./presets/checks, beside the binary, and
 * ../share/nvscope/presets/checks.  0 or -ENOENT. */
int check_profile_find(const char *name, char *path, size_t len);
/* Loads and validates profile @name.  *@out is the caller's (free with
 * check_profile_free).  0, -ENOENT, -EINVAL (bad file: @err names the file
 * and line or the job), -ENOMEM. */
int check_profile_load(const char *name, struct check_profile **out, char *err, size_t errlen);
void check_profile_free(struct check_profile *p);
/* True when the profile has a verify-* job (it destroys data). */
bool check_profile_writes(const struct check_profile *p);
/* Parses a limit: a finite number >= 0.  0 or -EINVAL. */
int check_parse_limit(const char *v, struct judge_limit *out);

#endif

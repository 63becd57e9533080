/* judge.h - the drive check's verdicts: criteria in, PASS/WARN/FAIL out,
 * with every reason in words.  Pure (no I/O, no clock): `nvscope check`
 * and the console fill struct judge_input per drive and call judge_batch().
 *
 * Rules (docs/check.md):
 * - A criterion whose input is missing is "not available" (JUDGE_NA) and
 *   never decides the verdict; a limit left unset in the profile is not
 *   judged at all.
 * - "max" limits fail (or warn) when the value is above the limit (at the
 *   limit passes); "min" limits when it is below (at the limit passes).
 * - Performance: each perf job's figure (IOPS for random, MB/s for
 *   sequential) against its own minimum (`JOB.min`) and against the median
 *   of the same job on the OTHER drives of the same model in the batch: below
 *   outlier_pct % of that median fails.  Alone in the batch (no sibling) the
 *   median rule is not available; with one sibling its figure is the median.
 * - The verdict is the worst level of the judged criteria; a drive with no
 *   judged criterion at all is JUDGE_NA. */
#ifndef NVS_JUDGE_H
#define NVS_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dev/devmodel.h"
#include "dev/nvme.h"

#define JUDGE_MAX_JOBS	  16
#define JUDGE_MAX_REASONS 40

enum judge_level { JUDGE_NA, JUDGE_PASS, JUDGE_WARN, JUDGE_FAIL };

/* A profile limit: judged only when set. */
struct judge_limit {
	bool set;
	double v;
};

/* Performance jobs run in rounds that alternate across the batch (A B C A
 * B C ...): host noise during one round touches one drive's one round, and
 * each drive's figure is the median of its rounds. */
#define JUDGE_MAX_ROUNDS 9

struct judge_thresholds {
	bool critical_warning;			/* any critical warning bit fails (default on) */
	struct judge_limit spare_min;		/* % floor besides the drive's own threshold */
	struct judge_limit used_warn, used_max; /* percentage used */
	struct judge_limit media_errors_max;	/* media and data integrity errors */
	struct judge_limit error_log_warn;	/* lifetime error-log entries: warn above */
	struct judge_limit error_log_new_max;	/* new entries during the check: fail above */
	struct judge_limit temp_warn_c, temp_max_c; /* composite temperature */
	struct judge_limit warn_temp_minutes_max;   /* time above WCTEMP: warn above */
	struct judge_limit crit_temp_minutes_max;   /* time above CCTEMP: fail above */
	struct judge_limit throttle_seconds_max;    /* thermal management time: warn above */
	double outlier_pct; /* perf below this % of the sibling median fails; 0 off */
	unsigned outlier_min_drives; /* the outlier rule needs this many drives of a model (3) */
	double round_spread_pct;     /* a drive's rounds differing more: N/A (busy host); 0 off */
};

/* Sets the defaults: critical warning judged, outlier 80 %, nothing else. */
void judge_thresholds_init(struct judge_thresholds *t);

enum judge_role { JUDGE_ROLE_READ, JUDGE_ROLE_PERF, JUDGE_ROLE_VERIFY };

/* One job of the profile as it ran on one drive. */
struct judge_job {
	char name[64];
	enum judge_role role;
	bool ran;		/* false: not run (setup failed: see msg) */
	bool interrupted;	/* not run (or not to the end) because the check was stopped: N/A */
	bool random;		/* perf: random I/O (judged in IOPS), else MB/s */
	double figure;		/* perf: IOPS or MB/s (the median of its rounds) */
	double rounds[JUDGE_MAX_ROUNDS]; /* perf: each round's figure */
	unsigned nrounds;
	uint64_t errors;	/* I/O errors */
	uint64_t mismatches;	/* verify: blocks read back different */
	uint64_t first_bad;	/* verify: byte offset of the first */
	struct judge_limit min; /* perf: the profile's JOB.min */
	char msg[200];		/* the error, when any */
};

enum judge_selftest {
	JUDGE_ST_NOT_RUN,	/* the profile asks for none */
	JUDGE_ST_NOT_SUPPORTED, /* the controller has none (or not NVMe): a result */
	JUDGE_ST_DONE,		/* finished: see selftest.last_result */
	JUDGE_ST_TIMEOUT,	/* still running at the deadline */
	JUDGE_ST_ERROR,		/* could not be started or read: see selftest_msg */
};

struct judge_input {
	char model[64];	   /* siblings share it */
	bool health_valid; /* SMART read at the start */
	struct dev_health health;
	bool health_after_valid; /* SMART read at the end */
	struct dev_health health_after;
	char health_msg[160]; /* why health is missing ("not an NVMe device") */
	bool health_expected; /* an NVMe drive: a failed read warns, not N/A */
	bool errlog_valid;
	struct nvs_errlog errlog;
	enum judge_selftest st;
	struct nvs_selftest selftest;
	char selftest_msg[160];
	unsigned njobs;
	struct judge_job jobs[JUDGE_MAX_JOBS];
};

struct judge_reason {
	enum judge_level level;
	char criterion[32]; /* "critical_warning", "spare", "perf:perf-4k-randread" */
	char text[200];	    /* "spare 8% < threshold 10%" */
};

struct judge_verdict {
	enum judge_level level;
	unsigned n;
	struct judge_reason r[JUDGE_MAX_REASONS];
};

/* Judges drive @i of @in[@n] (siblings are the other drives of @in). */
void judge_drive(const struct judge_input *in, size_t n, size_t i, const struct judge_thresholds *t,
		 struct judge_verdict *out);
/* judge_drive for every drive: @out has @n entries. */
void judge_batch(const struct judge_input *in, size_t n, const struct judge_thresholds *t,
		 struct judge_verdict *out);
/* "PASS", "WARN", "FAIL", "N/A". */
const char *judge_level_name(enum judge_level l);
/* Median of @n values (sorted in place); NaN when @n is 0. */
double judge_median(double *v, size_t n);
/* The failed-criteria reasons of @v (level >= @min) joined with "; " into
 * @buf (truncated with "..." when longer).  Returns @buf. */
const char *judge_summary(const struct judge_verdict *v, enum judge_level min, char *buf,
			  size_t len);
/* Human words for self-test result code @r ("completed without error",
 * "failed segment"). */
const char *judge_selftest_result_name(unsigned r);

#endif

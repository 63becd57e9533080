/* judge.c - criteria to verdicts (rules in judge.h and docs/check.md). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nvscope.h"
#include "check/judge.h"
#include "dev/devmodel.h"

void judge_thresholds_init(struct judge_thresholds *t)
{
	memset(t, 0, sizeof(*t));
	t->critical_warning = true;
	t->outlier_pct = 80;
	t->outlier_min_drives = 3;
	t->round_spread_pct = 25;
}

const char *judge_level_name(enum judge_level l)
{
	switch (l) {
	case JUDGE_PASS:
		return "PASS";
	case JUDGE_WARN:
		return "WARN";
	case JUDGE_FAIL:
		return "FAIL";
	default:
		return "N/A";
	}
}

const char *judge_selftest_result_name(unsigned r)
{
	static const char *const names[] = {
	    "completed without error",
	    "aborted by a Device Self-test command",
	    "aborted by a controller reset",
	    "aborted: namespace removed",
	    "aborted by a Format NVM command",
	    "fatal or unknown test error",
	    "completed with a failed segment (unknown which)",
	    "completed with a failed segment",
	    "aborted for an unknown reason",
	    "aborted by a sanitize operation",
	};
	return r < NVS_ARRAY_SIZE(names) ? names[r] : "no result";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double judge_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "41k", "1.23M", "950": figures in reasons. */
static const char *si(double v, char *buf, size_t len)
{
	if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, len, "%.0fk", v / 1e3);
	else if (v >= 1e3)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

static void add(struct judge_verdict *out, enum judge_level l, const char *crit, const char *fmt,
		...)
{
	struct judge_reason *r;
	va_list ap;

	if (out->n >= JUDGE_MAX_REASONS)
		return;
	r = &out->r[out->n++];
	r->level = l;
	snprintf(r->criterion, sizeof(r->criterion), "%s", crit);
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
	if (l > out->level)
		out->level = l;
}

/* A "max" limit: above @fail_at fails, above @warn_at warns. */
static void judge_max(struct judge_verdict *out, const char *crit, const char *what, double v,
		      const char *unit, const struct judge_limit *warn_at,
		      const struct judge_limit *fail_at)
{
	if (fail_at && fail_at->set && v > fail_at->v)
		add(out, JUDGE_FAIL, crit, "%s %.4g%s > limit %.4g%s", what, v, unit, fail_at->v,
		    unit);
	else if (warn_at && warn_at->set && v > warn_at->v)
		add(out, JUDGE_WARN, crit, "%s %.4g%s > warning limit %.4g%s", what, v, unit,
		    warn_at->v, unit);
	else if ((fail_at && fail_at->set) || (warn_at && warn_at->set))
		add(out, JUDGE_PASS, crit, "%s %.4g%s", what, v, unit);
}

static void judge_health(const struct judge_input *d, const struct judge_thresholds *t,
			 struct judge_verdict *out)
{
	const struct dev_health *h = &d->health;

	if (!d->health_valid) {
		if (d->health_expected)
			add(out, JUDGE_WARN, "health", "health: could not be read (%s)",
			    d->health_msg[0] ? d->health_msg : "no answer");
		else
			add(out, JUDGE_NA, "health", "health: not available (%s)",
			    d->health_msg[0] ? d->health_msg : "not read");
		return;
	}
	if (d->health_after_valid) /* judge the newest reading */
		h = &d->health_after;
	if (t->critical_warning) {
		if (!h->critical_warning)
			add(out, JUDGE_PASS, "critical_warning", "no critical warning");
		for (unsigned b = 0; b < 8; b++)
			if (h->critical_warning & (1u << b))
				add(out, JUDGE_FAIL, "critical_warning", "critical warning: %s",
				    dev_cw_label(b) ? dev_cw_label(b) : "reserved bit");
	}
	if (h->avail_spare < h->spare_thresh)
		add(out, JUDGE_FAIL, "spare", "spare %u%% < threshold %u%%", h->avail_spare,
		    h->spare_thresh);
	else if (t->spare_min.set && h->avail_spare < t->spare_min.v)
		add(out, JUDGE_FAIL, "spare", "spare %u%% < profile minimum %.4g%%", h->avail_spare,
		    t->spare_min.v);
	else
		add(out, JUDGE_PASS, "spare", "spare %u%% (threshold %u%%)", h->avail_spare,
		    h->spare_thresh);
	judge_max(out, "percentage_used", "used", h->percent_used, "%", &t->used_warn,
		  &t->used_max);
	judge_max(out, "media_errors", "media and data integrity errors", (double)h->media_errors,
		  "", NULL, &t->media_errors_max);
	judge_max(out, "error_log", "error-log entries", (double)h->error_log_entries, "",
		  &t->error_log_warn, NULL);
	if (t->error_log_new_max.set) {
		if (d->health_after_valid &&
		    d->health_after.error_log_entries >= d->health.error_log_entries)
			judge_max(out, "error_log_new", "new error-log entries during the check",
				  (double)(d->health_after.error_log_entries -
					   d->health.error_log_entries),
				  "", NULL, &t->error_log_new_max);
		else
			add(out, JUDGE_NA, "error_log_new",
			    "new error-log entries: not available (no reading at the end)");
	}
	if (d->errlog_valid && d->errlog.newest_count)
		add(out, JUDGE_NA, "error_log_newest",
		    "newest error-log entry #%llu: status 0x%x, queue %u, NSID %u, LBA %llu",
		    (unsigned long long)d->errlog.newest_count, d->errlog.newest_status,
		    d->errlog.newest_sqid, d->errlog.newest_nsid,
		    (unsigned long long)d->errlog.newest_lba);
	if (t->temp_warn_c.set || t->temp_max_c.set) {
		if (h->temperature_valid)
			judge_max(out, "temperature", "temperature", h->temperature_c, " C",
				  &t->temp_warn_c, &t->temp_max_c);
		else
			add(out, JUDGE_NA, "temperature", "temperature: not available");
	}
	if (t->warn_temp_minutes_max.set) {
		if (h->warning_temp_valid)
			judge_max(out, "warning_temp_time", "minutes above the warning temperature",
				  h->warning_temp_minutes, "", &t->warn_temp_minutes_max, NULL);
		else
			add(out, JUDGE_NA, "warning_temp_time",
			    "time above the warning temperature: not available (no WCTEMP)");
	}
	if (t->crit_temp_minutes_max.set) {
		if (h->critical_temp_valid)
			judge_max(out, "critical_temp_time",
				  "minutes above the critical temperature",
				  h->critical_temp_minutes, "", NULL, &t->crit_temp_minutes_max);
		else
			add(out, JUDGE_NA, "critical_temp_time",
			    "time above the critical temperature: not available (no CCTEMP)");
	}
	if (t->throttle_seconds_max.set) {
		if (h->thm_valid)
			judge_max(out, "throttle", "thermal throttling seconds",
				  (double)h->thm_total_seconds[0] + h->thm_total_seconds[1], "",
				  &t->throttle_seconds_max, NULL);
		else
			add(out, JUDGE_NA, "throttle",
			    "thermal throttling time: not available (no HCTMA)");
	}
}

static void judge_selftest(const struct judge_input *d, struct judge_verdict *out)
{
	const struct nvs_selftest *s = &d->selftest;

	switch (d->st) {
	case JUDGE_ST_NOT_RUN:
		return;
	case JUDGE_ST_NOT_SUPPORTED:
		add(out, JUDGE_NA, "selftest", "self-test: not supported");
		return;
	case JUDGE_ST_TIMEOUT:
		add(out, JUDGE_WARN, "selftest", "self-test: still running at %u%% at the deadline",
		    s->percent);
		return;
	case JUDGE_ST_ERROR:
		add(out, JUDGE_WARN, "selftest", "self-test: %s",
		    d->selftest_msg[0] ? d->selftest_msg : "could not be run");
		return;
	case JUDGE_ST_DONE:
		break;
	}
	if (!s->have_last)
		add(out, JUDGE_WARN, "selftest", "self-test: no result in the log");
	else if (s->last_result == 0)
		add(out, JUDGE_PASS, "selftest", "self-test %s: completed without error",
		    s->last_code == 2 ? "extended" : "short");
	else if (s->last_result == 7)
		add(out, JUDGE_FAIL, "selftest", "self-test: failed in segment %u",
		    s->last_segment);
	else if (s->last_result >= 5 && s->last_result <= 7)
		add(out, JUDGE_FAIL, "selftest", "self-test: %s",
		    judge_selftest_result_name(s->last_result));
	else
		add(out, JUDGE_WARN, "selftest", "self-test: %s",
		    judge_selftest_result_name(s->last_result));
}

/* Median of job @name on the drives of @in other than @self with the same
 * model and a figure; *@nsib gets how many. */
static double sibling_median(const struct judge_input *in, size_t n, size_t self, const char *name,
			     size_t *nsib)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));
	double m = NAN;
	size_t k = 0;

	if (!v) {
		*nsib = 0;
		return NAN;
	}
	for (size_t i = 0; i < n; i++) {
		if (i == self || strcmp(in[i].model, in[self].model))
			continue;
		for (unsigned j = 0; j < in[i].njobs; j++) {
			const struct judge_job *o = &in[i].jobs[j];
			if (o->role == JUDGE_ROLE_PERF && o->ran && !o->errors &&
			    isfinite(o->figure) && !strcmp(o->name, name))
				v[k++] = o->figure;
		}
	}
	m = judge_median(v, k);
	free(v);
	*nsib = k;
	return m;
}

/* A drive whose rounds disagree by more than the profile's tolerance was
 * measured on a host too busy to judge it: N/A with the figures (true). */
static bool noisy_rounds(const struct judge_job *j, const struct judge_thresholds *t,
			 const char *crit, const char *unit, struct judge_verdict *out)
{
	char a[32], b[32];
	double lo = INFINITY, hi = -INFINITY;
	if (j->nrounds < 2 || t->round_spread_pct <= 0 || !(j->figure > 0))
		return false;
	for (unsigned r = 0; r < j->nrounds && r < JUDGE_MAX_ROUNDS; r++) {
		lo = fmin(lo, j->rounds[r]);
		hi = fmax(hi, j->rounds[r]);
	}
	double spread = 100.0 * (hi - lo) / j->figure;
	if (!(spread > t->round_spread_pct))
		return false;
	add(out, JUDGE_NA, crit,
	    "%s: host too busy to judge: its %u rounds ran %s..%s %s, %.0f%% apart (> %g%%)",
	    j->name, j->nrounds, si(lo, a, sizeof(a)), si(hi, b, sizeof(b)), unit, spread,
	    t->round_spread_pct);
	return true;
}

static void judge_perf(const struct judge_input *in, size_t n, size_t i, const struct judge_job *j,
		       const struct judge_thresholds *t, struct judge_verdict *out)
{
	char crit[32], a[32], b[32];
	const char *unit = j->random ? "IOPS" : "MB/s";
	size_t nsib;
	double med;

	snprintf(crit, sizeof(crit), "perf:%.26s", j->name);
	if (!isfinite(j->figure) || j->figure < 0) {
		add(out, JUDGE_NA, crit, "%s: not available", j->name);
		return;
	}
	if (j->min.set) {
		if (j->figure < j->min.v)
			add(out, JUDGE_FAIL, crit, "%s %s %s < minimum %s", j->name,
			    si(j->figure, a, sizeof(a)), unit, si(j->min.v, b, sizeof(b)));
		else
			add(out, JUDGE_PASS, crit, "%s %s %s >= minimum %s", j->name,
			    si(j->figure, a, sizeof(a)), unit, si(j->min.v, b, sizeof(b)));
	}
	if (noisy_rounds(j, t, crit, unit, out) || t->outlier_pct <= 0)
		return;
	med = sibling_median(in, n, i, j->name, &nsib);
	if (!nsib || !(med > 0)) {
		add(out, JUDGE_NA, crit, "%s %s %s: no other drive of this model to compare with",
		    j->name, si(j->figure, a, sizeof(a)), unit);
		return;
	}
	if (nsib + 1 < (t->outlier_min_drives > 2 ? t->outlier_min_drives : 2)) {
		/* of two drives, which one is the outlier is not knowable */
		add(out, JUDGE_NA, crit,
		    "%s %s %s: %zu drives of this model, an outlier needs %u (outlier_min_drives)",
		    j->name, si(j->figure, a, sizeof(a)), unit, nsib + 1, t->outlier_min_drives);
		return;
	}
	double pct = 100.0 * j->figure / med;
	add(out, pct < t->outlier_pct ? JUDGE_FAIL : JUDGE_PASS, crit,
	    "%s %s %s = %.*f%% of batch median %s%s", j->name, si(j->figure, a, sizeof(a)), unit,
	    pct >= 10  ? 0
	    : pct >= 1 ? 1
		       : 2,
	    pct, si(med, b, sizeof(b)), pct < t->outlier_pct ? " (outlier)" : "");
}

static void judge_jobs(const struct judge_input *in, size_t n, size_t i,
		       const struct judge_thresholds *t, struct judge_verdict *out)
{
	const struct judge_input *d = &in[i];

	for (unsigned k = 0; k < d->njobs; k++) {
		const struct judge_job *j = &d->jobs[k];
		char crit[32];

		snprintf(crit, sizeof(crit), "job:%.27s", j->name);
		if (j->interrupted) {
			add(out, JUDGE_NA, crit, "%s: not run to the end (check interrupted)",
			    j->name);
			continue;
		}
		if (!j->ran) {
			add(out, JUDGE_FAIL, crit, "%s: did not run: %s", j->name,
			    j->msg[0] ? j->msg : "unknown error");
			continue;
		}
		if (j->errors) {
			add(out, JUDGE_FAIL, crit, "%s: %llu I/O errors%s%s", j->name,
			    (unsigned long long)j->errors, j->msg[0] ? ": " : "", j->msg);
			continue;
		}
		if (j->role == JUDGE_ROLE_VERIFY && j->mismatches) {
			add(out, JUDGE_FAIL, crit,
			    "%s: %llu blocks read back different from what was written (first at "
			    "byte %llu)",
			    j->name, (unsigned long long)j->mismatches,
			    (unsigned long long)j->first_bad);
			continue;
		}
		if (j->role == JUDGE_ROLE_PERF)
			judge_perf(in, n, i, j, t, out);
		else
			add(out, JUDGE_PASS, crit, "%s: %s", j->name,
			    j->role == JUDGE_ROLE_VERIFY ? "written and read back identical"
							 : "read without errors");
	}
}

void judge_drive(const struct judge_input *in, size_t n, size_t i, const struct judge_thresholds *t,
		 struct judge_verdict *out)
{
	memset(out, 0, sizeof(*out));
	judge_health(&in[i], t, out);
	judge_selftest(&in[i], out);
	judge_jobs(in, n, i, t, out);
}

void judge_batch(const struct judge_input *in, size_t n, const struct judge_thresholds *t,
		 struct judge_verdict *out)
{
	for (size_t i = 0; i < n; i++)
		judge_drive(in, n, i, t, &out[i]);
}

const char *judge_summary(const struct judge_verdict *v, enum judge_level min, char *buf,
			  size_t len)
{
	size_t used = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (unsigned k = 0; k < v->n; k++) {
		if (v->r[k].level < min)
			continue;
		int w = snprintf(buf + used, len - used, "%s%s", used ? "; " : "", v->r[k].text);
		if (w < 0 || (size_t)w >= len - used) {
			if (len >= 4)
				memcpy(buf + len - 4, "...", 4);
			break;
		}
		used += (size_t)w;
	}
	return buf;
}

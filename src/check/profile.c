/* profile.c - drive-check profiles: fio job sections (through
 * preset_load_ex) plus [check] and [thresholds], validated here. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/input.h"
#include "base/num.h"
#include "check/profile.h"
#include "config/datadir.h"
#include "config/preset.h"

#define MAX_MINS JUDGE_MAX_JOBS

struct parse {
	struct check_profile *p;
	char min_job[MAX_MINS][64]; /* JOB.min keys, resolved after the jobs */
	struct judge_limit min_val[MAX_MINS];
	unsigned nmins;
};

int check_profile_find(const char *name, char *path, size_t len)
{
	if (strchr(name, '/') || strstr(name, ".ini")) {
		if (strlen(name) >= len)
			return -ENAMETOOLONG;
		snprintf(path, len, "%s", name);
		return 0;
	}
	return datadir_find("presets/checks", "NVSCOPE_PRESETS", "checks", name, ".ini", path, len);
}

int check_parse_limit(const char *v, struct judge_limit *out)
{
	double d;

	/* the one strict number reader: finite, not negative, nothing after it */
	if (!v || num_parse_double(v, 0, DBL_MAX, &d))
		return -EINVAL;
	out->set = true;
	out->v = d;
	return 0;
}

static int parse_flag(const char *v, bool *out)
{
	if (!v)
		return -EINVAL;
	if (!strcmp(v, "1") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on"))
		*out = true;
	else if (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off"))
		*out = false;
	else
		return -EINVAL;
	return 0;
}

static int on_check(struct check_profile *p, const char *k, const char *v, char *err, size_t errlen)
{
	if (!strcmp(k, "description")) {
		snprintf(p->description, sizeof(p->description), "%s", v ? v : "");
	} else if (!strcmp(k, "selftest")) {
		if (v && !strcmp(v, "none"))
			p->selftest = 0;
		else if (v && !strcmp(v, "short"))
			p->selftest = 1;
		else if (v && !strcmp(v, "extended"))
			p->selftest = 2;
		else
			goto bad;
	} else if (!strcmp(k, "selftest_timeout")) {
		if (!v || spec_parse_time(v, &p->selftest_timeout_ns) || !p->selftest_timeout_ns)
			goto bad;
	} else if (!strcmp(k, "stall_timeout")) {
		if (!v || spec_parse_time(v, &p->stall_timeout_ns) || !p->stall_timeout_ns)
			goto bad;
	} else if (!strcmp(k, "error_log")) {
		if (parse_flag(v, &p->error_log))
			goto bad;
	} else if (!strcmp(k, "perf_rounds")) {
		struct judge_limit l;
		if (check_parse_limit(v, &l) || l.v < 1 || l.v > JUDGE_MAX_ROUNDS || l.v != floor(l.v))
			goto bad;
		p->perf_rounds = (unsigned)l.v;
	} else {
		snprintf(err, errlen, "[check]: unknown key '%s'", k);
		return -EINVAL;
	}
	return 0;
bad:
	snprintf(err, errlen, "[check]: %s: bad value '%s'", k, v ? v : "");
	return -EINVAL;
}

static int on_threshold(struct parse *ps, const char *k, const char *v, char *err, size_t errlen)
{
	struct judge_thresholds *t = &ps->p->th;
	static const struct {
		const char *key;
		size_t off;
	} limits[] = {
	    {"spare_min", offsetof(struct judge_thresholds, spare_min)},
	    {"percentage_used_warn", offsetof(struct judge_thresholds, used_warn)},
	    {"percentage_used_max", offsetof(struct judge_thresholds, used_max)},
	    {"media_errors_max", offsetof(struct judge_thresholds, media_errors_max)},
	    {"error_log_entries_warn", offsetof(struct judge_thresholds, error_log_warn)},
	    {"error_log_new_max", offsetof(struct judge_thresholds, error_log_new_max)},
	    {"temperature_warn", offsetof(struct judge_thresholds, temp_warn_c)},
	    {"temperature_max", offsetof(struct judge_thresholds, temp_max_c)},
	    {"warning_temp_minutes_max", offsetof(struct judge_thresholds, warn_temp_minutes_max)},
	    {"critical_temp_minutes_max", offsetof(struct judge_thresholds, crit_temp_minutes_max)},
	    {"throttle_seconds_max", offsetof(struct judge_thresholds, throttle_seconds_max)},
	};
	size_t kl = strlen(k);
	struct judge_limit l;

	if (!strcmp(k, "critical_warning")) {
		if (parse_flag(v, &t->critical_warning))
			goto bad;
		return 0;
	}
	if (!strcmp(k, "outlier_pct")) {
		if (check_parse_limit(v, &l) || l.v > 100)
			goto bad;
		t->outlier_pct = l.v;
		return 0;
	}
	if (!strcmp(k, "round_spread_pct")) {
		if (check_parse_limit(v, &l))
			goto bad;
		t->round_spread_pct = l.v;
		return 0;
	}
	if (!strcmp(k, "outlier_min_drives")) {
		if (check_parse_limit(v, &l) || l.v < 2 || l.v > 1000 || l.v != floor(l.v))
			goto bad;
		t->outlier_min_drives = (unsigned)l.v;
		return 0;
	}
	for (size_t i = 0; i < NVS_ARRAY_SIZE(limits); i++)
		if (!strcmp(k, limits[i].key)) {
			if (check_parse_limit(v, &l))
				goto bad;
			*(struct judge_limit *)((char *)t + limits[i].off) = l;
			return 0;
		}
	if (kl > 4 && !strcmp(k + kl - 4, ".min") && kl - 4 < sizeof(ps->min_job[0])) {
		if (ps->nmins == MAX_MINS) {
			snprintf(err, errlen, "[thresholds]: too many JOB.min keys");
			return -EINVAL;
		}
		if (check_parse_limit(v, &l))
			goto bad;
		snprintf(ps->min_job[ps->nmins], sizeof(ps->min_job[0]), "%.*s", (int)(kl - 4), k);
		ps->min_val[ps->nmins++] = l;
		return 0;
	}
	snprintf(err, errlen, "[thresholds]: unknown key '%s'", k);
	return -EINVAL;
bad:
	snprintf(err, errlen, "[thresholds]: %s: '%s' is not a number >= 0%s", k, v ? v : "",
		 !strcmp(k, "outlier_pct") ? " and <= 100" : "");
	return -EINVAL;
}

static int on_extra(void *arg, const char *section, const char *key, const char *value, char *err,
		    size_t errlen)
{
	struct parse *ps = arg;

	if (!strcmp(section, "check"))
		return on_check(ps->p, key, value, err, errlen);
	return on_threshold(ps, key, value, err, errlen);
}

/* Reads the whole file (a regular file of at most CHECK_PROFILE_MAX_BYTES,
 * base/input.h); counts job sections (not global/check/thresholds). */
static char *read_text(const char *path, unsigned *nsections, int *rc, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;

	*nsections = 0;
	*rc = input_read_all(path, CHECK_PROFILE_MAX_BYTES, "check profile", &text, &len, err,
			     errlen);
	if (*rc)
		return NULL;
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *s = l + strspn(l, " \t");
		if (*s == '[' && strncmp(s, "[global]", 8) && strncmp(s, "[check]", 7) &&
		    strncmp(s, "[thresholds]", 12))
			(*nsections)++;
	}
	return text;
}

static bool prefixed(const char *name, const char *prefix)
{
	return !strncmp(name, prefix, strlen(prefix)) && name[strlen(prefix)];
}

static int validate_job(struct check_profile *p, unsigned i, char *err, size_t errlen)
{
	struct spec *s = &p->jobs[i];

	if (s->ntargets) {
		snprintf(err, errlen,
			 "%s: job %s names a target: targets come from the command line", p->path,
			 s->name);
		return -EINVAL;
	}
	/* the job's results are files named after it (SERIAL/NAME.json):
	 * a name that cannot be one is refused here, before any job ran */
	if (strpbrk(s->name, "/\\") || strspn(s->name, " \t.") == strlen(s->name)) {
		snprintf(err, errlen, "%s: job [%s]: a check job's name is a file name (no '/')",
			 p->path, s->name);
		return -EINVAL;
	}
	if (prefixed(s->name, "read-"))
		p->role[i] = JUDGE_ROLE_READ;
	else if (prefixed(s->name, "perf-"))
		p->role[i] = JUDGE_ROLE_PERF;
	else if (prefixed(s->name, "verify-"))
		p->role[i] = JUDGE_ROLE_VERIFY;
	else {
		snprintf(err, errlen,
			 "%s: job [%s]: a check job is named read-*, perf-* or verify-*", p->path,
			 s->name);
		return -EINVAL;
	}
	if (p->role[i] == JUDGE_ROLE_VERIFY) {
		if (s->rw != RW_WRITE || s->nbs != 1) {
			snprintf(err, errlen,
				 "%s: job [%s]: a verify job is rw=write with one bs (it writes, "
				 "then reads back)",
				 p->path, s->name);
			return -EINVAL;
		}
	} else if (spec_writes(s) || s->rw == RW_TRIM) {
		snprintf(err, errlen, "%s: job [%s] writes: only verify-* jobs may write", p->path,
			 s->name);
		return -EINVAL;
	}
	return 0;
}

int check_profile_load(const char *name, struct check_profile **out, char *err, size_t errlen)
{
	static const char *const extra_sections[] = {"check", "thresholds", NULL};
	struct parse ps;
	struct spec base, *jobs = NULL;
	unsigned njobs = 0, nsections;
	int rc;
	struct check_profile *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (!p) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	memset(&ps, 0, sizeof(ps));
	ps.p = p;
	judge_thresholds_init(&p->th);
	p->perf_rounds = 3;
	p->selftest_timeout_ns = 20 * 60 * NVS_NSEC_PER_SEC;
	p->stall_timeout_ns = 10 * NVS_NSEC_PER_SEC;
	rc = check_profile_find(name, p->path, sizeof(p->path));
	if (rc) {
		snprintf(err, errlen, "no check profile '%s' (see presets/checks/)", name);
		goto fail;
	}
	const char *b = strrchr(p->path, '/');
	b = b ? b + 1 : p->path;
	if (strcspn(b, ".") >= sizeof(p->name)) {
		snprintf(err, errlen, "%s: profile name too long", p->path);
		rc = -EINVAL;
		goto fail;
	}
	memcpy(p->name, b, strcspn(b, "."));
	p->text = read_text(p->path, &nsections, &rc, err, errlen);
	if (!p->text)
		goto fail;
	spec_init(&base);
	struct preset_extra x = {.sections = extra_sections, .fn = on_extra, .arg = &ps};
	rc = preset_load_ex(p->path, &base, &x, &jobs, &njobs, err, errlen);
	if (rc)
		goto fail;
	if (!nsections) /* only [global]: preset_load made one job of it */
		njobs = 0;
	if (njobs > JUDGE_MAX_JOBS) {
		snprintf(err, errlen, "%s: more than %d jobs", p->path, JUDGE_MAX_JOBS);
		rc = -EINVAL;
		goto fail;
	}
	p->njobs = njobs;
	for (unsigned i = 0; i < njobs; i++) {
		p->jobs[i] = jobs[i];
		rc = validate_job(p, i, err, errlen);
		if (rc)
			goto fail;
	}
	for (unsigned m = 0; m < ps.nmins; m++) {
		unsigned i;
		for (i = 0; i < njobs; i++)
			if (!strcmp(p->jobs[i].name, ps.min_job[m]))
				break;
		if (i == njobs || p->role[i] != JUDGE_ROLE_PERF) {
			snprintf(err, errlen, "%s: [thresholds]: %s.min: no perf-* job named %s",
				 p->path, ps.min_job[m], ps.min_job[m]);
			rc = -EINVAL;
			goto fail;
		}
		p->job_min[i] = ps.min_val[m];
	}
	free(jobs);
	*out = p;
	return 0;
fail:
	free(jobs);
	check_profile_free(p);
	return rc;
}

void check_profile_free(struct check_profile *p)
{
	if (!p)
		return;
	free(p->text);
	free(p);
}

bool check_profile_writes(const struct check_profile *p)
{
	for (unsigned i = 0; i < p->njobs; i++)
		if (p->role[i] == JUDGE_ROLE_VERIFY || spec_writes(&p->jobs[i]))
			return true;
	return false;
}

/* replay.c - the per-QD rows of a results directory's summary.json.
 * Each fio-layout job is one step; both directions are combined: IOPS and
 * bandwidth add, the mean is weighted by the I/O counts, max is the larger,
 * and p99 is the larger of the two directions' p99 (an upper bound: the
 * merged histogram is not in the file). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/input.h"
#include "base/num.h"
#include "report/json.h"
#include "report/csv.h"
#include "run/dirread.h"
#include "run/replay.h"
#include "run/session.h"
#include "run/stepmarks.h"
#include "run/source.h"
#include "run/resdir.h"

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	/* cJSON reads 1e400 as inf: a number that is not finite is no number */
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

static void add_dir(const cJSON *d, struct resdir_row *r, double *dir_iops, double *ios)
{
	if (!cJSON_IsObject(d))
		return;
	double n = num(d, "total_ios");
	if (!(n > 0))
		return;
	double iops = num(d, "iops"), bw = num(d, "bw_bytes");
	r->iops += isnan(iops) ? 0 : iops;
	*dir_iops = iops;
	r->bw += isnan(bw) ? 0 : bw;
	const cJSON *lat = cJSON_GetObjectItemCaseSensitive(d, "lat_ns");
	double mean = num(lat, "mean") / 1e3, max = num(lat, "max") / 1e3;
	const cJSON *pct = cJSON_GetObjectItemCaseSensitive(lat, "percentile");
	double p99 = num(pct, "99.000000") / 1e3;
	if (!isnan(mean))
		r->mean_us = isnan(r->mean_us) ? mean * n : r->mean_us + mean * n;
	if (!isnan(max) && (isnan(r->max_us) || max > r->max_us))
		r->max_us = max;
	if (!isnan(p99) && (isnan(r->p99_us) || p99 > r->p99_us))
		r->p99_us = p99;
	*ios += n;
}

/* A results file read whole: a regular file of at most JSON_MAX_BYTES
 * (docs/safety.md "Rule: hostile inputs"). */
static char *slurp(const char *path, int *e)
{
	char msg[256], *buf = NULL;
	size_t len;
	int rc = input_read_all(path, JSON_MAX_BYTES, "results file", &buf, &len, msg, sizeof(msg));
	*e = -rc;
	return rc ? NULL : buf;
}

struct run_pcts {
	double p[3][2]; /* [read, write, both][p99, p99.99], us */
};

/* The whole run's latency percentiles from a summary of one job (fio's
 * lat_ns: ramp excluded), as the live run's Numbers pane takes them from
 * its full histograms: @pct[read, write, both][p99, p99.99], "both" only
 * where one direction did every I/O (two directions' percentiles do not
 * merge); NAN unknown.  A summary of several jobs (a QD sweep, a job file
 * of several): none - their percentiles do not merge either. */
static void run_pcts(const cJSON *jobs, struct run_pcts *o)
{
	static const char *const dirs[2] = {"read", "write"};
	static const char *const keys[2] = {"99.000000", "99.990000"};
	int with_io = 0, only = -1;
	double(*pct)[2] = o->p;
	for (int d = 0; d < 3; d++)
		pct[d][0] = pct[d][1] = NAN;
	if (cJSON_GetArraySize(jobs) != 1)
		return;
	const cJSON *job = cJSON_GetArrayItem(jobs, 0);
	for (int d = 0; d < 2; d++) {
		const cJSON *dj = cJSON_GetObjectItemCaseSensitive(job, dirs[d]);
		if (!(num(dj, "total_ios") > 0))
			continue;
		with_io++;
		only = d;
		const cJSON *lat = cJSON_GetObjectItemCaseSensitive(dj, "lat_ns");
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(lat, "percentile");
		for (int k = 0; k < 2; k++)
			pct[d][k] = num(p, keys[k]) / 1e3;
	}
	if (with_io == 1)
		for (int k = 0; k < 2; k++)
			pct[2][k] = pct[only][k];
}

/* replay_qd_rows, and the run's percentiles into @pct when not NULL. */
static int read_summary(const char *dir, struct resdir_row **rows, struct run_pcts *pct, char *err,
			size_t errlen)
{
	char path[600];
	int e = 0, n = 0;
	*rows = NULL;
	snprintf(path, sizeof(path), "%s/" RESDIR_SUMMARY, dir);
	char *text = slurp(path, &e);
	if (!text) {
		snprintf(err, errlen, "%.400s: %s", path, strerror(e));
		return -e;
	}
	cJSON *doc = cJSON_Parse(text);
	free(text);
	const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(doc, "jobs");
	if (!cJSON_IsArray(jobs)) {
		snprintf(err, errlen, "%.400s: no \"jobs\" array", path);
		cJSON_Delete(doc);
		return -EINVAL;
	}
	if (pct)
		run_pcts(jobs, pct);
	int cap = cJSON_GetArraySize(jobs);
	struct resdir_row *r = calloc(cap ? (size_t)cap : 1, sizeof(*r));
	if (!r) {
		cJSON_Delete(doc);
		return -ENOMEM;
	}
	const cJSON *job;
	cJSON_ArrayForEach(job, jobs)
	{
		struct resdir_row *row = &r[n++];
		double ios = 0;
		row->mean_us = row->p99_us = row->max_us = row->cpu_pct = NAN;
		row->riops = row->wiops = NAN;
		const cJSON *opt = cJSON_GetObjectItemCaseSensitive(job, "job options");
		const cJSON *qd = cJSON_GetObjectItemCaseSensitive(opt, "iodepth");
		unsigned qdu = 0;
		uint64_t qd64;
		if (cJSON_IsString(qd))
			(void)num_parse_uint(qd->valuestring, 0, UINT_MAX, &qdu);
		else if (cJSON_IsNumber(qd) && !num_to_u64(qd->valuedouble, UINT_MAX, &qd64))
			qdu = (unsigned)qd64;
		row->qd = qdu;
		add_dir(cJSON_GetObjectItemCaseSensitive(job, "read"), row, &row->riops, &ios);
		add_dir(cJSON_GetObjectItemCaseSensitive(job, "write"), row, &row->wiops, &ios);
		if (ios > 0 && !isnan(row->mean_us))
			row->mean_us /= ios;
		double usr = num(job, "usr_cpu"), sys = num(job, "sys_cpu");
		if (!isnan(usr) && !isnan(sys))
			row->cpu_pct = usr + sys;
	}
	cJSON_Delete(doc);
	*rows = r;
	return n;
}

int replay_qd_rows(const char *dir, struct resdir_row **rows, char *err, size_t errlen)
{
	return read_summary(dir, rows, NULL, err, errlen);
}

struct replay {
	char dir[512];
	struct series agg;  /* samples.csv */
	struct series *tgt; /* target-N.csv, [NVS_MAX_TARGETS] */
	char (*names)[256]; /* targets.txt */
	unsigned ntgt;
	struct resdir_row *rows; /* summary.json */
	int nrows;
	struct run_pcts pct; /* summary.json: the run's p99, p99.99 */
	double t;	     /* the play position */
	char step[96];	     /* replay_set_step */
	char kind[32];
	struct series view; /* what series() returned last (a prefix, not a copy) */
	bool paused;
	double speed;
	size_t shown_n;		  /* samples shown at the last replay_play */
	char name[64];		  /* the directory's last part */
	struct source_health *hp; /* health.csv */
	size_t nhp;
	struct source_mark marks[SESSION_MAX_STEPS]; /* events.log */
	int nmarks;
	struct source_rounds rounds; /* a plan step's rounds.csv, steady.json */
	struct rounds rr;
	bool has_rounds;
};

/* Drops empty tail rows (recorded by older versions). */
static void drop_empty_tails(struct series *s)
{
	size_t keep = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct point *p = &s->pt[i];
		if (keep && session_empty_tail(p, (uint64_t)(s->pt[keep - 1].dt * 1e9)))
			continue;
		s->pt[keep++] = *p;
	}
	s->n = keep;
}

/* DIR/targets.txt and DIR/target-N.csv (runs of several targets): the
 * per-target strips of a replay.  Missing or bad files: no such strips. */
static void load_targets(struct replay *r, const char *dir)
{
	char path[600], *line = NULL, err[256];
	size_t lcap = 0;
	unsigned lineno = 0;
	snprintf(path, sizeof(path), "%s/" RESDIR_TARGETS, dir);
	FILE *f = input_fopen(path, 1u << 20, "targets list", err, sizeof(err));
	if (!f)
		return;
	r->tgt = calloc(NVS_MAX_TARGETS, sizeof(*r->tgt));
	r->names = calloc(NVS_MAX_TARGETS, sizeof(*r->names));
	if (!r->tgt || !r->names) {
		fclose(f);
		return;
	}
	unsigned n = 0;
	/* a line longer than 300 bytes ends the list (never cut into two) */
	while (n < NVS_MAX_TARGETS && input_getline(f, &line, &lcap, 300, &lineno) >= 0) {
		uint64_t idx;
		const char *rest;
		if (num_scan_u64(line, &rest, &idx) || idx != n || *rest != ' ')
			break;
		rest += strspn(rest, " ");
		line[strcspn(line, "\n")] = '\0';
		snprintf(r->names[n], sizeof(r->names[n]), "%s", rest);
		snprintf(path, sizeof(path), "%s/" RESDIR_TARGET_FMT, dir, n);
		if (csv_read_series(path, &r->tgt[n], err, sizeof(err)))
			break;
		drop_empty_tails(&r->tgt[n]);
		n++;
	}
	free(line);
	fclose(f);
	r->ntgt = n;
}

/* What the strips show besides the samples: the recorded health, the
 * step markers (events.log) and, in a plan step's directory, its rounds
 * and rule.  Each is optional: missing or bad files give none. */
static void load_extras(struct replay *r, const char *dir)
{
	const char *b = strrchr(dir, '/');
	snprintf(r->name, sizeof(r->name), "%.63s", b && b[1] ? b + 1 : dir);
	if (dirread_health(dir, &r->hp, &r->nhp))
		r->nhp = 0;
	r->nmarks = stepmarks_read(dir, r->marks, SESSION_MAX_STEPS);
	if (!dirread_rounds(dir, &r->rr)) {
		r->has_rounds = true;
		r->rounds.r = &r->rr;
		steady_params_init(&r->rounds.rule);
		r->rounds.has_rule = dirread_rule(dir, &r->rounds.rule);
	}
}

static void no_pcts(struct replay *r)
{
	for (int d = 0; d < 3; d++)
		r->pct.p[d][0] = r->pct.p[d][1] = NAN;
}

int replay_open(const char *dir, struct replay **out, char *err, size_t errlen)
{
	char path[600];
	*out = NULL;
	struct replay *r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	r->speed = 1;
	r->shown_n = (size_t)-1;
	no_pcts(r);
	snprintf(path, sizeof(path), "%s/" RESDIR_SAMPLES, dir);
	int ret = csv_read_series(path, &r->agg, err, errlen);
	if (ret)
		goto fail;
	drop_empty_tails(&r->agg);
	load_targets(r, dir);
	if (!r->agg.n) {
		snprintf(err, errlen, "%.400s: no samples to replay", path);
		ret = -EINVAL;
		goto fail;
	}
	char qerr[256];
	r->nrows = read_summary(dir, &r->rows, &r->pct, qerr, sizeof(qerr));
	if (r->nrows < 0) /* no summary (an interrupted run): no per-QD table */
		r->nrows = 0;
	load_extras(r, dir);
	*out = r;
	return 0;
fail:
	replay_free(r);
	return ret;
}

int replay_from_series(const char *title, struct series *agg, struct replay **out)
{
	*out = NULL;
	struct replay *r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	snprintf(r->dir, sizeof(r->dir), "%s", title);
	r->speed = 1;
	r->shown_n = (size_t)-1;
	no_pcts(r);
	r->agg = *agg;
	memset(agg, 0, sizeof(*agg));
	*out = r;
	return 0;
}

void replay_set_rows(struct replay *r, struct resdir_row *rows, int n)
{
	free(r->rows);
	r->rows = rows;
	r->nrows = rows && n > 0 ? n : 0;
}

void replay_set_step(struct replay *r, const char *step, const char *kind)
{
	snprintf(r->step, sizeof(r->step), "%s", step);
	snprintf(r->kind, sizeof(r->kind), "%s", kind);
}

void replay_free(struct replay *r)
{
	if (!r)
		return;
	series_release(&r->agg);
	for (unsigned t = 0; r->tgt && t < NVS_MAX_TARGETS; t++)
		series_release(&r->tgt[t]);
	free(r->tgt);
	free(r->names);
	free(r->rows);
	free(r->hp);
	rounds_release(&r->rr);
	free(r);
}

double replay_time(const struct replay *r)
{
	return r->t;
}

double replay_end(const struct replay *r)
{
	return r->agg.n ? r->agg.pt[r->agg.n - 1].t : 0;
}

void replay_seek(struct replay *r, double t)
{
	double end = replay_end(r);
	r->t = t < 0 ? 0 : t > end ? end : t;
}

/* The samples of @s at or before @t (binary search: t ascends). */
static size_t upto(const struct series *s, double t)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->pt[mid].t <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool replay_play(struct replay *r, double dt)
{
	bool was = r->paused;
	if (!r->paused)
		replay_seek(r, r->t + dt * r->speed);
	if (r->t >= replay_end(r))
		r->paused = true; /* played to the end */
	/* compared with the last frame's: a seek between frames counts */
	size_t n = upto(&r->agg, r->t);
	bool changed = n != r->shown_n || r->paused != was;
	r->shown_n = n;
	return changed;
}

void replay_pause(struct replay *r, int pause)
{
	r->paused = pause < 0 ? !r->paused : pause > 0;
	if (!r->paused && r->t >= replay_end(r))
		r->t = 0; /* play at the end: from the start */
}

void replay_speed(struct replay *r, double f)
{
	r->speed *= f;
	if (!(r->speed >= 0.25))
		r->speed = 0.25;
	if (r->speed > 4096)
		r->speed = 4096;
}

bool replay_paused(const struct replay *r)
{
	return r->paused;
}

double replay_speed_of(const struct replay *r)
{
	return r->speed;
}

/* ---- the source table ---- */

static unsigned rp_ntargets(const void *ctx)
{
	const struct replay *r = ctx;
	return r->ntgt > 1 ? r->ntgt : 1;
}

static const char *rp_target(const void *ctx, unsigned t)
{
	const struct replay *r = ctx;
	return t < r->ntgt && r->names ? r->names[t] : "";
}

static const struct series *rp_series(void *ctx, int t)
{
	static const struct series empty;
	struct replay *r = ctx;
	const struct series *src = t < 0 ? &r->agg : (unsigned)t < r->ntgt ? &r->tgt[t] : &empty;
	size_t n = src->n;
	while (n && src->pt[n - 1].t > r->t)
		n--;
	r->view = (struct series){src->pt, n, src->cap};
	return &r->view;
}

static void rp_info(const void *ctx, struct source_info *o)
{
	const struct replay *r = ctx;
	memset(o, 0, sizeof(*o));
	o->valid = SOURCE_HAS_PLANNED | SOURCE_HAS_CURSOR |
		   (r->has_rounds ? SOURCE_FILE_ROUNDS : 0) | (r->nhp ? SOURCE_HAS_HEALTH : 0);
	o->state = r->paused ? "PAUSED" : "REPLAY";
	o->name = r->name;
	o->dir = "";
	o->speed = r->speed;
	o->now_s = r->t;
	o->end_s = o->planned_s = replay_end(r);
	o->title = r->dir;
	snprintf(o->step, sizeof(o->step), "%s", r->step);
	o->step_kind = r->kind;
	o->rows_from = "from " RESDIR_SUMMARY;
	/* the whole run's percentiles: at the end of the play, where the
	 * summary has them */
	bool any = false;
	for (int d = 0; d < 3; d++)
		any |= !isnan(r->pct.p[d][0]) || !isnan(r->pct.p[d][1]);
	if (any && r->t >= o->end_s)
		o->valid |= SOURCE_HAS_RUN_PCT;
}

static double rp_run_pct(const void *ctx, int d, double pct)
{
	const struct replay *r = ctx;
	int k = fabs(pct - 99) < 1e-9 ? 0 : fabs(pct - 99.99) < 1e-9 ? 1 : -1;
	if (k < 0 || d < -1 || d > 1 || r->t < replay_end(r))
		return NAN;
	return r->pct.p[d < 0 ? 2 : d][k];
}

static int rp_nrows(const void *ctx, int *cur)
{
	const struct replay *r = ctx;
	*cur = 0;
	return r->nrows;
}

static enum source_row rp_row(const void *ctx, unsigned i, struct resdir_row *q)
{
	const struct replay *r = ctx;
	*q = r->rows[i];
	return SOURCE_ROW_DONE;
}

static int rp_marks(void *ctx, struct source_mark *m, int max)
{
	const struct replay *r = ctx;
	int n = 0;
	for (int i = 0; i < r->nmarks && n < max; i++)
		m[n++] = r->marks[i];
	return n;
}

static size_t rp_health(const void *ctx, const struct source_health **pts)
{
	const struct replay *r = ctx;
	size_t n = r->nhp; /* what was recorded by the play position */
	while (n && r->hp[n - 1].t > r->t)
		n--;
	*pts = r->hp;
	return n;
}

static unsigned rp_poll(void *ctx, double dt)
{
	return replay_play(ctx, dt) ? SOURCE_CHANGED_DATA : 0;
}

static const struct source_rounds *rp_rounds(void *ctx)
{
	struct replay *r = ctx;
	return r->has_rounds ? &r->rounds : NULL;
}

static void rp_seek(void *ctx, double t)
{
	replay_seek(ctx, t);
}

static void rp_play(void *ctx, int pause)
{
	replay_pause(ctx, pause);
}

static void rp_speed(void *ctx, double f)
{
	replay_speed(ctx, f);
}

static void rp_free(void *ctx)
{
	replay_free(ctx);
}

static const struct source_ops replay_ops = {
    .name = "replay",
    .caps = SOURCE_CAN_PLAY | SOURCE_VIEW_ONLY,
    .ntargets = rp_ntargets,
    .target = rp_target,
    .series = rp_series,
    .info = rp_info,
    .nrows = rp_nrows,
    .row = rp_row,
    .marks = rp_marks,
    .health = rp_health,
    .poll = rp_poll,
    .event = source_no_event,
    .running = source_not_running,
    .note = source_no_note,
    .rounds = rp_rounds,
    .run_pct = rp_run_pct,
    .seek = rp_seek,
    .play = rp_play,
    .speed = rp_speed,
    .free = rp_free,
};

void replay_source(struct replay *r, struct source *out)
{
	out->ops = &replay_ops;
	out->ctx = r;
}

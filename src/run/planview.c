/* planview.c - following a plan through its results directory.
 *
 * The files are the boundary between the plan (its own thread or process)
 * and the console: the plan writes them (state.json atomically by rename,
 * CSVs appended and flushed at least at every checkpoint), the console reads
 * them.  A CSV line may be caught half-written: only lines ending in '\n'
 * are taken, and the read position goes back to the start of a partial one
 * to read it whole next time.  state.json is re-read when its mtime or size
 * changes; the table is re-read when its size changes (a few rows). */
#include "run/planview.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "base/input.h"
#include "base/num.h"
#include "ring/spsc.h"
#include "run/planexec.h"
#include "run/planrun.h"
#include "config/plan.h"
#include "report/csv.h"
#include "report/json.h"

#define PV_COLUMNS 14

struct planview {
	char dir[512];
	struct plan *plan;
	unsigned step, sub;
	bool finished;
	char name[64], target[256];
	bool overridden; /* state.json's overrides applied to plan */
	struct timespec state_mtime;
	off_t state_size;
	/* the current step's files */
	unsigned open_step; /* step of the open files; UINT_MAX: none */
	char step_dir[1100];
	FILE *samples;
	bool samples_bad; /* a line over CSV_MAX_LINE: no longer followed */
	struct series ser;
	off_t table_size;
	struct resdir_row *rows;
	int nrows;
	const struct planexec *pe; /* the plan's thread, NULL when following */
	/* its in-memory feed (planrun.feed): the latest step's rows */
	bool fed;
	unsigned feed_step;
	struct series fser;		     /* aggregate */
	struct series tser[NVS_MAX_TARGETS]; /* per target */
	unsigned ntser;
};

void planview_set_exec(struct planview *v, const struct planexec *pe)
{
	v->pe = pe;
}

const struct planexec *planview_exec(const struct planview *v)
{
	return v->pe;
}

int planview_new(const char *dir, struct planview **out, char *err, size_t errlen)
{
	char path[700];
	*out = NULL;
	struct planview *v = calloc(1, sizeof(*v));
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(v->dir, sizeof(v->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/" RESDIR_PLAN_INI, dir);
	int ret = plan_load(path, NULL, &v->plan, err, errlen);
	if (ret) {
		free(v);
		return ret;
	}
	v->open_step = (unsigned)-1;
	*out = v;
	return 0;
}

static void close_step(struct planview *v)
{
	if (v->samples)
		fclose(v->samples);
	v->samples = NULL;
	v->samples_bad = false;
	series_release(&v->ser);
	free(v->rows);
	v->rows = NULL;
	v->nrows = 0;
	v->table_size = -1;
	v->open_step = (unsigned)-1;
}

void planview_free(struct planview *v)
{
	if (!v)
		return;
	close_step(v);
	plan_free(v->plan);
	series_release(&v->fser);
	for (unsigned t = 0; t < NVS_MAX_TARGETS; t++)
		series_release(&v->tser[t]);
	free(v);
}

/* The run's overrides ([["runtime", "30s"], ...], as `nvscope plan
 * --runtime` or the console gave them) on the plan as plan.ini has it:
 * the steps' durations (and so the ETA) are those that run.  Once. */
static void apply_overrides(struct planview *v, const cJSON *ov)
{
	const cJSON *pair;
	char err[256];
	v->overridden = true;
	cJSON_ArrayForEach(pair, ov)
	{
		const cJSON *k = cJSON_GetArrayItem(pair, 0), *val = cJSON_GetArrayItem(pair, 1);
		if (cJSON_IsString(k) && cJSON_IsString(val))
			plan_override(v->plan, k->valuestring, val->valuestring, err, sizeof(err));
	}
}

/* Re-reads state.json when it changed.  True when it did. */
static bool read_state(struct planview *v)
{
	char path[700];
	struct stat sb;
	snprintf(path, sizeof(path), "%s/" RESDIR_STATE, v->dir);
	if (stat(path, &sb))
		return false;
	if (sb.st_mtim.tv_sec == v->state_mtime.tv_sec &&
	    sb.st_mtim.tv_nsec == v->state_mtime.tv_nsec && sb.st_size == v->state_size)
		return false;
	/* docs/safety.md "Rule: hostile inputs": a regular file, capped */
	char msg[256], *buf;
	size_t n;
	if (input_read_all(path, JSON_MAX_BYTES, "plan state", &buf, &n, msg, sizeof(msg)))
		return false;
	cJSON *o = cJSON_Parse(buf);
	free(buf);
	if (!o)
		return false; /* caught mid-write by another writer: next time */
	const cJSON *step = cJSON_GetObjectItemCaseSensitive(o, "step");
	const cJSON *sub = cJSON_GetObjectItemCaseSensitive(o, "sub");
	const cJSON *fin = cJSON_GetObjectItemCaseSensitive(o, "finished");
	if (cJSON_IsNumber(step) && step->valuedouble >= 0 && step->valuedouble <= 1e6)
		v->step = (unsigned)step->valuedouble;
	if (cJSON_IsNumber(sub) && sub->valuedouble >= 0 && sub->valuedouble <= 1e9)
		v->sub = (unsigned)sub->valuedouble;
	v->finished = cJSON_IsTrue(fin);
	if (!v->overridden)
		apply_overrides(v, cJSON_GetObjectItemCaseSensitive(o, "overrides"));
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "plan");
	const cJSON *tg = cJSON_GetObjectItemCaseSensitive(o, "targets");
	if (cJSON_IsString(name))
		snprintf(v->name, sizeof(v->name), "%s", name->valuestring);
	if (cJSON_IsArray(tg) && cJSON_IsString(cJSON_GetArrayItem(tg, 0)))
		snprintf(v->target, sizeof(v->target), "%s",
			 cJSON_GetArrayItem(tg, 0)->valuestring);
	cJSON_Delete(o);
	v->state_mtime = sb.st_mtim;
	v->state_size = sb.st_size;
	return true;
}

/* Takes the complete new lines of samples.csv.  A line longer than
 * CSV_MAX_LINE is never cut into points: the file is no longer followed
 * (docs/safety.md "Rule: hostile inputs"). */
static bool read_samples(struct planview *v)
{
	char line[CSV_MAX_LINE + 2];
	bool any = false;
	if (v->samples_bad)
		return false;
	if (!v->samples) {
		char path[1200];
		snprintf(path, sizeof(path), "%s/" RESDIR_SAMPLES, v->step_dir);
		char msg[256];
		if (!(v->samples = input_fopen(path, CSV_MAX_BYTES, "samples CSV", msg, sizeof(msg))))
			return false;
	}
	for (;;) {
		long pos = ftell(v->samples);
		if (!fgets(line, sizeof(line), v->samples)) {
			clearerr(v->samples);
			break;
		}
		if (!strchr(line, '\n') && strlen(line) > CSV_MAX_LINE) {
			fclose(v->samples); /* too long to be a line of ours */
			v->samples = NULL;
			v->samples_bad = true;
			break;
		}
		if (!strchr(line, '\n')) { /* partial: read it again when whole */
			fseek(v->samples, pos, SEEK_SET);
			break;
		}
		struct point p;
		double prev = v->ser.n ? v->ser.pt[v->ser.n - 1].t : -1;
		if (!csv_parse_point(line, prev, &p) && !series_push(&v->ser, &p))
			any = true;
	}
	return any;
}

static bool read_table(struct planview *v)
{
	const struct plan_step *st = &v->plan->steps[v->open_step];
	const char *name = st->kind == STEP_MEASURE	 ? RESDIR_QD
			   : st->kind == STEP_RATE_CURVE ? RESDIR_RATE
			   : st->kind == STEP_GRID	 ? RESDIR_GRID
							 : NULL;
	enum resdir_table tt = st->kind == STEP_MEASURE ? RESDIR_TABLE_QD
			       : st->kind == STEP_GRID	? RESDIR_TABLE_GRID
							: RESDIR_TABLE_RATE;
	char path[1200];
	struct stat sb;
	if (!name)
		return false;
	snprintf(path, sizeof(path), "%s/%s", v->step_dir, name);
	if (stat(path, &sb) || sb.st_size == v->table_size)
		return false;
	struct resdir_row *rows;
	int n = resdir_table_read(path, tt, &rows);
	if (n < 0)
		return false;
	free(v->rows);
	v->rows = rows;
	v->nrows = n;
	v->table_size = sb.st_size;
	return true;
}

/* The plan's thread's rows, from its ring (the UI thread is the ring's
 * one consumer): a new step's first row starts the series afresh. */
static bool drain_feed(struct planview *v, struct spsc *f)
{
	struct planrun_pt fp;
	bool any = false;
	while (!spsc_pop(f, &fp)) {
		if (!v->fed || fp.step != v->feed_step) {
			v->fser.n = 0;
			for (unsigned t = 0; t < v->ntser; t++)
				v->tser[t].n = 0;
			v->ntser = 0;
			v->feed_step = fp.step;
			v->fed = true;
		}
		struct series *s = fp.target < 0		 ? &v->fser
				   : fp.target < NVS_MAX_TARGETS ? &v->tser[fp.target]
								 : NULL;
		if (!s || series_push(s, &fp.pt))
			continue;
		if (fp.target >= 0 && (unsigned)fp.target + 1 > v->ntser)
			v->ntser = (unsigned)fp.target + 1;
		any = true;
	}
	return any;
}

bool planview_poll(struct planview *v)
{
	bool changed = read_state(v);
	unsigned cur = planview_cur(v);
	if (cur != v->open_step) {
		close_step(v);
		v->open_step = cur;
		char sub[256];
		planrun_step_dir(v->plan, cur, sub, sizeof(sub));
		snprintf(v->step_dir, sizeof(v->step_dir), "%s/%s", v->dir, sub);
		changed = true;
	}
	struct spsc *f = v->pe ? planexec_feed(v->pe) : NULL;
	if (f) /* the plan runs here: its rows in memory */
		changed |= drain_feed(v, f);
	else /* written elsewhere: its samples.csv as it grows */
		changed |= read_samples(v);
	changed |= read_table(v);
	return changed;
}

const char *planview_name(const struct planview *v)
{
	return v->name[0] ? v->name : v->plan->name;
}

const char *planview_target(const struct planview *v)
{
	return v->target;
}

unsigned planview_nsteps(const struct planview *v)
{
	return v->plan->nsteps;
}

unsigned planview_cur(const struct planview *v)
{
	if (!v->plan->nsteps)
		return 0;
	return v->step < v->plan->nsteps ? v->step : v->plan->nsteps - 1;
}

bool planview_finished(const struct planview *v)
{
	return v->finished;
}

unsigned planview_sub(const struct planview *v)
{
	return v->sub;
}

const char *planview_step_name(const struct planview *v, unsigned i)
{
	return i < v->plan->nsteps ? v->plan->steps[i].name : "";
}

const char *planview_step_kind(const struct planview *v, unsigned i)
{
	return i < v->plan->nsteps ? plan_step_kind_name(v->plan->steps[i].kind) : "";
}

const struct steady_params *planview_step_rule(const struct planview *v, unsigned i)
{
	return i < v->plan->nsteps ? &v->plan->steps[i].ss : NULL;
}

const struct plan *planview_plan(const struct planview *v)
{
	return v->plan;
}

int planview_step_dir_of(const struct planview *v, unsigned i, char *buf, size_t len)
{
	char sub[256];
	if (i >= v->plan->nsteps)
		return -EINVAL;
	planrun_step_dir(v->plan, i, sub, sizeof(sub));
	if (snprintf(buf, len, "%s/%s", v->dir, sub) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

const char *planview_step_dir(const struct planview *v)
{
	return v->step_dir;
}

const struct series *planview_series(const struct planview *v)
{
	return v->fed ? &v->fser : &v->ser;
}

unsigned planview_ntargets(const struct planview *v)
{
	return v->fed && v->ntser > 1 ? v->ntser : 1;
}

const struct series *planview_target_series(const struct planview *v, unsigned t)
{
	if (v->fed && v->ntser > 1)
		return t < v->ntser ? &v->tser[t] : NULL;
	return t == 0 ? planview_series(v) : NULL;
}

const struct resdir_row *planview_rows(const struct planview *v, int *n)
{
	*n = v->nrows;
	return v->rows;
}

/* planres.c - a plan step's result and planned length (planres.h). */
#include "run/planres.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "base/input.h"
#include "report/resnames.h"

#define PLANRES_MAX_JSON (4 << 20) /* steady.json holds every round's value */

static cJSON *read_json(const char *dir, const char *name)
{
	char path[1200];
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return NULL; /* never a cut path */
	/* docs/safety.md "Rule: hostile inputs": a regular file, capped */
	char msg[256], *buf = NULL;
	size_t n;
	if (input_read_all(path, PLANRES_MAX_JSON, "results file", &buf, &n, msg, sizeof(msg)))
		return NULL;
	cJSON *o = cJSON_Parse(buf);
	free(buf);
	return o;
}

/* A finite number >= 0 of @o's @key, or @dflt. */
static double num(const cJSON *o, const char *key, double dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble >= 0 ? v->valuedouble
										    : dflt;
}

static unsigned unum(const cJSON *o, const char *key)
{
	double v = num(o, key, 0);
	return v <= 1e9 ? (unsigned)v : 0;
}

int planres_read(const char *dir, struct planres *r)
{
	memset(r, 0, sizeof(*r));
	cJSON *step = read_json(dir, RESDIR_STEP);
	if (!step)
		return -ENOENT;
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(step, "status");
	r->done = cJSON_IsString(st) && !strcmp(st->valuestring, "done");
	cJSON_Delete(step);
	cJSON *ss = read_json(dir, RESDIR_STEADY);
	const cJSON *att = cJSON_GetObjectItemCaseSensitive(ss, "attained");
	if (ss && cJSON_IsBool(att)) {
		r->has_verdict = true;
		r->attained = cJSON_IsTrue(att);
		r->round = unum(ss, "round");
		r->rounds = unum(ss, "rounds");
		r->window = unum(ss, "window");
		r->range_limit = num(ss, "range_limit_pct", NAN);
		r->slope_limit = num(ss, "slope_limit_pct", NAN);
		r->avg = num(ss, "window_avg", NAN);
		r->range_pct = num(ss, "range_pct", NAN);
		r->slope_pct = num(ss, "slope_pct", NAN);
		r->has_pct = isfinite(r->avg) && r->avg > 0 && isfinite(r->range_pct) &&
			     isfinite(r->slope_pct);
	}
	cJSON_Delete(ss);
	return 0;
}

bool planres_failed(const struct planres *r)
{
	return r->has_verdict && !r->attained;
}

/* "range 25.0% > 20%" */
static int crit(char *buf, size_t len, const char *name, double v, double limit)
{
	if (!isfinite(limit))
		return snprintf(buf, len, "%s %.1f%%", name, v);
	return snprintf(buf, len, "%s %.1f%% %s %g%%", name, v, v <= limit ? "<=" : ">", limit);
}

void planres_verdict(const struct planres *r, char *buf, size_t len)
{
	char c1[64], c2[64];
	if (!len)
		return;
	buf[0] = '\0';
	if (!r->has_verdict)
		return;
	if (r->attained) {
		snprintf(buf, len, "steady at round %u", r->round);
		return;
	}
	if (!r->has_pct) {
		snprintf(buf, len, "NOT steady in %u rounds (window %u)", r->rounds, r->window);
		return;
	}
	/* the failed criterion first: a narrow screen cuts the end */
	bool range_first = !(r->range_pct <= r->range_limit) || r->slope_pct <= r->slope_limit;
	crit(range_first ? c1 : c2, sizeof(c1), "range", r->range_pct, r->range_limit);
	crit(range_first ? c2 : c1, sizeof(c2), "slope", r->slope_pct, r->slope_limit);
	snprintf(buf, len, "NOT steady: %s, %s (%u rounds)", c1, c2, r->rounds);
}

unsigned planres_step_units(const struct plan_step *st)
{
	switch (st->kind) {
	case STEP_PURGE:
	case STEP_FILL:
		return 0;
	case STEP_PRECONDITION:
		return st->max_rounds;
	case STEP_MEASURE:
		return st->spec.niodepth ? st->spec.niodepth : 1;
	case STEP_RATE_CURVE:
		return st->npoints + 1; /* the maximum first */
	case STEP_GRID:
		return (st->nthreads ? st->nthreads : 1) *
		       (st->spec.niodepth ? st->spec.niodepth : 1);
	case STEP_MATRIX:
		return (st->max_rounds ? st->max_rounds : 1) * st->nmbs * st->nmixes;
	}
	return 0;
}

double planres_step_seconds(const struct plan_step *st)
{
	double unit = (double)(st->spec.runtime_ns + st->spec.ramp_ns) / 1e9;
	if (st->kind == STEP_PRECONDITION)
		unit = (double)(st->round_ns + st->spec.ramp_ns) / 1e9;
	return planres_step_units(st) * unit;
}

double planres_eta(const struct plan *p, unsigned cur, double elapsed, bool *unknown, bool *upper)
{
	double left = 0;
	*unknown = *upper = false;
	for (unsigned i = cur; i < p->nsteps; i++) {
		const struct plan_step *st = &p->steps[i];
		double s = planres_step_seconds(st);
		if (s <= 0 && (i > cur || st->kind == STEP_PURGE || st->kind == STEP_FILL))
			*unknown = true;
		if (st->kind == STEP_PRECONDITION ||
		    (st->kind == STEP_MATRIX && st->max_rounds > 1))
			*upper = true;
		if (i == cur)
			s = s > elapsed ? s - elapsed : 0;
		left += s;
	}
	return left;
}

void planres_fmt_dur(double s, char *buf, size_t len)
{
	if (!isfinite(s) || s < 0 || s > 1e9) {
		snprintf(buf, len, "?");
		return;
	}
	unsigned long t = (unsigned long)llround(s);
	if (t >= 3600)
		snprintf(buf, len, "%luh%02lum", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%lum%02lus", t / 60, t % 60);
	else
		snprintf(buf, len, "%lus", t);
}

/* source.c - the console's source tables (source.h) of a live run (over
 * session.h) and of a plan followed through its results directory (over
 * planview.h, with the plan's thread when the console runs it); the
 * replay's is in replay.c, next to its state. */
#include "run/source.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "nvscope.h"
#include "run/planexec.h"
#include "run/planview.h"
#include "run/session.h"
#include "stats/result.h"

static const struct series empty_series;

/* ---- a live run ---- */

static unsigned live_ntargets(const void *ctx)
{
	return session_ntargets(ctx);
}

static const char *live_target(const void *ctx, unsigned t)
{
	static char copy[NVS_MAX_TARGETS][16]; /* a storm's groups are its copies */
	if (t < session_copies(ctx) && t < NVS_MAX_TARGETS) {
		snprintf(copy[t], sizeof(copy[t]), "copy %u", t);
		return copy[t];
	}
	return session_target(ctx, t);
}

static const struct series *live_series(void *ctx, int t)
{
	const struct series *s = session_series(ctx, t);
	return s ? s : &empty_series;
}

static void live_info(const void *ctx, struct source_info *o)
{
	const struct session *s = ctx;
	const struct series *agg = session_series(s, -1);
	memset(o, 0, sizeof(*o));
	o->valid = SOURCE_HAS_PLANNED | SOURCE_HAS_DROPPED | SOURCE_HAS_HIST | SOURCE_HAS_IVAL_PCT;
	switch (session_state(s)) {
	case SESS_RUNNING:
		o->state = "RUNNING";
		break;
	case SESS_DONE: /* a run stopped before its end is not done */
		o->state = session_stopped(s) ? "STOPPED" : "DONE";
		break;
	case SESS_FAILED:
		o->state = "FAILED";
		break;
	default:
		o->state = "IDLE";
	}
	o->now_s = session_elapsed(s);
	o->end_s = agg->n ? agg->pt[agg->n - 1].t : 0;
	o->planned_s = session_planned(s);
	o->title = session_target(s, 0);
	o->step_kind = "";
	o->rows_from = "";
	o->dropped = session_dropped(s);
	const struct session_step *st = session_step(s, session_cur_step(s));
	o->round_origin_s = st ? st->t0 : 0;
	if (st)
		snprintf(o->step, sizeof(o->step), " QD%u %u/%u", st->iodepth,
			 session_cur_step(s) + 1, session_nsteps(s));
}

static int live_nrows(const void *ctx, int *cur)
{
	*cur = (int)session_cur_step(ctx);
	return (int)session_nsteps(ctx);
}

static void result_lat(const struct result *r, double *mean, double *p99, double *max)
{
	struct lat_all l;
	result_lat_all(r, &l);
	*mean = l.n ? l.mean_us : NAN;
	*p99 = l.n ? l.p99_us : NAN;
	*max = l.n ? l.max_us : NAN;
}

/* A step done: its result; the running step: its figures so far (the
 * series since the step began, the step's histograms); later: pending. */
static enum source_row live_row(const void *ctx, unsigned i, struct resdir_row *q)
{
	const struct session *sess = ctx;
	const struct session_step *st = session_step(sess, i);
	memset(q, 0, sizeof(*q));
	q->qd = st->iodepth;
	if (st->done) {
		const struct result *r = &st->res;
		q->iops = result_total_iops(r);
		q->bw = result_bw(r, NVS_READ) + result_bw(r, NVS_WRITE);
		result_lat(r, &q->mean_us, &q->p99_us, &q->max_us);
		q->cpu_pct = r->runtime_s > 0 ? (r->usr_s + r->sys_s) / r->runtime_s * 100 : NAN;
		return SOURCE_ROW_DONE;
	}
	if (i != session_cur_step(sess) || session_state(sess) != SESS_RUNNING)
		return SOURCE_ROW_PENDING;
	const struct series *s = session_series(sess, -1);
	double dt = 0, io = 0, by = 0, cp = 0;
	for (size_t k = s->n; k-- > 0;) {
		const struct point *pt = &s->pt[k];
		if (pt->t <= st->t0)
			break;
		if (pt->ramp)
			continue;
		dt += pt->dt;
		io += point_iops(pt) * pt->dt;
		by += point_bw(pt) * pt->dt;
		cp += pt->cpu_pct * pt->dt;
	}
	q->iops = dt > 0 ? io / dt : NAN;
	q->bw = dt > 0 ? by / dt : NAN;
	q->cpu_pct = dt > 0 ? cp / dt : NAN;
	struct lat_all l;
	result_lat_pair(session_step_hist(sess, NVS_READ), session_step_hist(sess, NVS_WRITE), &l);
	q->mean_us = l.n ? l.mean_us : NAN;
	q->p99_us = l.n ? l.p99_us : NAN;
	q->max_us = l.n ? l.max_us : NAN;
	return SOURCE_ROW_RUNNING;
}

static const struct hist *live_hist(const void *ctx, int d)
{
	return session_hist(ctx, (enum nvs_dir)d);
}

static double live_interval_pct(const void *ctx, double t, double pct)
{
	return session_interval_pct(ctx, t, pct);
}

static const struct source_ops live_ops = {
    .name = "live",
    .ntargets = live_ntargets,
    .target = live_target,
    .series = live_series,
    .info = live_info,
    .nrows = live_nrows,
    .row = live_row,
    .hist = live_hist,
    .interval_pct = live_interval_pct,
};

void session_source(struct session *s, struct source *out)
{
	out->ops = &live_ops;
	out->ctx = s;
}

/* ---- a plan, through its results directory ---- */

static unsigned plan_ntargets(const void *ctx)
{
	return planview_ntargets(ctx);
}

static const char *plan_target(const void *ctx, unsigned t)
{
	const struct planview *v = ctx;
	const struct planexec *pe = planview_exec(v);
	const char *p = pe ? planexec_target(pe, t) : t == 0 ? planview_target(v) : NULL;
	return p ? p : "";
}

static const struct series *plan_series(void *ctx, int t)
{
	/* the current step's rows: aggregate, or target @t's */
	const struct series *s =
	    t < 0 ? planview_series(ctx) : planview_target_series(ctx, (unsigned)t);
	return s ? s : &empty_series;
}

static void plan_info(const void *ctx, struct source_info *o)
{
	const struct planview *v = ctx;
	const struct planexec *pe = planview_exec(v);
	const struct series *s = planview_series(v);
	int rc;
	memset(o, 0, sizeof(*o));
	o->valid = SOURCE_FILE_ROUNDS;
	if (!pe) /* following a results directory */
		o->state = planview_finished(v) ? "DONE" : "PLAN";
	else if (planexec_running(pe) || !planexec_ended(pe, &rc))
		o->state = "PLAN";
	else
		o->state = rc == 0 ? "DONE" : "STOPPED";
	o->now_s = o->end_s = s->n ? s->pt[s->n - 1].t : 0;
	o->title = plan_target(v, 0);
	unsigned cur = planview_cur(v);
	o->step_kind = planview_step_kind(v, cur);
	if (!o->step_kind)
		o->step_kind = "";
	o->rows_from = "from the step's table";
	snprintf(o->step, sizeof(o->step), " step %u/%u %.60s", cur + 1, planview_nsteps(v),
		 planview_step_name(v, cur));
}

static int plan_nrows(const void *ctx, int *cur)
{
	int n = 0;
	*cur = 0;
	planview_rows(ctx, &n);
	return n;
}

static enum source_row plan_row(const void *ctx, unsigned i, struct resdir_row *q)
{
	int n = 0;
	const struct resdir_row *rows = planview_rows(ctx, &n);
	*q = rows[i];
	return SOURCE_ROW_DONE;
}

static const struct source_ops plan_ops = {
    .name = "plan",
    .ntargets = plan_ntargets,
    .target = plan_target,
    .series = plan_series,
    .info = plan_info,
    .nrows = plan_nrows,
    .row = plan_row,
};

void planview_source(struct planview *v, struct source *out)
{
	out->ops = &plan_ops;
	out->ctx = v;
}

/* ---- nothing to show (a plan whose directory cannot be followed) ---- */

static unsigned none_ntargets(const void *ctx)
{
	(void)ctx;
	return 1;
}

static const char *none_target(const void *ctx, unsigned t)
{
	(void)ctx;
	(void)t;
	return "";
}

static const struct series *none_series(void *ctx, int t)
{
	(void)ctx;
	(void)t;
	return &empty_series;
}

static void none_info(const void *ctx, struct source_info *o)
{
	(void)ctx;
	memset(o, 0, sizeof(*o));
	o->valid = SOURCE_FILE_ROUNDS;
	o->state = "PLAN";
	o->title = o->step_kind = o->rows_from = "";
}

static int none_nrows(const void *ctx, int *cur)
{
	(void)ctx;
	*cur = 0;
	return 0;
}

static const struct source_ops none_ops = {
    .name = "none",
    .ntargets = none_ntargets,
    .target = none_target,
    .series = none_series,
    .info = none_info,
    .nrows = none_nrows,
};

void source_none(struct source *out)
{
	out->ops = &none_ops;
	out->ctx = NULL;
}

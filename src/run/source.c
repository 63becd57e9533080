/* source.c - the live source (source.h) over session.h: the console's
 * workloads, their samples drained once per frame, their health readings
 * and their end as events; the source that shows nothing; and the
 * constructors' common end.  The plan's table is in plansrc.c, the
 * replay's in replay.c, next to their state. */
#include "run/source.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nvscope.h"
#include "run/session.h"
#include "run/stepmarks.h"
#include "stats/result.h"

static const struct series empty_series;

/* ---- a live run ---- */

struct live {
	struct session *s;
	enum session_state last;  /* the state at the last poll: its changes are events */
	struct source_health *hp; /* this run's health readings */
	size_t nhp, caphp;
	bool has_ev;
	struct source_event ev;
};

#define SESS(ctx) (((const struct live *)(ctx))->s)

static unsigned live_ntargets(const void *ctx)
{
	return session_ntargets(SESS(ctx));
}

static const char *live_target(const void *ctx, unsigned t)
{
	static char copy[NVS_MAX_TARGETS][16]; /* a storm's groups are its copies */
	if (t < session_copies(SESS(ctx)) && t < NVS_MAX_TARGETS) {
		snprintf(copy[t], sizeof(copy[t]), "copy %u", t);
		return copy[t];
	}
	return session_target(SESS(ctx), t);
}

static const struct series *live_series(void *ctx, int t)
{
	const struct series *s = session_series(SESS(ctx), t);
	return s ? s : &empty_series;
}

static int live_window(void *ctx, double t0, double t1)
{
	return session_window(SESS(ctx), t0, t1);
}

static void live_info(const void *ctx, struct source_info *o)
{
	const struct session *s = SESS(ctx);
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
	o->name = "";
	o->dir = session_dir(s);
	o->dropped = session_dropped(s);
	const struct session_step *st = session_step(s, session_cur_step(s));
	o->round_origin_s = st ? st->t0 : 0;
	if (st)
		snprintf(o->step, sizeof(o->step), " QD%u %u/%u", st->iodepth,
			 session_cur_step(s) + 1, session_nsteps(s));
}

static int live_nrows(const void *ctx, int *cur)
{
	*cur = (int)session_cur_step(SESS(ctx));
	return (int)session_nsteps(SESS(ctx));
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
	const struct session *sess = SESS(ctx);
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
	return session_hist(SESS(ctx), (enum nvs_dir)d);
}

static double live_interval_pct(const void *ctx, double t, double pct)
{
	return session_interval_pct(SESS(ctx), t, pct);
}

static int live_marks(void *ctx, struct source_mark *m, int max)
{
	return stepmarks_session(SESS(ctx), m, max);
}

static size_t live_health(const void *ctx, const struct source_health **pts)
{
	const struct live *l = ctx;
	*pts = l->hp;
	return l->nhp;
}

static void live_add_health(void *ctx, const struct source_health *h)
{
	struct live *l = ctx;
	if (l->nhp == l->caphp) {
		size_t nc = l->caphp ? l->caphp * 2 : 256;
		struct source_health *n = realloc(l->hp, nc * sizeof(*n));
		if (!n)
			return;
		l->hp = n;
		l->caphp = nc;
	}
	l->hp[l->nhp++] = *h;
	session_record_health(l->s, h->t, h->temp_c, h->throttle);
}

/* The run's end as an event: its results, or why it failed. */
static void ended(struct live *l, enum session_state st)
{
	l->has_ev = true;
	l->ev.flags = SOURCE_EV_ENDED;
	if (st == SESS_FAILED) {
		l->ev.level = SOURCE_EV_ERROR;
		l->ev.flags |= SOURCE_EV_MESSAGE;
		snprintf(l->ev.text, sizeof(l->ev.text), "%s", session_message(l->s));
	} else {
		l->ev.level = SOURCE_EV_OK;
		snprintf(l->ev.text, sizeof(l->ev.text), "done: results in %s", session_dir(l->s));
	}
}

static unsigned live_poll(void *ctx, double dt)
{
	struct live *l = ctx;
	unsigned ch = 0;
	(void)dt;
	if (session_poll(l->s) > 0)
		ch |= SOURCE_CHANGED_DATA;
	enum session_state st = session_state(l->s);
	if (st != l->last) {
		if (st == SESS_FAILED || st == SESS_DONE)
			ended(l, st);
		l->last = st;
		ch |= SOURCE_CHANGED_DATA;
	}
	return ch;
}

static bool live_event(void *ctx, struct source_event *ev)
{
	struct live *l = ctx;
	if (!l->has_ev)
		return false;
	*ev = l->ev;
	l->has_ev = false;
	return true;
}

static bool live_running(const void *ctx)
{
	return session_state(SESS(ctx)) == SESS_RUNNING;
}

static int live_note(void *ctx, const char *text)
{
	if (!live_running(ctx))
		return -ESRCH;
	session_note(SESS(ctx), text);
	return 0;
}

static int live_start(void *ctx, const struct spec *jobs, unsigned n, const char *dir, char *err,
		      size_t len)
{
	struct live *l = ctx;
	int ret = session_start(l->s, jobs, n, dir, err, len);
	if (!ret)
		l->nhp = 0; /* the new run's readings */
	return ret;
}

static void live_stop(void *ctx, const char *why)
{
	if (live_running(ctx))
		session_stop(SESS(ctx), why);
}

static void live_free(void *ctx)
{
	struct live *l = ctx;
	session_free(l->s); /* joins a running pool and writes its results */
	free(l->hp);
	free(l);
}

static const struct source_ops live_ops = {
    .name = "live",
    .caps = SOURCE_CAN_START | SOURCE_CAN_STOP,
    .ntargets = live_ntargets,
    .target = live_target,
    .series = live_series,
    .info = live_info,
    .nrows = live_nrows,
    .row = live_row,
    .marks = live_marks,
    .health = live_health,
    .poll = live_poll,
    .event = live_event,
    .running = live_running,
    .note = live_note,
    .hist = live_hist,
    .interval_pct = live_interval_pct,
    .window = live_window,
    .start = live_start,
    .stop = live_stop,
    .add_health = live_add_health,
    .free = live_free,
};

int source_live(struct source *out)
{
	struct live *l = calloc(1, sizeof(*l));
	if (!l || !(l->s = session_new())) {
		free(l);
		return -ENOMEM;
	}
	l->last = SESS_IDLE;
	out->ops = &live_ops;
	out->ctx = l;
	return 0;
}

/* ---- nothing to show ---- */

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
	o->state = "IDLE";
	o->title = o->step_kind = o->rows_from = o->name = o->dir = "";
}

static int none_nrows(const void *ctx, int *cur)
{
	(void)ctx;
	*cur = 0;
	return 0;
}

int source_no_marks(void *ctx, struct source_mark *m, int max)
{
	(void)ctx;
	(void)m;
	(void)max;
	return 0;
}

size_t source_no_health(const void *ctx, const struct source_health **pts)
{
	(void)ctx;
	*pts = NULL;
	return 0;
}

unsigned source_no_poll(void *ctx, double dt)
{
	(void)ctx;
	(void)dt;
	return 0;
}

bool source_no_event(void *ctx, struct source_event *ev)
{
	(void)ctx;
	(void)ev;
	return false;
}

bool source_not_running(const void *ctx)
{
	(void)ctx;
	return false;
}

int source_no_note(void *ctx, const char *text)
{
	(void)ctx;
	(void)text;
	return -ESRCH;
}

static void none_free(void *ctx)
{
	(void)ctx;
}

static const struct source_ops none_ops = {
    .name = "none",
    .ntargets = none_ntargets,
    .target = none_target,
    .series = none_series,
    .info = none_info,
    .nrows = none_nrows,
    .marks = source_no_marks,
    .health = source_no_health,
    .poll = source_no_poll,
    .event = source_no_event,
    .running = source_not_running,
    .note = source_no_note,
    .free = none_free,
};

void source_none(struct source *out)
{
	out->ops = &none_ops;
	out->ctx = NULL;
}

void source_default_dir(const char *name, char *buf, size_t len)
{
	session_default_dir(name, buf, len);
}

void source_free(struct source *s)
{
	if (s->ops && s->ops->free)
		s->ops->free(s->ctx);
	source_none(s);
}

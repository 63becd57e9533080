/* plansrc.c - a plan as the console's source (source.h), in one of three
 * ways:
 *   - run by this console: the plan's thread (planexec.h) and its results
 *     directory followed (planview.h) - the current step's samples, table
 *     and rounds; its steps' results as they end; its end;
 *   - followed: the same directory written by another `nvscope plan`;
 *   - played back: a finished plan's steps' samples one after another on
 *     one time axis (a replay.h of the joined series), the step at the play
 *     position shown as a running plan shows its current step.
 * Nothing but files and planexec's two atomics is shared with the plan's
 * thread.  UI thread only. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "config/plan.h"
#include "dev/safety.h"
#include "report/csv.h"
#include "run/dirread.h"
#include "run/planexec.h"
#include "run/planres.h"
#include "run/planrun.h"
#include "run/planview.h"
#include "run/replay.h"
#include "run/source.h"
#include "run/stepmarks.h"

#define EVQ 32 /* events held between two reads (one frame: a few at most) */

struct plansrc {
	struct planview *v;  /* the results directory followed; NULL: it could not be */
	struct planexec *pe; /* the plan's thread when this console runs it */
	struct replay *rp;   /* a finished plan played back */
	int rc;		     /* the plan's end: 1 before, then 0 or -errno */
	bool ending;	     /* its end is being reported: note() still logs */
	bool forced;	     /* the next poll takes the view's state */
	char name[64];
	/* the steps' results, and the steps that ended so far */
	struct planres pres[PLAN_MAX_STEPS];
	bool pres_ok[PLAN_MAX_STEPS];
	unsigned pv_step;     /* the step last seen current */
	bool pv_seen, pv_fin; /* pv_step is valid; the end was reported */
	/* a replay: step i is [start[i], start[i + 1]) on its time axis */
	double pstep_start[PLAN_MAX_STEPS + 1];
	unsigned rstep; /* the step at the play position */
	unsigned shown; /* the step whose rounds are loaded */
	unsigned epoch;
	struct rounds rr; /* the step's rounds.csv */
	struct source_rounds rounds;
	bool has_rounds;
	struct source_event evq[EVQ];
	unsigned evh, evn;
};

static const struct series empty_series;

static void push_event(struct plansrc *p, enum source_level lv, unsigned flags, const char *fmt,
		       ...) __attribute__((format(printf, 4, 5)));
static void push_event(struct plansrc *p, enum source_level lv, unsigned flags, const char *fmt,
		       ...)
{
	if (p->evn == EVQ) /* not read for EVQ events: the oldest gives way */
		p->evh = (p->evh + 1) % EVQ, p->evn--;
	struct source_event *e = &p->evq[(p->evh + p->evn++) % EVQ];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	e->level = lv;
	e->flags = flags;
}

/* ---- the steps' results ---- */

/* Reads the result of step @i (its step.json, steady.json). */
static bool read_result(struct plansrc *p, unsigned i)
{
	char dir[1200];
	if (i >= PLAN_MAX_STEPS || !p->v || planview_step_dir_of(p->v, i, dir, sizeof(dir)))
		return false;
	p->pres_ok[i] = !planres_read(dir, &p->pres[i]);
	return p->pres_ok[i];
}

static bool step_destroys(const struct plan_step *st)
{
	return st->kind == STEP_PURGE || st->kind == STEP_FILL || spec_writes(&st->spec);
}

/* Step @i's result as an event (a precondition that did not reach steady
 * state as an error); @wrote: the devices may have changed. */
static void step_event(struct plansrc *p, unsigned i, bool wrote)
{
	const struct plan *pl = planview_plan(p->v);
	char verdict[160];
	if (i >= pl->nsteps || i >= PLAN_MAX_STEPS || !p->pres_ok[i])
		return;
	planres_verdict(&p->pres[i], verdict, sizeof(verdict));
	push_event(p, planres_failed(&p->pres[i]) ? SOURCE_EV_ERROR : SOURCE_EV_OK,
		   wrote ? SOURCE_EV_WROTE : 0, "step %u/%u %s: %s", i + 1, pl->nsteps,
		   pl->steps[i].name, verdict[0] ? verdict : "done");
}

/* Step @i has ended while followed: its result as an event. */
static void step_ended(struct plansrc *p, unsigned i)
{
	const struct plan *pl = planview_plan(p->v);
	if (i >= pl->nsteps)
		return;
	if (!read_result(p, i)) { /* no result read: still an event */
		bool w = p->pe && step_destroys(&pl->steps[i]);
		push_event(p, SOURCE_EV_OK, w ? SOURCE_EV_WROTE : 0, "step %u/%u %s: done", i + 1,
			   pl->nsteps, pl->steps[i].name);
		return;
	}
	step_event(p, i, p->pe && step_destroys(&pl->steps[i]));
}

/* The steps that ended since the last poll. */
static void follow_steps(struct plansrc *p)
{
	unsigned cur = planview_cur(p->v);
	bool fin = planview_finished(p->v);
	if (!p->pv_seen) { /* what had ended before: results, no events */
		for (unsigned i = 0; i < cur || (fin && i == cur); i++)
			if (!read_result(p, i))
				break;
		p->pv_seen = true;
		p->pv_step = cur;
		p->pv_fin = fin;
		return;
	}
	while (p->pv_step < cur)
		step_ended(p, p->pv_step++);
	if (fin && !p->pv_fin) {
		p->pv_fin = true;
		step_ended(p, cur);
	}
}

/* ---- the step shown: its rounds, its table (a replay) ---- */

static bool has_rounds_kind(const char *kind)
{
	return kind && (!strcmp(kind, "precondition") || !strcmp(kind, "matrix"));
}

/* The rounds of step @k in directory @dir, at @t0 on the source's axis,
 * and the rule it ran with (the plan file's, then its steady.json). */
static void load_rounds(struct plansrc *p, unsigned k, const char *dir, double t0)
{
	p->rr.n = 0;
	p->has_rounds = false;
	if (!has_rounds_kind(planview_step_kind(p->v, k)) || dirread_rounds(dir, &p->rr))
		return;
	const struct steady_params *rule = planview_step_rule(p->v, k);
	p->has_rounds = true;
	p->rounds.r = &p->rr;
	p->rounds.t0 = t0;
	p->rounds.has_rule = rule && rule->rule == STEADY_SNIA;
	if (p->rounds.has_rule)
		p->rounds.rule = *rule;
	else
		steady_params_init(&p->rounds.rule);
	p->rounds.has_rule |= dirread_rule(dir, &p->rounds.rule);
}

/* A replay shows step @k: its table (qd.csv, rate.csv with the rate asked,
 * grid.csv) as the per-QD rows, its rounds and rule. */
static void show_step(struct plansrc *p, unsigned k)
{
	char dir[1200], path[1300];
	p->rstep = k;
	p->epoch++;
	replay_set_rows(p->rp, NULL, 0);
	p->has_rounds = false;
	if (planview_step_dir_of(p->v, k, dir, sizeof(dir)))
		return;
	const struct plan_step *st = &planview_plan(p->v)->steps[k];
	const char *tab = st->kind == STEP_MEASURE	? RESDIR_QD
			  : st->kind == STEP_RATE_CURVE ? RESDIR_RATE
			  : st->kind == STEP_GRID	? RESDIR_GRID
							: NULL;
	struct resdir_row *rows = NULL;
	int n = 0;
	if (tab && snprintf(path, sizeof(path), "%s/%s", dir, tab) < (int)sizeof(path))
		n = resdir_table_read(path,
				      st->kind == STEP_MEASURE ? RESDIR_TABLE_QD
				      : st->kind == STEP_GRID  ? RESDIR_TABLE_GRID
							       : RESDIR_TABLE_RATE,
				      &rows);
	replay_set_rows(p->rp, n > 0 ? rows : NULL, n);
	if (n <= 0)
		free(rows);
	char step[96];
	snprintf(step, sizeof(step), " step %u/%u %.60s", k + 1, planview_nsteps(p->v),
		 planview_step_name(p->v, k));
	replay_set_step(p->rp, step, planview_step_kind(p->v, k));
	load_rounds(p, k, dir, p->pstep_start[k]);
}

/* ---- the source table ---- */

static bool replaying(const struct plansrc *p)
{
	return p->rp != NULL;
}

static unsigned ps_ntargets(const void *ctx)
{
	const struct plansrc *p = ctx;
	return p->rp || !p->v ? 1 : planview_ntargets(p->v);
}

static const char *ps_target(const void *ctx, unsigned t)
{
	const struct plansrc *p = ctx;
	const char *s = p->pe		 ? planexec_target(p->pe, t)
			: t == 0 && p->v ? planview_target(p->v)
					 : NULL;
	return s ? s : "";
}

static const struct series *ps_series(void *ctx, int t)
{
	struct plansrc *p = ctx;
	struct source rs;
	if (replaying(p)) {
		replay_source(p->rp, &rs);
		return rs.ops->series(rs.ctx, t);
	}
	if (!p->v)
		return &empty_series;
	/* the current step's rows: aggregate, or target @t's */
	const struct series *s =
	    t < 0 ? planview_series(p->v) : planview_target_series(p->v, (unsigned)t);
	return s ? s : &empty_series;
}

static const char *run_state(const struct plansrc *p)
{
	int rc;
	if (!p->pe) /* following a results directory */
		return p->v && planview_finished(p->v) ? "DONE" : "PLAN";
	if (planexec_running(p->pe) || !planexec_ended(p->pe, &rc))
		return "PLAN";
	return rc == 0 ? "DONE" : "STOPPED";
}

static void ps_info(const void *ctx, struct source_info *o)
{
	const struct plansrc *p = ctx;
	memset(o, 0, sizeof(*o));
	if (replaying(p)) {
		struct source rs;
		replay_source(p->rp, &rs);
		rs.ops->info(rs.ctx, o);
		o->valid |= SOURCE_FILE_ROUNDS; /* a plan: only its own rounds */
	} else {
		const struct series *s = ps_series((void *)ctx, -1);
		o->valid = SOURCE_FILE_ROUNDS;
		o->state = run_state(p);
		o->now_s = o->end_s = s->n ? s->pt[s->n - 1].t : 0;
		o->title = ps_target(p, 0);
		o->rows_from = "from the step's table";
		o->step_kind = "";
		if (p->v) {
			unsigned cur = planview_cur(p->v);
			const char *kind = planview_step_kind(p->v, cur);
			o->step_kind = kind ? kind : "";
			snprintf(o->step, sizeof(o->step), " step %u/%u %.60s", cur + 1,
				 planview_nsteps(p->v), planview_step_name(p->v, cur));
		}
	}
	o->name = p->name;
	o->dir = p->pe ? planexec_dir(p->pe) : "";
	o->epoch = p->epoch;
}

static int ps_nrows(const void *ctx, int *cur)
{
	const struct plansrc *p = ctx;
	int n = 0;
	*cur = 0;
	if (replaying(p)) {
		struct source rs;
		replay_source(p->rp, &rs);
		return rs.ops->nrows(rs.ctx, cur);
	}
	if (p->v)
		planview_rows(p->v, &n);
	return n;
}

static enum source_row ps_row(const void *ctx, unsigned i, struct resdir_row *q)
{
	const struct plansrc *p = ctx;
	int n = 0;
	if (replaying(p)) {
		struct source rs;
		replay_source(p->rp, &rs);
		return rs.ops->row(rs.ctx, i, q);
	}
	*q = planview_rows(p->v, &n)[i];
	return SOURCE_ROW_DONE;
}

/* A step of several measurements (a QD sweep, a rate curve, a grid): each
 * begins with its ramp; labels from the step's table.  A replay: none. */
static int ps_marks(void *ctx, struct source_mark *m, int max)
{
	struct plansrc *p = ctx;
	struct source_info in;
	if (replaying(p) || !p->v)
		return 0;
	ps_info(p, &in);
	const char *kind = in.step_kind;
	if (strcmp(kind, "measure") && strcmp(kind, "rate-curve") && strcmp(kind, "grid"))
		return 0;
	int n = 0;
	const struct resdir_row *rows = planview_rows(p->v, &n);
	return stepmarks_ramps(ps_series(p, -1), rows, n, !strcmp(kind, "rate-curve"), m, max);
}

/* A plan run by this console has ended: its result, the steps' last events
 * and the plan's end as events (which still go to its events.log). */
static void plan_ended(struct plansrc *p)
{
	char cmd[4096];
	const char *dir = planexec_dir(p->pe);
	p->rc = planexec_finish(p->pe);
	p->ending = true;
	if (p->v) {
		planview_poll(p->v);
		follow_steps(p);
	}
	/* a plan that wrote, stopped in the middle of a write too: rescan */
	unsigned fl =
	    SOURCE_EV_ENDED | SOURCE_EV_URGENT | (planexec_destroys(p->pe) ? SOURCE_EV_WROTE : 0);
	if (p->rc == 0) {
		push_event(p, SOURCE_EV_OK, fl, "plan %s done: results in %s", p->name, dir);
		return;
	}
	if (planexec_resume_cmd(p->pe, cmd, sizeof(cmd)))
		snprintf(cmd, sizeof(cmd), "nvscope plan --resume %s", dir);
	push_event(p, SOURCE_EV_ERROR, fl, "plan %s %s (see %s/plan.log; %s)", p->name,
		   p->v && planview_finished(p->v) ? "failed" : "stopped", dir, cmd);
}

/* A plan run or followed: the directory's news, the steps that ended. */
static unsigned poll_run(struct plansrc *p)
{
	unsigned ch = 0;
	p->ending = false;
	if (p->v) {
		/* the plan's thread now: its in-memory rows, how it ended */
		planview_set_exec(p->v, p->pe);
		bool forced = p->forced;
		p->forced = false;
		if (planview_poll(p->v) || forced) {
			unsigned cur = planview_cur(p->v);
			if (cur != p->shown)
				p->epoch++, ch |= SOURCE_CHANGED_STEP;
			p->shown = cur;
			load_rounds(p, cur, planview_step_dir(p->v), 0);
			follow_steps(p);
			ch |= SOURCE_CHANGED_DATA;
		}
	}
	if (p->pe && !planexec_running(p->pe) && p->rc > 0) {
		plan_ended(p);
		ch |= SOURCE_CHANGED_DATA;
	}
	return ch;
}

/* A replay: the play position moved on; the steps it went past. */
static unsigned poll_replay(struct plansrc *p, double dt)
{
	unsigned ch = replay_play(p->rp, dt) ? SOURCE_CHANGED_DATA : 0;
	const struct plan *pl = planview_plan(p->v);
	unsigned n = pl->nsteps < PLAN_MAX_STEPS ? pl->nsteps : PLAN_MAX_STEPS, k = 0;
	double t = replay_time(p->rp);
	/* the last step that has begun (a step without samples takes no time) */
	for (unsigned i = 0; i < n; i++)
		if (p->pstep_start[i] <= t &&
		    (p->pstep_start[i + 1] > p->pstep_start[i] || i == n - 1))
			k = i;
	bool fin = t >= replay_end(p->rp);
	if (k == p->rstep && fin == p->pv_fin)
		return ch;
	/* played on: the results of the steps it went past, as events */
	for (unsigned i = p->rstep; k > p->rstep && i < k; i++)
		step_event(p, i, false);
	if (fin && !p->pv_fin)
		step_event(p, k, false);
	p->pv_fin = fin;
	if (k != p->rstep) {
		show_step(p, k);
		ch |= SOURCE_CHANGED_STEP;
	}
	return ch | SOURCE_CHANGED_DATA;
}

static unsigned ps_poll(void *ctx, double dt)
{
	struct plansrc *p = ctx;
	return replaying(p) ? poll_replay(p, dt) : poll_run(p);
}

static bool ps_event(void *ctx, struct source_event *ev)
{
	struct plansrc *p = ctx;
	if (!p->evn)
		return false;
	*ev = p->evq[p->evh];
	p->evh = (p->evh + 1) % EVQ;
	p->evn--;
	return true;
}

static bool ps_running(const void *ctx)
{
	const struct plansrc *p = ctx;
	return p->pe && planexec_running(p->pe);
}

/* Into the plan's events.log, timestamped: only while it runs and while
 * its end is reported, never into the log of a plan that is over. */
static int ps_note(void *ctx, const char *text)
{
	struct plansrc *p = ctx;
	char msg[256], ts[32];
	struct tm tm;
	if (!p->pe || !planexec_dir(p->pe)[0] || !(planexec_running(p->pe) || p->ending))
		return -ESRCH;
	FILE *f = safety_fopen_in(planexec_dir(p->pe), RESDIR_EVENTS, SAFETY_OUT_APPEND, msg,
				  sizeof(msg));
	if (!f)
		return -EIO;
	time_t now = time(NULL);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%S", localtime_r(&now, &tm));
	fprintf(f, "%s %s\n", ts, text);
	return fclose(f) ? -EIO : 0;
}

static const struct source_rounds *ps_rounds(void *ctx)
{
	struct plansrc *p = ctx;
	return p->has_rounds ? &p->rounds : NULL;
}

static void ps_stop(void *ctx, const char *why)
{
	struct plansrc *p = ctx;
	char cmd[4096];
	(void)why;
	if (!ps_running(p))
		return;
	planexec_stop(p->pe);
	if (planexec_resume_cmd(p->pe, cmd, sizeof(cmd)))
		snprintf(cmd, sizeof(cmd), "nvscope plan --resume %s", planexec_dir(p->pe));
	push_event(p, SOURCE_EV_WARN, 0, "stopping the plan (resumable: %s)", cmd);
}

static void ps_seek(void *ctx, double t)
{
	replay_seek(((struct plansrc *)ctx)->rp, t);
}

static void ps_play(void *ctx, int pause)
{
	replay_pause(((struct plansrc *)ctx)->rp, pause);
}

static void ps_speed(void *ctx, double f)
{
	replay_speed(((struct plansrc *)ctx)->rp, f);
}

static const struct plan *ps_plan(const void *ctx)
{
	const struct plansrc *p = ctx;
	return p->v ? planview_plan(p->v) : NULL;
}

static void ps_plan_state(const void *ctx, struct source_plan_state *o)
{
	const struct plansrc *p = ctx;
	const struct series *s = ps_series((void *)ctx, -1);
	double t = s->n ? s->pt[s->n - 1].t : 0;
	memset(o, 0, sizeof(*o));
	if (replaying(p)) {
		o->cur = p->rstep;
		o->finished = replay_time(p->rp) >= replay_end(p->rp);
		o->elapsed_s = t - p->pstep_start[p->rstep];
		return;
	}
	if (!p->v)
		return;
	o->cur = planview_cur(p->v);
	o->finished = planview_finished(p->v);
	o->has_sub = true;
	o->sub = planview_sub(p->v);
	o->elapsed_s = t;
}

static const struct planres *ps_step_result(const void *ctx, unsigned i)
{
	const struct plansrc *p = ctx;
	return i < PLAN_MAX_STEPS && p->pres_ok[i] ? &p->pres[i] : NULL;
}

static void ps_free(void *ctx)
{
	struct plansrc *p = ctx;
	planexec_free(p->pe); /* stops and joins a running plan: it stays resumable */
	planview_free(p->v);
	replay_free(p->rp);
	rounds_release(&p->rr);
	free(p);
}

#define PLAN_OPS                                                                                   \
	.ntargets = ps_ntargets, .target = ps_target, .series = ps_series, .info = ps_info,        \
	.nrows = ps_nrows, .row = ps_row, .marks = ps_marks, .health = source_no_health,           \
	.poll = ps_poll, .event = ps_event, .running = ps_running, .note = ps_note,                \
	.rounds = ps_rounds, .plan = ps_plan, .plan_state = ps_plan_state,                         \
	.step_result = ps_step_result, .free = ps_free

static const struct source_ops run_ops = {
    .name = "plan",
    .caps = SOURCE_CAN_STOP | SOURCE_HAS_STEPS,
    .stop = ps_stop,
    PLAN_OPS,
};

static const struct source_ops follow_ops = {
    .name = "plan",
    .caps = SOURCE_VIEW_ONLY | SOURCE_HAS_STEPS,
    PLAN_OPS,
};

static const struct source_ops replay_ops = {
    .name = "plan replay",
    .caps = SOURCE_CAN_PLAY | SOURCE_VIEW_ONLY | SOURCE_HAS_STEPS,
    .seek = ps_seek,
    .play = ps_play,
    .speed = ps_speed,
    PLAN_OPS,
};

static struct plansrc *plansrc_new(void)
{
	struct plansrc *p = calloc(1, sizeof(*p));
	if (p) {
		p->rc = 1;
		p->shown = (unsigned)-1;
	}
	return p;
}

int source_plan(struct source_pending *sp, struct source *out, char *err, size_t len)
{
	struct planexec *pe = source_pending_take(sp);
	struct plansrc *p = plansrc_new();
	if (!p) {
		planexec_free(pe);
		snprintf(err, len, "out of memory");
		source_none(out);
		return -ENOMEM;
	}
	p->pe = pe;
	snprintf(p->name, sizeof(p->name), "%s", planexec_name(pe));
	out->ops = &run_ops;
	out->ctx = p;
	return planview_new(planexec_dir(pe), &p->v, err, len);
}

/* A plan's results directory followed (running elsewhere, or ended
 * without samples to play). */
static int plan_follow(const char *dir, struct source *out, char *err, size_t len)
{
	struct plansrc *p = plansrc_new();
	if (!p) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	int ret = planview_new(dir, &p->v, err, len);
	if (ret) {
		free(p);
		return ret;
	}
	planview_poll(p->v);
	snprintf(p->name, sizeof(p->name), "%s", planview_name(p->v));
	p->forced = true;
	out->ops = &follow_ops;
	out->ctx = p;
	return 0;
}

/* Step @i's samples appended to @all at @off; its length in *@last (0: a
 * purge, a bad step: no samples, no time).  0 or -ENOMEM. */
static int join_step(struct plansrc *p, unsigned i, struct series *all, double off, double *last)
{
	char sdir[1200], path[1300], e2[256];
	struct series s = {0};
	int ret = 0;
	*last = 0;
	if (planview_step_dir_of(p->v, i, sdir, sizeof(sdir)))
		return 0;
	read_result(p, i);
	snprintf(path, sizeof(path), "%s/" RESDIR_SAMPLES, sdir);
	if (csv_read_series(path, &s, e2, sizeof(e2)) || !s.n)
		goto out;
	/* a step's time must be a time (a results directory may be hostile):
	 * up to a year, else the step is left out */
	double end = s.pt[s.n - 1].t;
	if (!(s.pt[0].t >= 0 && end >= s.pt[0].t && end <= 366 * 86400.0))
		goto out;
	for (size_t k = 0; k < s.n && !ret; k++) {
		struct point pt = s.pt[k];
		pt.t += off;
		ret = series_push(all, &pt);
	}
	*last = ret ? 0 : end;
out:
	series_release(&s);
	return ret ? -ENOMEM : 0;
}

/* A finished plan's results directory played: its steps' samples one after
 * another.  -ENODATA when it has none (then it is followed). */
static int plan_replay(const char *dir, struct source *out, char *err, size_t len)
{
	struct series all = {0};
	struct plansrc *p = plansrc_new();
	int ret = p ? planview_new(dir, &p->v, err, len) : -ENOMEM;
	if (ret)
		goto fail;
	planview_poll(p->v);
	const struct plan *pl = planview_plan(p->v);
	unsigned n = pl->nsteps < PLAN_MAX_STEPS ? pl->nsteps : PLAN_MAX_STEPS;
	double off = 0, last;
	for (unsigned i = 0; i < n; i++) {
		p->pstep_start[i] = off;
		if ((ret = join_step(p, i, &all, off, &last)))
			goto fail;
		off += last;
	}
	p->pstep_start[n] = off;
	ret = -ENODATA;
	if (!all.n || (ret = replay_from_series(dir, &all, &p->rp)))
		goto fail;
	p->pv_seen = true;
	snprintf(p->name, sizeof(p->name), "%s", planview_name(p->v));
	show_step(p, 0);
	out->ops = &replay_ops;
	out->ctx = p;
	return 0;
fail:
	if (ret == -ENOMEM)
		snprintf(err, len, "out of memory");
	else if (ret == -ENODATA)
		snprintf(err, len, "%.400s: no samples to replay", dir);
	series_release(&all);
	if (p) {
		planview_free(p->v);
		free(p);
	}
	return ret;
}

int source_open(const char *dir, struct source *out, char *err, size_t len)
{
	char path[4200];
	struct replay *r;
	/* a plan's results directory: played when it finished with samples,
	 * else followed (still running elsewhere) */
	if (snprintf(path, sizeof(path), "%s/" RESDIR_STATE, dir) < (int)sizeof(path) &&
	    !access(path, R_OK) &&
	    snprintf(path, sizeof(path), "%s/" RESDIR_PLAN_INI, dir) < (int)sizeof(path) &&
	    !access(path, R_OK)) {
		int ret = dirread_plan_finished(dir) ? plan_replay(dir, out, err, len) : -ENODATA;
		return ret == -ENODATA ? plan_follow(dir, out, err, len) : ret;
	}
	int ret = replay_open(dir, &r, err, len);
	if (!ret)
		replay_source(r, out);
	return ret;
}

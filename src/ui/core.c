/* core.c - the bottom of the console: what every view and action uses -
 * the status-line message and the event list (written to the run's
 * events.log through the source), the dirty marks, and the source shown
 * (run/source.h) with the figures read through it.  It calls nothing of
 * ui/ above it (tests/integration/layers.sh counts the call circles). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ui/app.h"

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Keeps @text in the event list and appends it to the run's events.log
 * (the source's: a plan's, a workload's; only while it goes on). */
static void record(struct app *a, int role, const char *text)
{
	time_t now = time(NULL);
	if (!a->ev.list)
		a->ev.list = evlist_new(EVLIST_CAP);
	if (a->ev.list && !evlist_push(a->ev.list, now, role, text)) {
		if (a->ev.back)
			a->ev.back++; /* scrolled back: the same events stay shown */
		if (a->ev.on)
			app_dirty_all(a);
	}
	a->src.ops->note(a->src.ctx, text);
}

static void show(struct app *a, int role, const char *text, bool event)
{
	a->mq.msg_event = event;
	snprintf(a->mq.msg, sizeof(a->mq.msg), "%s", text);
	a->mq.msg_role = role;
	a->mq.msg_until = mono_now() + 6;
	a->scr.dirty[PANE_STATUS] = true;
}

/* A message (@event false: the answer to a key; errors are also recorded)
 * or an event (always recorded; shown unless it would hide a message
 * younger than 2 s, see below).  Out of memory: dropped. */
static void post(struct app *a, int role, bool event, const char *fmt, va_list ap)
{
	char *text = NULL;
	if (vasprintf(&text, fmt, ap) < 0)
		return;
	/* a message younger than 2 s (the answer to a key) stays readable
	 * under a routine event (then in the event list only); errors and
	 * the plan's end are shown at once */
	if (!event || !a->mq.msg[0] || a->mq.msg_event || mono_now() >= a->mq.msg_until - 4 ||
	    role == ROLE_ERROR || a->mq.urgent)
		show(a, role, text, event);
	if (event || role == ROLE_ERROR) /* errors are events */
		record(a, role, text);
	free(text);
}

void app_message(struct app *a, int role, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	post(a, role, false, fmt, ap);
	va_end(ap);
}

void app_event(struct app *a, int role, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	post(a, role, true, fmt, ap);
	va_end(ap);
}

bool app_running(const struct app *a)
{
	return a->src.ops->running(a->src.ctx);
}

struct source app_source(const struct app *a)
{
	return a->src;
}

void app_source_info(const struct app *a, struct source_info *out)
{
	a->src.ops->info(a->src.ctx, out);
}

bool app_can(const struct app *a, unsigned cap)
{
	return (a->src.ops->caps & cap) != 0;
}

void app_show_source(struct app *a, struct source src)
{
	if (src.ctx != a->src.ctx || src.ops != a->src.ops)
		source_free(&a->src);
	a->src = src;
	a->st.rounds.n = 0;
	a->st.was_left = false;
	memset(&a->st.sv, 0, sizeof(a->st.sv));
	a->st.ss_n = (size_t)-1;
	a->hl.health_path[0] = '\0';
	healthset_free(a->hl.hset);
	a->hl.hset = NULL;
	a->view.span = 0;
	a->view.follow = true;
	app_dirty_all(a);
}

const struct series *app_series(struct app *a, int t)
{
	struct source src = app_source(a);
	return src.ops->series(src.ctx, t);
}

unsigned app_ntargets(const struct app *a)
{
	struct source src = app_source(a);
	return src.ops->ntargets(src.ctx);
}

unsigned app_copies(const struct app *a)
{
	struct pane_ctx c = {.src = a->src};
	return pane_copies(&c);
}

const char *app_target_name(const struct app *a, unsigned t)
{
	struct source src = app_source(a);
	return src.ops->target(src.ctx, t);
}

unsigned app_nrows(const struct app *a)
{
	struct source src = app_source(a);
	int cur, n = src.ops->nrows(src.ctx, &cur);
	return n > 0 ? (unsigned)n : 0;
}

void app_time_range(struct app *a, double *t0, double *t1)
{
	const struct series *s = app_series(a, -1);
	double last = s->n ? s->pt[s->n - 1].t : 0;
	struct source_info in;
	app_source_info(a, &in);
	double total = in.valid & SOURCE_HAS_PLANNED ? in.planned_s : 0;
	if (total < last)
		total = last;
	if (a->view.span <= 0) { /* the whole run: to its planned (or real) end */
		*t0 = 0;
		bool planned = (in.valid & SOURCE_HAS_PLANNED) && in.planned_s > 0;
		*t1 = planned || total > 1 ? total : 1;
		return;
	}
	if (a->view.follow || a->view.view_end <= 0)
		*t1 = last > a->view.span ? last : a->view.span;
	else
		*t1 = a->view.view_end;
	*t0 = *t1 - a->view.span;
	if (*t0 < 0) {
		*t0 = 0;
		*t1 = a->view.span;
	}
}

void app_dirty_all(struct app *a)
{
	for (int p = 0; p < PANE_COUNT; p++)
		a->scr.dirty[p] = true;
}

const struct plan *app_plan(const struct app *a, struct source_plan_state *st)
{
	struct pane_ctx c = {.src = a->src};
	return pane_plan(&c, st);
}

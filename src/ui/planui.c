/* planui.c - plans in the console: the list of presets/plans/NAME.ini for the
 * Launch pane, starting a plan (planexec.h: its own thread, after the typed
 * confirmation when it destroys data), following it through its results
 * directory (planview.h) every frame, and the step-list pane.
 *
 * The live screen shows the current step: its samples.csv as the strips and
 * numbers, its table (qd.csv ...) as the per-QD pane and, in a
 * precondition step, its rounds.csv as the steady-state display.  Nothing
 * but files and the two atomics of planexec is shared with the plan thread. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/plan.h"
#include "report/csv.h"
#include "dev/safety.h"
#include "run/planrun.h"
#include "ui/app.h"
#include "run/resdir.h"

void planui_list(struct app *a)
{
	char dir[4200], path[4500];
	struct dirent **ents = NULL;
	a->nplans = 0;
	if (a->demo || plan_dir(dir, sizeof(dir)))
		return;
	int n = scandir(dir, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(ents[i]->d_name);
		struct plan *p = NULL;
		char err[512];
		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		if (l > 4 && !strcmp(ents[i]->d_name + l - 4, ".ini") &&
		    !plan_load(path, NULL, &p, err, sizeof(err))) {
			struct preset_info *ni =
			    realloc(a->plans, (a->nplans + 1) * sizeof(*a->plans));
			if (ni) {
				a->plans = ni;
				struct preset_info *pi = &a->plans[a->nplans++];
				snprintf(pi->name, sizeof(pi->name), "%.*s", (int)(l - 4),
					 ents[i]->d_name);
				snprintf(pi->path, sizeof(pi->path), "%.511s", path);
				snprintf(pi->description, sizeof(pi->description), "%.159s",
					 p->description);
				pi->writes = planrun_destroys(p);
			}
			plan_free(p);
		}
		free(ents[i]);
	}
	free(ents);
}

/* The overrides that let the plan start (typed tokens, --force-destroy)
 * into DIR/events.log, as a workload's go to its events.log. */
static void log_overrides(struct app *a, const char *dir)
{
	char msg[512];
	if (!a->pending_log[0])
		return;
	FILE *f = safety_fopen_in(dir, RESDIR_EVENTS, SAFETY_OUT_APPEND, msg, sizeof(msg));
	if (!f) {
		app_message(a, ROLE_ERROR, "overrides not logged: %s", msg);
		return;
	}
	fprintf(f, "%s", a->pending_log);
	fclose(f);
	a->pending_log[0] = '\0';
}

/* Starts the loaded a->pexec; confirmation done. */
static void start(struct app *a, const char *confirm, bool force)
{
	char dir[600], err[512] = "";
	if (a->results_dir[0] && a->nruns == 0)
		snprintf(dir, sizeof(dir), "%s", a->results_dir);
	else if (a->results_dir[0])
		snprintf(dir, sizeof(dir), "%s-%u", a->results_dir, a->nruns + 1);
	else
		dir[0] = '\0';
	if (planexec_start(a->pexec, dir, confirm, force, err, sizeof(err))) {
		app_message(a, ROLE_ERROR, "plan not started: %s", err);
		planexec_free(a->pexec);
		a->pexec = NULL;
		return;
	}
	log_overrides(a, planexec_dir(a->pexec));
	planview_free(a->pview);
	a->pview = NULL;
	if (planview_new(planexec_dir(a->pexec), &a->pview, err, sizeof(err)))
		app_message(a, ROLE_ERROR, "cannot follow the plan: %s", err);
	a->nruns++;
	a->plan = true;
	a->plan_rc = 1;
	planui_reset_results(a);
	a->have_prounds = false;
	a->rounds.n = 0;
	a->was_left = false;
	memset(&a->sv, 0, sizeof(a->sv));
	a->health_path[0] = '\0';
	healthset_free(a->hset);
	a->hset = NULL;
	a->nhp = 0;
	a->screen = SCREEN_LIVE;
	a->span = 0;
	a->follow = true;
	snprintf(a->run_name, sizeof(a->run_name), "%s", a->plan_name);
	app_event(a, ROLE_OK, "plan %s started on %s (results in %s)", a->plan_name, a->plan_target,
		  planexec_dir(a->pexec));
	app_dirty_all(a);
}

/* The typed token of the next target that --yes-destroy-data (or an
 * earlier answer) does not confirm, or the start. */
static void ask_next(struct app *a)
{
	char need[256] = "", target[256] = "";
	if (planexec_confirmed(a->pexec, a->plan_confirm, need, sizeof(need), target,
			       sizeof(target))) {
		start(a, a->plan_confirm, a->base.force_destroy);
		return;
	}
	a->pending_plan = true;
	char what[96];
	snprintf(what, sizeof(what), "Plan %.60s purges and/or writes", a->plan_name);
	app_ask_token(a, what, target);
}

void planui_begin(struct app *a)
{
	if (!a->pexec)
		return;
	snprintf(a->plan_name, sizeof(a->plan_name), "%s", planexec_name(a->pexec));
	if (!planexec_destroys(a->pexec)) {
		start(a, "", false);
		return;
	}
	if (a->demo) {
		app_message(a, ROLE_WARN, "demo mode: plan %s writes, not started", a->plan_name);
		planexec_free(a->pexec);
		a->pexec = NULL;
		return;
	}
	/* the console's write-safety rule (app_write_check): in use is refused,
	 * data only with --force-destroy on the command line; then the typed
	 * token of every target --yes-destroy-data does not name */
	const char *t;
	char msg[1024];
	a->pending_log[0] = '\0';
	for (unsigned i = 0; (t = planexec_target(a->pexec, i)); i++) {
		msg[0] = '\0';
		int r =
		    app_write_check(a, t, msg, sizeof(msg), a->pending_log, sizeof(a->pending_log));
		if (r) {
			app_message(a, ROLE_ERROR, "refused: %s", msg[0] ? msg : strerror(-r));
			planexec_free(a->pexec);
			a->pexec = NULL;
			return;
		}
	}
	ask_next(a);
}

void planui_confirm(struct app *a, bool ok)
{
	a->pending_plan = false;
	if (!ok || !a->pexec) {
		app_event(a, ROLE_WARN, "not confirmed: nothing written");
		planexec_free(a->pexec);
		a->pexec = NULL;
		return;
	}
	/* the typed token confirms its target (and is logged once started) */
	char list[600];
	size_t l = strlen(a->pending_log);
	if (l + 1 < sizeof(a->pending_log))
		snprintf(a->pending_log + l, sizeof(a->pending_log) - l,
			 "override: typed confirmation %.200s\n", a->pending_path);
	snprintf(list, sizeof(list), "%s%s%s", a->plan_confirm, a->plan_confirm[0] ? "," : "",
		 a->pending_path);
	if (strlen(list) >= sizeof(a->plan_confirm)) {
		app_message(a, ROLE_ERROR, "too many confirmations for one plan");
		planexec_free(a->pexec);
		a->pexec = NULL;
		return;
	}
	memcpy(a->plan_confirm, list, strlen(list) + 1);
	app_event(a, ROLE_WARN, "confirmed by typing %s: plan %s may write it", a->pending_path,
		  a->plan_name);
	ask_next(a);
}

void planui_launch(struct app *a, const char *path)
{
	struct spec s;
	char err[512] = "";
	const char *t[NVS_MAX_TARGETS];
	if (app_running(a)) {
		app_message(a, ROLE_WARN, "a workload is running (s stops it)");
		return;
	}
	spec_init(&s);
	if (app_marked_targets(a, &s, true))
		return;
	for (unsigned i = 0; i < s.ntargets; i++)
		t[i] = s.targets[i];
	planexec_free(a->pexec);
	a->pexec = NULL;
	if (planexec_new(path, t, s.ntargets, &a->pexec, err, sizeof(err))) {
		app_message(a, ROLE_ERROR, "%s", err);
		return;
	}
	snprintf(a->plan_target, sizeof(a->plan_target), "%s", s.targets[0]);
	a->plan_confirm[0] = '\0'; /* from the screen: always typed */
	planui_begin(a);
}

int planui_follow(struct app *a, const char *dir, char *err, size_t len)
{
	int ret = planview_new(dir, &a->pview, err, len);
	if (ret)
		return ret;
	planview_poll(a->pview);
	a->plan = true;
	a->plan_rc = 1;
	planui_reset_results(a);
	a->screen = SCREEN_LIVE;
	snprintf(a->plan_name, sizeof(a->plan_name), "%s", planview_name(a->pview));
	snprintf(a->plan_target, sizeof(a->plan_target), "%s", planview_target(a->pview));
	snprintf(a->run_name, sizeof(a->run_name), "%s", a->plan_name);
	a->pview_poll_forced = true;
	return 0;
}

void planui_stop(struct app *a)
{
	if (planexec_running(a->pexec)) {
		char cmd[4096];
		planexec_stop(a->pexec);
		if (planexec_resume_cmd(a->pexec, cmd, sizeof(cmd)))
			snprintf(cmd, sizeof(cmd), "nvscope plan --resume %s", planexec_dir(a->pexec));
		app_event(a, ROLE_WARN, "stopping the plan (resumable: %s)", cmd);
	}
}

void planui_reset_results(struct app *a)
{
	a->pv_seen = a->pv_fin = false;
	a->pv_step = 0;
	memset(a->pres_ok, 0, sizeof(a->pres_ok));
}

/* Reads the result of step @i (its step.json, steady.json). */
static bool read_result(struct app *a, unsigned i)
{
	char dir[1200];
	if (i >= PLAN_MAX_STEPS || planview_step_dir_of(a->pview, i, dir, sizeof(dir)))
		return false;
	a->pres_ok[i] = !planres_read(dir, &a->pres[i]);
	return a->pres_ok[i];
}

static bool step_destroys(const struct plan_step *st)
{
	return st->kind == STEP_PURGE || st->kind == STEP_FILL || spec_writes(&st->spec);
}

/* Step @i has ended: its result as an event (a precondition that did not
 * reach steady state in the alert role), and the device list rescanned
 * after a step that purged or wrote (the Devices pane shows the new
 * usage). */
static void step_ended(struct app *a, unsigned i)
{
	const struct plan *p = planview_plan(a->pview);
	char verdict[160];
	if (i >= p->nsteps)
		return;
	read_result(a, i);
	const struct planres *r = &a->pres[i];
	planres_verdict(r, verdict, sizeof(verdict));
	bool failed = a->pres_ok[i] && planres_failed(r);
	app_event(a, failed ? ROLE_ERROR : ROLE_OK, "step %u/%u %s: %s", i + 1, p->nsteps,
		  p->steps[i].name, verdict[0] ? verdict : "done");
	if (a->pexec && step_destroys(&p->steps[i])) {
		app_rescan(a);
		a->dirty[PANE_DEVICES] = true;
	}
}

/* A replay played past step @i: its result as an event. */
static void replay_event(struct app *a, unsigned i)
{
	const struct plan *p = planview_plan(a->pview);
	char verdict[160];
	if (i >= p->nsteps || i >= PLAN_MAX_STEPS || !a->pres_ok[i])
		return;
	planres_verdict(&a->pres[i], verdict, sizeof(verdict));
	app_event(a, planres_failed(&a->pres[i]) ? ROLE_ERROR : ROLE_OK, "step %u/%u %s: %s", i + 1,
		  p->nsteps, p->steps[i].name, verdict[0] ? verdict : "done");
}

/* The steps that ended since the last frame. */
static void follow_steps(struct app *a)
{
	unsigned cur = planview_cur(a->pview);
	bool fin = planview_finished(a->pview);
	if (!a->pv_seen) { /* what had ended before: results, no events */
		for (unsigned i = 0; i < cur || (fin && i == cur); i++)
			if (!read_result(a, i))
				break;
		a->pv_seen = true;
		a->pv_step = cur;
		a->pv_fin = fin;
		return;
	}
	while (a->pv_step < cur)
		step_ended(a, a->pv_step++);
	if (fin && !a->pv_fin) {
		a->pv_fin = true;
		step_ended(a, cur);
	}
}

/* ---- replay of a finished plan's results directory: its steps' samples
 * one after another on one time axis, the step at the play position shown
 * as a live plan shows its current step ---- */

/* Shows step @k of the replay: its table, its rounds and rule. */
static void replay_show_step(struct app *a, unsigned k)
{
	char dir[1200], err[256];
	a->rstep = k;
	a->pstep_t0 = a->pstep_start[k];
	replay_set_rows(a->rp, NULL, 0);
	a->have_prounds = false;
	a->prounds.n = 0;
	a->rounds.n = 0;
	memset(&a->sv, 0, sizeof(a->sv));
	a->was_left = false;
	if (planview_step_dir_of(a->pview, k, dir, sizeof(dir)))
		return;
	/* the step's table as the live plan shows it (qd.csv, rate.csv with
	 * the rate asked, grid.csv) */
	const struct plan_step *st = &planview_plan(a->pview)->steps[k];
	const char *tab = st->kind == STEP_MEASURE	? RESDIR_QD
			  : st->kind == STEP_RATE_CURVE ? RESDIR_RATE
			  : st->kind == STEP_GRID	? RESDIR_GRID
							: NULL;
	struct resdir_row *rows = NULL;
	int n = 0;
	char path[1300];
	if (tab && snprintf(path, sizeof(path), "%s/%s", dir, tab) < (int)sizeof(path))
		n = resdir_table_read(path,
				      st->kind == STEP_MEASURE ? RESDIR_TABLE_QD
				      : st->kind == STEP_GRID  ? RESDIR_TABLE_GRID
							       : RESDIR_TABLE_RATE,
				      &rows);
	replay_set_rows(a->rp, n > 0 ? rows : NULL, n);
	if (n <= 0)
		free(rows);
	(void)err;
	const struct steady_params *rule = planview_step_rule(a->pview, k);
	const char *kind = planview_step_kind(a->pview, k);
	char step[96];
	snprintf(step, sizeof(step), " step %u/%u %.60s", k + 1, planview_nsteps(a->pview),
		 planview_step_name(a->pview, k));
	replay_set_step(a->rp, step, kind);
	if (!strcmp(kind, "precondition") || !strcmp(kind, "matrix")) {
		if (!a->ss_given && rule && rule->rule == STEADY_SNIA)
			a->ss = *rule;
		steady_load_plan(a, dir);
	}
	a->ss_n = (size_t)-1; /* the verdict again at the next tick */
	app_dirty_all(a);
}

int planui_replay_load(struct app *a, const char *dir, char *err, size_t len)
{
	char sdir[1200], path[1300];
	int ret = planview_new(dir, &a->pview, err, len);
	if (ret)
		return ret;
	planview_poll(a->pview);
	const struct plan *p = planview_plan(a->pview);
	double off = 0;
	struct series all = {0};
	for (unsigned i = 0; i < p->nsteps && i < PLAN_MAX_STEPS; i++) {
		struct series s = {0};
		a->pstep_start[i] = off;
		if (planview_step_dir_of(a->pview, i, sdir, sizeof(sdir)))
			continue;
		read_result(a, i);
		snprintf(path, sizeof(path), "%s/samples.csv", sdir);
		char e2[256];
		if (csv_read_series(path, &s, e2, sizeof(e2)) || !s.n) {
			series_release(&s);
			continue; /* a purge: no samples, no time */
		}
		/* a step's time must be a time (a results directory may be
		 * hostile): up to a year, else the step is left out */
		double last = s.pt[s.n - 1].t;
		if (!(s.pt[0].t >= 0 && last >= s.pt[0].t && last <= 366 * 86400.0)) {
			series_release(&s);
			continue;
		}
		for (size_t k = 0; k < s.n; k++) {
			struct point pt = s.pt[k];
			pt.t += off;
			if (series_push(&all, &pt)) {
				series_release(&s);
				snprintf(err, len, "out of memory");
				ret = -ENOMEM;
				goto fail;
			}
		}
		off += last;
		series_release(&s);
	}
	a->pstep_start[p->nsteps < PLAN_MAX_STEPS ? p->nsteps : PLAN_MAX_STEPS] = off;
	if (!all.n) {
		snprintf(err, len, "%.400s: no samples to replay", dir);
		ret = -ENODATA;
		goto fail;
	}
	if ((ret = replay_from_series(dir, &all, &a->rp))) {
		snprintf(err, len, "out of memory");
		goto fail;
	}
	a->replay = a->replay_plan = a->plan = true;
	a->plan_rc = 1;
	a->pv_seen = true;
	snprintf(a->plan_name, sizeof(a->plan_name), "%s", planview_name(a->pview));
	snprintf(a->plan_target, sizeof(a->plan_target), "%s", planview_target(a->pview));
	snprintf(a->run_name, sizeof(a->run_name), "%s", a->plan_name);
	replay_show_step(a, 0);
	return 0;
fail:
	series_release(&all);
	planview_free(a->pview);
	a->pview = NULL;
	return ret;
}

void planui_replay_tick(struct app *a)
{
	const struct plan *p = planview_plan(a->pview);
	unsigned n = p->nsteps < PLAN_MAX_STEPS ? p->nsteps : PLAN_MAX_STEPS, k = 0;
	/* the last step that has begun (a step without samples takes no time) */
	for (unsigned i = 0; i < n; i++)
		if (a->pstep_start[i] <= replay_time(a->rp) &&
		    (a->pstep_start[i + 1] > a->pstep_start[i] || i == n - 1))
			k = i;
	bool fin = planui_finished(a);
	a->dirty[PANE_STEPS] = true; /* progress and ETA at the play position */
	if (k == a->rstep && fin == a->pv_fin)
		return;
	/* played on: the results of the steps it went past, as events */
	for (unsigned i = a->rstep; k > a->rstep && i < k; i++)
		replay_event(a, i);
	if (fin && !a->pv_fin)
		replay_event(a, k);
	a->pv_fin = fin;
	if (k != a->rstep)
		replay_show_step(a, k);
	app_dirty_all(a);
}

void planui_tick(struct app *a)
{
	if (!a->plan || !a->pview)
		return;
	/* the plan's thread now: its in-memory rows, how it ended */
	planview_set_exec(a->pview, a->pexec);
	bool running = planexec_running(a->pexec);
	bool forced = a->pview_poll_forced;
	a->pview_poll_forced = false;
	if (planview_poll(a->pview) || forced) {
		unsigned cur = planview_cur(a->pview);
		a->have_prounds = false;
		a->rounds.n = 0;
		const struct steady_params *rule = planview_step_rule(a->pview, cur);
		if (!strcmp(planview_step_kind(a->pview, cur), "precondition") ||
		    !strcmp(planview_step_kind(a->pview, cur), "matrix")) {
			if (!a->ss_given && rule && rule->rule == STEADY_SNIA)
				a->ss = *rule;
			steady_load_plan(a, planview_step_dir(a->pview));
		}
		steady_update(a);
		follow_steps(a);
		app_dirty_all(a);
	}
	if (!running && a->pexec && a->plan_rc > 0) {
		a->plan_rc = planexec_finish(a->pexec);
		a->plan_ending = true; /* these go to its events.log too */
		planview_poll(a->pview);
		follow_steps(a);
		if (planexec_destroys(a->pexec))
			app_rescan(a); /* a stop in the middle of a write too */
		if (a->plan_rc == 0)
			app_event(a, ROLE_OK, "plan %s done: results in %s", a->plan_name,
				  planexec_dir(a->pexec));
		else {
			char cmd[4096];
			if (planexec_resume_cmd(a->pexec, cmd, sizeof(cmd)))
				snprintf(cmd, sizeof(cmd), "nvscope plan --resume %s",
					 planexec_dir(a->pexec));
			app_event(a, ROLE_ERROR, "plan %s %s (see %s/plan.log; %s)", a->plan_name,
				  planview_finished(a->pview) ? "failed" : "stopped",
				  planexec_dir(a->pexec), cmd);
		}
		a->plan_ending = false;
		app_dirty_all(a);
	}
}

/* Writes the pieces @pc[0..n-1] after one another from column @x, each
 * whole or not at all: when one does not fit, an ellipsis ends the row
 * (never a figure cut short).  Returns the columns written. */
static int draw_pieces(struct app *a, WINDOW *w, int y, int x, int maxw, const int *roles,
		       char (*pc)[96], int n)
{
	int used = 0;
	for (int k = 0; k < n; k++) {
		int pw = draw_width(pc[k]);
		if (!pc[k][0])
			continue;
		/* room for this one, and for an ellipsis unless it is the last */
		if (used + pw > maxw || (k < n - 1 && used + pw + 2 > maxw && pc[k + 1][0])) {
			if (used + 2 <= maxw)
				used += draw_str(a, w, y, x + used, 2, ROLE_DIM,
						 a->ascii ? " ~" : " \xe2\x80\xa6");
			break;
		}
		used += draw_str(a, w, y, x + used, pw, roles[k], pc[k]);
	}
	return used;
}

/* The seconds the current step has run: its samples' last time. */
static double step_elapsed(struct app *a)
{
	const struct series *s = a->replay_plan ? app_series(a, -1) : planview_series(a->pview);
	double t = s->n ? s->pt[s->n - 1].t : 0;
	return a->replay_plan ? t - a->pstep_t0 : t;
}

void planui_eta(struct app *a, char *buf, size_t len)
{
	bool unknown, upper;
	const struct plan *p = planview_plan(a->pview);
	unsigned cur = planui_cur(a);
	char d[32];
	if (planui_finished(a)) {
		snprintf(buf, len, "done");
		return;
	}
	double left = planres_eta(p, cur, step_elapsed(a), &unknown, &upper);
	planres_fmt_dur(left, d, sizeof(d));
	snprintf(buf, len, "ETA %s%s",
		 unknown ? ">"
		 : upper ? (a->ascii ? "<=" : "\xe2\x89\xa4")
			 : "",
		 d);
}

unsigned planui_cur(const struct app *a)
{
	return a->replay_plan ? a->rstep : planview_cur(a->pview);
}

bool planui_finished(const struct app *a)
{
	if (a->replay_plan)
		return a->rp && replay_time(a->rp) >= replay_end(a->rp);
	return planview_finished(a->pview);
}

/* The pieces of step @i's row after its name. */
/* (at most 5 pieces) */
static int step_pieces(struct app *a, unsigned i, bool done, bool now, char (*pc)[96], int *roles)
{
	const struct plan *p = planview_plan(a->pview);
	const struct plan_step *st = &p->steps[i];
	int n = 0;
	char d[32];
	if (done) {
		const struct planres *r = &a->pres[i];
		if (i >= PLAN_MAX_STEPS || !a->pres_ok[i] || !r->has_verdict)
			return 0;
		bool bad = !r->attained;
		roles[n] = bad ? ROLE_ERROR : ROLE_OK;
		if (r->attained) {
			snprintf(pc[n++], 96, " steady r%u", r->round);
			return n;
		}
		/* the criterion that failed first, in place of the words "NOT
		 * steady" (the row's mark and colour say it; the width drops
		 * whole parts from the end), then the one that held, the rounds */
		if (!r->has_pct)
			snprintf(pc[n++], 96, " NOT steady");
		else {
			const char *name[2] = {"range", "slope"};
			double v[2] = {r->range_pct, r->slope_pct};
			double lim[2] = {r->range_limit, r->slope_limit};
			for (int pass = 0; pass < 2; pass++)
				for (int k = 0; k < 2; k++) {
					bool held = v[k] <= lim[k];
					if (held != (pass == 1))
						continue;
					roles[n] = held ? ROLE_OK : ROLE_ERROR;
					snprintf(pc[n], 96, "%s%s %.3g%%%s%g%%", n ? ", " : " ", name[k],
						 v[k], held ? "<=" : ">", lim[k]); /* range 25%>20% */
					n++;
				}
		}
		roles[n] = ROLE_ERROR;
		snprintf(pc[n++], 96, " (%u rounds)", r->rounds);
		return n;
	}
	double plan_s = planres_step_seconds(st);
	unsigned units = planres_step_units(st);
	if (!now) {
		if (plan_s > 0) {
			planres_fmt_dur(plan_s, d, sizeof(d));
			roles[n] = ROLE_DIM;
			snprintf(pc[n++], 96, " %s%s",
				 st->kind == STEP_PRECONDITION ? (a->ascii ? "<=" : "\xe2\x89\xa4")
							       : "",
				 d);
		}
		return n;
	}
	unsigned sub = a->replay_plan ? 0 : planview_sub(a->pview);
	roles[n] = ROLE_SELECTED;
	if (st->kind == STEP_PRECONDITION && !a->replay_plan)
		snprintf(pc[n++], 96, " r%u/%u", sub + 1, units);
	else if (units > 1 && !a->replay_plan)
		snprintf(pc[n++], 96, " %u/%u", sub < units ? sub + 1 : units, units);
	double el = step_elapsed(a);
	if (plan_s > 0) {
		double pct = el / plan_s * 100;
		roles[n] = ROLE_SELECTED;
		snprintf(pc[n++], 96, " %.0f%%", pct > 99 ? 99 : pct < 0 ? 0 : pct);
		planres_fmt_dur(plan_s > el ? plan_s - el : 0, d, sizeof(d));
		roles[n] = ROLE_SELECTED;
		snprintf(pc[n++], 96, " %s%s left",
			 st->kind == STEP_PRECONDITION ? (a->ascii ? "<=" : "\xe2\x89\xa4") : "",
			 d);
	} else {
		planres_fmt_dur(el, d, sizeof(d));
		roles[n] = ROLE_SELECTED;
		snprintf(pc[n++], 96, " %s", d);
	}
	return n;
}

void planui_draw_steps(struct app *a, WINDOW *w)
{
	int h = getmaxy(w), wd = getmaxx(w);
	if (!a->pview) {
		draw_header(a, w, "Plan", "");
		return;
	}
	unsigned n = planview_nsteps(a->pview), cur = planui_cur(a);
	bool fin = planui_finished(a);
	char right[64], eta[40];
	planui_eta(a, eta, sizeof(eta));
	snprintf(right, sizeof(right), "%u/%u %s", fin ? n : cur + 1, n, eta);
	char title[96];
	snprintf(title, sizeof(title), "Plan %.60s", a->plan_name);
	/* the title gives way to the progress and ETA */
	if (draw_width(title) + draw_width(right) + 6 > wd)
		snprintf(title, sizeof(title), "Plan");
	draw_header(a, w, title, right);
	/* keep the current step in view */
	int rows = h - 1;
	int first = (int)cur - rows / 2;
	if (first > (int)n - rows)
		first = (int)n - rows;
	if (first < 0)
		first = 0;
	for (int r = 0; r < rows && first + r < (int)n; r++) {
		unsigned i = (unsigned)(first + r);
		bool done = fin || i < cur, now = !fin && i == cur;
		bool failed =
		    done && i < PLAN_MAX_STEPS && a->pres_ok[i] && planres_failed(&a->pres[i]);
		const char *mark = failed ? (a->ascii ? "x" : "\xe2\x9c\x97")
				   : done ? (a->ascii ? "+" : "\xe2\x9c\x93")
				   : now  ? (a->ascii ? ">" : "\xe2\x96\xb6")
					  : " ";
		int role = now ? ROLE_SELECTED : failed ? ROLE_ERROR : done ? ROLE_OK : ROLE_DIM;
		if (now)
			draw_fill(a, w, 1 + r, ROLE_SELECTED);
		int x = draw_fmt(a, w, 1 + r, 0, wd, role, " %s %2u ", mark, i + 1);
		char pc[5][96];
		int roles[5];
		int np = step_pieces(a, i, done, now, pc, roles);
		/* the current step's progress (or a step's verdict) before the
		 * end of a long name: the name then ends in an ellipsis (the
		 * title bar has it whole) */
		int room = wd - x - 1, namew = draw_width(planview_step_name(a->pview, i));
		int keep = np ? draw_width(pc[0]) + (np > 1 ? 2 : 0) : 0; /* + an ellipsis */
		/* a failed step's reason matters more than its name: the name
		 * may shrink to 4 columns for it */
		if ((now || done) && np && namew + keep > room && room - keep >= (failed ? 4 : 8))
			room -= keep;
		char name[200];
		devrows_fit(name, sizeof(name), planview_step_name(a->pview, i), room, a->ascii);
		x += draw_str(a, w, 1 + r, x, room, now ? ROLE_SELECTED : ROLE_NORMAL, name);
		draw_pieces(a, w, 1 + r, x, wd - x - 1, roles, pc, np);
	}
}

void planui_free(struct app *a)
{
	planexec_free(a->pexec); /* stops and joins a running plan */
	a->pexec = NULL;
	planview_free(a->pview);
	a->pview = NULL;
	free(a->plans);
	a->plans = NULL;
}

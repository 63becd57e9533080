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
#include "dev/safety.h"
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
	a->have_prounds = false;
	a->rounds.n = 0;
	a->was_left = false;
	memset(&a->sv, 0, sizeof(a->sv));
	a->health_path[0] = '\0';
	healthmon_free(a->hmon);
	a->hmon = NULL;
	a->nhp = 0;
	a->screen = SCREEN_LIVE;
	a->span = 0;
	a->follow = true;
	snprintf(a->run_name, sizeof(a->run_name), "%s", a->plan_name);
	app_message(a, ROLE_OK, "plan %s started on %s (results in %s)", a->plan_name,
		    a->plan_target, planexec_dir(a->pexec));
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
		app_message(a, ROLE_WARN, "not confirmed: nothing written");
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
		planexec_stop(a->pexec);
		app_message(a, ROLE_WARN, "stopping the plan (resumable: nvscope plan --resume %s)",
			    planexec_dir(a->pexec));
	}
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
		app_dirty_all(a);
	}
	if (!running && a->pexec && a->plan_rc > 0) {
		a->plan_rc = planexec_finish(a->pexec);
		planview_poll(a->pview);
		if (a->plan_rc == 0)
			app_message(a, ROLE_OK, "plan %s done: results in %s", a->plan_name,
				    planexec_dir(a->pexec));
		else
			app_message(a, ROLE_ERROR,
				    "plan %s %s (see %s/plan.log; nvscope plan --resume %s)",
				    a->plan_name, planview_finished(a->pview) ? "failed" : "stopped",
				    planexec_dir(a->pexec), planexec_dir(a->pexec));
		app_dirty_all(a);
	}
}

void planui_draw_steps(struct app *a, WINDOW *w)
{
	int h = getmaxy(w), wd = getmaxx(w);
	if (!a->pview) {
		draw_header(a, w, "Plan", "");
		return;
	}
	unsigned n = planview_nsteps(a->pview), cur = planview_cur(a->pview);
	bool fin = planview_finished(a->pview);
	char right[48];
	snprintf(right, sizeof(right), "step %u/%u", fin ? n : cur + 1, n);
	char title[96];
	snprintf(title, sizeof(title), "Plan %.60s", a->plan_name);
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
		const char *mark = done ? (a->ascii ? "+" : "\xe2\x9c\x93")
				   : now ? (a->ascii ? ">" : "\xe2\x96\xb6")
					 : " ";
		char extra[48] = "";
		if (now && !strcmp(planview_step_kind(a->pview, i), "precondition"))
			snprintf(extra, sizeof(extra), " r%u", planview_sub(a->pview) + 1);
		else if (now && planview_sub(a->pview))
			snprintf(extra, sizeof(extra), " (%u)", planview_sub(a->pview));
		int role = now ? ROLE_SELECTED : done ? ROLE_OK : ROLE_DIM;
		if (now)
			draw_fill(a, w, 1 + r, ROLE_SELECTED);
		draw_fmt(a, w, 1 + r, 0, wd, role, " %s %2u %s%s", mark, i + 1,
			 planview_step_name(a->pview, i), extra);
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

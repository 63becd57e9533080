/* planui.c - plans in the console: the list of presets/plans/NAME.ini for the
 * Launch pane, starting a plan (source_pending_*: its own thread, after the typed
 * confirmation when it destroys data; then shown through its source,
 * run/source.h), and the step-list pane drawn from that source: per step
 * its mark, verdict, progress and the plan's ETA. */
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
#include "ui/app.h"

void planui_list(struct app *a)
{
	char dir[4200], path[4500];
	struct dirent **ents = NULL;
	a->lp.nplans = 0;
	if (a->fl.demo || plan_dir(dir, sizeof(dir)))
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
			    realloc(a->lp.plans, (a->lp.nplans + 1) * sizeof(*a->lp.plans));
			if (ni) {
				a->lp.plans = ni;
				struct preset_info *pi = &a->lp.plans[a->lp.nplans++];
				snprintf(pi->name, sizeof(pi->name), "%.*s", (int)(l - 4),
					 ents[i]->d_name);
				snprintf(pi->path, sizeof(pi->path), "%.511s", path);
				snprintf(pi->description, sizeof(pi->description), "%.159s",
					 p->description);
				pi->writes = source_plan_writes(p);
			}
			plan_free(p);
		}
		free(ents[i]);
	}
	free(ents);
}

/* The overrides that let the plan start (typed tokens, --force-destroy)
 * into its events.log, as a workload's go to its events.log. */
static void log_overrides(struct app *a)
{
	for (char *l = a->run.pending_log, *e; *l; l = e + 1) {
		if (!(e = strchr(l, '\n')))
			break;
		*e = '\0';
		if (a->src.ops->note(a->src.ctx, l)) {
			app_message(a, ROLE_ERROR, "overrides not logged in the plan's events.log");
			break;
		}
	}
	a->run.pending_log[0] = '\0';
}

/* Starts the loaded a->pl.loaded; confirmation done. */
static void start(struct app *a, const char *confirm, bool force)
{
	char dir[600], err[512] = "";
	if (!app_results_dir(a, dir, sizeof(dir)))
		dir[0] = '\0';
	if (source_pending_start(a->pl.loaded, dir, confirm, force, err, sizeof(err))) {
		app_message(a, ROLE_ERROR, "plan not started: %s", err);
		source_pending_free(a->pl.loaded);
		a->pl.loaded = NULL;
		return;
	}
	struct source_pending *pe = a->pl.loaded;
	struct source src;
	a->pl.loaded = NULL;
	int ret = source_plan(pe, &src, err, sizeof(err)); /* takes @pe */
	app_show_source(a, src);
	if (ret)
		app_message(a, ROLE_ERROR, "cannot follow the plan: %s", err);
	log_overrides(a);
	a->run.nruns++;
	a->run.run_writes = false;
	a->scr.screen = SCREEN_LIVE;
	snprintf(a->run.run_name, sizeof(a->run.run_name), "%s", a->pl.plan_name);
	struct source_info in;
	app_source_info(a, &in);
	app_event(a, ROLE_OK, "plan %s started on %s (results in %s)", a->pl.plan_name,
		  a->pl.plan_target, in.dir);
	app_dirty_all(a);
}

/* The typed token of the next target that --yes-destroy-data (or an
 * earlier answer) does not confirm, or the start. */
static void ask_next(struct app *a)
{
	char need[256] = "", target[256] = "";
	if (source_pending_confirmed(a->pl.loaded, a->pl.plan_confirm, need, sizeof(need), target,
				     sizeof(target))) {
		start(a, a->pl.plan_confirm, a->run.base.force_destroy);
		return;
	}
	char what[96];
	snprintf(what, sizeof(what), "Plan %.60s purges and/or writes", a->pl.plan_name);
	app_ask_token(a, what, target, planui_confirm);
}

void planui_begin(struct app *a)
{
	if (!a->pl.loaded)
		return;
	snprintf(a->pl.plan_name, sizeof(a->pl.plan_name), "%s", source_pending_name(a->pl.loaded));
	if (!source_pending_destroys(a->pl.loaded)) {
		start(a, "", false);
		return;
	}
	if (a->fl.demo) {
		app_message(a, ROLE_WARN, "demo mode: plan %s writes, not started",
			    a->pl.plan_name);
		source_pending_free(a->pl.loaded);
		a->pl.loaded = NULL;
		return;
	}
	/* the console's write-safety rule (app_write_check): in use is refused,
	 * data only with --force-destroy on the command line; then the typed
	 * token of every target --yes-destroy-data does not name */
	const char *t;
	char msg[1024];
	a->run.pending_log[0] = '\0';
	for (unsigned i = 0; (t = source_pending_target(a->pl.loaded, i)); i++) {
		msg[0] = '\0';
		int r = app_write_check(a, t, msg, sizeof(msg), a->run.pending_log,
					sizeof(a->run.pending_log));
		if (r) {
			app_message(a, ROLE_ERROR, "refused: %s", msg[0] ? msg : strerror(-r));
			source_pending_free(a->pl.loaded);
			a->pl.loaded = NULL;
			return;
		}
	}
	ask_next(a);
}

void planui_confirm(struct app *a, bool ok)
{
	if (!ok || !a->pl.loaded) {
		app_event(a, ROLE_WARN, "not confirmed: nothing written");
		source_pending_free(a->pl.loaded);
		a->pl.loaded = NULL;
		return;
	}
	/* the typed token confirms its target (and is logged once started) */
	char list[600];
	size_t l = strlen(a->run.pending_log);
	if (l + 1 < sizeof(a->run.pending_log))
		snprintf(a->run.pending_log + l, sizeof(a->run.pending_log) - l,
			 "override: typed confirmation %.200s\n", a->run.pending_path);
	snprintf(list, sizeof(list), "%s%s%s", a->pl.plan_confirm, a->pl.plan_confirm[0] ? "," : "",
		 a->run.pending_path);
	if (strlen(list) >= sizeof(a->pl.plan_confirm)) {
		app_message(a, ROLE_ERROR, "too many confirmations for one plan");
		source_pending_free(a->pl.loaded);
		a->pl.loaded = NULL;
		return;
	}
	memcpy(a->pl.plan_confirm, list, strlen(list) + 1);
	app_event(a, ROLE_WARN, "confirmed by typing %s: plan %s may write it", a->run.pending_path,
		  a->pl.plan_name);
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
	for (unsigned i = 0; i < s.ntargets; i++) /* a plan purges and writes */
		if (app_probing(a, s.targets[i], "plan"))
			return;
	for (unsigned i = 0; i < s.ntargets; i++)
		t[i] = s.targets[i];
	source_pending_free(a->pl.loaded);
	a->pl.loaded = NULL;
	if (source_pending_new(path, t, s.ntargets, &a->pl.loaded, err, sizeof(err))) {
		app_message(a, ROLE_ERROR, "%s", err);
		return;
	}
	snprintf(a->pl.plan_target, sizeof(a->pl.plan_target), "%s", s.targets[0]);
	a->pl.plan_confirm[0] = '\0'; /* from the screen: always typed */
	planui_begin(a);
}

/* Writes the pieces @pc[0..n-1] after one another from column @x, each
 * whole or not at all: when one does not fit, an ellipsis ends the row
 * (never a figure cut short).  Returns the columns written. */
static int draw_pieces(struct paint *pa, WINDOW *w, int y, int x, int maxw, const int *roles,
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
				used += draw_str(pa, w, y, x + used, 2, ROLE_DIM,
						 pa->ascii ? " ~" : " \xe2\x80\xa6");
			break;
		}
		used += draw_str(pa, w, y, x + used, pw, roles[k], pc[k]);
	}
	return used;
}

void planui_eta(const struct pane_ctx *c, char *buf, size_t len)
{
	bool unknown, upper;
	struct source_plan_state st;
	const struct plan *p = pane_plan(c, &st);
	char d[32];
	if (!p || st.finished) {
		snprintf(buf, len, "done");
		return;
	}
	double left = planres_eta(p, st.cur, st.elapsed_s, &unknown, &upper);
	planres_fmt_dur(left, d, sizeof(d));
	snprintf(buf, len, "ETA %s%s",
		 unknown ? ">"
		 : upper ? (c->p->ascii ? "<=" : "\xe2\x89\xa4")
			 : "",
		 d);
}

/* The pieces of step @i's row after its name (at most 5); @terse: a
 * failed criterion without its figure ("range>0%"), for a narrow list. */
static int step_pieces(const struct pane_ctx *c, const struct plan *p,
		       const struct source_plan_state *ps, unsigned i, char (*pc)[96], int *roles,
		       bool terse)
{
	const struct plan_step *st = &p->steps[i];
	bool done = ps->finished || i < ps->cur, now = !ps->finished && i == ps->cur;
	int n = 0;
	char d[32];
	if (done) {
		const struct planres *r = c->src.ops->step_result(c->src.ctx, i);
		if (!r || !r->has_verdict)
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
					if (terse) /* range>20% */
						snprintf(pc[n], 96, "%s%s%s%g%%", n ? ", " : " ",
							 name[k], held ? "<=" : ">", lim[k]);
					else /* range 25%>20% */
						snprintf(pc[n], 96, "%s%s %.3g%%%s%g%%",
							 n ? ", " : " ", name[k], v[k],
							 held ? "<=" : ">", lim[k]);
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
				 st->kind == STEP_PRECONDITION
				     ? (c->p->ascii ? "<=" : "\xe2\x89\xa4")
				     : "",
				 d);
		}
		return n;
	}
	unsigned sub = ps->sub;
	roles[n] = ROLE_SELECTED;
	if (st->kind == STEP_PRECONDITION && ps->has_sub)
		snprintf(pc[n++], 96, " r%u/%u", sub + 1, units);
	else if (units > 1 && ps->has_sub)
		snprintf(pc[n++], 96, " %u/%u", sub < units ? sub + 1 : units, units);
	double el = ps->elapsed_s;
	if (plan_s > 0) {
		double pct = el / plan_s * 100;
		roles[n] = ROLE_SELECTED;
		snprintf(pc[n++], 96, " %.0f%%", pct > 99 ? 99 : pct < 0 ? 0 : pct);
		planres_fmt_dur(plan_s > el ? plan_s - el : 0, d, sizeof(d));
		roles[n] = ROLE_SELECTED;
		snprintf(pc[n++], 96, " %s%s left",
			 st->kind == STEP_PRECONDITION ? (c->p->ascii ? "<=" : "\xe2\x89\xa4") : "",
			 d);
	} else {
		planres_fmt_dur(el, d, sizeof(d));
		roles[n] = ROLE_SELECTED;
		snprintf(pc[n++], 96, " %s", d);
	}
	return n;
}

void planui_draw_steps(const struct pane_ctx *c, WINDOW *w)
{
	int h = getmaxy(w), wd = getmaxx(w);
	struct source_plan_state ps;
	struct source_info in;
	const struct plan *p = pane_plan(c, &ps);
	if (!p) {
		draw_header(c->p, w, "Plan", "");
		return;
	}
	pane_info(c, &in);
	unsigned n = p->nsteps, cur = ps.cur;
	bool fin = ps.finished;
	char right[64], eta[40];
	planui_eta(c, eta, sizeof(eta));
	snprintf(right, sizeof(right), "%u/%u %s", fin ? n : cur + 1, n, eta);
	char title[96];
	snprintf(title, sizeof(title), "Plan %.60s", in.name);
	/* the title gives way to the progress and ETA */
	if (draw_width(title) + draw_width(right) + 6 > wd)
		snprintf(title, sizeof(title), "Plan");
	draw_header(c->p, w, title, right);
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
		const struct planres *res = done ? c->src.ops->step_result(c->src.ctx, i) : NULL;
		bool failed = res && planres_failed(res);
		const char *mark = failed ? (c->p->ascii ? "x" : "\xe2\x9c\x97")
				   : done ? (c->p->ascii ? "+" : "\xe2\x9c\x93")
				   : now  ? (c->p->ascii ? ">" : "\xe2\x96\xb6")
					  : " ";
		int role = now ? ROLE_SELECTED : failed ? ROLE_ERROR : done ? ROLE_OK : ROLE_DIM;
		if (now)
			draw_fill(c->p, w, 1 + r, ROLE_SELECTED);
		int x = draw_fmt(c->p, w, 1 + r, 0, wd, role, " %s %2u ", mark, i + 1);
		char pc[5][96];
		int roles[5];
		int np = step_pieces(c, p, &ps, i, pc, roles, false);
		/* the current step's progress (or a step's verdict) before the
		 * end of a long name: the name then ends in an ellipsis (the
		 * title bar has it whole) */
		int room = wd - x - 1, namew = draw_width(p->steps[i].name);
		int keep = np ? draw_width(pc[0]) + (np > 1 ? 2 : 0) : 0; /* + an ellipsis */
		if (failed && np && room - keep < 4) { /* narrow (80x24): which criterion
							* failed, its figure in the event list */
			np = step_pieces(c, p, &ps, i, pc, roles, true);
			keep = np ? draw_width(pc[0]) + (np > 1 ? 2 : 0) : 0;
		}
		/* a failed step's reason matters more than its name: the name
		 * may shrink to 4 columns for it */
		if ((now || done) && np && namew + keep > room && room - keep >= (failed ? 4 : 8))
			room -= keep;
		char name[200]; /* not padded: what follows it (the progress, the
				 * verdict) right after it, at any width */
		devrows_fit(name, sizeof(name), p->steps[i].name, namew < room ? namew : room,
			    c->p->ascii);
		x += draw_str(c->p, w, 1 + r, x, room, now ? ROLE_SELECTED : ROLE_NORMAL, name);
		draw_pieces(c->p, w, 1 + r, x, wd - x - 1, roles, pc, np);
	}
}

void planui_free(struct app *a)
{
	source_pending_free(a->pl.loaded); /* a plan never started */
	a->pl.loaded = NULL;
	free(a->lp.plans);
	a->lp.plans = NULL;
}

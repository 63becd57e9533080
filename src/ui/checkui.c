/* checkui.c - the console's check view (see checkui.h).  The runner thread
 * owns the batch while it runs; the UI thread reads only each drive's
 * phase/permille atomics and the batch's phase until `done` is set
 * (release), then joins it and reads everything. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "check/out.h"
#include "check/profile.h"
#include "check/resdir.h"
#include "check/run.h"
#include "check/state.h"
#include "ui/app.h"
#include "ui/checkui.h"
#include "report/resnames.h"

static const char *const profiles[] = {"quick", "rma"}; /* read-only ones */

struct checkui {
	unsigned prof_idx;
	struct check_profile *prof;
	struct check_drive *d;
	size_t n;
	struct check_batch b;
	pthread_t th;
	bool started, joined;
	atomic_int done, stop;
	int rc;
	char dir[512];
	double t0;
	WINDOW *win;
};

static void *runner(void *arg)
{
	struct checkui *c = arg;
	c->rc = check_run(&c->b, NULL, NULL);
	atomic_store_explicit(&c->done, 1, memory_order_release);
	return NULL;
}

/* After each step, on the check's thread: a failure is kept in @b and
 * shown when the check ends (ncurses belongs to the UI thread). */
static void save_state(struct check_batch *b, void *arg)
{
	char msg[512];
	int rc = check_state_save(b, arg, NULL, msg, sizeof(msg));
	if (rc)
		check_out_fail(b, rc, msg);
}

static int load_profile(struct app *a, struct checkui *c)
{
	char err[512];
	struct check_profile *p = NULL;

	if (check_profile_load(profiles[c->prof_idx], &p, err, sizeof(err))) {
		app_message(a, ROLE_ERROR, "%s", err);
		return -ENOENT;
	}
	if (check_profile_writes(p)) { /* never from the console: no typed confirmation here */
		check_profile_free(p);
		app_message(a, ROLE_ERROR, "%s writes: use nvscope check --yes-destroy-data",
			    profiles[c->prof_idx]);
		return -EPERM;
	}
	check_profile_free(c->prof);
	c->prof = p;
	return 0;
}

int checkui_open(struct app *a)
{
	struct checkui *c;
	struct spec s;
	char err[512];

	if (a->chk || app_running(a) || a->plan || a->purge) {
		app_message(a, ROLE_WARN, "a workload or check is running");
		return -EBUSY;
	}
	if (!a->devs) {
		app_message(a, ROLE_WARN, "no device list (r rescans)");
		return -ENOENT;
	}
	spec_init(&s);
	if (app_marked_targets(a, &s, false))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c || !(c->d = calloc(s.ntargets, sizeof(*c->d)))) {
		free(c);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < s.ntargets; i++) {
		struct check_drive *d = &c->d[c->n];
		bool dup = false;
		if (check_drive_identify(d, s.targets[i], a->devs, err, sizeof(err))) {
			app_message(a, ROLE_ERROR, "%s", err);
			goto fail;
		}
		for (size_t k = 0; k < c->n; k++)
			dup |= !strcmp(c->d[k].serial, d->serial);
		if (!dup) /* a controller and its namespace: one drive */
			c->n++;
	}
	if (load_profile(a, c))
		goto fail;
	a->chk = c;
	app_dirty_all(a);
	return 0;
fail:
	free(c->d);
	free(c);
	return -EINVAL;
}

bool checkui_active(const struct app *a)
{
	return a->chk != NULL;
}

static bool running(const struct checkui *c)
{
	return c->started && !c->joined;
}

static void start(struct app *a)
{
	struct checkui *c = a->chk;
	char err[512];

	if (check_default_dir(c->prof->name, c->dir, sizeof(c->dir))) {
		app_message(a, ROLE_ERROR, "profile name too long for a results directory");
		return;
	}
	if (!check_dir_empty(c->dir)) {
		app_message(a, ROLE_ERROR, "%s exists and is not empty", c->dir);
		return;
	}
	if (check_results_dir(c->dir, true, err, sizeof(err))) { /* safety module */
		app_message(a, ROLE_ERROR, "%s", err);
		return;
	}
	c->b = (struct check_batch){.prof = c->prof,
				    .d = c->d,
				    .n = c->n,
				    .cancel = &c->stop,
				    .dir = c->dir,
				    .checkpoint = save_state,
				    .checkpoint_arg = c->dir};
	c->t0 = (double)time(NULL);
	if (check_write_text(c->dir, RESDIR_CHECK_PROFILE, c->prof->text, err, sizeof(err)) ||
	    check_write_text(c->dir, "VERSION", "nvscope " NVS_VERSION "\n", err, sizeof(err)) ||
	    check_state_save(&c->b, c->dir, NULL, err, sizeof(err)) ||
	    check_write_meta(&c->b, c->dir, "running", c->t0, err, sizeof(err))) {
		app_message(a, ROLE_ERROR, "check not started: %s", err);
		return;
	}
	if (pthread_create(&c->th, NULL, runner, c)) {
		app_message(a, ROLE_ERROR, "cannot start the check thread");
		return;
	}
	c->started = true;
	app_message(a, ROLE_OK, "check %s started on %zu drive%s", c->prof->name, c->n,
		    c->n == 1 ? "" : "s");
}

void checkui_tick(struct app *a)
{
	struct checkui *c = a->chk;

	if (!c)
		return;
	if (running(c))
		a->dirty[PANE_TITLE] = true; /* redraw: progress moves */
	if (!running(c) || !atomic_load_explicit(&c->done, memory_order_acquire))
		return;
	pthread_join(c->th, NULL);
	c->joined = true;
	char err[512];
	if (c->rc) {
		check_write_meta(&c->b, c->dir, "failed", c->t0, err, sizeof(err));
		app_message(a, ROLE_ERROR, "check failed: %s",
			    atomic_load(&c->b.out_rc) ? c->b.out_err : strerror(-c->rc));
		return;
	}
	cJSON *batch = check_batch_json(&c->b, c->dir);
	int rc = check_write_results(&c->b, c->dir, NULL, batch, err, sizeof(err));
	if (rc)
		check_out_fail(&c->b, rc, err);
	cJSON_Delete(batch);
	rc = check_write_meta(&c->b, c->dir, c->b.cancelled ? "interrupted" : "done", c->t0, err,
			      sizeof(err));
	if (rc)
		check_out_fail(&c->b, rc, err);
	if (atomic_load(&c->b.out_rc)) { /* never silent: the results are incomplete */
		app_message(a, ROLE_ERROR, "check %s, results incomplete: %s",
			    c->b.cancelled ? "interrupted" : "done", c->b.out_err);
		return;
	}
	unsigned k[4];
	check_counts(&c->b, k);
	app_message(a, k[JUDGE_FAIL] ? ROLE_ERROR : ROLE_OK,
		    "check %s: %u PASS, %u WARN, %u FAIL: results in %s",
		    c->b.cancelled ? "interrupted" : "done", k[JUDGE_PASS], k[JUDGE_WARN],
		    k[JUDGE_FAIL], c->dir);
}

bool checkui_key(struct app *a, int ch, bool is_key)
{
	struct checkui *c = a->chk;
	int k = is_key ? -ch : ch;

	if (!c)
		return false;
	if (k == '\n' || k == '\r' || k == -KEY_ENTER) {
		if (!c->started)
			start(a);
	} else if (k == 'p' && !c->started) {
		c->prof_idx = (c->prof_idx + 1) % NVS_ARRAY_SIZE(profiles);
		load_profile(a, c);
	} else if (k == 's' && running(c)) {
		atomic_store(&c->stop, 1);
		app_message(a, ROLE_WARN, "stopping the check...");
	} else if (k == 'q' || k == 27) {
		if (running(c)) {
			app_message(a, ROLE_WARN, "the check runs: s stops it");
		} else {
			checkui_free(a);
			app_dirty_all(a);
			return true;
		}
	}
	a->dirty[PANE_TITLE] = true;
	return true; /* the view takes every key */
}

static int verdict_role(enum judge_level l)
{
	return l == JUDGE_PASS	 ? ROLE_OK
	       : l == JUDGE_WARN ? ROLE_WARN
	       : l == JUDGE_FAIL ? ROLE_ERROR
				 : ROLE_DIM;
}

void checkui_draw(struct app *a)
{
	struct checkui *c = a->chk;
	char line[512], why[1024];
	int y = 0;

	if (!c)
		return;
	if (!c->win || getmaxx(c->win) != a->cols || getmaxy(c->win) != a->rows) {
		if (c->win)
			delwin(c->win);
		c->win = newwin(a->rows, a->cols, 0, 0);
		if (!c->win)
			return;
	}
	WINDOW *w = c->win;
	draw_role(a, w, ROLE_NORMAL);
	werase(w);
	for (int r = 0; r < a->rows; r++)
		draw_fill(a, w, r, ROLE_NORMAL);
	int ph = c->started ? atomic_load(&c->b.phase) : CHECK_PHASE_WAIT;
	const char *state = !c->started	     ? "READY"
			    : running(c)     ? "RUNNING"
			    : c->b.cancelled ? "STOPPED"
					     : "DONE";
	snprintf(line, sizeof(line), "%s  %s", state,
		 running(c) ? check_phase_name(&c->b, ph) : "");
	draw_fill(a, w, y, ROLE_TITLE);
	draw_fmt(a, w, y, 1, a->cols - 2, ROLE_TITLE, "nvscope check - profile %s: %s",
		 c->prof->name, c->prof->description);
	draw_str(a, w, y, a->cols - (int)strlen(line) - 1, (int)strlen(line), ROLE_TITLE, line);
	y += 2;
	draw_fmt(a, w, y++, 1, a->cols - 2, ROLE_HEADER, "%-20s %-22s %9s %-18s %5s %-7s %s",
		 "SERIAL", "MODEL", "CAPACITY", "PHASE", "%", "VERDICT", "REASONS");
	for (size_t i = 0; i < c->n && y < a->rows - 2; i++, y++) {
		const struct check_drive *d = &c->d[i];
		int dp = atomic_load(&d->phase), pm = atomic_load(&d->permille);
		bool ended = c->joined && !c->rc;
		snprintf(line, sizeof(line), "%-20.20s %-22.22s %7.1fGB %-18.18s", d->serial,
			 d->model, (double)d->capacity / 1e9,
			 !c->started ? "-"
			 : ended     ? "done"
			 : dp == ph  ? check_phase_name(&c->b, dp)
				     : "waiting");
		int x = 1 + draw_str(a, w, y, 1, a->cols - 2, ROLE_NORMAL, line);
		if (c->started && !ended && dp == ph)
			x += draw_fmt(a, w, y, x, 6, ROLE_NORMAL, " %3d%%", pm / 10);
		else
			x += draw_str(a, w, y, x, 6, ROLE_NORMAL, "      ");
		if (!ended)
			continue;
		x += draw_fmt(a, w, y, x + 1, 8, verdict_role(d->verdict.level), "%-7s",
			      judge_level_name(d->verdict.level));
		judge_summary(&d->verdict, JUDGE_WARN, why, sizeof(why));
		draw_str(a, w, y, x + 2, a->cols - x - 3, ROLE_NORMAL, why[0] ? why : "-");
	}
	draw_fill(a, w, a->rows - 1, ROLE_STATUS);
	draw_fmt(a, w, a->rows - 1, 1, a->cols - 2, ROLE_STATUS, "%s%s",
		 !c->started  ? "Enter start   p profile (quick / rma)   q close"
		 : running(c) ? "s stop the check"
			      : "q close   results: ",
		 c->joined ? c->dir : "");
	if (a->msg[0])
		draw_str(a, w, a->rows - 2, 1, a->cols - 2, a->msg_role, a->msg);
	wnoutrefresh(w);
}

void checkui_free(struct app *a)
{
	struct checkui *c = a->chk;

	if (!c)
		return;
	if (running(c)) {
		atomic_store(&c->stop, 1);
		pthread_join(c->th, NULL);
	}
	if (c->win)
		delwin(c->win);
	check_profile_free(c->prof);
	free(c->d);
	free(c);
	a->chk = NULL;
}

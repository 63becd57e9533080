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
#include "ui/devrows.h"
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
	char dir[600]; /* --results DIR[-N] (512 + a number) or the default */
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

static int load_named(struct app *a, struct checkui *c, const char *name)
{
	char err[512];
	struct check_profile *p = NULL;

	if (check_profile_load(name, &p, err, sizeof(err))) {
		app_message(a, ROLE_ERROR, "%s", err);
		return -ENOENT;
	}
	if (check_profile_writes(p)) { /* never from the console: no typed confirmation here */
		check_profile_free(p);
		app_message(a, ROLE_ERROR, "%s writes: use nvscope check --yes-destroy-data", name);
		return -EPERM;
	}
	check_profile_free(c->prof);
	c->prof = p;
	return 0;
}

static int load_profile(struct app *a, struct checkui *c)
{
	return load_named(a, c, profiles[c->prof_idx]);
}

int checkui_open(struct app *a)
{
	struct checkui *c;
	struct spec s;
	char err[512];

	if (a->vw.chk || app_running(a) || app_can(a, SOURCE_HAS_STEPS) || a->vw.purge) {
		app_message(a, ROLE_WARN, "a workload or check is running");
		return -EBUSY;
	}
	if (!a->dev.devs) {
		app_message(a, ROLE_WARN,
			    a->dev.scanning ? "scanning for devices: a moment"
					    : "no device list (r rescans)");
		return -ENOENT;
	}
	spec_init(&s);
	if (app_marked_targets(a, &s, false))
		return -EINVAL;
	for (unsigned i = 0; i < s.ntargets; i++) /* a check may write */
		if (app_probing(a, s.targets[i], "check"))
			return -EAGAIN;
	c = calloc(1, sizeof(*c));
	if (!c || !(c->d = calloc(s.ntargets, sizeof(*c->d)))) {
		free(c);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < s.ntargets; i++) {
		struct check_drive *d = &c->d[c->n];
		bool dup = false;
		if (check_drive_identify(d, s.targets[i], a->dev.devs, err, sizeof(err))) {
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
	a->vw.chk = c;
	app_dirty_all(a);
	return 0;
fail:
	free(c->d);
	free(c);
	return -EINVAL;
}

static void start(struct app *a);

int checkui_open_start(struct app *a, const char *name, char *err, size_t len)
{
	int rc = checkui_open(a);
	if (!rc && (rc = load_named(a, a->vw.chk, name)))
		checkui_free(a);
	if (rc) { /* the view's message, for stderr: the screen is not open yet */
		snprintf(err, len, "--check %s: %s", name,
			 a->mq.msg[0] ? a->mq.msg : strerror(-rc));
		return rc;
	}
	start(a);
	if (!a->vw.chk->started) {
		snprintf(err, len, "--check %s: %s", name, a->mq.msg);
		checkui_free(a);
		return -EINVAL;
	}
	return 0;
}

bool checkui_active(const struct app *a)
{
	return a->vw.chk != NULL;
}

static bool running(const struct checkui *c)
{
	return c->started && !c->joined;
}

static void start(struct app *a)
{
	struct checkui *c = a->vw.chk;
	char err[512];

	/* --results DIR: the first run, plan or check writes DIR, later ones DIR-2... */
	if (a->run.results_dir[0] ? !app_results_dir(a, c->dir, sizeof(c->dir))
				  : check_default_dir(c->prof->name, c->dir, sizeof(c->dir))) {
		app_message(a, ROLE_ERROR, "the results directory's name is too long");
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
	a->run.nruns++;
	app_message(a, ROLE_OK, "check %s started on %zu drive%s", c->prof->name, c->n,
		    c->n == 1 ? "" : "s");
}

static int verdict_role(enum judge_level l)
{
	return l == JUDGE_PASS	 ? ROLE_OK
	       : l == JUDGE_WARN ? ROLE_WARN
	       : l == JUDGE_FAIL ? ROLE_ERROR
				 : ROLE_DIM;
}

/* The reasons of @d's verdict, joined with "; ": the failed criteria of a
 * WARN or FAIL, why it could not be judged for N/A, "-" for a PASS. */
static void reasons(const struct check_drive *d, char *buf, size_t len)
{
	enum judge_level l = d->verdict.level;
	size_t o = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < d->verdict.n && o + 1 < len; i++) {
		const struct judge_reason *r = &d->verdict.r[i];
		if (l == JUDGE_NA ? r->level != JUDGE_NA : r->level < JUDGE_WARN)
			continue;
		int k = snprintf(buf + o, len - o, "%s%s", o ? "; " : "", r->text);
		o = k < 0 ? o : o + (size_t)k < len ? o + (size_t)k : len - 1;
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

void checkui_tick(struct app *a)
{
	struct checkui *c = a->vw.chk;

	if (!c)
		return;
	if (running(c))
		a->scr.dirty[PANE_TITLE] = true; /* redraw: progress moves */
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
	char why[2048];
	for (size_t i = 0; i < c->n; i++) { /* each verdict, whole, in the event list */
		const struct check_drive *d = &c->d[i];
		reasons(d, why, sizeof(why));
		app_event(a, verdict_role(d->verdict.level), "check %s: %s (%s, %s) %s%s%s",
			  c->prof->name, d->serial, d->model, d->path,
			  judge_level_name(d->verdict.level), strcmp(why, "-") ? ": " : "",
			  strcmp(why, "-") ? why : "");
	}
	unsigned k[4];
	check_counts(&c->b, k);
	app_event(a, k[JUDGE_FAIL] ? ROLE_ERROR : ROLE_OK,
		  "check %s: %u PASS, %u WARN, %u FAIL, %u N/A: results in %s",
		  c->b.cancelled ? "interrupted" : "done", k[JUDGE_PASS], k[JUDGE_WARN],
		  k[JUDGE_FAIL], k[JUDGE_NA], c->dir);
}

void checkui_start(struct app *a)
{
	struct checkui *c = a->vw.chk;
	if (c && !c->started)
		start(a);
}

void checkui_next_profile(struct app *a)
{
	struct checkui *c = a->vw.chk;
	if (!c || c->started)
		return;
	c->prof_idx = (c->prof_idx + 1) % NVS_ARRAY_SIZE(profiles);
	load_profile(a, c);
}

void checkui_stop(struct app *a)
{
	struct checkui *c = a->vw.chk;
	if (!c || !running(c))
		return;
	atomic_store(&c->stop, 1);
	app_message(a, ROLE_WARN, "stopping the check...");
}

bool checkui_close(struct app *a)
{
	struct checkui *c = a->vw.chk;
	if (!c)
		return false;
	if (running(c)) {
		app_message(a, ROLE_WARN, "the check runs: s stops it");
		return false;
	}
	checkui_free(a);
	return true;
}

/* Column widths of the check view for @cols columns.  What the technician
 * files never drops: the serial whole, and once the batch ended, the
 * verdict and its reasons (wrapped onto the next rows rather than cut);
 * the model and the capacity give way first. */
struct ccols {
	int serial, model, cap, phase, reasons;
};

static void columns(const struct checkui *c, int cols, bool ended, struct ccols *k)
{
	int ser = 6, model = 5;
	for (size_t i = 0; i < c->n; i++) {
		int sw = draw_width(c->d[i].serial), mw = draw_width(c->d[i].model);
		ser = sw > ser ? sw : ser;
		model = mw > model ? mw : model;
	}
	*k = (struct ccols){.serial = ser, .model = model > 22 ? 22 : model, .cap = 9, .phase = 18};
	int room = cols - 2 - (k->serial + 1);
	if (ended) { /* serial, verdict, reasons; the model and size if room stays */
		k->phase = 0;
		int rest = room - 8;
		if (rest - (k->model + 1) - (k->cap + 1) < 40)
			k->model = 0;
		if (rest - (k->model ? k->model + 1 : 0) - (k->cap + 1) < 40)
			k->cap = 0;
		k->reasons = rest - (k->model ? k->model + 1 : 0) - (k->cap ? k->cap + 1 : 0);
		return;
	}
	int need = (k->model + 1) + (k->cap + 1) + (k->phase + 1) + 5;
	if (need > room)
		k->model = 0, need -= 23;
	if (need > room)
		k->cap = 0, need -= 10;
	if (need > room)
		k->phase = room - 6 > 8 ? room - 6 : 8;
}

/* Title row: what runs on the left (cut with a marker), the state on the
 * right, never overlapping. */
static void draw_title(struct paint *pa, WINDOW *w, int cols, const struct checkui *c, int ph)
{
	char st[96], left[320], fit[640];
	const char *state = !c->started	     ? "READY"
			    : running(c)     ? "RUNNING"
			    : c->b.cancelled ? "STOPPED"
					     : "DONE";
	snprintf(st, sizeof(st), " %s%s%s ", state, running(c) ? " " : "",
		 running(c) ? check_phase_name(&c->b, ph) : "");
	snprintf(left, sizeof(left), " nvscope check - profile %s: %s", c->prof->name,
		 c->prof->description);
	int sw = draw_width(st), lw = cols - sw;
	draw_fill(pa, w, 0, ROLE_TITLE);
	if (lw > 4) {
		devrows_fit(fit, sizeof(fit), left, lw, pa->ascii);
		draw_str(pa, w, 0, 0, lw, ROLE_TITLE, fit);
	}
	draw_str(pa, w, 0, lw > 0 ? lw : 0, cols, ROLE_TITLE, st);
}

/* Drive @d's row at @y (and its reasons' continuation rows, up to @last);
 * returns the next free row. */
static int draw_drive(struct paint *pa, WINDOW *w, const struct checkui *c,
		      const struct check_drive *d, const struct ccols *k, int y, int last, int ph)
{
	char fit[512], cell[64];
	bool ended = c->joined && !c->rc;
	int dp = atomic_load(&d->phase), pm = atomic_load(&d->permille);
	int x = 1;
	devrows_fit(fit, sizeof(fit), d->serial, k->serial, pa->ascii);
	x += draw_str(pa, w, y, x, k->serial, ROLE_NORMAL, fit) + 1;
	if (k->model) {
		devrows_fit(fit, sizeof(fit), d->model, k->model, pa->ascii);
		x += draw_str(pa, w, y, x, k->model, ROLE_NORMAL, fit) + 1;
	}
	if (k->cap) {
		char sz[24];
		snprintf(cell, sizeof(cell), "%9s", devrows_size(d->capacity, sz, sizeof(sz)));
		x += draw_str(pa, w, y, x, k->cap, ROLE_NORMAL, cell) + 1;
	}
	if (!ended) {
		const char *p = !c->started ? "-"
				: dp == ph  ? check_phase_name(&c->b, dp)
					    : "waiting";
		devrows_fit(fit, sizeof(fit), p, k->phase, pa->ascii);
		x += draw_str(pa, w, y, x, k->phase, ROLE_NORMAL, fit) + 1;
		if (c->started && dp == ph)
			draw_fmt(pa, w, y, x, 5, ROLE_NORMAL, "%3d%%", pm / 10);
		return y + 1;
	}
	x += draw_fmt(pa, w, y, x, 8, verdict_role(d->verdict.level), "%-7s",
		      judge_level_name(d->verdict.level)) +
	     1;
	char why[2048];
	reasons(d, why, sizeof(why));
	/* the reasons whole: wrapped under their column; only when the
	 * rows run out, cut with a marker (the event list has them all) */
	const char *p = why;
	for (int row = y; *p && row <= last; row++) {
		int n = k->reasons > 4 ? k->reasons : 4, b = 0, cols = 0;
		while (p[b] && cols < n) {
			b++;
			while (((unsigned char)p[b] & 0xc0) == 0x80)
				b++;
			cols++;
		}
		if (p[b] && row == last) {
			devrows_fit(fit, sizeof(fit), p, n, pa->ascii);
			draw_str(pa, w, row, x, n, verdict_role(d->verdict.level), fit);
			return row + 1;
		}
		snprintf(fit, sizeof(fit), "%.*s", b, p);
		draw_str(pa, w, row, x, n, ROLE_NORMAL, fit);
		p += b;
		y = row;
	}
	return y + 1;
}

/* Below the drives: the batch's counts (N/A included) and the results
 * directory, whole (wrapped), until the view is closed. */
static void draw_summary(struct paint *pa, WINDOW *w, int cols, int rows, const struct checkui *c,
			 int y)
{
	if (!c->joined || y >= rows - 2)
		return;
	unsigned k[4] = {0};
	check_counts(&c->b, k);
	int role = k[JUDGE_FAIL] ? ROLE_ERROR : k[JUDGE_WARN] || k[JUDGE_NA] ? ROLE_WARN : ROLE_OK;
	draw_fmt(pa, w, y++, 1, cols - 2, c->rc ? ROLE_ERROR : role,
		 "%s: %u PASS, %u WARN, %u FAIL, %u N/A", c->b.cancelled ? "STOPPED" : "DONE",
		 k[JUDGE_PASS], k[JUDGE_WARN], k[JUDGE_FAIL], k[JUDGE_NA]);
	char line[sizeof("results: ") + sizeof(c->dir)];
	snprintf(line, sizeof(line), "results: %s", c->dir);
	int n = cols - 2, len = (int)strlen(line);
	for (int o = 0; o < len && y < rows - 2; o += n, y++)
		draw_fmt(pa, w, y, 1, n, ROLE_NORMAL, "%.*s", n, line + o);
}

void checkui_draw(struct checkui *c, struct paint *pa, const struct ui_screen *scr, const char *msg,
		  int msg_role)
{
	if (!c)
		return;
	WINDOW *w = draw_screen(pa, &c->win);
	if (!w)
		return;
	int ph = c->started ? atomic_load(&c->b.phase) : CHECK_PHASE_WAIT;
	bool ended = c->joined && !c->rc;
	draw_title(pa, w, scr->cols, c, ph);
	struct ccols k;
	columns(c, scr->cols, ended, &k);
	char head[512];
	snprintf(head, sizeof(head), "%-*s ", k.serial, "SERIAL");
	if (k.model)
		snprintf(head + strlen(head), sizeof(head) - strlen(head), "%-*s ", k.model,
			 "MODEL");
	if (k.cap)
		snprintf(head + strlen(head), sizeof(head) - strlen(head), "%9s ", "CAPACITY");
	snprintf(head + strlen(head), sizeof(head) - strlen(head),
		 ended ? "VERDICT REASONS" : "%-*s %%", k.phase, "PHASE");
	draw_str(pa, w, 2, 1, scr->cols - 2, ROLE_HEADER, head);
	/* rows for the drives; 4 kept at the bottom: the counts, the results
	 * directory, a message, the keys */
	int y = 3, last = scr->rows - 5;
	size_t i;
	for (i = 0; i < c->n && y <= last; i++)
		y = draw_drive(pa, w, c, &c->d[i], &k, y, last, ph);
	if (i < c->n) /* never hidden silently */
		draw_fmt(pa, w, last, 1, scr->cols - 2, ROLE_WARN,
			 "%zu more drives: a taller terminal, or E", c->n - i);
	draw_summary(pa, w, scr->cols, scr->rows, c, scr->rows - 4);
	draw_fill(pa, w, scr->rows - 1, ROLE_STATUS);
	draw_str(pa, w, scr->rows - 1, 1, scr->cols - 2, ROLE_STATUS,
		 !c->started  ? "Enter start   p profile (quick / rma)   E events   q close"
		 : running(c) ? "s stop the check   E events"
			      : "q close   E events (every verdict, whole)");
	if (msg) { /* whole in the event list; a cut marked */
		char fit[512];
		devrows_fit(fit, sizeof(fit), msg, scr->cols - 2, pa->ascii);
		draw_str(pa, w, scr->rows - 2, 1, scr->cols - 2, msg_role, fit);
	}
	wnoutrefresh(w);
}

void checkui_free(struct app *a)
{
	struct checkui *c = a->vw.chk;

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
	a->vw.chk = NULL;
}

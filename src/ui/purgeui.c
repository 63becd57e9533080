/* purgeui.c - purge from the console (see purgeui.h).  The menu's items
 * come from the device model (Identify capabilities through
 * dev_ctrl_supports, dev_block_supports); the checks before the dialog are
 * the console's write-safety check (app_write_check) of every namespace the
 * purge claims, and purge_run() repeats all of them (token, in use, data)
 * on its held descriptors.  The runner thread owns the purge_opts and the
 * error text until `done` is set (release); the UI reads only `permille`
 * and `done` before it joins. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "dev/nvme.h"
#include "dev/purge.h"
#include "ui/app.h"
#include "ui/purgeui.h"

enum { PU_MENU, PU_CONFIRM, PU_RUN };

struct pitem {
	const char *label, *name; /* the menu's words, the event's words */
	enum purge_method m;
	int ses;
	bool ok;
	char why[128]; /* why it is greyed */
};

struct purgeui {
	int st;
	char target[256];
	char about[192]; /* "nvme0 QEMU NVMe Ctrl, serial X" or the usage */
	char note[256];	 /* the write-safety reading of the target */
	struct pitem it[7];
	int cur, sel;
	char log[1024]; /* "override: --force-destroy: ..." lines */
	char confirm[256];
	struct purge_opts o;
	pthread_t th;
	atomic_int permille, done;
	int rc, nvme_status;
	char err[512];
	double t0;
};

static const struct pitem items[7] = {
    {"Format NVM, no secure erase", "format", PURGE_FORMAT, 0, false, ""},
    {"Format NVM, user-data erase", "format (user-data erase)", PURGE_FORMAT, 1, false, ""},
    {"Format NVM, cryptographic erase", "format (crypto erase)", PURGE_FORMAT, 2, false, ""},
    {"Sanitize, block erase", "sanitize block erase", PURGE_SANITIZE_BLOCK, 0, false, ""},
    {"Sanitize, crypto erase", "sanitize crypto erase", PURGE_SANITIZE_CRYPTO, 0, false, ""},
    {"Sanitize, overwrite", "sanitize overwrite", PURGE_SANITIZE_OVERWRITE, 0, false, ""},
    {"Trim (deallocate every LBA)", "trim", PURGE_TRIM, 0, false, ""},
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool is_sanitize(enum purge_method m)
{
	return m == PURGE_SANITIZE_BLOCK || m == PURGE_SANITIZE_CRYPTO ||
	       m == PURGE_SANITIZE_OVERWRITE;
}

/* Greys item @i with @why (the first reason found stays). */
static void grey(struct purgeui *p, int i, const char *why)
{
	if (!p->it[i].ok && p->it[i].why[0])
		return;
	p->it[i].ok = false;
	snprintf(p->it[i].why, sizeof(p->it[i].why), "%s", why);
}

/* What each method can do on @p->target, from the device model. */
static void fill_items(struct app *a, struct purgeui *p)
{
	const struct dev_ns *ns = NULL;
	const struct dev_ctrl *c =
	    a->dev.devs ? dev_list_find_nvme(a->dev.devs, p->target, &ns) : NULL;
	const struct dev_block *b =
	    a->dev.devs ? dev_list_find_block(a->dev.devs, p->target) : NULL;
	struct stat st;

	memcpy(p->it, items, sizeof(items));
	for (int i = 0; i < 7; i++)
		p->it[i].ok = true;
	if (c) {
		const char *why;
		snprintf(p->about, sizeof(p->about), "%.31s %.63s, serial %.31s", c->name, c->model,
			 c->serial);
		for (int i = 0; i < 7; i++)
			if (!dev_ctrl_supports(c, p->it[i].m, &why))
				grey(p, i, why);
		if (!c->caps.format_crypto)
			grey(p, 2, "cryptographic erase with format not supported (FNA)");
		if (!c->nr_namespaces) {
			for (int i = 0; i < 7; i++)
				if (!is_sanitize(p->it[i].m))
					grey(p, i, "the controller has no namespaces");
		}
		return;
	}
	if (nvs_nvme_is_nvme(p->target)) {
		for (int i = 0; i < 7; i++)
			grey(p, i, "not in the device list (r rescans)");
		return;
	}
	for (int i = 0; i < 7; i++)
		if (p->it[i].m != PURGE_TRIM)
			grey(p, i, "not NVMe");
	if (b) {
		const char *why;
		if (!dev_block_supports(b, PURGE_TRIM, &why))
			grey(p, 6, why);
		snprintf(p->about, sizeof(p->about), "%.15s %.63s", b->driver, b->model);
	} else if (!stat(p->target, &st) && S_ISREG(st.st_mode)) {
		snprintf(p->about, sizeof(p->about), "a file: trim punches holes");
	} else {
		grey(p, 6, "not a block device or regular file");
	}
}

int purgeui_open(struct app *a)
{
	if (a->vw.purge) {
		app_message(a, ROLE_WARN, "a purge runs already");
		return -EBUSY;
	}
	if (a->fl.demo) {
		app_message(a, ROLE_WARN, "demo mode: purge is disabled");
		return -EPERM;
	}
	if (app_running(a) || a->vw.chk) { /* a plan that ended is no obstacle */
		app_message(a, ROLE_WARN, "a workload, plan or check is running");
		return -EBUSY;
	}
	if (a->dev.dev_cur < 0 || a->dev.dev_cur >= a->dev.ndrows) {
		app_message(a, ROLE_WARN,
			    a->dev.devs ? "no device under the cursor"
					: "scanning for devices: a moment");
		return -ENOENT;
	}
	const struct devrow *r = &a->dev.drows[a->dev.dev_cur];
	if (app_remote_row(a, r, "purge"))
		return -EREMOTE;
	if (app_probing(a, r->path, "purge"))
		return -EAGAIN;
	struct purgeui *p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	snprintf(p->target, sizeof(p->target), "%s", r->path);
	fill_items(a, p);
	if (r->in_use)
		snprintf(p->note, sizeof(p->note), "in use (%.60s): every purge is refused",
			 r->usage);
	else if (r->has_data)
		snprintf(p->note, sizeof(p->note),
			 "holds data (%.60s): refused unless started with --force-destroy",
			 r->usage);
	p->cur = -1;
	for (int i = 0; i < 7 && p->cur < 0; i++)
		if (p->it[i].ok)
			p->cur = i;
	p->st = PU_MENU;
	a->vw.purge = p;
	app_dirty_all(a);
	return 0;
}

bool purgeui_menu_open(const struct app *a)
{
	return a->vw.purge && a->vw.purge->st == PU_MENU;
}

bool purgeui_busy(const struct app *a)
{
	return a->vw.purge && a->vw.purge->st != PU_MENU;
}

static void close_free(struct app *a)
{
	free(a->vw.purge);
	a->vw.purge = NULL;
	app_dirty_all(a);
}

/* The block devices the purge claims: the namespace (a trim of one), every
 * namespace of the controller (format, sanitize, a controller's trim), or
 * the target itself (not NVMe).  Checked as the console checks a write. */
static int precheck(struct app *a, struct purgeui *p, enum purge_method m)
{
	const struct dev_ns *ns = NULL;
	const struct dev_ctrl *c =
	    a->dev.devs ? dev_list_find_nvme(a->dev.devs, p->target, &ns) : NULL;
	char msg[1024];
	int r = 0;

	p->log[0] = '\0';
	if (!c)
		r = app_write_check(a, p->target, msg, sizeof(msg), p->log, sizeof(p->log));
	for (size_t i = 0; c && !r && i < c->nr_namespaces; i++) {
		const struct dev_ns *n = &c->namespaces[i];
		if ((m == PURGE_TRIM && ns && n != ns) || !n->block_device[0])
			continue;
		r = app_write_check(a, n->block_device, msg, sizeof(msg), p->log, sizeof(p->log));
	}
	if (r)
		app_message(a, ROLE_ERROR, "purge refused: %s", msg[0] ? msg : strerror(-r));
	return r;
}

static void answer(struct app *a, bool ok);

static void choose(struct app *a)
{
	struct purgeui *p = a->vw.purge;
	if (p->cur < 0 || !p->it[p->cur].ok) {
		app_message(a, ROLE_WARN,
			    "nothing to choose: every method is greyed (reason beside it)");
		return;
	}
	const struct pitem *it = &p->it[p->cur];
	if (precheck(a, p, it->m)) {
		close_free(a);
		return;
	}
	p->sel = p->cur;
	p->st = PU_CONFIRM;
	char what[96];
	snprintf(what, sizeof(what), "%s of", it->name);
	app_ask_token(a, what, p->target, answer);
	const char *scope = it->m == PURGE_TRIM ? "everything on it is lost"
			    : is_sanitize(it->m)
				? "every namespace of the NVM subsystem is lost; once started a "
				  "sanitize cannot be stopped (not by Esc, not by a reset)"
				: "every namespace formatted is lost";
	snprintf(a->pr.confirm, sizeof(a->pr.confirm), "%.40s of %.100s%s%.80s%s: %s.%s", it->name,
		 p->target, p->about[0] ? " (" : "", p->about, p->about[0] ? ")" : "", scope,
		 strcmp(a->run.pending_path, p->target) ? " Type the NVMe controller's serial."
							: " Type the path.");
	a->pr.confirm_head = "THIS PURGE DESTROYS DATA";
}

static void progress(double pct, void *arg)
{
	struct purgeui *p = arg;
	int pm = pct != pct ? 0 : pct <= 0 ? 0 : pct >= 100 ? 1000 : (int)(pct * 10);
	atomic_store_explicit(&p->permille, pm, memory_order_relaxed);
}

static void *runner(void *arg)
{
	struct purgeui *p = arg;
	p->rc = purge_run(p->target, &p->o, &p->nvme_status, p->err, sizeof(p->err));
	atomic_store_explicit(&p->done, 1, memory_order_release);
	return NULL;
}

/* The destroy dialog's answer for the purge asked (app_ask_token). */
static void answer(struct app *a, bool ok)
{
	struct purgeui *p = a->vw.purge;
	if (!p || p->st != PU_CONFIRM)
		return;
	a->pr.confirm_head = NULL;
	const struct pitem *it = &p->it[p->sel];
	if (!ok) {
		app_event(a, ROLE_WARN, "purge not confirmed: nothing erased on %s", p->target);
		close_free(a);
		return;
	}
	snprintf(p->confirm, sizeof(p->confirm), "%s", a->run.pending_path);
	p->o = (struct purge_opts){.method = it->m,
				   .ses = it->ses,
				   .confirm = p->confirm,
				   .force = a->run.base.force_destroy, /* the command line's only */
				   .progress = progress,
				   .arg = p};
	for (char *l = p->log, *e; *l; l = e + 1) {
		if (!(e = strchr(l, '\n')))
			break;
		*e = '\0';
		app_event(a, ROLE_WARN, "%s", l);
	}
	app_event(a, ROLE_WARN, "override: typed confirmation %.100s for %.200s", p->confirm,
		  p->target);
	p->t0 = now_s();
	p->st = PU_RUN;
	if (pthread_create(&p->th, NULL, runner, p)) {
		app_event(a, ROLE_ERROR, "purge: cannot start its thread");
		close_free(a);
		return;
	}
	pthread_setname_np(p->th, "purge");
	app_event(a, ROLE_WARN, "purge: %s of %s started%s", it->name, p->target,
		  is_sanitize(it->m) ? " (a sanitize cannot be interrupted)" : "");
	app_dirty_all(a);
}

void purgeui_tick(struct app *a)
{
	struct purgeui *p = a->vw.purge;
	static int last = -1;
	if (!p || p->st != PU_RUN)
		return;
	int pm = atomic_load_explicit(&p->permille, memory_order_relaxed);
	if (pm != last) {
		last = pm;
		a->scr.dirty[PANE_TITLE] = true;
	}
	if (!atomic_load_explicit(&p->done, memory_order_acquire))
		return;
	pthread_join(p->th, NULL);
	last = -1;
	const struct pitem *it = &p->it[p->sel];
	double took = now_s() - p->t0;
	if (!p->rc)
		app_event(a, ROLE_OK, "purge: %s of %s done (%.1f s)", it->name, p->target, took);
	else if (p->nvme_status)
		app_event(a, ROLE_ERROR, "purge: %s of %s failed: %s (NVMe status 0x%x: %s)",
			  it->name, p->target, p->err, (unsigned)p->nvme_status,
			  nvs_nvme_status_str(p->nvme_status));
	else
		app_event(a, ROLE_ERROR, "purge: %s of %s failed: %s", it->name, p->target,
			  p->err[0] ? p->err : strerror(-p->rc));
	close_free(a);
	app_rescan(a); /* the Devices pane shows what is left */
}

static void menu_move(struct purgeui *p, int d)
{
	for (int i = p->cur + d; i >= 0 && i < 7; i += d)
		if (p->it[i].ok) {
			p->cur = i;
			return;
		}
}

bool purgeui_running(const struct app *a)
{
	return a->vw.purge && a->vw.purge->st == PU_RUN;
}

void purgeui_move(struct app *a, int d)
{
	if (purgeui_menu_open(a))
		menu_move(a->vw.purge, d);
}

void purgeui_choose(struct app *a)
{
	if (purgeui_menu_open(a))
		choose(a);
}

void purgeui_close(struct app *a)
{
	if (purgeui_menu_open(a))
		close_free(a);
}

void purgeui_wait(struct app *a)
{
	app_message(a, ROLE_WARN,
		    "a purge runs and cannot be interrupted (a sanitize goes on in the "
		    "controller even after a reset): wait for its end");
}

void purgeui_title(const struct app *a, char *buf, size_t len)
{
	const struct purgeui *p = a->vw.purge;
	if (!len)
		return;
	buf[0] = '\0';
	if (!p || p->st != PU_RUN)
		return;
	const struct pitem *it = &p->it[p->sel];
	long s = (long)(now_s() - p->t0);
	int pm = atomic_load_explicit(&((struct purgeui *)p)->permille, memory_order_relaxed);
	if (it->m == PURGE_FORMAT) /* no progress from the controller */
		snprintf(buf, len, "PURGE %s %ld:%02ld", it->name, s / 60, s % 60);
	else
		snprintf(buf, len, "PURGE %s %d.%d%% %ld:%02ld", it->name, pm / 10, pm % 10, s / 60,
			 s % 60);
}

/* @text at (@y, 2) of @o, padded or cut to @w columns with an ellipsis. */
static void fit_line(struct paint *pa, WINDOW *o, int y, int w, int role, const char *text)
{
	char fit[600];
	devrows_fit(fit, sizeof(fit), text, w, pa->ascii);
	draw_str(pa, o, y, 2, w, role, fit);
}

void purgeui_draw(const struct purgeui *p, struct paint *pa, struct ui_screen *scr)
{
	if (!p || p->st != PU_MENU)
		return;
	int w = scr->cols - 4 < 96 ? scr->cols - 4 : 96, h = 8 + 7 + (p->note[0] ? 1 : 0);
	struct rect r = layout_center(scr->cols, scr->rows, w, h < scr->rows ? h : scr->rows);
	if (scr->overlay)
		delwin(scr->overlay);
	scr->overlay = newwin(r.h, r.w, r.y, r.x);
	if (!scr->overlay || r.w < 8)
		return;
	WINDOW *o = scr->overlay;
	int inner = r.w - 4, y = 1;
	draw_frame(pa, o, ROLE_NORMAL, ROLE_BORDER);
	char head[300];
	snprintf(head, sizeof(head), "Purge %s: DESTROYS DATA", p->target);
	fit_line(pa, o, y++, inner, ROLE_HEADER, head);
	if (p->about[0])
		fit_line(pa, o, y++, inner, ROLE_NORMAL, p->about);
	if (p->note[0])
		fit_line(pa, o, y++, inner, ROLE_WARN, p->note);
	y++;
	for (int i = 0; i < 7 && y < r.h - 3; i++, y++) {
		const struct pitem *it = &p->it[i];
		bool cur = i == p->cur;
		int role = cur ? ROLE_SELECTED : it->ok ? ROLE_NORMAL : ROLE_DIM;
		char line[256];
		if (it->ok)
			snprintf(line, sizeof(line), "%s %s", cur ? ">" : " ", it->label);
		else { /* greyed, the reason beside it (the labels aligned when
			* the width allows) */
			int lw = inner - 5 - (int)strlen(it->why), ll = (int)strlen(it->label);
			lw = lw > 32 ? 32 : lw < ll ? ll : lw;
			snprintf(line, sizeof(line), "  %-*s - %s", lw, it->label, it->why);
		}
		/* padded to the box's inside (the cursor line keeps the border),
		 * never cut silently */
		fit_line(pa, o, y, inner, role, line);
	}
	draw_str(pa, o, r.h - 3, 2, inner, ROLE_DIM,
		 "A sanitize, once started, cannot be interrupted.");
	draw_str(pa, o, r.h - 2, 2, inner, ROLE_DIM,
		 "j/k move  Enter choose (asks for the typed token)  Esc close");
	wnoutrefresh(o);
}

void purgeui_free(struct app *a)
{
	struct purgeui *p = a->vw.purge;
	if (!p)
		return;
	if (p->st == PU_RUN) /* never abandoned halfway: waits for its end */
		pthread_join(p->th, NULL);
	free(p);
	a->vw.purge = NULL;
}

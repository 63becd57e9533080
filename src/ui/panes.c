/* panes.c - what each pane draws.  One function per pane, dispatched by
 * panes_draw at the bottom, which gives each what it draws from (the
 * pane's context, pane.h, or its own part of the state and the painter),
 * never the whole console; the main loop calls panes_draw only for panes
 * marked dirty. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/num.h"
#include <time.h>
#include <unistd.h>
#include "io/core/pool.h"
#include "ui/app.h"
#include "ui/devrows.h"
#include "ui/showfloor.h"
#include "ui/strips.h"
#include "ui/tables.h"

static const struct {
	const char *key, *label, *def;
} form_defs[FORM_NFIELDS] = {
    {"rw", "rw", "randread"},	   {"rwmixread", "read %", "70"},
    {"bs", "bs / bssplit", "4k"},  {"iodepth", "iodepth (list)", "32"},
    {"numjobs", "jobs", "1"},	   {"runtime", "runtime", "60s"},
    {"size", "LBA range", "100%"}, {"rate_iops", "rate IOPS", "0"},
    {"ramp_time", "ramp", "0"},	   {"ioengine", "engine", "io_uring"},
};

void panes_form_init(struct app *a)
{
	for (int i = 0; i < FORM_NFIELDS; i++) {
		a->fm.form[i].key = form_defs[i].key;
		a->fm.form[i].label = form_defs[i].label;
		snprintf(a->fm.form[i].val, sizeof(a->fm.form[i].val), "%s", form_defs[i].def);
	}
}

static void clock_str(double s, char *buf, size_t len)
{
	int64_t v64 = 0;
	if (num_to_i64(s, 0, 999999999, &v64) && s > 0)
		v64 = 999999999; /* a hostile results file: clamped, never UB */
	long v = (long)v64;
	if (v >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", v / 3600, v / 60 % 60, v % 60);
	else
		snprintf(buf, len, "%02ld:%02ld", v / 60, v % 60);
}

/* The title line; @pg: a running purge (purgeui_title), "" none. */
static void pane_title(const struct pane_ctx *c, WINDOW *w, int cols, const char *run_name,
		       const char *pg)
{
	char el[32], pl[32], buf[512];
	draw_fill(c->p, w, 0, ROLE_TITLE);
	struct source_info in;
	pane_info(c, &in);
	double planned = in.valid & SOURCE_HAS_PLANNED ? in.planned_s : 0;
	clock_str(in.now_s, el, sizeof(el));
	clock_str(planned, pl, sizeof(pl));
	const char *tgt = in.title ? in.title : "";
	unsigned nt = pane_ntargets(c);
	char more[24] = "";
	if (pane_copies(c))
		snprintf(more, sizeof(more), " x%u copies", pane_copies(c));
	else if (nt > 1)
		snprintf(more, sizeof(more), " +%u", nt - 1);
	snprintf(buf, sizeof(buf), " nvscope | %s%s%s %.40s%s | %.120s%s | %s%s%s | %.40s%s", pg,
		 pg[0] ? " | " : "", in.state, run_name[0] ? run_name : "-", in.step,
		 tgt[0] ? tgt : "no target", more, el, planned > 0 ? "/" : "",
		 planned > 0 ? pl : "", c->theme->name, c->view->log ? " log" : " lin");
	if (in.valid & SOURCE_HAS_CURSOR) {
		size_t l = strlen(buf);
		snprintf(buf + l, sizeof(buf) - l, " x%g", in.speed);
	}
	/* host name and clock on the right (a rack has many hosts); the
	 * clock alone when the host does not fit, the left part cut with an
	 * ellipsis rather than silently */
	static char host[64];
	if (!host[0] && gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "?");
	char hm[32], right[112], fit[600];
	time_t now = time(NULL);
	struct tm tm;
	if (!localtime_r(&now, &tm) || !strftime(hm, sizeof(hm), "%H:%M:%S", &tm))
		snprintf(hm, sizeof(hm), "--:--:--");
	int lw = draw_width(buf);
	snprintf(right, sizeof(right), " %.60s %s ", host, hm);
	if (lw + draw_width(right) > cols)
		snprintf(right, sizeof(right), " %s ", hm);
	int rw = draw_width(right), room = cols - rw;
	if (lw > room && room > 1) {
		devrows_fit(fit, sizeof(fit), buf, room, c->p->ascii);
		draw_str(c->p, w, 0, 0, room, ROLE_TITLE, fit);
	} else {
		draw_str(c->p, w, 0, 0, room, ROLE_TITLE, buf);
	}
	if (rw > 0)
		draw_str(c->p, w, 0, cols - rw, rw, ROLE_TITLE, right);
}

/* The status line under a prompt: its question and the text typed. */
static void status_prompt(struct paint *pa, WINDOW *w, int cols, const struct ui_prompt *pr)
{
	int n = draw_str(pa, w, 0, 0, cols, ROLE_WARN, pr->prompt_text);
	if (pr->prompt != PROMPT_QUIT && pr->prompt != PROMPT_STOP && pr->prompt != PROMPT_ASK) {
		n += draw_str(pa, w, 0, n, cols - n, ROLE_STATUS_KEY, pr->edit);
		draw_str(pa, w, 0, n, 1, ROLE_STATUS_KEY, "_");
	}
}

/* The key bar's @n buttons @k (keys.c): their ends kept in @scr for mouse
 * clicks. */
static void status_keys(struct paint *pa, WINDOW *w, struct ui_screen *scr, const struct keybtn *k,
			int n)
{
	int x = 0;
	for (int i = 0; i < n && x < scr->cols && i < KEYS_BAR_MAX; i++) {
		x += draw_str(pa, w, 0, x, scr->cols - x, ROLE_STATUS_KEY, k[i].key);
		x += draw_str(pa, w, 0, x, scr->cols - x, ROLE_STATUS, k[i].what);
		scr->bar_end[scr->nbar++] = x;
		x += draw_str(pa, w, 0, x, scr->cols - x, ROLE_STATUS, " ");
	}
}

/* "Name Serial Model FW " as @dc shows them (each cell @cells[i] fitted
 * to its width), appended to @buf. */
static void dev_cells(char *buf, size_t len, const struct devcols *dc, const char *const cells[4],
		      bool ascii)
{
	const int wd[4] = {dc->name, dc->serial, dc->model, dc->fw};
	for (int i = 0; i < 4; i++) {
		char fit[256];
		if (!wd[i])
			continue;
		devrows_fit(fit, sizeof(fit), cells[i], wd[i], ascii);
		size_t l = strlen(buf);
		snprintf(buf + l, len - l, "%s ", fit);
	}
}

/* "    Size   LBA  Temp  Used " with the columns @dc shows, appended. */
static void dev_nums(char *buf, size_t len, const struct devcols *dc, const char *sz,
		     const char *lbs, const char *temp, const char *used)
{
	size_t l = strlen(buf);
	snprintf(buf + l, len - l, "%8s ", sz);
	if (dc->lbs)
		l = strlen(buf), snprintf(buf + l, len - l, "%5s ", lbs);
	l = strlen(buf), snprintf(buf + l, len - l, "%5s ", temp);
	if (dc->used)
		l = strlen(buf), snprintf(buf + l, len - l, "%5s ", used);
}

/* The row's last column: the critical warning in the spec's words, else
 * what uses the device ("mounted /", "[in use]", "[data]"). */
static void dev_last(struct paint *pa, WINDOW *w, int y, int x, int wd, int role,
		     const struct devrow *r)
{
	if (r->crit && !r->depth) {
		char cw[160], txt[200], fit[256];
		dev_cw_text(r->crit, cw, sizeof(cw));
		snprintf(txt, sizeof(txt), "CRITICAL: %s", cw);
		if (draw_width(txt) > wd - x) /* narrow: the words before the label */
			snprintf(txt, sizeof(txt), "!%s", cw);
		int tw = draw_width(txt) < wd - x ? draw_width(txt) : wd - x;
		if (tw > 0) {
			devrows_fit(fit, sizeof(fit), txt, tw, pa->ascii);
			draw_str(pa, w, y, x, tw, ROLE_ERROR, fit);
		}
		return;
	}
	const char *flag = r->in_use ? " [in use]" : r->has_data ? " [data]" : "";
	char txt[160], fit[320];
	snprintf(txt, sizeof(txt), "%s%s", r->usage[0] ? r->usage : "-", flag);
	if (wd - x > 0) { /* a cut is marked: "mounted /tmp/nvsco…" */
		devrows_fit(fit, sizeof(fit), txt,
			    draw_width(txt) < wd - x ? draw_width(txt) : wd - x, pa->ascii);
		draw_str(pa, w, y, x, wd - x, role, fit);
	}
}

/* A host's line: its name, then its state (lost in the error colour). */
static void host_row(struct paint *pa, WINDOW *w, int y, int wd, const struct devrow *r, bool cur)
{
	int role = r->host_tone == DEVROWS_HOST_LOST   ? ROLE_ERROR
		   : r->host_tone == DEVROWS_HOST_WAIT ? ROLE_DIM
						       : ROLE_OK;
	char fit[512];
	if (cur)
		draw_fill(pa, w, y, ROLE_SELECTED);
	int x = draw_str(pa, w, y, 0, wd, cur ? ROLE_SELECTED : ROLE_HEADER, "  ");
	int nw = draw_width(r->name) < wd - x ? draw_width(r->name) : wd - x;
	if (nw <= 0)
		return;
	devrows_fit(fit, sizeof(fit), r->name, nw, pa->ascii);
	x += draw_str(pa, w, y, x, wd - x, cur ? ROLE_SELECTED : ROLE_HEADER, fit);
	int sw = wd - x - 2;
	if (sw <= 0)
		return;
	devrows_fit(fit, sizeof(fit), r->status,
		    draw_width(r->status) < sw ? draw_width(r->status) : sw, pa->ascii);
	draw_str(pa, w, y, x + 2, sw, cur ? ROLE_SELECTED : role, fit);
}

static void dev_row(struct paint *pa, WINDOW *w, int y, int wd, const struct devcols *dc,
		    const struct devrow *r, bool cur)
{
	if (r->host_hdr) {
		host_row(pa, w, y, wd, r, cur);
		return;
	}
	int role = cur	       ? ROLE_SELECTED
		   : r->marked ? ROLE_MARKED
		   : r->in_use ? ROLE_DIM
			       : ROLE_NORMAL;
	char sz[16] = "", lbs[16] = "", temp[16], used[16], name[40], line[512];
	if (r->selectable || r->depth || r->remote) {
		devrows_size(r->size, sz, sizeof(sz));
		snprintf(lbs, sizeof(lbs), r->lbs ? "%u" : "-", r->lbs);
	}
	snprintf(temp, sizeof(temp), r->temp_valid ? "%.0fC" : "N/A", r->temp_c);
	snprintf(used, sizeof(used), r->used_valid ? "%u%%" : "N/A", r->pct_used);
	if (!r->nvme)
		snprintf(temp, sizeof(temp), "-"), snprintf(used, sizeof(used), "-");
	snprintf(name, sizeof(name), "%s%.30s",
		 r->depth == 2 ? "    "
		 : r->depth    ? "  "
			       : "",
		 r->name);
	if (cur)
		draw_fill(pa, w, y, ROLE_SELECTED);
	snprintf(line, sizeof(line), "%s ", r->selectable && r->marked ? "*" : " ");
	const char *cells[4] = {name, r->serial, r->model, r->firmware};
	dev_cells(line, sizeof(line), dc, cells, pa->ascii);
	dev_nums(line, sizeof(line), dc, sz, lbs, temp, used);
	int x = draw_str(pa, w, y, 0, wd, role, line);
	dev_last(pa, w, y, x, wd, role, r);
}

static void pane_devices(struct paint *pa, WINDOW *w, struct ui_devpane *dp, bool focused)
{
	int h = getmaxy(w), wd = getmaxx(w);
	struct devcols dc;
	devrows_columns(dp->drows, dp->ndrows, wd, &dc);
	const char *dots = pa->ascii ? "..." : "\xe2\x80\xa6";
	char title[128] = "Devices";
	if (dp->scanning) /* draw first, scan after (console.c first_scan) */
		snprintf(title, sizeof(title), "Devices: scanning%s", dots);
	else if (dc.model_common) /* the model every row shares, said once */
		for (int i = 0; i < dp->ndrows; i++)
			if (dp->drows[i].model[0]) {
				snprintf(title, sizeof(title), "Devices: all %.60s",
					 dp->drows[i].model);
				break;
			}
	char head[160];
	snprintf(head, sizeof(head), focused ? "[%s]" : "%s", title);
	draw_header(pa, w, head,
		    dp->hosts ? "Space mark  o fold hosts  r rescan  P purge"
			      : "Space mark  a add file  r rescan  P purge");
	char line[512] = "  ";
	const char *cells[4] = {"Device", "Serial", "Model", "FW"};
	dev_cells(line, sizeof(line), &dc, cells, pa->ascii);
	dev_nums(line, sizeof(line), &dc, "Size", "LBA", "Temp", "Used");
	size_t l = strlen(line);
	snprintf(line + l, sizeof(line) - l, "In use");
	draw_str(pa, w, 1, 0, wd, ROLE_HEADER, line);
	int rows = h - 2;
	if (dp->dev_cur < dp->dev_top)
		dp->dev_top = dp->dev_cur;
	if (dp->dev_cur >= dp->dev_top + rows)
		dp->dev_top = dp->dev_cur - rows + 1;
	char none[64];
	snprintf(none, sizeof(none), "scanning for devices%s", dots);
	if (!dp->ndrows)
		draw_str(pa, w, 2, 2, wd - 2, ROLE_DIM,
			 dp->scanning && !dp->devs ? none
						   : "no devices found (a: add a file target)");
	for (int i = 0; i < rows && dp->dev_top + i < dp->ndrows; i++)
		dev_row(pa, w, 2 + i, wd, &dc, &dp->drows[dp->dev_top + i],
			dp->dev_top + i == dp->dev_cur && focused);
}

static void pane_launch(struct paint *pa, WINDOW *w, struct ui_launchpane *lp, bool focused)
{
	int h = getmaxy(w), wd = getmaxx(w);
	draw_header(pa, w, focused ? "[Presets]" : "Presets", "W writes  Enter run");
	int rows = h - 1;
	if (lp->pre_cur < lp->pre_top)
		lp->pre_top = lp->pre_cur;
	if (lp->pre_cur >= lp->pre_top + rows)
		lp->pre_top = lp->pre_cur - rows + 1;
	int total = (int)(lp->npresets + lp->nplans);
	if (!total)
		draw_str(pa, w, 1, 1, wd - 1, ROLE_DIM, "no presets found (presets/*.ini)");
	int namew = 18;
	for (int i = 0; i < total; i++) {
		int l = i < (int)lp->npresets
			    ? draw_width(lp->presets[i].name)
			    : 5 + draw_width(lp->plans[i - (int)lp->npresets].name);
		if (l > namew)
			namew = l;
	}
	if (namew > wd / 2)
		namew = wd / 2 > 8 ? wd / 2 : 8;
	for (int i = 0; i < rows && lp->pre_top + i < total; i++) {
		int idx = lp->pre_top + i;
		bool plan = idx >= (int)lp->npresets;
		const struct preset_info *p =
		    plan ? &lp->plans[idx - (int)lp->npresets] : &lp->presets[idx];
		bool cur = idx == lp->pre_cur && focused;
		int role = cur ? ROLE_SELECTED : plan ? ROLE_HEADER : ROLE_NORMAL;
		if (cur)
			draw_fill(pa, w, 1 + i, ROLE_SELECTED);
		/* plans (presets/plans/) after the presets, marked "plan:"; names
		 * whole when the width allows, else ending with an ellipsis */
		char nm[96], fit[160], desc[320];
		snprintf(nm, sizeof(nm), "%s%.80s", plan ? "plan:" : "", p->name);
		devrows_fit(fit, sizeof(fit), nm, namew, pa->ascii);
		/* one that writes says so first: "W" in the warning style, and
		 * its description cut with a marker (the words "destroys data"
		 * come last in a description and were cut at 80 columns) */
		draw_str(pa, w, 1 + i, 0, 1, cur ? role : ROLE_WARN, p->writes ? "W" : " ");
		int x = 2 + draw_str(pa, w, 1 + i, 2, wd - 2, role, fit) + 1;
		if (wd - x > 1) {
			devrows_fit(desc, sizeof(desc), p->description,
				    draw_width(p->description) < wd - x ? draw_width(p->description)
									: wd - x,
				    pa->ascii);
			draw_str(pa, w, 1 + i, x, wd - x, role, desc);
		}
	}
}

static void pane_form(struct paint *pa, WINDOW *w, const struct ui_form *fm,
		      const struct ui_devpane *dp, bool demo, bool focused)
{
	int wd = getmaxx(w), h = getmaxy(w);
	draw_header(pa, w, focused ? "[Custom workload]" : "Custom workload",
		    demo ? "disabled in demo" : "Enter edit  r run");
	for (int i = 0; i < FORM_NFIELDS && 1 + i < h; i++) {
		bool cur = i == fm->form_cur && focused;
		if (cur)
			draw_fill(pa, w, 1 + i, ROLE_SELECTED);
		draw_fmt(pa, w, 1 + i, 1, wd - 1,
			 cur	? ROLE_SELECTED
			 : demo ? ROLE_DIM
				: ROLE_NORMAL,
			 "%-15s %s", fm->form[i].label, fm->form[i].val);
	}
	int marked = 0;
	for (int i = 0; i < dp->ndrows; i++)
		marked += dp->drows[i].marked;
	if (1 + FORM_NFIELDS < h)
		draw_fmt(pa, w, 1 + FORM_NFIELDS, 1, wd - 1, marked ? ROLE_OK : ROLE_WARN,
			 "targets marked: %d", marked);
}

/* What this terminal's terminfo has among the keys that have a letter too:
 * "has F1-F10 Home End PgUp PgDn", or what it lacks and the letters to use. */
static void term_keys(char *buf, size_t len, char *buf2, size_t len2)
{
	static const struct {
		const char *cap, *name, *letter;
	} k[] = {
	    {"khome", "Home", "g"},
	    {"kend", "End", "G"},
	    {"kpp", "PgUp", "K"},
	    {"knp", "PgDn", "J"},
	    {"kcbt", "Shift-Tab", "Tab Tab"},
	    {"kf1", "F1", "?"},
	    {"kf2", "F2", "t"},
	    {"kf3", "F3", "l"},
	    {"kf5", "F5", "Enter"},
	    {"kf6", "F6", "v"},
	    {"kf9", "F9", "s"},
	    {"kf10", "F10", "q"},
	};
	char has[160] = "", lacks[200] = "";
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		const char *v = tigetstr(k[i].cap);
		bool ok = v && v != (char *)-1;
		char *d = ok ? has : lacks;
		size_t dl = ok ? sizeof(has) : sizeof(lacks), l = strlen(d);
		if (ok)
			snprintf(d + l, dl - l, " %s", k[i].name);
		else
			snprintf(d + l, dl - l, " %s(%s)", k[i].name, k[i].letter);
	}
	const char *term = getenv("TERM");
	snprintf(buf, len, "TERM=%.20s has:%s", term ? term : "?", has[0] ? has : " -");
	snprintf(buf2, len2, "%s%s", lacks[0] ? "lacks (use):" : "", lacks);
}

void panes_draw_help(const char (*kl)[KEYS_HELP_LEN], int nk, bool view, struct paint *pa,
		     struct ui_screen *scr)
{
	/* generated from the key table (keys.c), in two columns when the
	 * screen is wide enough, and what this terminal has */
	char tk[240], tk2[240], fit[3 * KEYS_HELP_LEN];
	term_keys(tk, sizeof(tk), tk2, sizeof(tk2));
	int cols = scr->cols >= 2 * 38 + 4 ? 2 : 1, per = (nk + cols - 1) / cols;
	int tkw = draw_width(tk) + 4, bw = cols * 38 + 3;
	if (tkw > bw)
		bw = tkw;
	if (draw_width(tk2) + 4 > bw)
		bw = draw_width(tk2) + 4;
	if (bw > scr->cols)
		bw = scr->cols;
	int bh = per + 5; /* title, keys, terminal (two lines); borders */
	if (bh > scr->rows)
		bh = scr->rows;
	struct rect r = layout_center(scr->cols, scr->rows, bw, bh);
	if (scr->overlay)
		delwin(scr->overlay);
	scr->overlay = newwin(r.h, r.w, r.y, r.x);
	if (!scr->overlay)
		return;
	WINDOW *w = scr->overlay;
	draw_role(pa, w, ROLE_NORMAL);
	werase(w);
	draw_frame(pa, w, ROLE_NORMAL, ROLE_BORDER);
	draw_str(pa, w, 1, 2, r.w - 4, ROLE_HEADER,
		 view ? "keys of the live screen (v: setup's; any key closes)"
		      : "keys of the setup screen (v: live screen's; any key closes)");
	int shown = 0;
	for (int i = 0; i < nk; i++) {
		int y = 2 + i % per, x = 2 + (i / per) * 38, cw = 37;
		if (cw > r.w - 2 - x)
			cw = r.w - 2 - x;
		if (y >= r.h - 3 || cw < 4)
			continue;
		devrows_fit(fit, sizeof(fit), kl[i], cw, pa->ascii); /* a cut is marked */
		draw_str(pa, w, y, x, cw, ROLE_NORMAL, fit);
		shown++;
	}
	if (shown < nk) { /* a screen too small for all: said, not hidden */
		char more[64];
		snprintf(more, sizeof(more), " %d more keys: a larger terminal shows them ",
			 nk - shown);
		draw_str(pa, w, r.h - 1, 2, r.w - 4, ROLE_WARN, more);
	}
	char tfit[2 * sizeof(tk)];
	devrows_fit(tfit, sizeof(tfit), tk, r.w - 4, pa->ascii); /* a cut is marked */
	draw_str(pa, w, r.h - 3, 2, r.w - 4, ROLE_DIM, tfit);
	devrows_fit(tfit, sizeof(tfit), tk2, r.w - 4, pa->ascii);
	draw_str(pa, w, r.h - 2, 2, r.w - 4, ROLE_DIM, tfit);
	wnoutrefresh(w);
}

void panes_draw_confirm(const struct ui_prompt *pr, struct paint *pa, struct ui_screen *scr)
{
	int w = scr->cols - 4 < 72 ? scr->cols - 4 : 72;
	int inner = w - 4, lines = 0, next;
	/* wrapped with the words whole: the serial to type, never broken */
	for (const char *p = pr->confirm; inner > 0 && *p; p += next, lines++)
		devrows_wrap(p, inner, &next);
	struct rect r = layout_center(scr->cols, scr->rows, w, (lines ? lines : 1) + 5);
	if (scr->overlay)
		delwin(scr->overlay);
	scr->overlay = newwin(r.h, r.w, r.y, r.x);
	if (!scr->overlay || inner <= 0)
		return;
	WINDOW *o = scr->overlay;
	draw_frame(pa, o, ROLE_ERROR, ROLE_ERROR);
	draw_str(pa, o, 1, 2, inner, ROLE_ERROR,
		 pr->confirm_head ? pr->confirm_head : "THIS WORKLOAD WRITES AND DESTROYS DATA");
	const char *p = pr->confirm;
	for (int i = 0; *p && 3 + i < r.h - 1; i++, p += next) {
		char line[sizeof(pr->confirm)];
		snprintf(line, sizeof(line), "%.*s", devrows_wrap(p, inner, &next), p);
		draw_str(pa, o, 3 + i, 2, inner, ROLE_ERROR, line);
	}
	wnoutrefresh(o);
}

void panes_draw_too_small(struct paint *pa, int cols, int rows)
{
	WINDOW *w = stdscr;
	draw_role(pa, w, ROLE_NORMAL);
	werase(w);
	char buf[128];
	int y = rows / 2 - 1;
	if (y < 0)
		y = 0;
	snprintf(buf, sizeof(buf), "Terminal too small: %dx%d", cols, rows);
	draw_str(pa, w, y, 0, cols, ROLE_WARN, buf);
	snprintf(buf, sizeof(buf), "nvscope needs %dx%d", LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
	draw_str(pa, w, y + 1, 0, cols, ROLE_WARN, buf);
	draw_str(pa, w, y + 2, 0, cols, ROLE_NORMAL, "Enlarge it (q quits)");
	wnoutrefresh(w);
}

/* Each drawer takes what it draws from (pane.h), never the console. */
void panes_draw(struct app *a, enum pane_id p)
{
	WINDOW *w = a->scr.win[p];
	struct paint *pa = &a->paint;
	if (!w)
		return;
	draw_role(pa, w, ROLE_NORMAL);
	wbkgdset(w, ' ' | pa->attr[ROLE_NORMAL] | COLOR_PAIR(pa->pair[ROLE_NORMAL]));
	werase(w);
	struct pane_ctx c = {.p = pa, .src = a->src, .view = &a->view, .theme = &a->look.theme};
	app_time_range(a, &c.t0, &c.t1);
	char pg[128]; /* a running purge first in the title: it is what matters then */
	const struct keybtn *k;
	switch (p) {
	case PANE_TITLE:
		purgeui_title(a, pg, sizeof(pg));
		pane_title(&c, w, a->scr.cols, a->run.run_name, pg);
		break;
	case PANE_STATUS: /* no buttons to click while a prompt or message shows */
		draw_fill(pa, w, 0, ROLE_STATUS);
		a->scr.nbar = 0;
		if (a->pr.prompt != PROMPT_NONE)
			status_prompt(pa, w, a->scr.cols, &a->pr);
		else if (a->mq.msg[0] && a->now < a->mq.msg_until)
			draw_str(pa, w, 0, 0, a->scr.cols, a->mq.msg_role, a->mq.msg);
		else {
			int n = keys_bar(a, &k);
			status_keys(pa, w, &a->scr, k, n);
		}
		break;
	case PANE_DEVICES:
		pane_devices(pa, w, &a->dev, a->scr.focus == PANE_DEVICES);
		break;
	case PANE_LAUNCH:
		pane_launch(pa, w, &a->lp, a->scr.focus == PANE_LAUNCH);
		break;
	case PANE_FORM:
		pane_form(pa, w, &a->fm, &a->dev, a->fl.demo, a->scr.focus == PANE_FORM);
		break;
	case PANE_IOPS:
		strips_iops(&c, w, &a->st);
		break;
	case PANE_LAT:
		strips_lat(&c, w);
		break;
	case PANE_HEALTH:
		strips_health(&c, w, &a->hl);
		break;
	case PANE_TARGETS:
		strips_targets(&c, w);
		break;
	case PANE_QD:
		tables_qd(&c, w);
		break;
	case PANE_NUMBERS:
		if (a->fl.showfloor)
			showfloor_numbers(&c, w);
		else
			tables_numbers(&c, w);
		break;
	case PANE_CPU:
		tables_cpu(&c, w, &a->cp);
		break;
	case PANE_STEPS:
		planui_draw_steps(&c, w);
		break;
	case PANE_COUNT:
		break;
	}
	wnoutrefresh(w);
}

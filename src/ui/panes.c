/* panes.c - what each pane draws, from the console state (app.h).  One
 * function per pane, dispatched by the table at the bottom; the main loop
 * calls panes_draw only for panes marked dirty. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/num.h"
#include <time.h>
#include <unistd.h>
#include "io/pool.h"
#include "ui/app.h"

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
		a->form[i].key = form_defs[i].key;
		a->form[i].label = form_defs[i].label;
		snprintf(a->form[i].val, sizeof(a->form[i].val), "%s", form_defs[i].def);
	}
}

static const char *size_str(uint64_t b, char *buf, size_t len)
{
	if (!b)
		snprintf(buf, len, "-");
	else if (b >= 1000ull * 1000 * 1000 * 1000)
		snprintf(buf, len, "%.1fTB", b / 1e12);
	else if (b >= 1000ull * 1000 * 1000)
		snprintf(buf, len, "%.1fGB", b / 1e9);
	else
		snprintf(buf, len, "%.0fMB", b / 1e6);
	return buf;
}

static const char *state_name(const struct app *a, const struct source_info *in)
{
	return in->valid & SOURCE_HAS_CURSOR && a->paused ? "PAUSED" : in->state;
}

static void clock_str(double s, char *buf, size_t len)
{
	int64_t v64 = 0;
	if (num_to_i64(s, 0, 999999999, &v64) && s > 0)
		v64 = 999999999; /* a hostile replay: clamped, never UB */
	long v = (long)v64;
	if (v >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", v / 3600, v / 60 % 60, v % 60);
	else
		snprintf(buf, len, "%02ld:%02ld", v / 60, v % 60);
}

static void pane_title(struct app *a, WINDOW *w)
{
	char el[32], pl[32], buf[512];
	draw_fill(a, w, 0, ROLE_TITLE);
	struct source_info in;
	app_source_info(a, &in);
	double planned = in.valid & SOURCE_HAS_PLANNED ? in.planned_s : 0;
	clock_str(in.now_s, el, sizeof(el));
	clock_str(planned, pl, sizeof(pl));
	const char *tgt = in.title ? in.title : "";
	unsigned nt = app_ntargets(a);
	char more[16] = "";
	if (nt > 1)
		snprintf(more, sizeof(more), " +%u", nt - 1);
	snprintf(buf, sizeof(buf), " nvscope | %s %.40s%s | %.120s%s | %s%s%s | %.40s%s",
		 state_name(a, &in), a->run_name[0] ? a->run_name : "-", in.step,
		 tgt[0] ? tgt : "no target", more, el, planned > 0 ? "/" : "",
		 planned > 0 ? pl : "", a->theme.name, a->log ? " log" : " lin");
	if (in.valid & SOURCE_HAS_CURSOR) {
		size_t l = strlen(buf);
		snprintf(buf + l, sizeof(buf) - l, " x%g", a->speed);
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
	if (lw + draw_width(right) > a->cols)
		snprintf(right, sizeof(right), " %s ", hm);
	int rw = draw_width(right), room = a->cols - rw;
	if (lw > room && room > 1) {
		devrows_fit(fit, sizeof(fit), buf, room, a->ascii);
		draw_str(a, w, 0, 0, room, ROLE_TITLE, fit);
	} else {
		draw_str(a, w, 0, 0, room, ROLE_TITLE, buf);
	}
	if (rw > 0)
		draw_str(a, w, 0, a->cols - rw, rw, ROLE_TITLE, right);
}

static void pane_status(struct app *a, WINDOW *w)
{
	draw_fill(a, w, 0, ROLE_STATUS);
	a->nbar = 0; /* no buttons to click while a prompt or message shows */
	if (a->prompt != PROMPT_NONE) {
		int n = draw_str(a, w, 0, 0, a->cols, ROLE_WARN, a->prompt_text);
		if (a->prompt != PROMPT_QUIT && a->prompt != PROMPT_STOP) {
			n += draw_str(a, w, 0, n, a->cols - n, ROLE_STATUS_KEY, a->edit);
			draw_str(a, w, 0, n, 1, ROLE_STATUS_KEY, "_");
		}
		return;
	}
	if (a->msg[0] && a->now < a->msg_until) {
		draw_str(a, w, 0, 0, a->cols, a->msg_role, a->msg);
		return;
	}
	/* the key bar (keys.c): its buttons' ends kept for mouse clicks */
	const struct keybtn *k;
	int n = keys_bar(a, &k);
	int x = 0;
	for (int i = 0; i < n && x < a->cols && i < KEYS_BAR_MAX; i++) {
		x += draw_str(a, w, 0, x, a->cols - x, ROLE_STATUS_KEY, k[i].key);
		x += draw_str(a, w, 0, x, a->cols - x, ROLE_STATUS, k[i].what);
		a->bar_end[a->nbar++] = x;
		x += draw_str(a, w, 0, x, a->cols - x, ROLE_STATUS, " ");
	}
}

static void pane_devices(struct app *a, WINDOW *w)
{
	int h = getmaxy(w), wd = getmaxx(w);
	draw_header(a, w, a->focus == PANE_DEVICES ? "[Devices]" : "Devices",
		    "Space mark  a add file  r rescan");
	struct devcols dc;
	devrows_columns(a->drows, a->ndrows, wd, &dc);
	bool wide = dc.serial > 0;
	if (wide)
		draw_fmt(a, w, 1, 0, wd, ROLE_HEADER, "  %-*s %-*s %-*s %-*s %8s %5s %5s %5s %s",
			 dc.name, "Device", dc.model, "Model", dc.serial, "Serial", dc.fw, "FW",
			 "Size", "LBA", "Temp", "Used", "In use");
	else
		draw_fmt(a, w, 1, 0, wd, ROLE_HEADER, "  %-*s %-*s %8s %5s %5s %5s %s", dc.name,
			 "Device", dc.model, "Model", "Size", "LBA", "Temp", "Used", "In use");
	int rows = h - 2;
	if (a->dev_cur < a->dev_top)
		a->dev_top = a->dev_cur;
	if (a->dev_cur >= a->dev_top + rows)
		a->dev_top = a->dev_cur - rows + 1;
	if (!a->ndrows)
		draw_str(a, w, 2, 2, wd - 2, ROLE_DIM, "no devices found (a: add a file target)");
	for (int i = 0; i < rows && a->dev_top + i < a->ndrows; i++) {
		const struct devrow *r = &a->drows[a->dev_top + i];
		bool cur = a->dev_top + i == a->dev_cur && a->focus == PANE_DEVICES;
		int role = cur	       ? ROLE_SELECTED
			   : r->marked ? ROLE_MARKED
			   : r->in_use ? ROLE_DIM
				       : ROLE_NORMAL;
		char sz[16], lbs[16], temp[16], used[16], name[40];
		size_str(r->size, sz, sizeof(sz));
		snprintf(lbs, sizeof(lbs), r->lbs ? "%u" : "-", r->lbs);
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
			draw_fill(a, w, 2 + i, ROLE_SELECTED);
		const char *mark = !r->selectable ? " " : r->marked ? "*" : " ";
		const char *flag = r->in_use ? " [in use]" : r->has_data ? " [data]" : "";
		char fname[160], fmodel[256], fser[128], ffw[64];
		devrows_fit(fname, sizeof(fname), name, dc.name, a->ascii);
		devrows_fit(fmodel, sizeof(fmodel), r->model, dc.model, a->ascii);
		devrows_fit(fser, sizeof(fser), r->serial, dc.serial, a->ascii);
		devrows_fit(ffw, sizeof(ffw), r->firmware, dc.fw, a->ascii);
		int x;
		if (wide)
			x = draw_fmt(a, w, 2 + i, 0, wd, role, "%s %s %s %s %s %8s %5s %5s %5s ",
				     mark, fname, fmodel, fser, ffw,
				     r->selectable || r->depth ? sz : "",
				     r->selectable || r->depth ? lbs : "", temp, used);
		else
			x = draw_fmt(a, w, 2 + i, 0, wd, role, "%s %s %s %8s %5s %5s %5s ", mark,
				     fname, fmodel, r->selectable || r->depth ? sz : "",
				     r->selectable || r->depth ? lbs : "", temp, used);
		if (r->crit && !r->depth) {
			/* the controller's critical warning, in the spec's words */
			char cw[160], txt[200], fit[256];
			dev_cw_text(r->crit, cw, sizeof(cw));
			snprintf(txt, sizeof(txt), "CRITICAL: %s", cw);
			if (draw_width(txt) > wd - x) /* narrow: the words before the label */
				snprintf(txt, sizeof(txt), "!%s", cw);
			int tw = draw_width(txt) < wd - x ? draw_width(txt) : wd - x;
			if (tw > 0) {
				devrows_fit(fit, sizeof(fit), txt, tw, a->ascii);
				draw_str(a, w, 2 + i, x, tw, ROLE_ERROR, fit);
			}
		} else {
			draw_fmt(a, w, 2 + i, x, wd - x, role, "%s%s", r->usage[0] ? r->usage : "-",
				 flag);
		}
	}
}

static void pane_launch(struct app *a, WINDOW *w)
{
	int h = getmaxy(w), wd = getmaxx(w);
	draw_header(a, w, a->focus == PANE_LAUNCH ? "[Presets]" : "Presets", "Enter run");
	int rows = h - 1;
	if (a->pre_cur < a->pre_top)
		a->pre_top = a->pre_cur;
	if (a->pre_cur >= a->pre_top + rows)
		a->pre_top = a->pre_cur - rows + 1;
	int total = (int)(a->npresets + a->nplans);
	if (!total)
		draw_str(a, w, 1, 1, wd - 1, ROLE_DIM, "no presets found (presets/*.ini)");
	int namew = 18;
	for (int i = 0; i < total; i++) {
		int l = i < (int)a->npresets ? draw_width(a->presets[i].name)
					     : 5 + draw_width(a->plans[i - (int)a->npresets].name);
		if (l > namew)
			namew = l;
	}
	if (namew > wd / 2)
		namew = wd / 2 > 8 ? wd / 2 : 8;
	for (int i = 0; i < rows && a->pre_top + i < total; i++) {
		int idx = a->pre_top + i;
		bool plan = idx >= (int)a->npresets;
		const struct preset_info *p =
		    plan ? &a->plans[idx - (int)a->npresets] : &a->presets[idx];
		bool cur = idx == a->pre_cur && a->focus == PANE_LAUNCH;
		int role = cur ? ROLE_SELECTED : plan ? ROLE_HEADER : ROLE_NORMAL;
		if (cur)
			draw_fill(a, w, 1 + i, ROLE_SELECTED);
		/* plans (presets/plans/) after the presets, marked "plan:"; names
		 * whole when the width allows, else ending with an ellipsis */
		char nm[96], fit[160];
		snprintf(nm, sizeof(nm), "%s%.80s", plan ? "plan:" : "", p->name);
		devrows_fit(fit, sizeof(fit), nm, namew, a->ascii);
		draw_fmt(a, w, 1 + i, 1, wd - 1, role, "%s %s", fit, p->description);
	}
}

static void pane_form(struct app *a, WINDOW *w)
{
	int wd = getmaxx(w), h = getmaxy(w);
	draw_header(a, w, a->focus == PANE_FORM ? "[Custom workload]" : "Custom workload",
		    a->demo ? "disabled in demo" : "Enter edit  r run");
	for (int i = 0; i < FORM_NFIELDS && 1 + i < h; i++) {
		bool cur = i == a->form_cur && a->focus == PANE_FORM;
		if (cur)
			draw_fill(a, w, 1 + i, ROLE_SELECTED);
		draw_fmt(a, w, 1 + i, 1, wd - 1,
			 cur	   ? ROLE_SELECTED
			 : a->demo ? ROLE_DIM
				   : ROLE_NORMAL,
			 "%-15s %s", a->form[i].label, a->form[i].val);
	}
	int marked = 0;
	for (int i = 0; i < a->ndrows; i++)
		marked += a->drows[i].marked;
	if (1 + FORM_NFIELDS < h)
		draw_fmt(a, w, 1 + FORM_NFIELDS, 1, wd - 1, marked ? ROLE_OK : ROLE_WARN,
			 "targets marked: %d", marked);
}

/* ---- live panes ---- */

/* The newest point for "now" figures: the last one, unless it is a short
 * tail interval (the end of a job), which would show a meaningless rate. */
static const struct point *now_point(const struct series *s)
{
	if (!s->n)
		return NULL;
	if (s->n >= 2 && s->pt[s->n - 1].dt < 0.5 * s->pt[s->n - 2].dt)
		return &s->pt[s->n - 2];
	return &s->pt[s->n - 1];
}

static void plot_points(struct plot_ser *ps, const struct series *s, size_t off, uint8_t role)
{
	ps->base = s->pt;
	ps->n = s->n;
	ps->stride = sizeof(struct point);
	ps->off = off;
	ps->role = role;
}

static void pane_iops(struct app *a, WINDOW *w)
{
	struct plot p = {.log = a->log, .labels = true};
	const struct series *s = app_series(a, -1);
	app_time_range(a, &p.t0, &p.t1);
	p.unit = a->mbps ? UNIT_BPS : UNIT_IOPS;
	size_t r =
	    a->mbps ? offsetof(struct point, bw[NVS_READ]) : offsetof(struct point, iops[NVS_READ]);
	size_t wr = a->mbps ? offsetof(struct point, bw[NVS_WRITE])
			    : offsetof(struct point, iops[NVS_WRITE]);
	/* a direction that never did I/O in the run is not drawn (no line of
	 * zeros under a read-only run); a stall to 0 of an active one is */
	bool has[NVS_NDIR] = {false, false};
	for (size_t i = 0; i < s->n && !(has[0] && has[1]); i++)
		for (int d = 0; d < NVS_NDIR; d++)
			has[d] |= s->pt[i].iops[d] > 0;
	if (has[NVS_WRITE] || !has[NVS_READ])
		plot_points(&p.ser[p.nser++], s, wr, ROLE_WRITE);
	if (has[NVS_READ])
		plot_points(&p.ser[p.nser++], s, r, ROLE_READ);
	char title[96], now[24];
	const struct point *lp = now_point(s);
	double v = lp ? (a->mbps ? lp->bw[0] + lp->bw[1] : lp->iops[0] + lp->iops[1]) : NAN;
	axis_fmt(v, p.unit, a->ascii, now, sizeof(now));
	snprintf(title, sizeof(title), "%s %s  now %s", a->mbps ? "MB/s" : "IOPS",
		 a->log ? "(log)" : "(linear)", now);
	draw_header(a, w, title, "");
	int wd = getmaxx(w);
	/* legend in the series colours */
	int lx = wd - 14;
	if (lx > draw_width(title) + 4) {
		/* without colour the legend shows each series' glyph */
		draw_str(a, w, 0, lx, 6, ROLE_READ, a->nocolour ? "+read " : " read ");
		draw_str(a, w, 0, lx + 6, 7, ROLE_WRITE, a->nocolour ? "xwrite" : "write ");
	}
	int h = getmaxy(w) - 1, sr = steady_rows(a, h);
	draw_plot(a, w, 1, 0, h - sr, wd, &p);
	if (sr) {
		int lw = draw_plot_label_w(wd, p.labels);
		steady_draw(a, w, 1 + h - sr, sr, lw, wd - lw, p.t0, p.t1);
	}
}

static void pane_lat(struct app *a, WINDOW *w)
{
	struct plot p = {.log = a->log, .labels = true, .unit = UNIT_US};
	const struct series *s = app_series(a, -1);
	app_time_range(a, &p.t0, &p.t1);
	plot_points(&p.ser[0], s, offsetof(struct point, lat_p99_all_us), ROLE_LAT_P99);
	plot_points(&p.ser[1], s, offsetof(struct point, lat_mean_all_us), ROLE_LAT_MEAN);
	p.nser = 2;
	char title[96], m[24], q[24];
	const struct point *lp = now_point(s);
	axis_fmt(lp ? lp->lat_mean_all_us : NAN, UNIT_US, a->ascii, m, sizeof(m));
	axis_fmt(lp ? lp->lat_p99_all_us : NAN, UNIT_US, a->ascii, q, sizeof(q));
	snprintf(title, sizeof(title), "Latency %s  mean %s p99 %s", a->log ? "(log)" : "(linear)",
		 m, q);
	draw_header(a, w, title, "");
	int wd = getmaxx(w), lx = wd - 12;
	if (lx > draw_width(title) + 4) {
		draw_str(a, w, 0, lx, 6, ROLE_LAT_MEAN, a->nocolour ? "*mean " : " mean ");
		draw_str(a, w, 0, lx + 6, 4, ROLE_LAT_P99, a->nocolour ? "op99" : "p99 ");
	}
	draw_plot(a, w, 1, 0, getmaxy(w) - 1, wd, &p);
}

static void pane_health(struct app *a, WINDOW *w)
{
	struct plot p = {.log = false, .labels = true, .unit = UNIT_DEGC, .near = true};
	app_time_range(a, &p.t0, &p.t1);
	size_t nhp = a->nhp; /* a replay shows what was recorded so far */
	struct source_info in;
	app_source_info(a, &in);
	while (in.valid & SOURCE_HAS_CURSOR && nhp && a->hp[nhp - 1].t > in.now_s)
		nhp--;
	p.ser[0] = (struct plot_ser){a->hp, nhp, sizeof(struct health_pt),
				     offsetof(struct health_pt, temp_c), ROLE_TEMP};
	p.nser = 1;
	char title[128];
	const struct health_pt *lh = nhp ? &a->hp[nhp - 1] : NULL;
	char cw[160] = "", txt[200] = "";
	if (lh && lh->crit) {
		dev_cw_text(lh->crit, cw, sizeof(cw));
		snprintf(txt, sizeof(txt), "CRITICAL: %s", cw);
	}
	/* with a critical warning on a narrow pane the title gets shorter
	 * first: the warning matters more than the path and the labels */
	int avail = getmaxx(w) - 4 - (txt[0] ? draw_width(txt) + 1 : 0);
	for (int form = 0; form < 3; form++) {
		if (lh && !isnan(lh->temp_c))
			snprintf(title, sizeof(title),
				 form == 0   ? "Health %.60s  %.0fC  throttle events %.0f"
				 : form == 1 ? "Health %.0s%.0fC  throttle events %.0f"
					     : "Health %.0s%.0fC thr %.0f",
				 a->health_path, lh->temp_c, lh->throttle);
		else
			snprintf(title, sizeof(title),
				 form == 0 ? "Health %.60s  temperature N/A" : "Health%.0s N/A",
				 a->health_path);
		if (!txt[0] || draw_width(title) <= avail)
			break;
	}
	draw_header(a, w, title, "");
	if (lh && lh->crit) {
		/* the critical warning in the spec's words, in the alert style */
		char fit[256];
		int x = draw_width(title) + 3, room = getmaxx(w) - x - 1;
		if (draw_width(txt) > room)
			snprintf(txt, sizeof(txt), "!%s", cw);
		if (room > 0) {
			devrows_fit(fit, sizeof(fit), txt,
				    room < draw_width(txt) ? room : draw_width(txt), a->ascii);
			draw_str(a, w, 0, x, room, ROLE_ERROR, fit);
		}
	}
	/* two rows: the strip without its own time axis */
	p.labels = getmaxy(w) - 1 >= 4;
	draw_plot(a, w, 1, 0, getmaxy(w) - 1, getmaxx(w), &p);
	if (!p.labels && getmaxx(w) > 7)
		for (size_t i = 1; i < nhp; i++)
			if (a->hp[i].throttle > a->hp[i - 1].throttle) {
				int64_t x64 = 0;
				(void)num_to_i64((a->hp[i].t - p.t0) / (p.t1 - p.t0) *
						     (getmaxx(w) - 1),
						 0, getmaxx(w) - 1, &x64);
				int x = (int)x64;
				draw_str(a, w, getmaxy(w) - 1, x, 1, ROLE_WARN, "!");
			}
}

static void pane_targets(struct app *a, WINDOW *w)
{
	unsigned nt = app_ntargets(a);
	struct rect area = {0, 1, getmaxx(w), getmaxy(w) - 1}, cells[NVS_MAX_TARGETS];
	int fit = layout_grid(&area, (int)nt, 24, 3, cells);
	if (fit < 1)
		fit = 1;
	int pages = ((int)nt + fit - 1) / fit;
	if (a->tgt_page >= pages)
		a->tgt_page = pages - 1;
	if (a->tgt_page < 0)
		a->tgt_page = 0;
	char right[48];
	snprintf(right, sizeof(right), pages > 1 ? "page %d/%d PgUp/PgDn" : "%d targets",
		 pages > 1 ? a->tgt_page + 1 : (int)nt, pages);
	draw_header(a, w, "Per target IOPS", right);
	double t0, t1;
	app_time_range(a, &t0, &t1);
	for (int i = 0; i < fit; i++) {
		unsigned t = (unsigned)(a->tgt_page * fit + i);
		if (t >= nt)
			break;
		const struct series *s = app_series(a, (int)t);
		const struct point *lp = now_point(s);
		char v[24];
		axis_fmt(lp ? lp->iops[0] + lp->iops[1] : NAN, UNIT_IOPS, a->ascii, v, sizeof(v));
		const char *path = app_target_name(a, t);
		const char *base = strrchr(path, '/');
		draw_fmt(a, w, cells[i].y, cells[i].x, cells[i].w - 1, ROLE_HEADER, "%s %s",
			 base ? base + 1 : path, v);
		struct plot p = {.t0 = t0, .t1 = t1, .log = a->log, .unit = UNIT_IOPS};
		bool hw = false;
		for (size_t k = 0; k < s->n && !hw; k++)
			hw = s->pt[k].iops[NVS_WRITE] > 0;
		if (hw)
			plot_points(&p.ser[p.nser++], s, offsetof(struct point, iops[NVS_WRITE]),
				    ROLE_WRITE);
		plot_points(&p.ser[p.nser++], s, offsetof(struct point, iops[NVS_READ]), ROLE_READ);
		draw_plot(a, w, cells[i].y + 1, cells[i].x, cells[i].h - 1, cells[i].w - 1, &p);
	}
}

/* Mean, p99 and max of both directions of a result, in us. */
static void pane_qd(struct app *a, WINDOW *w)
{
	int wd = getmaxx(w), h = getmaxy(w);
	/* a plan's rate curve lists its points (% of max), a grid threads x QD */
	struct source sv = app_source(a);
	const struct source *src = &sv;
	struct source_info in;
	src->ops->info(src->ctx, &in);
	const char *kind = in.step_kind;
	const char *qlab = !strcmp(kind, "rate-curve") ? "pt%" : !strcmp(kind, "grid") ? "TxQD" : "QD";
	draw_header(a, w, "Per queue depth", in.rows_from);
	/* columns: QD and six values (a rate curve: and the asked rate, the
	 * achieved % of it); when they do not all fit, max, then MB/s, then
	 * mean are left out (never a value cut to a wrong one) */
	bool rate = !strcmp(kind, "rate-curve");
	static const int cw[8] = {9, 10, 9, 9, 9, 6, 9, 6};
	static const char *const chead[8] = {"IOPS", "MB/s", "mean", "p99",
					     "max",  "CPU%", "asked", "%ask"};
	static const int order[8] = {6, 0, 7, 1, 2, 3, 4, 5}; /* drawn left to right */
	bool show[8] = {true, true, true, true, true, true, rate, rate};
	static const int drop[3] = {4, 1, 2};
	int need = 5;
	for (int k = 0; k < 8; k++)
		need += show[k] ? cw[k] : 0;
	for (int d = 0; d < 3 && need > wd; d++) {
		show[drop[d]] = false;
		need -= cw[drop[d]];
	}
	int hx = draw_fmt(a, w, 1, 0, wd, ROLE_HEADER, "%5s", qlab);
	for (int o = 0; o < 8; o++)
		if (show[order[o]])
			hx += draw_fmt(a, w, 1, hx, wd - hx, ROLE_HEADER, "%*s", cw[order[o]],
				       chead[order[o]]);
	int cur, n = src->ops->nrows(src->ctx, &cur);
	int first = n - (h - 2) > 0 ? n - (h - 2) : 0;
	if (cur < first)
		first = cur;
	for (int i = first, row = 2; i < n && row < h; i++, row++) {
		struct resdir_row q;
		enum source_row st = src->ops->row(src->ctx, (unsigned)i, &q);
		if (st == SOURCE_ROW_PENDING) {
			draw_fmt(a, w, row, 0, wd, ROLE_DIM, "%5u %8s", q.qd, "-");
			continue;
		}
		char c[8][24];
		axis_fmt(q.iops, UNIT_IOPS, a->ascii, c[0], 24);
		if (rate && q.asked > 0) { /* asked vs achieved */
			axis_fmt(q.asked, UNIT_IOPS, a->ascii, c[6], 24);
			snprintf(c[7], 24, isnan(q.iops) ? "N/A" : "%.0f%%", q.iops / q.asked * 100);
		} else { /* the max run asks for no rate */
			snprintf(c[6], 24, "-");
			snprintf(c[7], 24, "-");
		}
		snprintf(c[1], 24, isnan(q.bw) ? "N/A" : "%.0f", q.bw / 1e6);
		axis_fmt(q.mean_us, UNIT_US, a->ascii, c[2], 24);
		axis_fmt(q.p99_us, UNIT_US, a->ascii, c[3], 24);
		axis_fmt(q.max_us, UNIT_US, a->ascii, c[4], 24);
		snprintf(c[5], 24, isnan(q.cpu_pct) ? "N/A" : "%.0f", q.cpu_pct);
		int role = st == SOURCE_ROW_DONE ? ROLE_NORMAL : ROLE_WARN;
		char qd[16];
		if (q.qd == 0 && !strcmp(qlab, "pt%"))
			snprintf(qd, sizeof(qd), "%5s", "max");
		else
			snprintf(qd, sizeof(qd), "%5u", q.qd);
		int x = draw_str(a, w, row, 0, wd, role, qd);
		/* pad by display width (the micro sign is two bytes) */
		for (int o = 0; o < 8 && x < wd; o++) {
			int k = order[o];
			if (!show[k])
				continue;
			int pad = cw[k] - draw_width(c[k]);
			x += pad > 0 ? pad : 0;
			x += draw_str(a, w, row, x, wd - x, role, c[k]);
		}
	}
}

static void number_row(struct app *a, WINDOW *w, int y, const char *label, double now, double avg,
		       enum axis_unit u)
{
	int wd = getmaxx(w);
	char n[24], v[24];
	if (u == UNIT_BPS) { /* the label says MB/s: plain numbers fit better */
		snprintf(n, sizeof(n), isnan(now) ? "N/A" : "%.0f", now / 1e6);
		snprintf(v, sizeof(v), isnan(avg) ? "N/A" : "%.0f", avg / 1e6);
	} else {
		axis_fmt(now, u, a->ascii, n, sizeof(n));
		axis_fmt(avg, u, a->ascii, v, sizeof(v));
	}
	int cw = (wd - 9) / 2;
	draw_str(a, w, y, 0, 9, ROLE_NORMAL, label);
	draw_str(a, w, y, 9 + cw - draw_width(n), cw, ROLE_NORMAL, n);
	draw_str(a, w, y, 9 + 2 * cw - draw_width(v), cw, ROLE_HEADER, v);
}

static void pane_numbers(struct app *a, WINDOW *w)
{
	const struct series *s = app_series(a, -1);
	const struct point *lp = now_point(s);
	double dt = 0, io[2] = {0, 0}, by[2] = {0, 0}, lsum = 0, lw = 0, lmax = NAN;
	double dsum[2] = {0, 0}; /* per direction: mean latency x I/Os */
	uint64_t errors = 0;
	for (size_t k = 0; k < s->n; k++) {
		const struct point *pt = &s->pt[k];
		errors += pt->errors;
		if (pt->ramp)
			continue;
		dt += pt->dt;
		for (int d = 0; d < 2; d++) {
			io[d] += pt->iops[d] * pt->dt;
			by[d] += pt->bw[d] * pt->dt;
			if (!isnan(pt->lat_mean_us[d]))
				dsum[d] += pt->lat_mean_us[d] * pt->iops[d] * pt->dt;
		}
		double n = (pt->iops[0] + pt->iops[1]) * pt->dt;
		if (!isnan(pt->lat_mean_all_us) && n > 0) {
			lsum += pt->lat_mean_all_us * n;
			lw += n;
		}
		for (int d = 0; d < 2; d++)
			if (!isnan(pt->lat_max_us[d]) &&
			    (isnan(lmax) || pt->lat_max_us[d] > lmax) && pt->iops[d] > 0)
				lmax = pt->lat_max_us[d];
	}
	double avg_mean = lw > 0 ? lsum / lw : NAN, avg_p99 = NAN, avg_p9999 = NAN;
	struct source sv = app_source(a);
	const struct source *src = &sv;
	struct source_info in;
	src->ops->info(src->ctx, &in);
	/* a mixed workload: each direction's latency apart */
	bool mixed = io[0] > 0 && io[1] > 0;
	double dmean[2], dp99[2] = {NAN, NAN};
	for (int d = 0; d < 2; d++)
		dmean[d] = io[d] > 0 ? dsum[d] / io[d] : NAN;
	if (in.valid & SOURCE_HAS_HIST) { /* the run's full histograms */
		for (int d = 0; d < 2; d++) {
			const struct hist *hd = src->ops->hist(src->ctx, (enum nvs_dir)d);
			if (hd && hd->n) {
				dmean[d] = hist_mean(hd) / 1e3;
				dp99[d] = (double)hist_percentile(hd, 99) / 1e3;
			}
		}
		struct lat_all l;
		result_lat_pair(src->ops->hist(src->ctx, NVS_READ), src->ops->hist(src->ctx, NVS_WRITE),
				&l);
		if (l.n) {
			avg_mean = l.mean_us;
			avg_p99 = l.p99_us;
			avg_p9999 = l.p9999_us;
			lmax = l.max_us;
		}
	}
	draw_header(a, w, "Numbers", "now    avg");
	int y = 1, h = getmaxy(w);
	double now_iops = lp ? lp->iops[0] + lp->iops[1] : NAN;
	if (a->theme.bignum && h >= 14) {
		char big[16];
		axis_fmt(now_iops, UNIT_IOPS, true, big, sizeof(big));
		if (draw_big(a, w, y, 1, getmaxx(w) - 1, ROLE_BIGNUM,
			     isnan(now_iops) ? "0" : big)) {
			draw_str(a, w, y + 5, 1, 20, ROLE_BIGNUM, "IOPS");
			y += 6;
		}
	}
	number_row(a, w, y++, "IOPS R", lp ? lp->iops[0] : NAN, dt > 0 ? io[0] / dt : NAN,
		   UNIT_IOPS);
	number_row(a, w, y++, "     W", lp ? lp->iops[1] : NAN, dt > 0 ? io[1] / dt : NAN,
		   UNIT_IOPS);
	number_row(a, w, y++, "MB/s", lp ? lp->bw[0] + lp->bw[1] : NAN,
		   dt > 0 ? (by[0] + by[1]) / dt : NAN, UNIT_BPS);
	if (mixed) {
		static const char *const lab[2][2] = {{"mean R", "     W"}, {"p99 R", "    W"}};
		for (int m = 0; m < 2; m++)
			for (int d = 0; d < 2; d++) {
				double now = lp && lp->iops[d] > 0
						 ? (m ? lp->lat_p99_us[d] : lp->lat_mean_us[d])
						 : NAN;
				number_row(a, w, y++, lab[m][d], now, m ? dp99[d] : dmean[d],
					   UNIT_US);
			}
	} else {
		number_row(a, w, y++, "lat mean", lp ? lp->lat_mean_all_us : NAN, avg_mean,
			   UNIT_US);
		number_row(a, w, y++, "lat p99", lp ? lp->lat_p99_all_us : NAN, avg_p99, UNIT_US);
	}
	if (y < h - 2)
		number_row(a, w, y++, "p99.99",
			   lp && in.valid & SOURCE_HAS_IVAL_PCT
			       ? src->ops->interval_pct(src->ctx, lp->t, 99.99)
			       : NAN,
			   avg_p9999, UNIT_US);
	double now_max = lp ? fmax(lp->iops[0] > 0 ? lp->lat_max_us[0] : 0,
				   lp->iops[1] > 0 ? lp->lat_max_us[1] : 0)
			    : NAN;
	if (y < h - 1)
		number_row(a, w, y++, "max", now_max, lmax, UNIT_US);
	uint64_t dropped = in.valid & SOURCE_HAS_DROPPED ? in.dropped : 0;
	draw_fmt(a, w, y, 1, getmaxx(w) - 1, errors || dropped ? ROLE_WARN : ROLE_DIM,
		 "errors %llu  dropped %llu", (unsigned long long)errors,
		 (unsigned long long)dropped);
}

static void pane_cpu(struct app *a, WINDOW *w)
{
	int wd = getmaxx(w), h = getmaxy(w);
	draw_header(a, w, "CPU", "usr sys io irq");
	if (!a->cpu) {
		draw_str(a, w, 1, 1, wd - 1, ROLE_DIM, "N/A (no /proc/stat)");
		return;
	}
	const struct series *s = app_series(a, -1);
	const struct point *lp = now_point(s);
	int ncpu = (int)cpu_count(a->cpu);
	int rows = h - 3; /* header, own CPU, IOPS per core */
	int show = ncpu <= rows ? ncpu : 0;
	static const int roles[4] = {ROLE_CPU_USER, ROLE_CPU_SYSTEM, ROLE_CPU_IOWAIT, ROLE_CPU_IRQ};
	int y = 1;
	for (int i = -1; i < show && y < h - 2; i++) {
		if (i < 0 && show && ncpu == 1)
			continue;
		const struct cpu_util *u = cpu_get(a->cpu, i);
		if (!u)
			continue;
		double pct[4] = {u->user, u->system, u->iowait, u->irq};
		double busy = u->user + u->system + u->irq;
		char lab[8];
		snprintf(lab, sizeof(lab), i < 0 ? "all" : "%d", i);
		draw_fmt(a, w, y, 0, 4, ROLE_NORMAL, "%3s", lab);
		draw_str(a, w, y, 4, 1, ROLE_DIM, "[");
		int bw = wd - 11;
		if (bw > 1)
			draw_bar(a, w, y, 5, bw, pct, roles, 4);
		draw_str(a, w, y, 5 + (bw > 0 ? bw : 0), 1, ROLE_DIM, "]");
		draw_fmt(a, w, y, wd - 5, 5, ROLE_NORMAL, "%3.0f%%", busy);
		y++;
	}
	double own = lp ? lp->cpu_pct : NAN;
	double iops = lp ? lp->iops[0] + lp->iops[1] : NAN;
	char v[24];
	axis_fmt(own > 0 ? iops / (own / 100) : NAN, UNIT_IOPS, a->ascii, v, sizeof(v));
	char wk[16], ui[16];
	snprintf(wk, sizeof(wk), isnan(own) ? "N/A" : "%.0f%%", own);
	snprintf(ui, sizeof(ui), isnan(a->ui_cpu) ? "N/A" : "%.1f%%", a->ui_cpu);
	/* shorter labels rather than a cut figure on a narrow pane */
	char line[64];
	snprintf(line, sizeof(line), "nvscope workers %s ui %s", wk, ui);
	if (draw_width(line) > wd - 1)
		snprintf(line, sizeof(line), "workers %s ui %s", wk, ui);
	if (draw_width(line) > wd - 1)
		snprintf(line, sizeof(line), "wrk %s ui %s", wk, ui);
	draw_str(a, w, h - 2, 1, wd - 1, ROLE_NORMAL, line);
	draw_fmt(a, w, h - 1, 1, wd - 1, ROLE_NORMAL, "IOPS per core %s", v);
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
	    {"kf5", "F5", "Enter"},
	    {"kf6", "F6", "v"},
	    {"kf9", "F9", "s"},
	    {"kf10", "F10", "q"},
	};
	char has[128] = "", lacks[160] = "";
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

void panes_draw_help(struct app *a)
{
	/* generated from the key table (keys.c), in two columns when the
	 * screen is wide enough, and what this terminal has */
	char kl[64][48], tk[200], tk2[200];
	int nk = keys_help(kl, 64);
	term_keys(tk, sizeof(tk), tk2, sizeof(tk2));
	int cols = a->cols >= 2 * 38 + 4 ? 2 : 1, per = (nk + cols - 1) / cols;
	int tkw = draw_width(tk) + 4, bw = cols * 38 + 3;
	if (tkw > bw)
		bw = tkw;
	if (draw_width(tk2) + 4 > bw)
		bw = draw_width(tk2) + 4;
	if (bw > a->cols)
		bw = a->cols;
	int bh = per + 5; /* title, keys, terminal (two lines); borders */
	if (bh > a->rows)
		bh = a->rows;
	struct rect r = layout_center(a->cols, a->rows, bw, bh);
	if (a->overlay)
		delwin(a->overlay);
	a->overlay = newwin(r.h, r.w, r.y, r.x);
	if (!a->overlay)
		return;
	WINDOW *w = a->overlay;
	draw_role(a, w, ROLE_NORMAL);
	werase(w);
	for (int y = 0; y < r.h; y++)
		draw_fill(a, w, y, ROLE_NORMAL);
	draw_role(a, w, ROLE_BORDER);
	if (a->ascii)
		wborder(w, '|', '|', '-', '-', '+', '+', '+', '+');
	else
		box(w, 0, 0);
	draw_str(a, w, 1, 2, r.w - 4, ROLE_HEADER,
		 "nvscope console - keys (every action has a letter; any key closes)");
	for (int i = 0; i < nk; i++) {
		int y = 2 + i % per, x = 2 + (i / per) * 38;
		if (y < r.h - 3)
			draw_str(a, w, y, x, r.w - 2 - x, ROLE_NORMAL, kl[i]);
	}
	draw_str(a, w, r.h - 3, 2, r.w - 4, ROLE_DIM, tk);
	draw_str(a, w, r.h - 2, 2, r.w - 4, ROLE_DIM, tk2);
	wnoutrefresh(w);
}

void panes_draw_confirm(struct app *a)
{
	int w = a->cols - 4 < 72 ? a->cols - 4 : 72;
	int len = (int)strlen(a->confirm), inner = w - 4;
	int lines = inner > 0 ? (len + inner - 1) / inner : 1;
	struct rect r = layout_center(a->cols, a->rows, w, lines + 5);
	if (a->overlay)
		delwin(a->overlay);
	a->overlay = newwin(r.h, r.w, r.y, r.x);
	if (!a->overlay || inner <= 0)
		return;
	WINDOW *o = a->overlay;
	for (int y = 0; y < r.h; y++)
		draw_fill(a, o, y, ROLE_ERROR);
	draw_role(a, o, ROLE_ERROR);
	if (a->ascii)
		wborder(o, '|', '|', '-', '-', '+', '+', '+', '+');
	else
		box(o, 0, 0);
	draw_str(a, o, 1, 2, inner, ROLE_ERROR, "THIS WORKLOAD WRITES AND DESTROYS DATA");
	for (int i = 0; i < lines && 3 + i < r.h - 1; i++)
		draw_str(a, o, 3 + i, 2, inner, ROLE_ERROR, a->confirm + i * inner);
	wnoutrefresh(o);
}

void panes_draw_too_small(struct app *a)
{
	WINDOW *w = stdscr;
	draw_role(a, w, ROLE_NORMAL);
	werase(w);
	char buf[128];
	int y = a->rows / 2 - 1;
	if (y < 0)
		y = 0;
	snprintf(buf, sizeof(buf), "Terminal too small: %dx%d", a->cols, a->rows);
	draw_str(a, w, y, 0, a->cols, ROLE_WARN, buf);
	snprintf(buf, sizeof(buf), "nvscope needs %dx%d", LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS);
	draw_str(a, w, y + 1, 0, a->cols, ROLE_WARN, buf);
	draw_str(a, w, y + 2, 0, a->cols, ROLE_NORMAL, "Enlarge it (q quits)");
	wnoutrefresh(w);
}

static void (*const pane_fn[PANE_COUNT])(struct app *, WINDOW *) = {
    [PANE_TITLE] = pane_title,	 [PANE_STATUS] = pane_status,	[PANE_DEVICES] = pane_devices,
    [PANE_LAUNCH] = pane_launch, [PANE_FORM] = pane_form,	[PANE_IOPS] = pane_iops,
    [PANE_LAT] = pane_lat,	 [PANE_HEALTH] = pane_health,	[PANE_TARGETS] = pane_targets,
    [PANE_QD] = pane_qd,	 [PANE_NUMBERS] = pane_numbers, [PANE_CPU] = pane_cpu,
    [PANE_STEPS] = planui_draw_steps,
};

void panes_draw(struct app *a, enum pane_id p)
{
	WINDOW *w = a->win[p];
	if (!w)
		return;
	draw_role(a, w, ROLE_NORMAL);
	wbkgdset(w, ' ' | a->attr[ROLE_NORMAL] | COLOR_PAIR(a->pair[ROLE_NORMAL]));
	werase(w);
	pane_fn[p](a, w);
	wnoutrefresh(w);
}

/* strips.c - the live time strips: IOPS or MB/s, latency, health and the
 * per-target strips (draw.c draws the canvas; this file decides what goes
 * on it).  Split out of panes.c. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "base/num.h"
#include "ui/app.h"
#include "ui/strips.h"

/* The newest point for "now" figures: the last one, unless it is a short
 * tail interval (the end of a job), which would show a meaningless rate. */
const struct point *strips_now_point(const struct series *s)
{
	if (!s->n)
		return NULL;
	if (s->n >= 2 && s->pt[s->n - 1].dt < 0.5 * s->pt[s->n - 2].dt)
		return &s->pt[s->n - 2];
	return &s->pt[s->n - 1];
}

void strips_points(struct plot_ser *ps, const struct series *s, size_t off, uint8_t role)
{
	ps->base = s->pt;
	ps->n = s->n;
	ps->stride = sizeof(struct point);
	ps->off = off;
	ps->role = role;
}

void strips_iops(const struct pane_ctx *c, WINDOW *w, struct ui_steady *st)
{
	struct source_mark mk[SOURCE_MAX_MARKS];
	struct plot p = {.log = c->view->log,
			 .labels = true,
			 .style = c->view->style,
			 .stack = true,
			 .marks = mk};
	p.nmarks = c->src.ops->marks(c->src.ctx, mk, SOURCE_MAX_MARKS);
	const struct series *s = pane_series(c, -1);
	p.t0 = c->t0;
	p.t1 = c->t1;
	p.unit = c->view->mbps ? UNIT_BPS : UNIT_IOPS;
	int wd0 = getmaxx(w), h0 = getmaxy(w) - 1;
	/* the steady-state band and slope line first, the samples over them
	 * (not in fill style: the areas would hide or stack them) */
	if (c->view->style != PLOT_FILL && steady_rows(st, c, h0))
		p.nser = steady_overlay(st, c, p.t0, p.t1, wd0 - draw_plot_label_w(wd0, p.labels),
					p.ser, 2);
	size_t r = c->view->mbps ? offsetof(struct point, bw[NVS_READ])
				 : offsetof(struct point, iops[NVS_READ]);
	size_t wr = c->view->mbps ? offsetof(struct point, bw[NVS_WRITE])
				  : offsetof(struct point, iops[NVS_WRITE]);
	/* a direction that never did I/O in the run is not drawn (no line of
	 * zeros under a read-only run); a stall to 0 of an active one is */
	bool has[NVS_NDIR] = {false, false};
	for (size_t i = 0; i < s->n && !(has[0] && has[1]); i++)
		for (int d = 0; d < NVS_NDIR; d++)
			has[d] |= s->pt[i].iops[d] > 0;
	if (has[NVS_WRITE] || !has[NVS_READ])
		strips_points(&p.ser[p.nser++], s, wr, ROLE_WRITE);
	if (has[NVS_READ])
		strips_points(&p.ser[p.nser++], s, r, ROLE_READ);
	char title[96], now[24];
	const struct point *lp = strips_now_point(s);
	double v = lp ? (c->view->mbps ? point_bw(lp) : point_iops(lp)) : NAN;
	axis_fmt(v, p.unit, c->p->ascii, now, sizeof(now));
	snprintf(title, sizeof(title), "%s %s  now %s", c->view->mbps ? "MB/s" : "IOPS",
		 c->view->log ? "(log)" : "(linear)", now);
	draw_header(c->p, w, title, "");
	int wd = getmaxx(w);
	/* legend in the series colours */
	int lx = wd - 14;
	if (lx > draw_width(title) + 4) {
		/* without colour the legend shows each series' glyph */
		draw_str(c->p, w, 0, lx, 6, ROLE_READ, c->p->nocolour ? "+read " : " read ");
		draw_str(c->p, w, 0, lx + 6, 7, ROLE_WRITE, c->p->nocolour ? "xwrite" : "write ");
	}
	int h = getmaxy(w) - 1, sr = steady_rows(st, c, h);
	draw_plot(c->p, w, 1, 0, h - sr, wd - 1,
		  &p); /* a blank column before the pane on its right */
	if (sr) {
		int lw = draw_plot_label_w(wd, p.labels);
		steady_draw(st, c, w, 1 + h - sr, sr, lw, wd - lw, p.t0, p.t1);
	}
}

void strips_lat(const struct pane_ctx *c, WINDOW *w)
{
	struct source_mark mk[SOURCE_MAX_MARKS];
	struct plot p = {.log = c->view->log,
			 .labels = true,
			 .unit = UNIT_US,
			 .style = c->view->style,
			 .marks = mk};
	p.nmarks = c->src.ops->marks(c->src.ctx, mk, SOURCE_MAX_MARKS);
	const struct series *s = pane_series(c, -1);
	p.t0 = c->t0;
	p.t1 = c->t1;
	strips_points(&p.ser[0], s, offsetof(struct point, lat_p99_all_us), ROLE_LAT_P99);
	strips_points(&p.ser[1], s, offsetof(struct point, lat_mean_all_us), ROLE_LAT_MEAN);
	p.nser = 2;
	char title[96], m[24], q[24];
	const struct point *lp = strips_now_point(s);
	axis_fmt(lp ? lp->lat_mean_all_us : NAN, UNIT_US, c->p->ascii, m, sizeof(m));
	axis_fmt(lp ? lp->lat_p99_all_us : NAN, UNIT_US, c->p->ascii, q, sizeof(q));
	snprintf(title, sizeof(title), "Latency %s  mean %s p99 %s",
		 c->view->log ? "(log)" : "(linear)", m, q);
	draw_header(c->p, w, title, "");
	int wd = getmaxx(w), lx = wd - 12;
	if (lx > draw_width(title) + 4) {
		draw_str(c->p, w, 0, lx, 6, ROLE_LAT_MEAN, c->p->nocolour ? "*mean " : " mean ");
		draw_str(c->p, w, 0, lx + 6, 4, ROLE_LAT_P99, c->p->nocolour ? "op99" : "p99 ");
	}
	draw_plot(c->p, w, 1, 0, getmaxy(w) - 1, wd - 1, &p);
}

void strips_health(const struct pane_ctx *c, WINDOW *w, const struct ui_health *hl)
{
	struct plot p = {.log = false, .labels = true, .unit = UNIT_DEGC, .near = true};
	p.t0 = c->t0;
	p.t1 = c->t1;
	const struct source_health *hp; /* played back: what was recorded so far */
	size_t nhp = c->src.ops->health(c->src.ctx, &hp);
	const char *from = hl->health_path[0] ? hl->health_path : "(recorded)";
	p.ser[0] = (struct plot_ser){hp, nhp, sizeof(struct source_health),
				     offsetof(struct source_health, temp_c), ROLE_TEMP};
	p.nser = 1;
	char title[128];
	const struct source_health *lh = nhp ? &hp[nhp - 1] : NULL;
	char cw[420] = "", txt[420] = "";
	bool warned = lh && lh->crit;
	if (warned) {
		dev_cw_text(lh->crit, cw, sizeof(cw));
		snprintf(txt, sizeof(txt), "CRITICAL: %.400s", cw);
	}
	if (hl->hset && healthset_count(hl->hset) > 1) { /* every running controller's */
		warned = healthset_summary(hl->hset, txt, sizeof(txt)) > 0;
		const char *names = strstr(txt, "CRITICAL: "); /* narrow: "!nvme1 reliab.." */
		snprintf(cw, sizeof(cw), "%.400s", names ? names + 10 : txt);
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
				 from, lh->temp_c, lh->throttle);
		else
			snprintf(title, sizeof(title),
				 form == 0 ? "Health %.60s  temperature N/A" : "Health%.0s N/A",
				 from);
		if (!txt[0] || draw_width(title) <= avail)
			break;
	}
	draw_header(c->p, w, title, "");
	if (warned) {
		/* the critical warning in the spec's words, in the alert style */
		char fit[256];
		int x = draw_width(title) + 3, room = getmaxx(w) - x - 1;
		if (draw_width(txt) > room)
			snprintf(txt, sizeof(txt), "!%.400s", cw);
		if (room > 0) {
			devrows_fit(fit, sizeof(fit), txt,
				    room < draw_width(txt) ? room : draw_width(txt), c->p->ascii);
			draw_str(c->p, w, 0, x, room, ROLE_ERROR, fit);
		}
	}
	/* two rows: the strip without its own time axis */
	p.labels = getmaxy(w) - 1 >= 4;
	draw_plot(c->p, w, 1, 0, getmaxy(w) - 1, getmaxx(w) - 1, &p);
	if (!p.labels && getmaxx(w) > 7)
		for (size_t i = 1; i < nhp; i++)
			if (hp[i].throttle > hp[i - 1].throttle) {
				int64_t x64 = 0;
				(void)num_to_i64((hp[i].t - p.t0) / (p.t1 - p.t0) *
						     (getmaxx(w) - 1),
						 0, getmaxx(w) - 1, &x64);
				int x = (int)x64;
				draw_str(c->p, w, getmaxy(w) - 1, x, 1, ROLE_WARN, "!");
			}
}

/* One small strip per target (or per copy of a trace storm), each with its
 * own scale (the value labels on the left, its largest value shown in its
 * title line), separated by their title lines and a rule between columns;
 * pages of them when they do not all fit (n / p). */
void strips_targets(const struct pane_ctx *c, WINDOW *w)
{
	unsigned nt = pane_ntargets(c);
	struct rect area = {0, 1, getmaxx(w), getmaxy(w) - 1}, cells[NVS_MAX_TARGETS];
	int fit = layout_grid(&area, (int)nt, 24, 3, cells);
	if (fit < 1)
		fit = 1;
	int pages = ((int)nt + fit - 1) / fit;
	if (c->view->tgt_page >= pages)
		c->view->tgt_page = pages - 1;
	if (c->view->tgt_page < 0)
		c->view->tgt_page = 0;
	bool copies = pane_copies(c) > 0;
	char right[48];
	snprintf(right, sizeof(right),
		 pages > 1 ? "%d/%d (n p)"
		 : copies  ? "%d copies"
			   : "%d targets",
		 pages > 1 ? c->view->tgt_page + 1 : (int)nt, pages);
	draw_header(c->p, w, copies ? "Per copy IOPS" : "Per target IOPS", right);
	double t0 = c->t0, t1 = c->t1;
	for (int i = 0; i < fit; i++) {
		unsigned t = (unsigned)(c->view->tgt_page * fit + i);
		if (t >= nt)
			break;
		const struct rect *cell = &cells[i];
		const struct series *s = pane_series(c, (int)t);
		struct plot p = {.t0 = t0,
				 .t1 = t1,
				 .log = c->view->log,
				 .unit = UNIT_IOPS,
				 .labels = true,
				 .style = c->view->style,
				 .stack = true};
		bool hw = false;
		for (size_t k = 0; k < s->n && !hw; k++)
			hw = s->pt[k].iops[NVS_WRITE] > 0;
		if (hw)
			strips_points(&p.ser[p.nser++], s, offsetof(struct point, iops[NVS_WRITE]),
				      ROLE_WRITE);
		strips_points(&p.ser[p.nser++], s, offsetof(struct point, iops[NVS_READ]),
			      ROLE_READ);
		double top = draw_plot(c->p, w, cell->y + 1, cell->x, cell->h - 1, cell->w - 1, &p);
		/* the title line: a rule with the name, now and the largest value */
		draw_role(c->p, w, ROLE_BORDER);
		if (c->p->ascii)
			mvwhline(w, cell->y, cell->x, '-', cell->w - 1);
		else
			mvwhline(w, cell->y, cell->x, ACS_HLINE, cell->w - 1);
		const struct point *lp = strips_now_point(s);
		char v[24], mx[24], name[64], fitn[96], buf[160];
		axis_fmt(lp ? point_iops(lp) : NAN, UNIT_IOPS, c->p->ascii, v, sizeof(v));
		axis_fmt(top, UNIT_IOPS, c->p->ascii, mx, sizeof(mx));
		const char *path = pane_target_name(c, t);
		const char *base = strrchr(path, '/');
		snprintf(name, sizeof(name), "%.60s", base ? base + 1 : path);
		int room = cell->w - 3 - draw_width(v) - 1 - (isnan(top) ? 0 : 5 + draw_width(mx));
		if (room < 4) { /* narrow: the name before the largest value */
			room = cell->w - 3 - draw_width(v) - 1;
			top = NAN;
		}
		devrows_fit(fitn, sizeof(fitn), name,
			    draw_width(name) < room ? draw_width(name) : room, c->p->ascii);
		snprintf(buf, sizeof(buf), "%s %s", fitn, v);
		int x = cell->x + 1 +
			draw_str(c->p, w, cell->y, cell->x + 1, cell->w - 2, ROLE_HEADER, buf);
		if (!isnan(top)) {
			snprintf(buf, sizeof(buf), "max %s", mx);
			int bx = cell->x + cell->w - 2 - draw_width(buf);
			if (bx > x)
				draw_str(c->p, w, cell->y, bx, cell->w - 2, ROLE_AXIS, buf);
		}
		/* a rule between side-by-side strips */
		if (cell->x + cell->w < area.w) {
			draw_role(c->p, w, ROLE_BORDER);
			for (int yy = cell->y + 1; yy < cell->y + cell->h; yy++)
				if (c->p->ascii)
					mvwaddch(w, yy, cell->x + cell->w - 1, '|');
				else
					mvwaddch(w, yy, cell->x + cell->w - 1, ACS_VLINE);
		}
	}
}

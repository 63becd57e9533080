/* tables.c - the live panes of figures: per queue depth, Numbers and CPU.
 * Split out of panes.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "stats/result.h"
#include "ui/app.h"
#include "ui/strips.h"
#include "ui/tables.h"

/* Mean, p99 and max of both directions of a result, in us. */
void tables_qd(const struct pane_ctx *c, WINDOW *w)
{
	int wd = getmaxx(w), h = getmaxy(w);
	/* a plan's rate curve lists its points (% of max), a grid threads x QD */
	struct source sv = c->src;
	const struct source *src = &sv;
	struct source_info in;
	src->ops->info(src->ctx, &in);
	const char *kind = in.step_kind;
	const char *qlab = !strcmp(kind, "rate-curve") ? "pt%"
			   : !strcmp(kind, "grid")     ? "TxQD"
						       : "QD";
	int cur, n = src->ops->nrows(src->ctx, &cur);
	/* the newest rows (and the running one) unless scrolled back; rows
	 * out of sight are counted in the header, never dropped silently */
	int last = n - (h - 2) > 0 ? n - (h - 2) : 0, first = last;
	if (cur < first)
		first = cur;
	/* scrolled back (qd_back > 0) or on past the running row (< 0: a
	 * plan's or a played run's rows after it), every row reachable */
	if (c->view->qd_back > first)
		c->view->qd_back = first;
	if (c->view->qd_back < first - last)
		c->view->qd_back = first - last;
	first -= c->view->qd_back;
	int below = n - first - (h - 2) > 0 ? n - first - (h - 2) : 0;
	char right[160];
	char up[24] = "", down[24] = "";
	/* where g and G move the play position, its pages are K and J */
	const char *ends = pane_can(c, SOURCE_CAN_PLAY) ? "K J" : "g G";
	if (first)
		snprintf(up, sizeof(up), "%s%d ", c->p->ascii ? "^" : "\xe2\x86\x91", first);
	if (below)
		snprintf(down, sizeof(down), "%s%d ", c->p->ascii ? "v" : "\xe2\x86\x93", below);
	if (first || below)
		snprintf(right, sizeof(right), "%s%smore (k j %s)", up, down, ends);
	else
		snprintf(right, sizeof(right), "%s", in.rows_from);
	draw_header(c->p, w, "Per queue depth", right);
	/* columns: QD and six values (a rate curve: and the asked rate, the
	 * achieved % of it); when they do not all fit, max, then MB/s, then
	 * mean are left out (never a value cut to a wrong one) */
	bool rate = !strcmp(kind, "rate-curve");
	static const int cw[8] = {9, 10, 9, 9, 9, 6, 9, 6};
	static const char *const chead[8] = {"IOPS", "MB/s", "mean",  "p99",
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
	int hx = draw_fmt(c->p, w, 1, 0, wd, ROLE_HEADER, "%5s", qlab);
	for (int o = 0; o < 8; o++)
		if (show[order[o]])
			hx += draw_fmt(c->p, w, 1, hx, wd - hx, ROLE_HEADER, "%*s", cw[order[o]],
				       chead[order[o]]);
	for (int i = first, row = 2; i < n && row < h; i++, row++) {
		struct resdir_row q;
		enum source_row st = src->ops->row(src->ctx, (unsigned)i, &q);
		if (st == SOURCE_ROW_PENDING) {
			draw_fmt(c->p, w, row, 0, wd, ROLE_DIM, "%5u %8s", q.qd, "-");
			continue;
		}
		char cell[8][24];
		axis_fmt(q.iops, UNIT_IOPS, c->p->ascii, cell[0], 24);
		if (rate && q.asked > 0) { /* asked vs achieved */
			axis_fmt(q.asked, UNIT_IOPS, c->p->ascii, cell[6], 24);
			snprintf(cell[7], 24, isnan(q.iops) ? "N/A" : "%.0f%%",
				 q.iops / q.asked * 100);
		} else { /* the max run asks for no rate */
			snprintf(cell[6], 24, "-");
			snprintf(cell[7], 24, "-");
		}
		snprintf(cell[1], 24, isnan(q.bw) ? "N/A" : "%.0f", q.bw / 1e6);
		axis_fmt(q.mean_us, UNIT_US, c->p->ascii, cell[2], 24);
		axis_fmt(q.p99_us, UNIT_US, c->p->ascii, cell[3], 24);
		axis_fmt(q.max_us, UNIT_US, c->p->ascii, cell[4], 24);
		snprintf(cell[5], 24, isnan(q.cpu_pct) ? "N/A" : "%.0f", q.cpu_pct);
		int role = st == SOURCE_ROW_DONE ? ROLE_NORMAL : ROLE_WARN;
		char qd[16];
		if (q.qd == 0 && !strcmp(qlab, "pt%"))
			snprintf(qd, sizeof(qd), "%5s", "max");
		else
			snprintf(qd, sizeof(qd), "%5u", q.qd);
		int x = draw_str(c->p, w, row, 0, wd, role, qd);
		/* pad by display width (the micro sign is two bytes) */
		for (int o = 0; o < 8 && x < wd; o++) {
			int k = order[o];
			if (!show[k])
				continue;
			int pad = cw[k] - draw_width(cell[k]);
			x += pad > 0 ? pad : 0;
			x += draw_str(c->p, w, row, x, wd - x, role, cell[k]);
		}
	}
}

static void number_row(struct paint *pa, WINDOW *w, int y, const char *label, double now,
		       double avg, enum axis_unit u)
{
	int wd = getmaxx(w);
	char n[24], v[24];
	if (u == UNIT_BPS) { /* the label says MB/s: plain numbers fit better */
		snprintf(n, sizeof(n), isnan(now) ? "N/A" : "%.0f", now / 1e6);
		snprintf(v, sizeof(v), isnan(avg) ? "N/A" : "%.0f", avg / 1e6);
	} else {
		axis_fmt(now, u, pa->ascii, n, sizeof(n));
		axis_fmt(avg, u, pa->ascii, v, sizeof(v));
	}
	int cw = (wd - 9) / 2;
	draw_str(pa, w, y, 0, 9, ROLE_NORMAL, label);
	draw_str(pa, w, y, 9 + cw - draw_width(n), cw, ROLE_NORMAL, n);
	draw_str(pa, w, y, 9 + 2 * cw - draw_width(v), cw, ROLE_HEADER, v);
}

/* The run's averages the Numbers pane shows: from its series (measured
 * time, I/Os and bytes per direction, mean latency weighted by I/Os, the
 * largest max), then from the source's full histograms where it has them
 * (each direction's mean and p99, both's p99 and p99.99, the max). */
struct avgs {
	double dt, io[2], by[2];
	double mean, p99, p9999, max;
	double dmean[2], dp99[2];
	uint64_t errors;
};

static void avgs_series(const struct series *s, struct avgs *a)
{
	double dsum[2] = {0, 0}, lsum = 0, lw = 0; /* per direction: mean latency x I/Os */

	memset(a, 0, sizeof(*a));
	a->max = a->p99 = a->p9999 = a->dp99[0] = a->dp99[1] = NAN;
	for (size_t k = 0; k < s->n; k++) {
		const struct point *pt = &s->pt[k];
		a->errors += pt->errors;
		if (pt->ramp)
			continue;
		a->dt += pt->dt;
		for (int d = 0; d < 2; d++) {
			a->io[d] += pt->iops[d] * pt->dt;
			a->by[d] += pt->bw[d] * pt->dt;
			if (!isnan(pt->lat_mean_us[d]))
				dsum[d] += pt->lat_mean_us[d] * pt->iops[d] * pt->dt;
		}
		double n = point_iops(pt) * pt->dt;
		if (!isnan(pt->lat_mean_all_us) && n > 0) {
			lsum += pt->lat_mean_all_us * n;
			lw += n;
		}
		for (int d = 0; d < 2; d++)
			if (!isnan(pt->lat_max_us[d]) &&
			    (isnan(a->max) || pt->lat_max_us[d] > a->max) && pt->iops[d] > 0)
				a->max = pt->lat_max_us[d];
	}
	a->mean = lw > 0 ? lsum / lw : NAN;
	for (int d = 0; d < 2; d++)
		a->dmean[d] = a->io[d] > 0 ? dsum[d] / a->io[d] : NAN;
}

static void avgs_hist(const struct source *src, struct avgs *a)
{
	for (int d = 0; d < 2; d++) {
		const struct hist *hd = src->ops->hist(src->ctx, (enum nvs_dir)d);
		if (hd && hd->n) {
			a->dmean[d] = hist_mean(hd) / 1e3;
			a->dp99[d] = (double)hist_percentile(hd, 99) / 1e3;
		}
	}
	struct lat_all l;
	result_lat_pair(src->ops->hist(src->ctx, NVS_READ), src->ops->hist(src->ctx, NVS_WRITE),
			&l);
	if (l.n) {
		a->mean = l.mean_us;
		a->p99 = l.p99_us;
		a->p9999 = l.p9999_us;
		a->max = l.max_us;
	}
}

/* A source without the histograms: the whole run's percentiles from its
 * file (a played run at its end), where it has them. */
static void avgs_file(const struct source *src, struct avgs *a)
{
	for (int d = 0; d < 2; d++)
		a->dp99[d] = src->ops->run_pct(src->ctx, d, 99);
	a->p99 = src->ops->run_pct(src->ctx, -1, 99);
	a->p9999 = src->ops->run_pct(src->ctx, -1, 99.99);
}

/* The latency rows: each direction's mean and p99 for a mixed workload,
 * else both's; then p99.99 and the max where there is room.  The next row. */
static int latency_rows(const struct pane_ctx *c, WINDOW *w, int y, const struct point *lp,
			const struct avgs *a, const struct source_info *in)
{
	int h = getmaxy(w);
	if (a->io[0] > 0 && a->io[1] > 0) {
		static const char *const lab[2][2] = {{"mean R", "     W"}, {"p99 R", "    W"}};
		for (int m = 0; m < 2; m++)
			for (int d = 0; d < 2; d++) {
				double now = lp && lp->iops[d] > 0
						 ? (m ? lp->lat_p99_us[d] : lp->lat_mean_us[d])
						 : NAN;
				number_row(c->p, w, y++, lab[m][d], now,
					   m ? a->dp99[d] : a->dmean[d], UNIT_US);
			}
	} else {
		number_row(c->p, w, y++, "lat mean", lp ? lp->lat_mean_all_us : NAN, a->mean,
			   UNIT_US);
		number_row(c->p, w, y++, "lat p99", lp ? lp->lat_p99_all_us : NAN, a->p99, UNIT_US);
	}
	if (y < h - 2)
		number_row(c->p, w, y++, "p99.99",
			   lp && in->valid & SOURCE_HAS_IVAL_PCT
			       ? c->src.ops->interval_pct(c->src.ctx, lp->t, 99.99)
			       : NAN,
			   a->p9999, UNIT_US);
	double now_max = lp ? fmax(lp->iops[0] > 0 ? lp->lat_max_us[0] : 0,
				   lp->iops[1] > 0 ? lp->lat_max_us[1] : 0)
			    : NAN;
	if (y < h - 1)
		number_row(c->p, w, y++, "max", now_max, a->max, UNIT_US);
	return y;
}

void tables_numbers(const struct pane_ctx *c, WINDOW *w)
{
	const struct series *s = pane_series(c, -1);
	const struct point *lp = strips_now_point(s);
	struct source_info in;
	struct avgs a;

	avgs_series(s, &a);
	c->src.ops->info(c->src.ctx, &in);
	if (in.valid & SOURCE_HAS_HIST) /* the run's full histograms */
		avgs_hist(&c->src, &a);
	else if (in.valid & SOURCE_HAS_RUN_PCT)
		avgs_file(&c->src, &a);
	draw_header(c->p, w, "Numbers", "now    avg");
	int y = 1, h = getmaxy(w);
	double now_iops = lp ? point_iops(lp) : NAN;
	if (c->theme->bignum && h >= 14) {
		char big[16];
		axis_fmt(now_iops, UNIT_IOPS, true, big, sizeof(big));
		if (draw_big(c->p, w, y, 1, getmaxx(w) - 1, ROLE_BIGNUM,
			     isnan(now_iops) ? "0" : big, 1)) {
			draw_str(c->p, w, y + 5, 1, 20, ROLE_BIGNUM, "IOPS");
			y += 6;
		}
	}
	number_row(c->p, w, y++, "IOPS R", lp ? lp->iops[0] : NAN, a.dt > 0 ? a.io[0] / a.dt : NAN,
		   UNIT_IOPS);
	number_row(c->p, w, y++, "     W", lp ? lp->iops[1] : NAN, a.dt > 0 ? a.io[1] / a.dt : NAN,
		   UNIT_IOPS);
	number_row(c->p, w, y++, "MB/s", lp ? point_bw(lp) : NAN,
		   a.dt > 0 ? (a.by[0] + a.by[1]) / a.dt : NAN, UNIT_BPS);
	y = latency_rows(c, w, y, lp, &a, &in);
	uint64_t dropped = in.valid & SOURCE_HAS_DROPPED ? in.dropped : 0;
	draw_fmt(c->p, w, y, 1, getmaxx(w) - 1, a.errors || dropped ? ROLE_WARN : ROLE_DIM,
		 "errors %llu  dropped %llu", (unsigned long long)a.errors,
		 (unsigned long long)dropped);
}

double tables_cpu_fill(const struct cpu_util *u, double pct[3])
{
	pct[0] = u->user, pct[1] = u->system, pct[2] = u->irq;
	return pct[0] + pct[1] + pct[2];
}

void tables_cpu(const struct pane_ctx *c, WINDOW *w, const struct ui_cpu *cp)
{
	int wd = getmaxx(w), h = getmaxy(w);
	/* the bars and their percentages are the same thing: time busy (user,
	 * system, irq); iowait is idle time (the CPU waits for I/O), so it is
	 * said apart, as a figure on the title, not drawn as load */
	const struct cpu_util *all = cp->cpu ? cpu_get(cp->cpu, -1) : NULL;
	char right[48] = "usr sys irq";
	if (all)
		snprintf(right, sizeof(right), "usr sys irq  iowait %.0f%%", all->iowait);
	if (all && draw_width(right) + 12 > wd) /* narrow: the figure, not the legend */
		snprintf(right, sizeof(right), "iowait %.0f%%", all->iowait);
	draw_header(c->p, w, "CPU", right);
	if (!cp->cpu) {
		draw_str(c->p, w, 1, 1, wd - 1, ROLE_DIM, "N/A (no /proc/stat)");
		return;
	}
	const struct series *s = pane_series(c, -1);
	const struct point *lp = strips_now_point(s);
	int ncpu = (int)cpu_count(cp->cpu);
	int rows = h - 3; /* header, own CPU, IOPS per core */
	int show = ncpu <= rows ? ncpu : 0;
	static const int roles[3] = {ROLE_CPU_USER, ROLE_CPU_SYSTEM, ROLE_CPU_IRQ};
	int y = 1;
	for (int i = -1; i < show && y < h - 2; i++) {
		if (i < 0 && show && ncpu == 1)
			continue;
		const struct cpu_util *u = cpu_get(cp->cpu, i);
		if (!u)
			continue;
		double pct[3];
		double busy = tables_cpu_fill(u, pct);
		char lab[8];
		snprintf(lab, sizeof(lab), i < 0 ? "all" : "%d", i);
		draw_fmt(c->p, w, y, 0, 4, ROLE_NORMAL, "%3s", lab);
		draw_str(c->p, w, y, 4, 1, ROLE_DIM, "[");
		int bw = wd - 11;
		if (bw > 1)
			draw_bar(c->p, w, y, 5, bw, pct, roles, 3);
		draw_str(c->p, w, y, 5 + (bw > 0 ? bw : 0), 1, ROLE_DIM, "]");
		draw_fmt(c->p, w, y, wd - 5, 5, ROLE_NORMAL, "%3.0f%%", busy);
		y++;
	}
	double own = lp ? lp->cpu_pct : NAN;
	double iops = lp ? point_iops(lp) : NAN;
	char v[24];
	axis_fmt(own > 0 ? iops / (own / 100) : NAN, UNIT_IOPS, c->p->ascii, v, sizeof(v));
	char wk[16], ui[16];
	snprintf(wk, sizeof(wk), isnan(own) ? "N/A" : "%.0f%%", own);
	snprintf(ui, sizeof(ui), isnan(cp->ui_cpu) ? "N/A" : "%.1f%%", cp->ui_cpu);
	/* shorter labels rather than a cut figure on a narrow pane */
	char line[64];
	snprintf(line, sizeof(line), "nvscope workers %s ui %s", wk, ui);
	if (draw_width(line) > wd - 1)
		snprintf(line, sizeof(line), "workers %s ui %s", wk, ui);
	if (draw_width(line) > wd - 1)
		snprintf(line, sizeof(line), "wrk %s ui %s", wk, ui);
	draw_str(c->p, w, h - 2, 1, wd - 1, ROLE_NORMAL, line);
	draw_fmt(c->p, w, h - 1, 1, wd - 1, ROLE_NORMAL, "IOPS per core %s", v);
}

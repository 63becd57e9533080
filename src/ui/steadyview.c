/* steadyview.c - live steady state in the console: the shown series cut
 * into rounds (rounds.c), the SNIA rule over them (stats/steady.c), and its
 * display under the IOPS strip - a marker row with the round boundaries and
 * the measurement window bracketed under the dots it covers, and a verdict
 * line with both criteria against their limits, the round and time at which
 * steady state was reached, and a warning when the drive has left it.
 * A plan's precondition step brings its own rounds (its source's rounds():
 * rounds.csv, one pool per round): those are shown instead of rounds cut
 * from the series. */
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/plan.h"
#include "ui/app.h"

static const double round_choices[] = {10, 30, 60, 300};

/* A point of the overlay lines (draw_plot reads a double t first and a
 * float value at an offset, as in struct point). */
struct steady_ovpt {
	double t;
	float v;
};

/* The rounds the source brings for the step shown (a plan's), NULL none. */
static const struct source_rounds *src_rounds(struct source src)
{
	return src.ops->rounds ? src.ops->rounds(src.ctx) : NULL;
}

void steady_restart(struct app *a)
{
	const struct source_rounds *sr = src_rounds(a->src);
	a->st.rounds.n = 0;
	memset(&a->st.sv, 0, sizeof(a->st.sv));
	a->st.was_left = false;
	a->st.ss_n = (size_t)-1; /* the verdict again at the next update */
	if (sr && sr->has_rule && !a->st.ss_given)
		a->st.ss = sr->rule;
}

void steady_update(struct app *a)
{
	bool was_attained = a->st.sv.attained > 0;
	struct source_info in;
	const struct source_rounds *sr = src_rounds(a->src);
	app_source_info(a, &in);
	a->st.ss_origin = 0;
	if (sr && sr->has_rule && !a->st.ss_given)
		a->st.ss = sr->rule; /* the rule the step ran with (its steady.json) */
	if (sr) {
		/* the rounds that ended by the time shown (also after a seek:
		 * computed from the rounds, never kept from before) */
		const struct series *s = app_series(a, -1);
		bool cursor = in.valid & SOURCE_HAS_CURSOR;
		bool at_end = !cursor || in.now_s >= in.end_s;
		if (rounds_at(sr->r, sr->t0, in.now_s, at_end, &a->st.ss, &a->st.rounds, &a->st.sv))
			a->st.rounds.n = 0;
		a->st.ss_origin = sr->t0;
		a->st.ss_n = s->n;
	} else if (in.valid & SOURCE_FILE_ROUNDS) {
		a->st.rounds.n = 0; /* a plan: only its own rounds */
	} else {
		const struct series *s = app_series(a, -1);
		/* a QD sweep: the rounds of the current step's workload */
		a->st.ss_origin = in.round_origin_s;
		if (rounds_build(s->pt, s->n, a->st.ss_origin, a->st.round_s, &a->st.rounds) < 0)
			a->st.rounds.n = 0;
		a->st.ss_n = s->n;
	}
	if (!sr)
		rounds_steady(&a->st.rounds, &a->st.ss, &a->st.sv);
	if (a->st.sv.left && !a->st.was_left)
		app_event(a, ROLE_ERROR,
			  "WARNING: the drive left steady state (round %zu: range %.1f%%, "
			  "slope %.1f%%)",
			  a->st.sv.nrounds, a->st.sv.last.range_pct, a->st.sv.last.slope_pct);
	else if (a->st.sv.attained && !was_attained && a->st.sv.last.attained)
		app_event(a, ROLE_OK, "steady state at round %zu (%.0f s)", a->st.sv.attained,
			  a->st.sv.attained_s - a->st.ss_origin);
	a->st.was_left = a->st.sv.left;
	a->scr.dirty[PANE_IOPS] = true;
}

void steady_cycle_round(struct app *a)
{
	if (src_rounds(a->src)) {
		app_message(a, ROLE_WARN, "rounds come from the plan's rounds.csv");
		return;
	}
	size_t n = NVS_ARRAY_SIZE(round_choices), i = 0;
	while (i < n && round_choices[i] <= a->st.round_s + 1e-9)
		i++;
	a->st.round_s = round_choices[i < n ? i : 0];
	a->st.was_left = false;
	a->st.sv.attained = 0;
	steady_update(a);
	app_message(a, ROLE_OK, "steady state: rounds of %.0f s", a->st.round_s);
}

int steady_rows(const struct ui_steady *st, const struct pane_ctx *c, int h)
{
	struct source_info in;
	pane_info(c, &in);
	if (!st->steady_on || ((in.valid & SOURCE_FILE_ROUNDS) && !src_rounds(c->src)))
		return 0; /* a plan: only its rounds (precondition, matrix) */
	return h >= 9 ? 2 : h >= 5 ? 1 : 0;
}

static void marker_row(const struct ui_steady *st, struct paint *pa, WINDOW *w, int y, int lw,
		       int pw, double t0, double t1)
{
	const struct rounds *r = &st->rounds;
	const struct steady_view *sv = &st->sv;
	if (lw >= 4)
		draw_str(pa, w, y, lw - 4, 3, ROLE_AXIS, "rnd");
	/* round boundaries, when they are at least 2 cells apart */
	if (r->n && rounds_col(r->t1[0], t0, t1, pw) - rounds_col(r->t0[0], t0, t1, pw) >= 2)
		for (size_t i = 0; i < r->n; i++) {
			int c = rounds_col(r->t1[i], t0, t1, pw);
			if (c >= 0 && c < pw)
				draw_str(pa, w, y, lw + c, 1, ROLE_DIM,
					 pa->ascii ? "'" : "\xc2\xb7");
		}
	/* where steady state was reached */
	if (sv->attained) {
		int c = rounds_col(sv->attained_s, t0, t1, pw);
		if (c >= 0 && c < pw)
			draw_str(pa, w, y, lw + c, 1, ROLE_OK, pa->ascii ? "^" : "\xe2\x96\xb2");
	}
	/* the measurement window: the last `window` rounds */
	size_t win = st->ss.window;
	if (win < 2 || r->n < win)
		return;
	int c0, c1;
	if (!rounds_span_cols(r->t0[r->n - win], r->t1[r->n - 1], t0, t1, pw, &c0, &c1))
		return;
	int role = sv->left ? ROLE_ERROR : sv->last.attained ? ROLE_OK : ROLE_WARN;
	for (int c = c0; c <= c1; c++) {
		const char *g = pa->ascii ? "=" : "\xe2\x94\x80";
		if (c == c0)
			g = pa->ascii ? "[" : "\xe2\x94\x9c";
		else if (c == c1)
			g = pa->ascii ? "]" : "\xe2\x94\xa4";
		draw_str(pa, w, y, lw + c, 1, role, g);
	}
	static const char label[] = "window";
	int len = (int)sizeof(label) - 1;
	if (c1 - c0 - 1 >= len + 2)
		draw_str(pa, w, y, lw + c0 + 1 + (c1 - c0 - 1 - len) / 2, len, role, label);
}

/* "range 12.3% <= 20%" in OK or WARN; when it does not fit whole, an
 * ellipsis instead and 1000 + its columns (the caller stops there). */
static int criterion(struct paint *pa, WINDOW *w, int y, int x, int maxw, const char *name,
		     bool valid, double v, bool ok, double limit)
{
	char buf[64];
	if (!valid)
		snprintf(buf, sizeof(buf), "  %s N/A", name);
	else
		snprintf(buf, sizeof(buf), "  %s %.1f%% %s %g%%", name, v, ok ? "<=" : ">", limit);
	if (draw_width(buf) > maxw) /* whole or not at all: no cut figure */
		return maxw >= 3 ? draw_str(pa, w, y, x, maxw, ROLE_DIM,
					    pa->ascii ? " ~" : " \xe2\x80\xa6") +
				       1000
				 : 1000;
	return draw_str(pa, w, y, x, maxw, valid ? (ok ? ROLE_OK : ROLE_WARN) : ROLE_DIM, buf);
}

static void verdict_line(const struct ui_steady *st, struct paint *pa, bool plan_rounds, WINDOW *w,
			 int y, int wd)
{
	const struct steady_view *sv = &st->sv;
	const struct steady_verdict *v = &sv->last;
	char head[160], tail[96];
	int role;
	if (sv->left) {
		snprintf(head, sizeof(head), "LEFT STEADY STATE (was steady at round %zu, %.0f s)",
			 sv->attained, sv->attained_s - st->ss_origin);
		role = ROLE_ERROR;
	} else if (sv->attained) {
		snprintf(head, sizeof(head), "steady at round %zu, %.0f s", sv->attained,
			 sv->attained_s - st->ss_origin);
		role = ROLE_OK;
	} else if (v->valid) {
		snprintf(head, sizeof(head), "not steady (round %zu)", sv->nrounds);
		role = ROLE_WARN;
	} else {
		snprintf(head, sizeof(head), "steady state: %zu/%u rounds", sv->nrounds,
			 st->ss.window);
		role = ROLE_DIM;
	}
	if (plan_rounds)
		snprintf(tail, sizeof(tail), "  [plan rounds, window %u]", st->ss.window);
	else
		snprintf(tail, sizeof(tail), "  [%.0f s rounds, window %u]", st->round_s,
			 st->ss.window);
	/* a blank column before the next pane; every piece whole or left
	 * out (an ellipsis says so), never a figure cut short */
	wd--;
	int x = draw_str(pa, w, y, 0, wd, role, head);
	bool pv = v->valid && v->pct_valid;
	int c = criterion(pa, w, y, x, wd - x, "range", pv, v->range_pct, v->range_ok,
			  st->ss.range_pct);
	if (c >= 1000)
		return;
	x += c;
	c = criterion(pa, w, y, x, wd - x, "slope", pv, v->slope_pct, v->slope_ok,
		      st->ss.slope_pct);
	if (c >= 1000)
		return;
	x += c;
	if (pv) { /* the window average the band (on the strip) is around */
		char avg[24], buf[48];
		axis_fmt(v->avg, UNIT_IOPS, pa->ascii, avg, sizeof(avg));
		snprintf(buf, sizeof(buf), "  avg %s", avg);
		if (draw_width(buf) > wd - x)
			return;
		x += draw_str(pa, w, y, x, wd - x, ROLE_DIM, buf);
	}
	if (draw_width(tail) <= wd - x)
		draw_str(pa, w, y, x, wd - x, ROLE_DIM, tail);
	else if (wd - x >= 2)
		draw_str(pa, w, y, x, wd - x, ROLE_DIM, pa->ascii ? " ~" : " \xe2\x80\xa6");
}

void steady_draw(const struct ui_steady *st, const struct pane_ctx *c, WINDOW *w, int y, int rows,
		 int lw, int pw, double t0, double t1)
{
	if (rows >= 2)
		marker_row(st, c->p, w, y++, lw, pw, t0, t1);
	if (rows >= 1)
		verdict_line(st, c->p, src_rounds(c->src) != NULL, w, y, getmaxx(w));
}

int steady_overlay(struct ui_steady *st, const struct pane_ctx *c, double t0, double t1, int pw,
		   struct plot_ser *ser, int room)
{
	const struct steady_view *sv = &st->sv;
	const struct rounds *r = &st->rounds;
	unsigned win = st->ss.window;
	if (room < 2 || c->view->mbps || !st->steady_on || !sv->last.valid || !sv->last.pct_valid ||
	    win < 2 || r->n < win || st->ss.rule != STEADY_SNIA || pw < 2 || !(t1 > t0))
		return 0;
	struct source_plan_state ps;
	const struct plan *p = pane_plan(c, &ps);
	if (p && ps.cur < p->nsteps && p->steps[ps.cur].track == TRACK_BW)
		return 0; /* a plan tracking MB/s: not on the IOPS scale */
	size_t first = r->n - win;
	double wa = r->t0[first] > t0 ? r->t0[first] : t0;
	double wb = r->t1[r->n - 1] < t1 ? r->t1[r->n - 1] : t1;
	double step = (t1 - t0) / (2.0 * pw - 1); /* one point per dot column */
	if (!(wb > wa))
		return 0;
	size_t n = (size_t)((wb - wa) / step) + 1;
	if (n > (size_t)(2 * pw))
		n = (size_t)(2 * pw);
	if (4 * n > st->ovcap) {
		struct steady_ovpt *nb = realloc(st->ovbuf, 4 * n * sizeof(*nb));
		if (!nb)
			return 0;
		st->ovbuf = nb;
		st->ovcap = 4 * n;
	}
	double avg = sv->last.avg, half = avg * st->ss.range_pct / 200;
	double m0 = (r->t0[first] + r->t1[first]) / 2, m1 = (r->t0[r->n - 1] + r->t1[r->n - 1]) / 2;
	double per = (m1 - m0) / (win - 1); /* seconds per round */
	struct steady_ovpt *band = st->ovbuf, *line = st->ovbuf + 3 * n;
	for (size_t k = 0; k < n; k++) {
		double t = wa + (double)k * step;
		/* the least-squares line goes through (the middle round, avg) */
		double idx = per > 0 ? (t - m0) / per : 0;
		band[3 * k] = (struct steady_ovpt){t, (float)(avg - half)};
		band[3 * k + 1] = (struct steady_ovpt){t, (float)avg};
		band[3 * k + 2] = (struct steady_ovpt){t, (float)(avg + half)};
		line[k] = (struct steady_ovpt){
		    t, (float)(avg + sv->last.slope * (idx - (win - 1) / 2.0))};
	}
	ser[0] = (struct plot_ser){band, 3 * n, sizeof(struct steady_ovpt),
				   offsetof(struct steady_ovpt, v), ROLE_DIM};
	ser[1] =
	    (struct plot_ser){line, n, sizeof(struct steady_ovpt), offsetof(struct steady_ovpt, v),
			      (uint8_t)(sv->last.attained ? ROLE_OK : ROLE_WARN)};
	return 2;
}

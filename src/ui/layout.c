/* layout.c - pane rectangles from terminal size and screen.
 *
 * The screen is cut like htop's: one title line, one status line, and a
 * body between them.  Setup body: devices on top, presets and the custom
 * form side by side below.  Live body: a right column (numbers, then a
 * plan's step list when a plan runs, then CPU; 24..48 columns wide, about 30% of the width) and a
 * left column of strips: from the bottom up the per-QD table and the per-target strips take what
 * they need (capped so the main strips keep at least 2 x 4 rows), then the
 * health strip (3 rows) when there is room, and the IOPS and latency strips
 * share the rest.  Everything is a cut of the previous free rectangle, so
 * panes cannot overlap by construction; the unit tests check it anyway. */
#include <errno.h>
#include <string.h>
#include "ui/layout.h"

static struct rect cut_top(struct rect *free, int h)
{
	if (h > free->h)
		h = free->h;
	struct rect r = {free->x, free->y, free->w, h};
	free->y += h;
	free->h -= h;
	return r;
}

static struct rect cut_bottom(struct rect *free, int h)
{
	if (h > free->h)
		h = free->h;
	struct rect r = {free->x, free->y + free->h - h, free->w, h};
	free->h -= h;
	return r;
}

static struct rect cut_left(struct rect *free, int w)
{
	if (w > free->w)
		w = free->w;
	struct rect r = {free->x, free->y, w, free->h};
	free->x += w;
	free->w -= w;
	return r;
}

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void setup_screen(struct rect body, struct layout *out)
{
	int dev_h = clampi(body.h * 45 / 100, 5, body.h - 6);
	out->pane[PANE_DEVICES] = cut_top(&body, dev_h);
	int form_w = clampi(body.w * 40 / 100, 30, 48);
	if (body.w - form_w < 30)
		form_w = body.w / 2;
	out->pane[PANE_LAUNCH] = cut_left(&body, body.w - form_w);
	out->pane[PANE_FORM] = body;
}

static void live_screen(const struct layout_in *in, struct rect body, struct layout *out)
{
	int right_w = clampi(in->cols * 30 / 100, 24, 48);
	struct rect left = cut_left(&body, in->cols - right_w);
	struct rect right = body;

	int num_h = in->big ? 14 : 10;
	num_h = clampi(num_h, 6, right.h - 5);
	out->pane[PANE_NUMBERS] = cut_top(&right, num_h);
	/* a plan's steps between numbers and CPU; the CPU pane keeps 4 rows */
	if (in->nsteps && right.h - 4 >= 3)
		out->pane[PANE_STEPS] =
		    cut_top(&right, clampi((int)in->nsteps + 1, 3, right.h - 4));
	out->pane[PANE_CPU] = right;

	/* The main strips keep at least 4 rows each. */
	int spare = left.h - 8;
	if (in->nqd > 1 && spare >= 4) {
		int want = clampi((int)in->nqd + 2, 4, left.h / 3);
		if (want > spare)
			want = spare;
		out->pane[PANE_QD] = cut_bottom(&left, want);
		spare -= want;
	}
	if (in->ntargets > 1 && spare >= 3) {
		int want = clampi(left.h / 3, 3, 3 * (int)in->ntargets);
		if (want > spare)
			want = spare;
		out->pane[PANE_TARGETS] = cut_bottom(&left, want);
		spare -= want;
	}
	if (in->health && spare >= 3)
		out->pane[PANE_HEALTH] = cut_bottom(&left, 3);
	out->pane[PANE_IOPS] = cut_top(&left, left.h / 2 + left.h % 2);
	out->pane[PANE_LAT] = left;
}

/* Showfloor: the figures in large digits across the top, then the IOPS and
 * latency strips, as tall as the screen allows (the figures' pane grows
 * with the screen for larger digits: 7 rows for 3x5, 12 for 6x10, ...). */
static void showfloor_screen(struct rect body, struct layout *out)
{
	/* no taller than the widest digits need: the header, 5 rows a scale and
	 * the labels, for three figures of 5 characters (19 columns a scale
	 * each) and 6 columns of borders and gaps (showfloor_scale) */
	int scale = (body.w - 6) / 57, fit = 2 + 5 * (scale > 1 ? scale : 1);
	int h = clampi(body.h * 35 / 100, 7, 22);
	out->pane[PANE_NUMBERS] = cut_top(&body, h < fit ? h : fit);
	out->pane[PANE_IOPS] = cut_top(&body, body.h * 55 / 100);
	out->pane[PANE_LAT] = body;
}

int layout_compute(const struct layout_in *in, struct layout *out)
{
	memset(out, 0, sizeof(*out));
	if (in->cols < LAYOUT_MIN_COLS || in->rows < LAYOUT_MIN_ROWS)
		return -ERANGE;
	struct rect body = {0, 0, in->cols, in->rows};
	out->pane[PANE_TITLE] = cut_top(&body, 1);
	out->pane[PANE_STATUS] = cut_bottom(&body, 1);
	if (in->showfloor)
		showfloor_screen(body, out);
	else if (in->screen == SCREEN_SETUP)
		setup_screen(body, out);
	else
		live_screen(in, body, out);
	return 0;
}

bool rect_overlap(const struct rect *a, const struct rect *b)
{
	if (a->w <= 0 || a->h <= 0 || b->w <= 0 || b->h <= 0)
		return false;
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

bool rect_inside(const struct rect *r, int cols, int rows)
{
	return r->w > 0 && r->h > 0 && r->x >= 0 && r->y >= 0 && r->x + r->w <= cols &&
	       r->y + r->h <= rows;
}

struct rect layout_center(int cols, int rows, int w, int h)
{
	if (w > cols)
		w = cols;
	if (h > rows)
		h = rows;
	if (w < 0)
		w = 0;
	if (h < 0)
		h = 0;
	struct rect r = {(cols - w) / 2, (rows - h) / 2, w, h};
	return r;
}

int layout_grid(const struct rect *area, int n, int minw, int minh, struct rect *cells)
{
	if (n <= 0 || minw <= 0 || minh <= 0 || area->w < minw || area->h < minh)
		return 0;
	int ncol = area->w / minw, nrow = area->h / minh;
	if (ncol > n)
		ncol = n;
	int fit = ncol * nrow < n ? ncol * nrow : n;
	int rows_used = (fit + ncol - 1) / ncol;
	int cw = area->w / ncol, ch = area->h / rows_used;
	for (int i = 0; i < fit; i++) {
		int c = i % ncol, r = i / ncol;
		cells[i].x = area->x + c * cw;
		cells[i].y = area->y + r * ch;
		cells[i].w = c == ncol - 1 ? area->w - c * cw : cw;
		cells[i].h = r == rows_used - 1 ? area->h - r * ch : ch;
	}
	return fit;
}

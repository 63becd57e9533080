/* draw.c - the widgets, written once: text in a colour role, pane headers,
 * the braille scatter strip with its axes, segmented bars and large digits.
 *
 * The scatter strip: every point of every series inside the time window is
 * one dot (x from its time, y from the value axis), so a 4-hour run of
 * 16,000 one-second samples draws its full spread, not a decimated line -
 * the preconditioning charts of SSD reviews.  The canvas is 2x4 dots per
 * cell (braille.c); a cell takes the colour of the last series drawn into
 * it, so series are drawn in increasing importance.  Without UTF-8 the
 * cells become ASCII (' . : \'').  For a room (the `d` key): thick draws
 * each sample as a half-cell block, fill the area under each series'
 * per-column mean (stacked for read + write IOPS) with block elements, '#'
 * in ASCII; step markers are rules in the empty cells with a label on top. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include "base/termesc.h"
#include "ui/draw.h"

void draw_role(struct paint *pa, WINDOW *w, int role)
{
	if (role < 0 || role >= ROLE_COUNT)
		role = ROLE_NORMAL;
	wattr_set(w, pa->attr[role], pa->pair[role], NULL);
}

/* Code points of @s as drawn: escaped (draw_str) */
int draw_width(const char *s)
{
	char e[2048];
	int n = 0;
	termesc(e, sizeof(e), s, strlen(s), (size_t)-1, 0, NULL);
	for (const char *p = e; *p; p++)
		if (((unsigned char)*p & 0xc0) != 0x80)
			n++;
	return n;
}

int draw_str(struct paint *pa, WINDOW *w, int y, int x, int maxw, int role, const char *s)
{
	int wy, wx;
	getmaxyx(w, wy, wx);
	if (y < 0 || y >= wy || x < 0 || x >= wx)
		return 0;
	if (maxw > wx - x)
		maxw = wx - x;
	if (maxw <= 0)
		return 0;
	/* issue 20, cause 9: names, paths and models from outside are drawn
	 * with their controls escaped (ncurses shows some as ^[, passes others
	 * and bytes of broken UTF-8 on), cut to maxw code points */
	char e[2048];
	termesc(e, sizeof(e), s, strlen(s), (size_t)maxw, 0, NULL);
	int cols = 0;
	for (const char *p = e; *p; p++)
		if (((unsigned char)*p & 0xc0) != 0x80)
			cols++;
	draw_role(pa, w, role);
	mvwaddstr(w, y, x, e);
	return cols;
}

int draw_fmt(struct paint *pa, WINDOW *w, int y, int x, int maxw, int role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return draw_str(pa, w, y, x, maxw, role, buf);
}

void draw_fill(struct paint *pa, WINDOW *w, int y, int role)
{
	int wy, wx;
	getmaxyx(w, wy, wx);
	if (y < 0 || y >= wy)
		return;
	draw_role(pa, w, role);
	mvwhline(w, y, 0, ' ', wx);
}

WINDOW *draw_screen(struct paint *pa, WINDOW **win)
{
	if (!*win || getmaxx(*win) != COLS || getmaxy(*win) != LINES) {
		if (*win)
			delwin(*win);
		*win = newwin(LINES, COLS, 0, 0);
		if (!*win)
			return NULL;
	}
	WINDOW *w = *win;
	draw_role(pa, w, ROLE_NORMAL);
	werase(w);
	for (int r = 0; r < LINES; r++)
		draw_fill(pa, w, r, ROLE_NORMAL);
	return w;
}

void draw_frame(struct paint *pa, WINDOW *w, int fill_role, int border_role)
{
	for (int y = 0; y < getmaxy(w); y++)
		draw_fill(pa, w, y, fill_role);
	draw_role(pa, w, border_role);
	if (pa->ascii)
		wborder(w, '|', '|', '-', '-', '+', '+', '+', '+');
	else
		box(w, 0, 0);
}

void draw_header(struct paint *pa, WINDOW *w, const char *title, const char *right)
{
	int wx = getmaxx(w);
	draw_role(pa, w, ROLE_BORDER);
	if (pa->ascii)
		mvwhline(w, 0, 0, '-', wx);
	else
		mvwhline(w, 0, 0, ACS_HLINE, wx);
	int n = draw_fmt(pa, w, 0, 1, wx - 2, ROLE_HEADER, " %s ", title);
	if (right && *right) {
		int rw = draw_width(right) + 2;
		if (1 + n + rw < wx)
			draw_fmt(pa, w, 0, wx - rw - 1, rw, ROLE_HEADER, " %s ", right);
	}
}

static double val_at(const struct plot_ser *s, size_t i)
{
	const char *rec = (const char *)s->base + i * s->stride;
	float v; /* struct point's values are 32-bit (stats/series.h) */
	memcpy(&v, rec + s->off, sizeof(v));
	return v;
}

static double t_at(const struct plot_ser *s, size_t i)
{
	double t;
	memcpy(&t, (const char *)s->base + i * s->stride, sizeof(t));
	return t;
}

/* First index with t >= @t0 (records are in time order). */
static size_t first_at(const struct plot_ser *s, double t0)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t_at(s, mid) < t0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A cell in a thick or filled strip: block elements (half blocks for a
 * thick sample, eighths for the top of an area), '#' in ASCII. */
static bool put_block(struct paint *pa, WINDOW *w, int y, int x, const struct bcell *c,
		      enum plot_style st)
{
	wchar_t g = 0;
	if (st == PLOT_THICK) {
		bool top = c->bits & 0x1b, bot = c->bits & 0xe4;
		g = top && bot ? 0x2588 : top ? 0x2580 : 0x2584; /* full, upper, lower half */
	} else {
		/* rows filled from the bottom: 1..4 of 4 */
		static const uint8_t row[4] = {0x40 | 0x80, 0x04 | 0x20, 0x02 | 0x10, 0x01 | 0x08};
		int n = 0;
		while (n < 4 && (c->bits & row[n]))
			n++;
		if (!n)
			return false;				 /* not an area cell */
		g = n == 4 ? 0x2588 : (wchar_t)(0x2580 + 2 * n); /* lower 2/8, 4/8, 6/8 */
		if (pa->ascii && n < 4)
			return false; /* ' . :' say it better than '#' */
	}
	if (pa->ascii) {
		mvwaddch(w, y, x, '#');
	} else {
		wchar_t s[2] = {g, 0};
		mvwaddnwstr(w, y, x, s, 1);
	}
	return true;
}

static void put_cell(struct paint *pa, WINDOW *w, int y, int x, const struct bcell *c,
		     enum plot_style st)
{
	if (!c || !c->bits)
		return;
	draw_role(pa, w, c->role);
	if (pa->nocolour && theme_glyph(c->role)) {
		mvwaddch(w, y, x, (chtype)(unsigned char)theme_glyph(c->role));
	} else if (st != PLOT_DOTS && put_block(pa, w, y, x, c, st)) {
		return;
	} else if (pa->ascii) {
		mvwaddch(w, y, x, (chtype)braille_ascii(c->bits));
	} else {
		wchar_t s[2] = {(wchar_t)braille_char(c->bits), 0};
		mvwaddnwstr(w, y, x, s, 1);
	}
}

static void y_labels(struct paint *pa, WINDOW *win, int y, int x, int lw, int ph,
		     const struct axis *ax, enum axis_unit unit)
{
	double ticks[AXIS_MAX_TICKS];
	int n = axis_ticks(ax, ticks, ph >= 8 ? ph / 2 : ph >= 3 ? 3 : 2);
	int last_row = -1;
	for (int i = 0; i < n; i++) {
		int py = axis_map(ax, ticks[i], 4 * ph);
		if (py < 0)
			continue;
		int row = ph - 1 - py / 4;
		if (row == last_row)
			continue;
		last_row = row;
		char buf[24];
		axis_fmt(ticks[i], unit, pa->ascii, buf, sizeof(buf));
		int bw = draw_width(buf);
		if (bw > lw - 1)
			bw = lw - 1;
		draw_str(pa, win, y + row, x + lw - 1 - bw, bw, ROLE_AXIS, buf);
		draw_str(pa, win, y + row, x + lw - 1, 1, ROLE_AXIS,
			 pa->ascii ? "|" : "\xe2\x94\xa4"); /* not '+': a series glyph */
	}
}

static void t_labels(struct paint *pa, WINDOW *win, int y, int x, int pw, double t0, double t1)
{
	struct axis tx = {t0, t1, false};
	double ticks[AXIS_MAX_TICKS];
	int n = axis_ticks(&tx, ticks, pw / 8 > 1 ? pw / 8 : 2);
	int next_free = x;
	for (int i = 0; i < n; i++) {
		int col = x + axis_map(&tx, ticks[i], 2 * pw) / 2;
		char buf[24];
		axis_fmt(ticks[i], UNIT_SEC, pa->ascii, buf, sizeof(buf));
		int bw = draw_width(buf);
		if (col + bw > x + pw - 1) /* a blank column before the next pane */
			col = x + pw - 1 - bw;
		if (col < next_free)
			continue;
		draw_str(pa, win, y, col, bw, ROLE_AXIS, buf);
		next_free = col + bw + 1;
	}
}

int draw_plot_label_w(int w, bool labels)
{
	return labels && w >= 24 ? 7 : 0;
}

/* Mean of the series' values per dot column: the top of its area.  A
 * point stands for the interval that ends at its time, so the columns up to
 * a sample take its value (a short run on a wide strip is an area, not a
 * comb), and the first one reaches back one sample spacing.  @col: @dw
 * values, NAN where none. */
static void column_means(const struct plot_ser *ps, size_t start, const struct plot *p, int dw,
			 double scale, double *col, int *cnt)
{
	for (int i = 0; i < dw; i++)
		col[i] = 0, cnt[i] = 0;
	for (size_t i = start; i < ps->n; i++) {
		double t = t_at(ps, i), v = val_at(ps, i);
		if (t > p->t1)
			break;
		long x = lround((t - p->t0) * scale);
		if (isnan(v) || x < 0 || x >= dw)
			continue;
		col[x] += v;
		cnt[x]++;
	}
	int first = -1, second = -1, last = -1;
	for (int i = 0; i < dw; i++)
		if (cnt[i]) {
			col[i] /= cnt[i];
			if (first < 0)
				first = i;
			else if (second < 0)
				second = i;
			last = i;
		}
	double next = NAN;
	for (int i = dw - 1; i >= 0; i--) {
		if (cnt[i])
			next = col[i];
		else
			col[i] = i > first && i < last ? next : NAN;
	}
	for (int i = second > first ? first - (second - first) : first; first > 0 && i < first; i++)
		if (i >= 0)
			col[i] = col[first];
}

static void fill_col(struct paint *pa, const double *col, uint8_t role, const struct axis *ax,
		     int dw, int dh)
{
	for (int x = 0; x < dw; x++) {
		int py = isnan(col[x]) ? -1 : axis_map(ax, col[x], dh);
		for (int yy = dh - 1 - py; py >= 0 && yy < dh; yy++)
			bcanvas_set(&pa->canvas, x, yy, role);
	}
}

/* Step markers: a vertical rule in the empty cells at each mark, its label
 * on the top row when it fits before the next one. */
static void marks(struct paint *pa, WINDOW *win, int y, int x, int ph, int pw, const struct plot *p)
{
	int next_free = 0;
	for (int m = 0; m < p->nmarks; m++) {
		double t = p->marks[m].t;
		if (t <= p->t0 || t > p->t1)
			continue;
		int cx = (int)lround((t - p->t0) * (2 * pw - 1) / (p->t1 - p->t0)) / 2;
		if (cx < 0 || cx >= pw)
			continue;
		for (int cy = 0; cy < ph; cy++) {
			const struct bcell *c = bcanvas_cell(&pa->canvas, cx, cy);
			if (c && c->bits)
				continue;
			draw_role(pa, win, ROLE_AXIS);
			if (pa->ascii)
				mvwaddch(win, y + cy, x + cx, '|');
			else
				mvwaddnwstr(win, y + cy, x + cx, L"\x2502", 1);
		}
		/* the label right of the rule, up to the next mark */
		const char *l = p->marks[m].label;
		int lw = draw_width(l), room = pw - cx - 1;
		for (int n = m + 1; n < p->nmarks; n++)
			if (p->marks[n].t > t && p->marks[n].t <= p->t1) {
				int nx = (int)lround((p->marks[n].t - p->t0) * (2 * pw - 1) /
						     (p->t1 - p->t0)) /
					 2;
				room = nx - cx - 1;
				break;
			}
		if (l[0] && lw <= room && cx >= next_free) {
			draw_str(pa, win, y, x + cx + 1, lw, ROLE_HEADER, l);
			next_free = cx + 1 + lw;
		}
	}
}

/* The smallest, smallest positive and largest value each series shows in
 * [t0, t1]; @start[s]: its first point there. */
static void visible_range(const struct plot *p, size_t *start, double *vmin, double *vpos,
			  double *vmax)
{
	*vmin = INFINITY, *vpos = INFINITY, *vmax = -INFINITY;
	for (int s = 0; s < p->nser; s++) {
		const struct plot_ser *ps = &p->ser[s];
		start[s] = first_at(ps, p->t0);
		for (size_t i = start[s]; i < ps->n && t_at(ps, i) <= p->t1; i++) {
			double v = val_at(ps, i);
			if (isnan(v))
				continue;
			*vmin = fmin(*vmin, v);
			*vmax = fmax(*vmax, v);
			if (v > 0 && v < *vpos)
				*vpos = v;
		}
	}
}

/* PLOT_FILL: each series' per-column means into @cols (@dw columns a
 * series; stacked ones summed over the ones below, which may move *@vmax
 * up).  0 or -ENOMEM. */
static int fill_columns(const struct plot *p, const size_t *start, int dw, double scale,
			double *cols, double *vmax)
{
	int *cnt = malloc((size_t)dw * sizeof(*cnt));
	if (!cnt)
		return -ENOMEM;
	for (int s = 0; s < p->nser; s++) {
		double *c = cols + (size_t)s * dw;
		column_means(&p->ser[s], start[s], p, dw, scale, c, cnt);
		for (int x = 0; p->stack && s > 0 && x < dw; x++) {
			double below = cols[(size_t)(s - 1) * dw + x];
			c[x] = isnan(c[x]) ? below : isnan(below) ? c[x] : c[x] + below;
			if (!isnan(c[x]) && c[x] > *vmax)
				*vmax = c[x];
		}
	}
	free(cnt);
	return 0;
}

/* PLOT_FILL's areas: stacked, the total first and each lower part over
 * it; else the largest area first, so a smaller one drawn over it stays
 * seen. */
static void plot_fill(struct paint *pa, const struct plot *p, const double *cols,
		      const struct axis *ax, int dw, int dh)
{
	int order[4];
	double mean[4];

	for (int s = 0; s < p->nser; s++) {
		double sum = 0;
		int n = 0;
		for (int x = 0; x < dw; x++)
			if (!isnan(cols[(size_t)s * dw + x]))
				sum += cols[(size_t)s * dw + x], n++;
		mean[s] = n ? sum / n : 0;
		order[s] = s;
		for (int k = s; k > 0 && mean[order[k]] > mean[order[k - 1]]; k--) {
			int tmp = order[k];
			order[k] = order[k - 1];
			order[k - 1] = tmp;
		}
	}
	if (p->stack)
		for (int k = 0; k < p->nser; k++)
			order[k] = p->nser - 1 - k;
	for (int k = 0; k < p->nser; k++)
		fill_col(pa, cols + (size_t)order[k] * dw, p->ser[order[k]].role, ax, dw, dh);
}

/* The dots (PLOT_DOTS, PLOT_THICK: two dot rows, half a cell). */
static void plot_dots(struct paint *pa, const struct plot *p, const size_t *start,
		      const struct axis *ax, double scale, int dh)
{
	for (int s = 0; s < p->nser; s++) {
		const struct plot_ser *ps = &p->ser[s];
		for (size_t i = start[s]; i < ps->n; i++) {
			double t = t_at(ps, i);
			if (t > p->t1)
				break;
			int py = axis_map(ax, val_at(ps, i), dh);
			if (py < 0)
				continue;
			int dx = (int)lround((t - p->t0) * scale), dy = dh - 1 - py;
			bcanvas_set(&pa->canvas, dx, dy, ps->role);
			if (p->style == PLOT_THICK)
				bcanvas_set(&pa->canvas, dx, dy + (dy % 2 ? -1 : 1), ps->role);
		}
	}
}

double draw_plot(struct paint *pa, WINDOW *win, int y, int x, int h, int w, const struct plot *p)
{
	int lw = draw_plot_label_w(w, p->labels);
	int ph = p->labels && h >= 4 ? h - 1 : h;
	int pw = w - lw;
	if (ph <= 0 || pw <= 1 || !(p->t1 > p->t0))
		return NAN;
	/* autoscale on what is visible */
	double vmin, vpos, vmax;
	size_t start[4];
	visible_range(p, start, &vmin, &vpos, &vmax);
	/* fill: the per-column means first (stacked ones move the top) */
	int dw = 2 * pw, dh = 4 * ph;
	double scale = (dw - 1) / (p->t1 - p->t0);
	double *cols = NULL;
	if (p->style == PLOT_FILL) {
		cols = malloc((size_t)dw * 4 * sizeof(*cols));
		if (!cols || fill_columns(p, start, dw, scale, cols, &vmax)) {
			free(cols);
			return NAN;
		}
	}
	struct axis ax;
	if (vmax < vmin)
		axis_autoscale(&ax, 0, 0, p->log);
	else if (p->near && !p->log)
		axis_autoscale_near(&ax, vmin, vmax);
	else
		axis_autoscale(&ax, p->log ? (isinf(vpos) ? 0 : vpos) : vmin, vmax, p->log);
	if (bcanvas_init(&pa->canvas, pw, ph)) {
		free(cols);
		return NAN;
	}
	if (p->style == PLOT_FILL)
		plot_fill(pa, p, cols, &ax, dw, dh);
	else
		plot_dots(pa, p, start, &ax, scale, dh);
	free(cols);
	for (int cy = 0; cy < ph; cy++)
		for (int cx = 0; cx < pw; cx++)
			put_cell(pa, win, y + cy, x + lw + cx, bcanvas_cell(&pa->canvas, cx, cy),
				 p->style);
	if (p->nmarks)
		marks(pa, win, y, x + lw, ph, pw, p);
	if (lw)
		y_labels(pa, win, y, x, lw, ph, &ax, p->unit);
	if (ph < h)
		t_labels(pa, win, y + ph, x + lw, pw, p->t0, p->t1);
	return vmax < vmin ? NAN : vmax;
}

void draw_bar(struct paint *pa, WINDOW *win, int y, int x, int w, const double *pct,
	      const int *roles, int n)
{
	double acc = 0;
	int col = 0;
	for (int i = 0; i < n; i++) {
		acc += pct[i] > 0 ? pct[i] : 0;
		int end = (int)lround(acc / 100.0 * w);
		if (end > w)
			end = w;
		draw_role(pa, win, roles[i]);
		char g = pa->nocolour && theme_glyph(roles[i]) ? theme_glyph(roles[i]) : '|';
		for (; col < end; col++)
			mvwaddch(win, y, x + col, (chtype)(unsigned char)g);
	}
}

/* 3x5 font: each glyph is five rows of three bits (left = 4). */
static const struct {
	char c;
	unsigned char row[5];
} font[] = {
    {'0', {7, 5, 5, 5, 7}}, {'1', {2, 6, 2, 2, 7}}, {'2', {7, 1, 7, 4, 7}}, {'3', {7, 1, 7, 1, 7}},
    {'4', {5, 5, 7, 1, 1}}, {'5', {7, 4, 7, 1, 7}}, {'6', {7, 4, 7, 5, 7}}, {'7', {7, 1, 1, 1, 1}},
    {'8', {7, 5, 7, 5, 7}}, {'9', {7, 5, 7, 1, 7}}, {'.', {0, 0, 0, 0, 2}}, {'k', {4, 5, 6, 5, 5}},
    {'M', {5, 7, 7, 5, 5}}, {'G', {7, 4, 5, 5, 7}}, {' ', {0, 0, 0, 0, 0}}, {'-', {0, 0, 7, 0, 0}},
};

int draw_big_width(const char *text, int scale)
{
	return ((int)strlen(text) * 4 - 1) * scale;
}

/* One cell of a large digit: a @scale x @scale block at (@y, @x). */
static void big_cell(struct paint *pa, WINDOW *win, int y, int x, int scale)
{
	static const wchar_t s[2] = {0x2588, 0};
	for (int r = 0; r < scale; r++)
		for (int c = 0; c < scale; c++) {
			if (pa->ascii)
				mvwaddch(win, y + r, x + c, '#');
			else
				mvwaddnwstr(win, y + r, x + c, s, 1);
		}
}

int draw_big(struct paint *pa, WINDOW *win, int y, int x, int maxw, int role, const char *text,
	     int scale)
{
	int need = draw_big_width(text, scale);
	if (scale < 1 || need > maxw || y + 5 * scale > getmaxy(win))
		return 0;
	draw_role(pa, win, role);
	int col = x;
	for (const char *c = text; *c; c++, col += 4 * scale) {
		unsigned f = 0;
		while (f < sizeof(font) / sizeof(font[0]) && font[f].c != *c)
			f++;
		if (f == sizeof(font) / sizeof(font[0]))
			continue;
		for (int r = 0; r < 5; r++)
			for (int b = 0; b < 3; b++)
				if (font[f].row[r] & (4 >> b))
					big_cell(pa, win, y + r * scale, col + b * scale, scale);
	}
	return need;
}

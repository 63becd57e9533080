/* heat.c - the thread x QD grid as heat maps (see heat.h).
 *
 * The scale is viridis (van der Walt and Smith, matplotlib 2015): nine of
 * its stops, interpolated linearly in sRGB, dark purple to bright yellow;
 * perceptually ordered and readable with the common colour-vision
 * deficiencies and in greyscale.  A cell's text is black or white, the one
 * of higher WCAG 2 contrast ratio against the cell's relative luminance.
 * Values map linearly between the map's min and max; when all are equal
 * every cell takes the bright end. */
#include "report/heat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "report/svg.h"

#define CW	72 /* cell width, height */
#define CH	28
#define ML	64 /* margins: left (thread labels), top (title, QD labels) */
#define MT	54
#define KEY_H	12 /* the key's bar and its label rows */
#define MIN_W	320
#define FIG_LEN 400 /* "%.1f" of any finite double (309 digits at most) fits */

static const unsigned char stops[][3] = {
    {0x44, 0x01, 0x54}, {0x47, 0x2d, 0x7b}, {0x3b, 0x52, 0x8b},
    {0x2c, 0x72, 0x8e}, {0x21, 0x91, 0x8c}, {0x28, 0xae, 0x80},
    {0x5e, 0xc9, 0x62}, {0xad, 0xdc, 0x30}, {0xfd, 0xe7, 0x25}};
#define NSTOPS (sizeof(stops) / sizeof(stops[0]))

void heat_color(double frac, char out[8])
{
	if (!(frac > 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	double pos = frac * (NSTOPS - 1);
	unsigned i = (unsigned)pos;
	if (i >= NSTOPS - 1)
		i = NSTOPS - 2;
	double u = pos - i;
	unsigned c[3];
	for (int k = 0; k < 3; k++)
		c[k] = (unsigned)lround(stops[i][k] + u * (stops[i + 1][k] - stops[i][k]));
	snprintf(out, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static double lin(unsigned c)
{
	double s = c / 255.0;
	return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
}

const char *heat_text_color(const char *bg)
{
	unsigned r = 0, g = 0, b = 0;
	if (!bg || sscanf(bg, "#%2x%2x%2x", &r, &g, &b) != 3)
		return "#000";
	double l = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
	/* contrast with black (l + .05) / .05 against white 1.05 / (l + .05) */
	return (l + 0.05) * (l + 0.05) >= 0.05 * 1.05 ? "#000" : "#fff";
}

/* @v as @fmt ("%.0f", "%.1f") prints it; "%.3g" should it not fit. */
static void fig(char out[FIG_LEN], const char *fmt, double v)
{
	if (snprintf(out, FIG_LEN, fmt, v) >= FIG_LEN)
		snprintf(out, FIG_LEN, "%.3g", v);
}

static bool range(const struct heat_map *m, double *lo, double *hi)
{
	bool any = false;
	for (unsigned i = 0; i < m->nrows * m->ncols; i++) {
		double v = m->v[i];
		if (!isfinite(v))
			continue;
		if (!any || v < *lo)
			*lo = v;
		if (!any || v > *hi)
			*hi = v;
		any = true;
	}
	return any;
}

static double frac_of(const struct heat_map *m, double v, double lo, double hi)
{
	if (!(hi > lo))
		return 1;
	double x = (v - lo) / (hi - lo);
	return m->lower_better ? 1 - x : x;
}

static void cell(FILE *f, const struct heat_map *m, unsigned r, unsigned c, double lo, double hi)
{
	double v = m->v[r * m->ncols + c];
	int x = ML + (int)c * CW, y = MT + (int)r * CH;
	fprintf(f, "<g class=\"cell%s\" data-threads=\"%g\" data-qd=\"%g\"",
		isfinite(v) ? "" : " na", m->rows[r], m->cols[c]);
	if (!isfinite(v)) {
		fprintf(
		    f,
		    " data-value=\"n/a\"><title>T%g Q%g: no data</title><rect x=\"%d\" y=\"%d\" "
		    "width=\"%d\" height=\"%d\" fill=\"#e0e0e0\" stroke=\"#fff\"/><path d=\"",
		    m->rows[r], m->cols[c], x, y, CW, CH);
		for (int o = 0; o + CH <= CW; o += CW / 3 - 2)
			fprintf(f, "M%d %dL%d %d", x + o, y + CH, x + o + CH, y);
		fprintf(f,
			"\" stroke=\"#bbb\"/><text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
			"style=\"fill:#555\">n/a</text></g>",
			x + CW / 2, y + CH / 2 + 4);
		return;
	}
	char col[8], txt[FIG_LEN];
	heat_color(frac_of(m, v, lo, hi), col);
	fig(txt, m->fmt, v);
	fprintf(f,
		" data-value=\"%s\"><title>T%g Q%g: %s</title><rect x=\"%d\" y=\"%d\" width=\"%d\" "
		"height=\"%d\" fill=\"%s\" stroke=\"#fff\"/><text x=\"%d\" y=\"%d\" "
		"text-anchor=\"middle\" style=\"fill:%s\">%s</text></g>",
		txt, m->rows[r], m->cols[c], txt, x, y, CW, CH, col, x + CW / 2, y + CH / 2 + 4,
		heat_text_color(col), txt);
}

/* The key under the grid: the scale dark to bright in 24 steps, the
 * figure at each end ("min" and "max") and which end is better. */
static void key(FILE *f, const struct heat_map *m, int y, int w, double lo, double hi)
{
	const int n = 24, x0 = ML, kw = w - ML - 16;
	char col[8], a[FIG_LEN], b[FIG_LEN];
	for (int i = 0; i < n; i++) {
		heat_color((i + 0.5) / n, col);
		fprintf(f,
			"<rect class=\"key\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			"fill=\"%s\"/>",
			x0 + i * kw / n, y, (i + 1) * kw / n - i * kw / n, KEY_H, col);
	}
	fig(a, m->fmt, m->lower_better ? hi : lo);
	fig(b, m->fmt, m->lower_better ? lo : hi);
	fprintf(f, "<text class=\"keylo\" x=\"%d\" y=\"%d\">%s %s</text>", x0, y + KEY_H + 13,
		m->lower_better ? "max" : "min", a);
	fprintf(f, "<text class=\"keyhi\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%s %s</text>",
		x0 + kw, y + KEY_H + 13, m->lower_better ? "min" : "max", b);
	fprintf(f, "<text class=\"keynote\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">", x0 + kw / 2,
		y + KEY_H + 27);
	svg_escape(f, m->what);
	fprintf(f, ": %s is better</text>", m->lower_better ? "lower" : "higher");
}

/* The map's <svg> (@doc: a standalone document with its own style). */
static int heat_body(FILE *f, const struct heat_map *m, bool doc)
{
	double lo = 0, hi = 0;
	bool any = m->v && range(m, &lo, &hi);
	int gw = ML + (int)m->ncols * CW + 16, w = gw < MIN_W ? MIN_W : gw;
	int gy = MT + (int)m->nrows * CH, h = gy + 14 + KEY_H + 34;
	if (doc)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"heat heat-%s\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\">",
		m->id, w, h, w, h);
	if (doc)
		fprintf(f, "<style>%s</style>", svg_style);
	fprintf(f,
		"<rect class=\"bg\" width=\"%d\" height=\"%d\"/>"
		"<text class=\"title\" x=\"%d\" y=\"18\">",
		w, h, ML);
	svg_escape(f, m->title);
	fprintf(f, "</text><text x=\"%d\" y=\"%d\">queue depth (per thread)</text>", ML, MT - 22);
	fprintf(f,
		"<text x=\"14\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 14 %d)\">"
		"threads</text>",
		MT + (int)m->nrows * CH / 2, MT + (int)m->nrows * CH / 2);
	for (unsigned c = 0; c < m->ncols; c++)
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">Q%g</text>",
			ML + (int)c * CW + CW / 2, MT - 5, m->cols[c]);
	for (unsigned r = 0; r < m->nrows; r++) {
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">T%g</text>", ML - 6,
			MT + (int)r * CH + CH / 2 + 4, m->rows[r]);
		for (unsigned c = 0; c < m->ncols; c++)
			cell(f, m, r, c, lo, hi);
	}
	if (any)
		key(f, m, gy + 14, w, lo, hi);
	else
		fprintf(f, "<text class=\"nodata\" x=\"%d\" y=\"%d\">no data</text>", ML, gy + 24);
	fputs("</svg>\n", f);
	return any ? 0 : -EINVAL;
}

static int heat_doc(FILE *f, const void *m)
{
	return heat_body(f, m, true);
}

int heat_svg_doc(FILE *f, const struct heat_map *m)
{
	return heat_body(f, m, true);
}

/* threads, queue depth, the figure: a row per cell with data. */
static void heat_csv(FILE *f, const void *arg)
{
	const struct heat_map *m = arg;
	fputs("threads,queue depth (per thread),", f);
	fputs(m->what, f);
	if (m->unit)
		fprintf(f, " (%s)", m->unit);
	fputc('\n', f);
	for (unsigned r = 0; r < m->nrows && m->v; r++)
		for (unsigned c = 0; c < m->ncols; c++)
			if (isfinite(m->v[r * m->ncols + c]))
				fprintf(f, "%g,%g,%.12g\n", m->rows[r], m->cols[c],
					m->v[r * m->ncols + c]);
}

int heat_svg(FILE *f, const struct heat_map *m)
{
	svg_publish_open(f);
	int rc = heat_body(f, m, false);
	char id[64];
	snprintf(id, sizeof(id), "heat-%s", m->id);
	struct svg_item it = {
	    .title = m->title, .id = id, .doc = heat_doc, .csv = heat_csv, .arg = m};
	svg_publish(f, &it);
	return rc;
}

#define MAXD 64

void heat_grid(FILE *f, const struct rtab *t, const struct rw_rows *rw)
{
	double th[MAXD], qd[MAXD];
	size_t nt = rtab_distinct(t, "threads", th, MAXD), nq = rtab_distinct(t, "qd", qd, MAXD);
	if (!nt || !nq)
		return;
	if (nt > MAXD || nq > MAXD) {
		fprintf(f,
			"<p class=\"na\">%zu thread counts x %zu queue depths: more than %d "
			"a side, no heat map</p>\n",
			nt, nq, MAXD);
		return;
	}
	double *v = malloc(sizeof(double) * nt * nq * 3);
	if (!v)
		return;
	for (unsigned i = 0; i < nt; i++)
		for (unsigned q = 0; q < nq; q++) {
			size_t r = rtab_find2(t, "threads", th[i], "qd", qd[q]), c = i * nq + q;
			bool in = r < t->nrows, lat = in && r < rw->n;
			v[c] = in ? rtab_get(t, r, "iops") : NAN;
			if (lat && isfinite(rw->d[r][0].iops) && isfinite(rw->d[r][1].iops))
				v[c] = rw->d[r][0].iops + rw->d[r][1].iops; /* unrounded */
			v[nt * nq + c] = lat ? rw->d[r][0].mean_us : NAN;
			v[2 * nt * nq + c] = lat ? rw->d[r][1].mean_us : NAN;
		}
	struct heat_map m = {.id = "iops",
			     .title = "IOPS by threads x queue depth",
			     .what = "IOPS",
			     .rows = th,
			     .cols = qd,
			     .nrows = nt,
			     .ncols = nq,
			     .v = v,
			     .fmt = "%.0f"};
	heat_svg(f, &m);
	if (rw->mixed) {
		static const char *const ids[] = {"read", "write"};
		static const char *const titles[] = {"read mean latency (\xc2\xb5s)",
						     "write mean latency (\xc2\xb5s)"};
		for (int k = 0; k < 2; k++) {
			m = (struct heat_map){.id = ids[k],
					      .title = titles[k],
					      .what = "mean latency",
					      .unit = "\xc2\xb5s",
					      .rows = th,
					      .cols = qd,
					      .nrows = nt,
					      .ncols = nq,
					      .v = v + (k + 1) * nt * nq,
					      .fmt = "%.1f",
					      .lower_better = true};
			heat_svg(f, &m);
		}
	}
	free(v);
}

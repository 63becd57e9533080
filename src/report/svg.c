/* svg.c - inline SVG charts.
 *
 * Axis ticks use the "nice numbers" method of Paul Heckbert ("Nice Numbers
 * for Graph Labels", Graphics Gems, 1990): the raw step span/n is rounded to
 * 1, 2 or 5 times a power of ten, and the axis is widened to whole steps.
 * Log axes tick at powers of ten over the decades the data spans (reviews
 * chart IO consistency on a log scale because consumer drives fall from
 * ~100K to ~100 IOPS).  Scatter series are drawn as one <path> of tiny
 * segments rather than thousands of <circle> elements, which keeps a 16,000
 * point preconditioning chart small. */
#include "report/svg.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define ML 70 /* margins: left, right, top, bottom */
#define MR 70
#define MT 34
#define MB 46

/* The charts' look, for a page's <style> and a standalone chart's own. */
const char svg_style[] =
    "svg text{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;font-size:11px;fill:#333}"
    "svg .bg{fill:#fff}svg .frame{fill:none;stroke:#888}svg .grid{stroke:#e4e4e4}"
    "svg .title{font-size:13px;font-weight:600}"
    "svg .band{fill:#2ca02c;fill-opacity:.15;stroke:#2ca02c;stroke-dasharray:4 3}"
    "svg .bandlabel{fill:#1d6b1d;font-size:11px}svg .nodata{fill:#999}"
    "svg .yref{stroke:#999;stroke-dasharray:3 3}svg .yreflabel{font-size:10px;fill:#555}"
    "svg .mark{stroke:#fff;stroke-width:1}"
    "svg .band.grey{fill:#777;fill-opacity:.08;stroke:#777}svg .bandlabel.grey{fill:#444}";

void svg_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

double svg_nice_step(double span, int n)
{
	if (!(span > 0) || !isfinite(span) || n < 1)
		return 1;
	double raw = span / n, p = pow(10, floor(log10(raw))), f = raw / p;
	double nice = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
	return nice * p;
}

struct axis {
	double lo, hi;
	bool log;
	double step; /* linear */
};

static void axis_fit(struct axis *a, double lo, double hi, bool log_scale, bool from_zero)
{
	a->log = log_scale;
	if (log_scale) {
		if (!(lo > 0))
			lo = hi > 0 ? hi / 1000 : 1;
		if (!(hi > 0))
			hi = 10;
		a->lo = pow(10, floor(log10(lo)));
		a->hi = pow(10, ceil(log10(hi)));
		if (a->hi <= a->lo)
			a->hi = a->lo * 10;
		return;
	}
	if (from_zero && lo > 0)
		lo = 0;
	if (hi <= lo)
		hi = lo + (lo ? fabs(lo) : 1);
	a->step = svg_nice_step(hi - lo, 5);
	a->lo = floor(lo / a->step) * a->step;
	a->hi = ceil(hi / a->step) * a->step;
}

static double axis_pos(const struct axis *a, double v)
{
	if (a->log) {
		if (!(v > 0))
			return NAN;
		return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	}
	return (v - a->lo) / (a->hi - a->lo);
}

static void fmt_num(char *buf, size_t len, double v)
{
	double av = fabs(v);
	if (av >= 1e9)
		snprintf(buf, len, "%gG", v / 1e9);
	else if (av >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (av >= 1e4)
		snprintf(buf, len, "%gK", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
}

/* Ticks and grid of a Y axis (left when !right) or of the X axis. */
static void draw_ticks(FILE *f, const struct axis *a, char which, int x0, int y0, int w, int h)
{
	double vals[64];
	int n = 0;
	if (a->log) {
		for (double v = a->lo; v <= a->hi * 1.0001 && n < 64; v *= 10)
			vals[n++] = v;
	} else {
		/* from the first multiple of the step (lo itself, but on a whole-
		 * number axis kept clear of the frame) */
		double v0 = ceil(a->lo / a->step - 1e-9) * a->step;
		for (double v = v0; v <= a->hi + a->step * 1e-6 && n < 64; v += a->step)
			vals[n++] = fabs(v) < a->step * 1e-9 ? 0 : v;
	}
	for (int i = 0; i < n; i++) {
		char lab[32];
		double p = axis_pos(a, vals[i]);
		fmt_num(lab, sizeof(lab), vals[i]);
		if (which == 'x') {
			double x = x0 + p * w;
			fprintf(
			    f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>",
			    x, y0, x, y0 + h);
			fprintf(f,
				"<text class=\"tick\" x=\"%.1f\" y=\"%d\" "
				"text-anchor=\"middle\">%s</text>",
				x, y0 + h + 16, lab);
		} else {
			double y = y0 + h - p * h;
			if (which == 'l')
				fprintf(f,
					"<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" "
					"y2=\"%.1f\"/>",
					x0, y, x0 + w, y);
			fprintf(
			    f,
			    "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"%s\">%s</text>",
			    which == 'l' ? x0 - 6 : x0 + w + 6, y + 4,
			    which == 'l' ? "end" : "start", lab);
		}
	}
}

static void draw_yrefs(FILE *f, const struct svg_chart *c, const struct axis *ay, int w, int h)
{
	for (unsigned i = 0; i < c->nyrefs; i++) {
		double p = axis_pos(ay, c->yrefs[i].y);
		if (!isfinite(p) || p < 0 || p > 1)
			continue;
		double y = MT + h - p * h;
		fprintf(f,
			"<line class=\"yref\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
			"<text class=\"yreflabel\" x=\"%d\" y=\"%.1f\">",
			ML, y, ML + w, y, ML + w + 4, y + 4);
		svg_escape(f, c->yrefs[i].label);
		fputs("</text>", f);
	}
}

static void draw_marks(FILE *f, const struct svg_chart *c, const struct axis *ax,
		       const struct axis *ay, int w, int h)
{
	for (unsigned i = 0; i < c->nmarks; i++) {
		const struct svg_mark *m = &c->marks[i];
		const struct svg_series *se = m->series < c->nseries ? &c->series[m->series] : NULL;
		double px = axis_pos(ax, m->x), py = axis_pos(ay, m->y);
		if (!isfinite(px) || !isfinite(py))
			continue;
		fprintf(f, "<circle class=\"mark\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"",
			ML + px * w, MT + h - py * h, se && se->color ? se->color : "#333");
		fputs(" data-series=\"", f);
		svg_escape(f, se ? se->name : "");
		fputs("\" data-mark=\"", f);
		svg_escape(f, m->mark);
		fputs("\" data-value=\"", f);
		svg_escape(f, m->value);
		fputs("\"><title>", f);
		svg_escape(f, m->title);
		fputs("</title></circle>", f);
	}
}

/* The marked band (steady-state window) under the data, with its label. */
static void draw_band(FILE *f, const struct svg_chart *c, const struct axis *ax, int w, int h)
{
	if (!c->band)
		return;
	double p0 = axis_pos(ax, c->band_x0), p1 = axis_pos(ax, c->band_x1);
	p0 = fmax(0, fmin(1, p0));
	p1 = fmax(0, fmin(1, p1));
	if (isfinite(p0) && isfinite(p1) && p1 >= p0) {
		fprintf(f,
			"<rect class=\"band%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
			"height=\"%d\"/>",
			c->band_grey ? " grey" : "", ML + p0 * w, MT, fmax(1, (p1 - p0) * w), h);
		if (c->band_label) {
			fprintf(f,
				"<text class=\"bandlabel%s\" x=\"%.1f\" y=\"%d\" "
				"text-anchor=\"middle\">",
				c->band_grey ? " grey" : "", ML + (p0 + p1) / 2 * w, MT + 12);
			svg_escape(f, c->band_label);
			fputs("</text>", f);
		}
	}
}

/* The axis labels (the right one with a right axis). */
static void draw_labels(FILE *f, const struct svg_chart *c, bool right, int W, int H, int w, int h)
{
	if (c->xlabel) {
		fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
			ML + w / 2, H - 8);
		svg_escape(f, c->xlabel);
		fputs("</text>", f);
	}
	if (c->ylabel) {
		fprintf(f,
			"<text class=\"label\" transform=\"translate(16 %d) rotate(-90)\" "
			"text-anchor=\"middle\">",
			MT + h / 2);
		svg_escape(f, c->ylabel);
		fputs("</text>", f);
	}
	if (right && c->y2label) {
		fprintf(f,
			"<text class=\"label\" transform=\"translate(%d %d) rotate(90)\" "
			"text-anchor=\"middle\">",
			W - 14, MT + h / 2);
		svg_escape(f, c->y2label);
		fputs("</text>", f);
	}
}

/* The legend: a swatch and the name of each named series (top left, or
 * bottom left with legend_low). */
static const char *dash_of(const struct svg_series *se)
{
	return se->dash ? se->dash : se->dashed ? "6 4" : NULL;
}

static unsigned named(const struct svg_chart *c)
{
	unsigned n = 0;
	for (unsigned s = 0; s < c->nseries; s++)
		n += c->series[s].name != NULL;
	return n;
}

/* A legend entry's width in characters under the plot: in one of two
 * columns, or across the chart (@w: the plot's width). */
#define LEGEND_CHARS(w, cols) ((size_t)((w) / (cols)-24) / 6)

/* The legend's columns under the plot: 2 when every name fits in half the
 * width, else 1 (whole names, one a line); 0: inside the plot. */
static int legend_cols(const struct svg_chart *c, int w)
{
	if (named(c) <= SVG_LEGEND_IN)
		return 0;
	for (unsigned s = 0; s < c->nseries; s++)
		if (c->series[s].name && strlen(c->series[s].name) > LEGEND_CHARS(w, 2))
			return 1;
	return 2;
}

/* The legend's height under the plot (0: inside it). */
static int legend_below(const struct svg_chart *c, int w)
{
	int cols = legend_cols(c, w);
	return cols ? 15 * (int)((named(c) + (unsigned)cols - 1) / (unsigned)cols) + 8 : 0;
}

/* Back from @i to a UTF-8 character's first byte. */
static size_t char_start(const char *s, size_t i)
{
	while (i && ((unsigned char)s[i] & 0xC0) == 0x80)
		i--;
	return i;
}

static void escape_n(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char one[2] = {s[i], '\0'};
		svg_escape(f, one);
	}
}

/* @name in at most @maxc bytes: its head and tail around an ellipsis
 * (where runs' names differ: "drive-a-firmware-2 (/dev/nvme0n1)"), the
 * whole name as its tooltip. */
static void legend_text(FILE *f, const char *name, size_t maxc)
{
	size_t n = strlen(name);
	if (n <= maxc || maxc < 8) {
		svg_escape(f, name);
		return;
	}
	size_t head = char_start(name, (maxc - 1) / 2);
	size_t tail = char_start(name, n - (maxc - 1 - (maxc - 1) / 2));
	fputs("<title>", f);
	svg_escape(f, name);
	fputs("</title>", f);
	escape_n(f, name, head);
	fputs("\xe2\x80\xa6", f);
	svg_escape(f, name + tail);
}

/* The legend: inside the plot at its top left (bottom left with
 * legend_low), or under the plot in one or two columns (legend_cols). */
static void draw_legend(FILE *f, const struct svg_chart *c, int w, int h, int H)
{
	int cols = legend_cols(c, w);
	bool below = cols > 0;
	int ly0 = below ? H + 4 : c->legend_low ? MT + h - 6 - 15 * (int)named(c) : MT + 6;
	unsigned k = 0, rows = cols == 2 ? (named(c) + 1) / 2 : named(c);
	for (unsigned s = 0; s < c->nseries; s++) {
		const struct svg_series *se = &c->series[s];
		if (!se->name)
			continue;
		int lx = ML + 7 + (below && k >= rows ? w / 2 : 0);
		int ly = ly0 + 15 * (int)(below && k >= rows ? k - rows : k);
		k++;
		const char *col = se->color ? se->color : "#333", *dash = dash_of(se);
		if (dash)
			fprintf(f,
				"<path d=\"M%d %dh12\" stroke=\"%s\" stroke-width=\"2\" "
				"stroke-dasharray=\"%s\"/>",
				lx, ly + 5, col, dash);
		else
			fprintf(f,
				"<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" "
				"fill=\"%s\"/>",
				lx + 1, ly, col);
		fprintf(f, "<text class=\"legend\" x=\"%d\" y=\"%d\">", lx + 15, ly + 9);
		if (below)
			legend_text(f, se->name, LEGEND_CHARS(w + MR, cols));
		else
			svg_escape(f, se->name);
		fputs("</text>", f);
	}
}

/* Each series: one <path> (a polyline, or dots as tiny segments) and, on
 * a short polyline, a dot at each point. */
static void draw_series(FILE *f, const struct svg_chart *c, const struct axis *pax,
			const struct axis *ay, int w, int h)
{
	const struct axis ax = *pax;
	for (unsigned s = 0; s < c->nseries; s++) {
		const struct svg_series *se = &c->series[s];
		const struct axis *yy = &ay[se->right ? 1 : 0];
		fprintf(f, "<path class=\"%s\" ", se->dots ? "dots" : "line");
		if (se->key) {
			fputs("data-series=\"", f);
			svg_escape(f, se->key);
			fputs("\" ", f);
		}
		if (dash_of(se))
			fprintf(f, "stroke-dasharray=\"%s\" ", dash_of(se));
		fprintf(
		    f,
		    "fill=\"none\" stroke=\"%s\" stroke-width=\"%g\" stroke-linecap=\"round\" d=\"",
		    se->color ? se->color : "#333",
		    !se->dots	  ? 2
		    : se->dot > 0 ? se->dot
				  : 4);
		bool pen = false;
		for (size_t i = 0; i < se->n; i++) {
			double px = axis_pos(&ax, se->x[i]), py = axis_pos(yy, se->y[i]);
			if (!isfinite(px) || !isfinite(py) || !isfinite(se->x[i]) ||
			    !isfinite(se->y[i])) {
				pen = false;
				continue;
			}
			double X = ML + px * w, Y = MT + h - py * h;
			if (se->dots)
				fprintf(f, "M%.1f %.1fh0.01", X, Y);
			else
				fprintf(f, "%c%.1f %.1f", pen ? 'L' : 'M', X, Y);
			pen = true;
		}
		fputs("\"/>", f);
		if (!se->dots && !se->plain)
			for (size_t i = 0; i < se->n && se->n <= 64; i++) {
				double px = axis_pos(&ax, se->x[i]), py = axis_pos(yy, se->y[i]);
				if (isfinite(px) && isfinite(py))
					fprintf(
					    f,
					    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>",
					    ML + px * w, MT + h - py * h,
					    se->color ? se->color : "#333");
			}
	}
}

/* The chart's drawing after its <svg> tag (the background, title, axes,
 * series, marks, labels, legend) and the closing tag. */
static int chart_body(FILE *f, const struct svg_chart *c, bool doc)
{
	int W = c->width ? c->width : 720, H = c->height ? c->height : 340;
	int w = W - ML - MR, h = H - MT - MB;
	double xlo = INFINITY, xhi = -INFINITY, ylo[2] = {INFINITY, INFINITY},
	       yhi[2] = {-INFINITY, -INFINITY};
	bool any = false, right = false;

	for (unsigned s = 0; s < c->nseries; s++) {
		const struct svg_series *se = &c->series[s];
		int k = se->right ? 1 : 0;
		right |= se->right;
		for (size_t i = 0; i < se->n; i++) {
			double x = se->x[i], y = se->y[i];
			if (!isfinite(x) || !isfinite(y) || (c->xlog && x <= 0) ||
			    ((k ? c->y2log : c->ylog) && y <= 0))
				continue;
			any = true;
			xlo = fmin(xlo, x);
			xhi = fmax(xhi, x);
			ylo[k] = fmin(ylo[k], y);
			yhi[k] = fmax(yhi[k], y);
		}
	}
	if (doc)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	int HL = H + legend_below(c, w);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart%s%s\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">",
		c->id ? " chart-" : "", c->id ? c->id : "", W, HL, W, HL);
	if (doc)
		fprintf(f, "<style>%s</style>", svg_style);
	fprintf(f, "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\"/>", W, HL);
	if (c->title) {
		fprintf(f, "<text class=\"title\" x=\"%d\" y=\"20\" text-anchor=\"middle\">",
			W / 2);
		svg_escape(f, c->title);
		fputs("</text>", f);
	}
	if (!any) {
		fprintf(
		    f,
		    "<text class=\"nodata\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">no data</text>"
		    "</svg>\n",
		    W / 2, H / 2);
		return -EINVAL;
	}
	struct axis ax, ay[2];
	axis_fit(&ax, xlo, xhi, c->xlog, false);
	if (c->xint && !c->xlog) { /* whole numbers (drive #), half a step clear of the frame */
		ax.step = ax.step < 1 ? 1 : ax.step;
		ax.lo = floor(xlo) - 0.5;
		ax.hi = ceil(xhi) + 0.5;
	}
	if (c->yfixed)
		ylo[0] = c->ylo, yhi[0] = c->yhi;
	axis_fit(&ay[0], ylo[0], yhi[0], c->ylog, true);
	if (right)
		axis_fit(&ay[1], ylo[1], yhi[1], c->y2log, true);

	draw_band(f, c, &ax, w, h);
	draw_ticks(f, &ax, 'x', ML, MT, w, h);
	draw_ticks(f, &ay[0], 'l', ML, MT, w, h);
	if (right)
		draw_ticks(f, &ay[1], 'r', ML, MT, w, h);
	fprintf(f, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>", ML, MT,
		w, h);

	draw_series(f, c, &ax, ay, w, h);
	draw_yrefs(f, c, &ay[0], w, h);
	draw_marks(f, c, &ax, &ay[0], w, h);
	draw_labels(f, c, right, W, H, w, h);
	if (!c->no_legend)
		draw_legend(f, c, w, h, H);
	fputs("</svg>\n", f);
	return 0;
}

static svg_hook_fn *hook;
static void *hook_ctx;

void svg_set_hook(svg_hook_fn *fn, void *ctx)
{
	hook = fn;
	hook_ctx = ctx;
}

void svg_publish_open(FILE *f)
{
	if (hook)
		fputs("<div class=\"chartfig\">", f);
}

void svg_publish(FILE *f, const struct svg_item *it)
{
	if (!hook)
		return;
	hook(hook_ctx, f, it);
	fputs("</div>", f);
}

void svg_csv_field(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void svg_chart_csv(FILE *f, const struct svg_chart *c)
{
	bool right = false;
	for (unsigned s = 0; s < c->nseries; s++)
		right |= c->series[s].right;
	fputs("series,", f);
	svg_csv_field(f, c->xlabel ? c->xlabel : "x");
	fputc(',', f);
	svg_csv_field(f, c->ylabel ? c->ylabel : "y");
	if (right) {
		fputc(',', f);
		svg_csv_field(f, c->y2label ? c->y2label : "y2");
	}
	fputc('\n', f);
	for (unsigned s = 0; s < c->nseries; s++) {
		const struct svg_series *se = &c->series[s];
		bool ylog = se->right ? c->y2log : c->ylog;
		for (size_t i = 0; i < se->n; i++) {
			double x = se->x[i], y = se->y[i];
			if (!isfinite(x) || !isfinite(y) || (c->xlog && x <= 0) || (ylog && y <= 0))
				continue;
			svg_csv_field(f, se->name ? se->name : se->key);
			fprintf(f, ",%.12g,", x);
			if (se->right)
				fputc(',', f);
			fprintf(f, "%.12g%s\n", y, right && !se->right ? "," : "");
		}
	}
}

static int chart_doc(FILE *f, const void *c)
{
	return chart_body(f, c, true);
}

static void chart_csv(FILE *f, const void *c)
{
	svg_chart_csv(f, c);
}

int svg_chart(FILE *f, const struct svg_chart *c)
{
	svg_publish_open(f);
	int rc = chart_body(f, c, false);
	struct svg_item it = {
	    .title = c->title, .id = c->id, .doc = chart_doc, .csv = chart_csv, .arg = c};
	svg_publish(f, &it);
	return rc;
}

int svg_chart_doc(FILE *f, const struct svg_chart *c)
{
	return chart_body(f, c, true);
}

/* svg.h - small inline SVG charts for the HTML report: line and scatter
 * series on linear or log axes, an optional second (right) Y axis, and a
 * marked X band (the steady-state window).  Output is plain SVG 1.1 text
 * with no script and no external reference. */
#ifndef NVS_SVG_H
#define NVS_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct svg_series {
	const char *name;    /* legend text (escaped on output) */
	const double *x, *y; /* n points; non-finite values are skipped */
	size_t n;
	const char *color; /* CSS colour, e.g. "#1f77b4" */
	bool right;	   /* plotted against the right Y axis */
	bool dots;	   /* scatter (dots) instead of a polyline */
	bool plain;	   /* a polyline without a dot at each point */
	double dot;	   /* a dot's diameter in px (0: 4) */
	bool dashed;	   /* a dashed polyline (and legend swatch) */
	const char *dash;  /* its stroke-dasharray ("6 4"), overrides dashed; NULL */
	const char *key;   /* data-series of the path (escaped), may be NULL */
};

/* A marked point (a percentile on an exceedance curve): a circle with a
 * <title> tooltip, carrying machine-readable data attributes
 * data-series (the series' name), data-mark and data-value (escaped). */
struct svg_mark {
	double x, y;
	unsigned series;   /* index into the chart's series (its colour, name) */
	const char *mark;  /* data-mark, e.g. "p99.99" */
	const char *value; /* data-value, e.g. the exact figure "123456" */
	const char *title; /* tooltip text */
};

/* A labelled horizontal reference line (e.g. "p99.99" at 1e-4). */
struct svg_yref {
	double y;
	const char *label;
};

#define SVG_LEGEND_IN 8

struct svg_chart {
	const char *id; /* CSS class "chart-ID" of the <svg>, may be NULL */
	const char *title;
	const char *xlabel, *ylabel, *y2label; /* y2label: right axis, may be NULL */
	bool xlog, ylog, y2log;
	const struct svg_series *series;
	unsigned nseries;
	bool band; /* mark [band_x0, band_x1] */
	double band_x0, band_x1;
	const char *band_label;
	bool band_grey;		      /* a grey band ("band grey"), not the steady-state green */
	int width, height;	      /* 0: 720 x 340 */
	const struct svg_mark *marks; /* drawn over the series */
	unsigned nmarks;
	const struct svg_yref *yrefs; /* against the left axis */
	unsigned nyrefs;
	bool legend_low; /* the legend at the bottom left (curves that start top left) */
	/* more than SVG_LEGEND_IN named series: the legend goes under the plot
	 * in two columns and the chart grows by its height (the plot does not
	 * shrink, no legend covers the data) */
	bool xint;	/* X ticks on whole numbers only (a drive's number) */
	bool no_legend; /* no legend (small multiples: the page says what is drawn) */
	bool yfixed;	/* the left axis spans [ylo, yhi] whatever the data */
	double ylo, yhi;
};

/* Writes @c as one <svg> element to @f.  Returns 0, or -EINVAL when there
 * is nothing finite to plot (an empty frame with "no data" is written). */
int svg_chart(FILE *f, const struct svg_chart *c);
/* The same drawing as a standalone SVG document (an XML declaration, the
 * xmlns and its own <style>: fonts and background), for a file of its own.
 * Returns as svg_chart(). */
int svg_chart_doc(FILE *f, const struct svg_chart *c);
/* The charts' CSS rules (a standalone chart's <style>). */
extern const char svg_style[];
/* A drawing on the page that is also published as files of its own
 * (report/chartpub): its title (or id) names the files, @doc writes it as
 * a standalone SVG document, @csv the numbers it draws (a header naming
 * the columns and units), both of @arg. */
struct svg_item {
	const char *title, *id;
	int (*doc)(FILE *f, const void *arg);
	void (*csv)(FILE *f, const void *arg);
	const void *arg;
};
/* Called by svg_publish() with the page @f and the item. */
typedef void svg_hook_fn(void *ctx, FILE *f, const struct svg_item *it);
/* One hook for the process (the report is written by one thread); NULL
 * removes it.  With a hook, svg_chart() and heat_svg() wrap each inline
 * drawing and what the hook writes after it (its links) in one
 * <div class="chartfig"> (svg_publish_open() before the drawing,
 * svg_publish() after it), so a row of charts stays a row. */
void svg_set_hook(svg_hook_fn *fn, void *ctx);
void svg_publish_open(FILE *f);
void svg_publish(FILE *f, const struct svg_item *it);
/* The points @c draws as CSV: a row per point of each series (finite, and
 * positive on a log axis): series, x, the left axis's y, and on a chart
 * with a right axis a fourth column for that axis's series; the header is
 * "series," and the axes' labels (their units). */
void svg_chart_csv(FILE *f, const struct svg_chart *c);
/* A CSV field: @s as is, or quoted ("" for a quote) when it holds a comma,
 * a quote or a line break; NULL: empty. */
void svg_csv_field(FILE *f, const char *s);
/* Writes @s with &, <, >, " and ' escaped for HTML/SVG text. */
void svg_escape(FILE *f, const char *s);
/* "Nice" tick step for a range of @span with about @n ticks (1, 2, 5 x
 * 10^k).  Exposed for tests. */
double svg_nice_step(double span, int n);

#endif

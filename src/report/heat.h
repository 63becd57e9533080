/* heat.h - the thread x QD grid as heat maps in the HTML report (issue
 * 23, StorageReview's P3700 thread/queue profiles): an inline SVG grid,
 * threads down and queue depth across, each cell coloured on one
 * colour-blind-safe sequential scale (viridis, dark to bright) with its
 * figure written in it in the colour of more contrast, a key with the
 * map's min and max; a cell without data is grey, hatched and "n/a".
 * IOPS maps higher-is-better to the bright end; a latency map has a scale
 * of its own, lower is better, so its lowest figure takes the bright end
 * (the key says which).  Input is outside data: non-finite figures are
 * "no data", text is escaped. */
#ifndef NVS_HEAT_H
#define NVS_HEAT_H

#include <stdbool.h>
#include <stdio.h>
#include "report/rtable.h"
#include "report/rwhtml.h"

/* The colour at @frac of the scale (0: dark end, 1: bright end; clamped,
 * NAN reads as 0) as "#rrggbb" into @out. */
void heat_color(double frac, char out[8]);
/* The text colour of more contrast (WCAG) on background "#rrggbb" @bg:
 * "#000" or "#fff". */
const char *heat_text_color(const char *bg);

struct heat_map {
	const char *id;		   /* CSS class "heat heat-ID" of the <svg> */
	const char *title;	   /* escaped on output */
	const char *what;	   /* the key's figure, e.g. "IOPS" (escaped) */
	const double *rows, *cols; /* threads, QDs */
	unsigned nrows, ncols;
	const double *v;   /* nrows x ncols, row-major; non-finite: no data */
	const char *fmt;   /* a cell's figure, e.g. "%.0f" */
	bool lower_better; /* the lowest figure takes the bright end */
	const char *unit;  /* the figure's unit in its CSV header, or NULL */
};

/* Writes @m as one <svg> to @f.  Each cell is a <g class="cell"> (or
 * "cell na") with data-threads, data-qd and data-value; its <rect>'s fill
 * is its colour.  0, or -EINVAL when no cell has data (every cell n/a).
 * Published (svg_publish) as a chart: its CSV is threads, queue depth and
 * the figure of each cell with data. */
int heat_svg(FILE *f, const struct heat_map *m);
/* The same as a standalone SVG document (its own style). */
int heat_svg_doc(FILE *f, const struct heat_map *m);

/* The heat maps of one drive's grid step @t: IOPS (the row's JSON's read
 * plus write IOPS, unrounded; the table's where the JSON has none), and
 * for a mixed step (@rw->mixed) read and write mean latency. */
void heat_grid(FILE *f, const struct rtab *t, const struct rw_rows *rw);

#endif

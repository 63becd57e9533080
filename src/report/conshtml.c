/* conshtml.c - the IO consistency charts (see conshtml.h).  The dots are
 * CONS_DOT_PX across (r = 2.5 px), as large as AnandTech's markers: a
 * reader sees each second's point, not a haze of single pixels.  The points are those of the
 * whole-run chart of a precondition step (html.c samples_chart): every interval but a job's short
 * tail interval and the ramp. */
#include "report/conshtml.h"

#include <math.h>
#include <stdlib.h>
#include "report/csv.h"
#include "report/svg.h"
#include "stats/collect.h"

#define CONS_DOT_PX 5

double conshtml_zoom_start(double end_s)
{
	if (!(end_s > 0) || !isfinite(end_s))
		return 0;
	if (end_s >= CONS_REVIEW_RUN_S)
		return CONS_REVIEW_ZOOM_S;
	return end_s * (CONS_REVIEW_ZOOM_S / CONS_REVIEW_RUN_S);
}

struct cons {
	double *t, *io, *lat;
	size_t n;
};

/* The points of @s (see the top); 0 or -1 out of memory. */
static int cons_points(const struct series *s, bool mbps, struct cons *c)
{
	c->n = 0;
	c->t = calloc(s->n + 1, sizeof(double));
	c->io = calloc(s->n + 1, sizeof(double));
	c->lat = calloc(s->n + 1, sizeof(double));
	if (!c->t || !c->io || !c->lat)
		return -1;
	for (size_t i = 0; i < s->n; i++) {
		const struct point *p = &s->pt[i];
		if (p->dt < 0.05 || p->ramp)
			continue;
		c->t[c->n] = p->t;
		c->io[c->n] = mbps ? point_bw(p) / 1e6 : point_iops(p);
		c->lat[c->n] = p->lat_mean_all_us > 0
				   ? p->lat_mean_all_us / 1000.0
				   : (p->lat_mean_us[0] + p->lat_mean_us[1]) / 1000.0;
		c->n++;
	}
	return 0;
}

static void cons_free(struct cons *c)
{
	free(c->t);
	free(c->io);
	free(c->lat);
}

/* The whole run, the zoom's span [@from, end] shaded (grey in a
 * .consistency block: html.c's CSS; green is the steady-state window's). */
static void whole_run(FILE *f, const struct cons *c, bool mbps, double from)
{
	char label[64];
	snprintf(label, sizeof(label), "zoomed below: from t = %.4g s", from);
	struct svg_series se[2] = {
	    {.name = mbps ? "MB/s" : "IOPS",
	     .x = c->t,
	     .y = c->io,
	     .n = c->n,
	     .color = "#1f77b4",
	     .dots = true,
	     .dot = CONS_DOT_PX},
	    {.name = "mean latency (ms)",
	     .x = c->t,
	     .y = c->lat,
	     .n = c->n,
	     .color = "#ff7f0e",
	     .dots = true,
	     .dot = CONS_DOT_PX - 1,
	     .right = true},
	};
	struct svg_chart ch = {.id = "scatter",
			       .title = mbps ? "MB/s per interval, whole run (log scale)"
					     : "IOPS per interval, whole run (log scale)",
			       .xlabel = "time (s)",
			       .ylabel = mbps ? "MB/s" : "IOPS",
			       .y2label = "latency (ms)",
			       .ylog = true,
			       .series = se,
			       .nseries = 2,
			       .band = c->n > 1,
			       .band_x0 = from,
			       .band_x1 = c->t[c->n - 1],
			       .band_label = label,
			       .band_grey = true,
			       .width = 860};
	svg_chart(f, &ch);
}

/* The zoom from @from on a log (@logy) or linear Y axis: the points of
 * the run from @from on (the others are left out, not clipped). */
static void zoom(FILE *f, const struct cons *c, bool mbps, double from, bool logy)
{
	char title[128];
	size_t k = 0;
	while (k < c->n && c->t[k] < from)
		k++;
	snprintf(title, sizeof(title), "%s from t = %.4g s (%s scale)", mbps ? "MB/s" : "IOPS",
		 from, logy ? "log" : "linear");
	struct svg_series se = {.name = NULL, /* no legend: the title and axis say it */
				.x = c->t + k,
				.y = c->io + k,
				.n = c->n - k,
				.color = "#1f77b4",
				.dots = true,
				.dot = CONS_DOT_PX};
	struct svg_chart ch = {.id = logy ? "consistency-zoom-log" : "consistency-zoom-linear",
			       .title = title,
			       .xlabel = "time (s)",
			       .ylabel = mbps ? "MB/s" : "IOPS",
			       .ylog = logy,
			       .series = &se,
			       .nseries = 1,
			       .width = 430,
			       .height = 300};
	svg_chart(f, &ch);
}

void conshtml_charts(FILE *f, const char *dir, const char *sub, bool mbps)
{
	char path[2048], err[256];
	struct series s;
	struct cons c = {0};
	snprintf(path, sizeof(path), "%s/%s/samples.csv", dir, sub);
	if (csv_read_series(path, &s, err, sizeof(err))) {
		fputs("<p class=\"warn\">no samples: ", f);
		svg_escape(f, err);
		fputs("</p>", f);
		return;
	}
	/* one dot is no spread over time, and no zoom into a run's end */
	if (!cons_points(&s, mbps, &c) && c.n < 2)
		fprintf(f,
			"<p class=\"na\">%s interval of 50 ms or more in samples.csv (a step "
			"shorter than two intervals): no IO consistency chart</p>",
			c.n ? "one" : "no");
	else if (c.n >= 2) {
		double end = c.t[c.n - 1], from = conshtml_zoom_start(end);
		fprintf(f, "<div class=\"consistency\" data-run-s=\"%g\" data-zoom-from-s=\"%g\">",
			end, from);
		whole_run(f, &c, mbps, from);
		fprintf(f,
			"<p class=\"zoomnote\">Zoom: the run's last part, from t = %.4g s of %.4g "
			"s (%s)</p><div>",
			from, end,
			end >= CONS_REVIEW_RUN_S
			    ? "where AnandTech's zoom starts"
			    : "70% of the run, as AnandTech's 1400 s of 2000 s");
		zoom(f, &c, mbps, from, true);
		zoom(f, &c, mbps, from, false);
		fputs("</div></div>", f);
	}
	cons_free(&c);
	series_release(&s);
}

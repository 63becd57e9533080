/* rwhtml.c - mixed workloads' read and write apart, and the rate curve's
 * charts (see rwhtml.h).
 *
 * Each row's JSON (fio's layout) has "read" and "write" with iops and
 * lat_ns (N, mean, percentile "99.000000", all ns): the figures of each
 * direction, where the step tables (qd.csv, rate.csv, grid.csv) hold both
 * merged.  A p99 is stated with 100 I/Os or more, as the QoS columns.
 *
 * The rate curve: StorageReview (VDBench) plots latency against the
 * achieved IOPS, in order of the asked rate, so a point that fell short of
 * its rate (a dip, or the max run) turns the line back on itself.  Here
 * each drive's points are drawn in order of the achieved figure (the line
 * goes left to right), and a second chart plots the achieved against the
 * requested IOPS with the line where they are equal: a dip shows there as
 * a point under that line instead of as a zig-zag. */
#include "report/rwhtml.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "report/qoshtml.h"
#include "report/svg.h"

/* A finite number >= 0 at @o's @key, else NAN. */
static double num(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItem(o, key);
	return cJSON_IsNumber(x) && isfinite(x->valuedouble) && x->valuedouble >= 0 ? x->valuedouble
										    : NAN;
}

/* Direction @dir ("read", "write") of job @job. */
static void dir_of(const cJSON *job, const char *dir, struct rw_dir *d)
{
	const cJSON *o = cJSON_GetObjectItem(job, dir), *lat = cJSON_GetObjectItem(o, "lat_ns");
	double n = num(lat, "N");
	*d = (struct rw_dir){.ios = n, .iops = num(o, "iops"), .mean_us = NAN, .p99_us = NAN};
	if (!(n > 0))
		return;
	d->mean_us = num(lat, "mean") / 1000;
	if (n >= 100)
		d->p99_us = num(cJSON_GetObjectItem(lat, "percentile"), "99.000000") / 1000;
}

int rwhtml_load(const char *dir, const char *sub, const char *kind, const struct rtab *t,
		struct rw_rows *rw)
{
	memset(rw, 0, sizeof(*rw));
	if (!t->nrows)
		return 0;
	rw->d = calloc(t->nrows, sizeof(*rw->d));
	if (!rw->d)
		return -ENOMEM;
	rw->n = t->nrows;
	for (size_t r = 0; r < t->nrows; r++) {
		char name[64];
		cJSON *root = NULL;
		const cJSON *job = NULL;
		if (qoshtml_row_json(kind, t, r, name, sizeof(name))) {
			root = rtab_json(dir, sub, name);
			job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
		}
		dir_of(job, "read", &rw->d[r][0]);
		dir_of(job, "write", &rw->d[r][1]);
		rw->mixed |= rw->d[r][0].ios > 0 && rw->d[r][1].ios > 0;
		cJSON_Delete(root);
	}
	return 0;
}

void rwhtml_free(struct rw_rows *rw)
{
	free(rw->d);
	memset(rw, 0, sizeof(*rw));
}

static void cell(FILE *f, double v, const char *fmt)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("<td class=\"na\">n/a</td>", f);
}

void rwhtml_table(FILE *f, const struct rwhtml_drive *d, unsigned nd, const char *kind)
{
	bool any = false;
	for (unsigned i = 0; i < nd; i++)
		any |= d[i].rw->mixed;
	if (!any)
		return;
	fputs("<h3 class=\"rwsplit\">Read and write apart</h3><table class=\"rwsplit\"><tr><th "
	      "class=\"l\">drive</th><th>row</th><th>read IOPS</th><th>read mean &micro;s</th>"
	      "<th>read p99 &micro;s</th><th>write IOPS</th><th>write mean &micro;s</th>"
	      "<th>write p99 &micro;s</th></tr>",
	      f);
	for (unsigned i = 0; i < nd; i++) {
		if (!d[i].rw->mixed)
			continue;
		for (size_t r = 0; r < d[i].rw->n && r < d[i].t->nrows; r++) {
			char label[QOSHTML_LABEL_LEN];
			qoshtml_row_label(kind, d[i].t, r, label);
			fputs("<tr><td class=\"l\">", f);
			svg_escape(f, d[i].label);
			fputs("</td><td>", f);
			svg_escape(f, label);
			fputs("</td>", f);
			for (int k = 0; k < 2; k++) {
				const struct rw_dir *x = &d[i].rw->d[r][k];
				cell(f, x->iops, "<td>%.0f</td>");
				cell(f, x->mean_us, "<td>%.1f</td>");
				cell(f, x->p99_us, "<td>%.1f</td>");
			}
			fputs("</tr>", f);
		}
	}
	fputs("</table>\n", f);
}

/* One grid of direction @k: threads down, QD across, "mean / p99". */
static void grid_dir(FILE *f, const struct rtab *t, const struct rw_rows *rw, int k)
{
	double th[64], qd[64];
	size_t nt = rtab_distinct(t, "threads", th, 64), nq = rtab_distinct(t, "qd", qd, 64);
	if (nt > 64 || nq > 64) {
		fprintf(f,
			"<p class=\"na\">%zu thread counts x %zu queue depths: more than 64 a "
			"side, no %s latency grid</p>\n",
			nt, nq, k ? "write" : "read");
		return;
	}
	fprintf(f,
		"<table class=\"grid grid-%s\"><tr><th title=\"mean / p99 latency, &micro;s\">%s "
		"&micro;s</th>",
		k ? "write" : "read", k ? "write" : "read");
	for (size_t q = 0; q < nq; q++)
		fprintf(f, "<th>Q%g</th>", qd[q]);
	fputs("</tr>", f);
	for (unsigned i = 0; i < nt; i++) {
		fprintf(f, "<tr><th>T%g</th>", th[i]);
		for (unsigned q = 0; q < nq; q++) {
			size_t r = rtab_find2(t, "threads", th[i], "qd", qd[q]);
			const struct rw_dir *x = r < t->nrows && r < rw->n ? &rw->d[r][k] : NULL;
			if (!x || !isfinite(x->mean_us)) {
				fputs("<td class=\"na\">n/a</td>", f);
				continue;
			}
			fprintf(f, "<td>%.1f / ", x->mean_us);
			if (isfinite(x->p99_us))
				fprintf(f, "%.1f</td>", x->p99_us);
			else
				fputs("<span class=\"na\">n/a</span></td>", f);
		}
		fputs("</tr>", f);
	}
	fputs("</table>", f);
}

void rwhtml_grid(FILE *f, const struct rtab *t, const struct rw_rows *rw)
{
	if (!rw->mixed)
		return;
	grid_dir(f, t, rw, 0);
	grid_dir(f, t, rw, 1);
}

/* ---- the rate curve ---- */

struct pt {
	double x, y[3]; /* y: merged (or read) and write, per chart */
};

static int by_x(const void *a, const void *b)
{
	double x = ((const struct pt *)a)->x, y = ((const struct pt *)b)->x;
	return (x > y) - (x < y);
}

/* The points of drive @d in order of achieved throughput: x the achieved
 * IOPS (or MB/s / @xdiv), y[0] the merged latency (@col: "lat_mean_us" or
 * "lat_p99_us"), y[1] read's, y[2] write's; the rows of a numbered point
 * only (the max run, which found the rate, is in the tables only).
 * malloc'ed, *@n points; NULL out of memory. */
static struct pt *points(const struct rwhtml_drive *d, bool mbps, double xdiv, bool p99, size_t *n)
{
	struct pt *p = calloc(d->t->nrows + 1, sizeof(*p));
	*n = 0;
	for (size_t r = 0; p && r < d->t->nrows; r++) {
		double x = rtab_get(d->t, r, mbps ? "mbps" : "iops") / (mbps ? xdiv : 1);
		if (!isfinite(x) || !isfinite(d->t->v[r * d->t->ncols]))
			continue;
		p[*n].x = x;
		p[*n].y[0] = rtab_get(d->t, r, p99 ? "lat_p99_us" : "lat_mean_us");
		for (int k = 0; k < 2; k++)
			p[*n].y[k + 1] =
			    r < d->rw->n ? (p99 ? d->rw->d[r][k].p99_us : d->rw->d[r][k].mean_us)
					 : NAN;
		(*n)++;
	}
	if (p)
		qsort(p, *n, sizeof(*p), by_x);
	return p;
}

/* Latency (@p99 or mean) against the achieved rate, read and write apart
 * for a mixed drive. */
static void latency_chart(FILE *f, const struct rwhtml_drive *d, unsigned nd, bool mbps,
			  double xdiv, bool p99)
{
	struct svg_series *se = calloc(2 * (size_t)nd, sizeof(*se));
	double **xs = calloc(2 * (size_t)nd, sizeof(*xs)),
	       **ys = calloc(2 * (size_t)nd, sizeof(*ys));
	char(*names)[200] = calloc(2 * (size_t)nd, sizeof(*names));
	unsigned ns = 0;
	bool mixed = false;
	for (unsigned i = 0; se && xs && ys && names && i < nd; i++) {
		size_t n;
		struct pt *p = points(&d[i], mbps, xdiv, p99, &n);
		if (!p)
			continue;
		bool mx = d[i].rw->mixed;
		mixed |= mx;
		for (int k = 0; k < (mx ? 2 : 1); k++) {
			xs[ns] = calloc(n + 1, sizeof(double));
			ys[ns] = calloc(n + 1, sizeof(double));
			if (!xs[ns] || !ys[ns]) {
				free(xs[ns]);
				free(ys[ns]);
				break;
			}
			for (size_t j = 0; j < n; j++) {
				xs[ns][j] = p[j].x;
				ys[ns][j] = p[j].y[mx ? k + 1 : 0];
			}
			snprintf(names[ns], sizeof(names[ns]), "%s%s", d[i].label,
				 !mx ? ""
				 : k ? " write"
				     : " read");
			se[ns] = (struct svg_series){.name = names[ns],
						     .key = names[ns],
						     .x = xs[ns],
						     .y = ys[ns],
						     .n = n,
						     .color = d[i].color,
						     .dash = k != 1	 ? d[i].dash
							     : d[i].dash ? "1 3"
									 : "6 4"};
			ns++;
		}
		free(p);
	}
	char title[160];
	const char *unit = !mbps ? "IOPS" : xdiv > 1e3 ? "GB/s" : "MB/s";
	snprintf(title, sizeof(title), "Rate curve: %s latency vs %s%s", p99 ? "p99" : "mean", unit,
		 mixed ? " (read and write apart)" : "");
	struct svg_chart c = {.id = p99 ? "rate-curve-p99" : "rate-curve",
			      .title = title,
			      .xlabel = mbps ? (xdiv > 1e3 ? "GB/s (achieved)" : "MB/s (achieved)")
					     : "IOPS (achieved)",
			      .ylabel = p99 ? "p99 latency (µs)" : "mean latency (µs)",
			      .series = se,
			      .nseries = ns,
			      .width = 560};
	svg_chart(f, &c);
	for (unsigned i = 0; i < ns; i++) {
		free(xs[i]);
		free(ys[i]);
	}
	free(se);
	free(xs);
	free(ys);
	free(names);
}

/* Achieved against requested IOPS, one line per drive (in order of the
 * requested rate), and the line where they are equal. */
static void achieved_chart(FILE *f, const struct rwhtml_drive *d, unsigned nd)
{
	struct svg_series *se = calloc((size_t)nd + 1, sizeof(*se));
	double **xs = calloc((size_t)nd + 1, sizeof(*xs)),
	       **ys = calloc((size_t)nd + 1, sizeof(*ys));
	unsigned ns = 0;
	double lo = INFINITY, hi = -INFINITY;
	for (unsigned i = 0; se && xs && ys && i < nd; i++) {
		size_t nr = d[i].t->nrows, n = 0;
		struct pt *p = calloc(nr + 1, sizeof(*p));
		xs[ns] = calloc(nr + 1, sizeof(double));
		ys[ns] = calloc(nr + 1, sizeof(double));
		if (!p || !xs[ns] || !ys[ns]) {
			free(p);
			free(xs[ns]);
			free(ys[ns]);
			break;
		}
		for (size_t r = 0; r < nr; r++) {
			double asked = rtab_get(d[i].t, r, "target_iops");
			/* the max run asked for no rate */
			if (!isfinite(d[i].t->v[r * d[i].t->ncols]) || !(asked > 0))
				continue;
			p[n].x = asked;
			p[n++].y[0] = rtab_get(d[i].t, r, "iops");
			lo = fmin(lo, asked);
			hi = fmax(hi, asked);
		}
		qsort(p, n, sizeof(*p), by_x);
		for (size_t j = 0; j < n; j++)
			xs[ns][j] = p[j].x, ys[ns][j] = p[j].y[0];
		free(p);
		se[ns] = (struct svg_series){.name = d[i].label,
					     .key = d[i].label,
					     .x = xs[ns],
					     .y = ys[ns],
					     .n = n,
					     .color = d[i].color,
					     .dash = d[i].dash};
		ns++;
	}
	double ex[2] = {lo, hi};
	if (se && lo <= hi)
		se[ns++] = (struct svg_series){.name = "achieved = requested",
					       .key = "requested",
					       .x = ex,
					       .y = ex,
					       .n = 2,
					       .color = "#999",
					       .plain = true,
					       .dashed = true};
	struct svg_chart c = {.id = "rate-achieved",
			      .title = "Rate curve: achieved vs requested IOPS",
			      .xlabel = "IOPS requested",
			      .ylabel = "IOPS achieved",
			      .series = se,
			      .nseries = ns,
			      .width = 560};
	svg_chart(f, &c);
	for (unsigned i = 0; xs && ys && i < ns; i++) { /* the reference line's are NULL */
		free(xs[i]);
		free(ys[i]);
	}
	free(se);
	free(xs);
	free(ys);
}

void rwhtml_rate_charts(FILE *f, const struct rwhtml_drive *d, unsigned nd, bool mbps)
{
	double top = 0;
	for (unsigned i = 0; mbps && i < nd; i++)
		for (size_t r = 0; r < d[i].t->nrows; r++)
			if (rtab_get(d[i].t, r, "mbps") > top)
				top = rtab_get(d[i].t, r, "mbps");
	double xdiv = top >= 2000 ? 1000 : 1; /* GB/s past 2 GB/s */
	latency_chart(f, d, nd, mbps, xdiv, false);
	latency_chart(f, d, nd, mbps, xdiv, true);
	achieved_chart(f, d, nd);
}

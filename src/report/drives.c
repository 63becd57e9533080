/* drives.c - the per-drive tables of the HTML report (see drives.h).
 *
 * The targets of a step ran together in one job, so each drive's IOPS and
 * MB/s are its share of the job's I/Os and bytes times the job's aggregate
 * (the step table's figure): the rows add up to the aggregate.  The JSON's
 * own per-target "iops" divides by each target's runtime in whole ms, which
 * can differ from the job's by a ms (0.3% of a 300 ms step); the I/O count
 * each row is computed from is in its I/Os column.  Latency is the
 * target's read and write merged, as the step table's: the mean weighted
 * by I/Os, p99 and p99.9 from its json+ bins (qos.h), "n/a" where the
 * I/Os do not support the level or no histogram was recorded. */
#include "report/drives.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "report/qos.h"
#include "report/qoshtml.h"
#include "report/svg.h"

#define SHARE_BAR_PX 60 /* the widest drive's share bar */

static const char *jstr(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItem(o, key);
	return cJSON_IsString(x) ? x->valuestring : NULL;
}

static double jnum(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItem(o, key);
	return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

/* A count read back from outside data: 0 unless a finite number >= 0. */
static double count_of(const cJSON *o, const char *key)
{
	double v = jnum(o, key);
	return isfinite(v) && v >= 0 && v < 1e18 ? v : 0;
}

unsigned drives_count(const void *meta)
{
	const cJSON *t, *ts = cJSON_GetObjectItem((const cJSON *)meta, "targets");
	unsigned n = 0;
	cJSON_ArrayForEach(t, ts) n += cJSON_IsString(t);
	return n;
}

void drives_anchor(FILE *f, unsigned d)
{
	fprintf(f, "drives-%u", d);
}

void drives_targets_cell(FILE *f, const void *meta, unsigned d)
{
	const cJSON *t;
	unsigned n = drives_count(meta);
	if (n > 2) {
		fprintf(f, "<a href=\"#drives-%u\">%u drives</a>", d, n);
		return;
	}
	cJSON_ArrayForEach(t, cJSON_GetObjectItem((const cJSON *)meta, "targets"))
	{
		if (cJSON_IsString(t)) {
			svg_escape(f, t->valuestring);
			fputs(" ", f);
		}
	}
}

void drives_device_cell(FILE *f, const void *meta, const void *dev, unsigned d)
{
	const cJSON *t, *ts = cJSON_GetObjectItem((const cJSON *)dev, "targets");
	unsigned n = (unsigned)cJSON_GetArraySize(ts);
	if (drives_count(meta) > 2 || n > 2) {
		const char *kind = jstr(cJSON_GetArrayItem(ts, 0), "kind");
		fprintf(f, "<a href=\"#drives-%u\">%u drives</a>", d, n);
		if (kind) {
			fputs(" (", f);
			svg_escape(f, kind);
			fputs(")", f);
		}
		return;
	}
	cJSON_ArrayForEach(t, ts)
	{
		svg_escape(f, jstr(t, "kind"));
		fputs(" ", f);
		svg_escape(f, jstr(t, "model"));
		if (jstr(t, "serial") && *jstr(t, "serial")) {
			fputs(" SN ", f);
			svg_escape(f, jstr(t, "serial"));
			fputs(" FW ", f);
			svg_escape(f, jstr(t, "firmware"));
		}
		double sz = jnum(t, "size_bytes");
		if (isfinite(sz))
			fprintf(f, " %.1f GB", sz / 1e9);
		fputs("<br>", f);
	}
}

void drives_list(FILE *f, const void *meta, const void *dev)
{
	const cJSON *tb = cJSON_GetObjectItem((const cJSON *)meta, "testbed");
	const cJSON *t, *ts = cJSON_GetObjectItem((const cJSON *)dev, "targets");
	unsigned i = 0;
	if (cJSON_IsArray(cJSON_GetObjectItem(tb, "drives")) || cJSON_GetArraySize(ts) < 3)
		return;
	fputs("<table class=\"drive-list\"><tr><th>#</th><th class=\"l\">target</th><th "
	      "class=\"l\">kind</th><th class=\"l\">model</th><th class=\"l\">serial</th><th "
	      "class=\"l\">firmware</th><th>size</th></tr>",
	      f);
	cJSON_ArrayForEach(t, ts)
	{
		static const char *const keys[] = {"path", "kind", "model", "serial", "firmware"};
		fprintf(f, "<tr><td>%u</td>", ++i);
		for (unsigned k = 0; k < 5; k++) {
			fputs("<td class=\"l\">", f);
			svg_escape(f, jstr(t, keys[k]) ? jstr(t, keys[k]) : "-");
			fputs("</td>", f);
		}
		double sz = jnum(t, "size_bytes");
		if (isfinite(sz))
			fprintf(f, "<td>%.3f GB</td></tr>", sz / 1e9);
		else
			fputs("<td class=\"na\">-</td></tr>", f);
	}
	fputs("</table>", f);
}

void drives_step_anchor(FILE *f, const char *sub, unsigned d)
{
	fputs("per-drive-", f);
	svg_escape(f, sub);
	fprintf(f, "-%u", d);
}

/* ---- the per-drive tables ---- */

/* One drive's (or the aggregate's) figures from a job or target object. */
struct dfig {
	const char *name;
	double ios, bytes, mean_ns; /* read + write (+ trim for ios, bytes) */
	struct hist *h;		    /* NULL: no histogram */
	int hrc;		    /* why none: qos_job_hist's -errno */
};

/* I/Os, bytes and the mean latency of a job or target object @o (fio's
 * read/write/trim), or of a stripe member (total_ios, io_bytes,
 * lat_mean_ns). */
static void fig_read(const cJSON *o, struct dfig *g)
{
	static const char *const dirs[] = {"read", "write", "trim"};
	double lsum = 0, ln = 0;
	g->ios = g->bytes = 0;
	if (!cJSON_GetObjectItem(o, "read")) { /* a stripe member */
		g->ios = count_of(o, "total_ios");
		g->bytes = count_of(o, "io_bytes");
		g->mean_ns = jnum(o, "lat_mean_ns");
		return;
	}
	for (unsigned d = 0; d < 3; d++) {
		const cJSON *x = cJSON_GetObjectItem(o, dirs[d]);
		g->ios += count_of(x, "total_ios");
		g->bytes += count_of(x, "io_bytes");
		const cJSON *lat = cJSON_GetObjectItem(x, "lat_ns");
		double n = jnum(lat, "N"), m = jnum(lat, "mean");
		if (d < 2 && n > 0 && isfinite(n) && isfinite(m)) {
			lsum += n * m;
			ln += n;
		}
	}
	g->mean_ns = ln > 0 ? lsum / ln : NAN;
}

/* The job's aggregate IOPS and bytes/s (the step table's). */
static void job_rates(const cJSON *job, double *iops, double *bw)
{
	static const char *const dirs[] = {"read", "write", "trim"};
	*iops = *bw = 0;
	for (unsigned d = 0; d < 3; d++) {
		const cJSON *x = cJSON_GetObjectItem(job, dirs[d]);
		double i = jnum(x, "iops"), b = jnum(x, "bw_bytes");
		*iops += isfinite(i) ? i : 0;
		*bw += isfinite(b) ? b : 0;
	}
}

static void lat_cell(FILE *f, const struct dfig *g, unsigned l)
{
	uint64_t ns;
	if (g->h && qos_value(g->h, qos_levels[l].pct, qos_levels[l].min_ios, &ns))
		fprintf(f, "<td>%.1f</td>", (double)ns / 1000.0);
	else if (g->h)
		fprintf(
		    f, "<td class=\"na\" title=\"%" PRIu64 " I/Os; %s needs %" PRIu64 "\">n/a</td>",
		    g->h->n, qos_levels[l].name, qos_levels[l].min_ios);
	else
		fprintf(f, "<td class=\"na\" title=\"%s\">n/a</td>",
			g->hrc == -ENOENT ? "no latency histogram (json+ bins) for this drive"
					  : "unreadable latency histogram");
}

/* One row: @idx 1-based (0: the aggregate), @share of the I/Os, @bar px. */
static void fig_row(FILE *f, const struct dfig *g, unsigned idx, const char *model,
		    const char *serial, double iops, double mbps, double share, double bar)
{
	if (idx)
		fprintf(f, "<tr class=\"drive\"><td>%u</td><td class=\"l\">", idx);
	else
		fputs("<tr class=\"aggregate\"><td></td><td class=\"l\">", f);
	svg_escape(f, g->name);
	fputs("</td>", f);
	const char *id[2] = {model, serial};
	for (unsigned k = 0; k < 2; k++) {
		fprintf(f, "<td class=\"l%s\">", id[k] && strcmp(id[k], "unknown") ? "" : " na");
		svg_escape(f, id[k] ? id[k] : idx ? "unknown" : "");
		fputs("</td>", f);
	}
	fprintf(f, "<td>%.0f</td><td>%.0f</td><td>%.1f</td>", g->ios, iops, mbps);
	if (isfinite(g->mean_ns))
		fprintf(f, "<td>%.1f</td>", g->mean_ns / 1000.0);
	else
		fputs("<td class=\"na\">n/a</td>", f);
	lat_cell(f, g, 1); /* p99 */
	lat_cell(f, g, 2); /* p99.9 */
	lat_cell(f, g, 3); /* p99.99: the P4610 review's QoS figure */
	fprintf(f,
		"<td class=\"share\"><span class=\"sharebar\" style=\"width:%.0fpx\"></span>"
		"%.1f%%</td></tr>",
		bar, 100 * share);
}

/* The model and serial of @path: meta.json's test bed, else
 * device-before.json. */
static void identity(const cJSON *meta, const cJSON *dev, const char *path, const char **model,
		     const char **serial)
{
	const cJSON *lists[2] = {
	    cJSON_GetObjectItem(cJSON_GetObjectItem(meta, "testbed"), "drives"),
	    cJSON_GetObjectItem(dev, "targets")};
	*model = *serial = NULL;
	for (unsigned k = 0; k < 2 && path; k++) {
		const cJSON *d;
		cJSON_ArrayForEach(d, lists[k])
		{
			if (jstr(d, "path") && !strcmp(jstr(d, "path"), path)) {
				*model = jstr(d, "model");
				*serial = jstr(d, "serial");
				return;
			}
		}
	}
}

/* Loads @o's figures and (when @bins) its histogram into @g. */
static void fig_load(const cJSON *o, struct dfig *g, struct hist *h, bool bins)
{
	const cJSON *tn = cJSON_GetObjectItem(o, "target");
	fig_read(o, g);
	g->name = cJSON_IsString(tn) ? tn->valuestring : "?";
	g->h = NULL;
	g->hrc = -ENOENT;
	if (bins && h && !(g->hrc = qos_job_hist(o, h)))
		g->h = h;
}

#define DRIVES_CHART_MAX 64 /* drives drawn in the charts (a run's targets) */
#define DRIVES_ROWS_MAX	 64 /* rows (queue depths, points) in the small multiples */

/* What the charts draw: per row, each drive's IOPS and p99.99 (us, NAN
 * where its I/Os do not support the level), the mean per drive (the
 * aggregate / drives), the row's x (its queue depth, else its number). */
struct dchart {
	unsigned ndrives, nrows;
	char name[DRIVES_CHART_MAX][64];
	double x[DRIVES_ROWS_MAX];
	double iops[DRIVES_ROWS_MAX][DRIVES_CHART_MAX];
	double p9999[DRIVES_ROWS_MAX][DRIVES_CHART_MAX];
	double mean[DRIVES_ROWS_MAX];
	char label[QOSHTML_LABEL_LEN]; /* the last row's */
	bool xqd;		       /* x is the queue depth */
};

struct ctx {
	const cJSON *meta, *dev;
	struct hist *h;
	struct dchart *ch; /* NULL: no charts */
};

/* Drive @i's figures of the row being read into the charts' data. */
static void chart_put(struct dchart *ch, unsigned i, const struct dfig *g, double iops)
{
	uint64_t ns;
	unsigned r = ch->nrows;
	if (r >= DRIVES_ROWS_MAX || i >= DRIVES_CHART_MAX)
		return;
	ch->iops[r][i] = iops;
	ch->p9999[r][i] = g->h && qos_value(g->h, qos_levels[3].pct, qos_levels[3].min_ios, &ns)
			      ? (double)ns / 1000.0
			      : NAN;
	if (i >= ch->ndrives) {
		ch->ndrives = i + 1;
		snprintf(ch->name[i], sizeof(ch->name[i]), "%s", g->name);
	}
}

/* The table of one row's drives, @list the targets[] or members[] of
 * @job.  Returns the number of drives (0: no table written). */
static unsigned row_table(FILE *f, const struct ctx *c, const cJSON *job, const cJSON *list,
			  const char *label, bool open)
{
	unsigned n = 0, i = 0;
	bool members = !cJSON_GetObjectItem(cJSON_GetArrayItem(list, 0), "read");
	double iops, bw, ios = 0, bytes = 0, maxios = 0;
	const cJSON *o;
	struct dfig g;
	job_rates(job, &iops, &bw);
	cJSON_ArrayForEach(o, list)
	{
		if (!cJSON_IsObject(o))
			continue;
		fig_read(o, &g);
		ios += g.ios;
		bytes += g.bytes;
		maxios = fmax(maxios, g.ios);
		n++;
	}
	if (!(ios > 0) || !(maxios > 0))
		return 0;
	fprintf(f, "<details class=\"per-drive\"%s><summary>", open ? " open" : "");
	svg_escape(f, label);
	fprintf(f, ": %u drives%s</summary><table class=\"per-drive\" data-row=\"", n,
		members ? " (members of one job: a stripe or a file set)" : "");
	svg_escape(f, label);
	fputs("\"><tr><th>#</th><th class=\"l\">drive</th><th class=\"l\">model</th><th "
	      "class=\"l\">serial</th><th>I/Os</th><th>IOPS</th><th>MB/s</th><th>mean "
	      "&micro;s</th><th>p99 &micro;s</th><th>p99.9 &micro;s</th><th>p99.99 "
	      "&micro;s</th><th title=\"the drive's share of the step's I/Os\">share</th></tr>",
	      f);
	cJSON_ArrayForEach(o, list)
	{
		const char *model, *serial;
		if (!cJSON_IsObject(o))
			continue;
		fig_load(o, &g, c->h, !members);
		identity(c->meta, c->dev, g.name, &model, &serial);
		double sh = g.ios / ios;
		if (c->ch && !members)
			chart_put(c->ch, i, &g, iops * sh);
		fig_row(f, &g, ++i, model, serial, iops * sh,
			bytes > 0 ? bw * g.bytes / bytes / 1e6 : 0, sh,
			SHARE_BAR_PX * g.ios / maxios);
	}
	fig_load(job, &g, c->h, true);
	char all[64];
	snprintf(all, sizeof(all), "all %u drives (aggregate)", n);
	g.name = all;
	fig_row(f, &g, 0, NULL, NULL, iops, bw / 1e6, 1, 0);
	fputs("</table></details>", f);
	if (c->ch && !members && c->ch->nrows < DRIVES_ROWS_MAX)
		c->ch->mean[c->ch->nrows++] = iops / n;
	return n;
}

/* Row @r's targets[] (several) or stripe members[]; NULL when neither. */
static const cJSON *row_list(const cJSON *job)
{
	const cJSON *nv = cJSON_GetObjectItem(job, "nvscope");
	const cJSON *ts = cJSON_GetObjectItem(nv, "targets");
	if (cJSON_IsArray(ts) && cJSON_GetArraySize(ts) > 1)
		return ts;
	ts = cJSON_GetObjectItem(nv, "members");
	return cJSON_IsArray(ts) && cJSON_GetArraySize(ts) > 1 ? ts : NULL;
}

/* The last row's drives at a glance: each drive's IOPS (left axis) and
 * p99.99 (right) by its number, and the mean per drive: an outlier (a
 * slow drive of 24, a bad slot) stands out of the row of dots. */
static void chart_dots(FILE *f, const struct dchart *ch, const char *label)
{
	unsigned r = ch->nrows - 1, n = ch->ndrives;
	double x[DRIVES_CHART_MAX], mx[2] = {1, n}, my[2] = {ch->mean[r], ch->mean[r]};
	char title[160];

	for (unsigned i = 0; i < n; i++)
		x[i] = i + 1;
	struct svg_series se[3] = {
	    {.name = "IOPS",
	     .x = x,
	     .y = ch->iops[r],
	     .n = n,
	     .color = "#1f77b4",
	     .dots = true,
	     .dot = 6},
	    {.name = "p99.99 latency",
	     .x = x,
	     .y = ch->p9999[r],
	     .n = n,
	     .color = "#d62728",
	     .dots = true,
	     .dot = 5,
	     .right = true},
	    {.name = "mean per drive",
	     .x = mx,
	     .y = my,
	     .n = 2,
	     .color = "#7f7f7f",
	     .plain = true,
	     .dashed = true},
	};
	snprintf(title, sizeof(title), "Per drive: IOPS and p99.99, %s, %s", label, ch->label);
	struct svg_chart c = {.id = "drives-dots",
			      .title = title,
			      .xlabel = "drive #",
			      .ylabel = "IOPS",
			      .y2label = "p99.99 latency (us)",
			      .series = se,
			      .nseries = 3,
			      .xint = true,
			      .yfixed = true,
			      .ylo = 0};
	c.yhi = 0;
	for (unsigned i = 0; i < n; i++)
		if (isfinite(ch->iops[r][i]) && ch->iops[r][i] > c.yhi)
			c.yhi = ch->iops[r][i] * 1.1;
	c.yfixed = c.yhi > 0;
	svg_chart(f, &c);
}

/* Small multiples (Tufte's): one small chart per drive of its IOPS over
 * the step's rows (queue depths, points), all on the same scale, each with
 * the mean per drive dashed: 24 drives' curves compared at a glance. */
static void chart_multiples(FILE *f, const struct dchart *ch, const char *label)
{
	double top = 0, y[DRIVES_ROWS_MAX];

	for (unsigned r = 0; r < ch->nrows; r++)
		for (unsigned i = 0; i < ch->ndrives; i++)
			if (isfinite(ch->iops[r][i]) && ch->iops[r][i] > top)
				top = ch->iops[r][i];
	if (!(top > 0))
		return;
	fputs("<div class=\"drive-multiples\" data-drives=\"", f);
	fprintf(f,
		"%u\"><p class=\"note\">Each drive's IOPS by %s, one scale for all (the dashed "
		"line: the mean per drive)</p>",
		ch->ndrives, ch->xqd ? "queue depth" : "row");
	for (unsigned i = 0; i < ch->ndrives; i++) {
		char title[160];
		for (unsigned r = 0; r < ch->nrows; r++)
			y[r] = ch->iops[r][i];
		struct svg_series se[2] = {
		    {.name = "IOPS", .x = ch->x, .y = y, .n = ch->nrows, .color = "#1f77b4"},
		    {.name = "mean per drive",
		     .x = ch->x,
		     .y = ch->mean,
		     .n = ch->nrows,
		     .color = "#7f7f7f",
		     .plain = true,
		     .dashed = true},
		};
		const char *base = strrchr(ch->name[i], '/');
		snprintf(title, sizeof(title), "#%u %s, %s", i + 1, base ? base + 1 : ch->name[i],
			 label);
		struct svg_chart c = {.id = "drive-multiple",
				      .title = title,
				      .xlabel = ch->xqd ? "QD" : "row",
				      .ylabel = "IOPS",
				      .xlog = ch->xqd,
				      .series = se,
				      .nseries = 2,
				      .width = 240,
				      .height = 170,
				      .no_legend = true,
				      .yfixed = true,
				      .ylo = 0,
				      .yhi = top * 1.05};
		svg_chart(f, &c);
	}
	fputs("</div>", f);
}

void drives_step(FILE *f, const char *dir, const char *sub, const char *kind, const struct rtab *t,
		 const void *meta, const void *dev, const char *label, unsigned d)
{
	struct dchart *ch = calloc(1, sizeof(*ch));
	struct ctx c = {.meta = meta, .dev = dev, .h = malloc(sizeof(struct hist)), .ch = ch};
	bool head = false;
	if (ch)
		ch->xqd = rtab_col(t, "qd") >= 0;
	for (size_t r = 0; r < t->nrows; r++) {
		char name[64], rl[QOSHTML_LABEL_LEN];
		if (!qoshtml_row_json(kind, t, r, name, sizeof(name)))
			continue;
		cJSON *root = rtab_json(dir, sub, name);
		const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
		const cJSON *list = row_list(job);
		if (list && !head) {
			fputs("<div class=\"per-drive\" id=\"", f);
			drives_step_anchor(f, sub, d);
			fputs("\"><h3 class=\"per-drive\">Per drive: ", f);
			svg_escape(f, label);
			fputs("</h3>", f);
			head = true;
		}
		qoshtml_row_label(kind, t, r, rl);
		if (ch && ch->nrows < DRIVES_ROWS_MAX) {
			unsigned k = ch->nrows;
			ch->x[k] = ch->xqd ? rtab_get(t, r, "qd") : (double)(k + 1);
			for (unsigned i = 0; i < DRIVES_CHART_MAX; i++)
				ch->iops[k][i] = ch->p9999[k][i] = NAN;
			snprintf(ch->label, sizeof(ch->label), "%s", rl);
		}
		/* a few rows all open; of many, the last (the deepest queue) */
		if (list)
			row_table(f, &c, job, list, rl, t->nrows <= 3 || r + 1 == t->nrows);
		cJSON_Delete(root);
	}
	if (head && ch && ch->nrows && ch->ndrives > 1) {
		chart_dots(f, ch, label);
		if (ch->nrows > 1)
			chart_multiples(f, ch, label);
	}
	if (head)
		fputs("</div>\n", f);
	free(c.h);
	free(ch);
}

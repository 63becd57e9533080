/* qoshtml.c - latency QoS in the HTML report (see qoshtml.h).
 *
 * The exceedance chart is ezFIO's and StorageReview's QoS chart: latency on
 * a log X axis, the share of I/Os slower than it (1 - CDF) on a log Y axis,
 * so p99 is where the curve crosses 10^-2 and p99.99 where it crosses
 * 10^-4.  Each percentile the I/Os support is a marked point whose
 * data-value is the exact figure in ns (a bucket value of the histogram,
 * clamped to the exact min and max, as the JSON's own percentiles), so a
 * test or a reader can check every mark against the JSON's bins. */
#include "report/qoshtml.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "base/num.h"
#include "report/qos.h"
#include "report/resnames.h"
#include "report/svg.h"

#define MAX_CURVES 10
#define LABEL_LEN  QOSHTML_LABEL_LEN /* "T%gQ%g": two %g are at most 13 characters each */

static const char *const colors[MAX_CURVES] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
					       "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
					       "#7f7f7f", "#bcbd22"};

static bool uint_of(double v, unsigned *out)
{
	uint64_t u;
	if (num_to_u64(v, UINT32_MAX, &u) || (double)u != v)
		return false;
	*out = (unsigned)u;
	return true;
}

/* The JSON file of row @r: measure qdN.json, rate-curve max.json or
 * pctN.json, grid tTqQ.json.  False when the row names none. */
static bool row_json(const char *kind, const struct rtab *t, size_t r, char *buf, size_t len)
{
	unsigned a, b;
	int n = -1;
	if (!strcmp(kind, "measure") && uint_of(rtab_get(t, r, "qd"), &a))
		n = snprintf(buf, len, RESDIR_QD_JSON_FMT, a);
	else if (!strcmp(kind, "grid") && uint_of(rtab_get(t, r, "threads"), &a) &&
		 uint_of(rtab_get(t, r, "qd"), &b))
		n = snprintf(buf, len, RESDIR_CELL_JSON_FMT, a, b);
	else if (!strcmp(kind, "rate-curve") && !strcmp(t->first[r], "max"))
		n = snprintf(buf, len, "%s", RESDIR_MAX);
	else if (!strcmp(kind, "rate-curve") && rtab_get(t, r, "point") > 0 &&
		 rtab_get(t, r, "point") < 1e6) /* NAN fails both */
		n = snprintf(buf, len, RESDIR_PCT_JSON_FMT, rtab_get(t, r, "point"));
	return n > 0 && (size_t)n < len;
}

static void row_label(const char *kind, const struct rtab *t, size_t r, char *buf)
{
	if (!strcmp(kind, "grid"))
		snprintf(buf, LABEL_LEN, "T%gQ%g", rtab_get(t, r, "threads"), rtab_get(t, r, "qd"));
	else if (!strcmp(kind, "rate-curve") && !strcmp(t->first[r], "max"))
		snprintf(buf, LABEL_LEN, "max");
	else if (!strcmp(kind, "rate-curve"))
		snprintf(buf, LABEL_LEN, "%g%%", rtab_get(t, r, "point"));
	else
		snprintf(buf, LABEL_LEN, "QD%g", rtab_get(t, r, "qd"));
}

bool qoshtml_row_json(const char *kind, const struct rtab *t, size_t r, char *buf, size_t len)
{
	return row_json(kind, t, r, buf, len);
}

void qoshtml_row_label(const char *kind, const struct rtab *t, size_t r, char *buf)
{
	row_label(kind, t, r, buf);
}

/* jobs[0] of @dir/@sub/@name (the caller deletes *@root). */
static const cJSON *job0(const char *dir, const char *sub, const char *name, cJSON **root)
{
	*root = rtab_json(dir, sub, name);
	return cJSON_GetArrayItem(cJSON_GetObjectItem(*root, "jobs"), 0);
}

int qoshtml_load(const char *dir, const char *sub, const char *kind, const struct rtab *t,
		 struct qos_rows *q)
{
	memset(q, 0, sizeof(*q));
	if (!t->nrows)
		return 0;
	q->h = calloc(t->nrows, sizeof(*q->h));
	q->rc = calloc(t->nrows, sizeof(*q->rc));
	if (!q->h || !q->rc) {
		qoshtml_free(q);
		return -ENOMEM;
	}
	q->n = t->nrows;
	for (size_t r = 0; r < t->nrows; r++) {
		char name[64];
		cJSON *root = NULL;
		q->rc[r] = -ENOENT;
		if (!row_json(kind, t, r, name, sizeof(name)))
			continue;
		const cJSON *job = job0(dir, sub, name, &root);
		struct hist *h = malloc(sizeof(*h));
		if (h && job && !(q->rc[r] = qos_job_hist(job, h)))
			q->h[r] = h;
		else
			free(h);
		if (!h)
			q->rc[r] = -ENOMEM;
		cJSON_Delete(root);
	}
	return 0;
}

void qoshtml_free(struct qos_rows *q)
{
	for (size_t i = 0; q->h && i < q->n; i++)
		free(q->h[i]);
	free(q->h);
	free(q->rc);
	memset(q, 0, sizeof(*q));
}

void qoshtml_head(FILE *f)
{
	for (unsigned l = 2; l < QOS_NLEVELS; l++)
		fprintf(f, "<th>%s &micro;s</th>", qos_levels[l].name);
}

/* One cell of level @l of @h (NULL: no histogram, @rc why). */
static void level_cell(FILE *f, const struct hist *h, int rc, unsigned l)
{
	uint64_t ns;
	if (h && qos_value(h, qos_levels[l].pct, qos_levels[l].min_ios, &ns))
		fprintf(f, "<td>%.1f</td>", (double)ns / 1000.0);
	else if (h)
		fprintf(
		    f, "<td class=\"na\" title=\"%" PRIu64 " I/Os; %s needs %" PRIu64 "\">n/a</td>",
		    h->n, qos_levels[l].name, qos_levels[l].min_ios);
	else
		fprintf(f, "<td class=\"na\" title=\"%s\">n/a</td>",
			rc == -ENOENT ? "no latency histogram (json+ bins) for this row"
				      : "unreadable latency histogram");
}

void qoshtml_cells(FILE *f, const struct qos_rows *q, size_t r)
{
	for (unsigned l = 2; l < QOS_NLEVELS; l++)
		level_cell(f, r < q->n ? q->h[r] : NULL, r < q->n ? q->rc[r] : -ENOENT, l);
}

/* Up to MAX_CURVES rows with a histogram, evenly spread over the table
 * (the first and the last always).  Returns how many, *@have those with
 * a histogram. */
static unsigned pick_rows(const struct qos_rows *q, size_t *rows, size_t *have)
{
	unsigned k = 0;
	*have = 0;
	for (size_t r = 0; r < q->n; r++)
		*have += q->h[r] != NULL;
	size_t want = *have < MAX_CURVES ? *have : MAX_CURVES;
	for (size_t r = 0, i = 0; r < q->n && k < want; r++) {
		if (!q->h[r])
			continue;
		/* pick the (k * (have - 1) / (want - 1))-th row with one */
		size_t next = want > 1 ? k * (*have - 1) / (want - 1) : 0;
		if (i == next)
			rows[k++] = r;
		i++;
	}
	return k;
}

struct curves {
	unsigned n;
	struct svg_series se[MAX_CURVES];
	double *x[MAX_CURVES], *y[MAX_CURVES];
	char label[MAX_CURVES][LABEL_LEN];
};

static void curves_free(struct curves *c)
{
	for (unsigned i = 0; i < c->n; i++) {
		free(c->x[i]);
		free(c->y[i]);
	}
}

/* The curves of rows @rows: exceedance (@exceed) or histogram. */
static int curves_make(struct curves *c, const char *kind, const struct rtab *t,
		       const struct qos_rows *q, const size_t *rows, unsigned n, bool exceed)
{
	size_t cap = exceed ? 2 * (size_t)HIST_NBUCKETS : QOS_HIST_MAX_POINTS;
	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; i < n; i++) {
		c->x[i] = malloc(cap * sizeof(double));
		c->y[i] = malloc(cap * sizeof(double));
		c->n = i + 1;
		if (!c->x[i] || !c->y[i])
			return -ENOMEM;
		const struct hist *h = q->h[rows[i]];
		row_label(kind, t, rows[i], c->label[i]);
		c->se[i] = (struct svg_series){.name = c->label[i],
					       .x = c->x[i],
					       .y = c->y[i],
					       .n = exceed ? qos_exceedance(h, c->x[i], c->y[i])
							   : qos_histogram(h, c->x[i], c->y[i]),
					       .color = colors[i],
					       .plain = true};
	}
	return 0;
}

static void exceedance_chart(FILE *f, const struct curves *c, const struct qos_rows *q,
			     const size_t *rows)
{
	struct svg_mark marks[MAX_CURVES * QOS_NLEVELS];
	char val[MAX_CURVES * QOS_NLEVELS][24], title[MAX_CURVES * QOS_NLEVELS][160];
	struct svg_yref refs[QOS_NLEVELS];
	unsigned nm = 0;
	double ylo = 1;
	for (unsigned l = 0; l < QOS_NLEVELS; l++)
		refs[l] = (struct svg_yref){1 - qos_levels[l].pct / 100, qos_levels[l].name};
	for (unsigned i = 0; i < c->n; i++) {
		const struct hist *h = q->h[rows[i]];
		ylo = fmin(ylo, 1.0 / (double)h->n);
		for (unsigned l = 0; l < QOS_NLEVELS; l++) {
			uint64_t ns;
			if (!qos_value(h, qos_levels[l].pct, qos_levels[l].min_ios, &ns))
				continue;
			snprintf(val[nm], sizeof(val[nm]), "%" PRIu64, ns);
			snprintf(title[nm], sizeof(title[nm]), "%s %s: %.1f us (%" PRIu64 " ns)",
				 c->label[i], qos_levels[l].name, (double)ns / 1000.0, ns);
			marks[nm] = (struct svg_mark){.x = (double)ns / 1000.0,
						      .y = 1 - qos_levels[l].pct / 100,
						      .series = i,
						      .mark = qos_levels[l].name,
						      .value = val[nm],
						      .title = title[nm]};
			nm++;
		}
	}
	struct svg_chart ch = {.id = "qos-exceedance",
			       .title = "Latency QoS: exceedance (1 - CDF)",
			       .xlabel = "latency (µs)",
			       .ylabel = "share of I/Os slower (1 - CDF)",
			       .xlog = true,
			       .ylog = true,
			       .series = c->se,
			       .nseries = c->n,
			       .width = 560,
			       .marks = marks,
			       .nmarks = nm,
			       .yrefs = refs,
			       .nyrefs = QOS_NLEVELS,
			       .legend_low = true,
			       .yfixed = true,
			       .ylo = fmin(ylo, 1e-2),
			       .yhi = 1};
	svg_chart(f, &ch);
}

static void histogram_chart(FILE *f, const struct curves *c)
{
	struct svg_chart ch = {.id = "qos-histogram",
			       .title = "Latency histogram",
			       .xlabel = "latency (µs)",
			       .ylabel = "% of I/Os (per 1/20 decade)",
			       .xlog = true,
			       .series = c->se,
			       .nseries = c->n,
			       .width = 560};
	svg_chart(f, &ch);
}

/* Row @r's per-target rows (nvscope.targets[] with bins).  Returns the
 * number written. */
static unsigned target_rows(FILE *f, const char *dir, const char *sub, const char *kind,
			    const struct rtab *t, size_t r, struct hist *h)
{
	char name[64], label[LABEL_LEN];
	cJSON *root = NULL;
	const cJSON *to;
	unsigned n = 0;
	if (!row_json(kind, t, r, name, sizeof(name)))
		return 0;
	const cJSON *job = job0(dir, sub, name, &root);
	row_label(kind, t, r, label);
	cJSON_ArrayForEach(to, cJSON_GetObjectItem(cJSON_GetObjectItem(job, "nvscope"), "targets"))
	{
		if (qos_job_hist(to, h))
			continue;
		const cJSON *tn = cJSON_GetObjectItem(to, "target");
		fputs("<tr><td class=\"l\">", f);
		svg_escape(f, label);
		fputs("</td><td class=\"l\">", f);
		svg_escape(f, cJSON_IsString(tn) ? tn->valuestring : "?");
		fprintf(f, "</td><td>%" PRIu64 "</td>", h->n);
		for (unsigned l = 0; l < QOS_NLEVELS; l++)
			level_cell(f, h, 0, l);
		fprintf(f, "<td>%.1f</td></tr>", (double)hist_percentile(h, 100) / 1000.0);
		n++;
	}
	cJSON_Delete(root);
	return n;
}

static void target_table(FILE *f, const char *dir, const char *sub, const char *kind,
			 const struct rtab *t)
{
	struct hist *h = malloc(sizeof(*h));
	char *buf = NULL;
	size_t len = 0;
	FILE *m = h ? open_memstream(&buf, &len) : NULL;
	unsigned n = 0;
	for (size_t r = 0; m && r < t->nrows; r++)
		n += target_rows(m, dir, sub, kind, t, r, h);
	if (m && !fclose(m) && n) {
		fputs("<details class=\"qos-targets\"><summary>Latency QoS per target</summary>"
		      "<table class=\"qos-targets\"><tr><th class=\"l\">row</th><th "
		      "class=\"l\">target</th><th>I/Os</th>",
		      f);
		for (unsigned l = 0; l < QOS_NLEVELS; l++)
			fprintf(f, "<th>%s &micro;s</th>", qos_levels[l].name);
		fputs("<th>max &micro;s</th></tr>", f);
		fwrite(buf, 1, len, f);
		fputs("</table></details>", f);
	}
	free(buf);
	free(h);
}

void qoshtml_charts(FILE *f, const char *dir, const char *sub, const char *kind,
		    const struct rtab *t, const struct qos_rows *q)
{
	size_t rows[MAX_CURVES], have;
	unsigned n = pick_rows(q, rows, &have);
	struct curves c;
	if (!n) {
		fputs("<p class=\"na\">no latency histogram (json+ bins) in this results "
		      "directory: no QoS chart</p>",
		      f);
		return;
	}
	if (!curves_make(&c, kind, t, q, rows, n, true))
		exceedance_chart(f, &c, q, rows);
	curves_free(&c);
	if (!curves_make(&c, kind, t, q, rows, n, false))
		histogram_chart(f, &c);
	curves_free(&c);
	if (have > n)
		fprintf(f, "<p class=\"na\">%u of %zu rows charted; all in the table.</p>", n,
			have);
	target_table(f, dir, sub, kind, t);
}

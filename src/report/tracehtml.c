/* tracehtml.c - a trace replay's figures on the report (tracehtml.h). */
#include "report/tracehtml.h"

#include <math.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "report/qoshtml.h"
#include "report/svg.h"

static double num(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItem(o, key);
	return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

/* A number cell: "n/a" when absent (an untimed replay has no lag). */
static void cell(FILE *f, double v, const char *fmt)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs("<td class=\"na\">n/a</td>", f);
}

/* The lag and late cells of a trace or copy object @o ("n/a" for a copy
 * that issued nothing: it never started). */
static void lag_cells(FILE *f, const cJSON *o)
{
	const cJSON *lag = cJSON_GetObjectItem(o, "lag_us");
	if (!(num(o, "issued") > 0)) {
		fputs("<td class=\"na\" title=\"nothing issued\">n/a</td><td class=\"na\">n/a</td>"
		      "<td class=\"na\">n/a</td><td class=\"na\">n/a</td>",
		      f);
		return;
	}
	cell(f, num(lag, "p50"), "<td>%.0f</td>");
	cell(f, num(lag, "p99"), "<td>%.0f</td>");
	cell(f, num(lag, "max"), "<td>%.0f</td>");
	cell(f, num(o, "late_pct"), "<td>%.2f%%</td>");
}

static const cJSON *trace_of(const cJSON *root)
{
	const cJSON *t = cJSON_GetObjectItem(cJSON_GetObjectItem(root, "nvscope"), "trace");
	if (!t) /* a job's own */
		t = cJSON_GetObjectItem(
		    cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0),
					"nvscope"),
		    "trace");
	return cJSON_IsObject(t) ? t : NULL;
}

/* One directory's row and its copies' table. */
static void dir_row(FILE *f, const struct tracehtml_dir *d, const char *row, const cJSON *t)
{
	const cJSON *file = cJSON_GetObjectItem(t, "file");
	const char *path = cJSON_IsString(file) ? file->valuestring : "?";
	const char *base = strrchr(path, '/');

	fputs("<tr><td class=\"l\">", f);
	svg_escape(f, d->label);
	fputs("</td><td class=\"l\">", f);
	svg_escape(f, row);
	fputs("</td><td class=\"l\">", f);
	svg_escape(f, base ? base + 1 : path);
	fputs("</td>", f);
	cell(f, num(t, "copies"), "<td>%.0f</td>");
	cell(f, num(t, "stagger_ms") / 1000, "<td>%g s</td>");
	cell(f, num(t, "issued"), "<td>%.0f</td>");
	cell(f, num(t, "skipped"), "<td>%.0f</td>");
	lag_cells(f, t);
	fputs("</tr>", f);
}

/* Each copy of the replay (a desktop of the storm). */
static void copies_table(FILE *f, const struct tracehtml_dir *d, const char *row, const cJSON *t)
{
	const cJSON *pc = cJSON_GetObjectItem(t, "per_copy"), *c;
	if (!cJSON_IsArray(pc) || cJSON_GetArraySize(pc) < 2)
		return;
	fputs("<details class=\"trace-copies\"><summary>", f);
	svg_escape(f, d->label);
	fputs(", ", f);
	svg_escape(f, row);
	fprintf(f,
		": each of the %d copies</summary><table class=\"trace-copies\"><tr><th>copy</th>"
		"<th>issued</th><th>read IOPS</th><th>write IOPS</th><th>read mean &micro;s</th>"
		"<th>write mean &micro;s</th><th>lag p50 &micro;s</th><th>lag p99 &micro;s</th>"
		"<th>lag max &micro;s</th><th>late</th></tr>",
		cJSON_GetArraySize(pc));
	cJSON_ArrayForEach(c, pc)
	{
		cell(f, num(c, "copy"), "<tr><td>%.0f</td>");
		cell(f, num(c, "issued"), "<td>%.0f</td>");
		cell(f, num(c, "read_iops"), "<td>%.1f</td>");
		cell(f, num(c, "write_iops"), "<td>%.1f</td>");
		cell(f, num(c, "read_lat_mean_us"), "<td>%.1f</td>");
		cell(f, num(c, "write_lat_mean_us"), "<td>%.1f</td>");
		lag_cells(f, c);
		fputs("</tr>", f);
	}
	fputs("</table></details>", f);
}

void tracehtml_step(FILE *f, const struct tracehtml_dir *dirs, const struct rtab *tabs, unsigned nd,
		    const char *sub, const char *kind)
{
	bool head = false;

	for (unsigned d = 0; d < nd; d++)
		for (size_t r = 0; r < tabs[d].nrows; r++) {
			char name[64], rl[QOSHTML_LABEL_LEN];
			if (!qoshtml_row_json(kind, &tabs[d], r, name, sizeof(name)))
				continue;
			cJSON *root = rtab_json(dirs[d].path, sub, name);
			const cJSON *t = trace_of(root);
			if (t) {
				if (!head)
					fputs(
					    "<h3 class=\"trace\">Trace replay: behind the trace's "
					    "schedule</h3><p class=\"note\">Lag: how late each I/O "
					    "was issued after its time in the trace; late: lag "
					    "past "
					    "1 ms (docs/traces.md).</p><table class=\"trace\"><tr>"
					    "<th class=\"l\">run</th><th class=\"l\">row</th><th "
					    "class=\"l\">trace</th><th>copies</th><th>stagger</th>"
					    "<th>issued</th><th>not replayed</th><th>lag p50 "
					    "&micro;s</th><th>lag p99 &micro;s</th><th>lag max "
					    "&micro;s</th><th>late</th></tr>",
					    f);
				head = true;
				qoshtml_row_label(kind, &tabs[d], r, rl);
				dir_row(f, &dirs[d], rl, t);
			}
			cJSON_Delete(root);
		}
	if (!head)
		return;
	fputs("</table>", f);
	for (unsigned d = 0; d < nd; d++)
		for (size_t r = 0; r < tabs[d].nrows; r++) {
			char name[64], rl[QOSHTML_LABEL_LEN];
			if (!qoshtml_row_json(kind, &tabs[d], r, name, sizeof(name)))
				continue;
			cJSON *root = rtab_json(dirs[d].path, sub, name);
			const cJSON *t = trace_of(root);
			qoshtml_row_label(kind, &tabs[d], r, rl);
			if (t)
				copies_table(f, &dirs[d], rl, t);
			cJSON_Delete(root);
		}
}

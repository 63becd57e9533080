/* html.c - the HTML report (see html.h).  It reads what `nvscope plan`
 * writes (docs/plans.md: meta.json, device-before.json, each step's
 * step.json, samples.csv, rounds.csv, qd.csv, rate.csv, grid.csv,
 * matrix.csv, steady.json, fill.json, purge.json) and lays the steps out in
 * plan order; a step present in several directories gets one section with
 * the drives side by side (separate charts) or overlaid (one series per
 * drive on the QD and rate-curve charts). */
#include "report/html.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "base/num.h"
#include "report/bedhtml.h"
#include "report/checkhtml.h"
#include "report/conshtml.h"
#include "report/drives.h"
#include "report/heat.h"
#include "report/csv.h"
#include "report/qoshtml.h"
#include "report/rtable.h"
#include "report/rwhtml.h"
#include "report/svg.h"
#include "report/tracehtml.h"
#include "report/chartpub.h"
#include "stats/collect.h"
#include "report/resnames.h"

#define MAX_COLS  24
#define MAX_STEPS 128

/* A directory's colour and line: the 10 colours of the palette in turn,
 * solid for the first 10 directories, then the same colours with a dash
 * pattern for each further 10 (docs/report.md "Many runs"). */
#define NCOLORS 10
static const char *const palette[NCOLORS] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
					     "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
static const char *const dashes[] = {NULL, "6 4", "2 3", "8 3 2 3", "12 4"};

static const char *dir_color(unsigned d)
{
	return palette[d % NCOLORS];
}

static const char *dir_dash(unsigned d)
{
	return dashes[d / NCOLORS % (sizeof(dashes) / sizeof(dashes[0]))];
}

static const char *jstr(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItem(o, key);
	return cJSON_IsString(x) ? x->valuestring : "";
}

static double jnum(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItem(o, key);
	return cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

/* ---- the page ---- */

struct rdir {
	const char *path;
	char label[160];
	cJSON *meta, *dev;
	bool check; /* a drive check's results directory (checkhtml.c) */
};

static void esc(FILE *f, const char *s)
{
	svg_escape(f, s);
}

static const char *css =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:24px;color:#222;"
    "background:#fafafa}h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px "
    "solid #ccc}h3{font-size:14px;margin:8px 0}.row{display:flex;flex-wrap:wrap;gap:16px}"
    ".card{background:#fff;border:1px solid #ddd;border-radius:4px;padding:8px}"
    "table{border-collapse:collapse;font-size:12px;margin:6px 0}td,th{border:1px solid #ccc;"
    "padding:3px 6px;text-align:right}th{background:#eee}td.l,th.l{text-align:left}"
    ".verdict{font-size:13px}.ok{color:#2a7a2a}.warn{color:#b35c00}.fail{color:#c00}"
    ".na{color:#777}"
    "svg .bg{fill:#fff}svg .frame{fill:none;stroke:#888}svg .grid{stroke:#e4e4e4}"
    "svg text{font-size:11px;fill:#333}svg .title{font-size:13px;font-weight:600}"
    "svg .band{fill:#2ca02c;fill-opacity:.15;stroke:#2ca02c;stroke-dasharray:4 3}"
    "svg .bandlabel{fill:#1d6b1d;font-size:11px}svg .nodata{fill:#999}"
    "svg .yref{stroke:#999;stroke-dasharray:3 3}svg .yreflabel{font-size:10px;fill:#555}"
    "svg .mark{stroke:#fff;stroke-width:1}.chartfiles{font-size:11px;color:#777;margin:2px "
    "0;overflow-wrap:anywhere}"
    ".chartfig{display:inline-block;vertical-align:top;width:min-content}"
    "details{font-size:12px;margin:6px 0}"
    ".override{color:#b35c00;font-weight:600}.asrun{font-size:12px;margin:2px 0 8px}"
    "code{font-size:12px;word-break:break-all}"
    ".sharebar{display:inline-block;height:8px;background:#1f77b4;margin-right:4px}"
    "tr.aggregate td{font-weight:600;border-top:2px solid #999}"
    "details.per-drive summary{font-size:12px;cursor:pointer}"
    ".drive-multiples{display:flex;flex-wrap:wrap;gap:2px 6px;align-items:flex-start}"
    ".drive-multiples p.note{flex-basis:100%;font-size:12px;margin:4px 0}"
    "details.trace-copies summary{font-size:12px;cursor:pointer}"
    ".zoomnote{font-size:12px;margin:4px 0}"
    "svg .band.grey{fill:#777;fill-opacity:.08;stroke:#777}svg .bandlabel.grey{fill:#444}";

/* The report's chart files while a page is written (html_write_report_pub;
 * one report at a time, as svg_set_hook). */
static struct chartpub *page_pub;
static bool page_multi; /* several directories: their cards' charts named by drive */

/* A drive's card: its title, and its name on the chart files that follow. */
static void dir_card_title(FILE *f, const struct rdir *d, unsigned i)
{
	const char *slash = strrchr(d->path, '/');
	while (slash && !slash[1] && slash > d->path) /* "dir/" */
		slash = memrchr(d->path, '/', (size_t)(slash - d->path));
	if (page_multi)
		chartpub_part(page_pub, slash ? slash + 1 : d->path);
	fprintf(f, "<h3><span style=\"color:%s\">&#9632;</span> ", dir_color(i));
	esc(f, d->label);
	fputs("</h3>", f);
}

/* The machine's CPU over a row and the IOPS per % of it ("one million IOPS
 * at 43% CPU"); "n/a" where the table has no such column (written before
 * it, or no /proc) or the machine was idle to the resolution. */
static void system_cpu_cells(FILE *f, double iops, double sys)
{
	if (!isfinite(sys)) {
		fputs("<td class=\"na\">n/a</td><td class=\"na\">n/a</td>", f);
		return;
	}
	fprintf(f, "<td>%.1f</td>", sys);
	if (sys >= 0.05 && isfinite(iops))
		fprintf(f, "<td>%.0f</td>", iops / sys);
	else
		fputs("<td class=\"na\">n/a</td>", f);
}

/* A step table's drive cell: the directory, linked to its per-drive
 * tables below when it ran on several targets (drives.c). */
static void drive_cell(FILE *f, const struct rdir *d, const char *sub, unsigned i)
{
	if (drives_count(d->meta) < 2) {
		esc(f, d->label);
		return;
	}
	fputs("<a href=\"#", f);
	drives_step_anchor(f, sub, i);
	fputs("\">", f);
	esc(f, d->label);
	fputs("</a>", f);
}

/* Each drive's per-drive tables of step @sub (drives.c). */
static void per_drive(FILE *f, const struct rdir *dirs, const struct rtab *tabs, unsigned nd,
		      const char *sub, const char *kind)
{
	for (unsigned d = 0; d < nd; d++)
		drives_step(f, dirs[d].path, sub, kind, &tabs[d], dirs[d].meta, dirs[d].dev,
			    dirs[d].label, d);
}

/* The step's table; @qs: each drive's row histograms (the QoS columns). */
static void metric_table(FILE *f, const struct rdir *dirs, const struct rtab *tabs, unsigned ndirs,
			 const char *sub, const char *first, const char *firstcol,
			 const struct qos_rows *qs)
{
	fprintf(f,
		"<table class=\"numbers\"><tr><th class=\"l\">drive</th><th>%s</th>"
		"<th>IOPS</th><th>MB/s</th><th>mean &micro;s</th><th>p99 &micro;s</th>",
		first);
	qoshtml_head(f);
	fputs(
	    "<th>max &micro;s</th>"
	    "<th title=\"nvscope's own threads (user + system), % of one core\">nvscope CPU %</th>"
	    "<th title=\"the whole machine over the row: the share of all its cores neither idle "
	    "nor in iowait (/proc/stat), as reviews quote CPU\">system CPU %</th>"
	    "<th title=\"IOPS for each % of the whole machine's CPU\">IOPS per CPU %</th></tr>",
	    f);
	for (unsigned d = 0; d < ndirs; d++)
		for (size_t r = 0; r < tabs[d].nrows; r++) {
			fputs("<tr><td class=\"l\">", f);
			drive_cell(f, &dirs[d], sub, d);
			fputs("</td><td>", f);
			if (firstcol && !strcmp(firstcol, "threads"))
				fprintf(f, "T%gQ%g", rtab_get(&tabs[d], r, "threads"),
					rtab_get(&tabs[d], r, "qd"));
			else if (firstcol)
				fprintf(f, "%g", rtab_get(&tabs[d], r, firstcol));
			else
				esc(f, tabs[d].first[r]);
			fprintf(f, "</td><td>%.0f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td>",
				rtab_get(&tabs[d], r, "iops"), rtab_get(&tabs[d], r, "mbps"),
				rtab_get(&tabs[d], r, "lat_mean_us"),
				rtab_get(&tabs[d], r, "lat_p99_us"));
			qoshtml_cells(f, &qs[d], r);
			fprintf(f, "<td>%.1f</td><td>%.1f</td>",
				rtab_get(&tabs[d], r, "lat_max_us"),
				rtab_get(&tabs[d], r, "cpu_pct"));
			system_cpu_cells(f, rtab_get(&tabs[d], r, "iops"),
					 rtab_get(&tabs[d], r, "sys_cpu_pct"));
			fputs("</tr>", f);
		}
	fputs("</table>\n", f);
}

/* Per-interval scatter of one step of one directory: IOPS (left) and mean
 * latency in ms (right); @band marks [x0, x1]. */
static void samples_chart(FILE *f, const char *dir, const char *sub, const char *title, bool logy,
			  bool mbps, bool band, double x0, double x1, const char *band_label)
{
	char path[2048], err[256];
	struct series s;
	snprintf(path, sizeof(path), "%s/%s/samples.csv", dir, sub);
	if (csv_read_series(path, &s, err, sizeof(err))) {
		fprintf(f, "<p class=\"warn\">no samples: ");
		esc(f, err);
		fputs("</p>", f);
		return;
	}
	double *t = calloc(s.n + 1, sizeof(double)), *io = calloc(s.n + 1, sizeof(double)),
	       *lat = calloc(s.n + 1, sizeof(double));
	size_t n = 0;
	for (size_t i = 0; t && io && lat && i < s.n; i++) {
		const struct point *p = &s.pt[i];
		if (p->dt < 0.05 || p->ramp) /* the short tail interval of a job */
			continue;
		t[n] = p->t;
		io[n] = mbps ? point_bw(p) / 1e6 : point_iops(p);
		lat[n] = p->lat_mean_all_us > 0 ? p->lat_mean_all_us / 1000.0
						: (p->lat_mean_us[0] + p->lat_mean_us[1]) / 1000.0;
		n++;
	}
	struct svg_series se[2] = {
	    {.name = mbps ? "MB/s" : "IOPS",
	     .x = t,
	     .y = io,
	     .n = n,
	     .color = "#1f77b4",
	     .dots = true},
	    {.name = "mean latency (ms)",
	     .x = t,
	     .y = lat,
	     .n = n,
	     .color = "#ff7f0e",
	     .dots = true,
	     .right = true},
	};
	struct svg_chart c = {.id = "scatter",
			      .title = title,
			      .xlabel = "time (s)",
			      .ylabel = mbps ? "MB/s" : "IOPS",
			      .y2label = "latency (ms)",
			      .ylog = logy,
			      .series = se,
			      .nseries = 2,
			      .band = band,
			      .band_x0 = x0,
			      .band_x1 = x1,
			      .band_label = band_label,
			      .width = 640};
	svg_chart(f, &c);
	free(t);
	free(io);
	free(lat);
	series_release(&s);
}

static void section_precondition(FILE *f, const struct rdir *dirs, unsigned nd, const char *sub,
				 const char *title, bool mbps)
{
	fputs("<div class=\"row\">", f);
	for (unsigned d = 0; d < nd; d++) {
		char path[2048];
		struct rtab rounds;
		snprintf(path, sizeof(path), "%s/%s/rounds.csv", dirs[d].path, sub);
		cJSON *ss = rtab_json(dirs[d].path, sub, RESDIR_STEADY);
		if (rtab_read(path, &rounds)) {
			cJSON_Delete(ss);
			continue;
		}
		fputs("<div class=\"card\">", f);
		dir_card_title(f, &dirs[d], d);
		bool att = ss && cJSON_IsTrue(cJSON_GetObjectItem(ss, "attained"));
		double round = ss ? jnum(ss, "round") : NAN, win = ss ? jnum(ss, "window") : 5;
		double x0 = NAN, x1 = NAN;
		char label[96] = "";
		uint64_t ru = 0, wu = 0;
		/* steady.json is read back: range-check before any cast */
		if (att && !num_to_u64(round, SIZE_MAX, &ru) && ru >= 1 &&
		    !num_to_u64(win, SIZE_MAX, &wu)) {
			size_t last = (size_t)ru - 1, firstr = ru > wu ? last + 1 - (size_t)wu : 0;
			x0 = rtab_get(&rounds, firstr, "t_start_s");
			x1 = rtab_get(&rounds, last, "t_end_s");
			snprintf(label, sizeof(label), "steady-state window (rounds %zu-%zu)",
				 firstr + 1, last + 1);
		}
		samples_chart(f, dirs[d].path, sub, title, false, mbps, att, x0, x1, label);
		fputs("<p class=\"verdict\">", f);
		if (!ss)
			fputs("<span class=\"warn\">no verdict yet (step not finished)</span>", f);
		else if (jnum(ss, "max_rounds") == 1)
			fputs("one pass (no steady-state rounds)", f);
		else if (att)
			fprintf(
			    f,
			    "<span class=\"ok\">steady state at round %.0f (%.4g s)</span>: window "
			    "avg %.0f, range %.1f%% (limit %g%%), slope %.1f%% (limit %g%%)",
			    round, jnum(ss, "time_s"), jnum(ss, "window_avg"),
			    jnum(ss, "range_pct"), jnum(ss, "range_limit_pct"),
			    jnum(ss, "slope_pct"), jnum(ss, "slope_limit_pct"));
		else if (isfinite(jnum(ss, "range_pct")))
			fprintf(f,
				"<span class=\"warn\">no steady state in %.0f rounds</span> (last "
				"window: range %.1f%%, slope %.1f%%)",
				jnum(ss, "rounds"), jnum(ss, "range_pct"), jnum(ss, "slope_pct"));
		else
			fprintf(f,
				"<span class=\"warn\">no steady state in %.0f rounds</span> (fewer "
				"than the %.0f-round window)",
				jnum(ss, "rounds"), win);
		fputs("</p>", f);
		if (rounds.nrows && rtab_col(&rounds, "iops") >= 0) {
			fputs(
			    "<table class=\"rounds\"><tr><th>round</th><th>end s</th><th>IOPS</th>"
			    "<th>MB/s</th><th>mean &micro;s</th><th>p99 &micro;s</th></tr>",
			    f);
			for (size_t r = 0; r < rounds.nrows; r++)
				fprintf(f,
					"<tr><td>%.0f</td><td>%.1f</td><td>%.0f</td><td>%.1f</td>"
					"<td>%.1f</td><td>%.1f</td></tr>",
					rtab_get(&rounds, r, "round"),
					rtab_get(&rounds, r, "t_end_s"),
					rtab_get(&rounds, r, "iops"), rtab_get(&rounds, r, "mbps"),
					rtab_get(&rounds, r, "lat_mean_us"),
					rtab_get(&rounds, r, "lat_p99_us"));
			fputs("</table>", f);
		}
		fputs("</div>", f);
		cJSON_Delete(ss);
		rtab_free(&rounds);
	}
	fputs("</div>\n", f);
}

/* One chart with a series per directory: y column against x column. */
static void overlay_chart(FILE *f, const struct rdir *dirs, const struct rtab *tabs, unsigned nd,
			  const char *id, const char *title, const char *xcol, const char *xlabel,
			  const char *ycol, const char *ylabel, bool xlog)
{
	struct svg_series *se = calloc(nd, sizeof(*se));
	double **xs = calloc(nd, sizeof(*xs)), **ys = calloc(nd, sizeof(*ys));
	unsigned n = 0;
	for (unsigned d = 0; se && xs && ys && d < nd; d++) {
		if (!tabs[d].nrows)
			continue;
		xs[n] = rtab_column(&tabs[d], xcol);
		ys[n] = rtab_column(&tabs[d], ycol);
		/* rows whose first column is not a number (the rate curve's
		 * "max" run) are tables-only */
		for (size_t r = 0; xs[n] && r < tabs[d].nrows; r++)
			if (!isfinite(tabs[d].v[r * tabs[d].ncols]))
				xs[n][r] = NAN;
		se[n] = (struct svg_series){.name = dirs[d].label,
					    .x = xs[n],
					    .y = ys[n],
					    .n = tabs[d].nrows,
					    .color = dir_color(d),
					    .dash = dir_dash(d)};
		n++;
	}
	struct svg_chart c = {.id = id,
			      .title = title,
			      .xlabel = xlabel,
			      .ylabel = ylabel,
			      .xlog = xlog,
			      .series = se,
			      .nseries = n,
			      .width = 560};
	svg_chart(f, &c);
	for (unsigned i = 0; i < n; i++) {
		free(xs[i]);
		free(ys[i]);
	}
	free(se);
	free(xs);
	free(ys);
}

/* A step's tables per directory, on the heap (any number of directories). */
struct bufs {
	struct rtab *tabs;
	struct qos_rows *qs;
	struct rw_rows *rw;
	struct rwhtml_drive *dv;
};

static void bufs_free(struct bufs *b)
{
	free(b->tabs);
	free(b->qs);
	free(b->rw);
	free(b->dv);
}

/* 0, or -ENOMEM with a line on the page. */
static int bufs_new(FILE *f, struct bufs *b, unsigned nd)
{
	*b = (struct bufs){.tabs = calloc(nd, sizeof(*b->tabs)),
			   .qs = calloc(nd, sizeof(*b->qs)),
			   .rw = calloc(nd, sizeof(*b->rw)),
			   .dv = calloc(nd, sizeof(*b->dv))};
	if (b->tabs && b->qs && b->rw && b->dv)
		return 0;
	bufs_free(b);
	fputs("<p class=\"warn\">out of memory</p>\n", f);
	return -ENOMEM;
}

static void read_tabs(const struct rdir *dirs, unsigned nd, const char *sub, const char *name,
		      struct rtab *tabs)
{
	for (unsigned d = 0; d < nd; d++) {
		char path[2048];
		snprintf(path, sizeof(path), "%s/%s/%s", dirs[d].path, sub, name);
		if (rtab_read(path, &tabs[d]))
			memset(&tabs[d], 0, sizeof(tabs[d]));
	}
}

static void free_tabs(struct rtab *tabs, unsigned nd)
{
	for (unsigned d = 0; d < nd; d++)
		rtab_free(&tabs[d]);
}

/* Each drive's row histograms of step @sub (qoshtml.h); a drive whose
 * histograms cannot be held gets none (its cells say n/a). */
static void qos_load(const struct rdir *dirs, const struct rtab *tabs, unsigned nd, const char *sub,
		     const char *kind, struct qos_rows *qs)
{
	for (unsigned d = 0; d < nd; d++)
		qoshtml_load(dirs[d].path, sub, kind, &tabs[d], &qs[d]);
}

/* Each drive's read and write figures of step @sub (rwhtml.h) and their
 * rwhtml_drive views; a drive whose rows cannot be held has none. */
static void rw_load(const struct rdir *dirs, const struct rtab *tabs, unsigned nd, const char *sub,
		    const char *kind, struct rw_rows *rw, struct rwhtml_drive *dv)
{
	for (unsigned d = 0; d < nd; d++) {
		rwhtml_load(dirs[d].path, sub, kind, &tabs[d], &rw[d]);
		dv[d] = (struct rwhtml_drive){.label = dirs[d].label,
					      .color = dir_color(d),
					      .dash = dir_dash(d),
					      .t = &tabs[d],
					      .rw = &rw[d]};
	}
}

static void rw_free(struct rw_rows *rw, unsigned nd)
{
	for (unsigned d = 0; d < nd; d++)
		rwhtml_free(&rw[d]);
}

/* The QoS charts, a card per drive, and the histograms freed. */
static void qos_section(FILE *f, const struct rdir *dirs, const struct rtab *tabs, unsigned nd,
			const char *sub, const char *kind, struct qos_rows *qs)
{
	fputs("<h3 class=\"qos\">Latency QoS</h3><div class=\"row\">", f);
	for (unsigned d = 0; d < nd; d++) {
		if (tabs[d].nrows) {
			fputs("<div class=\"card qos\">", f);
			dir_card_title(f, &dirs[d], d);
			qoshtml_charts(f, dirs[d].path, sub, kind, &tabs[d], &qs[d]);
			fputs("</div>", f);
		}
		qoshtml_free(&qs[d]);
	}
	fputs("</div>\n", f);
}

/* A replay step's lag and late per directory and copy (tracehtml.c). */
static void trace_replay(FILE *f, const struct rdir *dirs, const struct rtab *tabs, unsigned nd,
			 const char *sub)
{
	struct tracehtml_dir td[nd ? nd : 1];
	for (unsigned d = 0; d < nd; d++)
		td[d] = (struct tracehtml_dir){.path = dirs[d].path, .label = dirs[d].label};
	tracehtml_step(f, td, tabs, nd, sub, "measure");
}

static void section_measure(FILE *f, const struct rdir *dirs, unsigned nd, const char *sub,
			    bool mbps)
{
	struct bufs b;
	if (bufs_new(f, &b, nd))
		return;
	struct rtab *tabs = b.tabs;
	read_tabs(dirs, nd, sub, RESDIR_QD, tabs);
	size_t maxrows = 0;
	for (unsigned d = 0; d < nd; d++)
		if (tabs[d].nrows > maxrows)
			maxrows = tabs[d].nrows;
	fputs("<div class=\"row\">", f);
	if (maxrows > 1) {
		overlay_chart(f, dirs, tabs, nd, "qd-iops",
			      mbps ? "Throughput vs queue depth" : "IOPS vs queue depth", "qd",
			      "queue depth", mbps ? "mbps" : "iops", mbps ? "MB/s" : "IOPS", true);
		overlay_chart(f, dirs, tabs, nd, "qd-latency", "Mean latency vs queue depth", "qd",
			      "queue depth", "lat_mean_us", "mean latency (µs)", true);
	} else {
		/* one long measurement (IO consistency): the whole run and
		 * a zoom on its last part, as AnandTech (conshtml.c) */
		for (unsigned d = 0; d < nd; d++) {
			if (!tabs[d].nrows)
				continue;
			fputs("<div class=\"card\">", f);
			dir_card_title(f, &dirs[d], d);
			conshtml_charts(f, dirs[d].path, sub, mbps);
			fputs("</div>", f);
		}
	}
	fputs("</div>", f);
	struct qos_rows *qs = b.qs;
	struct rw_rows *rw = b.rw;
	struct rwhtml_drive *dv = b.dv;
	qos_load(dirs, tabs, nd, sub, "measure", qs);
	metric_table(f, dirs, tabs, nd, sub, "QD", "qd", qs);
	rw_load(dirs, tabs, nd, sub, "measure", rw, dv);
	rwhtml_table(f, dv, nd, "measure");
	rw_free(rw, nd);
	per_drive(f, dirs, tabs, nd, sub, "measure");
	trace_replay(f, dirs, tabs, nd, sub);
	qos_section(f, dirs, tabs, nd, sub, "measure", qs);
	free_tabs(tabs, nd);
	bufs_free(&b);
}

/* The rate curve (rwhtml.c draws its charts): @mbps, throughput on the X
 * axis (a 64K or sequential curve). */
static void section_rate(FILE *f, const struct rdir *dirs, unsigned nd, const char *sub, bool mbps)
{
	struct bufs b;
	if (bufs_new(f, &b, nd))
		return;
	struct rtab *tabs = b.tabs;
	struct rw_rows *rw = b.rw;
	struct rwhtml_drive *dv = b.dv;
	read_tabs(dirs, nd, sub, RESDIR_RATE, tabs);
	rw_load(dirs, tabs, nd, sub, "rate-curve", rw, dv);
	fputs("<div class=\"row\">", f);
	rwhtml_rate_charts(f, dv, nd, mbps);
	fputs("</div>", f);
	struct qos_rows *qs = b.qs;
	qos_load(dirs, tabs, nd, sub, "rate-curve", qs);
	metric_table(f, dirs, tabs, nd, sub, "% of max", NULL, qs);
	rwhtml_table(f, dv, nd, "rate-curve");
	rw_free(rw, nd);
	per_drive(f, dirs, tabs, nd, sub, "rate-curve");
	qos_section(f, dirs, tabs, nd, sub, "rate-curve", qs);
	free_tabs(tabs, nd);
	bufs_free(&b);
}

/* IOPS against queue depth, one line per worker count (thread profile). */
static void grid_chart(FILE *f, const struct rtab *t)
{
	static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
					     "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
	struct svg_series se[16];
	char names[16][16];
	double *x[16] = {0}, *y[16] = {0}, th_of[16];
	unsigned ns = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		double th = rtab_get(t, r, "threads");
		unsigned k = 0;
		while (k < ns && th_of[k] != th)
			k++;
		if (k == ns) {
			if (ns == 16)
				continue;
			x[ns] = calloc(t->nrows, sizeof(double));
			y[ns] = calloc(t->nrows, sizeof(double));
			if (!x[ns] || !y[ns]) {
				free(x[ns]);
				free(y[ns]);
				break;
			}
			snprintf(names[ns], sizeof(names[ns]), "T%g", th);
			th_of[ns] = th;
			se[ns] = (struct svg_series){
			    .name = names[ns], .x = x[ns], .y = y[ns], .color = colors[ns % 8]};
			ns++;
		}
		x[k][se[k].n] = rtab_get(t, r, "qd");
		y[k][se[k].n] = rtab_get(t, r, "iops");
		se[k].n++;
	}
	struct svg_chart c = {.id = "grid",
			      .title = "IOPS vs queue depth per thread count",
			      .xlabel = "queue depth (per thread)",
			      .ylabel = "IOPS",
			      .xlog = true,
			      .series = se,
			      .nseries = ns,
			      .width = 480,
			      .height = 300};
	svg_chart(f, &c);
	for (unsigned i = 0; i < ns; i++) {
		free(x[i]);
		free(y[i]);
	}
}

static void section_grid(FILE *f, const struct rdir *dirs, unsigned nd, const char *sub)
{
	struct bufs b;
	if (bufs_new(f, &b, nd))
		return;
	struct rtab *tabs = b.tabs;
	struct rw_rows *rw = b.rw;
	struct rwhtml_drive *dv = b.dv;
	read_tabs(dirs, nd, sub, RESDIR_GRID, tabs);
	rw_load(dirs, tabs, nd, sub, "grid", rw, dv);
	fputs("<div class=\"row\">", f);
	for (unsigned d = 0; d < nd; d++) {
		const struct rtab *t = &tabs[d];
		if (!t->nrows)
			continue;
		double qs[64];
		unsigned nq = 0;
		for (size_t r = 0; r < t->nrows && nq < 64; r++) {
			double q = rtab_get(t, r, "qd");
			bool seen = false;
			for (unsigned i = 0; i < nq; i++)
				seen |= qs[i] == q;
			if (!seen)
				qs[nq++] = q;
		}
		fputs("<div class=\"card\">", f);
		dir_card_title(f, &dirs[d], d);
		fputs("<table class=\"grid\"><tr><th>IOPS</th>", f);
		for (unsigned i = 0; i < nq; i++)
			fprintf(f, "<th>Q%g</th>", qs[i]);
		fputs("</tr>", f);
		double last_t = NAN;
		for (size_t r = 0; r < t->nrows; r++) {
			double th = rtab_get(t, r, "threads");
			if (th != last_t) {
				if (r)
					fputs("</tr>", f);
				fprintf(f, "<tr><th>T%g</th>", th);
				last_t = th;
			}
			fprintf(f, "<td>%.0f</td>", rtab_get(t, r, "iops"));
		}
		fputs("</tr></table>", f);
		heat_grid(f, t, &rw[d]);
		rwhtml_grid(f, t, &rw[d]);
		grid_chart(f, t);
		fputs("</div>", f);
	}
	fputs("</div>", f);
	struct qos_rows *qs = b.qs;
	qos_load(dirs, tabs, nd, sub, "grid", qs);
	metric_table(f, dirs, tabs, nd, sub, "cell", "threads", qs);
	rwhtml_table(f, dv, nd, "grid");
	rw_free(rw, nd);
	per_drive(f, dirs, tabs, nd, sub, "grid");
	qos_section(f, dirs, tabs, nd, sub, "grid", qs);
	free_tabs(tabs, nd);
	bufs_free(&b);
}

/* The SNIA matrix: rows block sizes, columns R/W mixes, each value the
 * average over the rounds of the steady-state window (or the last window
 * of rounds when not attained). */
static void matrix_table(FILE *f, const struct rtab *t, const char *col, const char *title,
			 size_t r0, size_t r1, const char *fmt)
{
	double bss[64], mixes[64];
	unsigned nb = 0, nm = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		double b = rtab_get(t, r, "bs"), m = rtab_get(t, r, "read_pct");
		bool sb = false, sm = false;
		for (unsigned i = 0; i < nb; i++)
			sb |= bss[i] == b;
		for (unsigned i = 0; i < nm; i++)
			sm |= mixes[i] == m;
		if (!sb && nb < 64)
			bss[nb++] = b;
		if (!sm && nm < 64)
			mixes[nm++] = m;
	}
	fprintf(f, "<table class=\"matrix\"><tr><th>%s</th>", title);
	for (unsigned j = 0; j < nm; j++)
		fprintf(f, "<th>%g/%g</th>", mixes[j], 100 - mixes[j]);
	fputs("</tr>", f);
	for (unsigned i = 0; i < nb; i++) {
		fprintf(f, "<tr><th>%g KiB</th>", bss[i] / 1024);
		for (unsigned j = 0; j < nm; j++) {
			double sum = 0;
			unsigned n = 0;
			for (size_t r = 0; r < t->nrows; r++) {
				double round = rtab_get(t, r, "round");
				if (rtab_get(t, r, "bs") == bss[i] &&
				    rtab_get(t, r, "read_pct") == mixes[j] && round >= (double)r0 &&
				    round <= (double)r1) {
					sum += rtab_get(t, r, col);
					n++;
				}
			}
			fputs("<td>", f);
			if (n)
				fprintf(f, fmt, sum / n);
			fputs("</td>", f);
		}
		fputs("</tr>", f);
	}
	fputs("</table>", f);
}

static void section_matrix(FILE *f, const struct rdir *dirs, unsigned nd, const char *sub)
{
	struct rtab *tabs = calloc(nd, sizeof(*tabs));
	if (!tabs)
		return;
	read_tabs(dirs, nd, sub, RESDIR_MATRIX, tabs);
	fputs("<div class=\"row\">", f);
	for (unsigned d = 0; d < nd; d++) {
		const struct rtab *t = &tabs[d];
		if (!t->nrows)
			continue;
		cJSON *ss = rtab_json(dirs[d].path, sub, RESDIR_STEADY);
		double rounds = 0;
		for (size_t r = 0; r < t->nrows; r++)
			rounds = fmax(rounds, rtab_get(t, r, "round"));
		double win = ss ? jnum(ss, "window") : 5, at = ss ? jnum(ss, "round") : NAN;
		double r1 = isfinite(at) ? at : rounds,
		       r0 = fmax(1, r1 - (isfinite(win) ? win : 5) + 1);
		fputs("<div class=\"card\">", f);
		dir_card_title(f, &dirs[d], d);
		fprintf(f, "<p class=\"verdict\">rounds %.0f-%.0f averaged; %s</p>", r0, r1,
			ss && jnum(ss, "max_rounds") == 1 ? "one pass"
			: ss && cJSON_IsTrue(cJSON_GetObjectItem(ss, "attained"))
			    ? "<span class=\"ok\">steady state reached</span>"
			    : "<span class=\"warn\">steady state not reached</span>");
		uint64_t r0u = 0, r1u = 0;
		if (num_to_u64(r0, SIZE_MAX, &r0u) || num_to_u64(r1, SIZE_MAX, &r1u))
			r0u = 1, r1u = 0; /* hostile round numbers: no rows */
		matrix_table(f, t, "iops", "IOPS", (size_t)r0u, (size_t)r1u, "%.0f");
		matrix_table(f, t, "lat_mean_us", "mean &micro;s", (size_t)r0u, (size_t)r1u,
			     "%.1f");
		matrix_table(f, t, "lat_max_us", "max &micro;s", (size_t)r0u, (size_t)r1u, "%.1f");
		fputs("</div>", f);
		cJSON_Delete(ss);
	}
	fputs("</div>", f);
	free_tabs(tabs, nd);
	free(tabs);
}

static void section_simple(FILE *f, const struct rdir *dirs, unsigned nd, const char *sub,
			   const char *kind)
{
	fputs("<table class=\"numbers\"><tr><th class=\"l\">drive</th><th class=\"l\">result</th>"
	      "</tr>",
	      f);
	for (unsigned d = 0; d < nd; d++) {
		fputs("<tr><td class=\"l\">", f);
		esc(f, dirs[d].label);
		fputs("</td><td class=\"l\">", f);
		if (!strcmp(kind, "purge")) {
			cJSON *o = rtab_json(dirs[d].path, sub, RESDIR_PURGE), *t;
			cJSON_ArrayForEach(t, cJSON_GetObjectItem(o, "targets"))
			{
				esc(f, jstr(t, "target"));
				fputs(cJSON_IsTrue(cJSON_GetObjectItem(t, "ok")) ? ": done "
										 : ": failed ",
				      f);
				esc(f, jstr(t, "message"));
				fputs("<br>", f);
			}
			cJSON_Delete(o);
		} else {
			cJSON *o = rtab_json(dirs[d].path, sub, RESDIR_FILL);
			const cJSON *w = cJSON_GetObjectItem(
			    cJSON_GetArrayItem(cJSON_GetObjectItem(o, "jobs"), 0), "write");
			if (w)
				fprintf(f, "%.1f MB/s, %.0f MB written in %.3g s",
					jnum(w, "bw_bytes") / 1e6, jnum(w, "io_bytes") / 1e6,
					jnum(w, "runtime") / 1000);
			else
				fputs("not finished", f);
			cJSON_Delete(o);
		}
		fputs("</td></tr>", f);
	}
	fputs("</table>\n", f);
}

/* The heading of step @i: its directory name and the workload, the
 * block-size mix when there is one (not only its first size). */
static void step_heading(FILE *f, unsigned i, const char *name, const cJSON *sj)
{
	const char *kind = jstr(sj, "kind");
	fprintf(f, "<h2 id=\"step-%u\" class=\"step step-", i + 1);
	esc(f, kind);
	fputs("\">", f);
	esc(f, name);
	if (*jstr(sj, "trace")) { /* a replay: the trace, not its first workload */
		fputs(" <small>(trace ", f);
		esc(f, jstr(sj, "trace"));
		double c = jnum(sj, "trace_copies"), s = jnum(sj, "trace_stagger_s");
		if (c > 1)
			fprintf(f, ", %g copies", c);
		if (s > 0)
			fprintf(f, ", %g s apart", s);
		fputs(")</small>", f);
	} else if (strcmp(kind, "purge") && strcmp(kind, "matrix")) {
		fputs(" <small>(", f);
		esc(f, jstr(sj, "rw"));
		fputs(" ", f);
		esc(f, *jstr(sj, "bssplit") ? jstr(sj, "bssplit") : jstr(sj, "bs"));
		fprintf(f, ", %g jobs)</small>", jnum(sj, "numjobs"));
	}
	fputs("</h2>\n", f);
}

/* Each plan directory's test bed (meta.json "testbed"), side by side. */
static void testbed_section(FILE *f, const struct rdir *dirs, unsigned nd)
{
	fputs("<h2 id=\"testbed\">Test bed</h2><div class=\"row\">", f);
	for (unsigned d = 0; d < nd; d++) {
		fputs("<div id=\"", f); /* the drives table's "N drives" links here */
		drives_anchor(f, d);
		fputs("\">", f);
		bedhtml_testbed(f, dirs[d].meta, dirs[d].label);
		drives_list(f, dirs[d].meta, dirs[d].dev);
		fputs("</div>", f);
	}
	fputs("</div>\n", f);
}

static int load_dir(struct rdir *d, const char *path, char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->path = path;
	d->meta = rtab_json(path, NULL, RESDIR_META);
	if (!d->meta) {
		snprintf(err, errlen,
			 "%s/meta.json: missing or not JSON (not a plan or check "
			 "results directory?)",
			 path);
		return -ENOENT;
	}
	d->check = checkhtml_is_check(d->meta);
	d->dev = d->check ? NULL : rtab_json(path, NULL, RESDIR_DEV_BEFORE);
	const cJSON *t0 = cJSON_GetArrayItem(cJSON_GetObjectItem(d->dev, "targets"), 0);
	const char *model = t0 ? jstr(t0, "model") : "";
	const char *tp = t0 ? jstr(t0, "path") : "";
	const char *base = strrchr(path, '/');
	base = base && base[1] ? base + 1 : path;
	if (d->check)
		snprintf(d->label, sizeof(d->label), "%s (check)", base);
	else if (drives_count(d->meta) > 2)
		snprintf(d->label, sizeof(d->label), "%s (%u drives)", base, drives_count(d->meta));
	else
		snprintf(d->label, sizeof(d->label), "%s (%s%s%s)", base, *model ? model : tp,
			 *model && *tp ? " " : "", *model ? tp : "");
	return 0;
}

/* The union of the steps of @dirs, in plan order (at most MAX_STEPS):
 * their names into @steps (the directories' strings).  Returns how many. */
static unsigned union_steps(const struct rdir *dirs, unsigned nd, char **steps)
{
	unsigned nsteps = 0;

	for (unsigned d = 0; d < nd; d++) {
		const cJSON *s;
		cJSON_ArrayForEach(s, cJSON_GetObjectItem(dirs[d].meta, "steps"))
		{
			if (!cJSON_IsString(s) || nsteps >= MAX_STEPS)
				continue;
			bool seen = false;
			for (unsigned i = 0; i < nsteps; i++)
				seen |= !strcmp(steps[i], s->valuestring);
			if (!seen)
				steps[nsteps++] = s->valuestring;
		}
	}
	return nsteps;
}

/* Does step.json @sj run blocks of 64K or more (its "bs"; a bssplit's
 * "bs" is its first size)?  Reviews chart such a rate curve in MB/s. */
static bool big_blocks(const cJSON *sj)
{
	uint64_t bs;
	const char *s = jstr(sj, "bs");
	char one[32];
	size_t n = strcspn(s, ",:/");
	if (!n || n >= sizeof(one))
		return false;
	memcpy(one, s, n);
	one[n] = '\0';
	return !num_parse_size(one, &bs) && bs >= 65536;
}

/* Step @i, @step, of every directory that has it: its heading, as-run
 * lines and the section of its kind. */
static void step_section(FILE *f, const struct rdir *dirs, unsigned nd, unsigned i,
			 const char *step, struct chartpub *pub)
{
	cJSON **sjs = calloc(nd, sizeof(*sjs));
	struct rdir *have = calloc(nd, sizeof(*have));
	unsigned nh = 0;
	for (unsigned d = 0; sjs && have && d < nd; d++) {
		cJSON *o = rtab_json(dirs[d].path, step, RESDIR_STEP);
		if (!o)
			continue;
		sjs[nh] = o;
		have[nh++] = dirs[d];
	}
	if (!nh)
		goto out;
	cJSON *sj = sjs[0];
	const char *kind = jstr(sj, "kind");
	chartpub_step(pub, i, step);
	step_heading(f, i, step, sj);
	for (unsigned h = 0; h < nh; h++)
		bedhtml_asrun(f, sjs[h], have[h].meta, nh > 1 ? have[h].label : NULL);
	/* sequential workloads are charted in MB/s, as reviews do */
	const char *rw = sj ? jstr(sj, "rw") : "";
	bool mbps = !strcmp(rw, "read") || !strcmp(rw, "write") || !strcmp(rw, "rw");
	if (!strcmp(kind, "precondition"))
		section_precondition(f, have, nh, step,
				     mbps ? "Preconditioning: MB/s and latency per interval"
					  : "Preconditioning: IOPS and latency per interval",
				     mbps);
	else if (!strcmp(kind, "measure"))
		section_measure(f, have, nh, step, mbps);
	else if (!strcmp(kind, "rate-curve"))
		section_rate(f, have, nh, step, mbps || big_blocks(sj));
	else if (!strcmp(kind, "grid"))
		section_grid(f, have, nh, step);
	else if (!strcmp(kind, "matrix")) {
		section_precondition(f, have, nh, step,
				     "Matrix rounds: IOPS and latency per interval (all cells)",
				     false);
		section_matrix(f, have, nh, step);
	} else if (!strcmp(kind, "purge") || !strcmp(kind, "fill"))
		section_simple(f, have, nh, step, kind);
	else
		fputs("<p class=\"warn\">not run yet</p>\n", f);
	for (unsigned h = 0; h < nh; h++)
		cJSON_Delete(sjs[h]);
out:
	free(sjs);
	free(have);
}

int html_write_report(FILE *f, const char *const *paths, unsigned ndirs, char *err, size_t errlen)
{
	return html_write_report_pub(f, paths, ndirs, NULL, err, errlen);
}

int html_write_report_pub(FILE *f, const char *const *paths, unsigned ndirs, struct chartpub *pub,
			  char *err, size_t errlen)
{
	struct rdir *dirs = NULL;
	char *steps[MAX_STEPS];
	unsigned nsteps = 0, nd = 0;
	int rc = 0;

	if (!ndirs) {
		snprintf(err, errlen, "give 1 or more results directories");
		return -EINVAL;
	}
	if (!(dirs = calloc(ndirs, sizeof(*dirs)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (nd = 0; nd < ndirs; nd++)
		if ((rc = load_dir(&dirs[nd], paths[nd], err, errlen)))
			goto out_dirs;
	nsteps = union_steps(dirs, nd, steps);

	time_t now = time(NULL);
	char when[64];
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
	fprintf(f,
		"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<title>nvscope report</title><style>%s</style></head><body>\n",
		css);
	fprintf(f, "<h1>nvscope report</h1><p>Generated %s by nvscope %s.</p>\n", when,
		NVS_VERSION);
	fputs("<table class=\"drives\"><tr><th class=\"l\">drive</th><th class=\"l\">plan</th>"
	      "<th class=\"l\">status</th><th class=\"l\">targets</th><th class=\"l\">device</th>"
	      "<th class=\"l\">nvscope</th></tr>",
	      f);
	for (unsigned d = 0; d < nd; d++) {
		const cJSON *t;
		fprintf(f, "<tr><td class=\"l\" style=\"color:%s\">", dir_color(d));
		esc(f, dirs[d].label);
		fputs("</td><td class=\"l\">", f);
		if (dirs[d].check) {
			fputs("check: ", f);
			esc(f, jstr(dirs[d].meta, "profile"));
		} else {
			esc(f, jstr(dirs[d].meta, "plan"));
			fputs(": ", f);
			esc(f, jstr(dirs[d].meta, "description"));
			bedhtml_overrides(f, dirs[d].meta);
		}
		fputs("</td><td class=\"l\">", f);
		esc(f, jstr(dirs[d].meta, "status"));
		fputs("</td><td class=\"l\">", f);
		drives_targets_cell(f, dirs[d].meta, d);
		if (dirs[d].check)
			cJSON_ArrayForEach(t, cJSON_GetObjectItem(dirs[d].meta, "drives"))
			{
				esc(f, jstr(t, "device"));
				fputs(" ", f);
			}
		fputs("</td><td class=\"l\">", f);
		drives_device_cell(f, dirs[d].meta, dirs[d].dev, d);
		fputs("</td><td class=\"l\">", f);
		esc(f, jstr(dirs[d].meta, "nvscope_version"));
		fputs("</td></tr>", f);
	}
	fputs("</table>\n", f);
	for (unsigned d = 0; d < nd; d++)
		if (dirs[d].check)
			checkhtml_section(f, dirs[d].path, dirs[d].label);

	testbed_section(f, dirs, nd);

	if (pub)
		svg_set_hook(chartpub_chart, pub);
	page_pub = pub;
	page_multi = nd > 1;
	for (unsigned i = 0; i < nsteps; i++)
		step_section(f, dirs, nd, i, steps[i], pub);
	svg_set_hook(NULL, NULL);
	page_pub = NULL;
	fputs("</body></html>\n", f);
	rc = ferror(f) ? -EIO : 0;
	if (rc)
		snprintf(err, errlen, "write error");
out_dirs:
	for (unsigned d = 0; d < nd; d++) {
		cJSON_Delete(dirs[d].meta);
		cJSON_Delete(dirs[d].dev);
	}
	free(dirs);
	return rc;
}

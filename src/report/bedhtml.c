/* bedhtml.c - test bed and parameters as run (see bedhtml.h).
 *
 * The plan's description is the plan author's text ("... for 30 min"); a
 * run with --runtime 30s ran 30 s.  So the report prints what each step's
 * step.json says it ran with, and marks a value that came from the command
 * line (meta.json "overrides", keys as given: runtime, ramp-time, round,
 * max-rounds, fill, iodepth) as an override. */
#include "report/bedhtml.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "dev/testbed.h"
#include "report/svg.h"

static void esc(FILE *f, const char *s)
{
	svg_escape(f, s);
}

static const char *str_of(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItem(o, key);
	return cJSON_IsString(x) && *x->valuestring ? x->valuestring : NULL;
}

/* A finite number >= 0 of @o, or NAN. */
static double num_of(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItem(o, key);
	return cJSON_IsNumber(x) && isfinite(x->valuedouble) && x->valuedouble >= 0 ? x->valuedouble
										    : NAN;
}

/* The override of @key ("max_rounds" matches "max-rounds" too), or NULL. */
static const cJSON *override_of(const cJSON *meta, const char *key)
{
	const cJSON *o;
	cJSON_ArrayForEach(o, cJSON_GetObjectItem(meta, "overrides"))
	{
		const char *a = o->string, *b = key;
		if (!a || !cJSON_IsString(o))
			continue;
		while (*a && (*a == *b || (*a == '-' && *b == '_')))
			a++, b++;
		if (!*a && !*b)
			return o;
	}
	return NULL;
}

void bedhtml_overrides(FILE *f, const void *meta)
{
	const cJSON *o;
	bool any = false;
	cJSON_ArrayForEach(o, cJSON_GetObjectItem((const cJSON *)meta, "overrides"))
	{
		if (!o->string || !cJSON_IsString(o))
			continue;
		fputs(any ? " " : "<br><span class=\"override\">run with overrides: ", f);
		fputs("--", f);
		esc(f, o->string);
		fputs("=", f);
		esc(f, o->valuestring);
		any = true;
	}
	if (any)
		fputs(" (the description is the plan's; each step says what it ran)</span>", f);
}

static void cell(FILE *f, const char *s)
{
	fputs("<td class=\"l\">", f);
	esc(f, s ? s : "unknown");
	fputs("</td>", f);
}

static void num_cell(FILE *f, double v, double div, const char *fmt)
{
	if (isfinite(v) && v < 1e30)
		fprintf(f, fmt, v / div);
	else
		fputs("<td class=\"na\">unknown</td>", f);
}

/* "PCIe 4.0 x4" or "8 GT/s x4" of speed @gts and width @w, "?" unknown. */
static void link_text(FILE *f, double gts, double w)
{
	unsigned gen = isfinite(gts) ? testbed_pcie_gen(gts) : 0;
	if (gen)
		fprintf(f, "PCIe %u.0", gen);
	else if (isfinite(gts))
		fprintf(f, "%g GT/s", gts);
	else
		fputs("speed unknown", f);
	if (isfinite(w) && w >= 1)
		fprintf(f, " x%g", w);
	else
		fputs(" width unknown", f);
}

/* A drive's PCIe link: "PCIe 4.0 x4 (16 GT/s)", with its maximum when it
 * runs below it; "not PCIe" for a drive that has none (a file, a loop
 * device, NVMe over fabrics); "not recorded" before nvscope recorded it. */
static void link_cell(FILE *f, const cJSON *d)
{
	const cJSON *l = cJSON_GetObjectItem(d, "pcie_link");
	if (!l) {
		fputs("<td class=\"l na\">not recorded</td>", f);
		return;
	}
	if (!cJSON_IsObject(l)) {
		fputs("<td class=\"l na\">not PCIe</td>", f);
		return;
	}
	double s = num_of(l, "speed_gts"), w = num_of(l, "width");
	double ms = num_of(l, "max_speed_gts"), mw = num_of(l, "max_width");
	bool below =
	    (isfinite(ms) && isfinite(s) && s < ms) || (isfinite(mw) && isfinite(w) && w < mw);
	fprintf(f, "<td class=\"l link%s\">", below ? " warn" : "");
	link_text(f, s, w);
	if (isfinite(s))
		fprintf(f, " (%g GT/s)", s);
	if (below) {
		fputs(", below its max ", f);
		link_text(f, ms, mw);
	}
	fputs("</td>", f);
}

static void drives_table(FILE *f, const cJSON *drives)
{
	const cJSON *d;
	fputs("<table class=\"testbed-drives\"><tr><th class=\"l\">target</th><th "
	      "class=\"l\">kind</th><th class=\"l\">model</th><th class=\"l\">serial</th><th "
	      "class=\"l\">firmware</th><th>capacity</th><th>LBA size</th>"
	      "<th class=\"l\">PCIe link</th></tr>",
	      f);
	cJSON_ArrayForEach(d, drives)
	{
		fputs("<tr>", f);
		cell(f, str_of(d, "path"));
		cell(f, str_of(d, "kind"));
		cell(f, str_of(d, "model"));
		cell(f, str_of(d, "serial"));
		cell(f, str_of(d, "firmware"));
		num_cell(f, num_of(d, "capacity_bytes"), 1e9, "<td>%.3f GB</td>");
		num_cell(f, num_of(d, "lba_size"), 1, "<td>%.0f B</td>");
		link_cell(f, d);
		fputs("</tr>", f);
	}
	fputs("</table>", f);
}

/* One figure of health @h ("n/a" when not given). */
static void health_fig(FILE *f, const cJSON *h, const char *key, const char *fmt, double div)
{
	double v = cJSON_IsObject(h) ? num_of(h, key) : NAN;
	if (isfinite(v))
		fprintf(f, fmt, v / div);
	else
		fputs("<span class=\"na\">n/a</span>", f);
}

static const struct {
	const char *key, *head, *fmt;
	double div;
} health_cols[] = {
    {"temperature_c", "temperature &deg;C", "%.0f", 1},
    {"percentage_used", "% used", "%.0f", 1},
    {"available_spare", "available spare %", "%.0f", 1},
    {"media_errors", "media errors", "%.0f", 1},
    {"critical_warning", "critical warning", "0x%02.0f", 1},
    /* data units are 1000 x 512 bytes */
    {"data_units_written", "data written TB", "%.3f", 1e12 / 512000.0},
};

/* A drive's health row: each figure "before &rarr; after"; "not NVMe"
 * across the row for a drive that has no health log. */
static void health_row(FILE *f, const cJSON *d)
{
	const cJSON *b = cJSON_GetObjectItem(d, "health_before"),
		    *a = cJSON_GetObjectItem(d, "health_after");
	unsigned ncols = sizeof(health_cols) / sizeof(health_cols[0]);
	const char *kind = str_of(d, "kind");
	fputs("<tr>", f);
	cell(f, str_of(d, "path"));
	if (!b && !a) {
		fprintf(f, "<td class=\"l na\" colspan=\"%u\">not recorded</td></tr>", ncols);
		return;
	}
	if (!cJSON_IsObject(b) && !cJSON_IsObject(a)) {
		fprintf(f, "<td class=\"l na\" colspan=\"%u\">%s</td></tr>", ncols,
			kind && !strcmp(kind, "nvme") ? "not read" : "not NVMe");
		return;
	}
	for (unsigned i = 0; i < ncols; i++) {
		fputs("<td>", f);
		health_fig(f, b, health_cols[i].key, health_cols[i].fmt, health_cols[i].div);
		fputs(" &rarr; ", f);
		if (cJSON_IsObject(a))
			health_fig(f, a, health_cols[i].key, health_cols[i].fmt,
				   health_cols[i].div);
		else
			fputs("<span class=\"na\" title=\"read when a run ends well\">not "
			      "read</span>",
			      f);
		fputs("</td>", f);
	}
	fputs("</tr>", f);
}

/* The health before and after the run (NVMe SMART / health log). */
static void health_table(FILE *f, const cJSON *drives)
{
	const cJSON *d;
	fputs("<table class=\"testbed-health\"><tr><th class=\"l\">health before &rarr; "
	      "after</th>",
	      f);
	for (unsigned i = 0; i < sizeof(health_cols) / sizeof(health_cols[0]); i++)
		fprintf(f, "<th>%s</th>", health_cols[i].head);
	fputs("</tr>", f);
	cJSON_ArrayForEach(d, drives)
	{
		health_row(f, d);
	}
	fputs("</table>", f);
}

/* The CPUs' power policy (testbed.c "cpu_power"): the idle driver and
 * governor, a VM guest's halt poll, the deepest idle state allowed and its
 * exit latency, the frequency governor; QD1 latency depends on them. */
static void power_cell(FILE *f, const cJSON *p)
{
	if (!cJSON_IsObject(p)) {
		fputs("<td class=\"na\">not recorded</td>", f);
		return;
	}
	const char *drv = str_of(p, "idle_driver"), *gov = str_of(p, "idle_governor");
	double poll = num_of(p, "guest_halt_poll_ns"), exit_us = num_of(p, "deepest_idle_exit_us");
	fputs("<td class=\"l\">idle: ", f);
	esc(f, drv ? drv : "unknown");
	if (gov && (!drv || strcmp(gov, drv))) {
		fputs(" / ", f);
		esc(f, gov);
	}
	if (isfinite(poll))
		fprintf(f, ", halt poll %.0f ns%s", poll,
			poll == 0 ? " (an idle CPU halts at once)" : "");
	if (str_of(p, "deepest_idle_state")) {
		fputs("; deepest state: ", f);
		esc(f, str_of(p, "deepest_idle_state"));
		if (isfinite(exit_us))
			fprintf(f, " (exit %.0f &micro;s)", exit_us);
	}
	fputs("; cpufreq: ", f);
	esc(f, str_of(p, "freq_governor") ? str_of(p, "freq_governor") : "unknown");
	fputs("</td>", f);
}

void bedhtml_testbed(FILE *f, const void *meta, const char *label)
{
	const cJSON *tb = cJSON_GetObjectItem((const cJSON *)meta, "testbed");
	fputs("<div class=\"card testbed\"><h3>", f);
	esc(f, label);
	fputs("</h3>", f);
	if (!cJSON_IsObject(tb)) {
		fputs("<p class=\"na\">test bed not recorded (results written before nvscope "
		      "recorded it)</p></div>",
		      f);
		return;
	}
	fputs("<table class=\"testbed\"><tr><th class=\"l\">CPU</th><th>CPUs</th><th>memory</th>"
	      "<th class=\"l\">kernel</th><th class=\"l\">OS</th><th class=\"l\">nvscope</th>"
	      "<th class=\"l\">CPU power</th></tr>"
	      "<tr>",
	      f);
	cell(f, str_of(tb, "cpu_model"));
	num_cell(f, num_of(tb, "cpus"), 1, "<td>%.0f</td>");
	num_cell(f, num_of(tb, "memory_bytes"), 1073741824.0, "<td>%.1f GiB</td>");
	cell(f, str_of(tb, "kernel"));
	cell(f, str_of(tb, "os"));
	cell(f, str_of(tb, "nvscope_version"));
	power_cell(f, cJSON_GetObjectItem(tb, "cpu_power"));
	fputs("</tr></table><p class=\"cmdline\">command line: <code>", f);
	esc(f, str_of(tb, "command_line") ? str_of(tb, "command_line") : "unknown");
	fputs("</code></p>", f);
	drives_table(f, cJSON_GetObjectItem(tb, "drives"));
	health_table(f, cJSON_GetObjectItem(tb, "drives"));
	fputs("</div>", f);
}

/* "30 s", "30 min", "0.5 s" */
static void duration(FILE *f, double s)
{
	if (s >= 60 && fmod(s, 60) == 0)
		fprintf(f, "%g min", s / 60);
	else
		fprintf(f, "%g s", s);
}

/* One "name value" item of the as-run line, marked when @key was overridden. */
static void item(FILE *f, const cJSON *meta, const char *key, const char *name, double v, bool dur,
		 bool *first)
{
	if (isnan(v))
		return;
	fputs(*first ? "" : " &middot; ", f);
	*first = false;
	fprintf(f, "%s ", name);
	if (dur)
		duration(f, v);
	else
		fprintf(f, "%g", v);
	const cJSON *o = key ? override_of(meta, key) : NULL;
	if (o) {
		fputs(" <span class=\"override\">(override --", f);
		esc(f, o->string);
		fputs("=", f);
		esc(f, o->valuestring);
		fputs(")</span>", f);
	}
}

void bedhtml_asrun(FILE *f, const void *step, const void *meta_v, const char *label)
{
	const cJSON *st = step, *meta = meta_v, *q;
	bool first = true;
	if (!cJSON_IsObject(st) || !cJSON_GetObjectItem(st, "iodepth"))
		return; /* a purge, or a step.json written before these keys */
	fputs("<p class=\"asrun\">", f);
	if (label) {
		esc(f, label);
		fputs(": ", f);
	}
	fputs("as run: ", f);
	if (cJSON_GetArraySize(cJSON_GetObjectItem(st, "iodepth")) > 0) {
		fputs("QD ", f);
		bool comma = false;
		cJSON_ArrayForEach(q, cJSON_GetObjectItem(st, "iodepth"))
		{
			if (!cJSON_IsNumber(q) || !isfinite(q->valuedouble))
				continue;
			fprintf(f, "%s%g", comma ? "," : "", q->valuedouble);
			comma = true;
		}
		const cJSON *o = override_of(meta, "iodepth");
		if (o) {
			fputs(" <span class=\"override\">(override --iodepth=", f);
			esc(f, o->valuestring);
			fputs(")</span>", f);
		}
		first = false;
	}
	if (str_of(st, "bssplit")) {
		fputs(" &middot; bssplit ", f);
		esc(f, str_of(st, "bssplit"));
		first = false;
	}
	item(f, meta, "runtime", "runtime", num_of(st, "runtime_s"), true, &first);
	item(f, meta, "ramp_time", "ramp", num_of(st, "ramp_s"), true, &first);
	item(f, meta, "round", "round", num_of(st, "round_s"), true, &first);
	item(f, meta, "max_rounds", "max rounds", num_of(st, "max_rounds"), false, &first);
	double passes = num_of(st, "passes");
	const cJSON *fo = override_of(meta, "fill");
	item(f, meta, fo ? "fill" : "passes", "fill passes", passes, false, &first);
	if (!isnan(num_of(st, "stripe")))
		fprintf(f, " &middot; stripe %g KiB", num_of(st, "stripe") / 1024);
	fputs("</p>\n", f);
}

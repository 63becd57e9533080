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

static void drives_table(FILE *f, const cJSON *drives)
{
	const cJSON *d;
	fputs("<table class=\"testbed-drives\"><tr><th class=\"l\">target</th><th "
	      "class=\"l\">kind</th><th class=\"l\">model</th><th class=\"l\">serial</th><th "
	      "class=\"l\">firmware</th><th>capacity</th><th>LBA size</th></tr>",
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
		fputs("</tr>", f);
	}
	fputs("</table>", f);
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
	      "<th class=\"l\">kernel</th><th class=\"l\">OS</th><th class=\"l\">nvscope</th></tr>"
	      "<tr>",
	      f);
	cell(f, str_of(tb, "cpu_model"));
	num_cell(f, num_of(tb, "cpus"), 1, "<td>%.0f</td>");
	num_cell(f, num_of(tb, "memory_bytes"), 1073741824.0, "<td>%.1f GiB</td>");
	cell(f, str_of(tb, "kernel"));
	cell(f, str_of(tb, "os"));
	cell(f, str_of(tb, "nvscope_version"));
	fputs("</tr></table><p class=\"cmdline\">command line: <code>", f);
	esc(f, str_of(tb, "command_line") ? str_of(tb, "command_line") : "unknown");
	fputs("</code></p>", f);
	drives_table(f, cJSON_GetObjectItem(tb, "drives"));
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

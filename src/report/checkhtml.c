/* checkhtml.c - the drive check's section of the HTML report (see
 * checkhtml.h): summary.json's "drives" array, one row each. */
#include "report/checkhtml.h"

#include <stdint.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "base/num.h"
#include "report/rtable.h"
#include "report/svg.h"
#include "report/resnames.h"

static const char *jstr(const cJSON *o, const char *key)
{
	const cJSON *x = cJSON_GetObjectItem(o, key);
	return cJSON_IsString(x) && x->valuestring ? x->valuestring : "";
}

bool checkhtml_is_check(const void *meta)
{
	return !strcmp(jstr(meta, "command"), "check");
}

/* A td of escaped text ("-" when empty). */
static void td(FILE *f, const char *s)
{
	fputs("<td class=\"l\">", f);
	svg_escape(f, *s ? s : "-");
	fputs("</td>", f);
}

/* The verdict as one of the four names (anything else is "?") and its class. */
static const char *verdict(const cJSON *d, const char **cls)
{
	static const char *const names[] = {"PASS", "WARN", "FAIL", "N/A"};
	static const char *const classes[] = {"ok", "warn", "fail", "na"};
	const char *v = jstr(d, "verdict");

	for (unsigned i = 0; i < NVS_ARRAY_SIZE(names); i++)
		if (!strcmp(v, names[i])) {
			*cls = classes[i];
			return names[i];
		}
	*cls = "na";
	return "?";
}

static void capacity(FILE *f, const cJSON *d)
{
	static const char *const u[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
	const cJSON *x = cJSON_GetObjectItem(d, "capacity_bytes");
	uint64_t b;

	if (!cJSON_IsNumber(x) || num_to_u64(x->valuedouble, UINT64_MAX, &b)) {
		fputs("<td>-</td>", f);
		return;
	}
	double v = (double)b;
	unsigned i = 0;
	while (v >= 1000 && i + 1 < NVS_ARRAY_SIZE(u)) {
		v /= 1000;
		i++;
	}
	fprintf(f, i ? "<td>%.1f %s</td>" : "<td>%.0f %s</td>", v, u[i]);
}

static void reasons(FILE *f, const cJSON *d)
{
	const cJSON *r;
	bool any = false;

	fputs("<td class=\"l\">", f);
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(d, "reasons"))
	{
		if (!cJSON_IsString(r) || !r->valuestring)
			continue;
		if (any)
			fputs("; ", f);
		svg_escape(f, r->valuestring);
		any = true;
	}
	fputs(any ? "</td>" : "-</td>", f);
}

void checkhtml_section(FILE *f, const char *dir, const char *label)
{
	cJSON *s = rtab_json(dir, NULL, RESDIR_SUMMARY);
	const cJSON *drives = cJSON_GetObjectItem(s, "drives"), *d;

	fputs("<h2 class=\"check\">Drive check: ", f);
	svg_escape(f, label);
	fputs("</h2>\n", f);
	if (!cJSON_IsArray(drives)) {
		fputs("<p class=\"warn\">no readable summary.json (check not finished?)</p>\n", f);
		cJSON_Delete(s);
		return;
	}
	fputs("<p>profile ", f);
	svg_escape(f, *jstr(s, "profile") ? jstr(s, "profile") : "?");
	if (cJSON_IsTrue(cJSON_GetObjectItem(s, "interrupted")))
		fputs(" <span class=\"warn\">(interrupted)</span>", f);
	fputs("</p>\n<table class=\"check\"><tr><th class=\"l\">serial</th>"
	      "<th class=\"l\">device</th><th class=\"l\">model</th><th class=\"l\">firmware</th>"
	      "<th>capacity</th><th class=\"l\">verdict</th><th class=\"l\">reasons</th></tr>\n",
	      f);
	cJSON_ArrayForEach(d, drives)
	{
		if (!cJSON_IsObject(d))
			continue;
		const char *cls, *v = verdict(d, &cls);
		fputs("<tr class=\"drive\">", f);
		td(f, jstr(d, "serial"));
		td(f, jstr(d, "device"));
		td(f, jstr(d, "model"));
		td(f, jstr(d, "firmware"));
		capacity(f, d);
		fprintf(f, "<td class=\"l verdict %s\">%s</td>", cls, v);
		reasons(f, d);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	cJSON_Delete(s);
}

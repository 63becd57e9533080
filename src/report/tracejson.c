/* tracejson.c - see tracejson.h. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/tracejson.h"

static void lag_obj(cJSON *o, const struct hist *h, uint64_t issued, uint64_t late)
{
	cJSON *l = cJSON_AddObjectToObject(o, "lag_us");
	cJSON_AddNumberToObject(l, "p50", h->n ? (double)hist_percentile(h, 50) / 1e3 : 0);
	cJSON_AddNumberToObject(l, "p99", h->n ? (double)hist_percentile(h, 99) / 1e3 : 0);
	cJSON_AddNumberToObject(l, "max", h->n ? (double)h->max / 1e3 : 0);
	cJSON_AddNumberToObject(l, "mean", h->n ? hist_mean(h) / 1e3 : 0);
	cJSON_AddNumberToObject(o, "late", (double)late);
	cJSON_AddNumberToObject(o, "late_pct", issued ? 100.0 * (double)late / (double)issued : 0);
}

char *tracejson_build(const struct spec *s, const struct trace *t, const struct result *res,
		      const struct replay_stats *const *ts, unsigned n)
{
	cJSON *o = cJSON_CreateObject();
	struct hist *all = calloc(1, sizeof(*all));
	uint64_t issued = 0, late = 0, skipped = 0;
	char *txt = NULL;

	if (!o || !all)
		goto out;
	hist_init(all);
	cJSON_AddStringToObject(o, "file", t->path);
	cJSON_AddStringToObject(o, "format", trace_fmt_name(t->fmt));
	cJSON_AddNumberToObject(o, "ios", (double)t->n);
	cJSON_AddNumberToObject(o, "reads", (double)t->nops[TRACE_READ]);
	cJSON_AddNumberToObject(o, "writes", (double)t->nops[TRACE_WRITE]);
	cJSON_AddNumberToObject(o, "trims", (double)t->nops[TRACE_TRIM]);
	cJSON_AddNumberToObject(o, "syncs", (double)t->nops[TRACE_SYNC]);
	cJSON_AddBoolToObject(o, "timed", t->timed && !s->replay.no_stall);
	cJSON_AddNumberToObject(o, "replay_time_scale", s->replay.time_scale);
	cJSON_AddNumberToObject(o, "replay_scale", (double)s->replay.scale);
	cJSON_AddNumberToObject(o, "replay_align", s->replay.align);
	cJSON_AddNumberToObject(o, "copies", n);
	cJSON_AddNumberToObject(o, "stagger_ms", (double)s->replay.stagger_ns / 1e6);
	cJSON_AddNumberToObject(o, "late_threshold_us", REPLAY_LATE_NS / 1000.0);
	cJSON *pc = cJSON_AddArrayToObject(o, "per_copy");
	for (unsigned i = 0; i < n; i++) {
		cJSON *c = cJSON_CreateObject();
		cJSON_AddItemToArray(pc, c);
		cJSON_AddNumberToObject(c, "copy", i);
		cJSON_AddNumberToObject(c, "issued", (double)ts[i]->issued);
		cJSON_AddNumberToObject(c, "skipped", (double)ts[i]->skipped);
		cJSON_AddNumberToObject(c, "read_iops", result_iops(&res[i], NVS_READ));
		cJSON_AddNumberToObject(c, "write_iops", result_iops(&res[i], NVS_WRITE));
		cJSON_AddNumberToObject(c, "read_bw_bytes", result_bw(&res[i], NVS_READ));
		cJSON_AddNumberToObject(c, "write_bw_bytes", result_bw(&res[i], NVS_WRITE));
		cJSON_AddNumberToObject(c, "runtime_s", res[i].runtime_s);
		for (int d = 0; d < NVS_TRIM; d++) { /* data I/O's latency */
			const struct hist *h = &res[i].dir[d].lat;
			cJSON_AddNumberToObject(
			    c, d == NVS_READ ? "read_lat_mean_us" : "write_lat_mean_us",
			    h->n ? hist_mean(h) / 1e3 : 0);
		}
		lag_obj(c, &ts[i]->lag, ts[i]->issued, ts[i]->late);
		hist_merge(all, &ts[i]->lag);
		issued += ts[i]->issued;
		late += ts[i]->late;
		skipped += ts[i]->skipped;
	}
	cJSON_AddNumberToObject(o, "issued", (double)issued);
	cJSON_AddNumberToObject(o, "skipped", (double)skipped);
	lag_obj(o, all, issued, late);
	txt = cJSON_PrintUnformatted(o);
out:
	cJSON_Delete(o);
	free(all);
	return txt;
}

void tracejson_line(const struct trace *t, const struct replay_stats *const *ts, unsigned n,
		    bool timed, char *buf, size_t len)
{
	struct hist *all = calloc(1, sizeof(*all));
	uint64_t issued = 0, late = 0, skipped = 0;

	if (!all) {
		snprintf(buf, len, "trace: out of memory");
		return;
	}
	hist_init(all);
	for (unsigned i = 0; i < n; i++) {
		hist_merge(all, &ts[i]->lag);
		issued += ts[i]->issued;
		late += ts[i]->late;
		skipped += ts[i]->skipped;
	}
	if (timed && all->n)
		snprintf(
		    buf, len,
		    "trace: %s (%s), %u cop%s, %llu I/Os issued (trims and syncs too), %llu "
		    "not replayed; lag behind schedule p50 %.0f us p99 %.0f us; %.2f%% late "
		    "(> %llu us)",
		    t->path, trace_fmt_name(t->fmt), n, n == 1 ? "y" : "ies",
		    (unsigned long long)issued, (unsigned long long)skipped,
		    (double)hist_percentile(all, 50) / 1e3, (double)hist_percentile(all, 99) / 1e3,
		    issued ? 100.0 * (double)late / (double)issued : 0,
		    (unsigned long long)(REPLAY_LATE_NS / 1000));
	else
		snprintf(
		    buf, len,
		    "trace: %s (%s), %u cop%s, %llu I/Os issued (trims and syncs too), %llu "
		    "not replayed; untimed (as fast as the queue depth allows)",
		    t->path, trace_fmt_name(t->fmt), n, n == 1 ? "y" : "ies",
		    (unsigned long long)issued, (unsigned long long)skipped);
	free(all);
}

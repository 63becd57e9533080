/* results.c - fuzzes the readers of a results directory other than
 * state.json's resume: the input is written as summary.json (replay's QD
 * table), state.json (the console's plan view), steady.json and rounds.csv
 * (the steady-state display of a plan step), health.csv, events.log (step
 * markers) and the step's samples.csv and qd.csv, then each reader runs on
 * the directory, and the console's source opens it and is read through
 * (summary.json also as a check's, rendered by the HTML report's check
 * section; and as the step's qd1.json, whose latency bins the report's QoS
 * reads back: qos.c, qoshtml.c; its per-target figures: drives.c; its
 * read and write figures and the rate curve's charts: rwhtml.c); and as
 * meta.json and step.json, the report's test bed, overrides and "as run"
 * line (bedhtml.c). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz.h"
#include "report/bedhtml.h"
#include "report/checkhtml.h"
#include "report/drives.h"
#include "report/heat.h"
#include "report/json.h"
#include "report/qos.h"
#include "report/qoshtml.h"
#include "report/rtable.h"
#include "report/rwhtml.h"
#include "run/dirread.h"
#include "run/planview.h"
#include "run/replay.h"
#include "run/source.h"
#include "run/stepmarks.h"

static const char plan_ini[] = "[plan]\nname=fuzz\n[measure qd]\niodepth=1,2\nruntime=1\n";

/* The console's source of @dir read as the console reads it. */
static void read_source(const char *dir)
{
	struct source src;
	struct source_info in;
	struct source_mark mk[SOURCE_MAX_MARKS];
	struct resdir_row q;
	const struct source_health *hp;
	char err[512];
	int cur;
	if (source_open(dir, &src, err, sizeof(err)))
		return;
	for (int k = 0; k < 3; k++) {
		src.ops->poll(src.ctx, 1e6);
		src.ops->info(src.ctx, &in);
		src.ops->series(src.ctx, -1);
		int n = src.ops->nrows(src.ctx, &cur);
		for (int i = 0; i < n; i++)
			src.ops->row(src.ctx, (unsigned)i, &q);
		src.ops->marks(src.ctx, mk, SOURCE_MAX_MARKS);
		src.ops->health(src.ctx, &hp);
		if (src.ops->run_pct)
			for (int d = -1; d < 2; d++)
				(void)src.ops->run_pct(src.ctx, d, d < 0 ? 99.99 : 99);
		struct source_event ev;
		while (src.ops->event(src.ctx, &ev))
			;
	}
	source_free(&src);
}

#define QOS_STEP "02-measure-qos"
static const char qos_csv[] = "qd,iops,lat_p99_us\n1,100,20\n";

/* The report's QoS of the step: its qd.csv rows' qdN.json (the input). */
static void qos_read(const char *dir, const char *step)
{
	static FILE *devnull;
	char path[700];
	struct rtab t;
	struct qos_rows q;
	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	snprintf(path, sizeof(path), "%s/%s/qd.csv", dir, step);
	if (rtab_read(path, &t))
		return;
	if (!qoshtml_load(dir, step, "measure", &t, &q)) {
		for (size_t r = 0; r < q.n; r++)
			qoshtml_cells(devnull, &q, r);
		qoshtml_charts(devnull, dir, step, "measure", &t, &q);
		qoshtml_free(&q);
	}
	drives_step(devnull, dir, step, "measure", &t, NULL, NULL, "fuzz", 0);
	struct rw_rows rw;
	if (!rwhtml_load(dir, step, "measure", &t, &rw)) {
		struct rwhtml_drive d = {.label = "fuzz", .color = "#000", .t = &t, .rw = &rw};
		rwhtml_table(devnull, &d, 1, "measure");
		rwhtml_rate_charts(devnull, &d, 1, rw.mixed);
		heat_grid(devnull, &t, &rw); /* a qd.csv with threads and qd columns: a grid */
		rwhtml_free(&rw);
	}
	rtab_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	static char step[256];
	char err[512], path[700];
	struct planview *v;

	if (size > 1 << 16)
		return -1;
	const char *dir = fuzz_dir();
	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		if (!devnull)
			abort();
		fuzz_put("plan.ini", (const uint8_t *)plan_ini, sizeof(plan_ini) - 1);
		if (planview_new(dir, &v, err, sizeof(err)))
			abort();
		planview_poll(v);
		snprintf(step, sizeof(step), "%s", planview_step_dir(v) + strlen(dir) + 1);
		planview_free(v);
		snprintf(path, sizeof(path), "%s/%s", dir, step);
		if (mkdir(path, 0700))
			abort();
		/* a step whose qd.csv names qd1.json: the input as that JSON */
		snprintf(path, sizeof(path), "%s/%s", dir, QOS_STEP);
		if (mkdir(path, 0700))
			abort();
		fuzz_put(QOS_STEP "/qd.csv", (const uint8_t *)qos_csv, sizeof(qos_csv) - 1);
	}
	fuzz_put("summary.json", data, size);
	fuzz_put("state.json", data, size);
	fuzz_put("steady.json", data, size);
	fuzz_put("rounds.csv", data, size);
	fuzz_put("health.csv", data, size);
	fuzz_put("events.log", data, size);
	snprintf(path, sizeof(path), "%s/samples.csv", step);
	fuzz_put(path, data, size);
	snprintf(path, sizeof(path), "%s/qd.csv", step);
	fuzz_put(path, data, size);
	snprintf(path, sizeof(path), "%s/qd1.json", step);
	fuzz_put(path, data, size);
	fuzz_put(QOS_STEP "/qd1.json", data, size);

	struct resdir_row *rows = NULL;
	if (replay_qd_rows(dir, &rows, err, sizeof(err)) >= 0)
		free(rows);
	if (!planview_new(dir, &v, err, sizeof(err))) {
		int n;
		planview_poll(v);
		planview_rows(v, &n);
		planview_series(v);
		planview_name(v);
		planview_free(v);
	}
	struct rounds r = {0};
	struct steady_params sp;
	steady_params_init(&sp);
	dirread_rounds(dir, &r);
	dirread_rule(dir, &sp);
	rounds_release(&r);
	struct source_health *hp;
	size_t nhp;
	if (!dirread_health(dir, &hp, &nhp))
		free(hp);
	struct source_mark mk[SOURCE_MAX_MARKS];
	stepmarks_read(dir, mk, SOURCE_MAX_MARKS);
	dirread_plan_finished(dir);
	read_source(dir);
	cJSON_Delete(rtab_json(dir, NULL, "summary.json"));
	qos_read(dir, step);
	qos_read(dir, QOS_STEP);
	checkhtml_section(devnull, dir, "fuzz");
	/* the input as meta.json and step.json: the report's test bed (the
	 * machine, its CPU power policy, the drives), overrides, "as run" */
	cJSON *meta = cJSON_ParseWithLength((const char *)data, size);
	if (meta) {
		bedhtml_testbed(devnull, meta, "fuzz");
		bedhtml_overrides(devnull, meta);
		bedhtml_asrun(devnull, meta, meta, "fuzz");
		cJSON_Delete(meta);
	}
	return 0;
}

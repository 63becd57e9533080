/* results.c - fuzzes the readers of a results directory other than
 * state.json's resume: the input is written as summary.json (replay's QD
 * table), state.json (the console's plan view), steady.json and rounds.csv
 * (the steady-state display of a plan step) and the step's samples.csv and
 * qd.csv, then each reader runs on the directory (summary.json also as a
 * check's, rendered by the HTML report's check section). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz.h"
#include "report/checkhtml.h"
#include "report/json.h"
#include "report/rtable.h"
#include "ui/app.h"
#include "run/planview.h"
#include "run/replay.h"

static const char plan_ini[] = "[plan]\nname=fuzz\n[measure qd]\niodepth=1,2\nruntime=1\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct app *app;
	static FILE *devnull;
	static char step[256];
	char err[512], path[700];
	struct planview *v;

	if (size > 1 << 16)
		return -1;
	const char *dir = fuzz_dir();
	if (!app) {
		app = calloc(1, sizeof(*app));
		devnull = fopen("/dev/null", "w");
		if (!app || !devnull)
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
	}
	fuzz_put("summary.json", data, size);
	fuzz_put("state.json", data, size);
	fuzz_put("steady.json", data, size);
	fuzz_put("rounds.csv", data, size);
	snprintf(path, sizeof(path), "%s/samples.csv", step);
	fuzz_put(path, data, size);
	snprintf(path, sizeof(path), "%s/qd.csv", step);
	fuzz_put(path, data, size);

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
	steady_params_init(&app->ss);
	app->ss_given = false;
	steady_load_plan(app, dir);
	rounds_release(&app->prounds);
	memset(&app->prounds, 0, sizeof(app->prounds));
	cJSON_Delete(rtab_json(dir, NULL, "summary.json"));
	checkhtml_section(devnull, dir, "fuzz");
	return 0;
}

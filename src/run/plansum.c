/* plansum.c - summary.json of a measure step: the fio-layout "jobs" of its
 * per-QD files (qd1.json, qd2.json ...) gathered into one document, one job
 * per QD in order - the layout `nvscope run` writes for a QD sweep, so the
 * console's `nvscope replay STEPDIR` shows the step with its per-QD table.
 * Built from the files (not from memory) so that a resumed step, whose
 * first QDs ran in another process, is summarized whole. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "run/planrun.h"
#include "dev/safety.h"
#include "report/json.h"
#include "report/rtable.h"
#include "run/resdir.h"

int planrun_summary(const char *dir, const unsigned *qd, unsigned n)
{
	cJSON *doc = NULL, *jobs = NULL;
	int rc = 0;
	for (unsigned i = 0; i < n; i++) {
		char name[32];
		snprintf(name, sizeof(name), RESDIR_QD_JSON_FMT, qd[i]);
		cJSON *o = rtab_json(dir, NULL, name);
		cJSON *oj = o ? cJSON_GetObjectItem(o, "jobs") : NULL;
		if (!cJSON_IsArray(oj)) {
			cJSON_Delete(o);
			continue;
		}
		if (!doc) { /* the first file gives the header keys */
			doc = o;
			jobs = oj;
			continue;
		}
		cJSON *j;
		while ((j = cJSON_DetachItemFromArray(oj, 0)))
			cJSON_AddItemToArray(jobs, j);
		/* drops add up over the files */
		cJSON *nd = cJSON_GetObjectItem(doc, "nvscope"),
		      *no = cJSON_GetObjectItem(o, "nvscope");
		cJSON *d0 = cJSON_GetObjectItem(nd, "dropped_samples");
		cJSON *d1 = cJSON_GetObjectItem(no, "dropped_samples");
		if (cJSON_IsNumber(d0) && cJSON_IsNumber(d1))
			cJSON_SetNumberValue(d0, d0->valuedouble + d1->valuedouble);
		cJSON_Delete(o);
	}
	if (!doc)
		return -ENOENT;
	char *text = json_print(doc);
	size_t len = text ? strlen(text) : 0;
	char *buf = text ? realloc(text, len + 2) : NULL;
	if (!buf) {
		free(text);
		rc = -ENOMEM;
	} else {
		/* atomically, in the checked results directory (safety_out.c) */
		memcpy(buf + len, "\n", 2);
		rc = safety_replace_in(dir, RESDIR_SUMMARY, buf, len + 1, NULL, 0);
		free(buf);
	}
	cJSON_Delete(doc);
	return rc;
}

/* planstate.c - state.json of a plan run: where to continue (step, progress
 * in it, the values a step carries between measurements, the checkpointed
 * lengths of its CSV files) and the command line it ran with (targets,
 * overrides, confirmation), written atomically (tmp file, fsync, rename) so
 * a crash leaves either the old or the new state. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "base/num.h"
#include "run/planrun.h"
#include "dev/safety.h"
#include "report/json.h"
#include "run/resdir.h"

int planrun_save(const struct planrun *r)
{
	const struct planrun_state *s = &r->st;
	int rc;
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return -ENOMEM;
	cJSON_AddNumberToObject(o, "version", 1);
	cJSON_AddStringToObject(o, "plan", r->plan->name);
	cJSON *t = cJSON_AddArrayToObject(o, "targets");
	for (unsigned i = 0; i < r->ntargets; i++)
		cJSON_AddItemToArray(t, cJSON_CreateString(r->targets[i]));
	cJSON_AddNumberToObject(o, "stripe", (double)r->stripe);
	cJSON_AddBoolToObject(o, "force_destroy", r->force);
	cJSON_AddStringToObject(o, "confirm", r->confirm ? r->confirm : "");
	cJSON *ov = cJSON_AddArrayToObject(o, "overrides");
	for (unsigned i = 0; i < r->noverrides; i++) {
		cJSON *pair = cJSON_CreateArray();
		cJSON_AddItemToArray(pair, cJSON_CreateString(r->overrides[i][0]));
		cJSON_AddItemToArray(pair, cJSON_CreateString(r->overrides[i][1]));
		cJSON_AddItemToArray(ov, pair);
	}
	cJSON_AddNumberToObject(o, "step", s->step);
	cJSON_AddNumberToObject(o, "nsteps", r->plan->nsteps);
	cJSON_AddNumberToObject(o, "sub", s->sub);
	cJSON_AddNumberToObject(o, "t_offset", s->t_offset);
	cJSON *v = cJSON_AddArrayToObject(o, "values");
	for (unsigned i = 0; i < s->nvalues; i++)
		cJSON_AddItemToArray(v, cJSON_CreateNumber(s->values[i]));
	cJSON_AddNumberToObject(o, "max_iops", s->max_iops);
	if (s->cur_track_valid)
		cJSON_AddNumberToObject(o, "cur_track", s->cur_track);
	else
		cJSON_AddNullToObject(o, "cur_track");
	cJSON *sz = cJSON_AddArrayToObject(o, "sizes");
	for (int i = 0; i < 3; i++)
		cJSON_AddItemToArray(sz, cJSON_CreateNumber((double)s->sizes[i]));
	cJSON_AddNumberToObject(o, "step_started", s->started);
	cJSON_AddBoolToObject(o, "finished", s->step >= r->plan->nsteps);
	char *text = json_print(o);
	cJSON_Delete(o);
	if (!text)
		return -ENOMEM;
	/* a fresh temporary file (O_EXCL) renamed over state.json, in the
	 * checked results directory (safety_out.c) */
	size_t len = strlen(text);
	char *buf = realloc(text, len + 2);
	if (!buf) {
		free(text);
		return -ENOMEM;
	}
	memcpy(buf + len, "\n", 2);
	rc = safety_replace_in(r->dir, RESDIR_STATE, buf, len + 1, NULL, 0);
	free(buf);
	return rc;
}

/* The run in state.json @o: its targets (each used whole or the file is
 * refused: never cut or skipped), stripe, force, plan name and overrides.
 * 0, or -EINVAL with @err. */
static int load_run(struct planrun *r, const cJSON *o, const char *path, char *err, size_t errlen)
{
	const cJSON *x;
	r->ntargets = 0;
	cJSON_ArrayForEach(x, cJSON_GetObjectItem(o, "targets"))
	{
		if (!cJSON_IsString(x) || r->ntargets >= NVS_MAX_TARGETS ||
		    strlen(x->valuestring) >= sizeof(r->targets[0])) {
			snprintf(err, errlen, "%s: a target is not a path of at most %zu bytes",
				 path, sizeof(r->targets[0]) - 1);
			return -EINVAL;
		}
		snprintf(r->targets[r->ntargets++], sizeof(r->targets[0]), "%s", x->valuestring);
	}
	uint64_t u64;
	x = cJSON_GetObjectItem(o, "stripe");
	r->stripe = 0;
	if (x && (!cJSON_IsNumber(x) || num_to_u64(x->valuedouble, 1u << 20, &u64))) {
		snprintf(err, errlen, "%s: stripe out of range", path);
		return -EINVAL;
	}
	if (x)
		r->stripe = u64;
	r->force = cJSON_IsTrue(cJSON_GetObjectItem(o, "force_destroy"));
	x = cJSON_GetObjectItem(o, "plan");
	if (cJSON_IsString(x) && strlen(x->valuestring) >= sizeof(r->plan_name)) {
		snprintf(err, errlen, "%s: plan name too long", path);
		return -EINVAL;
	}
	snprintf(r->plan_name, sizeof(r->plan_name), "%s", cJSON_IsString(x) ? x->valuestring : "");
	r->noverrides = 0;
	cJSON_ArrayForEach(x, cJSON_GetObjectItem(o, "overrides"))
	{
		const cJSON *k = cJSON_GetArrayItem(x, 0), *v = cJSON_GetArrayItem(x, 1);
		if (!cJSON_IsString(k) || !cJSON_IsString(v) || r->noverrides >= 32 ||
		    strlen(k->valuestring) >= 128 || strlen(v->valuestring) >= 128) {
			snprintf(err, errlen, "%s: bad override", path);
			return -EINVAL;
		}
		snprintf(r->overrides[r->noverrides][0], 128, "%s", k->valuestring);
		snprintf(r->overrides[r->noverrides][1], 128, "%s", v->valuestring);
		r->noverrides++;
	}
	return 0;
}

/* Where the plan was in state.json @o: step and sub-step (@step, @sub:
 * numbers), the time offset, the rate tracked, the sizes and the values
 * saved.  0, or -EINVAL / -ENOMEM with @err. */
static int load_position(struct planrun_state *s, const cJSON *o, const cJSON *step,
			 const cJSON *sub, const char *path, char *err, size_t errlen)
{
	const cJSON *x;
	uint64_t stepn, subn;
	memset(s, 0, sizeof(*s));
	if (num_to_u64(step->valuedouble, 1000000, &stepn) ||
	    num_to_u64(sub->valuedouble, 1000000000, &subn)) {
		snprintf(err, errlen, "%s: step/sub out of range", path);
		return -EINVAL;
	}
	s->step = (unsigned)stepn;
	s->sub = (unsigned)subn;
	s->t_offset = cJSON_GetNumberValue(cJSON_GetObjectItem(o, "t_offset"));
	if (!isfinite(s->t_offset))
		s->t_offset = 0;
	s->max_iops = cJSON_GetNumberValue(cJSON_GetObjectItem(o, "max_iops"));
	if (!isfinite(s->max_iops))
		s->max_iops = 0;
	x = cJSON_GetObjectItem(o, "cur_track");
	s->cur_track_valid = cJSON_IsNumber(x) && isfinite(x->valuedouble);
	s->cur_track = s->cur_track_valid ? x->valuedouble : 0;
	s->started = cJSON_GetNumberValue(cJSON_GetObjectItem(o, "step_started"));
	for (int i = 0; i < 3; i++) {
		int64_t sz = -1;
		x = cJSON_GetArrayItem(cJSON_GetObjectItem(o, "sizes"), i);
		if (cJSON_IsNumber(x) && num_to_i64(x->valuedouble, -1, LONG_MAX, &sz)) {
			snprintf(err, errlen, "%s: sizes out of range", path);
			return -EINVAL;
		}
		s->sizes[i] = (long)sz;
	}
	const cJSON *v = cJSON_GetObjectItem(o, "values");
	int nv = cJSON_GetArraySize(v);
	if (nv > 0) {
		s->values = calloc((size_t)nv, sizeof(double));
		if (!s->values) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		cJSON_ArrayForEach(x, v)
		{
			/* null (a NaN when saved) and what cJSON read as inf: NaN */
			double d = cJSON_GetNumberValue(x);
			s->values[s->nvalues++] = isfinite(d) ? d : NAN;
		}
	}
	return 0;
}

int planrun_load(struct planrun *r, const char *dir, char *err, size_t errlen)
{
	char path[1100];
	snprintf(path, sizeof(path), "%s/" RESDIR_STATE, dir);
	errno = 0;
	cJSON *o = json_read_file(path);
	if (!o) {
		int e = errno ? errno : EIO;
		snprintf(err, errlen, "%s: %s", path, e == EINVAL ? "not valid JSON" : strerror(e));
		if (e != EINVAL)
			snprintf(err + strlen(err), errlen - strlen(err),
				 " (not a plan results directory?)");
		return -e;
	}
	int rc = -EINVAL;
	const cJSON *t = cJSON_GetObjectItem(o, "targets");
	const cJSON *step = cJSON_GetObjectItem(o, "step"), *sub = cJSON_GetObjectItem(o, "sub");
	if (!cJSON_IsArray(t) || !cJSON_IsNumber(step) || !cJSON_IsNumber(sub)) {
		snprintf(err, errlen, "%s: missing targets/step/sub", path);
		goto out_json;
	}
	if ((rc = load_run(r, o, path, err, errlen)) ||
	    (rc = load_position(&r->st, o, step, sub, path, err, errlen)))
		goto out_json;
	const cJSON *c = cJSON_GetObjectItem(o, "confirm");
	static char confirm[1024];
	if (cJSON_IsString(c) && strlen(c->valuestring) >= sizeof(confirm)) {
		snprintf(err, errlen, "%s: confirm too long", path);
		rc = -EINVAL;
		goto out_json;
	}
	snprintf(confirm, sizeof(confirm), "%s", cJSON_IsString(c) ? c->valuestring : "");
	r->confirm = confirm;
	rc = 0;
out_json:
	cJSON_Delete(o);
	return rc;
}

/* state.c - state.json of a check batch (see state.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "check/resdir.h"
#include "check/state.h"
#include "dev/safety.h"
#include "report/json.h"
#include "report/resnames.h"

#define STATE_VERSION 1

static char *to_hex(const void *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	const unsigned char *b = p;
	char *s = malloc(2 * len + 1);

	if (!s)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		s[2 * i] = digits[b[i] >> 4];
		s[2 * i + 1] = digits[b[i] & 15];
	}
	s[2 * len] = '\0';
	return s;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int from_hex(const char *s, void *p, size_t len)
{
	unsigned char *b = p;

	if (!s || strlen(s) != 2 * len)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		b[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

static void add_hex(cJSON *o, const char *k, const void *p, size_t len)
{
	char *h = to_hex(p, len);
	if (h)
		cJSON_AddStringToObject(o, k, h);
	free(h);
}

int check_state_save(const struct check_batch *b, const char *dir, const char *confirm, char *err,
		     size_t errlen)
{
	int rc;
	cJSON *o = cJSON_CreateObject();

	if (!o) {
		snprintf(err, errlen, "%s/state.json: out of memory", dir);
		return -ENOMEM;
	}
	cJSON_AddNumberToObject(o, "version", STATE_VERSION);
	cJSON_AddStringToObject(o, "nvscope_version", NVS_VERSION);
	cJSON *lay = cJSON_AddArrayToObject(o, "layout");
	cJSON_AddItemToArray(lay, cJSON_CreateNumber(sizeof(struct judge_input)));
	cJSON_AddItemToArray(lay, cJSON_CreateNumber(sizeof(b->d->res)));
	cJSON_AddStringToObject(o, "profile", b->prof->name);
	cJSON_AddNumberToObject(o, "next_step", b->next_step);
	int steps[3 + JUDGE_MAX_JOBS];
	cJSON_AddNumberToObject(o, "nsteps", check_steps(b->prof, steps));
	cJSON_AddBoolToObject(o, "force_destroy", b->force);
	cJSON_AddStringToObject(o, "confirm", confirm ? confirm : "");
	cJSON *arr = cJSON_AddArrayToObject(o, "drives");
	for (size_t i = 0; i < b->n; i++) {
		const struct check_drive *d = &b->d[i];
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "serial", d->serial);
		cJSON_AddStringToObject(x, "device", d->path);
		cJSON_AddNumberToObject(x, "started", d->started);
		add_hex(x, "findings", &d->in, sizeof(d->in));
		add_hex(x, "figures", d->res, sizeof(d->res));
		cJSON_AddItemToArray(arr, x);
	}
	char *text = json_print(o);
	cJSON_Delete(o);
	if (!text) {
		snprintf(err, errlen, "%s/state.json: out of memory", dir);
		return -ENOMEM;
	}
	size_t len = strlen(text);
	text[len] = '\n'; /* over the NUL: the file ends with a newline */
	/* a fresh temporary file renamed over state.json (safety module) */
	rc = safety_replace_in(dir, RESDIR_STATE, text, len + 1, err, errlen);
	free(text);
	if (rc)
		check_msg_in(dir, RESDIR_STATE, err, errlen);
	return rc;
}

/* @dir/state.json into @path (@len bytes): 0 or -ENAMETOOLONG. */
static int state_path(char *path, size_t len, const char *dir)
{
	int w = snprintf(path, len, "%s/state.json", dir);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *o, const char *k, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

/* The state saved before the first phase (the only one when every later
 * save failed: a full results filesystem) holds drives not yet set up:
 * check_run sets them up again at step 0, so that state resumes too. */
static bool fresh_drive(const struct check_batch *b, const struct judge_input *in)
{
	return b->next_step == 0 && in->njobs == 0;
}

int check_state_load(struct check_batch *b, const char *dir, struct check_drive *d, size_t max,
		     size_t *n, char *confirm, size_t confirm_len, char *err, size_t errlen)
{
	char path[CHECK_PATH_MAX];
	int steps[3 + JUDGE_MAX_JOBS], rc = -EINVAL;
	unsigned nsteps = check_steps(b->prof, steps);
	cJSON *o;

	*n = 0;
	if (state_path(path, sizeof(path), dir)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	o = json_read_file(path);
	if (!o) {
		rc = errno == ENOENT ? -ENOENT : -EINVAL;
		snprintf(err, errlen, "%s: %s", path,
			 rc == -ENOENT ? "no such file (not a check results directory?)"
				       : "not a valid state file");
		return rc;
	}
	const cJSON *lay = cJSON_GetObjectItemCaseSensitive(o, "layout");
	const char *ver = str(o, "nvscope_version");
	if (num(o, "version", 0) != STATE_VERSION || !ver || strcmp(ver, NVS_VERSION) ||
	    cJSON_GetArraySize(lay) != 2 ||
	    cJSON_GetArrayItem(lay, 0)->valuedouble != (double)sizeof(struct judge_input) ||
	    cJSON_GetArrayItem(lay, 1)->valuedouble != (double)sizeof(d->res)) {
		snprintf(err, errlen,
			 "%s: written by another nvscope build (%s): run the check again", path,
			 ver ? ver : "?");
		goto out;
	}
	double next = num(o, "next_step", -1);
	if (num(o, "nsteps", -1) != nsteps || next < 0 || next > nsteps || next != (unsigned)next) {
		snprintf(err, errlen, "%s: steps do not match %s/profile.ini", path, dir);
		goto out;
	}
	b->next_step = (unsigned)next;
	b->force = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "force_destroy"));
	const char *c = str(o, "confirm");
	if (!c || strlen(c) >= confirm_len) {
		snprintf(err, errlen, "%s: bad confirmation field", path);
		goto out;
	}
	snprintf(confirm, confirm_len, "%s", c);
	const cJSON *x, *arr = cJSON_GetObjectItemCaseSensitive(o, "drives");
	cJSON_ArrayForEach(x, arr)
	{
		const char *serial = str(x, "serial"), *dev = str(x, "device");
		if (*n == max || !serial || !dev || strlen(serial) >= sizeof(d->serial) ||
		    strlen(dev) >= sizeof(d->path)) {
			snprintf(err, errlen, "%s: bad drive entry", path);
			goto out;
		}
		struct check_drive *dd = &d[(*n)++];
		memset(dd, 0, sizeof(*dd));
		snprintf(dd->serial, sizeof(dd->serial), "%s", serial);
		snprintf(dd->path, sizeof(dd->path), "%s", dev);
		dd->started = num(x, "started", 0);
		if (from_hex(str(x, "findings"), &dd->in, sizeof(dd->in)) ||
		    from_hex(str(x, "figures"), dd->res, sizeof(dd->res)) ||
		    (dd->in.njobs != b->prof->njobs && !fresh_drive(b, &dd->in))) {
			snprintf(err, errlen, "%s: bad findings of %s", path, serial);
			goto out;
		}
		/* strings from the file end inside their buffers */
		dd->in.model[sizeof(dd->in.model) - 1] = '\0';
		dd->in.health_msg[sizeof(dd->in.health_msg) - 1] = '\0';
		dd->in.selftest_msg[sizeof(dd->in.selftest_msg) - 1] = '\0';
		for (unsigned j = 0; j < JUDGE_MAX_JOBS; j++) {
			dd->in.jobs[j].name[sizeof(dd->in.jobs[j].name) - 1] = '\0';
			dd->in.jobs[j].msg[sizeof(dd->in.jobs[j].msg) - 1] = '\0';
		}
	}
	if (!*n) {
		snprintf(err, errlen, "%s: no drives", path);
		goto out;
	}
	rc = 0;
out:
	cJSON_Delete(o);
	return rc;
}

int check_state_profile(const char *dir, char *buf, size_t len)
{
	char path[CHECK_PATH_MAX];
	int rc = -EINVAL;
	cJSON *o;

	if (state_path(path, sizeof(path), dir))
		return -ENAMETOOLONG;
	o = json_read_file(path);
	if (!o)
		return errno == ENOENT ? -ENOENT : -EINVAL;
	const char *p = str(o, "profile");
	if (p && strlen(p) < len && strlen(p) < 64) {
		snprintf(buf, len, "%s", p);
		rc = 0;
	}
	cJSON_Delete(o);
	return rc;
}

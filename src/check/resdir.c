/* resdir.c - a check's results directory (layout in docs/check.md): the
 * fixed files, meta.json, the summary and the per-serial verdicts; shared by
 * `nvscope check` and the console's check view.  Every file is written
 * through the safety module's output functions (docs/safety.md); a refused
 * or failed write is returned (-errno with a message), never ignored. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "dev/devmodel.h"
#include "dev/testbed.h"
#include "nvscope.h"
#include "check/out.h"
#include "check/resdir.h"
#include "dev/safety.h"
#include "report/json.h"
#include "report/resnames.h"

int check_default_dir(const char *profile, char *buf, size_t len)
{
	char ts[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d-%H%M%S", &tm);
	int w = snprintf(buf, len, "results/check-%s-%s", profile, ts);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

int check_results_dir(const char *path, bool create, char *err, size_t errlen)
{
	int fd = safety_results_dir(path, create, err, errlen);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

bool check_dir_empty(const char *path)
{
	/* what a check writes before its first state.json: a batch that never
	 * began (its first state met a full filesystem) is started again */
	static const char *const before[] = {".", "..", ".lock", "VERSION", RESDIR_CHECK_PROFILE};
	DIR *dd = opendir(path);
	struct dirent *e;
	bool empty = true;
	if (!dd)
		return true;
	while ((e = readdir(dd))) {
		size_t i = 0;
		while (i < sizeof(before) / sizeof(*before) && strcmp(e->d_name, before[i]))
			i++;
		if (i == sizeof(before) / sizeof(*before))
			empty = false;
	}
	closedir(dd);
	return empty;
}

void check_msg_in(const char *dir, const char *name, char *msg, size_t len)
{
	if (!msg || !len || strstr(msg, dir))
		return;
	char *m = strdup(msg);
	if (!m)
		return;
	if (!strncmp(m, name, strlen(name))) /* "NAME is a symbolic link..." */
		snprintf(msg, len, "%s/%s", dir, m);
	else
		snprintf(msg, len, "%s/%s: %s", dir, name, m);
	free(m);
}

/* The first error of a sequence of writes is the one reported: keeps @r
 * and its message @msg in *@rc and @err when none came before.  Returns @r. */
static int keep(int *rc, int r, const char *msg, char *err, size_t errlen)
{
	if (r && !*rc) {
		*rc = r;
		snprintf(err, errlen, "%s", msg);
	}
	return r;
}

/* Writes @dir/@name (opened by the output rule, safety_out.c) with @put;
 * 0, or -errno with the message in @err. */
static int write_file(const char *dir, const char *name, void (*put)(FILE *f, const void *arg),
		      const void *arg, char *err, size_t errlen)
{
	FILE *f = safety_fopen_in(dir, name, SAFETY_OUT_TRUNC, err, errlen);
	if (!f) {
		int rc = -errno;
		check_msg_in(dir, name, err, errlen);
		return rc;
	}
	put(f, arg);
	int rc = ferror(f) ? -EIO : 0;
	if (fclose(f) && !rc)
		rc = -errno;
	if (rc)
		snprintf(err, errlen, "%s/%s: %s", dir, name, strerror(-rc));
	return rc;
}

static void put_text(FILE *f, const void *text)
{
	fputs(text, f);
}

int check_write_text(const char *dir, const char *name, const char *text, char *err, size_t errlen)
{
	return write_file(dir, name, put_text, text, err, errlen);
}

int check_write_json(const char *dir, const char *name, void *jv, char *err, size_t errlen)
{
	char *s = jv ? json_print(jv) : NULL;
	if (!s) {
		snprintf(err, errlen, "%s/%s: out of memory", dir, name);
		return -ENOMEM;
	}
	size_t n = strlen(s);
	s[n] = '\n'; /* json_print's terminating NUL: the file ends with a newline */
	int rc = safety_replace_in(dir, name, s, n + 1, err, errlen);
	free(s);
	if (rc)
		check_msg_in(dir, name, err, errlen);
	return rc;
}

/* The test bed's health before and after of each drive: the SMART logs
 * the check read at its start and end (testbed_add_health's input). */
static void add_health(const struct check_batch *b, cJSON *tb)
{
	cJSON *dev[2] = {cJSON_CreateObject(), cJSON_CreateObject()};
	cJSON *t[2] = {cJSON_AddArrayToObject(dev[0], "targets"),
		       cJSON_AddArrayToObject(dev[1], "targets")};
	for (size_t i = 0; t[0] && t[1] && i < b->n; i++) {
		const struct judge_input *in = &b->d[i].in;
		const bool valid[2] = {in->health_valid, in->health_after_valid};
		const struct dev_health *h[2] = {&in->health, &in->health_after};
		for (int k = 0; k < 2; k++) {
			cJSON *x = valid[k] ? cJSON_CreateObject() : NULL;
			if (!x)
				continue;
			cJSON_AddStringToObject(x, "path", b->d[i].path);
			cJSON_AddItemToObject(x, "health", dev_health_to_json(h[k], NULL));
			cJSON_AddItemToArray(t[k], x);
		}
	}
	testbed_add_health(tb, dev[0], dev[1]);
	cJSON_Delete(dev[0]);
	cJSON_Delete(dev[1]);
}

int check_write_meta(const struct check_batch *b, const char *dir, const char *status,
		     double started, char *err, size_t errlen)
{
	cJSON *o = cJSON_CreateObject(), *t = cJSON_AddArrayToObject(o, "drives");
	cJSON_AddStringToObject(o, "nvscope_version", NVS_VERSION);
	cJSON_AddStringToObject(o, "command", "check");
	cJSON_AddStringToObject(o, "profile", b->prof->name);
	cJSON_AddStringToObject(o, "profile_file", b->prof->path);
	for (size_t i = 0; i < b->n; i++) {
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "serial", b->d[i].serial);
		cJSON_AddStringToObject(x, "device", b->d[i].path);
		cJSON_AddItemToArray(t, x);
	}
	cJSON_AddNumberToObject(o, "started", started);
	cJSON_AddStringToObject(o, "status", status);
	if (strcmp(status, "running"))
		cJSON_AddNumberToObject(o, "finished", (double)time(NULL));
	const char **paths = calloc(b->n ? b->n : 1, sizeof(*paths));
	for (size_t i = 0; paths && i < b->n; i++)
		paths[i] = b->d[i].path;
	cJSON *tb = paths ? testbed_json(paths, (unsigned)b->n) : NULL;
	if (tb) {
		add_health(b, tb);
		cJSON_AddItemToObject(o, "testbed", tb);
	}
	free(paths);
	int rc = check_write_json(dir, RESDIR_META, o, err, errlen);
	cJSON_Delete(o);
	return rc;
}

struct csv_one {
	const struct check_batch *b;
	const struct check_drive *d;
};

static void put_csv(FILE *f, const void *arg)
{
	const struct csv_one *c = arg;
	check_write_csv(c->b, c->d, f);
}

static int write_csv(const struct check_batch *b, const struct check_drive *d, const char *dir,
		     const char *name, char *err, size_t errlen)
{
	struct csv_one c = {b, d};
	return write_file(dir, name, put_csv, &c, err, errlen);
}

int check_write_results(const struct check_batch *b, const char *dir, FILE *csv, void *batch,
			char *err, size_t errlen)
{
	char ddir[CHECK_PATH_MAX], msg[512] = "";
	int rc = 0;

	if (csv) {
		check_write_csv(b, NULL, csv);
		if (fflush(csv) || ferror(csv)) {
			rc = -EIO;
			snprintf(err, errlen, "--csv: %s", strerror(EIO));
		}
	}
	keep(&rc, check_write_json(dir, RESDIR_SUMMARY, batch, msg, sizeof(msg)), msg, err, errlen);
	keep(&rc, write_csv(b, NULL, dir, RESDIR_CHECK_SUMMARY_CSV, msg, sizeof(msg)), msg, err, errlen);
	for (size_t i = 0; i < b->n; i++) {
		int r = check_drive_dir(b, &b->d[i], ddir, sizeof(ddir));
		if (r) {
			snprintf(msg, sizeof(msg), "%s/%s: path too long", dir, b->d[i].serial);
			keep(&rc, r, msg, err, errlen);
			continue;
		}
		r = keep(&rc, check_results_dir(ddir, true, msg, sizeof(msg)), msg, err, errlen);
		if (r)
			continue;
		cJSON *j = check_drive_json(b, &b->d[i]);
		keep(&rc, check_write_json(ddir, RESDIR_CHECK_VERDICT, j, msg, sizeof(msg)), msg, err,
		     errlen);
		cJSON_Delete(j);
		keep(&rc, write_csv(b, &b->d[i], ddir, RESDIR_CHECK_VERDICT_CSV, msg, sizeof(msg)), msg, err,
		     errlen);
	}
	return rc;
}

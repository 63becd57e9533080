/* resdir.c - a check's results directory (layout in docs/check.md): the
 * fixed files, meta.json, the summary and the per-serial verdicts; shared by
 * `nvscope check` and the console's check view.  Write errors of these
 * files are ignored (the state file is what a resume relies on). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "check/out.h"
#include "check/resdir.h"

void check_default_dir(const char *profile, char *buf, size_t len)
{
	char ts[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "results/check-%s-%s", profile, ts);
}

int check_mkdirs(const char *path)
{
	char buf[4096];
	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0755) && errno != EEXIST)
				return -errno;
			*p = '/';
		}
	return mkdir(buf, 0755) && errno != EEXIST ? -errno : 0;
}

bool check_dir_empty(const char *path)
{
	DIR *dd = opendir(path);
	struct dirent *e;
	bool empty = true;
	if (!dd)
		return true;
	while ((e = readdir(dd)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(dd);
	return empty;
}

void check_write_text(const char *dir, const char *name, const char *text)
{
	char path[4400];
	FILE *f;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

void check_write_json(const char *dir, const char *name, void *jv)
{
	cJSON *j = jv;
	char *s = j ? cJSON_Print(j) : NULL;
	if (s) {
		char path[4400];
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		FILE *f = fopen(path, "w");
		if (f) {
			fprintf(f, "%s\n", s);
			fclose(f);
		}
	}
	free(s);
}

void check_write_meta(const struct check_batch *b, const char *dir, const char *status,
		      double started)
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
	check_write_json(dir, "meta.json", o);
	cJSON_Delete(o);
}

void check_write_results(const struct check_batch *b, const char *dir, const char *csv, void *batch)
{
	char path[4400], safe[80];
	FILE *f;

	if (csv) {
		f = fopen(csv, "w");
		if (f) {
			check_write_csv(b, NULL, f);
			fclose(f);
		} else {
			fprintf(stderr, "nvscope check: cannot write %s: %s\n", csv,
				strerror(errno));
		}
	}
	check_write_json(dir, "summary.json", batch);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if ((f = fopen(path, "w"))) {
		check_write_csv(b, NULL, f);
		fclose(f);
	}
	for (size_t i = 0; i < b->n; i++) {
		check_safe_name(b->d[i].serial, safe, sizeof(safe));
		cJSON *j = check_drive_json(b, &b->d[i]);
		snprintf(path, sizeof(path), "%s/verdict.json", safe);
		check_write_json(dir, path, j);
		cJSON_Delete(j);
		snprintf(path, sizeof(path), "%s/%s/verdict.csv", dir, safe);
		if ((f = fopen(path, "w"))) {
			check_write_csv(b, &b->d[i], f);
			fclose(f);
		}
	}
}

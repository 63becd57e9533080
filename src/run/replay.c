/* replay.c - the per-QD rows of a results directory's summary.json.
 * Each fio-layout job is one step; both directions are combined: IOPS and
 * bandwidth add, the mean is weighted by the I/O counts, max is the larger,
 * and p99 is the larger of the two directions' p99 (an upper bound: the
 * merged histogram is not in the file). */
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/num.h"
#include "run/replay.h"
#include "run/resdir.h"

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	/* cJSON reads 1e400 as inf: a number that is not finite is no number */
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

static void add_dir(const cJSON *d, struct resdir_row *r, double *dir_iops, double *ios)
{
	if (!cJSON_IsObject(d))
		return;
	double n = num(d, "total_ios");
	if (!(n > 0))
		return;
	double iops = num(d, "iops"), bw = num(d, "bw_bytes");
	r->iops += isnan(iops) ? 0 : iops;
	*dir_iops = iops;
	r->bw += isnan(bw) ? 0 : bw;
	const cJSON *lat = cJSON_GetObjectItemCaseSensitive(d, "lat_ns");
	double mean = num(lat, "mean") / 1e3, max = num(lat, "max") / 1e3;
	const cJSON *pct = cJSON_GetObjectItemCaseSensitive(lat, "percentile");
	double p99 = num(pct, "99.000000") / 1e3;
	if (!isnan(mean))
		r->mean_us = isnan(r->mean_us) ? mean * n : r->mean_us + mean * n;
	if (!isnan(max) && (isnan(r->max_us) || max > r->max_us))
		r->max_us = max;
	if (!isnan(p99) && (isnan(r->p99_us) || p99 > r->p99_us))
		r->p99_us = p99;
	*ios += n;
}

static char *slurp(const char *path, int *e)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		*e = errno;
		return NULL;
	}
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	char chunk[8192];
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (len + got + 1 > cap) {
			cap = (len + got + 1) * 2;
			char *n = realloc(buf, cap);
			if (!n) {
				free(buf);
				fclose(f);
				*e = ENOMEM;
				return NULL;
			}
			buf = n;
		}
		memcpy(buf + len, chunk, got);
		len += got;
	}
	fclose(f);
	if (!buf && !(buf = calloc(1, 1)))
		*e = ENOMEM;
	else
		buf[len] = '\0';
	return buf;
}

int replay_qd_rows(const char *dir, struct resdir_row **rows, char *err, size_t errlen)
{
	char path[600];
	int e = 0, n = 0;
	*rows = NULL;
	snprintf(path, sizeof(path), "%s/" RESDIR_SUMMARY, dir);
	char *text = slurp(path, &e);
	if (!text) {
		snprintf(err, errlen, "%.400s: %s", path, strerror(e));
		return -e;
	}
	cJSON *doc = cJSON_Parse(text);
	free(text);
	const cJSON *jobs = cJSON_GetObjectItemCaseSensitive(doc, "jobs");
	if (!cJSON_IsArray(jobs)) {
		snprintf(err, errlen, "%.400s: no \"jobs\" array", path);
		cJSON_Delete(doc);
		return -EINVAL;
	}
	int cap = cJSON_GetArraySize(jobs);
	struct resdir_row *r = calloc(cap ? (size_t)cap : 1, sizeof(*r));
	if (!r) {
		cJSON_Delete(doc);
		return -ENOMEM;
	}
	const cJSON *job;
	cJSON_ArrayForEach(job, jobs)
	{
		struct resdir_row *row = &r[n++];
		double ios = 0;
		row->mean_us = row->p99_us = row->max_us = row->cpu_pct = NAN;
		row->riops = row->wiops = NAN;
		const cJSON *opt = cJSON_GetObjectItemCaseSensitive(job, "job options");
		const cJSON *qd = cJSON_GetObjectItemCaseSensitive(opt, "iodepth");
		unsigned qdu = 0;
		uint64_t qd64;
		if (cJSON_IsString(qd))
			(void)num_parse_uint(qd->valuestring, 0, UINT_MAX, &qdu);
		else if (cJSON_IsNumber(qd) && !num_to_u64(qd->valuedouble, UINT_MAX, &qd64))
			qdu = (unsigned)qd64;
		row->qd = qdu;
		add_dir(cJSON_GetObjectItemCaseSensitive(job, "read"), row, &row->riops, &ios);
		add_dir(cJSON_GetObjectItemCaseSensitive(job, "write"), row, &row->wiops, &ios);
		if (ios > 0 && !isnan(row->mean_us))
			row->mean_us /= ios;
		double usr = num(job, "usr_cpu"), sys = num(job, "sys_cpu");
		if (!isnan(usr) && !isnan(sys))
			row->cpu_pct = usr + sys;
	}
	cJSON_Delete(doc);
	*rows = r;
	return n;
}

/* jsonss.c - fio's per-job "steadystate" JSON object: keys, order and types
 * as fio 3.33 writes them (ss and criterion are strings, duration and
 * attained integers, max_deviation and slope floats printed with %f, the
 * window's iops[] and bw[] integers, oldest first, with integer means);
 * with fio master's lat criteria also its "lat_mean" and "lat" (ns). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <cjson/cJSON.h>
#include "io/opt/spec.h"
#include "report/jsonss.h"

static void raw(cJSON *o, const char *key, const char *fmt, double v)
{
	char buf[64];

	if (!isfinite(v) || fabs(v) > 1e300) /* fio would print nan; JSON cannot */
		v = 0;
	snprintf(buf, sizeof(buf), fmt, v);
	cJSON_AddRawToObject(o, key, buf);
}

static cJSON *u64(uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	return cJSON_CreateRaw(buf);
}

void jsonss_add(void *job, const struct fioss *ss)
{
	char buf[96];

	if (!job || !ss)
		return;
	cJSON *o = cJSON_AddObjectToObject(job, "steadystate");
	if (!o)
		return;
	cJSON_AddStringToObject(o, "ss", fioss_name(ss, buf, sizeof(buf)));
	cJSON_AddItemToObject(o, "duration", u64(fioss_dur(ss)));
	cJSON_AddItemToObject(o, "attained", u64(fioss_attained(ss)));
	double c = fioss_criterion(ss);
	snprintf(buf, sizeof(buf), "%f%s", (double)(float)c, /* a string: "-nan%" as fio's */
		 fioss_crit(ss) & FIOSS_PCT ? "%" : "");
	cJSON_AddStringToObject(o, "criterion", buf);
	raw(o, "max_deviation", "%f", fioss_deviation(ss));
	raw(o, "slope", "%f", fioss_slope(ss));
	cJSON *d = cJSON_AddObjectToObject(o, "data");
	if (!d)
		return;
	cJSON_AddItemToObject(d, "bw_mean", u64(fioss_bw_mean(ss)));
	cJSON_AddItemToObject(d, "iops_mean", u64(fioss_iops_mean(ss)));
	if (fioss_crit(ss) & FIOSS_LAT) { /* fio master: the window's mean clat, ns */
		cJSON_AddItemToObject(d, "lat_mean", u64(fioss_lat_mean(ss)));
		cJSON *lat = cJSON_AddArrayToObject(d, "lat");
		for (unsigned i = 0; lat && i < fioss_n(ss); i++)
			cJSON_AddItemToArray(lat, u64(fioss_lat_at(ss, i)));
	}
	cJSON *iops = cJSON_AddArrayToObject(d, "iops");
	cJSON *bw = cJSON_AddArrayToObject(d, "bw");
	for (unsigned i = 0; iops && bw && i < fioss_n(ss); i++) {
		cJSON_AddItemToArray(iops, u64(fioss_iops_at(ss, i)));
		cJSON_AddItemToArray(bw, u64(fioss_bw_at(ss, i)));
	}
}

void jsonss_options(void *opts, const struct spec *s)
{
	char buf[96];

	if (!opts || !s || !s->ss_dur_s)
		return;
	if (s->ss_given) {
		snprintf(buf, sizeof(buf), "%s%s:%g%s", fioss_crit_name(s->ss_crit),
			 s->ss_crit & FIOSS_SLOPE ? "_slope" : "", s->ss_limit,
			 s->ss_crit & FIOSS_PCT ? "%" : "");
		cJSON_AddStringToObject(opts, "steadystate", buf);
	}
	snprintf(buf, sizeof(buf), "%u", s->ss_dur_s);
	cJSON_AddStringToObject(opts, "steadystate_duration", buf);
	if (s->ss_check_s > 1) {
		snprintf(buf, sizeof(buf), "%u", s->ss_check_s);
		cJSON_AddStringToObject(opts, "steadystate_check_interval", buf);
	}
	if (s->ss_ramp_ns) {
		snprintf(buf, sizeof(buf), "%g", (double)s->ss_ramp_ns / 1e9);
		cJSON_AddStringToObject(opts, "steadystate_ramp_time", buf);
	}
}

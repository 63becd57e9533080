/* out.c - verdict table, JSON and CSV of a checked batch. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "check/out.h"

static const char *human_bytes(uint64_t b, char *buf, size_t len)
{
	static const char *const u[] = {"B", "kB", "MB", "GB", "TB", "PB"};
	double v = (double)b;
	unsigned i = 0;

	while (v >= 1000 && i + 1 < NVS_ARRAY_SIZE(u)) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, i ? "%.1f %s" : "%.0f %s", v, u[i]);
	return buf;
}

static const char *reasons(const struct check_drive *d, char *buf, size_t len)
{
	judge_summary(&d->verdict, JUDGE_WARN, buf, len);
	if (!buf[0])
		snprintf(buf, len, "-");
	return buf;
}

void check_counts(const struct check_batch *b, unsigned counts[4])
{
	memset(counts, 0, 4 * sizeof(*counts));
	for (size_t i = 0; i < b->n; i++)
		counts[b->d[i].verdict.level]++;
}

void check_print_table(const struct check_batch *b, FILE *f)
{
	char cap[32], why[1024];
	unsigned c[4];

	fprintf(f, "%-20s %-24s %-10s %10s %-7s %s\n", "SERIAL", "MODEL", "FIRMWARE", "CAPACITY",
		"VERDICT", "REASONS");
	for (size_t i = 0; i < b->n; i++) {
		const struct check_drive *d = &b->d[i];
		fprintf(f, "%-20s %-24.24s %-10s %10s %-7s %s\n", d->serial, d->model,
			d->firmware[0] ? d->firmware : "-",
			human_bytes(d->capacity, cap, sizeof(cap)),
			judge_level_name(d->verdict.level), reasons(d, why, sizeof(why)));
	}
	check_counts(b, c);
	fprintf(f, "%zu drive%s: %u PASS, %u WARN, %u FAIL, %u N/A%s\n", b->n, b->n == 1 ? "" : "s",
		c[JUDGE_PASS], c[JUDGE_WARN], c[JUDGE_FAIL], c[JUDGE_NA],
		b->cancelled ? " (interrupted)" : "");
}

static const char *role_name(enum judge_role r)
{
	return r == JUDGE_ROLE_PERF ? "perf" : r == JUDGE_ROLE_VERIFY ? "verify" : "read";
}

static const char *st_name(enum judge_selftest s)
{
	static const char *const n[] = {"not run", "not supported", "done", "timeout", "error"};
	return (unsigned)s < NVS_ARRAY_SIZE(n) ? n[s] : "?";
}

static void add_num(cJSON *o, const char *k, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

void *check_drive_json(const struct check_batch *b, const struct check_drive *d)
{
	const struct judge_input *in = &d->in;
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "serial", d->serial);
	cJSON_AddStringToObject(o, "model", d->model);
	cJSON_AddStringToObject(o, "firmware", d->firmware);
	cJSON_AddNumberToObject(o, "capacity_bytes", (double)d->capacity);
	cJSON_AddStringToObject(o, "device", d->path);
	if (d->nvme)
		cJSON_AddStringToObject(o, "controller", d->ctrl);
	else
		cJSON_AddNullToObject(o, "controller");
	cJSON_AddBoolToObject(o, "nvme", d->nvme);
	cJSON_AddStringToObject(o, "profile", b->prof->name);
	cJSON_AddStringToObject(o, "verdict", judge_level_name(d->verdict.level));
	cJSON *rs = cJSON_AddArrayToObject(o, "reasons");
	cJSON *cr = cJSON_AddArrayToObject(o, "criteria");
	for (unsigned k = 0; k < d->verdict.n; k++) {
		const struct judge_reason *r = &d->verdict.r[k];
		if (r->level >= JUDGE_WARN)
			cJSON_AddItemToArray(rs, cJSON_CreateString(r->text));
		cJSON *c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "criterion", r->criterion);
		cJSON_AddStringToObject(c, "result", judge_level_name(r->level));
		cJSON_AddStringToObject(c, "text", r->text);
		cJSON_AddItemToArray(cr, c);
	}
	if (in->health_valid) {
		cJSON *h = dev_health_to_json(
		    in->health_after_valid ? &in->health_after : &in->health, d->ctrl);
		if (h)
			cJSON_AddItemToObject(o, "health", h);
	} else {
		cJSON_AddNullToObject(o, "health");
	}
	cJSON_AddStringToObject(o, "health_note", in->health_valid ? "" : in->health_msg);
	if (in->errlog_valid) {
		cJSON *e = cJSON_AddObjectToObject(o, "error_log");
		cJSON_AddNumberToObject(e, "capacity", in->errlog.capacity);
		cJSON_AddNumberToObject(e, "used", in->errlog.used);
		cJSON_AddNumberToObject(e, "newest_count", (double)in->errlog.newest_count);
		cJSON_AddNumberToObject(e, "newest_status", in->errlog.newest_status);
	} else {
		cJSON_AddNullToObject(o, "error_log");
	}
	cJSON *st = cJSON_AddObjectToObject(o, "selftest");
	cJSON_AddStringToObject(st, "state", st_name(in->st));
	if (in->st == JUDGE_ST_DONE && in->selftest.have_last) {
		cJSON_AddNumberToObject(st, "result", in->selftest.last_result);
		cJSON_AddStringToObject(st, "result_text",
					judge_selftest_result_name(in->selftest.last_result));
		cJSON_AddNumberToObject(st, "segment", in->selftest.last_segment);
	}
	if (in->selftest_msg[0])
		cJSON_AddStringToObject(st, "message", in->selftest_msg);
	cJSON *jobs = cJSON_AddArrayToObject(o, "jobs");
	for (unsigned j = 0; j < in->njobs; j++) {
		const struct judge_job *jj = &in->jobs[j];
		const struct check_jobres *r = &d->res[j];
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "name", jj->name);
		cJSON_AddStringToObject(x, "role", role_name(jj->role));
		cJSON_AddBoolToObject(x, "ran", jj->ran);
		cJSON_AddNumberToObject(x, "errors", (double)jj->errors);
		if (jj->role == JUDGE_ROLE_VERIFY) {
			cJSON_AddNumberToObject(x, "mismatched_sectors", (double)jj->mismatches);
			cJSON_AddNumberToObject(x, "first_bad_byte", (double)jj->first_bad);
		} else {
			add_num(x, "iops", r->iops);
			add_num(x, "lat_mean_us", r->lat_mean_us);
			add_num(x, "lat_p99_us", r->lat_p99_us);
		}
		add_num(x, "mb_s", r->mbps);
		cJSON_AddNumberToObject(x, "bytes", (double)r->bytes);
		add_num(x, "seconds", r->seconds);
		if (jj->role == JUDGE_ROLE_PERF) {
			cJSON_AddStringToObject(x, "metric", jj->random ? "iops" : "mb_s");
			add_num(x, "figure", jj->figure); /* the median of its rounds */
			cJSON *rr = cJSON_AddArrayToObject(x, "rounds");
			for (unsigned k = 0; rr && k < jj->nrounds && k < JUDGE_MAX_ROUNDS; k++)
				cJSON_AddItemToArray(rr, cJSON_CreateNumber(jj->rounds[k]));
		}
		if (jj->msg[0])
			cJSON_AddStringToObject(x, "message", jj->msg);
		cJSON_AddItemToArray(jobs, x);
	}
	cJSON_AddNumberToObject(o, "started", d->started);
	cJSON_AddNumberToObject(o, "finished", d->finished);
	return o;
}

void *check_batch_json(const struct check_batch *b, const char *dir)
{
	cJSON *o = cJSON_CreateObject();
	unsigned c[4];

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "nvscope_version", NVS_VERSION);
	cJSON_AddStringToObject(o, "profile", b->prof->name);
	cJSON_AddStringToObject(o, "profile_file", b->prof->path);
	if (dir)
		cJSON_AddStringToObject(o, "results_dir", dir);
	else
		cJSON_AddNullToObject(o, "results_dir");
	cJSON_AddBoolToObject(o, "interrupted", b->cancelled);
	check_counts(b, c);
	cJSON *cn = cJSON_AddObjectToObject(o, "counts");
	cJSON_AddNumberToObject(cn, "pass", c[JUDGE_PASS]);
	cJSON_AddNumberToObject(cn, "warn", c[JUDGE_WARN]);
	cJSON_AddNumberToObject(cn, "fail", c[JUDGE_FAIL]);
	cJSON_AddNumberToObject(cn, "na", c[JUDGE_NA]);
	cJSON *arr = cJSON_AddArrayToObject(o, "drives");
	for (size_t i = 0; i < b->n; i++) {
		cJSON *d = check_drive_json(b, &b->d[i]);
		if (d)
			cJSON_AddItemToArray(arr, d);
	}
	return o;
}

void check_csv_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('"', f);
}

static void csv_row(const struct check_batch *b, const struct check_drive *d, FILE *f)
{
	char why[2048];

	judge_summary(&d->verdict, JUDGE_WARN, why, sizeof(why));
	check_csv_str(f, d->serial);
	fputc(',', f);
	check_csv_str(f, d->model);
	fputc(',', f);
	check_csv_str(f, d->firmware);
	fprintf(f, ",%llu,", (unsigned long long)d->capacity);
	check_csv_str(f, d->path);
	fprintf(f, ",%s,%s,", b->prof->name, judge_level_name(d->verdict.level));
	check_csv_str(f, why);
	fputc('\n', f);
}

void check_write_csv(const struct check_batch *b, const struct check_drive *d, FILE *f)
{
	fprintf(f, "serial,model,firmware,capacity_bytes,device,profile,verdict,reasons\n");
	if (d)
		csv_row(b, d, f);
	else
		for (size_t i = 0; i < b->n; i++)
			csv_row(b, &b->d[i], f);
}

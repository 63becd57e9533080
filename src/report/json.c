/* json.c - results in fio's JSON layout (cJSON). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cjson/cJSON.h>
#include "report/json.h"

/* fio's default percentile list */
static const double pcts[] = {1,  5,  10, 20, 30, 40,   50,   60,    70,
			      80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

static cJSON *lat_obj(const struct hist *h)
{
	cJSON *o = cJSON_CreateObject(), *p;
	char key[32];

	cJSON_AddNumberToObject(o, "min", h->n ? (double)h->min : 0);
	cJSON_AddNumberToObject(o, "max", (double)h->max);
	cJSON_AddNumberToObject(o, "mean", hist_mean(h));
	cJSON_AddNumberToObject(o, "stddev", hist_stddev(h));
	cJSON_AddNumberToObject(o, "N", (double)h->n);
	if (h->n) {
		p = cJSON_AddObjectToObject(o, "percentile");
		for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
			snprintf(key, sizeof(key), "%f", pcts[i]);
			cJSON_AddNumberToObject(p, key, (double)hist_percentile(h, pcts[i]));
		}
	}
	return o;
}

static cJSON *dir_obj(const struct result *r, enum nvs_dir d)
{
	const struct result_dir *rd = &r->dir[d];
	cJSON *o = cJSON_CreateObject();
	struct hist empty;

	hist_init(&empty);
	cJSON_AddNumberToObject(o, "io_bytes", (double)rd->bytes);
	cJSON_AddNumberToObject(o, "io_kbytes", (double)(rd->bytes / 1024));
	cJSON_AddNumberToObject(o, "bw_bytes", result_bw(r, d));
	cJSON_AddNumberToObject(o, "bw", result_bw(r, d) / 1024.0); /* KiB/s, as fio */
	cJSON_AddNumberToObject(o, "iops", result_iops(r, d));
	cJSON_AddNumberToObject(o, "runtime", r->runtime_s * 1000.0); /* ms */
	cJSON_AddNumberToObject(o, "total_ios", (double)rd->ios);
	cJSON_AddNumberToObject(o, "short_ios", 0);
	cJSON_AddNumberToObject(o, "drop_ios", 0);
	/* Submission is fused with the wait (one io_uring_enter per batch), so
	 * nvscope measures issue-to-completion only: slat is not split out and
	 * clat_ns carries the same figures as lat_ns (docs/cli.md). */
	cJSON_AddItemToObject(o, "slat_ns", lat_obj(&empty));
	cJSON_AddItemToObject(o, "clat_ns", lat_obj(&rd->lat));
	cJSON_AddItemToObject(o, "lat_ns", lat_obj(&rd->lat));
	cJSON_AddNumberToObject(o, "errors", (double)rd->errors);
	if (rd->first_errno)
		cJSON_AddStringToObject(o, "first_error", strerror(rd->first_errno));
	return o;
}

static cJSON *job_obj(const struct json_run *run, unsigned j)
{
	const struct result *r = &run->jobs[j];
	cJSON *o = cJSON_CreateObject(), *opts, *nv;
	char buf[64];

	cJSON_AddStringToObject(o, "jobname", r->name);
	cJSON_AddNumberToObject(o, "groupid", run->groupid ? run->groupid[j] : j);
	cJSON_AddNumberToObject(o, "error", r->dir[0].first_errno ? r->dir[0].first_errno
								  : r->dir[1].first_errno);
	opts = cJSON_AddObjectToObject(o, "job options");
	cJSON_AddStringToObject(opts, "rw", spec_rw_name(run->spec->rw));
	snprintf(buf, sizeof(buf), "%u", r->iodepth);
	cJSON_AddStringToObject(opts, "iodepth", buf);
	snprintf(buf, sizeof(buf), "%u", r->numjobs);
	cJSON_AddStringToObject(opts, "numjobs", buf);
	cJSON_AddItemToObject(o, "read", dir_obj(r, NVS_READ));
	cJSON_AddItemToObject(o, "write", dir_obj(r, NVS_WRITE));
	cJSON_AddItemToObject(o, "trim", dir_obj(&(struct result){0}, NVS_READ));
	cJSON_AddNumberToObject(o, "job_runtime", r->runtime_s * 1000.0);
	cJSON_AddNumberToObject(o, "usr_cpu", r->runtime_s > 0 ? 100 * r->usr_s / r->runtime_s : 0);
	cJSON_AddNumberToObject(o, "sys_cpu", r->runtime_s > 0 ? 100 * r->sys_s / r->runtime_s : 0);

	nv = cJSON_AddObjectToObject(o, "nvscope");
	cJSON_AddStringToObject(nv, "target", r->target);
	cJSON_AddNumberToObject(nv, "iodepth", r->iodepth);
	if (run->engine_note && run->engine_note[j] && run->engine_note[j][0])
		cJSON_AddStringToObject(nv, "engine_mapping", run->engine_note[j]);
	cJSON_AddNumberToObject(nv, "dropped_samples", (double)r->dropped);
	double cpu_s = r->usr_s + r->sys_s;
	cJSON_AddNumberToObject(nv, "iops_per_cpu_second",
				cpu_s > 0 ? (double)(r->dir[0].ios + r->dir[1].ios) / cpu_s : 0);
	if (run->targets && run->ntargets > 1) {
		cJSON *ts = cJSON_AddArrayToObject(nv, "targets");
		for (unsigned t = 0; t < run->ntargets; t++) {
			const struct result *tr = &run->targets[j * run->ntargets + t];
			cJSON *to = cJSON_CreateObject();
			cJSON_AddStringToObject(to, "target", tr->target);
			cJSON_AddItemToObject(to, "read", dir_obj(tr, NVS_READ));
			cJSON_AddItemToObject(to, "write", dir_obj(tr, NVS_WRITE));
			cJSON_AddItemToArray(ts, to);
		}
	}
	if (run->cores && run->ncores && run->ncores[j]) {
		cJSON *cpu = cJSON_AddObjectToObject(nv, "cpu");
		cJSON *arr = cJSON_AddArrayToObject(cpu, "cores");
		double busy = 0;
		for (unsigned i = 0; i < run->ncores[j]; i++) {
			const struct cpu_util *u = &run->cores[j * CPU_MAX + i];
			cJSON *co = cJSON_CreateObject();
			cJSON_AddNumberToObject(co, "user", u->user);
			cJSON_AddNumberToObject(co, "system", u->system);
			cJSON_AddNumberToObject(co, "iowait", u->iowait);
			cJSON_AddNumberToObject(co, "irq", u->irq);
			cJSON_AddNumberToObject(co, "steal", u->steal);
			cJSON_AddNumberToObject(co, "idle", u->idle);
			cJSON_AddItemToArray(arr, co);
			busy += 100 - u->idle - u->iowait;
		}
		/* IOPS per fully busy core of the machine (kernel work included) */
		cJSON_AddNumberToObject(cpu, "busy_cores", busy / 100);
		cJSON_AddNumberToObject(cpu, "iops_per_busy_core",
					busy > 0 ? result_total_iops(r) / (busy / 100) : 0);
	}
	if (r->nmembers) {
		cJSON *ms = cJSON_AddArrayToObject(nv, "members");
		for (unsigned m = 0; m < r->nmembers && m < run->spec->ntargets; m++) {
			const struct result_member *rm = &r->member[m];
			cJSON *mo = cJSON_CreateObject();
			cJSON_AddStringToObject(mo, "target", run->spec->targets[m]);
			cJSON_AddNumberToObject(mo, "total_ios", (double)rm->ios);
			cJSON_AddNumberToObject(mo, "io_bytes", (double)rm->bytes);
			cJSON_AddNumberToObject(mo, "iops",
						r->runtime_s > 0 ? (double)rm->ios / r->runtime_s : 0);
			cJSON_AddNumberToObject(mo, "lat_mean_ns",
						rm->ios ? (double)rm->lat_sum_ns / (double)rm->ios : 0);
			cJSON_AddItemToArray(ms, mo);
		}
	}
	if (run->series) {
		const struct series *s = &run->series[j];
		cJSON *arr = cJSON_AddArrayToObject(nv, "series");
		for (size_t i = 0; i < s->n; i++) {
			const struct point *p = &s->pt[i];
			cJSON *po = cJSON_CreateObject();
			cJSON_AddNumberToObject(po, "t", p->t);
			cJSON_AddNumberToObject(po, "read_iops", p->iops[0]);
			cJSON_AddNumberToObject(po, "write_iops", p->iops[1]);
			cJSON_AddNumberToObject(po, "read_bw_bytes", p->bw[0]);
			cJSON_AddNumberToObject(po, "write_bw_bytes", p->bw[1]);
			cJSON_AddNumberToObject(po, "lat_mean_us", p->lat_mean_all_us);
			cJSON_AddNumberToObject(po, "lat_p99_us", p->lat_p99_all_us);
			cJSON_AddNumberToObject(po, "errors", (double)p->errors);
			cJSON_AddNumberToObject(po, "cpu_pct", p->cpu_pct);
			cJSON_AddBoolToObject(po, "ramp", p->ramp);
			cJSON_AddItemToArray(arr, po);
		}
	}
	return o;
}

void *json_read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	cJSON *o = NULL;

	if (!f)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *n = cap >= (256u << 20) ? NULL : realloc(buf, cap ? cap * 2 : 8192);
			if (!n) {
				errno = ENOMEM;
				goto close_file;
			}
			buf = n;
			cap = cap ? cap * 2 : 8192;
		}
		size_t got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (!got)
			break;
	}
	buf[len] = '\0';
	o = cJSON_Parse(buf);
	if (!o)
		errno = EINVAL;
close_file:
	free(buf);
	fclose(f);
	return o;
}

int json_write_run(FILE *f, const struct json_run *run)
{
	cJSON *root = cJSON_CreateObject(), *jobs, *nv, *g;
	char *text;
	char buf[64];
	int rc = 0;

	if (!root)
		return -ENOMEM;
	snprintf(buf, sizeof(buf), "nvscope-%s", NVS_VERSION);
	cJSON_AddStringToObject(root, "fio version", buf);
	cJSON_AddNumberToObject(root, "timestamp", (double)time(NULL));
	g = cJSON_AddObjectToObject(root, "global options");
	cJSON_AddStringToObject(g, "rw", spec_rw_name(run->spec->rw));
	spec_fmt_size(run->spec->bs[0].bs, buf, sizeof(buf));
	cJSON_AddStringToObject(g, "bs", buf);
	jobs = cJSON_AddArrayToObject(root, "jobs");
	for (unsigned j = 0; j < run->njobs; j++)
		cJSON_AddItemToArray(jobs, job_obj(run, j));
	nv = cJSON_AddObjectToObject(root, "nvscope");
	cJSON_AddStringToObject(nv, "version", NVS_VERSION);
	cJSON_AddNumberToObject(nv, "dropped_samples", (double)run->dropped);
	cJSON_AddNumberToObject(nv, "interval_s", (double)run->spec->interval_ns / 1e9);
	if (run->spec->engine_note[0]) /* a fio job file's ioengine=, as mapped */
		cJSON_AddStringToObject(nv, "engine_mapping", run->spec->engine_note);
	cJSON *tg = cJSON_AddArrayToObject(nv, "targets");
	for (unsigned t = 0; t < run->spec->ntargets; t++)
		cJSON_AddItemToArray(tg, cJSON_CreateString(run->spec->targets[t]));
	if (run->extra_key && run->extra_json) {
		cJSON *x = cJSON_Parse(run->extra_json);
		if (x)
			cJSON_AddItemToObject(nv, run->extra_key, x);
	}
	text = cJSON_Print(root);
	if (!text) {
		rc = -ENOMEM;
		goto free_root;
	}
	if (fputs(text, f) < 0 || fputc('\n', f) < 0)
		rc = -EIO;
	free(text);
free_root:
	cJSON_Delete(root);
	return rc;
}

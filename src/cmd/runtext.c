/* runtext.c - `nvscope run`'s fio-like text summary: per job and direction
 * the IOPS, bandwidth, latency and CPU lines, per target, and the per-QD
 * table of a sweep (stdout, or stderr when JSON goes to stdout). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "cmd/runtext.h"
#include "io/opt/spec.h"
#include "io/feat/vhdr.h"
#include "stats/fioss.h"
#include "stats/result.h"

const char *runtext_si(double v, char *buf, size_t len)
{
	if (v >= 1e9)
		snprintf(buf, len, "%.2fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}

static void print_dir(FILE *f, const struct result *r, enum nvs_dir d)
{
	const struct result_dir *rd = &r->dir[d];
	char a[32], b[32], c[32];

	if (!rd->ios && !rd->errors)
		return;
	(void)b;
	fprintf(f, "  %s: IOPS=%s, BW=%.1fMiB/s (%.1fMB/s) (%sB in %.2fs)\n",
		d == NVS_READ	 ? "read"
		: d == NVS_WRITE ? "write"
				 : "trim",
		runtext_si(result_iops(r, d), a, sizeof(a)), result_bw(r, d) / 1048576.0,
		result_bw(r, d) / 1e6, runtext_si((double)rd->bytes, c, sizeof(c)),
		result_runtime(r, d));
	const struct hist *h = &rd->lat;
	/* fio's three lines: slat (prepared to submitted), clat (submitted to
	 * completed), lat (the two) */
	const struct hist *hs[] = {&rd->slat, &rd->clat, h};
	static const char *const hn[] = {"slat", "clat", " lat"};
	for (int k = 0; k < 3; k++)
		if (hs[k]->n)
			fprintf(f, "   %s (usec): min=%.1f, max=%.1f, avg=%.2f, stdev=%.2f\n",
				hn[k], (double)hs[k]->min / 1e3, (double)hs[k]->max / 1e3,
				hist_mean(hs[k]) / 1e3, hist_stddev(hs[k]) / 1e3);
	if (h->n) {
		fprintf(f,
			"    lat percentiles (usec): 50th=%.1f, 99th=%.1f, 99.9th=%.1f, "
			"99.99th=%.1f\n",
			(double)hist_percentile(h, 50) / 1e3, (double)hist_percentile(h, 99) / 1e3,
			(double)hist_percentile(h, 99.9) / 1e3,
			(double)hist_percentile(h, 99.99) / 1e3);
	}
	if (rd->errors)
		fprintf(f, "    errors: %llu (first: %s)\n", (unsigned long long)rd->errors,
			strerror(rd->first_errno));
}

/* fio's "IO depths", "submit" and "complete" lines (show_thread_status_normal),
 * from the same counts as the JSON's iodepth_level/_submit/_complete. */
static void print_depths(FILE *f, const struct result *r)
{
	static const char *const head[] = {
	    "  IO depths    :", "     submit    :", "     complete  :"};
	const uint64_t *maps[] = {r->depth_map, r->submit_map, r->complete_map};

	for (int t = 0; t < 3; t++) {
		double pct[7];
		result_depth_pct(maps[t], pct);
		fputs(head[t], f);
		for (int i = 0; i < 7; i++)
			fprintf(f, "%s%s=%3.1f%%", i ? ", " : " ",
				t ? result_batch_keys[i] : result_depth_keys[i], pct[i]);
		fputc('\n', f);
	}
}

void runtext_result(FILE *f, const struct spec *s, const struct runjob *rj)
{
	const struct result *r = &rj->agg;
	char a[32];
	double cpu = r->usr_s + r->sys_s;

	if (s->replay.iolog[0]) /* a replay: the trace decides rw and bs */
		fprintf(f, "%s: (read_iolog=%s, iodepth=%u, copies=%u) %s\n", r->name,
			s->replay.iolog, r->iodepth, s->replay.copies, r->target);
	else
		fprintf(f, "%s: (rw=%s, bs=%s%s, iodepth=%u, jobs=%u) %s\n", r->name,
			spec_rw_name(s->rw), spec_fmt_size(s->bs[0].bs, a, sizeof(a)),
			s->nbs > 1 ? " (bssplit)" : "", r->iodepth, r->numjobs, r->target);
	if (r->error > 0) /* fio's "err=N (error=...)" of a job that failed */
		fprintf(f, "  err=%d (error=%s)\n", r->error, strerror(r->error));
	print_dir(f, r, NVS_READ);
	print_dir(f, r, NVS_WRITE);
	print_dir(f, r, NVS_TRIM);
	if (r->sync_ios) /* fio's "fsync/fdatasync/sync_file_range" block */
		fprintf(f,
			"  sync: %llu fsync/fdatasync, lat (usec): min=%.1f, max=%.1f, avg=%.2f, "
			"99th=%.1f\n",
			(unsigned long long)r->sync_ios, (double)r->sync_lat.min / 1e3,
			(double)r->sync_lat.max / 1e3, hist_mean(&r->sync_lat) / 1e3,
			(double)hist_percentile(&r->sync_lat, 99) / 1e3);
	if (s->verify == VHDR_NULL) /* fio's pretend verify */
		fprintf(f, "  verify: null (fio's pretend verify): read back, nothing checked\n");
	else if (s->verify) /* fio's verify: what was read back and checked */
	{
		fprintf(f, "  verify: %llu blocks checked, %llu bad",
			(unsigned long long)r->verify_blocks, (unsigned long long)r->verify_bad);
		if (r->verify_bad)
			fprintf(f, ", the first at byte offset %llu",
				(unsigned long long)r->verify_first_bad);
		fputc('\n', f);
	}
	if (s->lat_target_ns) /* fio's "latency :" line: the depth the search found */
		fprintf(f, "  latency: target=%.2fus, window=%.2fms, percentile=%.2f%%, depth=%u\n",
			(double)s->lat_target_ns / 1e3, (double)s->lat_window_ns / 1e6, s->lat_pct,
			r->lat_depth ? r->lat_depth : r->iodepth);
	fprintf(
	    f, "  cpu: usr=%.1f%%, sys=%.1f%% of one core; IOPS per CPU-second: %s\n",
	    r->runtime_s > 0 ? 100 * r->usr_s / r->runtime_s : 0,
	    r->runtime_s > 0 ? 100 * r->sys_s / r->runtime_s : 0,
	    runtext_si(cpu > 0 ? (double)(r->dir[0].ios + r->dir[1].ios + r->dir[2].ios) / cpu : 0,
		       a, sizeof(a)));
	print_depths(f, r);
	if (rj->ss) { /* fio's show_ss_normal */
		const struct fioss *ss = rj->ss;
		double bw = (double)fioss_bw_mean(ss);
		char lat[48] = ""; /* fio master: ", lat=152nsec" with a lat criterion */
		if (fioss_crit(ss) & FIOSS_LAT) {
			double l = (double)fioss_lat_mean(ss);
			snprintf(lat, sizeof(lat), ", lat=%.0f%s",
				 l >= 1e6   ? l / 1e6
				 : l >= 1e3 ? l / 1e3
					    : l,
				 l >= 1e6   ? "msec"
				 : l >= 1e3 ? "usec"
					    : "nsec");
		}
		fprintf(f,
			"  steadystate  : attained=%s, bw=%.1fMiB/s (%.1fMB/s), iops=%s%s, "
			"%s%s=%.3f%s\n",
			fioss_attained(ss) ? "yes" : "no", bw / 1048576.0, bw / 1e6,
			runtext_si((double)fioss_iops_mean(ss), a, sizeof(a)), lat,
			fioss_crit_name(fioss_crit(ss)),
			fioss_crit(ss) & FIOSS_SLOPE ? " slope" : " mean dev", fioss_criterion(ss),
			fioss_crit(ss) & FIOSS_PCT ? "%" : "");
	}
	fprintf(f, "  samples: %zu intervals, %llu dropped\n", rj->series.n,
		(unsigned long long)rj->dropped);
	if (r->cancelled || r->unfinished)
		fprintf(f,
			"  at the end: %llu I/Os cancelled, %llu late, %llu unfinished (the device "
			"did not answer); none counted\n",
			(unsigned long long)r->cancelled, (unsigned long long)r->late,
			(unsigned long long)r->unfinished);
	for (unsigned m = 0; m < r->nmembers && m < s->ntargets; m++)
		fprintf(f, "  member %-24s IOPS=%s\n", s->targets[m],
			runtext_si(r->runtime_s > 0 ? (double)r->member[m].ios / r->runtime_s : 0,
				   a, sizeof(a)));
	if (rj->ntargets > 1)
		for (unsigned t = 0; t < rj->ntargets; t++) {
			const struct result *tr = &rj->per_target[t];
			fprintf(f, "  %-24s IOPS=%s\n", tr->target,
				runtext_si(result_total_iops(tr), a, sizeof(a)));
		}
}

void runtext_qd_table(FILE *f, const struct result *res, unsigned n)
{
	fprintf(f, "\n%6s %12s %10s %10s %10s %10s %7s\n", "QD", "IOPS", "MB/s", "mean us",
		"p99 us", "max us", "CPU %");
	for (unsigned i = 0; i < n; i++) {
		const struct result *r = &res[i];
		struct lat_all l;
		result_lat_all(r, &l);
		fprintf(f, "%6u %12.0f %10.1f %10.1f %10.1f %10.1f %7.1f\n", r->iodepth,
			result_total_iops(r),
			(result_bw(r, NVS_READ) + result_bw(r, NVS_WRITE)) / 1e6, l.mean_us,
			l.p99_us, l.max_us,
			r->runtime_s > 0 ? 100 * (r->usr_s + r->sys_s) / r->runtime_s : 0);
	}
}

void runtext_repeat_table(FILE *f, const struct runsteps_rep *rep, unsigned n, unsigned asked)
{
	char a[32], lo[32], hi[32];

	fprintf(f,
		"\nrepeat: each step %u times in a row (mean of the runs; spread: standard "
		"deviation / mean)\n",
		asked);
	fprintf(f, "  %-16s %5s %5s %10s %21s %7s %10s %10s %10s\n", "job", "QD", "runs", "IOPS",
		"min - max", "spread", "MB/s", "mean us", "p99 us");
	for (unsigned k = 0; k < n; k++) {
		const struct runsteps_rep *r = &rep[k];
		double m = r->iops[RUNSTEPS_MEAN];
		char range[48];
		snprintf(range, sizeof(range), "%s - %s",
			 runtext_si(r->iops[RUNSTEPS_MIN], lo, sizeof(lo)),
			 runtext_si(r->iops[RUNSTEPS_MAX], hi, sizeof(hi)));
		fprintf(f, "  %-16.16s %5u %5u %10s %21s %6.1f%% %10.1f %10.1f %10.1f\n",
			r->spec->name, r->iodepth, r->n, runtext_si(m, a, sizeof(a)), range,
			m > 0 ? 100 * r->iops[RUNSTEPS_SD] / m : 0, r->mbps[RUNSTEPS_MEAN],
			r->mean_us[RUNSTEPS_MEAN], r->p99_us[RUNSTEPS_MEAN]);
	}
}

/* {"mean": .., "min": .., "max": .., "stdev": ..} of @st */
static void stat_obj(cJSON *o, const char *key, const double *st)
{
	static const char *const names[RUNSTEPS_NSTAT] = {"mean", "min", "max", "stdev"};
	cJSON *x = cJSON_AddObjectToObject(o, key);
	for (unsigned i = 0; x && i < RUNSTEPS_NSTAT; i++)
		if (isfinite(st[i]))
			cJSON_AddNumberToObject(x, names[i], st[i]);
}

char *runtext_repeat_json(const struct runsteps_rep *rep, unsigned n, unsigned asked)
{
	cJSON *root = cJSON_CreateObject(), *steps;
	char *text = NULL;

	if (!root || !cJSON_AddNumberToObject(root, "runs_asked", asked) ||
	    !(steps = cJSON_AddArrayToObject(root, "steps")))
		goto out;
	for (unsigned k = 0; k < n; k++) {
		cJSON *o = cJSON_CreateObject();
		if (!o)
			goto out;
		cJSON_AddItemToArray(steps, o);
		cJSON_AddStringToObject(o, "job", rep[k].spec->name);
		cJSON_AddNumberToObject(o, "iodepth", rep[k].iodepth);
		cJSON_AddNumberToObject(o, "runs", rep[k].n);
		stat_obj(o, "iops", rep[k].iops);
		stat_obj(o, "mbps", rep[k].mbps);
		stat_obj(o, "lat_mean_us", rep[k].mean_us);
		stat_obj(o, "lat_p99_us", rep[k].p99_us);
	}
	text = cJSON_PrintUnformatted(root);
out:
	cJSON_Delete(root);
	return text;
}

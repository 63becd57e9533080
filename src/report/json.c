/* json.c - results in fio's JSON layout (cJSON).
 *
 * Every key fio 3.33's `--output-format=json` writes for a job is here, with
 * fio's types: tools such as fio-plot and fio's own scripts index them
 * directly and some check int versus float.  cJSON prints a double without
 * a fraction as an integer and large integers in exponent form, so numbers
 * are written as raw text: integers with %llu, floats with %f as fio does.
 *
 * Where the figures come from:
 * - totals, clat_ns/lat_ns and the percentiles: the merged full histograms
 *   (exact counts; percentiles within the histogram's resolution, hist.c);
 * - bw_min/max/mean/dev/samples and iops_*: the per-interval rows of the
 *   measured part (ramp excluded), one sample per interval (fio: one per
 *   bw_avg/iops_avg_time window, 500 ms by default); dev is the sample
 *   standard deviation (n - 1), as fio's;
 * - latency_ns/us/ms: the histogram's buckets, each counted at its
 *   midpoint: a bucket that straddles one of fio's edges (250 us ...) counts
 *   wholly on one side, so a share is off by at most one bucket's count
 *   (buckets are < 1/64 of their value wide);
 * - json+ "bins": nvscope's histogram is fio's scheme (hist.h), so bucket i
 *   is fio's bin i and its key, fio's plat_idx_to_val(i), is
 *   hist_bucket_value(i): exact.  fio folds values past 2^34 ns (17 s) into
 *   its last bin; nvscope keeps three more groups (to 2^37 ns) and writes
 *   their own keys, which fio's tools read like any other bin;
 * - iodepth_level/submit/complete: counted by the worker as fio's io_u.c
 *   does (each batch of submitted I/Os at the depth after it, each
 *   io_uring_enter by the I/Os it submitted, each reap by the completions
 *   it took), over the measured window;
 * - slat_ns/clat_ns/lat_ns: when the job measures slat (io/opt/spec.h
 *   spec_slat: a fio job file by default, as fio), as fio's io_uring engine
 *   times them (worker.c): slat from an I/O's preparation to the return of
 *   the io_uring_enter that submitted it, clat from there to its completion,
 *   lat the two together; slat_ns without percentiles unless
 *   slat_percentiles=1 (fio's default).  When it does not (nvscope's own
 *   runs by default: one io_uring_enter per I/O at QD1), slat_ns is what
 *   fio writes with disable_slat=1 (zeros, N 0), clat runs from the start of
 *   the io_uring_enter that submitted the I/O, and
 *   jobs[].nvscope.not_measured lists "slat";
 * - nvscope.loop: the job's workers, and those the worker loop's plain
 *   copy ran (io/core/worker.c is_plain: none of the options it drops set);
 * - ctx/majf/minf: getrusage of the whole process over the job; elapsed: wall
 *   seconds including ramp_time; disk_util: /sys/block counters' deltas.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cjson/cJSON.h>
#include "base/input.h"
#include "base/utf8.h"
#include "io/feat/vhdr.h"
#include "report/json.h"
#include "config/preset.h"
#include "io/feat/prio.h"
#include "report/jsonss.h"

/* fio's default percentile list */
static const double pcts[] = {1,  5,  10, 20, 30,   40,	  50,	 60,   70,
			      80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

static void num_u(cJSON *o, const char *key, uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	cJSON_AddRawToObject(o, key, buf);
}

static void num_f(cJSON *o, const char *key, double v)
{
	char buf[64];
	if (!isfinite(v) || fabs(v) > 1e300)
		v = 0;
	snprintf(buf, sizeof(buf), "%f", v);
	cJSON_AddRawToObject(o, key, buf);
}

/* An integer figure held as a double (rates): rounded, never negative. */
static void num_r(cJSON *o, const char *key, double v)
{
	num_u(o, key, isfinite(v) && v > 0 && v < 1.8e19 ? (uint64_t)llround(v) : 0);
}

/* @s: the job's percentile_list (NULL or none given: fio's default list);
 * @pct: write "percentile" (fio: clat always, slat never by default) */
static cJSON *lat_obj_p(const struct hist *h, bool bins, const struct spec *s, bool pct)
{
	const double *pl = s && s->npct ? s->pct_list : pcts;
	size_t npl = s && s->npct ? s->npct : sizeof(pcts) / sizeof(pcts[0]);
	cJSON *o = cJSON_CreateObject(), *p;
	char key[32];

	num_u(o, "min", h->n ? h->min : 0);
	num_u(o, "max", h->n ? h->max : 0);
	num_f(o, "mean", hist_mean(h));
	num_f(o, "stddev", hist_stddev(h));
	num_u(o, "N", h->n);
	if (h->n && pct) {
		p = cJSON_AddObjectToObject(o, "percentile");
		for (size_t i = 0; i < npl; i++) {
			snprintf(key, sizeof(key), "%f", pl[i]);
			num_u(p, key, hist_percentile(h, pl[i]));
		}
	}
	if (h->n && bins) {
		p = cJSON_AddObjectToObject(o, "bins");
		for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
			if (!h->bucket[i])
				continue;
			snprintf(key, sizeof(key), "%" PRIu64, hist_bucket_value(i));
			num_u(p, key, h->bucket[i]);
		}
	}
	return o;
}

static cJSON *lat_obj(const struct hist *h, bool bins, const struct spec *s)
{
	return lat_obj_p(h, bins, s, true);
}

/* Mean, sample deviation, min, max of one direction's per-interval rate
 * (@bw: bytes/s, else IOPS) over the measured intervals. */
struct rate_stats {
	double min, max, mean, dev;
	uint64_t n;
};

static void series_stats(const struct series *s, enum nvs_dir d, bool bw, double scale,
			 struct rate_stats *st)
{
	double sum = 0, sumsq = 0;

	memset(st, 0, sizeof(*st));
	for (size_t i = 0; s && i < s->n; i++) {
		const struct point *p = &s->pt[i];
		if (p->ramp || p->dt <= 0)
			continue;
		double v = (bw ? p->bw[d] : p->iops[d]) / scale;
		if (!st->n || v < st->min)
			st->min = v;
		if (!st->n || v > st->max)
			st->max = v;
		sum += v;
		sumsq += v * v;
		st->n++;
	}
	if (!st->n)
		return;
	st->mean = sum / (double)st->n;
	if (st->n > 1) {
		double var = (sumsq - (double)st->n * st->mean * st->mean) / (double)(st->n - 1);
		st->dev = var > 0 ? sqrt(var) : 0;
	}
}

static cJSON *dir_obj(const struct result *r, enum nvs_dir d, const struct series *ser, bool plus,
		      bool lat_bins, const struct spec *s)
{
	const struct result_dir *rd = &r->dir[d];
	cJSON *o = cJSON_CreateObject();
	struct rate_stats bw, iops;
	double bw_kib = floor(result_bw(r, d) / 1024.0);

	num_u(o, "io_bytes", rd->bytes);
	num_u(o, "io_kbytes", rd->bytes / 1024);
	num_r(o, "bw_bytes", floor(result_bw(r, d)));
	num_r(o, "bw", bw_kib); /* KiB/s, as fio */
	num_f(o, "iops", result_iops(r, d));
	num_r(o, "runtime", rd->ios || rd->errors ? result_runtime(r, d) * 1000.0 : 0); /* ms */
	num_u(o, "total_ios", rd->ios);
	num_u(o, "short_ios", 0);
	num_u(o, "drop_ios", 0);
	/* fio's: slat (prep to submitted; percentiles with slat_percentiles=1),
	 * clat (submitted to completion; json+ bins), lat (prep to completion =
	 * slat + clat; its percentiles are nvscope's).  Not measured: zeros,
	 * N 0, as fio's disable_slat=1 */
	bool spct = s && s->slat_pct;
	cJSON_AddItemToObject(o, "slat_ns", lat_obj_p(&rd->slat, spct && plus, s, spct));
	cJSON_AddItemToObject(o, "clat_ns", lat_obj(&rd->clat, plus, s));
	cJSON_AddItemToObject(o, "lat_ns", lat_obj(&rd->lat, lat_bins, s));
	struct prio_plan pl;
	if (s)
		prio_resolve(&s->prio, &pl);
	if (s && d < 2 && pl.cmd_mode) { /* fio: when >= 2 priorities have samples */
		/* every one: prio_spec_validate refuses more than the result keeps */
		unsigned np = pl.nval[d] < RESULT_MAX_PRIOS ? pl.nval[d] : RESULT_MAX_PRIOS;
		unsigned used = 0;
		for (unsigned i = 0; i < np; i++)
			used += r->prio_lat[d][i].n > 0;
		cJSON *a = used >= 2 ? cJSON_AddArrayToObject(o, "prios") : NULL;
		for (unsigned i = 0; a && i < np; i++) {
			if (!r->prio_lat[d][i].n)
				continue;
			cJSON *e = cJSON_CreateObject();
			num_u(e, "prioclass", pl.val[d][i] >> 13);
			num_u(e, "prio", pl.val[d][i] & 7);
			cJSON_AddItemToObject(e, "clat_ns", lat_obj(&r->prio_lat[d][i], plus, s));
			cJSON_AddItemToArray(a, e);
		}
	}
	if (!rd->ios)
		ser = NULL; /* fio: no samples for a direction that did nothing */
	series_stats(ser, d, true, 1024.0, &bw);
	series_stats(ser, d, false, 1.0, &iops);
	num_r(o, "bw_min", bw.min);
	num_r(o, "bw_max", bw.max);
	num_f(o, "bw_agg", bw_kib > 0 ? 100.0 * bw.mean / bw_kib : 0);
	num_f(o, "bw_mean", bw.mean);
	num_f(o, "bw_dev", bw.dev);
	num_u(o, "bw_samples", bw.n);
	num_r(o, "iops_min", iops.min);
	num_r(o, "iops_max", iops.max);
	num_f(o, "iops_mean", iops.mean);
	num_f(o, "iops_stddev", iops.dev);
	num_u(o, "iops_samples", iops.n);
	num_u(o, "errors", rd->errors);
	if (rd->first_errno)
		cJSON_AddStringToObject(o, "first_error", strerror(rd->first_errno));
	return o;
}

/* fio's latency distribution tables: share (%) of all I/Os whose latency is
 * below each edge (the last ms key is ">=2000"). */
static void lat_tables(cJSON *job, const struct result *r)
{
	static const unsigned edges[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
	double n[10] = {0}, u[10] = {0}, m[12] = {0};
	uint64_t total = 0;
	char key[16];

	for (int d = 0; d < NVS_NDIR; d++) {
		const struct hist *h = &r->dir[d].lat;
		total += h->n;
		for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
			if (!h->bucket[i])
				continue;
			uint64_t v = hist_bucket_value(i);
			double c = (double)h->bucket[i];
			unsigned k;
			if (v < 1000) {
				for (k = 0; k < 9 && v >= edges[k]; k++)
					;
				n[k] += c;
			} else if (v < 1000000) {
				for (k = 0; k < 9 && v / 1000 >= edges[k]; k++)
					;
				u[k] += c;
			} else {
				uint64_t ms = v / 1000000;
				for (k = 0; k < 10 && ms >= edges[k]; k++)
					;
				if (k == 10 && ms >= 1000)
					k = ms < 2000 ? 10 : 11;
				m[k] += c;
			}
		}
	}
	cJSON *on = cJSON_AddObjectToObject(job, "latency_ns");
	cJSON *ou = cJSON_AddObjectToObject(job, "latency_us");
	cJSON *om = cJSON_AddObjectToObject(job, "latency_ms");
	for (int t = 0; t < 3; t++) {
		double *a = t == 0 ? n : t == 1 ? u : m;
		cJSON *o = t == 0 ? on : t == 1 ? ou : om;
		unsigned nk = t == 2 ? 12 : 10;
		for (unsigned k = 0; k < nk; k++) {
			double pct = total ? 100.0 * a[k] / (double)total : 0;
			if (a[k] > 0 && pct < 0.01)
				pct = 0.01; /* fio shows any non-zero share as at least 0.01 */
			if (k < 10)
				snprintf(key, sizeof(key), "%u", edges[k]);
			else
				snprintf(key, sizeof(key), "%s", k == 10 ? "2000" : ">=2000");
			num_f(o, key, pct);
		}
	}
}

/* fio's depth tables (stat.c stat_calc_dist): percent of the I/Os by the
 * depth after their submission, of the submit and reap calls by their size. */
static void depth_tables(cJSON *job, const struct result *r)
{
	const uint64_t *maps[] = {r->depth_map, r->submit_map, r->complete_map};
	const char *names[] = {"iodepth_level", "iodepth_submit", "iodepth_complete"};

	for (int t = 0; t < 3; t++) {
		cJSON *o = cJSON_AddObjectToObject(job, names[t]);
		double pct[7];
		result_depth_pct(maps[t], pct);
		for (int i = 0; i < 7; i++)
			num_f(o, t ? result_batch_keys[i] : result_depth_keys[i], pct[i]);
	}
}

/* fio's "zoned:A/S:...[,read-list]" back from the spec's index tables. */
static void zoned_fmt(const struct spec *s, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "zoned:");
	bool same = !memcmp(s->zone_lo[0], s->zone_lo[1], 100) &&
		    !memcmp(s->zone_hi[0], s->zone_hi[1], 100);

	for (int d = 0; d < (same ? 1 : 2) && n < len; d++) {
		if (d)
			n += (size_t)snprintf(buf + n, len - n, ",");
		for (unsigned v = 0, k; v < 100 && n < len; v = k) {
			for (k = v; k < 100 && s->zone_lo[d][k] == s->zone_lo[d][v] &&
				    s->zone_hi[d][k] == s->zone_hi[d][v];
			     k++)
				;
			if (!s->zone_hi[d][v])
				break;
			n += (size_t)snprintf(buf + n, len - n, "%s%u/%u", v ? ":" : "", k - v,
					      s->zone_hi[d][v] - s->zone_lo[d][v]);
		}
	}
}

static void opt_str(cJSON *o, const char *key, const char *val)
{
	cJSON_AddStringToObject(o, key, val);
}

static void opt_u(cJSON *o, const char *key, uint64_t v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	opt_str(o, key, buf);
}

static void opt_size(cJSON *o, const char *key, uint64_t v)
{
	char buf[32];
	opt_str(o, key, spec_fmt_size(v, buf, sizeof(buf)));
}

/* a size in zones ("8z", zonemode) as written, as fio lists it */
static void opt_zsize(cJSON *o, const char *key, uint64_t bytes, uint64_t zones)
{
	char b[32];
	if (zones && snprintf(b, sizeof(b), "%lluz", (unsigned long long)zones) > 0)
		opt_str(o, key, b);
	else if (bytes)
		opt_size(o, key, bytes);
}

/* The options of job @s at depth @qd as fio names and spells them (strings,
 * as fio writes "job options"): the ones that shape the workload always,
 * the rest when they differ from the default. */
/* "job options": the workload (name, filename, rw, bs, depth, engine,
 * runtime, region) */
static void options_workload(cJSON *o, const struct spec *s, unsigned qd, const char *name)
{
	static const char *const engines[] = {"io_uring", "io_uring_cmd"};
	char buf[1024];

	opt_str(o, "name", name);
	/* fio's filename=a:b form; sized for every target, nothing truncated */
	char *fn = malloc((size_t)NVS_MAX_TARGETS * (sizeof(s->targets[0]) + 1) + 1);
	if (fn) {
		fn[0] = '\0';
		for (unsigned t = 0; t < s->ntargets && t < NVS_MAX_TARGETS; t++) {
			if (t)
				strcat(fn, ":");
			strncat(fn, s->targets[t], sizeof(s->targets[0]) - 1);
		}
		opt_str(o, "filename", fn);
		free(fn);
	}
	opt_str(o, "rw", spec_rw_name(s->rw));
	if (s->rw == RW_RW || s->rw == RW_RANDRW)
		opt_u(o, "rwmixread", s->rwmixread);
	{
		const char *bsk = spec_fmt_bs(s, buf, sizeof(buf));
		if (strcmp(bsk, "bs") || strchr(buf, ',')) {
			opt_str(o, bsk, buf);
			if (strcmp(bsk, "bs"))
				opt_size(o, "bs", s->bs[0].bs); /* fio-plot labels charts by bs */
		} else {
			opt_size(o, "bs", s->bs[0].bs);
		}
	}
	opt_u(o, "iodepth", qd);
	opt_u(o, "numjobs", s->numjobs);
	opt_str(o, "ioengine", (unsigned)s->ioengine < 2 ? engines[s->ioengine] : "?");
	opt_str(o, "direct", s->direct ? "1" : "0");
	if (s->runtime_ns)
		opt_u(o, "runtime", s->runtime_ns / 1000000000ULL);
	if (s->ramp_ns)
		opt_u(o, "ramp_time", s->ramp_ns / 1000000000ULL);
	if (s->time_based)
		opt_str(o, "time_based", "1");
	opt_zsize(o, "size", s->size, s->size_nz);
	opt_zsize(o, "offset", s->offset, s->offset_nz);
	opt_zsize(o, "io_size", s->io_size, s->io_size_nz);
}

/* ... loops and the rate options */
static void options_rate(cJSON *o, const struct spec *s)
{
	if (s->loops > 1)
		opt_u(o, "loops", s->loops);
	if (s->rate_iops)
		opt_u(o, "rate_iops_total", s->rate_iops);
	if (s->rate_iops_dir[0] || s->rate_iops_dir[1]) {
		char rb[48];
		snprintf(rb, sizeof(rb), "%llu,%llu", (unsigned long long)s->rate_iops_dir[0],
			 (unsigned long long)s->rate_iops_dir[1]);
		opt_str(o, "rate_iops", rb);
	}
	if (s->rate_bw_dir[0] || s->rate_bw_dir[1]) {
		char rb[48];
		snprintf(rb, sizeof(rb), "%llu,%llu", (unsigned long long)s->rate_bw_dir[0],
			 (unsigned long long)s->rate_bw_dir[1]);
		opt_str(o, "rate", rb);
	}
	if (s->rate_iops || s->rate_iops_dir[0] || s->rate_iops_dir[1] || s->rate_bw_dir[0] ||
	    s->rate_bw_dir[1])
		opt_str(o, "rate_process",
			s->rate_process == PROCESS_POISSON ? "poisson" : "linear");
}

/* ... block alignment, fio's steady state, syncs and verify */
static void options_data(cJSON *o, const struct spec *s)
{
	if (s->blockalign)
		opt_size(o, "blockalign", s->blockalign);
	jsonss_options(o, s); /* fio's steadystate, ss_dur, ss_ramp */
	/* fio's syncs and verify (io/opt/specdata.c), as given */
	if (s->fsync_blocks)
		opt_u(o, "fsync", s->fsync_blocks);
	if (s->fdatasync_blocks)
		opt_u(o, "fdatasync", s->fdatasync_blocks);
	if (s->sync)
		opt_str(o, "sync", s->sync == SYNC_DSYNC ? "dsync" : "sync");
	if (s->end_fsync)
		opt_str(o, "end_fsync", "1");
	if (s->verify) {
		if (s->verify != VHDR_PATTERN_HDR) /* fio's: implied by verify_pattern alone */
			opt_str(o, "verify", vhdr_name((enum vhdr_type)s->verify));
		opt_str(o, "do_verify", s->do_verify ? "1" : "0");
		if (s->verify_only)
			opt_str(o, "verify_only", "1");
		if (s->verify_fatal)
			opt_str(o, "verify_fatal", "1");
	}
}

/* ... the engine's tuning, the random distribution, CPUs, logs */
static void options_engine(cJSON *o, const struct spec *s)
{
	if (s->sqpoll)
		opt_str(o, "sqthread_poll", "1");
	if (s->hipri)
		opt_str(o, "hipri", "1");
	if (s->batch_submit)
		opt_u(o, "iodepth_batch_submit", s->batch_submit);
	if (s->batch_complete)
		opt_u(o, "iodepth_batch_complete_max", s->batch_complete);
	if (s->dist == DIST_ZONED) {
		char db[1200];
		zoned_fmt(s, db, sizeof(db));
		opt_str(o, "random_distribution", db);
	} else if (s->dist) {
		static const char *const dn[] = {"random", "zipf", "pareto", "normal"};
		char db[64];
		snprintf(db, sizeof(db), "%s:%g", dn[s->dist], s->dist_val);
		opt_str(o, "random_distribution", db);
	}
	if (s->batch_complete_min)
		opt_u(o, "iodepth_batch_complete_min", s->batch_complete_min);
	if (s->cpus_allowed[0])
		opt_str(o, "cpus_allowed", s->cpus_allowed);
	if (s->cpus_split)
		opt_str(o, "cpus_allowed_policy", "split");
	if (s->continue_on_error)
		opt_str(o, "continue_on_error", "all");
	opt_u(o, "log_avg_msec", s->interval_ns / 1000000ULL);
	if (s->log_iops[0])
		opt_str(o, "write_iops_log", s->log_iops);
	if (s->log_lat[0])
		opt_str(o, "write_lat_log", s->log_lat);
	if (s->log_bw[0])
		opt_str(o, "write_bw_log", s->log_bw);
}

/* fio's "job options" of @s at depth @qd, named @name, in fio's order. */
static void job_options(cJSON *o, const struct spec *s, unsigned qd, const char *name)
{
	options_workload(o, s, qd, name);
	options_rate(o, s);
	options_data(o, s);
	options_engine(o, s);
}

static const struct spec *job_spec(const struct json_run *run, unsigned j)
{
	return run->info && run->info[j].spec ? run->info[j].spec : run->spec;
}

/* Did the job measure slat?  Its spec says (spec_slat); without one, any
 * slat sample does. */
static bool slat_measured(const struct result *r, const struct spec *s)
{
	if (s)
		return spec_slat(s);
	for (int d = 0; d < NVS_NDIR; d++)
		if (r->dir[d].slat.n)
			return true;
	return false;
}

/* Each target's own figures (a run over several targets). */
static void add_targets(cJSON *nv, const struct json_run *run, unsigned j)
{
	if (run->targets && run->ntargets > 1) {
		cJSON *ts = cJSON_AddArrayToObject(nv, "targets");
		for (unsigned t = 0; t < run->ntargets; t++) {
			const struct result *tr = &run->targets[j * run->ntargets + t];
			cJSON *to = cJSON_CreateObject();
			cJSON_AddStringToObject(to, "target", tr->target);
			cJSON_AddItemToObject(
			    to, "read",
			    dir_obj(tr, NVS_READ, NULL, false, run->lat_bins, job_spec(run, j)));
			cJSON_AddItemToObject(
			    to, "write",
			    dir_obj(tr, NVS_WRITE, NULL, false, run->lat_bins, job_spec(run, j)));
			cJSON_AddItemToObject(
			    to, "trim",
			    dir_obj(tr, NVS_TRIM, NULL, false, run->lat_bins, job_spec(run, j)));
			cJSON_AddItemToArray(ts, to);
		}
	}
}

/* The machine's CPU per core over job @j, and its IOPS per busy core. */
static void add_cpu(cJSON *nv, const struct json_run *run, unsigned j)
{
	const struct result *r = &run->jobs[j];

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
}

/* A stripe set's members: each one's I/Os, bytes, IOPS and mean latency. */
static void add_members(cJSON *nv, const struct json_run *run, const struct result *r)
{
	if (r->nmembers) {
		cJSON *ms = cJSON_AddArrayToObject(nv, "members");
		for (unsigned m = 0; m < r->nmembers && m < run->spec->ntargets; m++) {
			const struct result_member *rm = &r->member[m];
			cJSON *mo = cJSON_CreateObject();
			cJSON_AddStringToObject(mo, "target", run->spec->targets[m]);
			cJSON_AddNumberToObject(mo, "total_ios", (double)rm->ios);
			cJSON_AddNumberToObject(mo, "io_bytes", (double)rm->bytes);
			cJSON_AddNumberToObject(
			    mo, "iops", r->runtime_s > 0 ? (double)rm->ios / r->runtime_s : 0);
			cJSON_AddNumberToObject(mo, "lat_mean_ns",
						rm->ios ? (double)rm->lat_sum_ns / (double)rm->ios
							: 0);
			cJSON_AddItemToArray(ms, mo);
		}
	}
}

/* nvscope's per-interval rows of the job. */
static void add_series(cJSON *nv, const struct series *s, double t0)
{
	cJSON *arr = cJSON_AddArrayToObject(nv, "series");
	for (size_t i = 0; i < s->n; i++) {
		const struct point *p = &s->pt[i];
		cJSON *po = cJSON_CreateObject();
		cJSON_AddNumberToObject(po, "t", p->t - t0);
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

/* "nvscope": what fio has no place for - the target and depth, the engine
 * mapping, dropped samples, what was not measured, verify, per-target,
 * CPU, stripe members and the per-interval rows of job @j. */
static void add_nvscope(cJSON *o, const struct json_run *run, unsigned j)
{
	const struct result *r = &run->jobs[j];
	cJSON *nv = cJSON_AddObjectToObject(o, "nvscope");

	cJSON_AddStringToObject(nv, "target", r->target);
	cJSON_AddNumberToObject(nv, "iodepth", r->iodepth);
	char note[PRESET_NOTE_LEN];
	if (run->info && run->info[j].spec &&
	    preset_engine_note(run->info[j].spec, note, sizeof(note))[0])
		cJSON_AddStringToObject(nv, "engine_mapping", note);
	cJSON_AddNumberToObject(nv, "dropped_samples", (double)r->dropped);
	cJSON *nm = cJSON_AddArrayToObject(nv, "not_measured");
	if (!slat_measured(r, job_spec(run, j))) /* io/opt/spec.h spec_slat */
		cJSON_AddItemToArray(nm, cJSON_CreateString("slat"));
	if (job_spec(run, j) && job_spec(run, j)->verify) { /* fio's verify= */
		cJSON *vo = cJSON_AddObjectToObject(nv, "verify");
		cJSON_AddStringToObject(vo, "type",
					vhdr_name((enum vhdr_type)job_spec(run, j)->verify));
		num_u(vo, "blocks", r->verify_blocks);
		num_u(vo, "bad", r->verify_bad);
		if (r->verify_bad)
			num_u(vo, "first_bad_offset", r->verify_first_bad);
	}
	cJSON_AddNumberToObject(nv, "cancelled", (double)r->cancelled);
	cJSON_AddNumberToObject(nv, "late", (double)r->late);
	/* the workers the loop's plain copy ran (docs/performance.md) */
	cJSON *lo = cJSON_AddObjectToObject(nv, "loop");
	num_u(lo, "workers", r->workers);
	num_u(lo, "plain", r->plain_workers);
	cJSON_AddNumberToObject(nv, "unfinished", (double)r->unfinished);
	double cpu_s = r->usr_s + r->sys_s;
	cJSON_AddNumberToObject(
	    nv, "iops_per_cpu_second",
	    cpu_s > 0 ? (double)(r->dir[0].ios + r->dir[1].ios + r->dir[2].ios) / cpu_s : 0);
	add_targets(nv, run, j);
	add_cpu(nv, run, j);
	add_members(nv, run, r);
	if (run->series)
		add_series(nv, &run->series[j], run->series_t0 ? run->series_t0[j] : 0);
}

static cJSON *job_obj(const struct json_run *run, unsigned j)
{
	const struct result *r = &run->jobs[j];
	const struct json_job *info = run->info ? &run->info[j] : NULL;
	const struct series *ser = run->series ? &run->series[j] : NULL;
	cJSON *o = cJSON_CreateObject(), *sync;
	int err = r->error		  ? r->error
		  : r->dir[0].first_errno ? r->dir[0].first_errno
		  : r->dir[1].first_errno ? r->dir[1].first_errno
					  : r->dir[2].first_errno;

	cJSON_AddStringToObject(o, "jobname", r->name);
	num_u(o, "groupid", run->groupid ? run->groupid[j] : j);
	num_u(o, "error", (uint64_t)(err > 0 ? err : 0));
	num_u(o, "eta", 0);
	num_u(o, "elapsed",
	      info ? (uint64_t)llround(info->elapsed_s > 0 ? info->elapsed_s : 0) : 0);
	if (info && info->opt_spec)
		job_options(cJSON_AddObjectToObject(o, "job options"), info->opt_spec,
			    info->opt_spec->iodepth[0], r->name);
	else
		job_options(cJSON_AddObjectToObject(o, "job options"), job_spec(run, j), r->iodepth,
			    r->name);
	cJSON_AddItemToObject(
	    o, "read", dir_obj(r, NVS_READ, ser, run->plus, run->lat_bins, job_spec(run, j)));
	cJSON_AddItemToObject(
	    o, "write", dir_obj(r, NVS_WRITE, ser, run->plus, run->lat_bins, job_spec(run, j)));
	cJSON_AddItemToObject(
	    o, "trim", dir_obj(r, NVS_TRIM, ser, run->plus, run->lat_bins, job_spec(run, j)));
	/* fio's fsync/fdatasync: how many, and their latency */
	sync = cJSON_AddObjectToObject(o, "sync");
	num_u(sync, "total_ios", r->sync_ios);
	cJSON_AddItemToObject(sync, "lat_ns", lat_obj(&r->sync_lat, false, job_spec(run, j)));
	double jrt = info && info->job_runtime_s > 0 ? info->job_runtime_s : r->runtime_s;
	num_r(o, "job_runtime", jrt * 1000.0);
	num_f(o, "usr_cpu", jrt > 0 ? 100 * r->usr_s / jrt : 0);
	num_f(o, "sys_cpu", jrt > 0 ? 100 * r->sys_s / jrt : 0);
	num_u(o, "ctx", info ? info->ctx : 0);
	num_u(o, "majf", info ? info->majf : 0);
	num_u(o, "minf", info ? info->minf : 0);
	depth_tables(o, r);
	lat_tables(o, r);
	{ /* fio's latency target: ns, percent, us; the depth the search ended at */
		const struct spec *js = job_spec(run, j);
		bool lt = js && js->lat_target_ns;
		num_u(o, "latency_depth", lt && r->lat_depth ? r->lat_depth : r->iodepth);
		num_u(o, "latency_target", lt ? js->lat_target_ns : 0);
		num_f(o, "latency_percentile", lt ? js->lat_pct : 100.0);
		num_u(o, "latency_window", lt ? js->lat_window_ns / 1000 : 0);
	}

	if (info)
		jsonss_add(o, info->ss); /* fio's "steadystate" (ss_dur > 0) */
	add_nvscope(o, run, j);
	return o;
}

void *json_read_file(const char *path)
{
	char msg[256], *buf = NULL;
	size_t len = 0;
	cJSON *o = NULL;
	/* docs/safety.md "Rule: hostile inputs": a regular file, capped */
	int rc = input_read_all(path, JSON_MAX_BYTES, "JSON file", &buf, &len, msg, sizeof(msg));

	if (rc) {
		errno = -rc;
		return NULL;
	}
	o = cJSON_Parse(buf);
	if (!o)
		errno = EINVAL;
	free(buf);
	return o;
}

/* "global options": with several jobs, the options every job has with the
 * same value (fio-plot merges them over each job's own, so they must never
 * contradict one); omitted for a single job, as fio does for a command line. */
static void global_options(cJSON *root, cJSON *jobs)
{
	cJSON *first = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(jobs, 0), "job options");
	cJSON *g, *opt;

	if (cJSON_GetArraySize(jobs) < 2 || !first)
		return;
	g = cJSON_CreateObject();
	cJSON_ArrayForEach(opt, first)
	{
		bool same = strcmp(opt->string, "name") != 0;
		cJSON *job;
		cJSON_ArrayForEach(job, jobs)
		{
			cJSON *o = cJSON_GetObjectItemCaseSensitive(job, "job options");
			cJSON *v = cJSON_GetObjectItemCaseSensitive(o, opt->string);
			if (!same || !v || !cJSON_IsString(v) ||
			    strcmp(v->valuestring, opt->valuestring))
				same = false;
		}
		if (same)
			cJSON_AddStringToObject(g, opt->string, opt->valuestring);
	}
	cJSON_AddItemToObject(root, "global options", g);
}

static cJSON *disk_obj(const struct diskstat *d)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", d->name);
	num_u(o, "read_ios", d->ios[0]);
	num_u(o, "write_ios", d->ios[1]);
	num_u(o, "read_merges", d->merges[0]);
	num_u(o, "write_merges", d->merges[1]);
	num_u(o, "read_ticks", d->ticks[0]);
	num_u(o, "write_ticks", d->ticks[1]);
	num_u(o, "in_queue", d->in_queue);
	num_f(o, "util", diskstat_util(d));
	return o;
}

/* Replaces @*str (allocated by cJSON) by its UTF-8 repair when it is not
 * well-formed.  0 or -ENOMEM. */
static int repair_string(char **str)
{
	char *fixed, *copy;
	size_t n;

	if (!*str || utf8_valid(*str, strlen(*str)))
		return 0;
	fixed = utf8_repair(*str);
	if (!fixed)
		return -ENOMEM;
	n = strlen(fixed) + 1;
	copy = cJSON_malloc(n);
	if (copy) {
		memcpy(copy, fixed, n);
		cJSON_free(*str);
		*str = copy;
	}
	free(fixed);
	return copy ? 0 : -ENOMEM;
}

int json_make_utf8(void *tree)
{
	for (cJSON *it = tree; it; it = it->next) {
		if (!(it->type & cJSON_StringIsConst) && repair_string(&it->string))
			return -ENOMEM;
		if ((cJSON_IsString(it) || cJSON_IsRaw(it)) && repair_string(&it->valuestring))
			return -ENOMEM;
		if (it->child && json_make_utf8(it->child))
			return -ENOMEM;
	}
	return 0;
}

char *json_print(void *tree)
{
	if (json_make_utf8(tree))
		return NULL;
	return cJSON_Print(tree);
}

int json_puts(void *tree, FILE *f)
{
	char *s = tree ? json_print(tree) : NULL;
	int rc = s ? 0 : -ENOMEM;

	if (s && fprintf(f, "%s\n", s) < 0)
		rc = -EIO;
	free(s);
	return rc;
}

int json_write_run(FILE *f, const struct json_run *run)
{
	cJSON *root = cJSON_CreateObject(), *jobs, *nv;
	char *text;
	char buf[64];
	int rc = 0;
	struct timespec now;

	if (!root)
		return -ENOMEM;
	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(buf, sizeof(buf), "nvscope-%s", NVS_VERSION);
	cJSON_AddStringToObject(root, "fio version", buf);
	num_u(root, "timestamp", (uint64_t)now.tv_sec);
	num_u(root, "timestamp_ms", (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000);
	struct tm tm;
	if (localtime_r(&now.tv_sec, &tm) &&
	    strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm))
		cJSON_AddStringToObject(root, "time", buf);
	jobs = cJSON_CreateArray();
	for (unsigned j = 0; j < run->njobs; j++)
		cJSON_AddItemToArray(jobs, job_obj(run, j));
	global_options(root, jobs);
	cJSON_AddItemToObject(root, "jobs", jobs);
	if (run->ndisks) {
		cJSON *du = cJSON_AddArrayToObject(root, "disk_util");
		for (unsigned i = 0; i < run->ndisks; i++)
			cJSON_AddItemToArray(du, disk_obj(&run->disks[i]));
	}
	nv = cJSON_AddObjectToObject(root, "nvscope");
	cJSON_AddStringToObject(nv, "version", NVS_VERSION);
	cJSON_AddNumberToObject(nv, "dropped_samples", (double)run->dropped);
	cJSON_AddNumberToObject(nv, "interval_s", (double)run->spec->interval_ns / 1e9);
	if (run->stop_signal) /* the results of the window measured before it */
		cJSON_AddNumberToObject(nv, "stopped_by_signal", run->stop_signal);
	char note[PRESET_NOTE_LEN];
	if (preset_engine_note(run->spec, note, sizeof(note))[0]) /* a job file's ioengine= */
		cJSON_AddStringToObject(nv, "engine_mapping", note);
	cJSON *tg = cJSON_AddArrayToObject(nv, "targets");
	for (unsigned t = 0; t < run->spec->ntargets; t++)
		cJSON_AddItemToArray(tg, cJSON_CreateString(run->spec->targets[t]));
	if (run->extra_key && run->extra_json) {
		cJSON *x = cJSON_Parse(run->extra_json);
		if (x)
			cJSON_AddItemToObject(nv, run->extra_key, x);
	}
	if (run->repeat_json) {
		cJSON *x = cJSON_Parse(run->repeat_json);
		if (x)
			cJSON_AddItemToObject(nv, "repeat", x);
	}
	text = json_print(root);
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

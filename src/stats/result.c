/* result.c - a job's final figures and their merge. */
#include <string.h>
#include "stats/result.h"

/* Zeroed where it is not zero already (hist_clear): its ~430 KiB of
 * histograms - lat, slat, clat per direction, sync, cmdprio's per
 * priority - cost resident memory only where a value reached them, so a
 * job's result holds what the job measures (all zero is an empty
 * histogram, hist.h). */
void result_init(struct result *r)
{
	hist_clear(r, sizeof(*r));
	r->verify_first_bad = UINT64_MAX;
}

const char *const result_depth_keys[7] = {"1", "2", "4", "8", "16", "32", ">=64"};
const char *const result_batch_keys[7] = {"0", "4", "8", "16", "32", "64", ">=64"};

void result_depth_pct(const uint64_t map[7], double pct[7])
{
	uint64_t total = 0;

	for (int i = 0; i < 7; i++)
		total += map[i];
	for (int i = 0; i < 7; i++) {
		pct[i] = total ? 100.0 * (double)map[i] / (double)total : 0;
		if (map[i] && pct[i] < 0.1)
			pct[i] = 0.1;
	}
}

void result_merge(struct result *dst, const struct result *src)
{
	if (!dst->error)
		dst->error = src->error;
	for (int d = 0; d < NVS_NDIR; d++) {
		dst->dir[d].ios += src->dir[d].ios;
		dst->dir[d].bytes += src->dir[d].bytes;
		dst->dir[d].errors += src->dir[d].errors;
		if (!dst->dir[d].first_errno)
			dst->dir[d].first_errno = src->dir[d].first_errno;
		hist_merge(&dst->dir[d].lat, &src->dir[d].lat);
		hist_merge(&dst->dir[d].slat, &src->dir[d].slat);
		hist_merge(&dst->dir[d].clat, &src->dir[d].clat);
	}
	dst->sync_ios += src->sync_ios;
	if (src->lat_depth) /* fio: the last job's, as its group report */
		dst->lat_depth = src->lat_depth;
	dst->verify_blocks += src->verify_blocks;
	dst->verify_bad += src->verify_bad;
	if (src->verify_bad && src->verify_first_bad < dst->verify_first_bad)
		dst->verify_first_bad = src->verify_first_bad;
	hist_merge(&dst->sync_lat, &src->sync_lat);
	for (int d = 0; d < 2; d++)
		for (int i = 0; i < RESULT_MAX_PRIOS; i++)
			if (src->prio_lat[d][i].n)
				hist_merge(&dst->prio_lat[d][i], &src->prio_lat[d][i]);
	if (src->runtime_s > dst->runtime_s)
		dst->runtime_s = src->runtime_s;
	if (src->verify_s > dst->verify_s)
		dst->verify_s = src->verify_s;
	dst->usr_s += src->usr_s;
	dst->sys_s += src->sys_s;
	dst->dropped += src->dropped;
	dst->cancelled += src->cancelled;
	dst->late += src->late;
	dst->unfinished += src->unfinished;
	dst->workers += src->workers;
	dst->plain_workers += src->plain_workers;
	for (int i = 0; i < 7; i++) {
		dst->depth_map[i] += src->depth_map[i];
		dst->submit_map[i] += src->submit_map[i];
		dst->complete_map[i] += src->complete_map[i];
	}
	if (src->nmembers > dst->nmembers)
		dst->nmembers = src->nmembers;
	for (unsigned m = 0; m < src->nmembers; m++) {
		dst->member[m].ios += src->member[m].ios;
		dst->member[m].bytes += src->member[m].bytes;
		dst->member[m].lat_sum_ns += src->member[m].lat_sum_ns;
	}
}

double result_runtime(const struct result *r, enum nvs_dir d)
{
	return d == NVS_READ && r->verify_s > 0 ? r->verify_s : r->runtime_s;
}

double result_iops(const struct result *r, enum nvs_dir d)
{
	double t = result_runtime(r, d);
	return t > 0 ? (double)r->dir[d].ios / t : 0;
}

double result_bw(const struct result *r, enum nvs_dir d)
{
	double t = result_runtime(r, d);
	return t > 0 ? (double)r->dir[d].bytes / t : 0;
}

double result_total_iops(const struct result *r)
{
	return result_iops(r, NVS_READ) + result_iops(r, NVS_WRITE) + result_iops(r, NVS_TRIM);
}

void result_lat_pair(const struct hist *rd, const struct hist *wr, struct lat_all *out)
{
	memset(out, 0, sizeof(*out));
	out->n = rd->n + wr->n;
	if (!out->n)
		return;
	out->mean_us = (double)(rd->sum + wr->sum) / (double)out->n / 1e3;
	out->p99_us = (double)hist_percentile2(rd, wr, 99) / 1e3;
	out->p9999_us = (double)hist_percentile2(rd, wr, 99.99) / 1e3;
	uint64_t max = 0;
	if (rd->n)
		max = rd->max;
	if (wr->n && wr->max > max)
		max = wr->max;
	out->max_us = (double)max / 1e3;
}

void result_lat_all(const struct result *r, struct lat_all *out)
{
	result_lat_pair(&r->dir[NVS_READ].lat, &r->dir[NVS_WRITE].lat, out);
}

/* result.h - the final figures of one job (one target, or the aggregate):
 * exact totals merged from every worker's full histograms. */
#ifndef NVS_RESULT_H
#define NVS_RESULT_H

#include <stdint.h>
#include "nvscope.h"
#include "stats/hist.h"

struct result_dir {
	uint64_t ios, bytes, errors;
	int first_errno;
	struct hist lat;  /* issue to completion, ns */
};

/* One member of a stripe set: what the set's I/Os did on it. */
struct result_member {
	uint64_t ios, bytes, lat_sum_ns;
};

struct result {
	char name[64];
	char target[256];  /* path, or "aggregate" */
	unsigned iodepth, numjobs;
	double runtime_s;  /* measured time (after ramp) */
	double usr_s, sys_s; /* CPU of the worker threads */
	uint64_t dropped;  /* samples dropped on full rings */
	/* I/Os in flight when the window closed (runtime or stop), none in the
	 * totals: cancelled by the kernel, late = completed during the grace
	 * after it, unfinished = still in the kernel when the grace ran out */
	uint64_t cancelled, late, unfinished;
	struct result_dir dir[NVS_NDIR];
	/* fio's fsync=/fdatasync= (its "sync" section): syncs completed in the
	 * measured window, their latency; a failed sync counts as a write error */
	uint64_t sync_ios;
	struct hist sync_lat;
	/* fio's verify: blocks checked (read-back or verified reads), how many
	 * were bad, the byte offset of the first bad one (UINT64_MAX: none) */
	uint64_t verify_blocks, verify_bad, verify_first_bad;
	unsigned nmembers;  /* > 0 for a stripe set */
	struct result_member member[NVS_MAX_TARGETS];
};

/* Zeroes @r and its histograms. */
void result_init(struct result *r);
/* Adds @src into @dst (counts, histograms, CPU); runtime is the max. */
void result_merge(struct result *dst, const struct result *src);
/* IOPS and bytes/s of a direction over the measured runtime. */
double result_iops(const struct result *r, enum nvs_dir d);
double result_bw(const struct result *r, enum nvs_dir d);
/* Total IOPS (reads, writes and trims). */
double result_total_iops(const struct result *r);

/* Latency of both directions together, in us, exactly as from one merged
 * histogram (no copy is made): n = 0 leaves every figure 0. */
struct lat_all {
	uint64_t n;
	double mean_us, p99_us, p9999_us, max_us;
};
void result_lat_pair(const struct hist *rd, const struct hist *wr, struct lat_all *out);
/* The same of @r's two directions. */
void result_lat_all(const struct result *r, struct lat_all *out);

#endif

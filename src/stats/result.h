/* result.h - the final figures of one job (one target, or the aggregate):
 * exact totals merged from every worker's full histograms. */
#ifndef NVS_RESULT_H
#define NVS_RESULT_H

#include <stdint.h>
#include "nvscope.h"
#include "stats/hist.h"

/* fio's "prios": the distinct priorities of a direction kept (each a full
 * histogram); a job using more is refused (io/feat/prio.c), none is dropped */
#define RESULT_MAX_PRIOS 8

struct result_dir {
	uint64_t ios, bytes, errors;
	int first_errno;
	struct hist lat; /* issue to completion, ns (fio's lat: slat + clat) */
	/* fio's slat (the I/O's preparation to its submission returning; empty
	 * when the job does not measure it, io/opt/spec.h spec_slat) and clat
	 * (submission to completion, or from the start of the io_uring_enter
	 * that submitted it when slat is not measured), ns; clat is lat where
	 * the worker did not time a submission (verify's read-back) */
	struct hist slat, clat;
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
	/* the workers that ran the job, and those of them the loop's plain
	 * copy ran (io/core/worker.c: none of the options it drops set) */
	uint32_t workers, plain_workers;
	struct result_dir dir[NVS_NDIR];
	/* fio's fsync=/fdatasync= (its "sync" section): syncs completed in the
	 * measured window, their latency; a failed sync counts as a write error */
	uint64_t sync_ios;
	struct hist sync_lat;
	/* fio's verify: blocks checked (read-back or verified reads), how many
	 * were bad, the byte offset of the first bad one (UINT64_MAX: none) */
	uint64_t verify_blocks, verify_bad, verify_first_bad;
	/* do_verify's read-back after a write job's I/O: its reads are the
	 * job's reads (as fio counts them) and its time their runtime (fio's
	 * update_runtime(DDIR_READ) after do_verify); 0 = none */
	double verify_s;
	unsigned nmembers;  /* > 0 for a stripe set */
	struct result_member member[NVS_MAX_TARGETS];
	/* fio's depth tables (io_u.c io_u_mark_depth/_submit/_complete), over
	 * the measured window: I/Os by the queue depth after their submission
	 * (1, 2-3, 4-7, 8-15, 16-31, 32-63, >=64); submit and reap calls by the
	 * I/Os they moved (0, 1-4, 5-8, 9-16, 17-32, 33-64, >64) */
	uint64_t depth_map[7], submit_map[7], complete_map[7];
	/* fio's per-priority clat (JSON "prios"), kept when a cmdprio option
	 * is in use: the reads' and writes' I/Os of priority index i
	 * (spec_prio.val[dir][i], 0 = the job's own priority) */
	struct hist prio_lat[2][RESULT_MAX_PRIOS];
	/* fio's latency_depth with latency_target: the depth the search ended
	 * at (0 without a target: the iodepth) */
	unsigned lat_depth;
	/* the job's error (fio's "error": its first, a positive errno, 0):
	 * an I/O error, verify_fatal's EILSEQ, a failed run of the job */
	int error;
};

/* fio's bucket of a queue depth (io_u_mark_depth) and of a batch size
 * (__io_u_mark_map), indexes into the maps above. */
static inline unsigned result_depth_idx(unsigned depth)
{
	return depth >= 64 ? 6 : depth >= 32 ? 5 : depth >= 16 ? 4 : depth >= 8 ? 3
	       : depth >= 4 ? 2 : depth >= 2 ? 1 : 0;
}
static inline unsigned result_batch_idx(unsigned n)
{
	return n > 64 ? 6 : n > 32 ? 5 : n > 16 ? 4 : n > 8 ? 3 : n > 4 ? 2 : n ? 1 : 0;
}

/* fio's stat_calc_dist: each of the 7 counts of @map as a percent of their
 * sum into @pct; a non-zero share under 0.1% shows as 0.1 (so the shares
 * may add up to a little over 100), all zeros without counts. */
void result_depth_pct(const uint64_t map[7], double pct[7]);
/* fio's keys of those tables: depth_map's ("1" .. ">=64") and the submit
 * and complete maps' ("0" .. ">=64"), as the JSON and the text print them. */
extern const char *const result_depth_keys[7];
extern const char *const result_batch_keys[7];

/* Zeroes @r and its histograms. */
void result_init(struct result *r);
/* Adds @src into @dst (counts, histograms, CPU); runtime is the max. */
void result_merge(struct result *dst, const struct result *src);
/* The runtime of direction @d in seconds: the measured runtime, or for the
 * reads of a write job with do_verify the read-back's time (fio's). */
double result_runtime(const struct result *r, enum nvs_dir d);
/* IOPS and bytes/s of a direction over its runtime (result_runtime). */
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

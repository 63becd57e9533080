/* sample.h - the fixed-size record a worker pushes into its ring once per
 * interval: what crosses from the I/O threads to the consumer. */
#ifndef NVS_SAMPLE_H
#define NVS_SAMPLE_H

#include <stdint.h>
#include "nvscope.h"
#include "stats/hist.h"

#define SAMPLE_RAMP 0x1 /* interval lies (partly) in ramp_time: not measured */
#define SAMPLE_LAST 0x2 /* the worker's final sample */
#define SAMPLE_GAP 0x4	/* the worker did not run through (all of) the interval:
			 * the process was stopped (SIGSTOP, Ctrl-Z) - no data */

struct sample_dir {
	uint64_t ios, bytes, errors;
	/* latency (issue to completion, ns) of this interval's completions */
	uint64_t lat_n, lat_sum, lat_min, lat_max;
	double lat_sumsq;
	/* the part of lat before clat of those lat_n I/Os, summed: their slat
	 * (prep to submission returned) when the job measures it, else prep to
	 * the start of the io_uring_enter that submitted them (not reported
	 * as slat: io/core/worker.c); their clat sum is lat_sum - slat_sum */
	uint64_t slat_sum;
	uint32_t lat_bucket[HIST_NBUCKETS]; /* hist.h buckets, this interval only */
};

struct sample {
	uint32_t worker;       /* worker index in its pool */
	uint32_t target;       /* target index in the spec */
	uint64_t seq;          /* interval index since the pool's start */
	uint64_t t_start_ns;   /* interval bounds, ns since the pool's start */
	uint64_t t_end_ns;
	uint32_t flags;        /* SAMPLE_* */
	int32_t first_errno;   /* first I/O error of the interval (positive), 0 */
	uint64_t usr_ns, sys_ns; /* CPU time of the worker thread in the interval */
	uint64_t inflight;     /* I/Os in flight at the end of the interval */
	struct sample_dir dir[NVS_NDIR];
};

#endif

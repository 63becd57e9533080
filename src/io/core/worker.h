/* worker.h - one I/O thread: owns an io_uring, keeps iodepth I/Os in flight,
 * times every completion into its histograms and pushes one sample per
 * interval into its ring.  Engine-internal (used by pool.c). */
#ifndef NVS_WORKER_H
#define NVS_WORKER_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "io/core/backend.h"
#include "io/core/datagen.h"
#include "io/core/offgen.h"
#include "io/trace/replay.h"
#include "io/opt/spec.h"
#include "io/core/target.h"
#include "ring/spsc.h"
#include "stats/result.h"
#include "stats/sample.h"

/* What every worker of a pool shares; written by the controlling thread,
 * read by workers through atomics only. */
struct worker_shared {
	_Atomic int stop;	  /* 1: finish in-flight I/O and end */
	_Atomic int go;		  /* start gate */
	_Atomic unsigned ready;	  /* workers set up (or failed) */
	_Atomic unsigned running; /* workers not yet ended */
	_Atomic uint64_t t0;	  /* job start, CLOCK_MONOTONIC ns */
	_Atomic int error;	  /* first error, -errno; msg valid when set */
	char msg[256];		  /* written once, before error is published */
	_Atomic int msg_claim;
};

struct worker {
	unsigned id, target; /* index in pool; target index (0 for stripe) */
	const struct spec *spec;
	const struct datagen_place *place; /* its job's place in the run (io/core/datagen.h) */
	unsigned qd;
	struct target *members; /* one target, or the stripe set */
	unsigned nmembers;
	uint64_t region_start, region_len; /* logical, bytes */
	/* fio's file set (spec.fileset): members[i]'s region, and the bytes
	 * a pass over it is (0 = no per-file limit: time_based, io_size) */
	bool fileset;
	uint64_t fstart[NVS_MAX_TARGETS], flen[NVS_MAX_TARGETS], flimit[NVS_MAX_TARGETS];
	uint32_t align;
	bool pin;	/* set the affinity to cpus */
	cpu_set_t cpus; /* cpus_allowed (all, or one with split) */
	const struct backend_ops *be;
	struct worker_shared *shared;
	struct spsc *out; /* this worker's sample ring */
	pthread_t thread;
	bool started;
	/* final figures, read by the pool once shared->running is 0 */
	struct result res;
	bool abandoned; /* ended with I/O stuck in the kernel:
			 * detach, do not join (see worker.c) */
	void *priv;	/* the running state (worker.c) */
	/* trace replay (io/trace/replay.h): this copy walks trace->io[] in order,
	 * offsets relative to region_start, starting trace_delay_ns after t0 */
	const struct trace *trace;
	uint64_t trace_delay_ns;
	struct replay_stats tstats; /* final, read like res */
	/* write_iolog (io/trace/iolog.h): one record per issued I/O, NULL without */
	struct spsc *iolog;
	_Atomic uint64_t *iolog_clock;
	/* fio's flow (io/feat/flow.h): joined by the pool; at its end the worker
	 * publishes its I/Os through the gate + 1 in flow_ended (0: running)
	 * and the pool's controlling thread reaps it (pool_drain, pool_join:
	 * fio's reap_threads), which leaves the flow then (as fio's
	 * flow_exit_job); NULL without, or once left */
	struct flow *flow;
	_Atomic uint64_t flow_ended;
	/* zonemode=zbd (io/feat/zbd.h): the target's zones, NULL without */
	struct zbd *zbd;
};

/* How long a stopping worker waits for its cancelled I/Os (documented in
 * docs/cli.md): after it the I/O is abandoned and the worker ends. */
#define WORKER_GRACE_NS (NVS_NSEC_PER_SEC)

/* Thread body: arg is the struct worker. */
void *worker_main(void *arg);
/* Monotonic clock in ns (inline: read on the issue path; a header
 * function, so the worker's helpers do not call back into worker.c). */
static inline uint64_t worker_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NVS_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}
/* Records the first error of the job (first caller wins); wfail.c. */
void worker_fail(struct worker_shared *sh, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif

/* flow.h - fio's flow control between jobs (fio's flow.c): jobs with the
 * same flow_id share a counter of I/Os and the sum of their weights
 * (flow=); before each I/O a job compares its share of the counter with
 * its share of the weights and, when it is ahead, issues nothing: with
 * flow_sleep it waits for its I/O in flight, then sleeps flow_sleep µs
 * (fio's io_u_quiesce + usleep), else it looks again shortly.  Each worker
 * is one of fio's jobs (numjobs clones, one per target).  The shared state
 * is C11 atomics in a process-wide table; joining and leaving (set-up and
 * end of a worker) take no lock either. */
#ifndef NVS_FLOW_H
#define NVS_FLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/opt/opt.h"
#include "io/opt/spec.h"

#define FLOW_MAX_WEIGHT 1000  /* fio's FLOW_MAX_WEIGHT */
#define FLOW_MAX_IDS	64    /* distinct flow_ids in one process */
#define FLOW_POLL_NS	20000 /* flow_sleep=0: look again after 20 µs */

struct flow;

/* A worker's side of the gate (in its running state). */
struct flow_state {
	uint64_t n;	/* I/Os this worker let through (fio's td->flow_counter) */
	uint64_t until; /* held: issue nothing before this (ns), 0 = not held */
	bool quiesce;	/* held with flow_sleep: waiting for the I/O in flight */
	bool zbd;	/* zonemode=zbd: held, it waits for its I/O in flight also
			 * without flow_sleep (fio's flow_threshold_exceeded) */
};

/* Adds @weight to flow @id's total (fio's flow_init_job); the flow, or
 * NULL when FLOW_MAX_IDS other ids are in use.  Set-up, any thread. */
struct flow *flow_join(unsigned id, unsigned weight);
/* Takes back a worker's @count I/Os and @weight (fio's flow_exit_job). */
void flow_leave(struct flow *f, uint64_t count, unsigned weight);
/* The submit path: true when the worker may issue one I/O now (counted);
 * false when it is ahead of its weight or still held: then *@wake_ns is
 * when to look again (0: after the next completion). */
bool flow_gate(struct flow *f, struct flow_state *fs, unsigned weight, uint64_t sleep_ns,
	       unsigned inflight, uint64_t now, uint64_t *wake_ns);

/* fio's options flow, flow_id, flow_sleep, flow_watermark (accepted and
 * ignored, as fio's deprecated option): 0, -EINVAL with @err, or -ENOENT
 * when @key is none of them. */
#define FLOW_NOPTS 4
extern const struct opt_row flow_opts[FLOW_NOPTS];

#endif

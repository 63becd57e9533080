/* xrun.h - fio's job-running options (struct spec_xrun): nice,
 * thinktime_spin, thinktime_iotime, iodepth_low, exitall_on_error,
 * numa_cpu_nodes, numa_mem_policy.  Parsed here, applied by each worker
 * thread (xrun_apply_thread) and its loop (think.h's helpers below). */
#ifndef NVS_XRUN_H
#define NVS_XRUN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/opt/spec.h"
#include "io/opt/opt.h"

/* fio's exitall_on_error, iodepth_low, nice, numa_cpu_nodes, numa_mem_policy, thinktime_iotime,
 * thinktime_spin (the names in xrun_opts): a row each in io/opt/opt.c's one table. */
#define XRUN_NOPTS 7
extern const struct opt_row xrun_opts[XRUN_NOPTS];
/* Checks them against the rest of @s.  0 or -EINVAL with @err. */
int xrun_spec_validate(const struct spec *s, char *err, size_t errlen);
/* On the calling worker thread: nice (setpriority of the thread), the
 * NUMA CPU set (replacing cpus_allowed's, as fio's numa_run_on_node_mask
 * does) and memory policy (set_mempolicy: the buffers allocated after it
 * follow it).  0 or -errno with @err. */
int xrun_apply_thread(const struct spec *s, char *err, size_t errlen);

/* fio's thinktime in the worker's loop (backend.c handle_thinktime). */
struct think {
	uint64_t until;	   /* the pause ends (0: not pausing) */
	uint64_t io_until; /* thinktime_iotime: the pause is due then (0: never) */
	unsigned left;	   /* I/Os before the pause (UINT_MAX: not counted) */
};

/* @start: the job starts (fio's first pause is due thinktime_iotime +
 * thinktime after it: since the last pause began, counted from the epoch),
 * else a pause ends (the next is due thinktime_iotime later). */
static inline void think_init(struct think *k, const struct spec *s, uint64_t now, bool start)
{
	k->until = 0;
	/* fio: with thinktime_iotime and no thinktime_blocks, blocks do not count */
	k->left =
	    s->xrun.think_iotime_ns && !s->xrun.think_blocks_set ? UINT_MAX : s->thinktime_blocks;
	k->io_until = s->xrun.think_iotime_ns
			  ? now + s->xrun.think_iotime_ns + (start ? s->thinktime_ns : 0)
			  : 0;
}

/* True while no I/O may be issued (a pause is due or running). */
static inline bool think_hold(const struct think *k, const struct spec *s, uint64_t now)
{
	return s->thinktime_ns && (!k->left || k->until || (k->io_until && now >= k->io_until));
}

static inline void think_issued(struct think *k)
{
	if (k->left && k->left != UINT_MAX)
		k->left--;
}

/* Spins on the CPU from @now for @ns; returns the time after. */
uint64_t xrun_spin(uint64_t now, uint64_t ns);

/* At the top of the loop: once a due pause finds nothing in flight it
 * starts (thinktime_spin of it spinning on the CPU, the rest asleep); at
 * its end the counters restart.  Returns the time (after a spin). */
static inline uint64_t think_step(struct think *k, const struct spec *s, uint64_t now,
				  unsigned inflight)
{
	if (!think_hold(k, s, now) || inflight)
		return now;
	if (!k->until) {
		k->until = now + s->thinktime_ns;
		if (s->xrun.think_spin_ns)
			now = xrun_spin(now, s->xrun.think_spin_ns);
	}
	if (now >= k->until)
		think_init(k, s, now, false);
	return now;
}

/* fio's iodepth_low: once the queue was full, hold until no more than the
 * low-water mark is in flight.  @hold is the worker's flag. */
static inline bool xrun_low_hold(bool *hold, unsigned low, unsigned inflight, unsigned nfree)
{
	if (!low)
		return false;
	if (!nfree)
		*hold = true;
	else if (*hold && inflight <= low)
		*hold = false;
	return *hold;
}

#endif

/* wstate.h - a worker's running state (its slots, buffers, ring and
 * generators) and the set-up and CPU accounting around its I/O loop.
 * Engine-internal: used by worker.c only. */
#ifndef NVS_WSTATE_H
#define NVS_WSTATE_H

#include <liburing.h>
#include <stdbool.h>
#include <stdint.h>
#include "io/core/datagen.h"
#include "io/feat/fdp.h"
#include "io/core/fileset.h"
#include "io/feat/lattarget.h"
#include "io/feat/prio.h"
#include "io/feat/flow.h"
#include "io/core/worker.h"
#include "io/feat/zbd.h"

struct slot {
	void *buf;
	uint64_t t_issue; /* prepared (fio's io_u start_time) */
	uint64_t t_sub;	  /* clat's start (fio's issue_time): its submission returned when
			   * slat is measured, else the io_uring_enter that submits it began */
	uint32_t len;
	uint8_t dir;
	uint8_t member;
	/* a stripe set's I/O over a chunk's end, split as md splits it: its
	 * parts in flight (0: not split), and below what they returned (bytes,
	 * or the first error); both in what was padding (64 bytes a slot) */
	uint8_t parts;
	uint64_t off; /* logical byte offset (verify) */
	bool stale;   /* a read filled the buffer: refill before writing it */
	uint8_t pidx; /* its priority's index (io/feat/prio.h), 0 = the job's */
	bool busy;    /* serialize_overlap: in flight, off and len valid */
	int32_t pres;
	void *md;	  /* passthrough: its metadata buffer (md_per_io_size), or NULL */
	uint64_t dev_off; /* PI checks: the device offset of its read */
};
_Static_assert(sizeof(struct slot) == 64, "a slot is one cache line");
#define SLOT_SYNC 3 /* slot.dir of an fsync/fdatasync (after the nvs_dir values) */

struct wstate {
	struct io_uring ring;
	bool ring_ok;
	struct slot *slots;
	unsigned *freel;
	unsigned nfree;
	void *bufmem;
	bool fixed_bufs, fixed_files;
	struct offgen gen;
	bool pc_pass;	    /* buffered: invalidate at each pass (pagecache.h) */
	uint64_t pc_passes; /* the generator's passes at the last invalidate */
	struct zbd_ws zws;  /* zonemode=zbd (io/feat/zbd.h) */
	/* fio's per-direction rates (rate_iops=r,w, rate=r,w): the next I/O,
	 * generated but held while its direction is ahead of its rate */
	bool pend;
	uint8_t p_dir;
	uint32_t p_len;
	uint64_t p_off;
	uint64_t nxt[NVS_NDIR]; /* each direction's next issue time, 0 = no limit */
	struct datagen data;	/* what writes carry */
	struct fileset fs;	/* fio's file set (worker.fileset) */
	uint8_t p_member;
	struct sample *cur;
	uint64_t usr_mark, sys_mark; /* rusage at the last sample */
	uint64_t usr_meas, sys_meas; /* rusage when measurement began */
	bool measuring, stopping;
	unsigned split_max; /* parts an I/O of a stripe set may need (1: no split) */
	bool slat;	    /* slat measured (spec_slat): each submission its own io_uring_enter */
	/* none of slat, latency_target, cmdprio's per-priority clat or a
	 * stripe set's members: a completion skips their tests (set by the
	 * loop's set-up; false, the default, tests each) */
	bool done_plain;
	/* none of num_range trims, verify, serialize_overlap or NVMe write
	 * modes: an issue skips their tests (as done_plain) */
	bool issue_plain;
	/* the loop's plain copy runs the job (worker.c): a completion counts
	 * its lat, ios and bytes in the interval's sample only, and each
	 * sample is added to the result's as it is emitted (account once) */
	bool fold;
	/* the plain loop's wake-up timeout's time (worker.c arm_wake): here,
	 * not on the loop's stack, as the kernel reads it when it is submitted */
	struct __kernel_timespec tmo_ts;
	bool gap_cur;		/* the current interval was partly not run (a stop): a gap */
	unsigned inflight;
	int sq_tid; /* SQPOLL kernel thread, or -1 */
	struct wstate *next_abandoned;
	/* fio's fsync=/fdatasync=: writes issued, the sync due next (1 fsync,
	 * 2 fdatasync, 0 none) and the member it syncs */
	bool sync_every;
	uint8_t sync_due, sync_member;
	uint64_t writes;
	/* fio's verify (io/feat/vhdr.h): the type, a bitmap of the blocks of vbs
	 * bytes written (for do_verify's read-back), the writes' sequence */
	uint8_t vtype;
	uint64_t *vmap, vblocks, vseq;
	/* fio reads a random job's blocks back in the order it wrote them:
	 * the generator as the pass began (vgen; its map a copy, vgen_map),
	 * replayed by the read-back; vgen_ok: the copy exists */
	struct offgen vgen;
	struct randmap *vgen_map;
	bool vgen_ok;
	/* a time_based job writes one pass of its region, reads it back,
	 * writes the next (fio's do_io/do_verify loop): the bytes of this
	 * pass, and the time spent reading back (not the writes' runtime) */
	uint64_t vpass_bytes, vcycle_ns;
	uint64_t *vb; /* verify_backlog: offsets written since the last check */
	unsigned vb_n, vb_issued;
	uint32_t vbs;
	struct frand prio_fr;  /* cmdprio's draws: fio's prio_state (io/feat/prio.h) */
	struct prio_plan prio; /* the job's priorities, resolved once (io/feat/prio.h) */
	uint64_t fdp_rng;      /* fio's fdp=1 (io/feat/fdp.h): plid_select=random's stream, */
	uint32_t fdp_loc;      /* ... the round-robin position */
	int vdump_dir;	       /* verify_dump: the current directory (safety-checked), or -1 */
	unsigned vdumps;       /* bad blocks dumped so far */
	uint64_t vnonce;       /* this job's rand_seed in its headers (vhdr_seed) */
	/* fio's latency target (io/feat/lattarget.h): the depth searched; meas_ns
	 * is when the reported statistics were last reset (its final window) */
	struct lattarget lt;
	uint64_t meas_ns;
	struct flow_state flow; /* fio's flow: this worker's side of the gate */
	bool serialize;		/* fio's serialize_overlap in effect */
	/* NVMe PI (io/feat/pi.h): reads checked by nvscope (pi_act=0 on a namespace
	 * with PI); the failed check's words, or the last NVMe status, for the
	 * error message */
	bool pi_check;
	char pi_msg[160];
	uint16_t nvme_status;
	/* io_uring_cmd (io/feat/nvcmd.h): writes sent as write_mode's commands
	 * (drawn from wm_rng, its own stream), ranges per trim (num_range) */
	bool wmode_on;
	uint16_t nranges;
	uint64_t wm_rng;
};

/* user_data of the drain's cancel SQE and of the plain loop's wake-up
 * timeout (worker.c): above every I/O's (slot | part << 32), so that the
 * reaps and the drain pass both by */
#define CANCEL_TAG (LIBURING_UDATA_TIMEOUT - 2)
#define TIMER_TAG  (LIBURING_UDATA_TIMEOUT - 1)

/* After the job's window: cancels what is in flight and waits at most
 * WORKER_GRACE_NS for it (counted cancelled, late or unfinished). */
void wstate_drain(struct worker *w, struct wstate *st, uint64_t now);
/* fio's commit: one io_uring_enter submits the I/Os just prepared without
 * waiting (GETEVENTS, min_complete 0, which also posts the completions
 * already there).  A failed submit fails the job.  (The caller stamps the
 * batch: worker.c's submit_batch.) */
void wstate_submit(struct worker *w, struct wstate *st);
/* fio's fsync=/fdatasync=: queues the due sync (IORING_OP_FSYNC) on a free
 * slot; -EBUSY when no SQE is free yet. */
int wstate_issue_sync(struct worker *w, struct wstate *st, uint64_t now);
/* fio's num_range: the trim at @off, @len (its first range) and up to
 * st->nranges - 1 more of the offset stream, written into @buf as struct
 * backend_range (io/core/backend.h); fewer when @left bytes are reached or a
 * sequential pass of @passes ends (*@end set: no further I/O).  Returns
 * the ranges' total bytes, their count in *@n. */
uint32_t wstate_trim_ranges(struct wstate *st, void *buf, uint64_t off, uint32_t len, uint64_t left,
			    uint64_t passes, uint16_t *n, bool *end);
/* The SQPOLL thread's tid (see wstate.c), or -1. */
int wstate_sq_tid(void);
/* CPU time spent for this worker: user and system ns. */
void wstate_rusage(const struct wstate *st, uint64_t *usr, uint64_t *sys);
/* Empties a sample (minimums at their maximum). */
void wstate_sample_reset(struct sample *s);
/* Allocates the slots, the free list, the sample and the buffers (filled
 * with fio's data, registered when fixedbufs); 0 or -ENOMEM (reported). */
int wstate_buffers(struct worker *w, struct wstate *st);
/* fio's latency target after a reap at @now: ends a quiesce once nothing is
 * in flight (resetting the job's statistics before the final window), judges
 * a window when @measuring; sets st->stopping when the search is done. */
void wstate_lat_reap(struct worker *w, struct wstate *st, uint64_t now, bool measuring);
/* An I/O above latency_target at depth 1 with latency_percentile=100:
 * fails the job as fio does ("max latency exceeded", ETIMEDOUT). */
void wstate_lat_fatal(struct worker *w, struct wstate *st, uint64_t lat_ns);
/* fio's in_flight_overlap (serialize_overlap): true when [@off, @off +
 * @len) overlaps an I/O in flight (logical offsets, any direction). */
bool wstate_overlap(const struct worker *w, const struct wstate *st, uint64_t off, uint32_t len);
/* fio's PI check of a passthrough read that completed whole (pi_act=0):
 * the slot's length, or -EIO with the failed field in st->pi_msg. */
int wstate_pi_check(const struct worker *w, struct wstate *st, const struct slot *sl);
/* A completion's result @res after the PI check (when asked, on a read
 * that moved all its bytes); a passthrough failure's NVMe status @cqe_res
 * kept for the error message. */
static inline int wstate_pi_result(const struct worker *w, struct wstate *st, const struct slot *sl,
				   int cqe_res, int res)
{
	if (nvs_unlikely(st->pi_check) && sl->dir == NVS_READ && res == (int)sl->len)
		return wstate_pi_check(w, st, sl);
	if (nvs_unlikely(res < 0) && cqe_res > 0 && w->be == &backend_uring_cmd)
		st->nvme_status = (uint16_t)cqe_res;
	return res;
}
/* The passthrough fields of an I/O of slot @sl at device offset @off: its
 * metadata buffer and fio's PI options (io/feat/pi.h). */
static inline void wstate_pi_io(struct backend_io *io, struct slot *sl, const struct spec_pi *pi,
				uint64_t off)
{
	io->md = sl->md;
	io->pi = pi;
	sl->dev_off = off;
}
/* An I/O of slot @sl that failed (@res < 0) or came back short: counted
 * in the sample and the result; unless continue_on_error, fails the job
 * (worker_fail, with fio's words) and stops the pool. */
void wstate_io_error(struct worker *w, struct wstate *st, const struct slot *sl, int res);
/* fio's rate_min / rate_iops_min after an interval of @interval ns (when
 * @measured): a direction below its minimum fails the job. */
void wstate_min_rate(struct worker *w, struct wstate *st, bool measured, uint64_t interval);
/* The worker's I/O generator (offgen, zbd, file set), seeded per worker and
 * per fio thread of the run; failures reported.  0 or -errno. */
int wstate_gen_init(struct worker *w, struct wstate *st);
/* fio's end of a job: bytes to issue (@limit), sequential passes, and
 * number_ios (0: none). */
void wstate_limits(const struct worker *w, const struct wstate *st, uint64_t *limit,
		   uint64_t *passes, uint64_t *nios_max);
/* Sleeps until @t (ns, worker_now_ns) in steps of at most @step_ns, or a
 * stop; returns the time then. */
uint64_t wstate_wait_until(const struct worker *w, uint64_t t, uint64_t step_ns);
/* Pins the calling worker thread to its cpus_allowed, when asked, and sets
 * its nice value and NUMA placement (io/feat/xrun.h); 0 or -errno (reported). */
int wstate_pin(struct worker *w);
/* fio opens a file again for each pass, which drops its page cache
 * (io/feat/pagecache.h): a buffered job's worker does the same when the
 * generator's passes (wraps, map passes, restarts) moved on. */
void wstate_pass_cache(const struct worker *w, struct wstate *st);

#endif

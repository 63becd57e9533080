/* worker.c - the I/O thread.
 *
 * One loop per worker, no locks, no allocation once running:
 *   1. refill: take free slots, generate (dir, bs, offset), prep SQEs, stamp
 *      them with the loop's current time (the prep time, lat's start: fio's
 *      start_time);
 *   2. one clock read, the batch's issue time (clat's start, fio's
 *      issue_time), then
 *   3. one io_uring_enter that submits the batch and waits for at least one
 *      completion (bench/uring-floor.c's loop: one enter per I/O at QD1),
 *      bounded by the next interval boundary (so samples flow even when the
 *      device stalls), the job's end and the rate limiter;
 *   4. one clock read, then reap every CQE: lat = now - prep time goes into
 *      the interval sample and (after ramp_time) the job's histograms, with
 *      clat = now - issue time;
 *   5. at an interval boundary push the sample into the SPSC ring (dropped
 *      and counted by the ring when the consumer lags - I/O never waits).
 * A job that measures slat (spec_slat: fio's disable_slat=0, a fio job
 * file's default) submits in an io_uring_enter of its own that does not
 * wait (fio's commit, which also posts the completions already there) and
 * reads the clock after it instead of before: the submission time (slat =
 * it - prep time, clat = completion - it, as fio's io_uring engine); the
 * wait is then a second io_uring_enter when no completion is there yet,
 * which is what measuring slat costs.
 * Two clock reads per batch rather than two per I/O: completions found by
 * one reap were all observed at the same instant, which is the honest time,
 * and the I/Os of one submission were submitted at the same instant (as
 * fio's io_uring engine stamps a batch after its io_uring_enter).
 *
 * The end: at the deadline (or the stop flag, or the first error) the
 * measured window closes at once - its figures and runtime are final - and
 * what is still in flight is cancelled (IORING_OP_ASYNC_CANCEL, any request)
 * and given WORKER_GRACE_NS to come back; those I/Os count as cancelled (or
 * late, when they completed anyway), not in the totals.  Block-device I/O the kernel has issued
 * often cannot be cancelled: after the grace the worker gives up, counts them unfinished and ends
 * (the "abandoned" worker, see worker.h) without freeing the memory the kernel may still write
 * into, so a stalled device never holds the run's results hostage. */
#include <errno.h>
#include <liburing.h>
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#endif
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "io/core/datagen.h"
#include "io/feat/zbd.h"
#include "io/core/fileset.h"
#include "io/trace/iolog.h"
#include "io/feat/nvcmd.h"
#include "io/feat/prio.h"
#include "io/core/uring_rw.h"
#include "stats/samplewire.h"
#include "io/core/worker.h"
#include "io/core/wstate.h"
#include "io/feat/wverify.h"
#include "io/feat/xrun.h"

#define WAIT_MAX_NS (NVS_NSEC_PER_SEC / 10) /* a wait sees the stop flag this soon */

/* The loop is compiled twice (run()): the general copy, and a copy for a
 * "plain" job - none of the options loop_plain() lists set - in which @P
 * is the constant true and the compiler drops every test of those options
 * (docs/performance.md, "Instructions per I/O").  One source: each test of
 * such an option is OPT(P, cond), false in the plain copy. */
#define OPT(P, c) (!(P) && nvs_unlikely(c))
/* a split I/O's part in its SQE's user_data: slot | length << 32 | member << 56
 * (a part is at most a stripe, 1 MiB; far below CANCEL_TAG) */
#define PART_LEN_MASK	  0xffffffu
#define PART_MEMBER_SHIFT 56

/* States of abandoned workers, kept (and reachable, for leak checkers):
 * the kernel may still write into their buffers. */

/* liburing maps and unmaps a ring's memory with raw system calls (no libc),
 * which ThreadSanitizer does not see: when a ring is unmapped by one worker
 * and a later worker's ring is mapped at the same address, TSan would pair
 * the two threads' accesses as a race on memory they never shared.  Under
 * TSan only, a ring's teardown "releases" and a ring's set-up "acquires" one
 * token, which states the order the kernel already enforces (unmap before
 * the same address is mapped again).  No effect in other builds. */
#if defined(__SANITIZE_THREAD__)
static char ring_reuse_token;
#define RING_MAPPED()	__tsan_acquire(&ring_reuse_token)
#define RING_UNMAPPED() __tsan_release(&ring_reuse_token)
#else
#define RING_MAPPED()	((void)0)
#define RING_UNMAPPED() ((void)0)
#endif

static _Atomic(struct wstate *) abandoned_states;

/* The parts an I/O of a stripe set may be split into (1: never split). */
static unsigned split_max(const struct spec *s, unsigned nmembers, bool fileset)
{
	return !s->stripe || nmembers < 2 || fileset ? 1 : spec_stripe_parts(s);
}

static int setup_ring(struct worker *w, struct wstate *st)
{
	struct io_uring_params p;
	unsigned entries = 1;
	unsigned base = w->be->setup_flags | IORING_SETUP_CQSIZE;
	/* measured here: +56% on a CPU-bound target (docs/performance.md) */
	const unsigned taskrun =
	    IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	unsigned tries[3];
	int rc = -EINVAL;

	st->split_max = split_max(w->spec, w->nmembers, w->fileset);
	if (st->split_max > 1)
		base |= IORING_SETUP_CLAMP; /* issue_parts makes room when clamped */
	/* (+1: the plain loop's wake-up timeout, wait_reap) */
	while (entries < w->qd * st->split_max + 1)
		entries <<= 1;
	if (w->spec->sqpoll) {
		tries[0] = base | IORING_SETUP_SQPOLL;
		tries[1] = tries[2] = tries[0];
	} else {
		if (w->spec->hipri)
			base |= IORING_SETUP_IOPOLL;
		tries[0] = base | taskrun;
		tries[1] = base | IORING_SETUP_COOP_TASKRUN;
		tries[2] = base;
	}
	for (int i = 0; i < 3; i++) {
		memset(&p, 0, sizeof(p));
		p.flags = tries[i];
		p.cq_entries = entries * 2;
		if (w->spec->sqpoll)
			p.sq_thread_idle = 1000;
		if (w->spec->sqpoll && w->spec->sq_cpu) { /* fio's sqthread_poll_cpu */
			p.flags |= IORING_SETUP_SQ_AFF;
			p.sq_thread_cpu = w->spec->sq_cpu - 1;
		}
		rc = io_uring_queue_init_params(entries, &st->ring, &p);
		if (rc != -EINVAL)
			break;
	}
	if (rc) {
		worker_fail(w->shared, rc, "io_uring setup failed: %s%s", strerror(-rc),
			    w->spec->sqpoll ? " (sqthread_poll needs root or a newer kernel)" : "");
		return rc;
	}
	st->ring_ok = true;
	RING_MAPPED();
	st->sq_tid = -1;
	/* the SQ thread names itself when it first runs: wait up to ~1 s */
	for (int i = 0; w->spec->sqpoll && st->sq_tid < 0 && i < 1000; i++) {
		struct timespec ts = {0, 1000000};
		st->sq_tid = wstate_sq_tid();
		if (st->sq_tid < 0)
			nanosleep(&ts, NULL);
	}
	if (w->spec->sqpoll && st->sq_tid < 0)
		fprintf(stderr,
			"nvscope: worker %u: SQPOLL thread not found, its CPU time is "
			"not counted\n",
			w->id);
	if (w->spec->registerfiles) {
		int fds[NVS_MAX_TARGETS];
		for (unsigned i = 0; i < w->nmembers; i++)
			fds[i] = w->members[i].fd;
		st->fixed_files = io_uring_register_files(&st->ring, fds, w->nmembers) == 0;
	}
	return 0;
}

/* The plain loop's accounting (wstate's fold): sample @s's completions -
 * their count, bytes and lat histogram - added to the job's result, the
 * same sums as one hist_add per I/O (but the sum of squares' rounding). */
static void fold_sample(struct worker *w, const struct sample *s)
{
	for (int d = 0; d < NVS_NDIR; d++) {
		const struct sample_dir *sd = &s->dir[d];
		struct result_dir *rd = &w->res.dir[d];
		if (!sd->lat_n)
			continue;
		rd->ios += sd->ios;
		rd->bytes += sd->bytes;
		hist_merge_counts(&rd->lat, sd->lat_bucket, sd->lat_n, sd->lat_sum, sd->lat_min,
				  sd->lat_max, sd->lat_sumsq);
	}
}

static void emit(struct worker *w, struct wstate *st, uint64_t seq, uint64_t t_start,
		 uint64_t t_end, uint64_t ramp_rel, uint32_t flags)
{
	uint64_t usr, sys;
	struct sample *s = st->cur;

	wstate_rusage(st, &usr, &sys);
	s->worker = w->id;
	s->target = w->target;
	s->seq = seq;
	s->t_start_ns = t_start;
	s->t_end_ns = t_end;
	s->flags = flags | (t_start < ramp_rel ? SAMPLE_RAMP : 0) | (st->gap_cur ? SAMPLE_GAP : 0);
	st->gap_cur = false;
	s->usr_ns = usr - st->usr_mark;
	s->sys_ns = sys - st->sys_mark;
	s->inflight = st->inflight;
	st->usr_mark = usr;
	st->sys_mark = sys;
	if (st->fold)
		fold_sample(w, s);
	/* the sample's parts, all or none: a full ring drops and counts the
	 * sample (I/O never waits) */
	unsigned np = samplewire_parts(s);
	if (!spsc_room(w->out, np)) {
		spsc_drop(w->out);
	} else {
		for (unsigned k = 0; k < np; k++) { /* packed where the consumer reads it */
			samplewire_pack(s, k, np, spsc_reserve(w->out));
			spsc_publish(w->out);
		}
	}
	wstate_sample_reset(s);
}

/* A completed I/O's accounting for the options set (st->done_plain
 * false): its slat, latency_target's note, its priority's clat and its
 * stripe set member's counts. */
static void done_hooks(struct worker *w, struct wstate *st, struct slot *sl, uint64_t lat,
		       uint64_t now, uint64_t sub, bool split)
{
	if (st->measuring) {
		struct result_dir *rd = &w->res.dir[sl->dir];
		if (st->slat)
			hist_add(&rd->slat, sub - sl->t_issue);
		/* fio's "prios": each priority's clat */
		if (st->prio.cmd_mode && sl->dir < 2 && sl->pidx < RESULT_MAX_PRIOS)
			hist_add(&w->res.prio_lat[sl->dir][sl->pidx], now - sub);
		if (w->nmembers > 1 && !split) { /* a split one's: per part */
			struct result_member *m = &w->res.member[sl->member];
			m->ios++;
			m->bytes += sl->len;
			m->lat_sum_ns += lat;
		}
	}
	if (st->lt.on && sl->dir != NVS_TRIM && lattarget_note(&st->lt, lat) == LT_FATAL)
		wstate_lat_fatal(w, st, lat);
}

/* The I/O of slot @sl (index @idx) ended with @res (its bytes, or -errno): counted,
 * checked, its slot freed.  @split: its members were counted per part. */
static nvs_always_inline void done_io(struct worker *w, struct wstate *st, struct slot *sl,
				      unsigned idx, int res, uint64_t now, bool split, const bool P)
{

	if (nvs_unlikely(sl->dir >= NVS_TRIM) && res == 0) {
		/* a discard and a sync complete with 0 */
		if (sl->dir == SLOT_SYNC) {
			if (st->measuring) {
				w->res.sync_ios++;
				hist_add(&w->res.sync_lat, now - sl->t_issue);
			}
			goto done;
		}
		res = (int)sl->len;
	}
	if (nvs_likely(res == (int)sl->len)) {
		uint64_t lat = now - sl->t_issue;
		/* the batch's submission time (never after the reap's clock read) */
		uint64_t sub = sl->t_sub < now ? sl->t_sub : now;
		if (OPT(P, st->vtype))
			sl->dir == NVS_READ ? wverify_check(w, st, sl) : wverify_written(w, st, sl);
		unsigned bi = hist_index(lat);
		struct sample_dir *sd = &st->cur->dir[sl->dir];
		sd->ios++;
		sd->bytes += sl->len;
		sd->lat_n++;
		sd->lat_sum += lat;
		sd->lat_sumsq += (double)lat * (double)lat;
		sd->slat_sum += sub - sl->t_issue; /* lat's part before clat (sample.h) */
		if (lat < sd->lat_min)
			sd->lat_min = lat;
		if (lat > sd->lat_max)
			sd->lat_max = lat;
		sd->lat_bucket[bi]++;
		if (P || st->measuring) { /* the plain copy: measured throughout */
			struct result_dir *rd = &w->res.dir[sl->dir];
			if (!P) { /* else the sample's, added at emit (fold_sample) */
				rd->ios++;
				rd->bytes += sl->len;
				hist_add_idx(&rd->lat, lat, bi);
			}
			/* clat of the I/Os counted (slat in done_hooks): N is
			 * total_ios in all three, and each I/O's lat is its slat + clat */
			hist_add(&rd->clat, now - sub);
		}
		if (OPT(P, !st->done_plain))
			done_hooks(w, st, sl, lat, now, sub, split);
	} else {
		wstate_io_error(w, st, sl, res);
	}
done:
	sl->busy = false;
	st->freel[st->nfree++] = idx;
	st->inflight--;
}

/* A part of a split I/O ended (its length and member in the user_data's
 * upper bits): counted for its member; true when it was the last, the
 * slot's pres then the bytes all parts moved or the first part's error. */
/* A part of a split I/O ended (its length and member in the user_data's
 * upper bits): counted for its member; the last one ends the I/O with the
 * bytes all parts moved, or the first part's error. */
static void part_done(struct worker *w, struct wstate *st, const struct io_uring_cqe *cqe,
		      uint64_t now)
{
	unsigned idx = (uint32_t)cqe->user_data;
	struct slot *sl = &st->slots[idx];
	uint32_t plen = (uint32_t)(cqe->user_data >> 32) & PART_LEN_MASK;
	unsigned m = (unsigned)(cqe->user_data >> PART_MEMBER_SHIFT);
	int r = w->be->result(cqe, plen);
	if (sl->pres >= 0)
		sl->pres = r < 0 ? r : sl->pres + r;
	if (r == (int)plen && st->measuring) {
		struct result_member *rm = &w->res.member[m];
		rm->ios++;
		rm->bytes += plen;
		rm->lat_sum_ns += now - sl->t_issue;
	}
	if (--sl->parts == 0)
		done_io(w, st, sl, idx, sl->pres, now, true, false);
}

/* An I/O's completion (a whole one's CQE; a split one's through part_done). */
static nvs_always_inline void complete(struct worker *w, struct wstate *st,
				       const struct io_uring_cqe *cqe, uint64_t now, const bool P)
{
	unsigned idx = (unsigned)cqe->user_data;
	struct slot *sl = &st->slots[idx];
	int res = cqe->res; /* the plain copy's backend: io_uring's result */
	if (!P) {
		res = w->be->result(cqe, sl->len);
		res = wstate_pi_result(w, st, sl, cqe->res, res); /* PI check, NVMe status */
	}
	done_io(w, st, sl, idx, res, now, false, P);
}

/* The plain copy's reap: completions found in a row that started and
 * were submitted at the same instants in the same direction - the I/Os
 * of one submission reaped together, which the loop's two clock reads
 * per batch give one lat and one clat - are counted once, with their
 * number: the same sums, buckets and extremes as one done_io each. */
struct done_run {
	uint64_t t_issue, t_sub, bytes;
	uint32_t n;
	uint8_t dir;
};

static nvs_always_inline void run_flush(struct worker *w, struct wstate *st, struct done_run *r,
					uint64_t now)
{
	if (!r->n)
		return;
	uint64_t lat = now - r->t_issue;
	uint64_t sub = r->t_sub < now ? r->t_sub : now; /* as done_io */
	struct sample_dir *sd = &st->cur->dir[r->dir];
	sd->ios += r->n;
	sd->bytes += r->bytes;
	sd->lat_n += r->n;
	sd->lat_sum += lat * r->n;
	sd->lat_sumsq += (double)lat * (double)lat * (double)r->n;
	sd->slat_sum += (sub - r->t_issue) * r->n;
	if (lat < sd->lat_min)
		sd->lat_min = lat;
	if (lat > sd->lat_max)
		sd->lat_max = lat;
	sd->lat_bucket[hist_index(lat)] += r->n;
	hist_add_n(&w->res.dir[r->dir].clat, now - sub, r->n); /* lat: fold_sample */
	r->n = 0;
}

/* A CQE of the plain copy (no trims): a whole read or write joins (or
 * starts) the run; an error or a short I/O ends it and is done_io's. */
static nvs_always_inline void complete_plain(struct worker *w, struct wstate *st,
					     const struct io_uring_cqe *cqe, uint64_t now,
					     struct done_run *r)
{
	unsigned idx = (unsigned)cqe->user_data;
	struct slot *sl = &st->slots[idx];
	if (nvs_unlikely(cqe->res != (int)sl->len)) {
		run_flush(w, st, r, now);
		done_io(w, st, sl, idx, cqe->res, now, false, true);
		return;
	}
	if (r->n && sl->t_issue == r->t_issue && sl->t_sub == r->t_sub && sl->dir == r->dir) {
		r->n++;
		r->bytes += sl->len;
	} else {
		run_flush(w, st, r, now);
		*r = (struct done_run){.t_issue = sl->t_issue,
				       .t_sub = sl->t_sub,
				       .bytes = sl->len,
				       .n = 1,
				       .dir = sl->dir};
	}
	sl->busy = false;
	st->freel[st->nfree++] = idx;
	st->inflight--;
}

/* Maps a logical offset of a stripe set to (member, member offset). */
static inline unsigned stripe_map(const struct worker *w, uint64_t *off)
{
	uint64_t stripe = w->spec->stripe, chunk = *off / stripe;
	unsigned m = (unsigned)(chunk % w->nmembers);
	*off = (chunk / w->nmembers) * stripe + *off % stripe;
	return m;
}

/* fio's fsync=N / fdatasync=N: after every N-th write issued, the next I/O
 * is an fsync (fdatasync) of the file the write went to (fio's get_rw_ddir:
 * fsync before fdatasync when both fall due). */
static inline void sync_count(const struct spec *s, struct wstate *st, uint8_t member)
{
	st->writes++;
	st->sync_member = member;
	if (s->fsync_blocks && st->writes % s->fsync_blocks == 0)
		st->sync_due = 1;
	else if (s->fdatasync_blocks && st->writes % s->fdatasync_blocks == 0)
		st->sync_due = 2;
}

/* The issue loop's state for one run of a worker: the job's clock, its
 * limits and rates, the trace position, and the I/O about to be issued.
 * On run()'s stack; the functions below take it whole (static, inlined:
 * the hot path reads its fields as it read run()'s locals). */
struct loop {
	const struct spec *s;
	struct worker_shared *sh;
	uint64_t t0, ramp_end, end, interval, next_b, seq;
	uint64_t issued, now, next_issue;
	/* rate_iops_total (plans): ns between issues across directions */
	double gap;
	bool limited;
	/* fio's rate_iops/rate: each direction its own schedule; a direction
	 * ahead of its rate gives way to the other when that one is due
	 * (fio's rate_ddir), else the I/O waits */
	double dgap[NVS_NDIR], dgap_b[NVS_NDIR];
	bool dlimited, two_dirs;
	unsigned wait_min, max_submit, max_reap;
	bool check_min;
	/* trace replay: the next I/O is trace->io[tpos], due at tbase + t_ns */
	const struct trace *tr;
	size_t tpos;
	bool timed, twait;
	uint64_t tbase;
	uint64_t limit, passes, nios_max;
	uint64_t nios_left; /* number_ios: I/Os still to issue (UINT64_MAX: no limit) */
	int wflags;
	bool prio_on;
	struct think think;
	unsigned low; /* iodepth_low: once full, refill when this few are in flight */
	bool low_hold;
	uint64_t gap_ns, prev_now;
	bool vpass; /* fio's time_based verify: a pass, its read-back, the next pass */
	uint64_t flow_wake;
	/* the I/O being issued: a trace entry (@ti, due at @due) or st->p_* */
	const struct trace_io *ti;
	uint64_t due;
	bool plain; /* is_plain(): the loop's plain copy runs the job */
	int fd0;    /* the plain copy's: its one target's descriptor (or index) */
	/* the plain copy's wake-up (tmo_on): one IORING_OP_TIMEOUT armed at
	 * the next deadline and waited for with the I/O, instead of a timeout
	 * on every wait (an hrtimer armed and cancelled in each io_uring_enter
	 * that sleeps: every I/O's at QD1) */
	bool tmo_on, tmo_armed;
};

/* A "plain" job, run by the loop's plain copy: none of the options whose
 * tests OPT() drops is set, the backend is io_uring's (its prep and result
 * inlined) and every CQE reaped at once. */
static bool is_plain(const struct worker *w, const struct wstate *st, const struct loop *L)
{
	const struct spec *s = L->s;
	bool opts = !w->iolog && !s->thinktime_ns && !L->tr && !L->limited && !L->dlimited &&
		    !L->low && !st->lt.on && !st->vb && !L->vpass && !st->sync_every &&
		    !st->serialize && !w->flow && !L->prio_on && !w->fileset && !w->zbd &&
		    !st->vtype && !st->slat && st->issue_plain && st->done_plain && !st->pc_pass &&
		    !L->check_min && !s->ramp_ns && L->max_submit == w->qd;
	bool shape = w->nmembers == 1 && L->max_reap == UINT32_MAX && L->wait_min == 1 &&
		     w->be == &backend_io_uring && !st->pi_check && !w->members[0].fdp_n &&
		     st->gen.trim == OFFGEN_NOTRIM &&
		     !(st->ring.flags & (IORING_SETUP_SQE128 | IORING_SETUP_CQE32));
	return opts && shape;
}

/* The loop's constants and starting state (and the startdelay wait). */
static void loop_init(struct worker *w, struct wstate *st, struct loop *L)
{
	const struct spec *s = w->spec;
	memset(L, 0, sizeof(*L));
	L->s = s;
	L->sh = w->shared;
	L->t0 = atomic_load_explicit(&L->sh->t0, memory_order_acquire) + s->startdelay_ns;
	L->ramp_end = L->t0 + s->ramp_ns;
	L->end = s->runtime_ns ? L->ramp_end + s->runtime_ns : UINT64_MAX;
	L->interval = s->interval_ns;
	L->next_b = L->t0 + L->interval;
	L->now = L->next_issue = worker_now_ns();
	L->gap = s->rate_iops ? 1e9 / (double)s->rate_iops : 0;
	L->limited = L->gap > 0;
	L->two_dirs = st->gen.mixread > 0 && st->gen.mixread < 100;
	for (int d = 0; d < NVS_NDIR; d++) {
		/* trims: the write's rate (fio's rate=r,w gives the trim w) */
		int rd = d == NVS_TRIM ? NVS_WRITE : d;
		L->dgap[d] = s->rate_iops_dir[rd] ? 1e9 / (double)s->rate_iops_dir[rd] : 0;
		L->dgap_b[d] = s->rate_bw_dir[rd] ? 1e9 / (double)s->rate_bw_dir[rd] : 0;
		L->dlimited |= L->dgap[d] > 0 || L->dgap_b[d] > 0;
		st->nxt[d] = 0;
	}
	L->wait_min = s->batch_complete_min > 1 ? s->batch_complete_min : 1;
	L->check_min =
	    s->rate_min_bw[0] || s->rate_min_bw[1] || s->rate_min_iops[0] || s->rate_min_iops[1];
	L->max_submit = s->batch_submit ? s->batch_submit : w->qd;
	L->max_reap = s->batch_complete ? s->batch_complete : UINT32_MAX;
	L->tr = w->trace;
	L->timed = L->tr && L->tr->timed && !s->replay.no_stall;
	L->tbase = L->t0 + w->trace_delay_ns;
	wstate_limits(w, st, &L->limit, &L->passes, &L->nios_max);
	L->nios_left = L->nios_max ? L->nios_max : UINT64_MAX;
	/* fio's sync=1/dsync: every write with O_SYNC / O_DSYNC semantics */
	L->wflags = s->sync == SYNC_SYNC ? RWF_SYNC : s->sync == SYNC_DSYNC ? RWF_DSYNC : 0;
	L->wflags |= s->atomic ? NVS_RWF_ATOMIC : 0; /* fio's atomic=1 (io/feat/fdp.h) */
	L->prio_on = prio_active(s);		     /* fio's prio/cmdprio: io/feat/prio.h */

	/* startdelay: the job (its clock, samples and runtime) starts later */
	if (L->now < L->t0)
		L->now = L->next_issue = wstate_wait_until(w, L->t0, WAIT_MAX_NS);
	lattarget_init(&st->lt, s, w->qd, L->now); /* fio's latency_target search */
	/* thinktime: after thinktime_blocks I/Os (or thinktime_iotime), wait
	 * for all of them, then pause (io/feat/xrun.h) */
	think_init(&L->think, s, L->now, true);
	L->low = s->xrun.iodepth_low < w->qd ? s->xrun.iodepth_low : 0;
	st->sync_every = s->fsync_blocks || s->fdatasync_blocks;
	st->slat = spec_slat(s); /* else one io_uring_enter submits and waits */
	/* fio's serialize_overlap: only for a job that changes data (or
	 * replays a trace) at a depth above 1 */
	st->serialize = s->serialize_overlap && w->qd > 1 && (spec_writes(s) || L->tr);
	st->done_plain = !st->slat && !st->lt.on && !st->prio.cmd_mode && w->nmembers == 1;
	st->issue_plain = st->nranges <= 1 && !st->vtype && !st->serialize && !st->wmode_on;
	if (s->ramp_ns == 0) {
		st->measuring = true;
		wstate_rusage(st, &st->usr_meas, &st->sys_meas);
	}
	wstate_rusage(st, &st->usr_mark, &st->sys_mark);
	/* a thread that did not run for this long past a wait (capped at
	 * WAIT_MAX_NS) was stopped (SIGSTOP, Ctrl-Z) or not scheduled */
	L->gap_ns =
	    WAIT_MAX_NS + (L->interval > NVS_NSEC_PER_SEC / 2 ? L->interval : NVS_NSEC_PER_SEC / 2);
	L->prev_now = L->now;
	L->vpass = st->vmap && s->time_based;
	L->plain = is_plain(w, st, L);
	L->fd0 = st->fixed_files ? 0 : w->members[0].fd;
	L->tmo_on = L->plain && !s->hipri && !s->sqpoll; /* (IOPOLL: no timeouts) */
	st->fold = L->plain;
}

/* May another I/O be issued now (the depth, thinktime, latency_target,
 * verify_backlog and the time_based verify pass allowing)? */
static nvs_always_inline bool may_issue(struct worker *w, struct wstate *st, struct loop *L,
					unsigned n, const bool P)
{
	const struct spec *s = L->s;
	return !(OPT(P, L->low) && xrun_low_hold(&L->low_hold, L->low, st->inflight, st->nfree)) &&
	       st->nfree && (P || n < L->max_submit) && L->issued < L->limit &&
	       !(OPT(P, s->thinktime_ns) && think_hold(&L->think, s, L->now)) &&
	       (!OPT(P, st->lt.on) ||
		(!st->lt.quiesce && st->inflight < lattarget_depth(&st->lt))) &&
	       !(OPT(P, st->vb) && st->vb_issued >= s->verify_backlog) &&
	       !(OPT(P, L->vpass) && st->vpass_bytes >= w->region_len);
}

enum next { NEXT_ISSUE, NEXT_STOP, NEXT_AGAIN };

/* The trace's next entry: due now, a flush (turned into the sync branch's
 * I/O), or to wait for. */
static inline enum next next_trace(struct worker *w, struct wstate *st, struct loop *L)
{
	const struct trace *tr = L->tr;
	if (L->tpos == tr->n)
		return NEXT_STOP;
	L->ti = &tr->io[L->tpos];
	L->due = L->tbase + (L->timed ? L->ti->t_ns : 0);
	if (L->now < L->due) {
		L->next_issue = L->due;
		L->twait = true;
		return NEXT_STOP;
	}
	if (nvs_unlikely(L->ti->op == TRACE_SYNC)) {
		/* a flush: issued by the sync branch */
		st->sync_member = 0;
		st->sync_due = 1;
		L->tpos++;
		w->tstats.issued++;
		if (L->timed)
			replay_note(&w->tstats, L->now - L->due);
		return NEXT_AGAIN;
	}
	return NEXT_ISSUE;
}

/* zonemode=zbd: the position moved to the zone's write pointer (fio's
 * zbd_adjust_block), or the end of the job's zones. */
static inline bool zbd_place(struct worker *w, struct wstate *st, enum nvs_dir *pd)
{
	uint64_t o0 = st->p_off;
	enum nvs_dir d0 = *pd;
	if (zbd_adjust(w->zbd, &st->zws, &st->p_off, &st->p_len, pd))
		return false;
	if (d0 != *pd) /* a read made a write: its stream stays */
		st->gen.last_pos[0] = o0;
	st->gen.last_pos[*pd == NVS_READ ? 0 : 1] = st->p_off + st->p_len;
	return true;
}

/* The next position of the job's own pattern (fileset, offgen, zbd) into
 * st->p_*, unless one is pending; then its direction against the rates. */
static nvs_always_inline enum next next_position(struct worker *w, struct wstate *st,
						 struct loop *L, const bool P)
{
	const struct spec *s = L->s;
	if (!st->pend && OPT(P, w->fileset)) {
		enum nvs_dir pd;
		unsigned pf;
		if (!fileset_next(&st->fs, L->passes, &st->p_off, &st->p_len, &pd, &pf)) {
			L->issued = L->limit;
			return NEXT_STOP;
		}
		st->p_dir = (uint8_t)pd;
		st->p_member = (uint8_t)pf;
		st->pend = true;
	}
	if (!st->pend) {
		enum nvs_dir pd;
		if (OPT(P, w->zbd != NULL))
			zbd_seq_pos(w->zbd, &st->zws, &st->gen.last_pos[1]);
		offgen_next(&st->gen, &st->p_off, &st->p_len, &pd);
		/* (not past the pass's end: a zone reset; verify_only reads
		 * the region: no claim) */
		if (OPT(P, w->zbd != NULL) && st->gen.wraps < L->passes &&
		    !(st->vtype && s->verify_only) && !zbd_place(w, st, &pd)) {
			L->issued = L->limit;
			return NEXT_STOP;
		}
		st->p_dir = (uint8_t)pd;
		st->pend = true;
		/* fio: a sequential job's pass ends at the region's end (with
		 * rw=X:SIZE holes, before io bytes do) */
		if (nvs_unlikely(st->gen.wraps >= L->passes)) {
			st->pend = false;
			L->issued = L->limit;
			return NEXT_STOP;
		}
		if (OPT(P, st->pc_pass))
			wstate_pass_cache(w, st);
	}
	if (OPT(P, L->dlimited) && L->now < st->nxt[st->p_dir]) {
		/* zbd: the I/O is placed for its direction (a write at the wp) */
		if (L->two_dirs && !w->zbd && L->now >= st->nxt[st->p_dir ^ 1])
			st->p_dir ^= 1;
		else
			return NEXT_STOP;
	}
	return NEXT_ISSUE;
}

/* The written data of a write (or a read's stale mark), a trim's ranges,
 * the slot's member and the iolog record of the I/O about to be issued.
 * True when it is a stripe set's I/O over a chunk's end, to be split (its
 * iolog records are then the parts', issue_parts). */
/* An I/O's preparation for the options set (st->issue_plain false):
 * fio's num_range trims, verify_only's read-back, serialize_overlap's
 * busy slot and the NVMe write modes' pick. */
static void prep_hooks(struct wstate *st, struct loop *L, struct slot *sl, struct backend_io *io,
		       uint64_t *off, uint32_t *len, enum nvs_dir *dir)
{
	const struct spec *s = L->s;
	if (st->nranges > 1 && *dir == NVS_TRIM && !L->ti) {
		bool last = false; /* fio's num_range (io/feat/nvcmd.h) */
		*len = wstate_trim_ranges(st, sl->buf, *off, *len, L->limit - L->issued, L->passes,
					  &io->nranges, &last);
		if (last)
			L->issued = L->limit - *len;
	}
	if (st->vtype && s->verify_only)
		*dir = NVS_READ; /* fio: only the read-back */
	if (st->serialize)
		sl->busy = true;
	if (st->wmode_on && *dir == NVS_WRITE)
		io->wmode = (uint8_t)nvcmd_pick(&s->nvcmd, prio_rand(&st->wm_rng));
}

static nvs_always_inline bool prep_data(struct worker *w, struct wstate *st, struct loop *L,
					struct slot *sl, struct backend_io *io, uint64_t *off,
					uint32_t *len, enum nvs_dir *dir, const bool P)
{
	const struct spec *s = L->s;
	io->wmode = 0;
	io->deac = s->nvcmd.deac;
	io->nranges = 0;
	if (OPT(P, !st->issue_plain))
		prep_hooks(st, L, sl, io, off, len, dir);
	if (!P)
		think_issued(&L->think);
	sl->off = *off; /* verify, serialize_overlap, an error's line */
	if (*dir == NVS_WRITE && io->wmode == WMODE_WRITE) {
		if (!OPT(P, st->vtype) || !s->vpattern_len) /* else: the pattern */
			datagen_prepare_write(&st->data, sl->buf, *len, *off, L->now, sl->stale);
		sl->stale = false;
		if (OPT(P, st->vtype))
			wverify_stamp(w, st, sl->buf, *len, *off, L->now);
	} else if (*dir == NVS_READ) {
		sl->stale = true;
	}
	bool split = false;
	if (OPT(P, w->fileset)) {
		sl->member = st->p_member;
	} else if (OPT(P, w->nmembers > 1)) { /* a stripe set (pool.c) */
		split = *off % s->stripe + *len > s->stripe;
		sl->member = (uint8_t)stripe_map(w, off);
	} else {
		sl->member = 0;
	}
	if (OPT(P, w->iolog != NULL) && !split) {
		struct iolog_rec r = {
		    .t_ns = L->now, .off = *off, .len = *len, .dir = (uint8_t)*dir};
		r.file = (uint8_t)(w->nmembers > 1 ? sl->member : w->target);
		spsc_push(w->iolog, &r); /* full: dropped, counted */
	}
	return split;
}

/* The rates' next slots after an I/O of @len bytes in direction @dir. */
static nvs_always_inline void rate_after(struct wstate *st, struct loop *L, enum nvs_dir dir,
					 uint32_t len, const bool P)
{
	const struct spec *s = L->s;
	uint64_t now = L->now;
	if (OPT(P, L->dlimited) && (L->dgap[dir] > 0 || L->dgap_b[dir] > 0)) {
		double g0 =
		    L->dgap[dir] > L->dgap_b[dir] * len ? L->dgap[dir] : L->dgap_b[dir] * len;
		if (s->rate_process == PROCESS_POISSON)
			g0 *= -log(1.0 - (double)(offgen_rand(&st->gen) >> 11) * 0x1.0p-53);
		if (!st->nxt[dir])
			st->nxt[dir] = now;
		st->nxt[dir] += (uint64_t)g0;
		if (st->nxt[dir] + NVS_NSEC_PER_SEC < now)
			st->nxt[dir] = now; /* no burst after a stall */
	}
	if (OPT(P, L->limited)) {
		double g =
		    s->rate_process == PROCESS_POISSON
			? -log(1.0 - (double)(offgen_rand(&st->gen) >> 11) * 0x1.0p-53) * L->gap
			: L->gap;
		L->next_issue += (uint64_t)g;
		if (L->next_issue + NVS_NSEC_PER_SEC < now)
			L->next_issue = now; /* do not burst after a long stall */
	}
}

/* A stripe set's I/O over a chunk's end, as md's RAID 0 splits it: one SQE
 * per chunk it touches, on that chunk's member, each with its part of the
 * buffer; @sqe is the first, fill() saw room for the others.  Returns the
 * parts. */
static unsigned issue_parts(struct worker *w, struct wstate *st, struct backend_io *io,
			    struct io_uring_sqe *sqe, unsigned idx, uint64_t lo, uint64_t now)
{
	uint64_t stripe = w->spec->stripe;
	uint32_t left = io->len;
	char *buf = io->buf;
	unsigned n = 0;
	while (left) {
		uint64_t moff = lo;
		unsigned m = stripe_map(w, &moff);
		uint32_t plen = (uint32_t)(stripe - lo % stripe);
		if (plen > left)
			plen = left;
		/* the ring has room for every slot's parts (setup_ring); past
		 * IORING_SETUP_CLAMP's limit, or while an SQPOLL thread has not
		 * taken the last ones yet, what is prepared goes first */
		while (n && !(sqe = io_uring_get_sqe(&st->ring)))
			io_uring_submit(&st->ring);
		io->fd = st->fixed_files ? (int)m : w->members[m].fd;
		io->t = &w->members[m];
		io->off = moff;
		io->len = plen;
		io->buf = buf;
		w->be->prep(sqe, io);
		sqe->user_data = idx | (uint64_t)plen << 32 | (uint64_t)m << PART_MEMBER_SHIFT;
		if (w->iolog) {
			struct iolog_rec r = {.t_ns = now,
					      .off = moff,
					      .len = plen,
					      .dir = (uint8_t)io->dir,
					      .file = (uint8_t)m};
			spsc_push(w->iolog, &r); /* full: dropped, counted */
		}
		buf += plen;
		lo += plen;
		left -= plen;
		n++;
	}
	return n;
}

/* Prepares the I/O at the position found into @sqe (a free slot's). */
static nvs_always_inline void issue(struct worker *w, struct wstate *st, struct loop *L,
				    struct io_uring_sqe *sqe, const bool P)
{
	const struct spec *s = L->s;
	unsigned idx = st->freel[--st->nfree];
	struct slot *sl = &st->slots[idx];
	struct backend_io io;
	uint64_t off = st->p_off;
	uint32_t len = st->p_len;
	enum nvs_dir dir = (enum nvs_dir)st->p_dir;

	if (OPT(P, L->ti != NULL)) {
		off = w->region_start + L->ti->off;
		len = L->ti->len;
		dir = L->ti->op == TRACE_WRITE	? NVS_WRITE
		      : L->ti->op == TRACE_TRIM ? NVS_TRIM
						: NVS_READ;
		L->tpos++;
		w->tstats.issued++;
		if (L->timed)
			replay_note(&w->tstats, L->now - L->due);
	} else {
		st->pend = false;
	}
	bool split = prep_data(w, st, L, sl, &io, &off, &len, &dir, P);
	io.fd = P ? L->fd0 : st->fixed_files ? sl->member : w->members[sl->member].fd;
	io.fixed_file = st->fixed_files;
	io.buf = sl->buf;
	io.buf_index = st->fixed_bufs ? (int)idx : -1;
	io.len = len;
	io.off = off;
	io.dir = dir;
	io.rw_flags = dir == NVS_WRITE ? L->wflags : 0;
	sl->pidx = 0;
	io.ioprio = 0;
	if (OPT(P, L->prio_on)) {
		sl->pidx = (uint8_t)prio_pick(&s->prio, &st->prio, dir, len, &st->prio_fr);
		io.ioprio = prio_ioprio(&st->prio, dir, sl->pidx);
	}
	io.t = &w->members[sl->member];
	if (!P) {
		fdp_io(&io, s->fdp.random, &st->fdp_loc, &st->fdp_rng); /* fdp=1 */
		wstate_pi_io(&io, sl, &s->pi, off); /* metadata buffer, PI options */
	}
	if (nvs_unlikely(split)) {
		sl->parts = (uint8_t)issue_parts(w, st, &io, sqe, idx, sl->off, L->now);
		sl->pres = 0;
	} else { /* sl->parts is 0: the last part's completion left it so */
		if (P)
			uring_prep_rw(sqe, &io); /* the plain copy: io_uring's, no trims */
		else
			w->be->prep(sqe, &io);
		if (OPT(P, w->zbd != NULL) && dir == NVS_TRIM)
			io_uring_prep_nop(sqe); /* reset by zbd_adjust */
		sqe->user_data = idx;
	}
	sl->t_issue = sl->t_sub = L->now;
	sl->len = len;
	sl->dir = (uint8_t)dir;
	L->issued += len;
	if (!P)
		st->vpass_bytes += len; /* verify's pass (the plain copy: no verify) */
	st->inflight++;
	if (OPT(P, st->sync_every) && dir == NVS_WRITE)
		sync_count(s, st, sl->member);
	if (nvs_unlikely(--L->nios_left == 0))
		L->issued = L->limit; /* number_ios: no further I/O */
	rate_after(st, L, dir, len, P);
}

/* Fills the queue as far as it may go now.  Returns the SQEs prepared
 * (syncs included) and in *@submitted the I/Os among them. */
static nvs_always_inline unsigned fill(struct worker *w, struct wstate *st, struct loop *L,
				       unsigned *submitted, const bool P)
{
	const struct spec *s = L->s;
	unsigned n = 0;
	/* the plain copy counts the SQ's room once (uring_sqe_next) */
	unsigned room = P ? io_uring_sq_space_left(&st->ring) : 0;
	L->twait = false;
	while (may_issue(w, st, L, n, P)) {
		if (OPT(P, L->limited) && L->now < L->next_issue)
			break;
		if (OPT(P, st->sync_due)) {
			if (wstate_issue_sync(w, st, L->now))
				break;
			n++;
			continue;
		}
		L->ti = NULL;
		L->due = 0;
		enum next nx =
		    OPT(P, L->tr != NULL) ? next_trace(w, st, L) : next_position(w, st, L, P);
		if (nx == NEXT_AGAIN)
			continue;
		if (nx == NEXT_STOP)
			break;
		if (OPT(P, st->serialize) && st->inflight &&
		    wstate_overlap(w, st, L->ti ? w->region_start + L->ti->off : st->p_off,
				   L->ti ? L->ti->len : st->p_len))
			break; /* fio's serialize_overlap: after it completes */
		if (OPT(P, w->flow != NULL) &&
		    !flow_gate(w->flow, &st->flow, s->flow, s->flow_sleep_ns, st->inflight, L->now,
			       &L->flow_wake))
			break; /* fio's flow: ahead of its weight */
		struct io_uring_sqe *sqe;
		if (P) {
			if (!room--)
				break;
			sqe = uring_sqe_next(&st->ring);
		} else if (!(sqe = io_uring_get_sqe(&st->ring))) {
			break; /* SQPOLL: the kernel has not freed the slot yet */
		}
		issue(w, st, L, sqe, P);
		n++;
		(*submitted)++;
	}
	return n;
}

/* The batch of @batch SQEs just prepared (the slots freel[nfree .. nfree +
 * batch)) goes to the kernel: its clat start stamped before the
 * io_uring_enter that submits it - wait_reap's, which waits too - or, when
 * slat is measured, after an io_uring_enter of its own (fio's commit).  A
 * batch that iodepth_batch_submit cut short of the free slots is submitted
 * at once either way: the next batch goes first (between()). */
static nvs_always_inline void submit_batch(struct worker *w, struct wstate *st, struct loop *L,
					   unsigned batch, const bool P)
{
	if (OPT(P, st->slat))
		wstate_submit(w, st); /* fio's commit: slat ends as it returns */
	uint64_t t = worker_now_ns();
	for (unsigned k = st->nfree; k < st->nfree + batch; k++)
		st->slots[st->freel[k]].t_sub = t;
	if (!OPT(P, st->slat) && nvs_unlikely(batch >= L->max_submit) && st->nfree)
		wstate_submit(w, st);
}

/* After a submit, what the loop does besides waiting: 1 when it goes on at
 * once (the next batch, a verify read-back), 0 to wait. */
static nvs_always_inline int between(struct worker *w, struct wstate *st, struct loop *L,
				     unsigned batch, const bool P)
{
	const struct spec *s = L->s;
	if (nvs_unlikely(batch >= L->max_submit) && st->nfree && !st->stopping) {
		/* iodepth_batch_submit below the free slots: the next batch
		 * goes first, fio reaps only once the queue is full */
		L->now = worker_now_ns();
		return 1;
	}
	if (OPT(P, st->vb) && st->vb_issued >= s->verify_backlog && !st->inflight) {
		wverify_backlog(w, st); /* fio's verify_backlog: then write on */
		L->now = worker_now_ns();
		return 1;
	}
	if (OPT(P, L->vpass) && st->vpass_bytes >= w->region_len && !st->inflight &&
	    !st->stopping) {
		wverify_cycle(w, st, L->end); /* fio's do_verify, then do_io again */
		/* fio's fio_file_reset per loop: with verify, the job's zones
		 * reset before the next pass writes */
		if (nvs_unlikely(w->zbd) && st->zws.verify && zbd_verify_reset(w->zbd, &st->zws)) {
			worker_fail(L->sh, -EIO,
				    "%s: zonemode=zbd: resetting the job's zones for the next "
				    "pass failed",
				    w->members[0].path);
			st->stopping = true;
		}
		L->now = worker_now_ns();
		return 1;
	}
	return 0;
}

/* How long to wait for completions: the next interval boundary, the job's
 * end, the rate's, trace's, thinktime's or flow's next time. */
static nvs_always_inline uint64_t wait_ns(struct wstate *st, struct loop *L, const bool P)
{
	uint64_t now = L->now;
	uint64_t deadline = L->next_b < L->end ? L->next_b : L->end;
	if ((OPT(P, L->limited) || OPT(P, L->twait)) && !st->stopping && st->nfree &&
	    L->next_issue < deadline)
		deadline = L->next_issue;
	if (!P && L->think.until > now && L->think.until < deadline)
		deadline = L->think.until;
	if (!P && L->flow_wake > now && L->flow_wake < deadline)
		deadline = L->flow_wake;
	if (OPT(P, L->dlimited) && !st->stopping && st->nfree && st->pend) {
		uint64_t due = st->nxt[st->p_dir];
		if (L->two_dirs && st->nxt[st->p_dir ^ 1] < due)
			due = st->nxt[st->p_dir ^ 1];
		if (due > now && due < deadline)
			deadline = due;
	}
	uint64_t wait = deadline > now ? deadline - now : 0;
	return wait > WAIT_MAX_NS ? WAIT_MAX_NS : wait; /* a stalled device must not delay a stop */
}

/* The plain copy's wake-up: an IORING_OP_TIMEOUT at @at (ns,
 * CLOCK_MONOTONIC, absolute), submitted with the batch; wait_reap arms
 * one unless one is armed.  A deadline armed never lies past a later
 * wait's (the interval boundary and the job's end only move on, the cap
 * is from an earlier now), so one armed stands for every wait until it
 * fires.  False: no SQE (the wait then carries its own timeout). */
static bool arm_wake(struct wstate *st, uint64_t at)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&st->ring);
	if (!sqe)
		return false;
	st->tmo_ts.tv_sec = (long long)(at / NVS_NSEC_PER_SEC);
	st->tmo_ts.tv_nsec = (long long)(at % NVS_NSEC_PER_SEC);
	io_uring_prep_timeout(sqe, &st->tmo_ts, 0, IORING_TIMEOUT_ABS);
	sqe->user_data = TIMER_TAG;
	return true;
}

/* Submits what is prepared and waits for completions (at most @wait ns) in
 * one io_uring_enter, then reaps them.  -errno when io_uring_enter failed
 * (the job stops). */
static nvs_always_inline int wait_reap(struct worker *w, struct wstate *st, struct loop *L,
				       uint64_t wait, const bool P)
{
	struct __kernel_timespec ts = {.tv_sec = (long long)(wait / NVS_NSEC_PER_SEC),
				       .tv_nsec = (long long)(wait % NVS_NSEC_PER_SEC)};
	struct io_uring_cqe *cqe;
	/* iodepth_batch_complete_min: wait for that many (of those in flight) */
	unsigned want = P ? 1 : st->inflight < L->wait_min ? st->inflight : L->wait_min;
	if (!want)
		want = 1;
	int rc;
	if (P && L->tmo_on && (L->tmo_armed || (L->tmo_armed = arm_wake(st, L->now + wait))))
		rc = io_uring_submit_and_wait(&st->ring, want); /* the timeout wakes it */
	else
		rc = io_uring_submit_and_wait_timeout(&st->ring, &cqe, want, &ts, NULL);
	if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
		worker_fail(L->sh, rc, "io_uring_enter failed: %s", strerror(-rc));
		atomic_store_explicit(&L->sh->stop, 1, memory_order_relaxed);
		st->stopping = true;
		return rc;
	}
	L->now = worker_now_ns();
	unsigned head, n = 0, nwake = 0;
	if (P) { /* every CQE there (16-byte CQEs: is_plain), the tail read once */
		struct done_run r = {.n = 0};
		struct io_uring_cq *cq = &st->ring.cq;
		unsigned tail = io_uring_smp_load_acquire(cq->ktail);
		for (head = *cq->khead; head != tail; head++, n++) {
			const struct io_uring_cqe *c = &cq->cqes[head & cq->ring_mask];
			if (nvs_likely(c->user_data <= UINT32_MAX))
				complete_plain(w, st, c, L->now, &r);
			else if (c->user_data == TIMER_TAG)
				L->tmo_armed = false, nwake++;
		}
		run_flush(w, st, &r, L->now);
	} else {
		io_uring_for_each_cqe(&st->ring, head, cqe)
		{
			if (nvs_likely(cqe->user_data <= UINT32_MAX))
				complete(w, st, cqe, L->now, P);
			else if (cqe->user_data < CANCEL_TAG)
				part_done(w, st, cqe, L->now); /* a split I/O's part */
			if (++n >= L->max_reap)
				break;
		}
	}
	io_uring_cq_advance(&st->ring, n);
	n -= nwake;		/* the I/Os */
	if (n && st->measuring) /* fio's io_u_mark_complete */
		w->res.complete_map[result_batch_idx(n)]++;
	return 0;
}

/* After a reap: the measured window's start, latency_target's reap, the
 * stop, and the samples of the intervals that ended. */
static nvs_always_inline void after_reap(struct worker *w, struct wstate *st, struct loop *L,
					 const bool P)
{
	const struct spec *s = L->s;
	uint64_t now = L->now;
	if (nvs_unlikely(!st->measuring) && now >= L->ramp_end) {
		st->measuring = true;
		wstate_rusage(st, &st->usr_meas, &st->sys_meas);
		lattarget_restart(&st->lt, now); /* fio's reset_all_stats */
	}
	if (OPT(P, st->lt.on))
		wstate_lat_reap(w, st, now, st->measuring);
	if (now >= L->end || atomic_load_explicit(&L->sh->stop, memory_order_relaxed))
		st->stopping = true;
	/* not run since prev_now: every interval that ends from here on and
	 * the current one were measured in part or not at all, so they are
	 * gaps (SAMPLE_GAP), never 0 IOPS */
	bool stalled = nvs_unlikely(now - L->prev_now > L->gap_ns);
	L->prev_now = now;
	if (stalled)
		st->gap_cur = true;
	while (nvs_unlikely(now >= L->next_b)) {
		/* a job ending on a boundary folds that interval into its last
		 * sample, rather than leaving a sliver of a tail interval */
		if (st->stopping && now < L->next_b + L->interval)
			break;
		if (OPT(P, L->check_min)) /* rate_min: full measured intervals */
			wstate_min_rate(w, st,
					L->next_b - L->interval >= L->ramp_end &&
					    L->next_b - L->interval >= L->t0 + 2 * NVS_NSEC_PER_SEC,
					L->interval); /* fio: a 2 s settle period */
		emit(w, st, L->seq++, L->next_b - L->interval - L->t0, L->next_b - L->t0,
		     s->ramp_ns, stalled ? SAMPLE_GAP : 0);
		L->next_b += L->interval;
	}
	if (stalled)
		st->gap_cur = true;
}

/* The job's end: its last sample, runtime and CPU, the drain, end_fsync
 * and the verify pass. */
static void finish(struct worker *w, struct wstate *st, struct loop *L)
{
	const struct spec *s = L->s;
	uint64_t now = L->now;
	emit(w, st, L->seq, L->next_b - L->interval - L->t0, now - L->t0, s->ramp_ns, SAMPLE_LAST);
	if (st->measuring) {
		uint64_t usr, sys;
		wstate_rusage(st, &usr, &sys);
		uint64_t m0 = L->ramp_end > L->t0 ? L->ramp_end : L->t0;
		uint64_t span = now - (st->meas_ns > m0 ? st->meas_ns : m0);
		/* the writes' runtime leaves out the read-backs (fio's
		 * update_runtime per phase) */
		w->res.runtime_s =
		    (double)(span - (st->vcycle_ns < span ? st->vcycle_ns : 0)) / 1e9;
		w->res.usr_s = (double)(usr - st->usr_meas) / 1e9;
		w->res.sys_s = (double)(sys - st->sys_meas) / 1e9;
	}
	w->res.lat_depth = st->lt.on ? lattarget_depth(&st->lt) : 0;
	wstate_drain(w, st, now);
	/* fio's end_fsync / fsync_on_close: the written data reaches the medium
	 * before the job ends (and before do_verify reads it back); outside the
	 * measured window, as fio's end-of-job sync */
	if (s->end_fsync && !st->inflight && spec_writes(s))
		for (unsigned m = 0; m < w->nmembers; m++)
			if (fsync(w->members[m].fd))
				worker_fail(L->sh, -errno, "%s: end_fsync: %s", w->members[m].path,
					    strerror(errno));
	/* fio skips do_verify after writes its runtime (or a stop) cut short */
	if (st->vtype)
		wverify_pass(w, st, L->end, st->stopping);
}

/* The issue loop (its copy for @P): fill the queue, submit, wait for the
 * next completion or time, reap, emit the intervals that ended; until the
 * job's end. */
static nvs_always_inline void issue_loop(struct worker *w, struct wstate *st, struct loop *L0,
					 const bool P)
{
	/* a copy whose address the plain copy never passes on: its fields
	 * may stay in registers across the stores through st and w */
	struct loop l = *L0, *L = &l;
	const struct spec *s = L->s;
	for (;;) {
		if (OPT(P,
			w->iolog != NULL)) /* the records pushed from here on are at or after now */
			iolog_publish(w->iolog_clock, L->now);
		if (OPT(P, s->thinktime_ns))
			L->now = think_step(&L->think, s, L->now, st->inflight);
		unsigned submitted = 0, batch = 0;
		L->flow_wake = 0;
		if (!st->stopping)
			batch = fill(w, st, L, &submitted, P);
		if (!st->inflight && (st->stopping || L->issued >= L->limit ||
				      (OPT(P, L->tr != NULL) && L->tpos == L->tr->n)))
			break;
		if (batch)
			submit_batch(w, st, L, batch, P); /* stamps clat's start */
		if (submitted && st->measuring) {	  /* fio's io_u_mark_depth / _submit */
			w->res.depth_map[result_depth_idx(st->inflight)] += submitted;
			w->res.submit_map[result_batch_idx(submitted)]++;
		}
		if (between(w, st, L, batch, P))
			continue;
		if (wait_reap(w, st, L, wait_ns(st, L, P), P))
			break;
		after_reap(w, st, L, P);
		if (st->stopping)
			break; /* the window closes now: in-flight I/O is not waited for */
	}
	*L0 = l;
}

/* (each copy a function of its own: the compiler's choices for one do not
 * depend on the other's size) */
static __attribute__((noinline)) void loop_plain(struct worker *w, struct wstate *st,
						 struct loop *L)
{
	issue_loop(w, st, L, true);
}

static __attribute__((noinline)) void loop_general(struct worker *w, struct wstate *st,
						   struct loop *L)
{
	issue_loop(w, st, L, false);
}

static void run(struct worker *w, struct wstate *st)
{
	struct loop L;
	loop_init(w, st, &L);
	wverify_pass_start(st);
	w->res.workers = 1;
	w->res.plain_workers = L.plain;
	if (L.plain)
		loop_plain(w, st, &L);
	else
		loop_general(w, st, &L);
	finish(w, st, &L);
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct worker_shared *sh = w->shared;
	struct wstate *st = calloc(1, sizeof(*st));
	int rc = -ENOMEM;

	rc = wstate_pin(w); /* reports its own failure */
	if (rc)
		goto ready;
	rc = -ENOMEM;
	if (!st) {
		worker_fail(sh, rc, "out of memory");
		goto ready;
	}
	st->vdump_dir = -1; /* none yet (wverify_free closes it) */
	rc = setup_ring(w, st);
	if (rc)
		goto ready;
	rc = wstate_buffers(w, st);
	if (rc)
		goto ready;
	rc = wverify_setup(w, st);
	if (rc)
		goto ready;
	rc = wstate_gen_init(w, st);
ready:
	atomic_fetch_add_explicit(&sh->ready, 1, memory_order_release);
	while (!atomic_load_explicit(&sh->go, memory_order_acquire)) {
		struct timespec ts = {0, 200000};
		nanosleep(&ts, NULL);
	}
	if (!rc && !atomic_load_explicit(&sh->stop, memory_order_relaxed))
		run(w, st);
	/* fio's flow_exit_job runs when the job is reaped, not here: the other
	 * jobs of the flow stay held by its count until then (pool.c) */
	if (w->flow)
		atomic_store_explicit(&w->flow_ended, (st ? st->flow.n : 0) + 1,
				      memory_order_release);
	if (st) {
		wverify_free(st);
		/* abandoned: the kernel still owns I/Os into st->bufmem (a stalled
		 * device).  The buffers are never freed (the device may still
		 * write into them); closing the ring does not wait (the kernel
		 * tears it down when the I/O ends, and drops the files then); the
		 * pool detaches this thread, whose exit may wait in the kernel. */
		w->abandoned = st->inflight > 0;
		if (st->ring_ok) {
			/* the ring's teardown runs later in a kernel worker: drop the
			 * registered files now, so the next job can reopen a block
			 * device exclusively as soon as this one ends (not with I/O
			 * stuck: older kernels wait for it there) */
			if (st->fixed_files && !w->abandoned)
				io_uring_unregister_files(&st->ring);
			/* released before the unmap: another worker may map its
			 * ring at this address as soon as the unmap is done */
			RING_UNMAPPED();
			io_uring_queue_exit(&st->ring);
		}
		if (w->abandoned) {
			st->next_abandoned = atomic_load(&abandoned_states);
			while (!atomic_compare_exchange_weak(&abandoned_states, &st->next_abandoned,
							     st))
				;
		} else {
			free(st->bufmem);
			fileset_free(&st->fs);
			offgen_free(&st->gen);
			free(st->cur);
			free(st->freel);
			free(st->slots);
			free(st);
		}
	}
	if (w->iolog) /* no more records from this worker */
		iolog_publish(w->iolog_clock, UINT64_MAX);
	/* the last access to the pool's memory: once running reaches 0 the
	 * pool may join (or detach) and free everything */
	atomic_fetch_sub_explicit(&sh->running, 1, memory_order_release);
	return NULL;
}

/* wstate.c - a worker's set-up and CPU accounting (see wstate.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "io/core/backend.h"
#include "io/trace/iolog.h"
#include "io/feat/nvcmd.h"
#include "io/feat/pi.h"
#include "io/feat/prio.h"
#include "io/opt/spec.h"
#include "io/core/target.h"
#include "io/feat/pagecache.h"
#include "io/core/wstate.h"
#include "io/feat/xrun.h"

/* The SQPOLL kernel thread does this worker's submissions in a thread of
 * its own, named "iou-sqp-<tid of the ring's creator>": its tid, or -1 when
 * it has not named itself yet.  (The ring's fdinfo "SqThread:" line is no
 * help: the kernel prints it only when it gets the ring's lock, which the
 * busy SQ thread holds nearly all the time.) */
int wstate_sq_tid(void)
{
	char want[32], path[288], comm[32];
	struct dirent *e;
	int tid = -1;
	DIR *d = opendir("/proc/self/task");

	if (!d)
		return -1;
	snprintf(want, sizeof(want), "iou-sqp-%d\n", (int)gettid());
	while (tid < 0 && (e = readdir(d))) {
		FILE *f;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, want))
			tid = atoi(e->d_name);
		fclose(f);
	}
	closedir(d);
	return tid;
}

/* utime + stime of thread @tid of this process, ns (clock-tick resolution);
 * 0 when it cannot be read. */
static uint64_t task_cpu_ns(int tid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut = 0, stime = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* comm may hold spaces and parentheses */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut,
			 &stime) != 2)
		return 0;
	return (ut + stime) * NVS_NSEC_PER_SEC / (uint64_t)sysconf(_SC_CLK_TCK);
}

/* CPU time spent for this worker: its own thread's, plus (as system time)
 * its SQPOLL thread's, so IOPS per CPU-second stays honest with SQPOLL. */
void wstate_rusage(const struct wstate *st, uint64_t *usr, uint64_t *sys)
{
	struct rusage ru;
	getrusage(RUSAGE_THREAD, &ru);
	*usr =
	    (uint64_t)ru.ru_utime.tv_sec * NVS_NSEC_PER_SEC + (uint64_t)ru.ru_utime.tv_usec * 1000;
	*sys =
	    (uint64_t)ru.ru_stime.tv_sec * NVS_NSEC_PER_SEC + (uint64_t)ru.ru_stime.tv_usec * 1000;
	if (st->sq_tid > 0)
		*sys += task_cpu_ns(st->sq_tid);
}

void wstate_sample_reset(struct sample *s)
{
	memset(s, 0, sizeof(*s));
	for (int d = 0; d < NVS_NDIR; d++)
		s->dir[d].lat_min = UINT64_MAX;
}

int wstate_buffers(struct worker *w, struct wstate *st)
{
	uint32_t maxbs = 0;
	size_t stride;

	for (unsigned i = 0; i < w->spec->nbs; i++)
		if (w->spec->bs[i].bs > maxbs)
			maxbs = w->spec->bs[i].bs;
	if (w->trace && w->trace->max_len > maxbs)
		maxbs = w->trace->max_len;
	/* a trim carries no data: its buffer holds at most io_uring_cmd's
	 * num_range list (256 ranges of 16 bytes), however large the trim
	 * (spec_bs_misfit: above 64m only trims) */
	bool trims_only = !w->trace && (w->spec->rw == RW_TRIM || w->spec->rw == RW_RANDTRIM);
	stride = trims_only ? 4096 : ((size_t)maxbs + 4095) & ~(size_t)4095;
	/* passthrough metadata (fio's md_per_io_size): one per slot, after the
	 * data buffers, allocated here and never on the I/O path */
	size_t mds = w->be == &backend_uring_cmd && w->spec->pi.md_per_io
			 ? ((size_t)w->spec->pi.md_per_io + 63) & ~(size_t)63
			 : 0;
	st->slots = calloc(w->qd, sizeof(*st->slots));
	st->freel = calloc(w->qd, sizeof(*st->freel));
	st->cur = malloc(sizeof(*st->cur));
	if (!st->slots || !st->freel || !st->cur ||
	    posix_memalign(&st->bufmem, 4096, (stride + mds) * w->qd)) {
		worker_fail(w->shared, -ENOMEM, "out of memory for %u buffers of %u bytes", w->qd,
			    maxbs);
		return -ENOMEM;
	}
	/* fio's buffer contents (io/core/datagen.h): by default each buffer random,
	 * then scrambled per write, so every block written is distinct */
	uint32_t minbs = maxbs;
	for (unsigned i = 0; i < w->spec->nbs; i++)
		if (w->spec->bs[i].bs < minbs)
			minbs = w->spec->bs[i].bs;
	if (w->trace)
		minbs = 512; /* a trace's I/Os have any size */
	datagen_init(&st->data, w->spec, minbs, datagen_seed(w->spec, w->place, w->id));
	datagen_working_set(&st->data, w->spec, w->place, w->region_len, minbs, w->id);
	prio_seed(&st->prio_fr, w->spec, w->place->thread0 + w->id + 1);
	prio_resolve(&w->spec->prio, &st->prio);
	st->fdp_rng = (w->spec->seed ^ ((uint64_t)w->id << 32) ^ 0x165667b19e3779f9ULL) | 1;
	st->fdp_loc = UINT32_MAX; /* the first write takes the first identifier */
	st->wm_rng = (w->spec->seed ^ ((uint64_t)w->id << 32) ^ 0xc2b2ae3d27d4eb4fULL) | 1;
	st->wmode_on = w->be == &backend_uring_cmd && nvcmd_active(w->spec);
	st->nranges = w->be == &backend_uring_cmd ? (uint16_t)nvcmd_ranges(w->spec) : 1;
	for (unsigned i = 0; i < w->qd; i++) {
		st->slots[i].buf = (char *)st->bufmem + i * stride;
		if (mds) {
			st->slots[i].md = (char *)st->bufmem + w->qd * stride + i * mds;
			memset(st->slots[i].md, 0, mds);
		}
		st->freel[i] = w->qd - 1 - i;
		if (spec_writes(w->spec))
			datagen_fill(&st->data, st->slots[i].buf, stride);
		else
			memset(st->slots[i].buf, 0, stride);
	}
	st->nfree = w->qd;
	for (unsigned i = 0; i < w->nmembers && w->be == &backend_uring_cmd; i++)
		st->pi_check |= uring_cmd_pi_checks(&w->members[i], w->spec);
	/* RWF_ATOMIC takes user buffers only (the kernel: iter_is_ubuf) */
	if (w->spec->fixedbufs && w->be == &backend_io_uring && !w->spec->atomic) {
		struct iovec *iov = calloc(w->qd, sizeof(*iov));
		if (iov) {
			for (unsigned i = 0; i < w->qd; i++)
				iov[i] = (struct iovec){st->slots[i].buf, stride};
			/* a memlock limit may refuse: plain buffers work the same */
			st->fixed_bufs = io_uring_register_buffers(&st->ring, iov, w->qd) == 0;
			free(iov);
		}
	}
	wstate_sample_reset(st->cur);
	return 0;
}

int wstate_pin(struct worker *w)
{
	char err[256];
	int rc;

	if (w->pin && pthread_setaffinity_np(pthread_self(), sizeof(w->cpus), &w->cpus))
		fprintf(stderr, "nvscope: cannot pin worker %u to cpus_allowed=%s\n", w->id,
			w->spec->cpus_allowed);
	/* fio's nice, numa_cpu_nodes, numa_mem_policy: before the buffers */
	rc = xrun_apply_thread(w->spec, err, sizeof(err));
	if (rc)
		worker_fail(w->shared, rc, "%s", err);
	return rc;
}

/* After the window: cancels what is in flight and waits at most
 * WORKER_GRACE_NS for it.  Nothing reaped here enters the figures. */
void wstate_drain(struct worker *w, struct wstate *st, uint64_t now)
{
	uint64_t give_up = now + WORKER_GRACE_NS;
	struct io_uring_sqe *sqe;

	if (!st->inflight)
		return;
	sqe = io_uring_get_sqe(&st->ring);
	if (sqe) {
		/* Linux 5.19+; an older kernel fails it (-EINVAL) and the grace
		 * alone bounds the wait */
		io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ANY);
		sqe->user_data = CANCEL_TAG;
	}
	while (st->inflight && now < give_up) {
		uint64_t wait = give_up - now;
		struct __kernel_timespec ts = {.tv_sec = (long long)(wait / NVS_NSEC_PER_SEC),
					       .tv_nsec = (long long)(wait % NVS_NSEC_PER_SEC)};
		struct io_uring_cqe *cqe;
		unsigned head, n = 0;
		int rc = io_uring_submit_and_wait_timeout(&st->ring, &cqe, 1, &ts, NULL);

		if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
			break;
		now = worker_now_ns();
		io_uring_for_each_cqe(&st->ring, head, cqe)
		{
			if (cqe->user_data < CANCEL_TAG) {
				unsigned idx = (uint32_t)cqe->user_data;
				/* a split I/O's part (worker.c issue_parts): the
				 * slot ends with its last part */
				if (cqe->user_data > UINT32_MAX && --st->slots[idx].parts) {
					n++;
					continue;
				}
				st->freel[st->nfree++] = idx;
				st->inflight--;
				if (cqe->res == -ECANCELED || cqe->res == -EINTR)
					w->res.cancelled++;
				else
					w->res.late++;
			}
			n++;
		}
		io_uring_cq_advance(&st->ring, n);
	}
	w->res.unfinished = st->inflight;
}

void wstate_submit(struct worker *w, struct wstate *st)
{
	int rc = io_uring_submit_and_get_events(&st->ring);

	if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
		worker_fail(w->shared, rc, "io_uring_enter failed: %s", strerror(-rc));
		atomic_store_explicit(&w->shared->stop, 1, memory_order_relaxed);
		st->stopping = true;
	}
}

/* Queues the due sync on a free slot (IORING_OP_FSYNC, as fio's io_uring
 * engine); -EBUSY when no SQE is free yet. */
int wstate_issue_sync(struct worker *w, struct wstate *st, uint64_t now)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&st->ring);

	if (!sqe)
		return -EBUSY;
	unsigned idx = st->freel[--st->nfree];
	struct slot *sl = &st->slots[idx];
	io_uring_prep_fsync(sqe, st->fixed_files ? st->sync_member : w->members[st->sync_member].fd,
			    st->sync_due == 2 ? IORING_FSYNC_DATASYNC : 0);
	if (st->fixed_files)
		sqe->flags |= IOSQE_FIXED_FILE;
	sqe->user_data = idx;
	sl->t_issue = sl->t_sub = now;
	sl->len = 0;
	sl->dir = SLOT_SYNC;
	sl->member = st->sync_member;
	if (w->iolog) { /* fio logs a sync as "sync 0 0" */
		struct iolog_rec r = {.t_ns = now, .dir = NVS_NDIR};
		r.file = (uint8_t)(w->nmembers > 1 ? sl->member : w->target);
		spsc_push(w->iolog, &r);
	}
	st->sync_due = 0;
	st->inflight++;
	return 0;
}

void wstate_lat_reap(struct worker *w, struct wstate *st, uint64_t now, bool measuring)
{
	struct lattarget *lt = &st->lt;

	if (measuring && lattarget_check(lt, now) == LT_DONE) {
		st->stopping = true;
		return;
	}
	if (!lt->quiesce || st->inflight || !lattarget_resume(lt, now))
		return;
	/* fio's reset_all_stats before the final window: the job reports what
	 * it did at the depth found */
	unsigned nm = w->res.nmembers;
	result_init(&w->res);
	w->res.nmembers = nm;
	st->meas_ns = now;
	wstate_rusage(st, &st->usr_meas, &st->sys_meas);
}

void wstate_lat_fatal(struct worker *w, struct wstate *st, uint64_t lat_ns)
{
	worker_fail(w->shared, -ETIMEDOUT,
		    "%s: an I/O took %llu us at queue depth 1, above latency_target %llu us with "
		    "latency_percentile=100 (fio: max latency exceeded)",
		    w->members[0].path, (unsigned long long)(lat_ns / 1000),
		    (unsigned long long)(st->lt.target_ns / 1000));
	atomic_store_explicit(&w->shared->stop, 1, memory_order_relaxed);
	st->stopping = true;
}

bool wstate_overlap(const struct worker *w, const struct wstate *st, uint64_t off, uint32_t len)
{
	for (unsigned i = 0; i < w->qd; i++) {
		const struct slot *sl = &st->slots[i];
		if (sl->busy && off < sl->off + sl->len && sl->off < off + len)
			return true;
	}
	return false;
}

/* An I/O that failed or came back short (see wstate.h). */
void wstate_io_error(struct worker *w, struct wstate *st, const struct slot *sl, int res)
{
	int e = res < 0 ? -res : EIO;
	unsigned d = sl->dir == SLOT_SYNC ? NVS_WRITE : sl->dir; /* a sync: the writes' */
	struct sample_dir *sd = &st->cur->dir[d];
	static const char *const what[] = {"read", "write", "trim", "fsync"};

	char why[200] = "";

	/* fio's words: its PI check's, or the device's status (fio prints
	 * "cq entry status (sct=0x02; sc=0x82)") */
	if (st->pi_msg[0])
		snprintf(why, sizeof(why), " (%s)", st->pi_msg);
	else if (st->nvme_status)
		snprintf(why, sizeof(why), " (NVMe status sct=0x%x sc=0x%02x%s)",
			 (st->nvme_status >> 8) & 7u, st->nvme_status & 0xffu,
			 pi_status_name(st->nvme_status));
	st->pi_msg[0] = '\0';
	st->nvme_status = 0;
	sd->errors++;
	if (!st->cur->first_errno)
		st->cur->first_errno = e;
	if (st->measuring)
		w->res.dir[d].errors++;
	if (!w->res.dir[d].first_errno)
		w->res.dir[d].first_errno = e;
	bool ignored = specerr_ignored(&w->spec->ignore_error, w->spec->continue_on_error,
				       specerr_kind_of(sl->dir == NVS_READ, e), e);
	/* fio's io_u_log_error: a line for the error that fails the job, and
	 * with error_dump=1 for every ignored one too (fio's words; an error
	 * path, not the I/O path: the worker prints it, as verify's bad blocks) */
	if (!ignored || w->spec->error_dump) {
		uint64_t off = sl->dir == SLOT_SYNC ? 0 : sl->off, stripe = w->spec->stripe;
		if (w->nmembers > 1 && !w->fileset && stripe) /* the member's offset */
			off = off / stripe / w->nmembers * stripe + off % stripe;
		fprintf(stderr, "nvscope: io_u error on file %s: %s: %s offset=%llu, buflen=%u\n",
			w->members[sl->member].path, strerror(e),
			sl->dir == SLOT_SYNC ? "sync" : what[sl->dir], (unsigned long long)off,
			sl->len);
	}
	if (ignored)
		return;
	if (e == EOPNOTSUPP && w->spec->hipri)
		worker_fail(w->shared, -e,
			    "%s: polled completions (--hipri) not supported: the device has no "
			    "poll queues",
			    w->members[sl->member].path);
	else
		worker_fail(w->shared, -e, "%s: %s error at I/O time: %s%s%s%s",
			    w->members[sl->member].path, what[sl->dir], strerror(e), why,
			    res >= 0 ? " (short transfer)" : "",
			    sl->dir == NVS_TRIM && e == EOPNOTSUPP
				? " (the device does not discard, or the kernel has no io_uring "
				  "block discard: Linux 6.12+)"
				: "");
	atomic_store_explicit(&w->shared->stop, 1, memory_order_relaxed);
	st->stopping = true;
}

int wstate_pi_check(const struct worker *w, struct wstate *st, const struct slot *sl)
{
	const struct target *t = &w->members[sl->member];
	const struct spec_pi *p = &w->spec->pi;
	const struct pi_fmt *f = &t->fmt;

	if (!uring_cmd_pi_checks(t, w->spec))
		return (int)sl->len;
	int rc =
	    pi_verify(f, p->chk, p->apptag, p->apptag_mask, sl->buf, sl->md,
		      sl->dev_off / f->stride, sl->len / f->stride, st->pi_msg, sizeof(st->pi_msg));
	return rc ? rc : (int)sl->len;
}

/* fio's rate_min / rate_iops_min: a measured interval of a direction the
 * workload does, below its minimum, fails the job (fio: "min rate not met"). */
void wstate_min_rate(struct worker *w, struct wstate *st, bool measured, uint64_t interval)
{
	const struct spec *s = w->spec;

	if (!measured || st->stopping)
		return;
	for (int d = 0; d < 2; d++) {
		if (d == NVS_READ ? st->gen.mixread == 0 : st->gen.mixread == 100)
			continue;
		double secs = (double)interval / 1e9;
		int cd = d == NVS_WRITE && st->gen.trim == OFFGEN_TRIM ? NVS_TRIM : d;
		double bw = (double)st->cur->dir[cd].bytes / secs;
		double iops = (double)st->cur->dir[cd].ios / secs;
		if ((s->rate_min_bw[d] && bw < (double)s->rate_min_bw[d]) ||
		    (s->rate_min_iops[d] && iops < (double)s->rate_min_iops[d])) {
			worker_fail(w->shared, -EIO,
				    "%s: %s rate %.0f B/s, %.0f IOPS: below rate_min/rate_iops_min "
				    "(fio: min rate not met)",
				    w->members[0].path,
				    cd == NVS_READ    ? "read"
				    : cd == NVS_WRITE ? "write"
						      : "trim",
				    bw, iops);
			atomic_store_explicit(&w->shared->stop, 1, memory_order_relaxed);
			st->stopping = true;
			return;
		}
	}
}

uint32_t wstate_trim_ranges(struct wstate *st, void *buf, uint64_t off, uint32_t len, uint64_t left,
			    uint64_t passes, uint16_t *n, bool *end)
{
	struct backend_range *r = buf;
	uint64_t total = len;
	unsigned i = 1;

	/* fio's fill_multi_range_io_u: the next offsets and sizes of the
	 * job's own stream, until num_range or the stream's end */
	r[0] = (struct backend_range){off, len};
	while (i < st->nranges && total < left) {
		uint64_t o;
		uint32_t l;
		enum nvs_dir d;
		offgen_next(&st->gen, &o, &l, &d);
		if (st->gen.wraps >= passes) {
			*end = true; /* the pass ended: this trim is the last */
			break;
		}
		if (d != NVS_TRIM) { /* (rw=trim/randtrim give only trims) */
			st->p_off = o;
			st->p_len = l;
			st->p_dir = (uint8_t)d;
			st->pend = true;
			break;
		}
		r[i++] = (struct backend_range){o, l};
		total += l;
	}
	*n = (uint16_t)i;
	return (uint32_t)total;
}

int wstate_gen_init(struct worker *w, struct wstate *st)
{
	struct worker_shared *sh = w->shared;
	/* each worker its own stream; jobs of one run (datagen_number_run)
	 * are fio's threads run_thread0.., so two alike jobs do not issue the
	 * same offsets (fio seeds each thread by its number) */
	uint64_t seed = w->spec->seed + 0x9e3779b97f4a7c15ULL * (w->place->thread0 + w->id + 1);
	int rc = offgen_init(&st->gen, w->spec, w->region_start, w->region_len, w->align, seed);

	/* fio's streams: the job's thread number (1-based) in the run */
	if (!rc) {
		offgen_seed(&st->gen, w->spec, w->place->thread0 + w->id + 1);
		/* random_distribution: fio's stream of the file by its name */
		offgen_dist_seed(&st->gen, w->spec, w->members[0].path,
				 w->place->thread0 + w->id + 1);
	}

	if (rc == -ENOMEM)
		worker_fail(sh, rc, "out of memory for the random map");
	else if (rc == -EDOM)
		worker_fail(sh, rc,
			    "%s: sprandom: spr_num_regions leaves regions smaller than one block, "
			    "or spr_cs is larger than a region",
			    w->members[0].path);
	else if (rc)
		worker_fail(sh, rc, "%s: region smaller than the block size", w->members[0].path);
	if (!rc && w->zbd)
		zbd_ws_init(&st->zws, w->zbd, w->spec, w->region_start, w->region_len);
	/* fio's zbd_file_reset: with verify the job's zones are reset before
	 * it writes anything (no zone is reset while writing) */
	if (!rc && w->zbd && st->zws.verify && (rc = zbd_verify_reset(w->zbd, &st->zws)))
		worker_fail(sh, rc, "%s: zonemode=zbd: resetting the job's zones for verify failed",
			    w->members[0].path);
	st->flow.zbd = w->zbd != NULL; /* fio's flow quiesces under zonemode=zbd */
	st->pc_pass = !w->trace && !w->fileset && pagecache_per_pass(w->spec, &w->members[0]);
	if (!rc && w->fileset) {
		unsigned bad = 0;
		rc = fileset_init(&st->fs, w->spec, w->nmembers, w->fstart, w->flen, w->flimit,
				  w->align, seed, &bad);
		if (rc == -ENOMEM)
			worker_fail(sh, rc, "out of memory for the random map");
		else if (rc)
			worker_fail(sh, rc, "%s: region smaller than the block size",
				    w->members[bad].path);
		unsigned thread = w->place->thread0 + w->id + 1;
		if (!rc)
			fileset_seed(&st->fs, w->spec, thread);
		for (unsigned f = 0; !rc && f < w->nmembers; f++)
			offgen_dist_seed(&st->fs.gen[f], w->spec, w->members[f].path, thread);
	}
	return rc;
}

void wstate_limits(const struct worker *w, const struct wstate *st, uint64_t *limit,
		   uint64_t *passes, uint64_t *nios_max)
{
	const struct spec *s = w->spec;

	/* fio's loops repeat io_size too, going on from where the last loop
	 * ended (cross-stripe-verify.fio: loops=2 with io_size) */
	uint64_t lp = s->loops ? s->loops : 1;
	*limit = s->time_based ? UINT64_MAX
		 : s->io_size  ? (s->io_size > UINT64_MAX / lp ? UINT64_MAX : s->io_size * lp)
			       : w->region_len * lp;
	*passes = s->time_based || s->io_size || st->gen.random ? UINT64_MAX
		  : s->loops					? s->loops
								: 1;
	if (w->trace)
		*limit = UINT64_MAX;
	if (w->fileset && !s->time_based && !s->io_size) {
		*limit = 0; /* fio: the job's size is the files' sizes together */
		for (unsigned f = 0; f < w->nmembers; f++)
			*limit += w->flimit[f];
	}
	if (st->gen.spr && !s->time_based) {
		/* fio's sprandom_init sets io_size to the physical size (time_based:
		 * the plan's end alone ends the job, as fio master) */
		struct sprandom_plan sp;
		sprandom_get_plan(st->gen.spr, &sp);
		*limit = sp.physical;
	}
	if (!w->trace && st->gen.trim == OFFGEN_TRIMWRITE && *limit < UINT64_MAX / 2)
		*limit *= 2; /* fio: each byte is trimmed, then written */
	/* fio's number_ios (exceeds_number_ios): I/Os issued, at most
	 * number_ios x loops (trimwrite: twice), then the job ends; fio's I/O
	 * loop goes on regardless while time_based */
	uint64_t n = s->time_based ? 0 : s->number_ios;
	uint64_t nloops =
	    (uint64_t)(s->loops ? s->loops : 1) * (st->gen.trim == OFFGEN_TRIMWRITE ? 2 : 1);
	*nios_max = n > UINT64_MAX / nloops ? UINT64_MAX : n * nloops;
}

uint64_t wstate_wait_until(const struct worker *w, uint64_t t, uint64_t step_ns)
{
	uint64_t now = worker_now_ns();

	while (now < t && !atomic_load_explicit(&w->shared->stop, memory_order_relaxed)) {
		uint64_t left = t - now < step_ns ? t - now : step_ns;
		struct timespec ts = {(time_t)(left / NVS_NSEC_PER_SEC),
				      (long)(left % NVS_NSEC_PER_SEC)};
		nanosleep(&ts, NULL);
		now = worker_now_ns();
	}
	return now;
}

void wstate_pass_cache(const struct worker *w, struct wstate *st)
{
	uint64_t n = st->gen.wraps + st->gen.map_passes + st->gen.restarts + st->gen.loops;

	if (n == st->pc_passes)
		return;
	st->pc_passes = n;
	for (unsigned i = 0; i < w->nmembers; i++)
		(void)pagecache_invalidate(&w->members[i]); /* fio only warns */
}

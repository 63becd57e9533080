/* wverify.c - fio's verify in a worker (see wverify.h).
 *
 * fio's flow (backend.c do_io then do_verify): a write job with verify= and
 * do_verify=1 (the default) writes every block with a header and checksum,
 * then reads back each block it wrote and checks it (in the order written
 * for a random job; a time_based job loops: a pass of its size, its
 * read-back, the next pass; writes its runtime cut short are not read
 * back, as fio skips do_verify for a terminated job); a read job with
 * verify= checks every block it reads; verify_only skips the writes and
 * only reads back (here: the job's region, every block once).  A bad block is
 * counted with its offset; verify_fatal=1 stops at the first, otherwise the
 * whole read-back runs and the job fails at the end (fio: "verify: bad
 * magic header ..., wanted ... at file ... offset ..."). */
#include <errno.h>
#include <liburing.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>
#include "dev/safety.h"
#include "io/trace/iolog.h"
#include "io/core/offgen.h"
#include "io/core/randmap.h"
#include "io/feat/vhdr.h"
#include "io/feat/wverify.h"

#define VDUMP_MAX 64 /* bad blocks dumped per job, at most */

int wverify_setup(struct worker *w, struct wstate *st)
{
	const struct spec *s = w->spec;

	st->vtype = s->verify;
	st->vdump_dir = -1;
	if (st->vtype && s->verify_dump) {
		/* fio dumps into the current directory: opened once, checked
		 * (owner, not world-writable) by the one output module */
		char msg[256];
		st->vdump_dir = safety_results_dir(".", false, msg, sizeof(msg));
		if (st->vdump_dir < 0) {
			worker_fail(w->shared, st->vdump_dir, "verify_dump: %s", msg);
			return st->vdump_dir;
		}
	}
	/* a nonce per job in the headers: the read-back tells this job's
	 * blocks from an earlier run's */
	if (getrandom(&st->vnonce, sizeof(st->vnonce), GRND_NONBLOCK) != sizeof(st->vnonce))
		st->vnonce = worker_now_ns() * 0x9e3779b97f4a7c15ULL ^ w->id;
	if (!st->vtype || !spec_writes(s) || !s->do_verify)
		return 0;
	st->vbs = s->bs[0].bs;
	st->vblocks = w->region_len / st->vbs;
	if (s->verify_backlog) { /* the last verify_backlog blocks written */
		st->vb = calloc(s->verify_backlog, sizeof(*st->vb));
		if (!st->vb) {
			worker_fail(w->shared, -ENOMEM, "out of memory for verify_backlog=%u",
				    s->verify_backlog);
			return -ENOMEM;
		}
		return 0;
	}
	st->vmap = calloc((st->vblocks + 63) / 64, sizeof(uint64_t));
	if (!st->vmap) {
		worker_fail(w->shared, -ENOMEM, "out of memory for the verify map of %llu blocks",
			    (unsigned long long)st->vblocks);
		return -ENOMEM;
	}
	return 0;
}

void wverify_free(struct wstate *st)
{
	if (st->vdump_dir >= 0)
		close(st->vdump_dir);
	st->vdump_dir = -1;
	free(st->vmap);
	free(st->vb);
	st->vmap = NULL;
	st->vb = NULL;
	randmap_free(st->vgen_map);
	st->vgen_map = NULL;
}

void wverify_stamp(struct worker *w, struct wstate *st, void *buf, uint32_t len, uint64_t off,
		   uint64_t now)
{
	const struct spec *s = w->spec;
	/* fio's header: numberio is the job's write count (16 bits), thread
	 * the job's number from 1; rand_seed the job's nonce (nvscope's data
	 * is fresh, not regenerated from a seed; fio's verify_only of a write
	 * job takes the header's) */
	struct vhdr_io io = {.rand_seed = st->vnonce,
			     .t_ns = now,
			     .thread = (uint16_t)(w->id + 1),
			     .numberio = (uint16_t)st->vseq++};

	vhdr_stamp(buf, len, s->verify_interval, off, (enum vhdr_type)st->vtype, &io, s->vpattern,
		   s->vpattern_len);
	st->vb_issued++; /* the worker stops writing at verify_backlog */
}

void wverify_written(struct worker *w, struct wstate *st, const struct slot *sl)
{
	if (st->vb) {
		st->vb[st->vb_n++] = sl->off;
	} else if (st->vmap) {
		uint64_t b = (sl->off - w->region_start) / st->vbs;
		st->vmap[b / 64] |= 1ULL << (b % 64);
	}
}

/* fio's verify_dump: @n bytes @p as "<target's name>.<offset>.<kind>" in
 * the current directory, through the safety module (a new file only: an
 * existing name, a planted symlink among them, is refused, not followed). */
static void dump_file(struct worker *w, struct wstate *st, const uint8_t *p, uint32_t n,
		      uint64_t off, const char *kind)
{
	const char *path = w->members[0].path, *base = strrchr(path, '/');
	char name[NAME_MAX + 1], msg[256];
	int fd, k;

	base = base ? base + 1 : path;
	k = snprintf(name, sizeof(name), "%s.%llu.%s", base, (unsigned long long)off, kind);
	if (k < 0 || (size_t)k >= sizeof(name)) {
		fprintf(stderr, "nvscope: verify_dump: the file name for %s is too long\n", path);
		return;
	}
	fd = safety_openat_output(st->vdump_dir, name, SAFETY_OUT_EXCL, msg, sizeof(msg));
	if (fd < 0) {
		fprintf(stderr, "nvscope: verify_dump: %s: not written: %s\n", name, msg);
		return;
	}
	for (uint32_t done = 0; done < n;) {
		ssize_t r = write(fd, p + done, n - done);
		if (r <= 0) {
			fprintf(stderr, "nvscope: verify_dump: %s: %s\n", name,
				r < 0 ? strerror(errno) : "short write");
			break;
		}
		done += (uint32_t)r;
	}
	close(fd);
	fprintf(stderr, "       %s data dumped as %s\n", kind, name);
}

/* verify_dump of a bad interval at @bad of block @buf (at @off, @len bytes):
 * what was read, and what was expected where nvscope knows it (a pattern;
 * fresh random data is not regenerated from a seed, so a checksum type's
 * expected data is not written). */
static void dump(struct worker *w, struct wstate *st, const uint8_t *buf, uint64_t off,
		 uint32_t len, uint64_t bad)
{
	const struct spec *s = w->spec;
	enum vhdr_type t = (enum vhdr_type)st->vtype;
	uint32_t iv = t == VHDR_PATTERN ? len : vhdr_interval(len, s->verify_interval);
	uint64_t at = bad - off;

	if (st->vdump_dir < 0 || st->vdumps >= VDUMP_MAX || at + iv > len)
		return;
	if (++st->vdumps == VDUMP_MAX)
		fprintf(stderr, "nvscope: verify_dump: %u bad blocks dumped, no more\n", VDUMP_MAX);
	dump_file(w, st, buf + at, iv, bad, "received");
	if (t == VHDR_PATTERN) {
		uint8_t *e = malloc(iv); /* a bad block: off the hot path */
		if (!e)
			return;
		for (uint32_t i = 0; i < iv; i++)
			e[i] = s->vpattern[(at + i) % s->vpattern_len];
		dump_file(w, st, e, iv, bad, "expected");
		free(e);
	}
}

/* Counts one checked block; a bad one noted (the first is the job's error). */
static void note(struct worker *w, struct wstate *st, uint64_t off, uint32_t len, int rc,
		 const char *why)
{
	w->res.verify_blocks++;
	if (!rc)
		return;
	if (!w->res.verify_bad++) {
		w->res.verify_first_bad = off;
		fprintf(stderr, "nvscope: %s: verify: bad block at offset %llu (%u bytes): %s\n",
			w->members[0].path, (unsigned long long)off, len, why);
	}
	if (w->spec->verify_fatal) {
		worker_fail(w->shared, -EILSEQ,
			    "%s: verify (verify_fatal): bad block at offset %llu: %s",
			    w->members[0].path, (unsigned long long)off, why);
		atomic_store_explicit(&w->shared->stop, 1, memory_order_relaxed);
		st->stopping = true;
	}
}

void wverify_check(struct worker *w, struct wstate *st, const struct slot *sl)
{
	const struct spec *s = w->spec;
	char why[160];
	uint64_t bad = sl->off;
	if (st->vtype == VHDR_NULL)
		return; /* fio's pretend verify: nothing checked, nothing counted */
	int rc =
	    vhdr_check(sl->buf, sl->len, s->verify_interval, sl->off, (enum vhdr_type)st->vtype,
		       s->vpattern, s->vpattern_len, &bad, why, sizeof(why));
	note(w, st, bad, sl->len, rc, why);
	if (nvs_unlikely(rc) && s->verify_dump)
		dump(w, st, sl->buf, sl->off, sl->len, bad);
}

/* A block of the job's own read-back: checked, and its headers must carry
 * this job's nonce (else it is an earlier write's: this one was lost). */
static void read_check(struct worker *w, struct wstate *st, const struct slot *sl)
{
	const struct spec *s = w->spec;
	enum vhdr_type t = (enum vhdr_type)st->vtype;
	char why[200];
	uint64_t bad = sl->off;
	if (t == VHDR_NULL)
		return; /* fio's pretend verify: read back, not checked */
	int rc = vhdr_check(sl->buf, sl->len, s->verify_interval, sl->off, t, s->vpattern,
			    s->vpattern_len, &bad, why, sizeof(why));

	if (!rc)
		rc = vhdr_seed(sl->buf, sl->len, s->verify_interval, sl->off, t, st->vnonce, &bad,
			       why, sizeof(why));
	note(w, st, bad, sl->len, rc, why);
	if (rc && s->verify_dump)
		dump(w, st, sl->buf, sl->off, sl->len, bad);
}

/* Maps a logical offset to (member, offset) as the worker does. */
static unsigned map(const struct worker *w, uint64_t *off)
{
	if (w->nmembers < 2)
		return 0;
	uint64_t stripe = w->spec->stripe, chunk = *off / stripe;
	unsigned m = (unsigned)(chunk % w->nmembers);
	*off = (chunk / w->nmembers) * stripe + *off % stripe;
	return m;
}

static void fail_total(struct worker *w)
{
	if (w->res.verify_bad && !w->spec->verify_fatal)
		worker_fail(w->shared, -EILSEQ,
			    "%s: verify: %llu of %llu blocks bad, the first at offset %llu",
			    w->members[0].path, (unsigned long long)w->res.verify_bad,
			    (unsigned long long)w->res.verify_blocks,
			    (unsigned long long)w->res.verify_first_bad);
}

/* Which blocks a read-back reads: the bitmap (do_verify), or the backlog.
 * fio keeps a random job's writes in a list in the order it issued them
 * (iolog.c log_io_piece, when its random map is on) and reads them back in
 * that order; a sequential or norandommap job's sorted by offset.  Here a
 * random job with fio's map (or lfsr) replays its generator from the
 * pass's start (a copy of it and of its map, taken then: the same I/Os in
 * the same order) and reads each written block of each I/O; others walk
 * the bitmap in offset order. */
struct iter {
	bool backlog, replay;
	uint64_t pos, cur, left, bytes;
	struct offgen pg;
};

static bool can_replay(const struct wstate *st)
{
	const struct offgen *g = &st->gen;
	/* (zonemode=zbd moved the writes to the write pointers: st->zws is
	 * set only then; the bitmap has where they went) */
	return st->vmap && g->random && (g->rmap || g->lfsr_on) && !g->zsize && !g->spr &&
	       !st->zws.fsize && !g->trim && g->mixread == 0 && g->align == st->vbs;
}

static void iter_init(const struct wstate *st, struct iter *it, bool backlog)
{
	memset(it, 0, sizeof(*it));
	it->backlog = backlog;
	if (!backlog && st->vgen_ok && can_replay(st)) {
		it->pg = st->vgen;
		it->pg.rmap = NULL;
		if (!st->vgen_map || (it->pg.rmap = randmap_dup(st->vgen_map)))
			it->replay = true;
	}
}

static void iter_free(struct iter *it)
{
	randmap_free(it->pg.rmap);
	it->pg.rmap = NULL;
}

/* The next block's logical byte offset, or UINT64_MAX at the end. */
static uint64_t iter_next(const struct worker *w, const struct wstate *st, struct iter *it)
{
	if (it->backlog)
		return it->pos < st->vb_n ? st->vb[it->pos++] : UINT64_MAX;
	while (it->replay) {
		if (!it->left) {
			/* the pass's next write, until the pass's bytes */
			enum nvs_dir d;
			uint32_t l;
			if (it->bytes >= st->vpass_bytes)
				return UINT64_MAX;
			offgen_next(&it->pg, &it->cur, &l, &d);
			it->bytes += l;
			it->left = l / st->vbs;
			continue;
		}
		uint64_t off = it->cur;
		uint64_t b = (off - w->region_start) / st->vbs;
		it->cur += st->vbs;
		it->left--;
		if (off >= w->region_start && b < st->vblocks && (st->vmap[b / 64] >> (b % 64) & 1))
			return off;
	}
	while (it->pos < st->vblocks && !(st->vmap[it->pos / 64] >> (it->pos % 64) & 1))
		it->pos++;
	if (it->pos == st->vblocks)
		return UINT64_MAX;
	return w->region_start + it->pos++ * st->vbs;
}

/* Reads and checks the blocks of @it at the job's queue depth (nothing may
 * be in flight); a stop (the user's, an error's, or a fatal bad block) or
 * @deadline (no new reads after it) ends it.  0, or -errno when the ring failed (I/O may be left in
 * flight). */
static int read_back(struct worker *w, struct wstate *st, struct iter *it, uint64_t deadline)
{
	const struct spec *s = w->spec;
	uint64_t next = iter_next(w, st, it);
	char why[160];

	for (;;) {
		if (atomic_load_explicit(&w->shared->stop, memory_order_relaxed) ||
		    (s->verify_fatal && w->res.verify_bad) ||
		    (deadline != UINT64_MAX && worker_now_ns() >= deadline))
			next = UINT64_MAX;
		while (st->nfree && next != UINT64_MAX) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&st->ring);
			if (!sqe)
				break;
			unsigned idx = st->freel[--st->nfree];
			struct slot *sl = &st->slots[idx];
			struct backend_io io;
			uint64_t off = next;
			sl->off = off;
			sl->len = st->vbs;
			sl->dir = NVS_READ;
			sl->stale = true;
			sl->member = (uint8_t)map(w, &off);
			io.fd = st->fixed_files ? sl->member : w->members[sl->member].fd;
			io.fixed_file = st->fixed_files;
			io.buf = sl->buf;
			io.buf_index = st->fixed_bufs ? (int)idx : -1;
			io.len = st->vbs;
			io.off = off;
			io.dir = NVS_READ;
			io.rw_flags = 0;
			io.ioprio = st->prio.dflt;
			io.t = &w->members[sl->member];
			sl->t_issue = worker_now_ns();
			if (w->iolog) { /* fio's write_iolog lists the read-back too */
				struct iolog_rec r = {.t_ns = sl->t_issue,
						      .off = off,
						      .len = st->vbs,
						      .dir = NVS_READ};
				r.file = (uint8_t)(w->nmembers > 1 ? sl->member : w->target);
				iolog_publish(w->iolog_clock, sl->t_issue);
				spsc_push(w->iolog, &r); /* full: dropped, counted */
			}
			w->be->prep(sqe, &io);
			sqe->user_data = idx;
			st->inflight++;
			next = iter_next(w, st, it);
		}
		if (!st->inflight)
			return 0;
		struct io_uring_cqe *cqe;
		struct __kernel_timespec ts = {.tv_sec = 0, .tv_nsec = 100000000};
		int rc = io_uring_submit_and_wait_timeout(&st->ring, &cqe, 1, &ts, NULL);
		if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
			worker_fail(w->shared, rc, "verify: io_uring_enter failed: %s",
				    strerror(-rc));
			return rc;
		}
		unsigned head, m = 0;
		io_uring_for_each_cqe(&st->ring, head, cqe)
		{
			m++;
			if (cqe->user_data >= w->qd)
				continue; /* a cancel's own completion */
			unsigned idx = (unsigned)cqe->user_data;
			struct slot *sl = &st->slots[idx];
			int res = w->be->result(cqe, sl->len);
			st->freel[st->nfree++] = idx;
			st->inflight--;
			if (res == (int)sl->len) {
				if (st->measuring) { /* fio counts them as the job's reads */
					struct result_dir *rd = &w->res.dir[NVS_READ];
					rd->ios++;
					rd->bytes += sl->len;
					uint64_t lat = worker_now_ns() - sl->t_issue;
					hist_add(&rd->lat, lat);
					hist_add(&rd->clat, lat); /* result.h: untimed submit */
				}
				read_check(w, st, sl);
			} else {
				snprintf(why, sizeof(why), "read error: %s",
					 res < 0 ? strerror(-res) : "short read");
				note(w, st, sl->off, sl->len, -EIO, why);
			}
		}
		io_uring_cq_advance(&st->ring, m);
	}
}

void wverify_backlog(struct worker *w, struct wstate *st)
{
	struct iter it;

	iter_init(st, &it, true);
	if (read_back(w, st, &it, UINT64_MAX)) {
		atomic_store_explicit(&w->shared->stop, 1, memory_order_relaxed);
		st->stopping = true;
	}
	st->vb_n = 0;
	st->vb_issued = 0;
}

void wverify_pass_start(struct wstate *st)
{
	/* the generator (and a copy of its map) as the pass begins: the
	 * read-back replays it (iter_init); out of memory: offset order */
	randmap_free(st->vgen_map);
	st->vgen_map = NULL;
	st->vgen_ok = false;
	if (can_replay(st)) {
		st->vgen = st->gen;
		st->vgen_map = st->gen.rmap ? randmap_dup(st->gen.rmap) : NULL;
		st->vgen_ok = !st->gen.rmap || st->vgen_map;
	}
	st->vpass_bytes = 0;
}

/* fio's update_runtime(DDIR_READ) after each do_verify: the reads' runtime
 * is the read-backs' time together */
static void timed_read_back(struct worker *w, struct wstate *st, struct iter *it, uint64_t deadline)
{
	uint64_t t0 = worker_now_ns();
	int rc = read_back(w, st, it, deadline);
	uint64_t dt = worker_now_ns() - t0;

	st->vcycle_ns += dt;
	if (w->res.dir[NVS_READ].ios)
		w->res.verify_s = (double)st->vcycle_ns / 1e9;
	if (rc) {
		atomic_store_explicit(&w->shared->stop, 1, memory_order_relaxed);
		st->stopping = true;
	}
}

void wverify_cycle(struct worker *w, struct wstate *st, uint64_t deadline)
{
	struct iter it;

	if (st->vmap && !st->inflight && st->nfree == w->qd) {
		iter_init(st, &it, false);
		timed_read_back(w, st, &it, deadline);
		iter_free(&it);
		memset(st->vmap, 0, (st->vblocks + 63) / 64 * sizeof(uint64_t));
	}
	wverify_pass_start(st);
}

void wverify_pass(struct worker *w, struct wstate *st, uint64_t deadline, bool cut)
{
	struct iter it;

	/* with verify_backlog, what was verified already is not read again:
	 * only the last, partial backlog (fio's final verify of the rest) */
	iter_init(st, &it, st->vb != NULL);
	if (!cut && (st->vmap || st->vb) && !st->inflight && st->nfree == w->qd)
		timed_read_back(w, st, &it, deadline);
	iter_free(&it);
	fail_total(w);
}

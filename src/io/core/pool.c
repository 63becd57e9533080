/* pool.c - the worker pool of one job: targets, workers, threads, rings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include "base/num.h"
#include "io/feat/filesize.h"
#include "io/trace/iolog.h"
#include "io/feat/nvcmd.h"
#include "io/feat/pagecache.h"
#include "io/feat/fdp.h"
#include "io/core/pool.h"
#include "io/feat/flow.h"
#include "io/feat/zbd.h"
#include "io/core/worker.h"
#include "stats/samplewire.h"

struct pool {
	struct spec spec;
	struct datagen_place place; /* the job's place in its run (pool_set_place) */
	unsigned qd;
	struct target targets[NVS_MAX_TARGETS];
	unsigned ntargets;
	struct worker *w;
	unsigned nw;
	struct worker_shared sh;
	bool started, joined;
	struct trace *trace; /* read_iolog: loaded before the run */
	uint64_t fs_start[NVS_MAX_TARGETS], fs_len[NVS_MAX_TARGETS]; /* fio file set */
	struct iolog *iolog;					     /* write_iolog, NULL without */
	struct sample *drained;		  /* pool_drain's: a sample put together from its parts */
	struct zbd *zbd[NVS_MAX_TARGETS]; /* zonemode=zbd: each target's zones */
};

/* Parses "0-3,6" into a CPU list. */
static unsigned parse_cpus(const char *list, int *cpus, unsigned max)
{
	unsigned n = 0;
	const char *p = list;

	while (*p && n < max) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			break;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
		}
		for (long c = a; c <= b && n < max; c++)
			cpus[n++] = (int)c;
		p = *end == ',' ? end + 1 : end;
		if (end == p && *p)
			break;
	}
	return n;
}

static uint64_t pct_of(uint64_t size, double pct, uint32_t align)
{
	uint64_t v;
	/* pct is finite in 0..100 (opt_set), but a size near 2^64 rounds up */
	if (num_to_u64((double)size * pct / 100.0, size, &v))
		v = size;
	return v / align * align;
}

/* fio's get_start_offset for offset=N%: the raw offset rounded UP to
 * offset_align, or to the smallest block size without it */
static uint64_t pct_offset(const struct spec *s, uint64_t size)
{
	uint64_t v, a = s->offset_align;
	if (num_to_u64((double)size * s->offset_pct / 100.0, size, &v))
		v = size;
	if (!a) {
		a = UINT64_MAX;
		for (unsigned i = 0; i < s->nbs; i++)
			if (s->bs[i].bs < a)
				a = s->bs[i].bs;
		for (unsigned d = 0; d < 2; d++)
			if (s->bsrange[d][1] && s->bsrange[d][0] < a)
				a = s->bsrange[d][0];
		if (a == UINT64_MAX)
			a = 1;
	}
	uint64_t r = v % a;
	if (r && v <= UINT64_MAX - (a - r))
		v += a - r; /* past the end: region() refuses it */
	return v;
}

/* Region [start, start+len) of target @t for spec @s. */
static int region(const struct spec *s, const struct target *t, uint32_t align, uint64_t *start,
		  uint64_t *len, char *err, size_t errlen)
{
	uint64_t size = t->size;
	uint64_t off = s->offset_pct ? pct_offset(s, size) : s->offset;
	/* I/O offsets stay aligned to @align from the region's start (fio's
	 * offset + n * blockalign: offset=120k with bs=16k is fio's
	 * cross-stripe-verify.fio), so the start needs only the logical block
	 * size; a percentage offset is fio's too (rounded up to offset_align or
	 * the smallest size) */
	uint32_t oalign = t->lbs ? t->lbs : align;

	if (off % oalign) {
		snprintf(err, errlen, "%s: offset %llu is not aligned to %u bytes", t->path,
			 (unsigned long long)off, oalign);
		return -EINVAL;
	}
	if (off >= size) {
		snprintf(err, errlen, "%s: offset %llu is past the end (%llu bytes)", t->path,
			 (unsigned long long)off, (unsigned long long)size);
		return -EINVAL;
	}
	uint64_t n = s->size_pct ? pct_of(size, s->size_pct, align)
		     : s->size	 ? s->size
				 : size - off;
	if (n > size - off)
		n = size - off;
	*start = off;
	*len = n;
	/* zonemode=zbd: fio's zbd_zone_align_file_sizes, whole zones */
	int rc = zbd_region(s, start, len, err, errlen);
	*len = *len / align * align;
	return rc;
}

/* fio's file set (filesetup.c setup_files): each file gets size / nrfiles
 * (the first ones a block more while the rest of the division lasts), or
 * without size= the whole file after offset; offset and size=N% apply to
 * each file. */
static int fileset_regions(struct pool *p, uint32_t align, uint32_t maxbs, char *err, size_t errlen)
{
	const struct spec *s = &p->spec;
	unsigned n = p->ntargets;
	uint64_t fs = s->size / n, extra = s->size ? (s->size - fs * n) / align : 0;

	for (unsigned f = 0; f < n; f++) {
		struct spec one = *s;
		const struct target *t = &p->targets[f];
		if (s->size && !s->size_pct) {
			one.size = fs + (extra ? align : 0);
			if (extra)
				extra--;
		}
		int rc = region(&one, t, align < t->lbs ? t->lbs : align, &p->fs_start[f],
				&p->fs_len[f], err, errlen);
		if (rc)
			return rc;
		if (p->fs_len[f] < maxbs) {
			snprintf(err, errlen, "%s: too small: %llu bytes for block size %u",
				 t->path, (unsigned long long)p->fs_len[f], maxbs);
			return -EINVAL;
		}
	}
	return 0;
}

/* Opens the spec's targets, the written devices through the run group's
 * claim set @claims (NULL: each claimed here, by target_open). */
static int open_targets(struct pool *p, struct safety_claims *claims, char *err, size_t errlen)
{
	const struct spec *s = &p->spec;
	bool write = p->trace ? replay_writes(p->trace) : spec_writes(s);

	for (unsigned i = 0; i < s->ntargets; i++) {
		const char *path = s->targets[i];
		int rc;

		/* a write is judged by target_open through the held descriptor */
		rc = filesize_may_create(s, path, err, errlen); /* allow_file_create=0 */
		if (rc)
			return rc;
		uint64_t want = s->size_pct ? 0 : s->size + s->offset;
		if (s->fileset && !s->size_pct) /* fio: size is split over the files */
			want = s->size / s->ntargets + s->offset;
		rc = target_open_claims(&p->targets[i], claims, path, write, s->force_destroy,
					s->direct, want, err, errlen);
		if (rc)
			return rc;
		p->ntargets++;
		rc = filesize_apply(s, &p->targets[i], i, err, errlen); /* fio's filesize= */
		if (rc)
			return rc;
		/* fio's invalidate and fadvise_hint; a failure is only a warning
		 * in fio (e.g. BLKFLSBUF needs CAP_SYS_ADMIN) */
		(void)pagecache_prepare(s, &p->targets[i]);
		const struct backend_ops *be =
		    s->ioengine == ENGINE_IO_URING_CMD ? &backend_uring_cmd : &backend_io_uring;
		rc = be->check(&p->targets[i], err, errlen);
		if (rc)
			return rc;
		if (be == &backend_uring_cmd) { /* the metadata and PI it moves */
			rc = uring_cmd_pi_setup(&p->targets[i], s, err, errlen);
			if (rc)
				return rc;
		}
		/* io_uring_cmd's write modes and trims: does the controller have
		 * the commands (Identify Controller ONCS)?  Asked before any I/O */
		rc = nvcmd_probe(s, p->targets[i].path, err, errlen);
		if (rc)
			return rc;
		/* fio's fdp=1 placement identifiers, atomic=1's write unit */
		rc = fdp_target_setup(&p->targets[i], s, err, errlen);
		if (rc)
			return rc;
		if (s->bs_unaligned && s->direct && p->targets[i].lbs > 512) {
			snprintf(err, errlen,
				 "%s: blocksize_unaligned gives 512-byte steps; its logical block "
				 "size is %u (direct I/O would fail)",
				 path, p->targets[i].lbs);
			return -EINVAL;
		}
		for (unsigned b = 0; b < s->nbs && !p->trace; b++) {
			if (s->bs[b].bs % p->targets[i].lbs) {
				snprintf(err, errlen,
					 "%s: block size %u is not a multiple of its logical block "
					 "size %u",
					 path, s->bs[b].bs, p->targets[i].lbs);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/* One target group's geometry (a target, or the whole stripe set or file
 * set): its region, its copies' regions for a trace storm, the alignment. */
struct geom {
	struct target *t;
	uint64_t start, len, tsize;
	uint64_t clen; /* trace replay: each copy's region */
	uint32_t align, maxbs;
	unsigned per; /* workers (copies) per group */
};

/* The region of group @g->t: a file set's first file, a stripe set (n x the
 * smallest member, in whole stripes) or the target; a trace storm's copies
 * each their share, the trace checked to fit.  0 or -errno with @err. */
static int group_region(struct pool *p, struct geom *g, char *err, size_t errlen)
{
	const struct spec *s = &p->spec;
	int rc;

	g->tsize = g->t->size;
	if (s->fileset) {
		rc = fileset_regions(p, g->align, g->maxbs, err, errlen);
		g->start = p->fs_start[0];
		g->len = p->fs_len[0];
	} else if (s->stripe) {
		uint64_t m = UINT64_MAX;
		for (unsigned i = 0; i < p->ntargets; i++)
			if (p->targets[i].size < m)
				m = p->targets[i].size;
		struct target logical = *g->t;
		logical.size = m / s->stripe * s->stripe * p->ntargets;
		g->tsize = logical.size;
		rc = region(s, &logical, g->align, &g->start, &g->len, err, errlen);
	} else {
		rc = region(s, g->t, g->align, &g->start, &g->len, err, errlen);
	}
	if (rc)
		return rc;
	g->clen = 0;
	if (p->trace) {
		g->clen = g->len / g->per / g->align * g->align;
		rc = trace_check_fit(p->trace, g->clen, s->direct ? g->t->lbs : 0, err, errlen);
		if (rc && g->per > 1)
			snprintf(err + strlen(err), errlen - strlen(err), " (one of %u copies)",
				 g->per);
		return rc;
	}
	if (g->len < g->maxbs) {
		snprintf(err, errlen, "%s: too small: %llu bytes for block size %u", g->t->path,
			 (unsigned long long)g->len, g->maxbs);
		return -EINVAL;
	}
	return 0;
}

/* fio's offset_increment: clone @j of the job starts offset_increment x @j
 * further (each file of a file set), its size cut at the end.  0 or
 * -EINVAL with @err when it lands past the end. */
static int clone_offset(struct pool *p, struct worker *w, unsigned j, const struct geom *g,
			char *err, size_t errlen)
{
	const struct spec *s = &p->spec;
	uint64_t inc = s->offset_increment;

	if (!inc || !j || (p->trace && !s->fileset))
		return 0;
	if (s->fileset) {
		for (unsigned f = 0; f < p->ntargets; f++) {
			uint64_t fs = p->targets[f].size;
			if (inc > (fs - p->fs_start[f]) / j ||
			    fs - (p->fs_start[f] + inc * j) < g->maxbs) {
				snprintf(err, errlen,
					 "%s: offset_increment %llu puts job %u past the end",
					 p->targets[f].path, (unsigned long long)inc, j);
				return -EINVAL;
			}
			w->fstart[f] = p->fs_start[f] + inc * j;
			if (w->flen[f] > fs - w->fstart[f])
				w->flen[f] = (fs - w->fstart[f]) / g->align * g->align;
		}
		return 0;
	}
	if (inc > (g->tsize - g->start) / j || g->start + inc * j >= g->tsize ||
	    g->tsize - (g->start + inc * j) < g->maxbs) {
		snprintf(err, errlen, "%s: offset_increment %llu puts job %u past the end",
			 g->t->path, (unsigned long long)inc, j);
		return -EINVAL;
	}
	w->region_start = g->start + inc * j;
	if (w->region_len > g->tsize - w->region_start)
		w->region_len = (g->tsize - w->region_start) / g->align * g->align;
	return 0;
}

/* Worker @j of group @gi: its targets, region, CPUs, backend and ring. */
static int worker_init(struct pool *p, struct worker *w, unsigned gi, unsigned j,
		       const struct geom *g, const int *cpus, unsigned ncpus)
{
	const struct spec *s = &p->spec;

	w->id = gi * g->per + j;
	w->target = gi;
	w->spec = &p->spec;
	w->place = &p->place;
	w->qd = p->qd;
	w->members = s->stripe || s->fileset ? p->targets : g->t;
	w->nmembers = s->stripe || s->fileset ? p->ntargets : 1;
	w->fileset = s->fileset;
	for (unsigned f = 0; s->fileset && f < p->ntargets; f++) {
		w->fstart[f] = p->fs_start[f];
		w->flen[f] = p->fs_len[f];
		/* fio: each file is done after its size (x loops) */
		w->flimit[f] =
		    s->time_based || s->io_size ? 0 : p->fs_len[f] * (s->loops ? s->loops : 1);
	}
	w->region_start = p->trace ? g->start + j * g->clen : g->start;
	w->region_len = p->trace ? g->clen : g->len;
	w->trace = p->trace;
	w->trace_delay_ns = j * s->replay.stagger_ns;
	hist_init(&w->tstats.lag);
	w->align = g->align;
	/* fio's cpus_allowed_policy: shared (default) gives every worker the
	 * whole set, split one CPU each, wrapping */
	CPU_ZERO(&w->cpus);
	w->pin = ncpus > 0;
	for (unsigned c = 0; c < ncpus; c++)
		if (!s->cpus_split || c == w->id % ncpus)
			CPU_SET(cpus[c], &w->cpus);
	w->be = s->ioengine == ENGINE_IO_URING_CMD ? &backend_uring_cmd : &backend_io_uring;
	w->shared = &p->sh;
	result_init(&w->res);
	w->res.nmembers = s->stripe || s->fileset ? p->ntargets : 0;
	/* ~8 s of samples: the consumer may stall that long without a drop */
	uint64_t cap = 8 * NVS_NSEC_PER_SEC / s->interval_ns;
	/* (one element per sample in practice: stats/samplewire.h) */
	w->out = spsc_new(sizeof(struct samplewire),
			  cap < SAMPLEWIRE_MAX_PARTS ? SAMPLEWIRE_MAX_PARTS : cap);
	return w->out ? 0 : -ENOMEM;
}

static int make_workers(struct pool *p, char *err, size_t errlen)
{
	const struct spec *s = &p->spec;
	unsigned groups = s->stripe || s->fileset ? 1 : p->ntargets;
	int cpus[1024];
	unsigned ncpus = s->cpus_allowed[0] ? parse_cpus(s->cpus_allowed, cpus, 1024) : 0;
	uint32_t minbs = UINT32_MAX;
	struct geom g = {.per = p->trace ? s->replay.copies : s->numjobs};
	int rc;

	for (unsigned b = 0; b < s->nbs; b++) {
		if (s->bs[b].bs < minbs)
			minbs = s->bs[b].bs;
		if (s->bs[b].bs > g.maxbs)
			g.maxbs = s->bs[b].bs;
	}
	p->nw = g.per * groups;
	p->w = calloc(p->nw, sizeof(*p->w));
	if (!p->w)
		return -ENOMEM;
	for (unsigned gi = 0; gi < groups; gi++) {
		g.t = &p->targets[gi];
		g.align = s->blockalign ? s->blockalign : minbs;
		if (g.align < g.t->lbs)
			g.align = g.t->lbs;
		if ((rc = group_region(p, &g, err, errlen)))
			return rc;
		for (unsigned j = 0; j < g.per; j++) {
			struct worker *w = &p->w[gi * g.per + j];
			if ((rc = worker_init(p, w, gi, j, &g, cpus, ncpus)) ||
			    (rc = clone_offset(p, w, j, &g, err, errlen)))
				return rc;
		}
	}
	return 0;
}

/* write_iolog: the log and every worker's ring (io/trace/iolog.h) */
static int open_iolog(struct pool *p, char *err, size_t errlen)
{
	const char *names[NVS_MAX_TARGETS];
	int fds[NVS_MAX_TARGETS];

	for (unsigned i = 0; i < p->ntargets; i++) {
		names[i] = p->targets[i].path;
		fds[i] = p->targets[i].fd;
	}
	int rc = iolog_new(p->spec.replay.write_iolog, names, fds, p->ntargets, p->nw, &p->iolog,
			   err, errlen);
	for (unsigned i = 0; !rc && i < p->nw; i++) {
		p->w[i].iolog = iolog_ring(p->iolog, i);
		p->w[i].iolog_clock = iolog_clock(p->iolog, i);
	}
	return rc;
}

void pool_set_place(struct pool *p, const struct datagen_place *pl)
{
	p->place = *pl;
}

int pool_new(const struct spec *s, unsigned iodepth, struct pool **out, char *err, size_t errlen)
{
	return pool_new_claims(s, iodepth, NULL, out, err, errlen);
}

int pool_new_claims(const struct spec *s, unsigned iodepth, struct safety_claims *claims,
		    struct pool **out, char *err, size_t errlen)
{
	struct pool *p;
	int rc;

	err[0] = '\0';
	rc = spec_validate(s, err, errlen);
	if (rc)
		return rc;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->drained = calloc(1, sizeof(*p->drained));
	if (!p->drained) {
		free(p);
		return -ENOMEM;
	}
	spec_copy(&p->spec, s);
	zbd_spec_resolve(&p->spec); /* fio's "Nz" sizes, before the regions */
	/* fio's randrepeat=0: a different random sequence each run */
	if (s->randrepeat_off && !s->seed_given &&
	    getrandom(&p->spec.seed, sizeof(p->spec.seed), 0) != sizeof(p->spec.seed))
		p->spec.seed ^= (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ULL;
	p->qd = iodepth ? iodepth : s->iodepth[0];
	for (unsigned i = 0; i < NVS_MAX_TARGETS; i++)
		p->targets[i].fd = -1;
	if (s->replay.iolog[0]) {
		rc = replay_prepare(s, &p->trace, err, errlen);
		if (rc)
			goto free_pool;
	}
	rc = open_targets(p, claims, err, errlen);
	if (rc)
		goto free_pool;
	/* zonemode=zbd on a zoned device: its zone size, before the regions */
	for (unsigned t = 0; p->spec.zone_mode == SPEC_ZONE_ZBD && t < p->ntargets; t++)
		if ((rc = zbd_probe(&p->targets[t], &p->spec, p->qd, err, errlen)))
			goto free_pool;
	zbd_spec_resolve(&p->spec);
	rc = make_workers(p, err, errlen);
	if (rc)
		goto free_pool;
	/* zonemode=zbd: the zones of each target, shared with other jobs on it */
	for (unsigned t = 0; p->spec.zone_mode == SPEC_ZONE_ZBD && t < p->ntargets; t++) {
		/* a writer's descriptor was judged by dev/safety.h (open_targets) */
		rc = zbd_join(&p->targets[t], spec_writes(&p->spec), &p->spec, &p->zbd[t], err,
			      errlen);
		if (rc)
			goto free_pool;
	}
	for (unsigned i = 0; i < p->nw; i++)
		p->w[i].zbd = p->zbd[p->w[i].target];
	/* fio's flow_init_job: each worker (one of fio's jobs) adds its weight */
	for (unsigned i = 0; s->flow && i < p->nw; i++) {
		p->w[i].flow = flow_join(s->flow_id, s->flow);
		if (!p->w[i].flow) {
			snprintf(err, errlen, "flow_id %u: more than %u flow ids in use",
				 s->flow_id, FLOW_MAX_IDS);
			rc = -EINVAL;
			goto free_pool;
		}
	}
	if (s->replay.write_iolog[0]) {
		rc = open_iolog(p, err, errlen);
		if (rc)
			goto free_pool;
	}
	*out = p;
	return 0;

free_pool:
	if (rc == -ENOMEM && !err[0])
		snprintf(err, errlen, "out of memory");
	pool_free(p);
	return rc;
}

int pool_launch(struct pool *p)
{
	struct worker_shared *sh = &p->sh;
	unsigned started = 0;
	int rc = 0;

	atomic_store_explicit(&sh->running, p->nw, memory_order_relaxed);
	for (unsigned i = 0; i < p->nw; i++) {
		rc = -pthread_create(&p->w[i].thread, NULL, worker_main, &p->w[i]);
		if (rc) {
			worker_fail(sh, rc, "cannot start worker thread: %s", strerror(-rc));
			atomic_fetch_sub_explicit(&sh->running, p->nw - i, memory_order_relaxed);
			atomic_store_explicit(&sh->stop, 1, memory_order_relaxed);
			break;
		}
		char tn[16]; /* the thread's name in top -H, ps -L: io/N */
		snprintf(tn, sizeof(tn), "io/%u", i);
		pthread_setname_np(p->w[i].thread, tn);
		p->w[i].started = true;
		started++;
	}
	p->started = true;
	/* all rings set up before the clock starts, so set-up is not measured */
	while (atomic_load_explicit(&sh->ready, memory_order_acquire) < started) {
		struct timespec ts = {0, 200000};
		nanosleep(&ts, NULL);
	}
	if (atomic_load_explicit(&sh->error, memory_order_acquire))
		atomic_store_explicit(&sh->stop, 1, memory_order_relaxed);
	if (!rc)
		rc = atomic_load_explicit(&sh->error, memory_order_acquire);
	return rc;
}

static void (*gate_fn)(void *arg);
static void *gate_arg;

void pool_set_gate(void (*fn)(void *arg), void *arg)
{
	gate_fn = fn;
	gate_arg = arg;
}

void pool_go(struct pool *const *ps, unsigned n)
{
	if (gate_fn) { /* once: the run's first start */
		void (*fn)(void *) = gate_fn;
		gate_fn = NULL;
		fn(gate_arg);
	}
	uint64_t t0 = worker_now_ns(); /* one clock for them all */
	for (unsigned i = 0; i < n; i++)
		atomic_store_explicit(&ps[i]->sh.t0, t0, memory_order_relaxed);
	for (unsigned i = 0; i < n; i++)
		atomic_store_explicit(&ps[i]->sh.go, 1, memory_order_release);
}

int pool_start(struct pool *p)
{
	int rc = pool_launch(p);
	pool_go(&p, 1);
	return rc;
}

void pool_stop(struct pool *p)
{
	atomic_store_explicit(&p->sh.stop, 1, memory_order_relaxed);
}

bool pool_running(const struct pool *p)
{
	return atomic_load_explicit(&((struct pool *)p)->sh.running, memory_order_acquire) > 0;
}

/* fio's reap_threads -> flow_exit_job: each started worker that has ended
 * leaves its flow, with its I/Os, when the controlling thread next looks
 * (fio's backend looks every 10 ms, nvscope's run loop every 100 ms).
 * Until then a job that ended still holds the flow's other jobs to their
 * weights, as in fio: one that outlives it by microseconds (its clock
 * read before the other's end) is not set free to fill its queue. */
static void reap_flows(struct pool *p)
{
	for (unsigned i = 0; i < p->nw; i++) {
		struct worker *w = &p->w[i];
		uint64_t n1;
		if (!w->flow || !w->started ||
		    !(n1 = atomic_load_explicit(&w->flow_ended, memory_order_acquire)))
			continue;
		flow_leave(w->flow, n1 - 1, p->spec.flow);
		w->flow = NULL;
	}
}

void pool_join(struct pool *p)
{
	if (!p || p->joined)
		return;
	/* a worker's last access to the pool is its decrement of running */
	while (atomic_load_explicit(&p->sh.running, memory_order_acquire) > 0) {
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL);
	}
	for (unsigned i = 0; i < p->nw; i++) {
		if (!p->w[i].started)
			continue;
		if (p->w[i].abandoned)
			pthread_detach(p->w[i].thread); /* its exit waits for the device */
		else
			pthread_join(p->w[i].thread, NULL);
	}
	p->joined = true;
	reap_flows(p);				     /* every worker has published its count */
	for (unsigned t = 0; t < p->ntargets; t++) { /* a zone reset that failed */
		int zr = p->zbd[t] ? zbd_error(p->zbd[t]) : 0;
		if (zr)
			worker_fail(&p->sh, zr, "%s: zone reset on the device failed: %s",
				    p->targets[t].path, strerror(-zr));
	}
	if (p->iolog) { /* the rest of the log; its failure fails the job */
		char msg[sizeof(p->sh.msg)];
		int rc = iolog_finish(p->iolog, atomic_load(&p->sh.t0), msg, sizeof(msg));
		if (rc)
			worker_fail(&p->sh, rc, "%s", msg);
	}
}

/* The oldest sample of ring @r put together in @s from its parts (stats/
 * samplewire.h: a worker pushes all of a sample's parts or none), handed
 * to @fn; false when there is none whole yet. */
static bool drain_one(struct spsc *r, struct sample *s,
		      void (*fn)(const struct sample *s, void *arg), void *arg)
{
	const struct samplewire *sw = spsc_peek(r);
	if (!sw)
		return false;
	unsigned np = sw->nparts ? sw->nparts : 1, mask = 0;
	if (spsc_count(r) < np)
		return false; /* its producer is pushing the rest */
	for (unsigned k = 0; k < np; k++) {
		if (k && !(sw = spsc_peek(r)))
			break;
		mask |= samplewire_unpack(sw, s); /* read where it lies, then released */
		spsc_release(r);
	}
	if (fn)
		fn(s, arg);
	samplewire_reset(s, mask);
	return true;
}

size_t pool_drain(struct pool *p, void (*fn)(const struct sample *s, void *arg), void *arg)
{
	size_t n = 0;
	uint64_t t0 = atomic_load_explicit(&p->sh.t0, memory_order_relaxed);

	if (p->iolog && t0 && iolog_drain(p->iolog, t0) && !pool_error(p, NULL, 0))
		worker_fail(&p->sh, -EIO, "write_iolog=%s: write failed",
			    p->spec.replay.write_iolog);
	reap_flows(p);
	for (unsigned i = 0; i < p->nw; i++)
		while (drain_one(p->w[i].out, p->drained, fn, arg))
			n++;
	return n;
}

/* Worker @w belongs to fio's copy @c (numjobs: worker g * per + j is copy
 * j of target g); c < 0: every copy. */
static bool of_clone(const struct pool *p, unsigned w, int c)
{
	unsigned per = p->spec.numjobs ? p->spec.numjobs : 1;
	return c < 0 || w % per == (unsigned)c;
}

static int result_of(const struct pool *p, int c, int t, struct result *out)
{
	if (t >= (int)p->ntargets || ((p->spec.stripe || p->spec.fileset) && t > 0))
		return -EINVAL;
	result_init(out);
	snprintf(out->name, sizeof(out->name), "%s", p->spec.name);
	snprintf(out->target, sizeof(out->target), "%s",
		 t < 0		   ? (p->ntargets > 1 ? "aggregate" : p->targets[0].path)
		 : p->spec.stripe  ? "stripe-set"
		 : p->spec.fileset ? "file-set"
				   : p->targets[t].path);
	if (p->spec.fileset) { /* fio's filename=a:b, when it fits */
		size_t n = 0;
		for (unsigned f = 0; f < p->ntargets && n < sizeof(out->target); f++)
			n += (size_t)snprintf(out->target + n, sizeof(out->target) - n, "%s%s",
					      f ? ":" : "", p->targets[f].path);
		if (n >= sizeof(out->target))
			snprintf(out->target, sizeof(out->target), "file-set");
	}
	for (unsigned i = 0; i < p->nw; i++)
		if ((t < 0 || p->w[i].target == (unsigned)t) && of_clone(p, i, c))
			result_merge(out, &p->w[i].res);
	out->iodepth = p->qd;
	out->numjobs = c < 0 ? p->spec.numjobs : 1;
	for (unsigned i = 0; i < p->nw; i++)
		if ((t < 0 || p->w[i].target == (unsigned)t) && of_clone(p, i, c))
			out->dropped += spsc_dropped(p->w[i].out);
	return 0;
}

int pool_result(const struct pool *p, int t, struct result *out)
{
	return result_of(p, -1, t, out);
}

int pool_clone_result(const struct pool *p, unsigned c, int t, struct result *out)
{
	if (p->trace || c >= (p->spec.numjobs ? p->spec.numjobs : 1))
		return -EINVAL;
	return result_of(p, (int)c, t, out);
}

unsigned pool_worker_clone(const struct pool *p, unsigned w)
{
	return w % (p->spec.numjobs ? p->spec.numjobs : 1);
}

int pool_error(const struct pool *p, char *msg, size_t len)
{
	int e = atomic_load_explicit(&((struct pool *)p)->sh.error, memory_order_acquire);
	if (e && msg)
		snprintf(msg, len, "%s", p->sh.msg);
	return e;
}

unsigned pool_nworkers(const struct pool *p)
{
	return p->nw;
}

unsigned pool_ntargets(const struct pool *p)
{
	return p->spec.fileset ? 1 : p->ntargets; /* one job: reported as one */
}

unsigned pool_iodepth(const struct pool *p)
{
	return p->qd;
}

const struct target *pool_target(const struct pool *p, unsigned i)
{
	return i < p->ntargets ? &p->targets[i] : NULL;
}

unsigned pool_worker_target(const struct pool *p, unsigned w)
{
	return w < p->nw ? p->w[w].target : 0;
}

uint64_t pool_dropped(const struct pool *p)
{
	uint64_t d = 0;
	for (unsigned i = 0; i < p->nw; i++)
		d += spsc_dropped(p->w[i].out);
	return d;
}

uint64_t pool_elapsed_ns(const struct pool *p)
{
	uint64_t t0 = atomic_load_explicit(&((struct pool *)p)->sh.t0, memory_order_relaxed);
	return t0 ? worker_now_ns() - t0 : 0;
}

uint64_t pool_planned_ns(const struct pool *p)
{
	return p->spec.runtime_ns ? p->spec.startdelay_ns + p->spec.ramp_ns + p->spec.runtime_ns
				  : 0;
}

void pool_free(struct pool *p)
{
	if (!p)
		return;
	if (p->started) {
		pool_stop(p);
		pool_join(p);
	}
	for (unsigned i = 0; i < p->nw; i++) {
		if (!p->w[i].started) /* a started one left in pool_join's reap */
			flow_leave(p->w[i].flow, 0, p->spec.flow);
		spsc_free(p->w[i].out);
	}
	free(p->w);
	for (unsigned i = 0; i < p->ntargets; i++) {
		zbd_leave(p->zbd[i], spec_writes(&p->spec));
		target_close(&p->targets[i]);
	}
	trace_free(p->trace);
	iolog_free(p->iolog);
	free(p->drained);
	free(p);
}

const struct trace *pool_trace(const struct pool *p)
{
	return p->trace;
}

int pool_copy(const struct pool *p, unsigned c, struct result *res, const struct replay_stats **ts)
{
	if (!p->trace || c >= p->nw)
		return -EINVAL;
	result_init(res);
	result_merge(res, &p->w[c].res);
	snprintf(res->name, sizeof(res->name), "%s", p->spec.name);
	snprintf(res->target, sizeof(res->target), "%s", p->targets[0].path);
	res->iodepth = p->qd;
	res->numjobs = 1;
	*ts = &p->w[c].tstats;
	return 0;
}

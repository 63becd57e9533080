/* datagen.c - write-buffer contents, fio's way (see datagen.h).
 *
 * Generators: splitmix64 draws seeds and dedupe decisions; a buffer is
 * filled from its seed by four interleaved xorshift64 lanes (about a word
 * per cycle, no multiply in the loop).  A buffer is a pure function of its
 * seed, so a dedupe copy is the previous unique buffer's seed replayed.
 * fio's references: io_u.c fill_io_buffer, small_content_scramble;
 * lib/rand.c __fill_random_buf_percentage; init.c for the implied options. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include "io/core/datagen.h"

static inline uint64_t fmix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t splitmix(uint64_t *x)
{
	return fmix(*x += 0x9e3779b97f4a7c15ULL);
}

#define LANES 8
/* @len bytes of random data from @seed: LANES independent xorshift64
 * generators side by side, which the compiler turns into vector code. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("tree-vectorize"))) /* gcc's -O2 does not vectorize it */
#endif
static void
fill_random(uint8_t *buf, size_t len, uint64_t seed)
{
	uint64_t v[LANES];
	size_t i = 0;

	/* lanes from a bijective hash of (seed, k): nearby seeds (a chunk's
	 * seed is its buffer's + i * golden) never share a lane; xorshift's
	 * state must not be 0 */
	for (unsigned k = 0; k < LANES; k++)
		v[k] = fmix(seed * LANES + k) | 1;
	for (; i + sizeof(v) <= len; i += sizeof(v)) {
		for (unsigned k = 0; k < LANES; k++) {
			v[k] ^= v[k] << 13;
			v[k] ^= v[k] >> 7;
			v[k] ^= v[k] << 17;
		}
		memcpy(buf + i, v, sizeof(v));
	}
	for (unsigned k = 0; i < len; i += 8, k++) {
		v[k] ^= v[k] << 13;
		v[k] ^= v[k] >> 7;
		v[k] ^= v[k] << 17;
		memcpy(buf + i, &v[k], len - i < 8 ? len - i : 8);
	}
}

/* Turns a random buffer into another: every 8-byte word XORed with a new
 * random @key.  Random data stays random (each block incompressible) and
 * two writes of one buffer differ in nearly every byte, so nothing matches
 * across blocks either; one vector pass, under half a fill's cost. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("tree-vectorize")))
#endif
static void
rekey(uint8_t *buf, size_t len, uint64_t key)
{
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, buf + i, 8);
		w ^= key;
		memcpy(buf + i, &w, 8);
	}
	for (; i < len; i++)
		buf[i] ^= (uint8_t)(key >> (8 * (i % 8)));
}

void datagen_fill_pattern(void *buf, size_t len, const uint8_t *pat, size_t plen)
{
	uint8_t *p = buf;
	size_t done = len < plen ? len : plen;

	/* one copy, then the filled part doubled: log2(len / plen) copies
	 * (a 4-byte pattern over 64 KiB was 16,384 memcpy calls per write) */
	memcpy(p, pat, done);
	while (done < len) {
		size_t n = len - done < done ? len - done : done;
		memcpy(p + done, p, n);
		done += n;
	}
}

/* The fixed (compressible) part: zeros, or the pattern repeated. */
static void fill_fixed(const struct datagen *g, uint8_t *buf, size_t len)
{
	if (!g->pattern_len) {
		memset(buf, 0, len);
		return;
	}
	datagen_fill_pattern(buf, len, g->pattern, g->pattern_len);
}

void datagen_init(struct datagen *g, const struct spec *s, uint32_t min_write, uint64_t seed)
{
	bool reads = s->rw != RW_WRITE && s->rw != RW_RANDWRITE;

	memset(g, 0, sizeof(*g));
	g->rnd = seed ^ 0x243f6a8885a308d3ULL;
	g->refill = s->refill_buffers == 1;
	g->zero = s->zero_buffers == 1;
	g->scramble = s->scramble_buffers != 0;
	g->compress_pct = s->compress_pct;
	g->dedupe_pct = s->dedupe_pct;
	if (s->pattern_len) {
		/* fio: a pattern turns scrambling and zeros off, and refills when
		 * the job also reads or compresses (reads would spoil it) */
		g->pattern = s->pattern;
		g->pattern_len = s->pattern_len;
		if (s->refill_buffers < 0)
			g->refill = s->compress_pct || reads;
		g->scramble = s->scramble_buffers == 1;
		g->zero = false;
	}
	if (g->compress_pct == 100) {
		/* fio: all fixed data, filled once */
		g->compress_pct = 0;
		if (!g->pattern_len)
			g->zero = true;
	} else if (g->compress_pct && s->refill_buffers < 0) {
		g->refill = true;
	}
	if (g->dedupe_pct && s->refill_buffers < 0)
		g->refill = true;
	/* fio scrambles unless zero_buffers was asked for, and never a buffer
	 * shaped for compression or dedupe */
	if ((s->zero_buffers == 1 && s->scramble_buffers != 1) || s->compress_pct || s->dedupe_pct)
		g->scramble = false;
	/* the default: random buffers written fresh each time */
	g->fresh = g->scramble && !g->refill && !g->zero && !g->pattern_len;
	g->chunk =
	    s->compress_chunk && s->compress_chunk < min_write ? s->compress_chunk : min_write;
	if (!g->chunk)
		g->chunk = 512;
}

/* Workers of a job: numjobs (a trace's copies) per target, or per job
 * over a stripe or fio's file set (io/core/pool.c). */
static unsigned job_workers(const struct spec *s)
{
	unsigned per = s->replay.iolog[0] ? s->replay.copies : s->numjobs;
	unsigned groups = s->stripe || s->fileset || !s->ntargets ? 1 : s->ntargets;
	return (per ? per : 1) * groups;
}

void datagen_number_run(const struct spec *jobs, unsigned n, struct datagen_place *out)
{
	unsigned t = 0;
	uint64_t seed = n ? jobs[0].seed : 0;

	if (n && jobs[0].randrepeat_off && !jobs[0].seed_given &&
	    getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed ^= (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ULL;
	for (unsigned j = 0; j < n; j++) {
		out[j].thread0 = t;
		t += job_workers(&jobs[j]);
	}
	for (unsigned j = 0; j < n; j++) {
		out[j].threads = t;
		out[j].seed = seed;
	}
}

uint64_t datagen_seed(const struct spec *s, const struct datagen_place *pl, unsigned worker)
{
	/* the run's thread number mixed in (an odd multiplier: distinct low
	 * words), so two jobs of a run never write the same stream */
	return s->seed ^ ((uint64_t)worker << 32) ^ 0x5bd1e995 ^
	       (uint64_t)pl->thread0 * 0x9e3779b97f4a7c15ULL;
}

/* Thread @t's unique-page stream in a numbered run. */
static uint64_t thread_base(uint64_t run_seed, unsigned t)
{
	return fmix(run_seed ^ fmix(0x6465647570650000ULL + t));
}

void datagen_working_set(struct datagen *g, const struct spec *s, const struct datagen_place *pl,
			 uint64_t size, uint32_t min_write, unsigned worker)
{
	/* fio (dedupe.c): num_unique_pages = size * pct / 100 / min_bs; the
	 * working set is the first unique buffers the job writes, and a dedupe
	 * copy regenerates a random one of them */
	if (!g->dedupe_pct || !s->dedupe_ws || !min_write)
		return;
	g->ws_pages = size * s->dedupe_ws_pct / 100 / min_write;
	if (!g->ws_pages)
		g->ws_pages = 1;
	if (!pl->threads) { /* a job run alone */
		g->ws_base = splitmix(&g->rnd);
		return;
	}
	g->ws_thread = pl->thread0 + worker;
	g->ws_threads = pl->threads;
	g->run_seed = pl->seed;
	g->ws_base = thread_base(pl->seed, g->ws_thread);
	/* fio: pages_per_seed = max(num_unique_pages / thread_number, 1), the
	 * set's entries rotating over every thread of the run from this one */
	g->ws_global = s->dedupe_global;
	g->ws_pps = g->ws_pages / g->ws_threads ? g->ws_pages / g->ws_threads : 1;
}

static uint64_t page_seed(uint64_t base, uint64_t i)
{
	uint64_t x = base ^ (i * 0xd6e8feb86659fd93ULL);
	return splitmix(&x);
}

/* The i-th unique buffer's seed in working_set mode. */
static uint64_t ws_seed(const struct datagen *g, uint64_t i)
{
	return page_seed(g->ws_base, i);
}

/* Entry @i of the working set: this thread's page i, or with
 * dedupe_global page i % pps of the thread i / pps places on. */
static uint64_t ws_entry(const struct datagen *g, uint64_t i)
{
	if (!g->ws_global)
		return ws_seed(g, i);
	unsigned t = (unsigned)((g->ws_thread + i / g->ws_pps) % g->ws_threads);
	return page_seed(thread_base(g->run_seed, t), i % g->ws_pps);
}

void datagen_fill(struct datagen *g, void *buf_, size_t len)
{
	uint8_t *buf = buf_;

	if (g->compress_pct || g->dedupe_pct) {
		uint64_t seed;
		if (g->ws_pages) {
			/* working_set: a copy of one of the set's pages, or the next unique */
			if (splitmix(&g->rnd) % 100 < g->dedupe_pct)
				seed = ws_entry(g, splitmix(&g->rnd) % g->ws_pages);
			else
				seed = ws_seed(g, g->nuniq++);
		} else if (g->dedupe_pct && g->have_prev &&
			   splitmix(&g->rnd) % 100 < g->dedupe_pct) {
			seed = g->prev_seed; /* a copy of the last unique buffer */
		} else {
			seed = splitmix(&g->rnd);
			g->prev_seed = seed;
			g->have_prev = true;
		}
		/* fio: in every chunk (100 - pct)% random data, then fixed data */
		for (size_t off = 0, i = 0; off < len; off += g->chunk, i++) {
			size_t n = len - off < g->chunk ? len - off : g->chunk;
			size_t r = n * (100 - g->compress_pct) / 100;
			fill_random(buf + off, r, seed + i * 0x9e3779b97f4a7c15ULL);
			fill_fixed(g, buf + off + r, n - r);
		}
	} else if (g->pattern_len) {
		fill_fixed(g, buf, len);
	} else if (g->zero) {
		memset(buf, 0, len);
	} else {
		fill_random(buf, len, splitmix(&g->rnd));
	}
}

/* fio's small_content_scramble: in every 512-byte sector the sector's
 * offset goes into one of its 8 cache lines, the time into the end of its
 * first, so no two blocks written are the same. */
static void scramble(uint8_t *p, size_t len, uint64_t off, uint64_t now_ns)
{
	uint64_t sec = now_ns / 1000000000u, nsec = now_ns % 1000000000u;
	unsigned line = (unsigned)((nsec ^ off) & 7);

	for (size_t i = 0; i + 512 <= len; i += 512, off += 512) {
		memcpy(p + i + (line << 6), &off, 8);
		memcpy(p + i + 48, &sec, 8);
		memcpy(p + i + 56, &nsec, 8);
	}
}

void datagen_prepare_write(struct datagen *g, void *buf, size_t len, uint64_t off, uint64_t now_ns,
			   bool stale)
{
	if (g->fresh) {
		/* random buffers: all new data, not fio's stamp (see datagen.h) */
		if (stale)
			fill_random(buf, len, splitmix(&g->rnd));
		else
			rekey(buf, len, splitmix(&g->rnd));
		return;
	}
	if (g->refill || stale)
		datagen_fill(g, buf, len);
	if (g->scramble && !g->refill)
		scramble(buf, len, off, now_ns);
}


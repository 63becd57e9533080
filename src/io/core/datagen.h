/* datagen.h - what a worker writes: fio's buffer-content options with fio's
 * defaults and meanings (scramble_buffers, refill_buffers, zero_buffers,
 * buffer_compress_percentage / _chunk, dedupe_percentage, buffer_pattern).
 *
 * scramble_buffers (on by default) differs from fio in how, not in what
 * for: fio stamps the offset and time into each 512-byte sector of a buffer
 * filled once (small_content_scramble), which keeps blocks distinct but
 * leaves a stream of writes that compresses ~50:1 across blocks (measured:
 * zstd --long on a 64 MiB sequential write at QD4).  nvscope turns each
 * random buffer into new random data before every write instead (one
 * vector pass XORing a new 64-bit key into every word: random stays random,
 * and two writes of a buffer differ in nearly every byte), so every block
 * is distinct and nothing compresses, alone or together.  fio's
 * stamp is kept where fio's data is not random (zero_buffers or
 * buffer_pattern with scramble_buffers=1 given).  Also unlike fio, a buffer
 * a read has filled is refilled before it is written (fio writes back the
 * scrambled data it read).  No allocation, no lock: one state per worker. */
#ifndef NVS_DATAGEN_H
#define NVS_DATAGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/opt/spec.h"

struct datagen {
	uint64_t rnd;	    /* splitmix64 state: seeds and dedupe draws */
	uint64_t prev_seed; /* seed of the last unique buffer (dedupe) */
	bool have_prev;
	bool refill, scramble, zero;
	bool fresh; /* random data, new for every write (the default) */
	unsigned compress_pct, dedupe_pct;
	uint32_t chunk; /* random/fixed region (compress), bytes */
	const uint8_t *pattern;
	unsigned pattern_len;
	/* dedupe_mode=working_set: the i-th unique buffer's seed is
	 * ws_base's i-th; a dedupe copy is one of the first ws_pages */
	uint64_t ws_pages, ws_base, nuniq;
	/* dedupe_global: entry i of the set is page i % ws_pps of thread
	 * (ws_thread + i / ws_pps) % ws_threads's stream (fio's dedupe.c), a
	 * pure function of run_seed: nothing shared in memory */
	bool ws_global;
	unsigned ws_thread, ws_threads;
	uint64_t ws_pps, run_seed;
};

/* A job's place among a run's jobs, as fio numbers its threads
 * (datagen_number_run, for the jobs of one `nvscope run`; all 0 for a job
 * run alone): its first copy is thread @thread0 of the run's @threads,
 * @seed the run's data seed.  Not an option: the run's composition, held
 * beside the job (its pool: pool_set_place), never in struct spec. */
struct datagen_place {
	unsigned thread0, threads;
	uint64_t seed;
};

/* Sets @g up for @s (fio's implied options resolved here: compression or
 * dedupe turn refill on, 100% compression means zeros, a pattern turns
 * scrambling off...).  @min_write is the smallest write block size. */
void datagen_init(struct datagen *g, const struct spec *s, uint32_t min_write, uint64_t seed);
/* fio's dedupe_mode=working_set for a job writing @size bytes: the working
 * set is dedupe_working_set_percentage of @size in @min_write blocks (at
 * least one).  @worker is the worker's index in its job (pool's id): in a
 * numbered run (datagen_number_run) it is fio's thread @pl->thread0 +
 * @worker, whose unique pages are a function of the run's seed and its
 * number, so that with dedupe_global another thread's set names them (fio:
 * the set's pages are spread evenly over the run's threads, each thread's
 * its first unique pages).  After datagen_init(); nothing without dedupe. */
void datagen_working_set(struct datagen *g, const struct spec *s, const struct datagen_place *pl,
			 uint64_t size, uint32_t min_write, unsigned worker);
/* Numbers the @n jobs of one run as fio numbers its threads (numjobs
 * copies, one per target where a job runs per target): each job's first
 * thread and the total, and one data seed for the run (the first job's, a
 * new random one with its randrepeat=0).  Makes every worker's data
 * distinct across the run's jobs, and dedupe_global's shared set. */
void datagen_number_run(const struct spec *jobs, unsigned n, struct datagen_place *out);
/* A job's worker seed for datagen_init: distinct for every worker of a
 * numbered run. */
uint64_t datagen_seed(const struct spec *s, const struct datagen_place *pl, unsigned worker);
/* Fills @buf (@len bytes) as a new buffer: random, compressible, a dedupe
 * copy, the pattern or zeros, per the options. */
void datagen_fill(struct datagen *g, void *buf, size_t len);
/* Makes @buf ready to be written at @off: new random data (the default),
 * or refilled when refill_buffers or @stale (a read filled it last), then
 * stamped with @off and @now_ns (fio's scramble) where that applies.  The
 * hot path. */
void datagen_prepare_write(struct datagen *g, void *buf, size_t len, uint64_t off, uint64_t now_ns,
			   bool stale);

/* Fills @len bytes at @buf with the @plen-byte pattern @pat repeated from
 * its first byte (@plen > 0). */
void datagen_fill_pattern(void *buf, size_t len, const uint8_t *pat, size_t plen);

#endif

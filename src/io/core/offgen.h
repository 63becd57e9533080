/* offgen.h - per-worker generator of the next I/O: direction (read/write
 * mix), block size (bssplit weights) and offset (sequential or uniform
 * random, aligned).  Inline: it runs once per I/O on the submit path; no
 * locks, no allocation, no division on the random path. */
#ifndef NVS_OFFGEN_H
#define NVS_OFFGEN_H

#include <stdbool.h>
#include <stdint.h>
#include "nvscope.h"
#include "io/opt/spec.h"
#include "io/feat/sprandom.h"
#include "io/core/frand.h"
#include "io/core/randmap.h"

/* fio's random streams of one job (io/core/frand.h; fio's td->random_state,
 * bsrange_state[], rwmix_state, seq_rand_state[], zone_state) */
struct offgen_fio {
	struct frand off, bs[2], mix, seq[2], zone;
};

struct offgen {
	uint64_t rng;	       /* splitmix64 state: non-fio uses (offgen_rand) */
	struct offgen_fio fr;  /* fio's streams: offsets, sizes, mix (io/core/frand.h) */
	struct offgen_fio fr0; /* ... as seeded: a restart re-seeds from here */
	uint64_t start, len;   /* region, bytes */
	uint32_t align;
	bool random;
	bool time_based;  /* fio: a full map starts over without re-seeding */
	bool end_on_fail; /* fio: an I/O that cannot be made ends the job
			   * (no time_based, no io_size): wraps = UINT64_MAX */
	unsigned mixread; /* % reads */
	/* fio's rwmix (get_rw_ddir): the direction is drawn again only once
	 * the current one has issued mix_issues I/Os; issues[d] counts them */
	unsigned mix_dir;
	uint64_t mix_issues, issues[2];
	uint32_t bs[NVS_MAX_BSSPLIT];
	uint64_t npos[NVS_MAX_BSSPLIT]; /* aligned start positions for each bs */
	/* fio's get_next_buflen per direction: sizes min..max; bssplit's
	 * entries in fio's order (sorted by weight) with their weights */
	uint32_t minbs[2], maxbs[2];
	uint8_t bs_ord[2][NVS_MAX_BSSPLIT], bs_nord[2];
	uint8_t bs_w[2][NVS_MAX_BSSPLIT];
	/* fio's ba[] and last_block(): random offsets are block b * ba[d],
	 * b uniform in [0, lastb[d]) */
	uint32_t ba[2];
	uint64_t lastb[2];
	uint32_t rmin[2], rmax[2], rstep[2]; /* bsrange per direction (rmax 0: none) */
	uint64_t last_pos[2];	  /* fio's last_pos: each direction's sequential stream */
	uint64_t seq_add;	  /* rw=X:SIZE */
	bool seq_back;		  /* rw=X:-SIZE: backwards */
	unsigned seq_nr, seq_cnt; /* rw=randX:N: a random offset every N I/Os */
	uint8_t pct_random[2];	  /* percentage_random */
	/* none of zsize, seq_nr > 1, pct_random < 100 or spr (offgen_init;
	 * false tests each) */
	bool plain;
	/* offgen_fast's case (offgen.c fast_init): uniform random blocks of
	 * one size in direction fast_dir, none past the region's end */
	bool fast;
	uint8_t fast_dir;
	bool fast_one; /* ... an I/O is one bit of the random map */
	/* random_distribution (fio's lib/zipf.c, lib/gauss.c): a block index
	 * in [0, nranges) of min-bs ranges, hashed and shifted by rand_off
	 * (kept unreduced, as fio's), drawn from fio's per-file 32-bit stream
	 * dist_fr (offgen_dist_seed) */
	enum spec_dist dist;
	uint64_t nranges, rand_off, gauss_dev;
	struct frand dist_fr;
	double theta, zetan, zeta2, pareto_pow;
	uint64_t wraps; /* times a sequential stream wrapped */
	/* fio's trims: OFFGEN_TRIM turns every (write) I/O into a trim;
	 * OFFGEN_TRIMWRITE trims a block, then writes the same block (fio's
	 * trimwrite: the write stream follows the trim stream) */
	enum { OFFGEN_NOTRIM, OFFGEN_TRIM, OFFGEN_TRIMWRITE } trim;
	bool tw_pend; /* trimwrite: the write of the last trim is next */
	uint64_t tw_off;
	uint32_t tw_len;
	const uint8_t (*zone_lo)[100], (*zone_hi)[100]; /* DIST_ZONED: the spec's */
	/* random_generator=lfsr (fio's lib/lfsr.c: no map, every block once
	 * per pass): lfsr_n values, lfsr_on when in use */
	struct frand_lfsr lfsr;
	uint64_t lfsr_n;
	bool lfsr_on;
	uint64_t map_passes; /* complete passes (fio resets its map and goes on) */
	/* fio's random map (norandommap=0, lib/axmap.c): a bit per block of
	 * the smallest size (io/core/randmap.h); a drawn block done in this pass
	 * moves to the next free one, an I/O is cut short at a block done
	 * before.  NULL = none */
	struct randmap *rmap;
	uint32_t rmap_unit; /* bytes per bit: the smallest size (= align) */
	/* fio indexes its one map in each direction's own unit (ba[ddir], by
	 * default that direction's smallest size: io_u.c get_next_block and
	 * mark_random_map); munit[d] is that unit */
	uint32_t munit[2];
	/* fio's io_u_fits() tests sizes against io_size, which may pass the
	 * device's end (size= larger than the device): fit_len is that bound,
	 * len the real one.  An I/O that still runs past len ends fio's pass
	 * (fill_io_u fails): it starts over, its random state re-seeded when
	 * randrepeat (fr0, rng0: the states after set-up; reseed); restarts
	 * counts them.  pass_len: the bytes of one pass (fio's io_size; a
	 * loop of a job without time_based starts over after them, loops
	 * counts those) */
	uint64_t fit_len, rng0, restarts, pass_len, pass_bytes, loops;
	unsigned restart_run; /* restarts since the last I/O */
	bool reseed;
	/* fio's zonemode=strided (io/feat/zones.h): [start, start + len) is the
	 * current zone (len = zonerange); after zsize bytes it moves zstep
	 * (zonerange + zoneskip) on, back to zreg_start past zreg_end; 0 = none */
	uint64_t zsize, zstep, zbytes, zreg_start, zreg_end;
	/* fio master's sprandom (io/feat/sprandom.h): every write's block comes
	 * from the plan; its end sets wraps to UINT64_MAX (the pass ends) */
	struct sprandom *spr;
};

/* Prepares @g for @s over the region [@start, @start + @len) with offsets
 * aligned to @align, seeded with @seed (the non-fio draws) and fio's
 * streams as fio's thread 1 (offgen_seed sets another).  0, or -EINVAL
 * when the region is smaller than the largest block size. */
int offgen_init(struct offgen *g, const struct spec *s, uint64_t start, uint64_t len,
		uint32_t align, uint64_t seed);
/* fio's streams of fio's job thread @thread (1-based: the job's place in
 * its run, numjobs copies one after another): fio's setup_random_seeds
 * with randseed= (0x89 by default) and td_fill_rand_seeds. */
void offgen_seed(struct offgen *g, const struct spec *s, unsigned thread);

/* fio's __init_rand_distribution for the file fio names @file (its path
 * as fio's filename= gives it; NULL: "") of thread @thread: the
 * random_distribution stream seeded with jhash(file) x thread (randrepeat=0
 * or randseed=: the offsets' seed), and its offset (a first draw, or the
 * center).  offgen_init seeds as file "", thread 1. */
void offgen_dist_seed(struct offgen *g, const struct spec *s, const char *file, unsigned thread);

/* Frees what offgen_init allocated (the random map); @g may be zeroed. */
void offgen_free(struct offgen *g);

/* splitmix64 (Steele, Lea, Flood 2014): fast, 64-bit state, passes BigCrush. */
static inline uint64_t offgen_rand(struct offgen *g)
{
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) by Lemire's multiply-shift (no division). */
static inline uint64_t offgen_below(uint64_t r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)r * n) >> 64);
}

/* Uniform in [0, n) from 32 random bits @r32 (n < 2^32). */
static inline uint32_t offgen_below32(uint32_t r32, uint32_t n)
{
	return (uint32_t)(((uint64_t)r32 * n) >> 32);
}

/* A random block index of a non-uniform distribution (offgen.c). */
uint64_t offgen_dist_block(struct offgen *g);

/* fio resets its random map at each zone (offgen.c; once per zone). */
void offgen_zone_reset(struct offgen *g);

/* fio's setup_strided_zone_mode, before an I/O of direction @d: after
 * zonesize bytes the next zone (past the region's end: its start); a
 * stream at the zone's end starts the zone again (zonesize > zonerange). */
static inline void offgen_zone(struct offgen *g, unsigned d)
{
	if (g->zbytes >= g->zsize) {
		g->zbytes = 0;
		g->start += g->zstep;
		/* fio wraps when the zone starts past the file's end; here also
		 * when it would not fit whole: no I/O ever leaves the region */
		if (g->start >= g->zreg_end || g->zreg_end - g->start < g->len)
			g->start = g->zreg_start;
		g->last_pos[d] = g->start;
		if (g->rmap || g->lfsr_on)
			offgen_zone_reset(g);
	}
	if (g->last_pos[d] >= g->start + g->len)
		g->last_pos[d] = g->start;
}

/* The next I/O's offset, length and direction, as fio 3.33 picks them
 * (offgen.c; fio's fill_io_u): the direction by fio's rwmix, a random
 * block (fio's stream and map) or the direction's sequential stream
 * (fio's last_pos; rw=X:N, percentage_random), then the size (fio's
 * get_next_buflen: bssplit or bsrange). */
void offgen_draw(struct offgen *g, uint64_t *off, uint32_t *len, enum nvs_dir *dir);
/* offgen_fast's random map when the drawn block @b was done (or an I/O
 * is more than one bit): fio's next free block into *@b and the I/O cut
 * at a block done before (*@n), true; false when offgen_draw's path took
 * over from the block drawn (the map full, a block past the end) and set
 * *@off, *@len, *@dir. */
bool offgen_fast_map(struct offgen *g, uint64_t *b, uint32_t *n, uint64_t *off, uint32_t *len,
		     enum nvs_dir *dir);

/* offgen_draw for a job g->fast says is one size, one direction, uniform
 * random (the default job's case), inline: the same draws, the same
 * block, map and bookkeeping as offgen_draw's path for it, which takes
 * over (having changed nothing, or from the block drawn) where it must
 * decide: a pass's end, a full map, a block moved past the region's end. */
static nvs_always_inline void offgen_fast(struct offgen *g, uint64_t *off, uint32_t *len,
					  enum nvs_dir *dir)
{
	unsigned d = g->fast_dir;
	uint32_t n = g->minbs[d];
	if (nvs_unlikely(g->pass_len && g->pass_bytes >= g->pass_len)) {
		offgen_draw(g, off, len, dir); /* fio: the next loop, re-seeded */
		return;
	}
	uint64_t b = frand_scale(&g->fr.off, frand_next(&g->fr.off), g->lastb[d]);
	/* a block drawn is inside the region (fast_init); the map's usual
	 * case inline: the block is free, and one bit */
	if (g->rmap && !(g->fast_one && randmap_take1(g->rmap, b)) &&
	    !offgen_fast_map(g, &b, &n, off, len, dir))
		return;
	uint64_t rel = b * g->ba[d];
	g->restart_run = 0;
	*off = g->start + rel;
	*len = n;
	*dir = (enum nvs_dir)d;
	g->issues[d]++;
	g->last_pos[d] = *off + n; /* (zbytes: no zones here) */
	g->pass_bytes += n;
}

static nvs_always_inline void offgen_next(struct offgen *g, uint64_t *off, uint32_t *len,
					  enum nvs_dir *dir)
{
	if (nvs_unlikely(g->tw_pend)) {
		g->tw_pend = false;
		*off = g->tw_off;
		*len = g->tw_len;
		*dir = NVS_WRITE;
		return;
	}
	if (nvs_likely(g->fast))
		offgen_fast(g, off, len, dir);
	else
		offgen_draw(g, off, len, dir);
	if (nvs_unlikely(g->trim)) {
		*dir = NVS_TRIM;
		if (g->trim == OFFGEN_TRIMWRITE) {
			g->tw_pend = true;
			g->tw_off = *off;
			g->tw_len = *len;
		}
	}
}

#endif

/* offgen.h - per-worker generator of the next I/O: direction (read/write
 * mix), block size (bssplit weights) and offset (sequential or uniform
 * random, aligned).  Inline: it runs once per I/O on the submit path; no
 * locks, no allocation, no division on the random path. */
#ifndef NVS_OFFGEN_H
#define NVS_OFFGEN_H

#include <stdbool.h>
#include <stdint.h>
#include "nvscope.h"
#include "io/spec.h"
#include "io/sprandom.h"

struct randmap;

struct offgen {
	uint64_t rng;          /* splitmix64 state */
	uint64_t start, len;   /* region, bytes */
	uint32_t align;
	bool random;
	unsigned mixread;      /* % reads */
	uint32_t bs[NVS_MAX_BSSPLIT];
	uint64_t npos[NVS_MAX_BSSPLIT]; /* aligned start positions for each bs */
	uint8_t bs_pick[2][100]; /* per direction: percent -> index into bs[] */
	uint32_t rmin[2], rmax[2], rstep[2]; /* bsrange per direction (rmax 0: none) */
	uint64_t rnpos[2];     /* aligned start positions for a range's largest */
	uint64_t last_pos[2];  /* fio's last_pos: each direction's sequential stream */
	uint64_t seq_add;      /* rw=X:SIZE */
	bool seq_back;         /* rw=X:-SIZE: backwards */
	unsigned seq_nr, seq_cnt; /* rw=randX:N: a random offset every N I/Os */
	uint8_t pct_random[2]; /* percentage_random */
	/* random_distribution (fio's lib/zipf.c, lib/gauss.c): a block index
	 * in [0, nranges) of min-bs ranges, hashed and shifted by rand_off */
	enum spec_dist dist;
	uint64_t nranges, rand_off, gauss_dev;
	double theta, zetan, zeta2, pareto_pow;
	uint64_t wraps;        /* times a sequential stream wrapped */
	/* fio's trims: OFFGEN_TRIM turns every (write) I/O into a trim;
	 * OFFGEN_TRIMWRITE trims a block, then writes the same block (fio's
	 * trimwrite: the write stream follows the trim stream) */
	enum { OFFGEN_NOTRIM, OFFGEN_TRIM, OFFGEN_TRIMWRITE } trim;
	bool tw_pend;          /* trimwrite: the write of the last trim is next */
	uint64_t tw_off;
	uint32_t tw_len;
	const uint8_t (*zone_lo)[100], (*zone_hi)[100]; /* DIST_ZONED: the spec's */
	/* fio's random map (norandommap=0): uniform random offsets visit every
	 * block of the region once per pass, shared by reads and writes (fio's
	 * map is per file).  No bitmap: a keyed pseudo-random permutation of
	 * [0, map_n) walked by index (offgen_perm), so no memory and no search;
	 * 0 = no map (norandommap, bssplit/bsrange, non-uniform distributions) */
	uint64_t map_n, map_i, map_mask, map_key[4];
	uint64_t map_passes;   /* complete passes (fio resets its map and goes on) */
	/* fio's random map with mixed sizes (bssplit, bsrange, bs=R,W): a
	 * bitmap of smallest-size blocks (io/randmap.h); a drawn block done
	 * in this pass moves to the next free one, an I/O is cut short at a
	 * block done before.  NULL = none (one size: the permutation above) */
	struct randmap *rmap;
	uint32_t rmap_unit;    /* bytes per bit: the smallest size (= align) */
	/* fio indexes its one map in each direction's own unit (ba[ddir], by
	 * default that direction's smallest size: io_u.c get_next_block and
	 * mark_random_map); munit[d] is that unit */
	uint32_t munit[2];
	bool dir_one[2];       /* the direction has one size: fio never redraws it */
	/* fio's io_u_fits() tests sizes against io_size, which may pass the
	 * device's end (size= larger than the device): fit_len is that bound,
	 * len the real one.  An I/O that still runs past len ends fio's pass
	 * (fill_io_u fails): it starts over, its random state re-seeded when
	 * randrepeat (rng0: the state after set-up; reseed); restarts counts them */
	uint64_t fit_len, rng0, restarts;
	unsigned restart_run;  /* restarts since the last I/O */
	bool reseed;
	/* fio's zonemode=strided (io/zones.h): [start, start + len) is the
	 * current zone (len = zonerange); after zsize bytes it moves zstep
	 * (zonerange + zoneskip) on, back to zreg_start past zreg_end; 0 = none */
	uint64_t zsize, zstep, zbytes, zreg_start, zreg_end;
	/* fio master's sprandom (io/sprandom.h): every write's block comes
	 * from the plan; its end sets wraps to UINT64_MAX (the pass ends) */
	struct sprandom *spr;
};

/* Prepares @g for @s over the region [@start, @start + @len) with offsets
 * aligned to @align, seeded with @seed.  0, or -EINVAL when the region is
 * smaller than the largest block size. */
int offgen_init(struct offgen *g, const struct spec *s, uint64_t start, uint64_t len,
		uint32_t align, uint64_t seed);
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

/* A bijection of [0, mask] (mask = 2^k - 1): keyed rounds of xor, odd
 * multiply and xorshift, each invertible on the low k bits; cycle-walked
 * into [0, n) so that i -> offgen_perm(i) permutes [0, n). */
static inline uint64_t offgen_perm(const struct offgen *g, uint64_t i)
{
	static const uint64_t mul[4] = {0xbf58476d1ce4e5b9ULL, 0x94d049bb133111ebULL,
					0xd6e8feb86659fd93ULL, 0xff51afd7ed558ccdULL};
	uint64_t m = g->map_mask, s = (uint64_t)(64 - __builtin_clzll(m | 1)) / 2 + 1;
	do {
		for (int r = 0; r < 4; r++) {
			i = ((i ^ g->map_key[r]) * mul[r]) & m;
			i ^= i >> s;
		}
	} while (i >= g->map_n);
	return i;
}

/* A random block index of a non-uniform distribution (offgen.c). */
uint64_t offgen_dist_block(struct offgen *g);

/* A block size of direction @d from 64 random bits @r (bssplit weights
 * or fio's bsrange draw); *@npos: its number of aligned start positions. */
static inline uint32_t offgen_size(const struct offgen *g, unsigned d, uint64_t r, uint64_t *npos)
{
	if (nvs_unlikely(g->rmax[d])) {
		/* fio's get_next_buflen: min + max * u, down to a step, at most max */
		uint64_t b = g->rmin[d] + (((uint64_t)(uint32_t)r * g->rmax[d]) >> 32);
		b -= b % g->rstep[d];
		*npos = g->rnpos[d];
		return (uint32_t)(b > g->rmax[d] ? g->rmax[d] : b);
	}
	unsigned b = g->bs_pick[d][offgen_below32((uint32_t)r, 100)];
	*npos = g->npos[b];
	return g->bs[b];
}

/* A random offset through the random map (mixed sizes; offgen.c): may
 * redraw *@len to fit io_size (fio's io_u_fits) and cuts it at a block
 * done before in this pass (fio's mark_random_map).  false: the I/O would
 * pass the region's end, which ends fio's pass; the generator started
 * over (re-seeded) and the whole I/O is to be drawn again. */
bool offgen_mapped(struct offgen *g, unsigned d, uint64_t *off, uint32_t *len);

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
		if (g->map_i || g->rmap)
			offgen_zone_reset(g);
	}
	if (g->last_pos[d] >= g->start + g->len)
		g->last_pos[d] = g->start;
}

/* The next I/O's offset, length and direction, as fio picks them: the
 * direction by the mix, its block size (bssplit or bsrange), then a random
 * offset, or the direction's sequential stream (fio's last_pos; rw=X:N,
 * percentage_random). */
static inline void offgen_next(struct offgen *g, uint64_t *off, uint32_t *len, enum nvs_dir *dir)
{
	if (nvs_unlikely(g->tw_pend)) {
		g->tw_pend = false;
		*off = g->tw_off;
		*len = g->tw_len;
		*dir = NVS_WRITE;
		return;
	}
	uint64_t r = offgen_rand(g), npos;
	unsigned d = offgen_below32((uint32_t)(r >> 32), 100) < g->mixread ? NVS_READ : NVS_WRITE;

	*dir = (enum nvs_dir)d;
	*len = offgen_size(g, d, r, &npos);
	if (nvs_unlikely(g->zsize))
		offgen_zone(g, d);
	bool rnd = g->random;
	if (nvs_unlikely(rnd && g->seq_nr > 1)) {
		if (--g->seq_cnt)
			rnd = false;
		else
			g->seq_cnt = g->seq_nr;
	}
	if (nvs_unlikely(rnd && g->pct_random[d] < 100))
		rnd = offgen_below32((uint32_t)offgen_rand(g), 100) < g->pct_random[d];
	if (nvs_unlikely(g->spr)) {
		uint64_t b = 0;
		if (sprandom_next(g->spr, &b))
			g->wraps = UINT64_MAX; /* fio: td->done */
		*off = g->start + b * g->align;
	} else if (rnd && g->map_n) {
		*off = g->start + offgen_perm(g, g->map_i) * g->align;
		if (++g->map_i == g->map_n) {
			/* a pass is complete: fio resets its map; a new order */
			g->map_i = 0;
			g->map_passes++;
			for (int k = 0; k < 4; k++)
				g->map_key[k] += 0x9e3779b97f4a7c15ULL;
		}
	} else if (rnd && g->rmap) {
		if (nvs_unlikely(!offgen_mapped(g, d, off, len))) {
			offgen_next(g, off, len, dir); /* fio's pass started over */
			return;
		}
	} else if (rnd && nvs_likely(!g->dist)) {
		*off = g->start + offgen_below(offgen_rand(g), npos) * g->align;
	} else if (rnd && g->dist == DIST_ZONED) {
		/* fio's __get_next_rand_offset_zoned: v in 1..100 picks the zone */
		uint64_t zr = offgen_rand(g);
		unsigned v = offgen_below32((uint32_t)zr, 100);
		uint64_t lo = npos * g->zone_lo[d][v] / 100, hi = npos * g->zone_hi[d][v] / 100;
		if (!g->zone_hi[d][v])
			lo = 0, hi = npos; /* no split for this direction: uniform */
		if (hi <= lo)
			hi = lo + 1;
		*off = g->start + (lo + offgen_below(offgen_rand(g), hi - lo)) * g->align;
	} else if (rnd) {
		uint64_t b = offgen_dist_block(g);
		*off = g->start + (b < npos ? b : npos - 1) * g->align;
	} else {
		uint64_t pos = g->last_pos[d];
		if (nvs_unlikely(g->seq_back)) {
			/* fio's get_next_seq_offset with ddir_seq_add < 0: step back
			 * from the end of the last I/O, relative to the start; below
			 * it, wrap to the region's end (a pass ends by bytes, not by
			 * the wrap).  fio's first step from a non-zero start begins
			 * at io_size (its "rewind" sets an absolute position as a
			 * relative one): kept, to issue the same offsets. */
			uint64_t rel = pos - g->start;
			if (pos == g->start && g->start)
				rel = g->len > g->start ? g->len - g->start : 0;
			if (rel)
				rel = rel >= g->seq_add ? rel - g->seq_add : g->len - g->seq_add;
			if (rel + *len > g->len)
				rel = g->len - *len;
			*off = g->start + rel;
		} else {
			if (pos != g->start && g->seq_add)
				pos += g->seq_add;
			if (pos + *len > g->start + g->len) {
				pos = g->start;
				g->wraps += !g->zsize; /* zones: size ends the job */
			}
			*off = pos;
		}
	}
	g->last_pos[d] = *off + *len;
	g->zbytes += *len;
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

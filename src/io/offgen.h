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

struct offgen {
	uint64_t rng;          /* splitmix64 state */
	uint64_t start, len;   /* region, bytes */
	uint32_t align;
	bool random;
	unsigned mixread;      /* % reads */
	uint32_t bs[NVS_MAX_BSSPLIT];
	uint64_t npos[NVS_MAX_BSSPLIT]; /* aligned start positions for each bs */
	uint8_t bs_pick[100];  /* percent -> index into bs[] */
	uint64_t seq_next;     /* next sequential offset */
	uint64_t wraps;        /* times the sequential stream wrapped */
};

/* Prepares @g for @s over the region [@start, @start + @len) with offsets
 * aligned to @align, seeded with @seed.  0, or -EINVAL when the region is
 * smaller than the largest block size. */
int offgen_init(struct offgen *g, const struct spec *s, uint64_t start, uint64_t len,
		uint32_t align, uint64_t seed);

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

/* The next I/O's offset, length and direction. */
static inline void offgen_next(struct offgen *g, uint64_t *off, uint32_t *len, enum nvs_dir *dir)
{
	uint64_t r = offgen_rand(g);
	unsigned b = g->bs_pick[offgen_below32((uint32_t)r, 100)];

	*dir = offgen_below32((uint32_t)(r >> 32), 100) < g->mixread ? NVS_READ : NVS_WRITE;
	*len = g->bs[b];
	if (g->random) {
		*off = g->start + offgen_below(offgen_rand(g), g->npos[b]) * g->align;
		return;
	}
	if (g->seq_next + *len > g->start + g->len) {
		g->seq_next = g->start;
		g->wraps++;
	}
	*off = g->seq_next;
	g->seq_next += *len;
}

#endif

/* randmap.h - fio's random map for mixed block sizes (fio's lib/axmap.c,
 * io_u.c mark_random_map): one bit per smallest-size block of a worker's
 * region, set when an I/O covers it in the current pass.  A drawn block
 * already done moves to the next free one; an I/O is cut short at the
 * first block already done.  Levels of summary bits (a bit per full word
 * below) make the search O(log64 n).  Allocated once at set-up; the
 * calls on the submit path allocate nothing and take no lock (one map
 * per worker and file, never shared). */
#ifndef NVS_RANDMAP_H
#define NVS_RANDMAP_H

#include <stdint.h>

#include <stdbool.h>
#include "nvscope.h"

#define RANDMAP_NONE   UINT64_MAX
#define RANDMAP_LEVELS 11 /* 64^11 > 2^64 */

/* Visible for randmap_take1's inline path only: everything else goes
 * through the functions below. */
struct randmap {
	uint64_t nbits, nset;
	unsigned nlev;
	uint64_t nb[RANDMAP_LEVELS];  /* bits at each level */
	uint64_t nw[RANDMAP_LEVELS];  /* words at each level */
	uint64_t *lv[RANDMAP_LEVELS]; /* level l: bit i set = word i of l-1 full */
	uint64_t *mem;
};

/* A map of @nbits clear bits; NULL when @nbits is 0 or out of memory. */
struct randmap *randmap_new(uint64_t nbits);
void randmap_free(struct randmap *m);
/* A copy of @m (its bits too), or NULL when out of memory. */
struct randmap *randmap_dup(const struct randmap *m);
uint64_t randmap_nbits(const struct randmap *m);
/* Bits set in this pass. */
uint64_t randmap_nset(const struct randmap *m);
/* Clears every bit (a new pass). */
void randmap_reset(struct randmap *m);
/* The first clear bit at or after @bit, wrapping to 0 (fio's
 * axmap_next_free); RANDMAP_NONE when every bit is set. */
uint64_t randmap_next_free(const struct randmap *m, uint64_t bit);
/* Sets up to @n bits from @bit, stopping before the first one already
 * set or the map's end (fio's axmap_set_nr); returns how many it set. */
uint64_t randmap_set_run(struct randmap *m, uint64_t bit, uint64_t n);
/* Word @w of level @l became full: marks it in the levels above. */
void randmap_full_up(struct randmap *m, unsigned l, uint64_t w);

/* randmap_next_free(@bit) then randmap_set_run(@bit, 1) when @bit is clear
 * (the drawn block is free: the usual case), inline: sets it and returns
 * true; false, nothing changed, when it is set (or past the end). */
static inline bool randmap_take1(struct randmap *m, uint64_t bit)
{
	if (nvs_unlikely(bit >= m->nbits))
		return false;
	uint64_t *word = &m->lv[0][bit >> 6], mask = 1ULL << (bit & 63);
	if (*word & mask)
		return false;
	m->nset++;
	if (nvs_unlikely((*word |= mask) == ~0ULL))
		randmap_full_up(m, 0, bit >> 6);
	return true;
}

#endif

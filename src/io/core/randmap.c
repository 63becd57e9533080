/* randmap.c - fio's random map for mixed block sizes (randmap.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "nvscope.h"
#include "io/core/randmap.h"

/* The padding bits past the last real bit read as set, so that a word is
 * full exactly when all its real bits are. */
static void pad(struct randmap *m)
{
	for (unsigned l = 0; l < m->nlev; l++) {
		unsigned r = (unsigned)(m->nb[l] & 63);
		if (r)
			m->lv[l][m->nw[l] - 1] |= ~0ULL << r;
	}
}

struct randmap *randmap_new(uint64_t nbits)
{
	struct randmap *m;
	uint64_t total = 0, n = nbits;

	if (!nbits)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->nbits = nbits;
	for (;;) {
		m->nb[m->nlev] = n;
		m->nw[m->nlev] = n / 64 + (n % 64 != 0);
		total += m->nw[m->nlev];
		n = m->nw[m->nlev++];
		if (n == 1)
			break;
	}
	if (total > SIZE_MAX / sizeof(uint64_t) || !(m->mem = calloc(total, sizeof(uint64_t)))) {
		free(m);
		return NULL;
	}
	uint64_t *p = m->mem;
	for (unsigned l = 0; l < m->nlev; l++) {
		m->lv[l] = p;
		p += m->nw[l];
	}
	pad(m);
	return m;
}

void randmap_free(struct randmap *m)
{
	if (!m)
		return;
	free(m->mem);
	free(m);
}

struct randmap *randmap_dup(const struct randmap *m)
{
	struct randmap *c = randmap_new(m->nbits);

	if (!c)
		return NULL;
	for (unsigned l = 0; l < m->nlev; l++)
		memcpy(c->lv[l], m->lv[l], m->nw[l] * sizeof(uint64_t));
	c->nset = m->nset;
	return c;
}

uint64_t randmap_nbits(const struct randmap *m)
{
	return m->nbits;
}

uint64_t randmap_nset(const struct randmap *m)
{
	return m->nset;
}

void randmap_reset(struct randmap *m)
{
	for (unsigned l = 0; l < m->nlev; l++)
		memset(m->lv[l], 0, m->nw[l] * sizeof(uint64_t));
	m->nset = 0;
	pad(m);
}

/* The first clear bit >= @i at level @l, or RANDMAP_NONE. */
static uint64_t first_free(const struct randmap *m, unsigned l, uint64_t i)
{
	if (i >= m->nb[l])
		return RANDMAP_NONE;
	uint64_t w = i >> 6, f = ~m->lv[l][w] & (~0ULL << (i & 63));
	if (f)
		return (w << 6) + (uint64_t)__builtin_ctzll(f);
	if (l + 1 == m->nlev)
		return RANDMAP_NONE;
	/* the next word of this level with a clear bit: a clear bit above */
	uint64_t j = first_free(m, l + 1, w + 1);
	if (j == RANDMAP_NONE)
		return RANDMAP_NONE;
	return (j << 6) + (uint64_t)__builtin_ctzll(~m->lv[l][j]);
}

uint64_t randmap_next_free(const struct randmap *m, uint64_t bit)
{
	if (m->nset == m->nbits)
		return RANDMAP_NONE;
	if (bit >= m->nbits)
		bit = 0;
	if (nvs_likely(!(m->lv[0][bit >> 6] >> (bit & 63) & 1)))
		return bit; /* the drawn block is free (the padding reads as set) */
	uint64_t b = first_free(m, 0, bit);
	return b != RANDMAP_NONE ? b : first_free(m, 0, 0);
}

void randmap_full_up(struct randmap *m, unsigned l, uint64_t w)
{
	while (++l < m->nlev) {
		uint64_t *word = &m->lv[l][w >> 6];
		*word |= 1ULL << (w & 63);
		if (*word != ~0ULL)
			return;
		w >>= 6;
	}
}

/* randmap_set_run's general case: across words, or cut short */
static __attribute__((noinline)) uint64_t set_run_slow(struct randmap *m, uint64_t bit, uint64_t n)
{
	uint64_t done = 0;

	while (n && bit < m->nbits) {
		unsigned b = (unsigned)(bit & 63);
		uint64_t k = n < 64 - b ? n : 64 - b;
		uint64_t mask = (k == 64 ? ~0ULL : ((1ULL << k) - 1)) << b;
		uint64_t *word = &m->lv[0][bit >> 6];
		uint64_t over = *word & mask;
		if (over) { /* stop before the first bit already set */
			k = (uint64_t)__builtin_ctzll(over) - b;
			mask = k ? (((1ULL << k) - 1) << b) : 0;
		}
		*word |= mask;
		if (*word == ~0ULL && mask)
			randmap_full_up(m, 0, bit >> 6);
		done += k;
		if (over)
			break;
		bit += k;
		n -= k;
	}
	m->nset += done;
	return done;
}

uint64_t randmap_set_run(struct randmap *m, uint64_t bit, uint64_t n)
{
	/* the usual run: within one word, all clear (the padding past the
	 * last bit reads as set, so the map's end takes the general case) */
	if (nvs_likely(n && n <= 64 - (bit & 63) && bit < m->nbits)) {
		uint64_t *word = &m->lv[0][bit >> 6];
		uint64_t mask = (n == 64 ? ~0ULL : ((1ULL << n) - 1)) << (bit & 63);
		if (nvs_likely(!(*word & mask))) {
			if ((*word |= mask) == ~0ULL)
				randmap_full_up(m, 0, bit >> 6);
			m->nset += n;
			return n;
		}
	}
	return set_run_slow(m, bit, n);
}

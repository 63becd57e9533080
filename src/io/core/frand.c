/* frand.c - seeding of fio's random streams (frand.h). */
#include <errno.h>
#include "io/core/frand.h"

static uint64_t floor_seed(uint64_t x, uint64_t m)
{
	return x < m ? x + m : x;
}

void frand_init(struct frand *f, uint64_t seed, bool use64)
{
	/* fio writes the LCG's start as (2 ^ 31) + (2 ^ 17) + (2 ^ 7), which C
	 * reads as xors: 29 + 19 + 5 = 53 (lib/rand.c __init_rand32/64) */
	const uint64_t x0 = 29 + 19 + 5;

	f->use64 = use64;
	if (!use64) {
		uint32_t s = (uint32_t)seed;
		f->s[0] = (uint32_t)floor_seed((uint32_t)((uint32_t)x0 * 69069U ^ s), 1);
		f->s[1] = (uint32_t)floor_seed((uint32_t)(f->s[0] * 69069U ^ s), 7);
		f->s[2] = (uint32_t)floor_seed((uint32_t)(f->s[1] * 69069U ^ s), 15);
		for (int i = 0; i < 6; i++)
			frand_next32(f);
		return;
	}
	static const uint64_t floor64[5] = {1, 7, 15, 33, 49};
	uint64_t prev = x0;
	for (int i = 0; i < 5; i++)
		prev = f->t[i] = floor_seed(prev * 6906969069ULL ^ seed, floor64[i]);
	for (int i = 0; i < 6; i++)
		frand_next64(f);
}

void frand_job_seeds(uint64_t seeds[FRAND_NSEEDS], uint64_t randseed, unsigned thread)
{
	uint64_t seed = randseed;

	for (int i = 0; i < 4; i++)
		seed *= 0x9e370001ULL;
	for (unsigned i = 0; i < FRAND_NSEEDS; i++) {
		seeds[i] = seed * thread + i;
		seed *= 0x9e370001ULL;
	}
}

uint64_t frand_block_seed(const uint64_t seeds[FRAND_NSEEDS], bool repeatable, unsigned thread)
{
	return repeatable ? FRAND_RANDSEED * thread : seeds[FRAND_BLOCK];
}

static inline uint32_t rol32(uint32_t w, unsigned sh)
{
	return (w << sh) | (w >> (32 - sh));
}

uint32_t frand_jhash(const void *key, uint32_t len, uint32_t initval)
{
	const uint8_t *k = key;
	uint32_t a, b, c;

	a = b = c = 0x61C88647U + len + initval; /* fio's JHASH_INITVAL */
	while (len > 12) {
		/* fio adds k[0], k[4], k[8]: bytes (its __jhash_mix follows) */
		a += k[0];
		b += k[4];
		c += k[8];
		a -= c, a ^= rol32(c, 4), c += b;
		b -= a, b ^= rol32(a, 6), a += c;
		c -= b, c ^= rol32(b, 8), b += a;
		a -= c, a ^= rol32(c, 16), c += b;
		b -= a, b ^= rol32(a, 19), a += c;
		c -= b, c ^= rol32(b, 4), b += a;
		len -= 12;
		k += 12;
	}
	if (!len)
		return c;
	/* the last 1..12 bytes, little-endian into a, b, c */
	for (uint32_t i = 0; i < len; i++) {
		uint32_t v = (uint32_t)k[i] << (8 * (i % 4));
		if (i < 4)
			a += v;
		else if (i < 8)
			b += v;
		else
			c += v;
	}
	c ^= b, c -= rol32(b, 14); /* __jhash_final */
	a ^= c, a -= rol32(c, 11);
	b ^= a, b -= rol32(a, 25);
	c ^= b, c -= rol32(b, 16);
	a ^= c, a -= rol32(c, 4);
	b ^= a, b -= rol32(a, 14);
	c ^= b, c -= rol32(b, 24);
	return c;
}

/* fio's lfsr_taps: the tap positions of a maximal n-bit LFSR, n = 3..63 */
static const uint8_t taps[64][6] = {
    {0},
    {0},
    {0},
    {3, 2},
    {4, 3},
    {5, 3},
    {6, 5},
    {7, 6},
    {8, 6, 5, 4},
    {9, 5},
    {10, 7},
    {11, 9},
    {12, 6, 4, 1},
    {13, 4, 3, 1},
    {14, 5, 3, 1},
    {15, 14},
    {16, 15, 13, 4},
    {17, 14},
    {18, 11},
    {19, 6, 2, 1},
    {20, 17},
    {21, 19},
    {22, 21},
    {23, 18},
    {24, 23, 22, 17},
    {25, 22},
    {26, 6, 2, 1},
    {27, 5, 2, 1},
    {28, 25},
    {29, 27},
    {30, 6, 4, 1},
    {31, 28},
    {32, 31, 29, 1},
    {33, 20},
    {34, 27, 2, 1},
    {35, 33},
    {36, 25},
    {37, 5, 4, 3, 2, 1},
    {38, 6, 5, 1},
    {39, 35},
    {40, 38, 21, 19},
    {41, 38},
    {42, 41, 20, 19},
    {43, 42, 38, 37},
    {44, 43, 18, 17},
    {45, 44, 42, 41},
    {46, 45, 26, 25},
    {47, 42},
    {48, 47, 21, 20},
    {49, 40},
    {50, 49, 24, 23},
    {51, 50, 36, 35},
    {52, 49},
    {53, 52, 38, 37},
    {54, 53, 18, 17},
    {55, 31},
    {56, 55, 35, 34},
    {57, 50},
    {58, 39},
    {59, 58, 38, 37},
    {60, 59},
    {61, 60, 46, 45},
    {62, 61, 6, 5},
    {63, 62},
};

int frand_lfsr_reset(struct frand_lfsr *l)
{
	uint64_t mask = (l->bit << 1) - 1;

	l->nvals = 0;
	l->cycle = 1; /* fio's prepare_spin(0): cycle_length 0, + 1 */
	l->last = l->seed & mask;
	return l->last == mask ? -EINVAL : 0; /* all ones: XNOR's illegal state */
}

int frand_lfsr_init(struct frand_lfsr *l, uint64_t n, uint64_t seed)
{
	unsigned i;

	/* fio's find_lfsr: the first width whose 2^i exceeds n */
	for (i = 3; i < 64 && (1ULL << i) <= n; i++)
		;
	if (i == 64 || !n)
		return -EINVAL;
	l->max = n - 1;
	l->xormask = 0;
	for (unsigned k = 0; k < 6 && taps[i][k]; k++)
		l->xormask |= 1ULL << (taps[i][k] - 1);
	l->bit = 1ULL << (taps[i][0] - 1);
	l->seed = seed;
	return frand_lfsr_reset(l);
}

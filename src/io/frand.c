/* frand.c - seeding of fio's random streams (frand.h). */
#include "io/frand.h"

static uint64_t floor_seed(uint64_t x, uint64_t m)
{
	return x < m ? x + m : x;
}

void frand_init(struct frand *f, uint64_t seed, bool use64)
{
	/* fio writes the LCG's start as (2^31) + (2^17) + (2^7): in C, xors */
	const uint64_t x0 = (2 ^ 31) + (2 ^ 17) + (2 ^ 7);

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

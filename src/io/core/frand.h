/* frand.h - fio's random streams (fio 3.33 lib/rand.[ch], init.c): the
 * 32-bit combined Tausworthe generator (L'Ecuyer's taus88) and the 64-bit
 * one (taus258), seeded as fio seeds them, and fio's per-job seeds, so
 * that a job draws the same numbers as fio's job of the same thread
 * number.  Inline: one call per draw on the submit path, no state beyond
 * the struct, no locks. */
#ifndef NVS_FRAND_H
#define NVS_FRAND_H

#include <stdbool.h>
#include <stdint.h>
#include "nvscope.h"

struct frand {
	bool use64;    /* taus258 (random_generator=tausworthe64) */
	uint32_t s[3]; /* taus88 */
	uint64_t t[5]; /* taus258 */
};

/* fio's rand_seeds[] slots (fio.h FIO_RAND_*_OFF) nvscope draws from */
enum {
	FRAND_BS = 0,	     /* reads' block sizes */
	FRAND_BS1 = 1,	     /* writes' */
	FRAND_BS2 = 2,	     /* trims' */
	FRAND_MIX = 4,	     /* rwmix */
	FRAND_FILE = 5,	     /* file_service_type=random */
	FRAND_BLOCK = 6,     /* random offsets (randrepeat=0) */
	FRAND_SEQ_RAND = 10, /* percentage_random */
	FRAND_ZONE = 16,     /* random_distribution=zoned */
	FRAND_PRIO = 19,     /* cmdprio's per-I/O draw (FIO_RAND_PRIO_CMDS) */
	FRAND_NSEEDS = 21    /* FIO_RAND_NR_OFFS */
};

/* fio's default randseed, and its repeatable offset seed per thread */
#define FRAND_DEFAULT_SEED 0x89ULL
#define FRAND_RANDSEED	   0xb1899bedULL

/* fio's init_rand_seed: a 32-bit state takes the seed's low 32 bits. */
void frand_init(struct frand *f, uint64_t seed, bool use64);

/* fio's setup_random_seeds for thread @thread (1-based, fio's
 * td->thread_number) from randseed @randseed: the 21 slot seeds. */
void frand_job_seeds(uint64_t seeds[FRAND_NSEEDS], uint64_t randseed, unsigned thread);

/* The random-offset seed: randrepeat=1 (fio's default; fio 3.33 decides
 * before randseed= turns it off) takes 0xb1899bed x thread, randrepeat=0
 * the FRAND_BLOCK slot. */
uint64_t frand_block_seed(const uint64_t seeds[FRAND_NSEEDS], bool repeatable, unsigned thread);

/* fio's jhash (hash.h, Bob Jenkins' lookup3 as fio writes it: its loop
 * over 12-byte blocks adds single bytes, not words): fio seeds a file's
 * random_distribution stream with jhash(file name) x thread number. */
uint32_t frand_jhash(const void *key, uint32_t len, uint32_t initval);

/* fio's random_generator=lfsr (lib/lfsr.c, spin 0 as fio uses it): every
 * value of [0, n) once, then frand_lfsr_next fails; no map needed */
struct frand_lfsr {
	uint64_t xormask, last, bit, max, nvals, cycle, seed;
};

/* fio's lfsr_init(n, seed, 0): -EINVAL when n is too large or the seed
 * gives the all-ones state (fio fails the job then too) */
int frand_lfsr_init(struct frand_lfsr *l, uint64_t n, uint64_t seed);
/* fio's lfsr_reset: the sequence from its start again */
int frand_lfsr_reset(struct frand_lfsr *l);

/* fio's lfsr_next: false once every value was given */
static inline bool frand_lfsr_next(struct frand_lfsr *l, uint64_t *v)
{
	if (l->nvals++ > l->max)
		return false;
	do {
		/* fio's first call steps twice (its spin + 1 at the cycle's end) */
		unsigned steps = l->cycle ? 2 : 1;
		l->cycle = 0;
		while (steps--)
			l->last = ((l->last >> 1) | l->bit) ^ (((l->last & 1) - 1) & l->xormask);
	} while (l->last > l->max);
	*v = l->last;
	return true;
}

static inline uint32_t frand_next32(struct frand *f)
{
#define FRAND_TAUS(s, a, b, c, d) ((((s) & (c)) << (d)) ^ ((((s) << (a)) ^ (s)) >> (b)))
	f->s[0] = FRAND_TAUS(f->s[0], 13, 19, 4294967294U, 12);
	f->s[1] = FRAND_TAUS(f->s[1], 2, 25, 4294967288U, 4);
	f->s[2] = FRAND_TAUS(f->s[2], 3, 11, 4294967280U, 17);
#undef FRAND_TAUS
	return f->s[0] ^ f->s[1] ^ f->s[2];
}

static inline uint64_t frand_next64(struct frand *f)
{
	uint64_t *t = f->t, x;

	x = ((t[0] << 1) ^ t[0]) >> 53;
	t[0] = ((t[0] & 18446744073709551614ULL) << 10) ^ x;
	x = ((t[1] << 24) ^ t[1]) >> 50;
	t[1] = ((t[1] & 18446744073709551104ULL) << 5) ^ x;
	x = ((t[2] << 3) ^ t[2]) >> 23;
	t[2] = ((t[2] & 18446744073709547520ULL) << 29) ^ x;
	x = ((t[3] << 5) ^ t[3]) >> 24;
	t[3] = ((t[3] & 18446744073709420544ULL) << 23) ^ x;
	x = ((t[4] << 3) ^ t[4]) >> 33;
	t[4] = ((t[4] & 18446744073701163008ULL) << 8) ^ x;
	return t[0] ^ t[1] ^ t[2] ^ t[3] ^ t[4];
}

/* fio's __rand */
static inline uint64_t frand_next(struct frand *f)
{
	return f->use64 ? frand_next64(f) : frand_next32(f);
}

/* fio's rand_max */
static inline uint64_t frand_max(const struct frand *f)
{
	return f->use64 ? UINT64_MAX : UINT32_MAX;
}

/* fio's "n * (r / (rand_max + 1.0))": a uniform index in [0, n), in
 * doubles as fio computes it */
static inline uint64_t frand_scale(const struct frand *f, uint64_t r, uint64_t n)
{
	/* a 32-bit stream's r and an n below 2^63 convert exactly through
	 * the signed conversions (one instruction each; the unsigned ones
	 * branch), the quotient below n too: the same doubles, the same
	 * value (2^32 is rand_max + 1.0 exactly) */
	if (nvs_likely(!f->use64 && n < (1ULL << 63)))
		return (uint64_t)(int64_t)((double)(int64_t)n *
					   ((double)(int64_t)(uint32_t)r / 4294967296.0));
	return (uint64_t)((double)n * ((double)r / ((double)frand_max(f) + 1.0)));
}

/* fio's rand_between: uniform in [start, end], both inclusive */
static inline uint64_t frand_between(struct frand *f, uint64_t start, uint64_t end)
{
	if (f->use64) {
		uint64_t r = frand_next64(f);
		return start + (uint64_t)((double)(end - start + 1) *
					  ((double)r / (1.0 * (1ULL << 32) * (1ULL << 32))));
	}
	uint32_t r = frand_next32(f);
	/* fio casts to int: the same value below 2^31 (its ranges: 1..100) */
	return start +
	       (uint64_t)((double)(uint32_t)(end - start + 1) * ((double)r / (1.0 * (1ULL << 32))));
}

#endif

/* sprandom.h - fio's sprandom (SanDisk random preconditioning; fio master,
 * newer than Debian's fio 3.33): one pass that writes the device's physical
 * capacity once, in regions, and rewrites a share of each region's blocks
 * at the start of the next one, so that the regions end with the spread of
 * valid data a drive has at steady state under random writes.
 *
 * The model (Desnoyers, "Analytic Models of SSD Write Performance", ACM
 * TOS 8(2), 2012; fio's sprandom.c):
 *   - greedy garbage collection at steady state picks the block whose
 *     validity is v_gc = 1 - 1/WA, with fio's approximation of the write
 *     amplification from the over-provisioning OP: WA = 0.5/OP + 0.7;
 *   - at steady state v * f(v) is constant (f: the share of the drive in
 *     blocks of validity v), so f(v) = v_gc / v;
 *   - N validities evenly spaced in [v_gc, 1] with their cumulative share
 *     sum(1/v) give a curve; it is resampled at N evenly spaced shares
 *     (linear interpolation) and reversed: region 0 holds the least valid
 *     data (v_gc), the last region is all valid.
 * The plan: physical = logical + ceil(logical * OP), down to the block
 * size; region = physical / N bytes, region_writes = region / bs writes.
 * Each written block of region r is rewritten at the start of region r+1
 * with probability (p_r + 1) / 10001, p_r = round((1 - v_r) * 10000) (fio's
 * rand_between(0, 10000) <= p_r); fresh blocks come from a permutation of
 * the logical blocks (fio's lfsr: each block once).  The pass ends after
 * region N (the one that rewrites region N-1's share), when the fresh
 * blocks run out, or at physical bytes (fio sets io_size to it).
 *
 * Error bounds: the validity left in region r is binomial around v_r:
 * standard deviation sqrt(v_r (1 - v_r) / region_writes), under 0.5 /
 * sqrt(region_writes) (1.6% at 1000 writes a region); the rewrite buffer
 * holds the expected share plus 6 standard deviations (fio's
 * estimate_inv_capacity; twice that with spr_cs), so it overflows with
 * probability below 1e-9 a region.  The model itself is an approximation:
 * fio's WA formula is within ~5% of Desnoyers' exact one (Lambert W) for
 * OP in 0.07..0.28, and the model's mean validity is not exactly
 * 1/(1+OP), so the fresh blocks can run out before region N (the pass ends
 * early) or outlast it (the blocks left are never written): both as fio. */
#ifndef NVS_SPRANDOM_H
#define NVS_SPRANDOM_H

#include <stddef.h>
#include <stdint.h>
#include "io/opt/opt.h"

struct spec;
struct sprandom;

#define SPRANDOM_PCT 10000 /* fio's PCT_PRECISION */

/* fio's compute_waf: 0.5 / op + 0.7. */
double sprandom_waf(double op);
/* fio's sprandom_physical_size: logical + ceil(logical * op), aligned down. */
uint64_t sprandom_physical(double op, uint64_t logical, uint32_t align);
/* fio's compute_validity_dist: @n validities into @out, region 0 first
 * (the least valid).  0, or -EINVAL (n = 0, op out of (0, 1)). */
int sprandom_validity(unsigned n, double op, double *out);
/* fio's estimate_inv_capacity: the expected rewrites of @cnt writes at
 * validity @v plus 6 standard deviations, rounded up. */
uint64_t sprandom_capacity(uint64_t cnt, double v);

/* The plan of a job (fio's --debug=sprandom summary). */
struct sprandom_plan {
	uint64_t logical, physical; /* bytes */
	uint64_t region_bytes, region_writes, nblocks, capacity, cache;
	unsigned nregions;
	const uint32_t *invalid_pct; /* per region, of SPRANDOM_PCT */
	uint64_t dropped;	     /* rewrites the full buffer could not hold */
};

/* A plan over @logical bytes in @bs blocks: 0, -EDOM (a region smaller
 * than one block, or spr_cs larger than a region: @err says which),
 * -EINVAL, -ENOMEM. */
int sprandom_new(struct sprandom **out, uint64_t logical, uint32_t bs, double op, unsigned nregions,
		 uint64_t cache, uint64_t seed, char *err, size_t errlen);
void sprandom_free(struct sprandom *sp);
void sprandom_get_plan(const struct sprandom *sp, struct sprandom_plan *p);
/* The next block (in bs units) to write: 0, or 1 when the pass is done.
 * No allocation. */
int sprandom_next(struct sprandom *sp, uint64_t *blk);

/* fio's spr_cs, spr_num_regions, spr_op, sprandom (the names in sprandom_opts): a row each in
 * io/opt/opt.c's one table. */
#define SPRANDOM_NOPTS 4
extern const struct opt_row sprandom_opts[SPRANDOM_NOPTS];
/* fio's checks (init.c, filesetup.c) and nvscope's limits. */
int sprandom_spec_validate(const struct spec *s, char *err, size_t errlen);

#endif

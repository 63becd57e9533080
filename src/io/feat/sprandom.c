/* sprandom.c - fio master's sprandom preconditioning (the model and its
 * error bounds: sprandom.h).  The offset sequence follows fio's
 * sprandom_get_next_offset step by step; the random streams (the fresh
 * block order and the rewrite draws) are nvscope's own. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/num.h"
#include "io/opt/spec.h"
#include "io/feat/sprandom.h"

struct sprandom {
	struct sprandom_plan plan;
	uint32_t *pct;
	uint64_t rng;
	/* the fresh blocks: a keyed permutation of [0, nblocks) (fio's lfsr) */
	uint64_t perm_i, perm_mask, perm_key[4];
	/* fio's pc_buf: two-phase ring; [tail, commit) may be popped,
	 * [commit, stage) are the rewrites staged in the current region */
	uint64_t *buf, cap, commit, stage, tail;
	uint64_t count[2]; /* fio's invalid_count per phase */
	unsigned region, phase;
	uint64_t remaining; /* fio's writes_remaining */
};

double sprandom_waf(double op)
{
	return 0.5 / op + 0.7;
}

uint64_t sprandom_physical(double op, uint64_t logical, uint32_t align)
{
	uint64_t size = logical + (uint64_t)ceil((double)logical * op);
	return align ? size - size % align : size;
}

uint64_t sprandom_capacity(uint64_t cnt, double v)
{
	double sigma = sqrt((double)cnt * v * (1.0 - v));
	return (uint64_t)ceil((double)cnt * (1.0 - v) + 6.0 * sigma);
}

/* fio's linspace: n values from a to b inclusive (n = 1: a). */
static void linspace(double a, double b, unsigned n, double *out)
{
	double step = n > 1 ? (b - a) / ((double)n - 1.0) : 0.0;
	for (unsigned i = 0; i < n; i++)
		out[i] = a + (double)i * step;
}

int sprandom_validity(unsigned n, double op, double *out)
{
	if (!n || !(op > 0.0) || !(op < 1.0))
		return -EINVAL;
	double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
	double *nx = malloc(sizeof(double) * n);
	int rc = -ENOMEM;
	if (!x || !y || !nx)
		goto cleanup;
	/* validities evenly spaced from 1 down to the GC block's, and their
	 * cumulative share sum(1 / v): increasing, so already sorted */
	linspace(1.0, 1.0 - 1.0 / sprandom_waf(op), n, y);
	double acc = 0.0;
	for (unsigned i = 0; i < n; i++) {
		acc += 1.0 / y[i];
		x[i] = acc;
	}
	/* fio's sample_curve_equally_on_x + linear_interp, in one merged walk */
	linspace(x[0], x[n - 1], n, nx);
	unsigned j = 0;
	for (unsigned i = 0; i < n; i++) {
		double v, t = nx[i];
		if (n == 1 || t <= x[0]) {
			v = y[0];
		} else if (t >= x[n - 1]) {
			v = y[n - 1];
		} else {
			while (j + 1 < n - 1 && !(t >= x[j] && t <= x[j + 1]))
				j++;
			double x1 = x[j], x2 = x[j + 1];
			v = fabs(x2 - x1) < 1e-9
				? y[j]
				: y[j] + (y[j + 1] - y[j]) * ((t - x1) / (x2 - x1));
		}
		out[n - 1 - i] = v; /* reversed: region 0 the least valid */
	}
	rc = 0;
cleanup:
	free(x);
	free(y);
	free(nx);
	return rc;
}

static uint64_t sm64(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A bijection of [0, mask], cycle-walked into [0, nblocks). */
static uint64_t perm(const struct sprandom *sp, uint64_t i)
{
	static const uint64_t mul[4] = {0xbf58476d1ce4e5b9ULL, 0x94d049bb133111ebULL,
					0xd6e8feb86659fd93ULL, 0xff51afd7ed558ccdULL};
	uint64_t m = sp->perm_mask, s = (uint64_t)(64 - __builtin_clzll(m | 1)) / 2 + 1;
	do {
		for (int r = 0; r < 4; r++) {
			i = ((i ^ sp->perm_key[r]) * mul[r]) & m;
			i ^= i >> s;
		}
	} while (i >= sp->plan.nblocks);
	return i;
}

int sprandom_new(struct sprandom **out, uint64_t logical, uint32_t bs, double op, unsigned nregions,
		 uint64_t cache, uint64_t seed, char *err, size_t errlen)
{
	struct sprandom *sp = NULL;
	double *v = NULL;
	int rc = -EINVAL;

	*out = NULL;
	if (!bs || !nregions || !(op > 0.0 && op < 1.0) || logical / bs == 0)
		goto cleanup;
	rc = -ENOMEM;
	sp = calloc(1, sizeof(*sp));
	v = malloc(sizeof(double) * nregions);
	if (!sp || !v)
		goto cleanup;
	sp->pct = calloc(nregions, sizeof(uint32_t));
	if (!sp->pct)
		goto cleanup;
	rc = sprandom_validity(nregions, op, v);
	if (rc)
		goto cleanup;
	struct sprandom_plan *p = &sp->plan;
	p->logical = logical;
	p->physical = sprandom_physical(op, logical, bs);
	p->nregions = nregions;
	p->region_bytes = p->physical / nregions;
	p->region_writes = p->region_bytes / bs;
	p->nblocks = logical / bs; /* fio: file size / rw_min_bs */
	p->cache = cache;
	p->invalid_pct = sp->pct;
	for (unsigned i = 0; i < nregions; i++)
		sp->pct[i] = (uint32_t)lround((1.0 - v[i]) * SPRANDOM_PCT);
	rc = -EDOM;
	if (!p->region_writes) {
		snprintf(err, errlen,
			 "sprandom: spr_num_regions=%u leaves regions of %llu bytes, less than "
			 "one %u-byte block",
			 nregions, (unsigned long long)p->region_bytes, bs);
		goto cleanup;
	}
	if (cache > p->region_bytes) {
		/* fio's message */
		snprintf(err, errlen,
			 "sprandom: spr_cs [%llu] must be smaller than region_sz [%llu] which "
			 "means [%llu] regions allowed",
			 (unsigned long long)cache, (unsigned long long)p->region_bytes,
			 (unsigned long long)(p->physical / cache));
		goto cleanup;
	}
	p->capacity = sprandom_capacity(p->region_writes, v[0]) * (cache ? 2 : 1);
	rc = -ENOMEM;
	sp->cap = p->capacity + 1; /* fio's ring holds capacity - 1: one more */
	sp->buf = malloc(sizeof(uint64_t) * sp->cap);
	if (!sp->buf)
		goto cleanup;
	sp->rng = seed ^ 0x5350524e44ULL;
	sp->perm_mask = UINT64_MAX >> __builtin_clzll((p->nblocks - 1) | 1);
	for (int r = 0; r < 4; r++)
		sp->perm_key[r] = sm64(&sp->rng);
	sp->remaining = p->region_writes;
	*out = sp;
	sp = NULL;
	rc = 0;
cleanup:
	free(v);
	sprandom_free(sp);
	return rc;
}

void sprandom_free(struct sprandom *sp)
{
	if (!sp)
		return;
	free(sp->pct);
	free(sp->buf);
	free(sp);
}

void sprandom_get_plan(const struct sprandom *sp, struct sprandom_plan *p)
{
	*p = sp->plan;
}

static bool pop(struct sprandom *sp, uint64_t *blk)
{
	if (sp->tail == sp->commit)
		return false;
	*blk = sp->buf[sp->tail];
	sp->tail = (sp->tail + 1) % sp->cap;
	return true;
}

/* fio's sprandom_add_with_probability: rewrite @blk in the next region
 * with probability (p + 1) / 10001.  Past the last region nothing follows
 * (fio reads one element past its array there). */
static void stage(struct sprandom *sp, uint64_t blk, unsigned phase)
{
	uint64_t v = (uint64_t)(((unsigned __int128)sm64(&sp->rng) * (SPRANDOM_PCT + 1)) >> 64);
	if (sp->region >= sp->plan.nregions || v > sp->pct[sp->region])
		return;
	if ((sp->stage + 1) % sp->cap == sp->tail) {
		sp->plan.dropped++; /* fio asserts; 6 sigma make it rarer than 1e-9 */
		return;
	}
	sp->buf[sp->stage] = blk;
	sp->stage = (sp->stage + 1) % sp->cap;
	sp->count[phase]++;
}

int sprandom_next(struct sprandom *sp, uint64_t *blk)
{
	unsigned phase = sp->phase;
	uint64_t b;

	if (!sp->plan.cache && pop(sp, &b)) {
		/* the previous region's share, rewritten first */
		stage(sp, b, phase ^ 1);
		goto out;
	}
	if (!sp->remaining) {
		if (sp->plan.cache && pop(sp, &b)) {
			/* spr_cs: the rewrites come at the end of the next region */
			stage(sp, b, phase ^ 1);
			goto out;
		}
		if (sp->region >= sp->plan.nregions)
			return 1;
		sp->count[phase] = 0;
		sp->region++;
		phase ^= 1;
		sp->remaining = sp->count[phase] < sp->plan.region_writes
				    ? sp->plan.region_writes - sp->count[phase]
				    : 0;
		sp->phase = phase;
		sp->commit = sp->stage;
	}
	if (sp->perm_i >= sp->plan.nblocks) {
		/* the fresh blocks ran out (fio's lfsr_next fails) */
		if (sp->plan.cache && pop(sp, &b))
			goto out;
		return 1;
	}
	b = perm(sp, sp->perm_i++);
	if (sp->remaining)
		sp->remaining--;
	stage(sp, b, phase ^ 1);
out:
	*blk = b;
	return 0;
}

static int set_on(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	(void)key;
	if (spec_parse_bool(v, &s->sprandom))
		return snprintf(err, errlen, "sprandom: '%s' is not a boolean (0/1)", v), -EINVAL;
	return 0;
}

/* spr_op=: fio documents (0, 1); 0 and 1 give no model */
static int set_op(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	double d;

	(void)key;
	if (!v || num_parse_double(v, 0.0, 1.0, &d) || d <= 0.0 || d >= 1.0)
		return snprintf(err, errlen,
				"spr_op: '%s' is not an over-provisioning ratio in (0, 1)",
				v ? v : ""),
		       -EINVAL;
	s->spr_op = d;
	return 0;
}

/* spr_cs=: a size, nothing stored when refused */
static int set_cs(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t sz;

	(void)key;
	if (!v || spec_parse_size(v, &sz) || sz > (1ull << 60))
		return snprintf(err, errlen, "spr_cs: '%s' is not a size in bytes", v ? v : ""),
		       -EINVAL;
	s->spr_cs = sz;
	return 0;
}

/* The options this module sets: a row each (io/opt/opt.h). */
/* clang-format off */
const struct opt_row sprandom_opts[SPRANDOM_NOPTS] = {
    {.name = "spr_cs", .kind = OPT_CUSTOM, .set = set_cs},
    {.name = "spr_num_regions", .kind = OPT_UINT, OPT_FIELD(spr_regions), .min = 1,
     .max = 10000000, .what = "1..10000000"},
    {.name = "spr_op", .kind = OPT_CUSTOM, .set = set_op},
    {.name = "sprandom", .kind = OPT_CUSTOM, .set = set_on},
};
/* clang-format on */

int sprandom_spec_validate(const struct spec *s, char *err, size_t errlen)
{
	const char *why = NULL;

	if (!s->sprandom)
		return 0;
	/* fio's own refusals first (init.c fixup_options, filesetup.c) */
	if (s->rw != RW_RANDWRITE && s->rw != RW_RANDRW && s->rw != RW_RANDTRIMWRITE)
		why = "sprandom requires random write, random_generator=lfsr, norandommap=1 (fio's "
		      "message)";
	else if (s->rand_gen_set && !s->rand_lfsr)
		why = "sprandom requires random_generator=lfsr (fio's message)";
	else if (s->norandommap_set && !s->norandommap)
		why = "sprandom requires norandommap=1 (fio's message)";
	else if (s->ntargets > 1 || s->fileset || s->stripe)
		why = "SPRandom supports only one file (fio's message)";
	/* nvscope's limits */
	else if (s->rw != RW_RANDWRITE)
		why =
		    "sprandom with reads or trims (randrw, randtrimwrite) is not implemented: use "
		    "rw=randwrite";
	else if (s->numjobs > 1)
		why = "sprandom needs numjobs=1 (fio runs one plan per job over the same blocks, "
		      "which undoes the model: refused)";
	else if (s->nbs > 1 || s->bsrange[1][1] || s->bs_unaligned)
		why = "sprandom with several block sizes is not implemented";
	else if (s->blockalign && s->blockalign != s->bs[0].bs)
		why = "sprandom with a blockalign other than bs is not implemented";
	else if (s->dist != DIST_UNIFORM || s->pct_random[1] < 100 || s->seq_nr > 1)
		why = "sprandom with random_distribution, percentage_random or rw=randwrite:N is "
		      "not implemented";
	else if (s->zone_mode == SPEC_ZONE_STRIDED)
		why = "sprandom with zonemode=strided is not implemented";
	else if (s->replay.iolog[0])
		why = "sprandom with read_iolog is not implemented";
	if (why) {
		snprintf(err, errlen, "%s", why);
		return -EINVAL;
	}
	return 0;
}

/* offgen.c - set-up of the per-worker I/O generator (offgen.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "io/offgen.h"
#include "io/randmap.h"

/* fio's random map for uniform random jobs (norandommap=0).  One block
 * size whose blocks tile the region (blockalign = bs): a keyed permutation
 * (offgen_perm: no memory, no search; the same blocks per pass as fio's
 * map).  Mixed sizes (bssplit, bsrange, bs=R,W) with the smallest one as
 * the alignment (fio's default blockalign): fio's bitmap of smallest-size
 * blocks, each direction drawing in its own smallest size (offgen_mapped).
 * Otherwise offsets stay uniform with replacement (docs/cli.md says where
 * fio differs).  The keys come from the seed, not from the stream, so the
 * other draws (mix, sizes) are those of norandommap=1.  fio's lfsr needs no map:
 * every block once even with norandommap=1 (one size). */
static int map_init(struct offgen *g, const struct spec *s, uint64_t seed)
{
	bool one = !g->rmax[0] && !g->rmax[1] && s->nbs;
	uint32_t dmin[2] = {UINT32_MAX, UINT32_MAX}, minbs = UINT32_MAX;

	if (!g->random || (s->norandommap && !s->rand_lfsr) || g->dist)
		return 0;
	for (unsigned i = 0; i < s->nbs; i++)
		one = one && s->bs[i].bs == s->bs[0].bs;
	/* the smallest size of each direction, issued or not: fio's
	 * rw_min_bs is the smallest of all (init.c fixup_options) */
	for (unsigned d = 0; d < 2; d++) {
		if (g->rmax[d])
			dmin[d] = g->rmin[d];
		for (unsigned i = 0; !g->rmax[d] && i < s->nbs; i++)
			if ((d ? s->bs[i].wweight : s->bs[i].weight) && s->bs[i].bs < dmin[d])
				dmin[d] = s->bs[i].bs;
		if (dmin[d] < minbs)
			minbs = dmin[d];
	}
	if (!one) {
		/* fio's map with mixed sizes: a bit per block of the smallest
		 * size, the alignment; fio's lfsr keeps no map, and a blockalign
		 * other than a direction's smallest size turns fio's map off */
		if (s->norandommap || s->rand_lfsr || minbs == UINT32_MAX || g->align != minbs ||
		    g->len / minbs == 0 ||
		    (s->blockalign && (dmin[0] != s->blockalign || dmin[1] != s->blockalign)))
			return 0;
		g->rmap_unit = minbs;
		/* fio's ba of each direction is its own smallest size, and its
		 * map is indexed in it (see munit) */
		for (unsigned d = 0; d < 2; d++) {
			uint32_t dmax = 0;
			for (unsigned i = 0; !g->rmax[d] && i < s->nbs; i++)
				if ((d ? s->bs[i].wweight : s->bs[i].weight) && s->bs[i].bs > dmax)
					dmax = s->bs[i].bs;
			g->munit[d] = dmin[d] == UINT32_MAX ? minbs : dmin[d];
			g->dir_one[d] = g->rmax[d] ? g->rmin[d] == g->rmax[d] : dmin[d] == dmax;
		}
		g->rmap = randmap_new(g->len / minbs);
		return g->rmap ? 0 : -ENOMEM;
	}
	if (g->align != s->bs[0].bs)
		return 0;
	g->map_n = g->npos[0];
	g->map_mask = UINT64_MAX >> __builtin_clzll((g->map_n - 1) | 1);
	uint64_t k = seed ^ 0x6a09e667f3bcc909ULL;
	for (int r = 0; r < 4; r++) {
		uint64_t z = (k += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		g->map_key[r] = z ^ (z >> 31);
	}
	return 0;
}

void offgen_free(struct offgen *g)
{
	randmap_free(g->rmap);
	g->rmap = NULL;
	sprandom_free(g->spr);
	g->spr = NULL;
}

/* fio's pass ends early (fill_io_u fails, do_io returns) and the job
 * starts over: clear_io_state re-seeds the random state when randrepeat
 * (fio's default), fio_file_reset empties the map and the streams. */
static void restart(struct offgen *g)
{
	if (g->reseed)
		g->rng = g->rng0;
	randmap_reset(g->rmap);
	for (unsigned d = 0; d < 2; d++)
		g->last_pos[d] = g->start;
	g->restarts++;
}

/* fio's get_next_rand_offset + get_next_buflen + mark_random_map.  fio's
 * map has a bit per block of the smallest size of all directions
 * (rw_min_bs), but each direction draws and marks block numbers in its
 * own unit (munit: its ba, by default its smallest size): with 64k reads
 * and 1M writes, write block 5 is 1M * 5 on the device and bit 5 (64k * 5)
 * in the map.  A drawn block already done in this pass moves to the next
 * free bit (wrapping), which may lie past the direction's last block;
 * when none is free the pass is complete and the map starts over (fio's
 * fio_file_reset).  The size already drawn is redrawn while it runs past
 * io_size (fio's io_u_fits loop; one size is never redrawn), and an I/O
 * that still passes the region's end ends fio's pass: restart(), and
 * false (the caller draws the I/O again, direction first, as fio does).
 * The size is then cut to the free run from the block (mark_random_map). */
bool offgen_mapped(struct offgen *g, unsigned d, uint64_t *off, uint32_t *len)
{
	uint64_t u = g->munit[d], lastb = g->len / u, npos;
	uint64_t b = randmap_next_free(g->rmap, offgen_below(offgen_rand(g), lastb));

	if (b == RANDMAP_NONE) {
		randmap_reset(g->rmap);
		g->map_passes++;
		b = offgen_below(offgen_rand(g), lastb);
	}
	uint64_t rel = b * u;
	if (!g->dir_one[d]) {
		uint32_t minbs = g->rmax[d] ? g->rmin[d] : (uint32_t)u;
		/* fio redraws without a bound (a weight is at least 1%) */
		for (int k = 0; rel + minbs <= g->fit_len && rel + *len > g->fit_len; k++)
			*len = k < 10000 ? offgen_size(g, d, offgen_rand(g), &npos) : minbs;
	}
	if (rel + *len > g->len) {
		if (g->restart_run++ < 8) {
			restart(g);
			return false;
		}
		/* restarts in a row find nothing that fits: never past the end */
		u = g->rmap_unit;
		b = offgen_below(offgen_rand(g), g->len / u);
		rel = b * u;
		if (rel + *len > g->len)
			*len = (uint32_t)u;
	}
	g->restart_run = 0;
	uint64_t want = (*len + u - 1) / u, got = randmap_set_run(g->rmap, b, want);
	if (got < want)
		*len = (uint32_t)(got * u);
	*off = g->start + rel;
	return true;
}

void offgen_zone_reset(struct offgen *g)
{
	/* fresh keys: a part of a pass draws a new set of blocks */
	g->map_i = 0;
	for (int k = 0; k < 4; k++)
		g->map_key[k] = offgen_rand(g);
	if (g->rmap)
		randmap_reset(g->rmap);
}

int offgen_init(struct offgen *g, const struct spec *s, uint64_t start, uint64_t len,
		uint32_t align, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	if (s->zone_size && s->zone_mode == SPEC_ZONE_STRIDED) {
		/* zonemode=strided: the generator works on one zone at a time */
		uint64_t range = s->zone_range ? s->zone_range : s->zone_size;
		g->zsize = s->zone_size;
		g->zstep = range + s->zone_skip;
		g->zreg_start = start;
		g->zreg_end = start + len;
		if (range < len)
			len = range;
	}
	g->rng = seed;
	g->start = start;
	g->len = len;
	g->align = align ? align : 512;
	g->random = s->rw == RW_RANDREAD || s->rw == RW_RANDWRITE || s->rw == RW_RANDRW ||
		    s->rw == RW_RANDTRIM || s->rw == RW_RANDTRIMWRITE;
	/* trims take the write's sizes and stream (fio: bs=r,w gives the trim
	 * the write's size; trimwrite seeds both generators alike) */
	g->trim = s->rw == RW_TRIM || s->rw == RW_RANDTRIM		 ? OFFGEN_TRIM
		  : s->rw == RW_TRIMWRITE || s->rw == RW_RANDTRIMWRITE ? OFFGEN_TRIMWRITE
								       : OFFGEN_NOTRIM;
	switch (s->rw) {
	case RW_READ:
	case RW_RANDREAD:
		g->mixread = 100;
		break;
	case RW_RW:
	case RW_RANDRW:
		g->mixread = s->rwmixread;
		break;
	default:
		g->mixread = 0;
	}
	if (s->dist == DIST_ZONED && g->random) {
		g->dist = DIST_ZONED;
		g->zone_lo = s->zone_lo;
		g->zone_hi = s->zone_hi;
	} else if (s->dist && g->random) {
		/* fio's __init_rand_distribution: ranges of the smallest block size */
		uint32_t rs = UINT32_MAX;
		for (unsigned i = 0; i < s->nbs; i++)
			if (s->bs[i].bs < rs)
				rs = s->bs[i].bs;
		for (unsigned d = 0; d < 2; d++)
			if (s->bsrange[d][1] && s->bsrange[d][0] < rs)
				rs = s->bsrange[d][0];
		g->dist = s->dist;
		g->nranges = (len + rs - 1) / rs;
		g->rand_off = offgen_rand(g) % g->nranges;
		if (s->dist == DIST_ZIPF) {
			/* zipf_init: zeta(n) over at most 10M terms, as fio */
			uint64_t to_gen = g->nranges < 10000000 ? g->nranges : 10000000;
			g->theta = s->dist_val;
			g->zeta2 = pow(1.0, g->theta) + pow(0.5, g->theta);
			for (uint64_t i = 0; i < to_gen; i++)
				g->zetan += pow(1.0 / (double)(i + 1), g->theta);
		} else if (s->dist == DIST_PARETO) {
			g->pareto_pow = log(s->dist_val) / log(1.0 - s->dist_val);
		} else {
			if (s->dist_val != 0.0) {
				g->gauss_dev =
				    (uint64_t)ceil((double)g->nranges * s->dist_val / 100.0);
				if (g->gauss_dev > g->nranges / 2)
					g->gauss_dev = g->nranges / 2;
			}
			g->rand_off = 0;
		}
		if (s->dist_center >= 0) {
			double c = s->dist == DIST_GAUSS ? s->dist_center - 0.5 : s->dist_center;
			/* gauss: nranges * (center - 0.5), wrapped into range */
			int64_t o = (int64_t)((double)g->nranges * c);
			g->rand_off = (uint64_t)(o < 0 ? o + (int64_t)g->nranges : o);
		}
	}
	g->seq_add = s->seq_add;
	g->seq_back = s->seq_back;
	if (s->seq_back && s->seq_add > len)
		return -EINVAL;
	g->seq_nr = g->seq_cnt = s->seq_nr ? s->seq_nr : 1;
	for (unsigned d = 0; d < 2; d++) {
		g->last_pos[d] = start;
		g->pct_random[d] = s->pct_random[d];
		if (s->bsrange[d][1]) {
			g->rmin[d] = s->bsrange[d][0];
			g->rmax[d] = s->bsrange[d][1];
			g->rstep[d] = s->bs_unaligned ? 512 : s->bsrange[d][0];
			if (g->rmax[d] > len)
				return -EINVAL;
			g->rnpos[d] = (len - g->rmax[d]) / g->align + 1;
		}
	}
	for (unsigned i = 0; i < s->nbs; i++) {
		g->bs[i] = s->bs[i].bs;
		if (g->bs[i] > len)
			return -EINVAL;
		g->npos[i] = (len - g->bs[i]) / g->align + 1;
	}
	for (unsigned d = 0; d < 2; d++) {
		unsigned k = 0, last = 0;
		for (unsigned i = 0; i < s->nbs; i++) {
			unsigned w = d ? s->bs[i].wweight : s->bs[i].weight;
			if (w)
				last = i;
			for (unsigned c = 0; c < w && k < 100; c++)
				g->bs_pick[d][k++] = (uint8_t)i;
		}
		while (k < 100) /* rounding leftovers go to the last size */
			g->bs_pick[d][k++] = (uint8_t)last;
	}
	/* fio's io_size: size= larger than the region (a smaller device) */
	g->fit_len = len;
	if (!s->size_pct && !s->fileset && s->size > len && !g->zsize)
		g->fit_len = s->size;
	g->reseed = !s->randrepeat_off;
	if (s->sprandom) {
		/* fio's sprandom_init: the plan replaces the random map; -EDOM:
		 * regions smaller than a block, or spr_cs larger than a region */
		return sprandom_new(&g->spr, len, g->align, s->spr_op > 0 ? s->spr_op : 0.15,
				    s->spr_regions ? s->spr_regions : 100, s->spr_cs, seed, NULL, 0);
	}
	int rc = map_init(g, s, seed);
	g->rng0 = g->rng;
	return rc;
}

/* fio's golden-ratio hash (hash.h __hash_u64): spreads the hot ranks */
static inline uint64_t hash_u64(uint64_t v)
{
	return v * 0x61C8864680B583EBULL;
}

static double uni32(struct offgen *g)
{
	return (double)(uint32_t)offgen_rand(g) / (double)UINT32_MAX;
}

uint64_t offgen_dist_block(struct offgen *g)
{
	uint64_t n = g->nranges, val;

	if (g->dist == DIST_ZIPF) { /* fio's zipf_next */
		double alpha = 1.0 / (1.0 - g->theta);
		double eta =
		    (1.0 - pow(2.0 / (double)n, 1.0 - g->theta)) / (1.0 - g->zeta2 / g->zetan);
		double u = uni32(g), z = u * g->zetan;
		if (z < 1.0)
			val = 1;
		else if (z < 1.0 + pow(0.5, g->theta))
			val = 2;
		else
			val = 1 + (uint64_t)((double)n * pow(eta * u - eta + 1.0, alpha));
		val = hash_u64(val - 1);
	} else if (g->dist == DIST_PARETO) { /* pareto_next */
		val = hash_u64((uint64_t)((double)(n - 1) * pow(uni32(g), g->pareto_pow)));
	} else { /* gauss_next: the mean of 12 uniforms, then a deviation */
		uint64_t sum = 0;
		for (int i = 0; i < 12; i++)
			sum += (uint32_t)offgen_rand(g) % (n + 1);
		sum = (sum + 11) / 12;
		if (g->gauss_dev) {
			int64_t dev =
			    (int64_t)((double)g->gauss_dev *
				      ((double)(uint32_t)offgen_rand(g) / (UINT32_MAX + 1.0))) -
			    (int64_t)(g->gauss_dev / 2);
			/* fio's unsigned test: also while the sum would go below 0 */
			while (dev + (int64_t)sum >= (int64_t)n || dev + (int64_t)sum < 0)
				dev /= 2;
			sum = (uint64_t)((int64_t)sum + dev);
		}
		val = hash_u64(sum);
	}
	return (val + g->rand_off) % n;
}

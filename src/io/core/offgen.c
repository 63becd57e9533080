/* offgen.c - set-up of the per-worker I/O generator (offgen.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "io/core/offgen.h"
#include "io/core/randmap.h"
#include "io/core/frand.h"

/* fio's random map for uniform random jobs (norandommap=0, lib/axmap.c):
 * a bit per block of the smallest size of all directions (fio's
 * rw_min_bs), each direction drawing and marking block numbers in its own
 * smallest size (offgen_draw).  A blockalign other than a direction's
 * smallest size turns it off, as in fio.  random_generator=lfsr keeps no
 * map: fio's LFSR over as many blocks gives each once (uniform and zoned
 * distributions, also with norandommap; seeded in offgen_seed). */
static int map_init(struct offgen *g, const struct spec *s)
{
	uint32_t dmin[2] = {UINT32_MAX, UINT32_MAX}, minbs = UINT32_MAX;

	if (!g->random || (g->dist && g->dist != DIST_ZONED))
		return 0;
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
	if (minbs == UINT32_MAX)
		return 0;
	if (s->rand_lfsr) {
		/* fio's init_random_map: min(size, device) / rw_min_bs values */
		g->lfsr_n = (g->fit_len < g->len ? g->fit_len : g->len) / minbs;
		return 0;
	}
	/* fio's map: a bit per block of the smallest size, the alignment;
	 * a blockalign other than a direction's smallest size turns it off
	 * (and zoned distributions, for which fio sets norandommap) */
	if (s->norandommap || g->dist || g->align != minbs || g->len / minbs == 0 ||
	    (s->blockalign && (dmin[0] != s->blockalign || dmin[1] != s->blockalign)))
		return 0;
	g->rmap_unit = minbs;
	/* fio's ba of each direction is its own smallest size, and its map is
	 * indexed in it (see munit) */
	for (unsigned d = 0; d < 2; d++)
		g->munit[d] = dmin[d] == UINT32_MAX ? minbs : dmin[d];
	g->rmap = randmap_new(g->len / minbs);
	return g->rmap ? 0 : -ENOMEM;
}

void offgen_free(struct offgen *g)
{
	randmap_free(g->rmap);
	g->rmap = NULL;
	sprandom_free(g->spr);
	g->spr = NULL;
}

/* fio's pass ends (fill_io_u fails, or a loop's bytes are done) and the
 * job starts over: clear_io_state re-seeds the random streams when
 * randrepeat (fio's default), reset_io_counters the rwmix count (not the
 * issues).  A failed pass, or a loop that ends with the map full (the file
 * done: fio opens it again, and td_io_open_file's fio_file_reset empties
 * the map), starts from an empty map; a loop that ends by io_size with
 * blocks left goes on through the same map (fio's second loop of
 * randwrite size=128k io_size=64k writes the other four 16k blocks, not
 * the first four again: tests/integration/fio_offset_loops.sh). */
static void restart(struct offgen *g, bool failed)
{
	bool done = failed || !g->rmap || randmap_nset(g->rmap) == randmap_nbits(g->rmap);

	if (g->reseed && done) {
		g->fr = g->fr0;
		g->rng = g->rng0;
	}
	if (g->rmap && done)
		randmap_reset(g->rmap);
	if (g->lfsr_on)
		frand_lfsr_reset(&g->lfsr);
	for (unsigned d = 0; d < 2; d++)
		g->last_pos[d] = g->start;
	g->mix_issues = 0;
	g->pass_bytes = 0;
	g->restarts += failed;
	g->loops += !failed;
}

/* fio's io_u_fits: against io_size, relative to the region's start */
static inline bool fits(const struct offgen *g, uint64_t rel, uint64_t len)
{
	return rel + len <= g->fit_len;
}

/* fio's get_next_buflen for an I/O of direction @d at @rel: one size is
 * never drawn; otherwise bssplit (fio's cumulative test, entries sorted
 * by weight, one that does not fit skipped) or bsrange (min + max * u),
 * down to a multiple of the smallest, drawn again until it fits.  0: not
 * even the smallest fits (fio's fill fails: the pass ends). */
static uint32_t buflen_draw(struct offgen *g, unsigned d, uint64_t rel)
{
	uint64_t minbs = g->minbs[d], maxbs = g->maxbs[d], b = minbs;
	struct frand *f = &g->fr.bs[d];

	if (!fits(g, rel, minbs))
		return 0;
	uint64_t fmax = frand_max(f);
	for (unsigned k = 0;; k++) {
		uint64_t r = frand_next(f);
		if (g->rmax[d]) {
			b = minbs + (uint64_t)((double)maxbs * ((double)r / ((double)fmax + 1.0)));
		} else {
			uint64_t perc = 0;
			for (unsigned j = 0; j < g->bs_nord[d]; j++) {
				b = g->bs[g->bs_ord[d][j]];
				perc += g->bs_w[d][j];
				if (r / perc <= fmax / 100 && fits(g, rel, b))
					break;
			}
		}
		/* fio: a multiple of the smallest (bs_unaligned: nvscope's
		 * 512-byte step, fio none) */
		b -= b % (g->rmax[d] ? g->rstep[d] : minbs);
		if (b > maxbs)
			b = maxbs;
		if (fits(g, rel, b))
			return (uint32_t)b;
		if (k > 100000)
			return (uint32_t)minbs; /* (a weight is at least 1%: never) */
	}
}

/* One size (a fixed bs): nothing drawn, no call on the per-I/O path. */
static inline uint32_t buflen(struct offgen *g, unsigned d, uint64_t rel)
{
	if (nvs_likely(g->minbs[d] == g->maxbs[d]))
		return g->minbs[d];
	return buflen_draw(g, d, rel);
}

/* fio's rwmix (get_rw_ddir, get_rand_ddir, set_rwmix_bytes) */
static unsigned mix_dir(struct offgen *g)
{
	if (g->mixread >= 100 || g->mixread == 0)
		return g->mixread ? NVS_READ : NVS_WRITE;
	if (g->issues[g->mix_dir] >= g->mix_issues) {
		unsigned d = frand_between(&g->fr.mix, 1, 100) <= g->mixread ? NVS_READ : NVS_WRITE;
		if (d != g->mix_dir)
			g->mix_issues = g->issues[g->mix_dir] *
					(d == NVS_READ ? g->mixread : 100 - g->mixread) / 100;
		g->mix_dir = d;
	}
	return g->mix_dir;
}

/* fio's get_next_rand_offset for the uniform and zoned distributions:
 * b = lastb * u from fio's stream, moved to the next free block of the
 * map.  false: no block (the map is full, or no block fits). */
static nvs_always_inline bool rand_block(struct offgen *g, unsigned d, uint64_t *rel)
{
	uint64_t lastb = g->lastb[d], first = 0, b;

	if (!lastb)
		return false;
	if (g->dist == DIST_ZONED && g->zone_hi[d][99]) {
		/* fio's __get_next_rand_offset_zoned: v in 1..100 picks the
		 * zone, [lo%, hi%) of the blocks */
		unsigned v = (unsigned)frand_between(&g->fr.zone, 1, 100) - 1;
		unsigned lo = g->zone_lo[d][v], hi = g->zone_hi[d][v];
		first = lo ? lo * lastb / 100 : 0;
		lastb = lastb * (hi - lo) / 100;
	}
	if (g->lfsr_on) {
		if (!frand_lfsr_next(&g->lfsr, &b))
			return false; /* every value given: fio's lfsr_next fails */
	} else {
		b = frand_scale(&g->fr.off, frand_next(&g->fr.off), lastb);
	}
	if (g->rmap) {
		b = randmap_next_free(g->rmap, b);
		if (b == RANDMAP_NONE)
			return false;
	}
	*rel = (b + first) * g->ba[d];
	return true;
}

/* fio's mark_random_map: the I/O cut to the free run from its block */
static nvs_always_inline void mark(struct offgen *g, unsigned d, uint64_t rel, uint32_t *len)
{
	uint64_t u = g->munit[d], want = (*len + u - 1) / u;
	uint64_t got = randmap_set_run(g->rmap, rel / u, want);

	if (got < want)
		*len = (uint32_t)(got * u);
}

/* The sequential stream of direction @d (fio's get_next_seq_offset), the
 * size drawn at its position: relative offset. */
static uint64_t seq_next(struct offgen *g, unsigned d, uint32_t *len)
{
	uint64_t pos = g->last_pos[d];

	if (nvs_unlikely(g->seq_back)) {
		/* fio's get_next_seq_offset with ddir_seq_add < 0: step back
		 * from the end of the last I/O, relative to the start; below
		 * it, wrap to the region's end (a pass ends by bytes, not by
		 * the wrap).  fio's first step from a non-zero start begins
		 * at io_size (its "rewind" sets an absolute position as a
		 * relative one): kept, to issue the same offsets. */
		uint64_t rel = pos - g->start;
		*len = buflen(g, d, 0);
		if (pos == g->start && g->start)
			rel = g->len > g->start ? g->len - g->start : 0;
		if (rel)
			rel = rel >= g->seq_add ? rel - g->seq_add : g->len - g->seq_add;
		if (rel + *len > g->len)
			rel = g->len - *len;
		return rel;
	}
	if (pos != g->start && g->seq_add)
		pos += g->seq_add;
	*len = pos - g->start < g->len ? buflen(g, d, pos - g->start) : 0;
	if (!*len || pos + *len > g->start + g->len) {
		pos = g->start;
		g->wraps += !g->zsize; /* zones: size ends the job */
		*len = buflen(g, d, 0);
	}
	return pos - g->start;
}

/* offgen_draw; @first >= 0: the first random block was drawn already
 * (offgen_fast): found (1, at @first_rel) or not (0, the map full). */
static void draw(struct offgen *g, uint64_t *off, uint32_t *len, enum nvs_dir *dir, int first,
		 uint64_t first_rel)
{
	uint64_t rel = 0;
	unsigned d;

	if (nvs_unlikely(g->pass_len && g->pass_bytes >= g->pass_len && g->random))
		restart(g, false); /* fio: the next loop of the job, re-seeded */
	for (;;) {
		d = mix_dir(g);
		bool rnd = g->random;
		if (nvs_unlikely(!g->plain)) { /* the options g->plain says are off */
			if (g->zsize)
				offgen_zone(g, d);
			if (rnd && g->seq_nr > 1) {
				if (--g->seq_cnt)
					rnd = false;
				else
					g->seq_cnt = g->seq_nr;
			}
			/* fio's should_do_random */
			if (rnd && g->pct_random[d] < 100)
				rnd = frand_between(&g->fr.seq[d], 1, 100) <= g->pct_random[d];
			if (g->spr) {
				uint64_t b = 0;
				if (sprandom_next(g->spr, &b))
					g->wraps = UINT64_MAX; /* fio: td->done */
				rel = b * g->align;
				*len = buflen(g, d, rel);
				if (!*len || rel + *len > g->len)
					*len = g->minbs[d];
				break;
			}
		}
		if (rnd && (!g->dist || g->dist == DIST_ZONED)) {
			bool ok = first > 0;
			if (first >= 0)
				rel = first_rel, first = -1;
			else
				ok = rand_block(g, d, &rel);
			if (!ok && (g->rmap || g->lfsr_on) && g->time_based) {
				/* fio's get_next_rand_block: a full map (or a spent
				 * lfsr) starts over (time_based), the streams go on */
				if (g->rmap)
					randmap_reset(g->rmap);
				if (g->lfsr_on)
					frand_lfsr_reset(&g->lfsr);
				g->map_passes++;
				for (unsigned k = 0; k < 2; k++)
					g->last_pos[k] = g->start;
				ok = rand_block(g, d, &rel);
			}
			*len = ok ? buflen(g, d, rel) : 0;
			if (nvs_unlikely(!*len || rel + *len > g->len)) {
				/* fio's fill_io_u fails: the file is done.  Without
				 * time_based or io_size the job ends there (fio's
				 * keep_running: wraps, as a sequential pass's end);
				 * otherwise it starts over, re-seeded; restarts in a
				 * row that find nothing: one smallest block, never
				 * past the end */
				if (g->end_on_fail) {
					g->wraps = UINT64_MAX;
					*len = g->minbs[d];
					rel = 0;
					break;
				}
				if (g->restart_run++ < 8) {
					if (!ok)
						g->map_passes++;
					restart(g, true);
					continue;
				}
				*len = (uint32_t)g->munit[d];
				rel = offgen_below(offgen_rand(g), g->len / *len) * *len;
			} else if (g->rmap) {
				mark(g, d, rel, len);
			}
		} else if (rnd) {
			uint64_t b = offgen_dist_block(g);
			rel = b * g->ba[d];
			*len = buflen(g, d, rel);
			if (!*len)
				*len = g->minbs[d];
			if (rel + *len > g->len)
				rel = (g->len - *len) / g->align * g->align;
		} else {
			rel = seq_next(g, d, len);
		}
		break;
	}
	g->restart_run = 0;
	*off = g->start + rel;
	*dir = (enum nvs_dir)d;
	g->issues[d]++;
	g->last_pos[d] = *off + *len;
	g->zbytes += *len;
	g->pass_bytes += *len;
}

void offgen_draw(struct offgen *g, uint64_t *off, uint32_t *len, enum nvs_dir *dir)
{
	draw(g, off, len, dir, -1, 0);
}

bool offgen_fast_map(struct offgen *g, uint64_t *b, uint32_t *n, uint64_t *off, uint32_t *len,
		     enum nvs_dir *dir)
{
	unsigned d = g->fast_dir;
	if ((*b = randmap_next_free(g->rmap, *b)) == RANDMAP_NONE) {
		draw(g, off, len, dir, false, 0);
		return false;
	}
	uint64_t rel = *b * g->ba[d];
	if (rel + *n > g->len) {
		draw(g, off, len, dir, true, rel);
		return false;
	}
	mark(g, d, rel, n);
	return true;
}

void offgen_zone_reset(struct offgen *g)
{
	/* fio's fio_file_reset: the map emptied, the lfsr from its start */
	if (g->rmap)
		randmap_reset(g->rmap);
	if (g->lfsr_on)
		frand_lfsr_reset(&g->lfsr);
}

/* fio's random_distribution: zoned, or zipf/pareto/normal over ranges
 * of the smallest block size (fio's __init_rand_distribution). */
static void dist_init(struct offgen *g, const struct spec *s, uint64_t len)
{
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
		}
		offgen_dist_seed(g, s, NULL, 1);
	}
}

/* fio's min_bs/max_bs per direction and its bssplit list in fio's order. */
static void bs_order(struct offgen *g, const struct spec *s)
{
	for (unsigned d = 0; d < 2; d++) {
		/* fio's min_bs/max_bs per direction, and its bssplit list in
		 * fio's order: by weight, ties as written (fio's qsort) */
		unsigned n = 0;
		g->minbs[d] = UINT32_MAX;
		for (unsigned i = 0; i < s->nbs; i++) {
			unsigned w = d ? s->bs[i].wweight : s->bs[i].weight;
			if (!w)
				continue;
			unsigned k = n++;
			for (; k > 0 && g->bs_w[d][k - 1] > w; k--) {
				g->bs_w[d][k] = g->bs_w[d][k - 1];
				g->bs_ord[d][k] = g->bs_ord[d][k - 1];
			}
			g->bs_w[d][k] = (uint8_t)w;
			g->bs_ord[d][k] = (uint8_t)i;
			if (s->bs[i].bs < g->minbs[d])
				g->minbs[d] = s->bs[i].bs;
			if (s->bs[i].bs > g->maxbs[d])
				g->maxbs[d] = s->bs[i].bs;
		}
		g->bs_nord[d] = (uint8_t)n;
		if (g->rmax[d]) {
			g->minbs[d] = g->rmin[d];
			g->maxbs[d] = g->rmax[d];
		}
		if (!g->maxbs[d]) /* a direction without sizes: the other's */
			g->minbs[d] = g->maxbs[d] = s->nbs ? s->bs[0].bs : g->align;
	}
}

/* Each direction's random blocks over @maxsz bytes: fio's ba[]
 * (blockalign, by default the direction's smallest size), last_block()
 * and the random map's unit. */
static void random_blocks(struct offgen *g, const struct spec *s, uint64_t maxsz)
{
	for (unsigned d = 0; d < 2; d++) {
		g->ba[d] = s->blockalign ? s->blockalign : g->minbs[d];
		if (g->ba[d] % g->align)
			g->ba[d] = g->align;
		uint64_t m = maxsz;
		if (g->minbs[d] > g->ba[d])
			m = m > g->minbs[d] - g->ba[d] ? m - (g->minbs[d] - g->ba[d]) : 0;
		g->lastb[d] = m / g->ba[d];
		g->munit[d] = g->minbs[d];
	}
}

/* offgen_fast's case: uniform random offsets (fio's stream, no lfsr) of
 * one direction and one size, whose every drawn block ends inside the
 * region, the random map (if any) counted in that size's unit.  After
 * map_init and the lfsr's seeding: called again by offgen_init's end. */
static void fast_init(struct offgen *g)
{
	unsigned d = g->mixread ? NVS_READ : NVS_WRITE;
	g->fast_dir = (uint8_t)d;
	g->fast = g->plain && g->random && g->dist == DIST_UNIFORM && !g->lfsr_on &&
		  (g->mixread == 0 || g->mixread >= 100) && g->minbs[d] == g->maxbs[d] &&
		  g->lastb[d] && g->munit[d] == g->ba[d] && !g->trim;
	g->fast_one = g->minbs[d] == g->munit[d];
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
	g->trim = s->rw == RW_TRIM || s->rw == RW_RANDTRIM	       ? OFFGEN_TRIM
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
	dist_init(g, s, len);
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
		}
	}
	for (unsigned i = 0; i < s->nbs; i++) {
		g->bs[i] = s->bs[i].bs;
		if (g->bs[i] > len)
			return -EINVAL;
		g->npos[i] = (len - g->bs[i]) / g->align + 1;
	}
	bs_order(g, s);
	/* fio's io_size: size= larger than the region (a smaller device) */
	g->fit_len = len;
	if (!s->size_pct && !s->fileset && s->size > len && !g->zsize)
		g->fit_len = s->size;
	/* fio: randseed= turns randrepeat off (no re-seeding at a restart) */
	g->reseed = !s->randrepeat_off && !s->seed_given;
	g->time_based = s->time_based;
	g->end_on_fail = !s->time_based && !s->io_size;
	/* fio's loop: io_size bytes (a time_based job's goes on until an I/O
	 * cannot be made; strided zones: len is one zone's range, not a loop) */
	g->pass_len = s->time_based || g->zsize ? 0 : s->io_size ? s->io_size : g->fit_len;
	random_blocks(g, s, g->fit_len < len ? g->fit_len : len);
	offgen_seed(g, s, 1);
	/* no strided zones, rw=randX:N, percentage_random or sprandom: the
	 * draw skips their tests */
	g->plain = !g->zsize && g->seq_nr <= 1 && g->pct_random[0] >= 100 &&
		   g->pct_random[1] >= 100 && !s->sprandom;
	if (s->sprandom) {
		/* fio's sprandom_init: the plan replaces the random map; -EDOM:
		 * regions smaller than a block, or spr_cs larger than a region */
		return sprandom_new(&g->spr, len, g->align, s->spr_op > 0 ? s->spr_op : 0.15,
				    s->spr_regions ? s->spr_regions : 100, s->spr_cs, seed, NULL,
				    0);
	}
	int rc = map_init(g, s);
	offgen_seed(g, s, 1); /* again: the lfsr's size is known now */
	g->rng0 = g->rng;
	fast_init(g);
	return rc;
}

void offgen_seed(struct offgen *g, const struct spec *s, unsigned thread)
{
	uint64_t seeds[FRAND_NSEEDS];
	/* fio: randrepeat=0 without randseed draws the seeds from the OS
	 * (here the spec's seed, made random per run); randseed= sets them.
	 * fio 3.33 seeds before it turns randrepeat off for randseed=, so
	 * the offsets' seed stays 0xb1899bed x thread unless randrepeat=0 */
	bool repeatable = !s->randrepeat_off;
	uint64_t randseed = s->seed_given || s->randrepeat_off ? s->seed : FRAND_DEFAULT_SEED;
	/* fio switches to tausworthe64 past 2^32 blocks unless told */
	bool use64 = s->rand_taus64 ||
		     (!s->rand_gen_set && (g->lastb[0] > UINT32_MAX || g->lastb[1] > UINT32_MAX));
	struct offgen_fio *f = &g->fr;

	if (!thread)
		thread = 1;
	frand_job_seeds(seeds, randseed, thread);
	/* fio's td_fill_rand_seeds_internal: verify reads and writes alike;
	 * trims (rw=trim) their own slot; trimwrite's trims the writes' */
	uint64_t wseed = s->verify ? seeds[FRAND_BS] : seeds[FRAND_BS1];
	frand_init(&f->bs[0], seeds[FRAND_BS], use64);
	frand_init(&f->bs[1], g->trim == OFFGEN_TRIM ? seeds[FRAND_BS2] : wseed, use64);
	frand_init(&f->mix, seeds[FRAND_MIX], false);
	frand_init(&f->zone, seeds[FRAND_ZONE], false);
	frand_init(&f->off, frand_block_seed(seeds, repeatable, thread), use64);
	for (unsigned d = 0; d < 2; d++)
		frand_init(&f->seq[d], seeds[FRAND_SEQ_RAND], false);
	g->fr0 = g->fr;
	/* fio's lfsr takes the offsets' seed (a seed giving the all-ones
	 * state fails fio's job; here the stream's draws instead) */
	g->lfsr_on = g->lfsr_n && !frand_lfsr_init(&g->lfsr, g->lfsr_n,
						   frand_block_seed(seeds, repeatable, thread));
	fast_init(g);
}

void offgen_dist_seed(struct offgen *g, const struct spec *s, const char *file, unsigned thread)
{
	if (!g->dist || g->dist == DIST_ZONED)
		return;
	if (!file)
		file = "";
	if (!thread)
		thread = 1;
	/* fio's __init_rand_distribution: jhash(f->file_name) x thread_number
	 * in 32 bits; without randrepeat (randseed= turns it off) the offsets'
	 * seed, as td_fill_rand_seeds left it, truncated to fio's unsigned */
	uint32_t seed = frand_jhash(file, (uint32_t)strlen(file), 0) * thread;
	if (s->randrepeat_off || s->seed_given) {
		uint64_t seeds[FRAND_NSEEDS];
		uint64_t randseed =
		    s->seed_given || s->randrepeat_off ? s->seed : FRAND_DEFAULT_SEED;
		frand_job_seeds(seeds, randseed, thread);
		seed = (uint32_t)frand_block_seed(seeds, !s->randrepeat_off, thread);
	}
	frand_init(&g->dist_fr, seed, false);
	if (g->dist == DIST_GAUSS) {
		/* gauss_init: no draw; rand_off is fio's unsigned int, a center
		 * below 0.5 wraps it (as x86-64's conversion does) */
		g->rand_off =
		    s->dist_center < 0
			? 0
			: (uint32_t)(int64_t)((double)g->nranges * (s->dist_center - 0.5));
		return;
	}
	/* zipf/pareto's shared_rand_init: the first draw, unreduced (the sum
	 * with the block index wraps in 64 bits before % nranges) */
	g->rand_off = frand_next32(&g->dist_fr);
	if (s->dist_center >= 0)
		g->rand_off = (uint64_t)((double)g->nranges * s->dist_center);
}

/* fio's golden-ratio hash (hash.h __hash_u64): spreads the hot ranks */
static inline uint64_t hash_u64(uint64_t v)
{
	return v * 0x61C8864680B583EBULL;
}

/* fio's (double)__rand(&zs->rand) / FRAND32_MAX */
static double uni32(struct offgen *g)
{
	return (double)frand_next32(&g->dist_fr) / (double)UINT32_MAX;
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
			sum += frand_next32(&g->dist_fr) % (n + 1);
		sum = (sum + 11) / 12;
		if (g->gauss_dev) {
			int64_t dev =
			    (int64_t)((double)g->gauss_dev *
				      ((double)frand_next32(&g->dist_fr) / (UINT32_MAX + 1.0))) -
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

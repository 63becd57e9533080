/* offgen.c - set-up of the per-worker I/O generator (offgen.h). */
#include <errno.h>
#include <string.h>
#include "io/offgen.h"

int offgen_init(struct offgen *g, const struct spec *s, uint64_t start, uint64_t len,
		uint32_t align, uint64_t seed)
{
	memset(g, 0, sizeof(*g));
	g->rng = seed;
	g->start = start;
	g->len = len;
	g->align = align ? align : 512;
	g->random = s->rw == RW_RANDREAD || s->rw == RW_RANDWRITE || s->rw == RW_RANDRW;
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
	g->seq_add = s->seq_add;
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
	return 0;
}

/* offgen.c - set-up of the per-worker I/O generator (offgen.h). */
#include <errno.h>
#include <string.h>
#include "io/offgen.h"

int offgen_init(struct offgen *g, const struct spec *s, uint64_t start, uint64_t len,
		uint32_t align, uint64_t seed)
{
	unsigned k = 0;

	memset(g, 0, sizeof(*g));
	g->rng = seed;
	g->start = start;
	g->len = len;
	g->align = align ? align : 512;
	g->seq_next = start;
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
	for (unsigned i = 0; i < s->nbs; i++) {
		g->bs[i] = s->bs[i].bs;
		if (g->bs[i] > len)
			return -EINVAL;
		g->npos[i] = (len - g->bs[i]) / g->align + 1;
		for (unsigned w = 0; w < s->bs[i].weight && k < 100; w++)
			g->bs_pick[k++] = (uint8_t)i;
	}
	while (k < 100) /* rounding leftovers go to the last size */
		g->bs_pick[k++] = (uint8_t)(s->nbs - 1);
	return 0;
}

/* samplewire.c - a sample's ring form (samplewire.h).
 *
 * The pairs of part k are the non-zero buckets k * SAMPLEWIRE_PAIRS ..
 * (k + 1) * SAMPLEWIRE_PAIRS - 1 in bucket order (direction by direction):
 * packing part k walks the buckets from the start and skips the first
 * k * SAMPLEWIRE_PAIRS non-zero ones, which costs a walk of 6,144 counts
 * per part, once per interval: nothing on the I/O path. */
#include <string.h>
#include "stats/samplewire.h"

unsigned samplewire_parts(const struct sample *s)
{
	unsigned nz = 0;
	for (int d = 0; d < NVS_NDIR; d++)
		for (unsigned i = 0; i < HIST_NBUCKETS; i++)
			nz += s->dir[d].lat_bucket[i] != 0;
	return nz ? (nz + SAMPLEWIRE_PAIRS - 1) / SAMPLEWIRE_PAIRS : 1;
}

static void pack_head(const struct sample *s, struct samplewire *out)
{
	out->worker = s->worker;
	out->target = s->target;
	out->seq = s->seq;
	out->t_start_ns = s->t_start_ns;
	out->t_end_ns = s->t_end_ns;
	out->flags = s->flags;
	out->first_errno = s->first_errno;
	out->usr_ns = s->usr_ns;
	out->sys_ns = s->sys_ns;
	out->inflight = s->inflight;
	for (int d = 0; d < NVS_NDIR; d++) {
		const struct sample_dir *sd = &s->dir[d];
		out->dir[d] = (struct samplewire_dir){.ios = sd->ios,
						      .bytes = sd->bytes,
						      .errors = sd->errors,
						      .lat_n = sd->lat_n,
						      .lat_sum = sd->lat_sum,
						      .lat_min = sd->lat_min,
						      .lat_max = sd->lat_max,
						      .lat_sumsq = sd->lat_sumsq,
						      .slat_sum = sd->slat_sum};
	}
}

static void unpack_head(const struct samplewire *in, struct sample *s)
{
	s->worker = in->worker;
	s->target = in->target;
	s->seq = in->seq;
	s->t_start_ns = in->t_start_ns;
	s->t_end_ns = in->t_end_ns;
	s->flags = in->flags;
	s->first_errno = in->first_errno;
	s->usr_ns = in->usr_ns;
	s->sys_ns = in->sys_ns;
	s->inflight = in->inflight;
	for (int d = 0; d < NVS_NDIR; d++) {
		const struct samplewire_dir *w = &in->dir[d];
		struct sample_dir *sd = &s->dir[d];
		sd->ios = w->ios;
		sd->bytes = w->bytes;
		sd->errors = w->errors;
		sd->lat_n = w->lat_n;
		sd->lat_sum = w->lat_sum;
		sd->lat_min = w->lat_min;
		sd->lat_max = w->lat_max;
		sd->lat_sumsq = w->lat_sumsq;
		sd->slat_sum = w->slat_sum;
	}
}

void samplewire_pack(const struct sample *s, unsigned part, unsigned nparts, struct samplewire *out)
{
	unsigned skip = part * SAMPLEWIRE_PAIRS, n = 0;

	pack_head(s, out);
	out->part = (uint16_t)part;
	out->nparts = (uint16_t)nparts;
	for (int d = 0; d < NVS_NDIR && n < SAMPLEWIRE_PAIRS; d++)
		for (unsigned i = 0; i < HIST_NBUCKETS && n < SAMPLEWIRE_PAIRS; i++) {
			uint32_t c = s->dir[d].lat_bucket[i];
			if (!c)
				continue;
			if (skip) {
				skip--;
				continue;
			}
			out->idx[n] = (uint16_t)(d * HIST_NBUCKETS + i);
			out->cnt[n++] = c;
		}
	out->npairs = (uint16_t)n;
}

unsigned samplewire_unpack(const struct samplewire *in, struct sample *s)
{
	unsigned mask = 0;
	if (in->part == 0)
		unpack_head(in, s);
	for (unsigned k = 0; k < in->npairs && k < SAMPLEWIRE_PAIRS; k++) {
		unsigned x = in->idx[k];
		if (x >= NVS_NDIR * HIST_NBUCKETS)
			continue;
		s->dir[x / HIST_NBUCKETS].lat_bucket[x % HIST_NBUCKETS] += in->cnt[k];
		mask |= 1u << (x / HIST_NBUCKETS);
	}
	return mask;
}

void samplewire_reset(struct sample *s, unsigned mask)
{
	for (int d = 0; d < NVS_NDIR; d++)
		if (mask & (1u << d))
			memset(s->dir[d].lat_bucket, 0, sizeof(s->dir[d].lat_bucket));
}

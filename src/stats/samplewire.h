/* samplewire.h - a worker's interval sample (sample.h) as it crosses the
 * SPSC ring: the header and each direction's summary as they are, and of
 * the 3 x 2,048 latency bucket counts only those that are not zero, as
 * (index, count) pairs, in as many ring elements ("parts") as they need.
 * An interval's latencies touch a few hundred buckets at most in practice,
 * so a ring element is 6 KiB where a whole sample is 24 KiB (issue 25:
 * many targets in one console); an interval that touches more takes more
 * parts, never fewer counts.  See samplewire.c. */
#ifndef NVS_SAMPLEWIRE_H
#define NVS_SAMPLEWIRE_H

#include <stdint.h>
#include "stats/sample.h"

#define SAMPLEWIRE_PAIRS 1024 /* bucket pairs per ring element */
/* parts a sample can take: every bucket of every direction not zero */
#define SAMPLEWIRE_MAX_PARTS ((NVS_NDIR * HIST_NBUCKETS + SAMPLEWIRE_PAIRS - 1) / SAMPLEWIRE_PAIRS)

/* A direction's summary: struct sample_dir without its buckets. */
struct samplewire_dir {
	uint64_t ios, bytes, errors;
	uint64_t lat_n, lat_sum, lat_min, lat_max;
	double lat_sumsq;
	uint64_t slat_sum;
};

/* One ring element: part @part of @nparts of one sample.  The header and
 * the summaries are in every part (the first one's are used). */
struct samplewire {
	uint32_t worker, target;
	uint64_t seq, t_start_ns, t_end_ns;
	uint32_t flags;
	int32_t first_errno;
	uint64_t usr_ns, sys_ns, inflight;
	struct samplewire_dir dir[NVS_NDIR];
	uint16_t part, nparts, npairs;
	uint16_t idx[SAMPLEWIRE_PAIRS]; /* d * HIST_NBUCKETS + bucket */
	uint32_t cnt[SAMPLEWIRE_PAIRS];
};

/* Parts sample @s needs: 1 + (its non-zero buckets - 1) / SAMPLEWIRE_PAIRS
 * (1 when none). */
unsigned samplewire_parts(const struct sample *s);
/* Writes part @part (< samplewire_parts(@s)) of @s into @out. */
void samplewire_pack(const struct sample *s, unsigned part, unsigned nparts,
		     struct samplewire *out);
/* Adds part @in into @s: its header and summaries when it is the first
 * (@s's buckets must then be zero: new, or samplewire_reset), its pairs'
 * counts whichever it is.  Returns the directions whose buckets it wrote
 * (bit d). */
unsigned samplewire_unpack(const struct samplewire *in, struct sample *s);
/* Zeroes the buckets of the directions in @mask (the unpacks' returns,
 * OR'ed): what a next sample's unpack needs zero, not all 24 KiB. */
void samplewire_reset(struct sample *s, unsigned mask);

#endif

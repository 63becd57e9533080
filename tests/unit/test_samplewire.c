/* test_samplewire.c - a sample across the ring in parts (stats/samplewire.h):
 * every count arrives, whatever number of buckets the interval touched, and
 * a sample that does not fit the ring whole is dropped whole and counted. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "ring/spsc.h"
#include "stats/samplewire.h"

/* A sample with a header, summaries and @nz non-zero buckets spread over
 * the three directions (counts up to 2^32 - 1). */
static struct sample *make(unsigned nz, uint64_t seed)
{
	struct sample *s = calloc(1, sizeof(*s));
	s->worker = 3, s->target = 7, s->seq = 99, s->t_start_ns = 5, s->t_end_ns = 1000000005;
	s->flags = SAMPLE_LAST, s->first_errno = 5, s->usr_ns = 11, s->sys_ns = 12, s->inflight = 4;
	for (int d = 0; d < NVS_NDIR; d++) {
		struct sample_dir *sd = &s->dir[d];
		sd->ios = 10 + d, sd->bytes = 4096 * (10 + d), sd->errors = d, sd->lat_n = 10 + d;
		sd->lat_sum = 777, sd->lat_min = 3, sd->lat_max = 900, sd->lat_sumsq = 1.5e9;
		sd->slat_sum = 42;
	}
	unsigned all = NVS_NDIR * HIST_NBUCKETS;
	for (unsigned k = 0; k < nz; k++) {
		unsigned x = nz == all ? k : (unsigned)((k * 2654435761u + seed) % all);
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		uint32_t c = (uint32_t)(seed >> 33) | 1u;
		if (k == 0)
			c = UINT32_MAX;
		s->dir[x / HIST_NBUCKETS].lat_bucket[x % HIST_NBUCKETS] = c;
	}
	return s;
}

/* Packs @s part by part and unpacks into a zeroed sample: the same bytes. */
static void round_trip(const struct sample *s)
{
	unsigned np = samplewire_parts(s), mask = 0;
	struct samplewire *w = malloc(sizeof(*w));
	struct sample *t = calloc(1, sizeof(*t));
	ck_assert_uint_ge(np, 1);
	ck_assert_uint_le(np, SAMPLEWIRE_MAX_PARTS);
	for (unsigned k = 0; k < np; k++) {
		samplewire_pack(s, k, np, w);
		ck_assert_uint_eq(w->part, k);
		ck_assert_uint_eq(w->nparts, np);
		ck_assert_uint_le(w->npairs, SAMPLEWIRE_PAIRS);
		mask |= samplewire_unpack(w, t);
	}
	ck_assert_int_eq(memcmp(s, t, sizeof(*s)), 0);
	samplewire_reset(t, mask);
	for (int d = 0; d < NVS_NDIR; d++)
		for (unsigned i = 0; i < HIST_NBUCKETS; i++)
			ck_assert_uint_eq(t->dir[d].lat_bucket[i], 0);
	free(t);
	free(w);
}

START_TEST(test_round_trip)
{
	static const unsigned nz[] = {
	    0, 1, 300, SAMPLEWIRE_PAIRS, SAMPLEWIRE_PAIRS + 1, 4000, NVS_NDIR * HIST_NBUCKETS};
	for (unsigned i = 0; i < sizeof(nz) / sizeof(nz[0]); i++) {
		struct sample *s = make(nz[i], 17 + i);
		round_trip(s);
		free(s);
	}
}
END_TEST

START_TEST(test_parts)
{
	struct sample *s = make(0, 1);
	ck_assert_uint_eq(samplewire_parts(s), 1);
	free(s);
	s = make(NVS_NDIR * HIST_NBUCKETS, 1);
	ck_assert_uint_eq(samplewire_parts(s), SAMPLEWIRE_MAX_PARTS);
	free(s);
}
END_TEST

/* A record of several elements goes in whole or not at all. */
START_TEST(test_ring_all_or_none)
{
	struct spsc *r = spsc_new(sizeof(struct samplewire), 8);
	struct samplewire *w = calloc(1, sizeof(*w));
	for (int k = 0; k < 3; k++)
		ck_assert_int_eq(spsc_push(r, w), 0);
	ck_assert(spsc_room(r, 5));
	ck_assert(!spsc_room(r, 6));
	spsc_drop(r);
	ck_assert_uint_eq(spsc_dropped(r), 1);
	ck_assert_uint_eq(spsc_count(r), 3);
	/* filled in place: the consumer sees it only once published */
	for (int k = 3; k < 8; k++) {
		struct samplewire *slot = spsc_reserve(r);
		ck_assert_ptr_nonnull(slot);
		slot->seq = (uint64_t)k;
		ck_assert_uint_eq(spsc_count(r), (unsigned)k);
		spsc_publish(r);
	}
	ck_assert_ptr_null(spsc_reserve(r));
	for (int k = 0; k < 8; k++) {
		const struct samplewire *e = spsc_peek(r);
		ck_assert_ptr_nonnull(e);
		if (k >= 3)
			ck_assert_uint_eq(e->seq, (uint64_t)k);
		spsc_release(r);
	}
	ck_assert_ptr_null(spsc_peek(r));
	free(w);
	spsc_free(r);
}
END_TEST

Suite *samplewire_suite(void)
{
	Suite *s = suite_create("samplewire");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_parts);
	tcase_add_test(tc, test_ring_all_or_none);
	suite_add_tcase(s, tc);
	return s;
}

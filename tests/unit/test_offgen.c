/* test_offgen.c - offsets in bounds and aligned; mix and bssplit ratios. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include "io/core/offgen.h"

static struct spec base(const char *rw)
{
	struct spec s;
	char err[128];
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", rw, err, sizeof(err)), 0);
	return s;
}

/* distinct blocks over @passes passes of @n blocks of 4k; *@dup: repeats
 * inside the first pass */
static uint64_t distinct(struct spec *s, uint64_t n, unsigned passes, uint64_t *dup, uint64_t seed)
{
	static uint8_t seen[1 << 16];
	struct offgen g;
	uint64_t cnt = 0, bad = 0;

	ck_assert_uint_le(n, sizeof(seen));
	memset(seen, 0, sizeof(seen));
	*dup = 0;
	ck_assert_int_eq(offgen_init(&g, s, 1 << 20, n * 4096, 4096, seed), 0);
	for (uint64_t i = 0; i < n * passes; i++) {
		uint64_t off;
		uint32_t l;
		enum nvs_dir d;
		offgen_next(&g, &off, &l, &d);
		uint64_t b = off >= (1 << 20) ? (off - (1 << 20)) / 4096 : n;
		/* counted, asserted once below (a ck_assert per draw is slow) */
		if (off < (1 << 20) || off % 4096 || l != 4096 || b >= n) {
			bad++;
			continue;
		}
		if (seen[b] == 0)
			cnt++;
		else if (i < n)
			(*dup)++;
		seen[b]++;
	}
	ck_assert_uint_eq(bad, 0);
	for (uint64_t b = 0; b < n && passes > 1 && !s->norandommap; b++)
		bad += seen[b] != passes; /* every pass covers every block */
	ck_assert_uint_eq(bad, 0);
	offgen_free(&g);
	return cnt;
}

/* fio's random map: a randwrite pass over N blocks issues every block once
 * (shared by reads and writes on randrw); norandommap=1 draws with
 * replacement (~63% of the blocks in one pass) */
START_TEST(test_random_map_every_block_once)
{
	static const uint64_t ns[] = {1, 2, 3, 4096, 4097, 50000};
	char err[128];
	uint64_t dup;

	for (unsigned i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		struct spec s = base("randwrite");
		ck_assert_uint_eq(distinct(&s, ns[i], 1, &dup, 7 + i), ns[i]);
		ck_assert_uint_eq(dup, 0);
		ck_assert_uint_eq(distinct(&s, ns[i], 3, &dup, 7 + i), ns[i]);
	}
	struct spec s = base("randrw");
	ck_assert_uint_eq(distinct(&s, 4096, 1, &dup, 1), 4096);
	ck_assert_int_eq(opt_set(&s, "random_generator", "lfsr", err, sizeof(err)), 0);
	ck_assert_uint_eq(distinct(&s, 4096, 1, &dup, 1), 4096);
	ck_assert_int_ne(opt_set(&s, "random_generator", "mt", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "norandommap", "1", err, sizeof(err)), 0);
	/* fio's lfsr needs no map: every block once even with norandommap */
	ck_assert_uint_eq(distinct(&s, 4096, 1, &dup, 1), 4096);
	ck_assert_int_eq(opt_set(&s, "random_generator", "tausworthe", err, sizeof(err)), 0);
	uint64_t c = distinct(&s, 4096, 1, &dup, 1);
	ck_assert(c > 4096 * 55 / 100 && c < 4096 * 70 / 100);
	/* uniform order: each half of the pass touches both halves of the region */
	s = base("randread");
	struct offgen g;
	ck_assert_int_eq(offgen_init(&g, &s, 0, 4096 * 4096, 4096, 3), 0);
	uint64_t low = 0;
	for (int i = 0; i < 2048; i++) {
		uint64_t off;
		uint32_t l;
		enum nvs_dir d;
		offgen_next(&g, &off, &l, &d);
		low += off < 2048 * 4096;
	}
	ck_assert(low > 900 && low < 1150);
	offgen_free(&g);
	/* fio's thread number keys the order (randrepeat): two threads, two
	 * orders */
	struct offgen a, b;
	ck_assert_int_eq(offgen_init(&a, &s, 0, 4096 * 4096, 4096, 3), 0);
	ck_assert_int_eq(offgen_init(&b, &s, 0, 4096 * 4096, 4096, 3), 0);
	offgen_seed(&b, &s, 2);
	unsigned same = 0;
	for (int i = 0; i < 64; i++) {
		uint64_t o1, o2;
		uint32_t l;
		enum nvs_dir d;
		offgen_next(&a, &o1, &l, &d);
		offgen_next(&b, &o2, &l, &d);
		same += o1 == o2;
	}
	ck_assert_uint_lt(same, 4);
	offgen_free(&a);
	offgen_free(&b);
}
END_TEST

START_TEST(test_random_bounds_alignment)
{
	struct spec s = base("randread");
	struct offgen g;
	char err[128];
	const uint64_t start = 1 << 20, len = (64 << 20) + 512;

	ck_assert_int_eq(opt_set(&s, "bssplit", "512/20:4k/30:128k/50", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, start, len, 4096, 1), 0);
	uint64_t lo = UINT64_MAX, hi = 0, bad = 0;
	/* count violations, assert once: ck_assert per call is slow in a loop */
	for (int i = 0; i < 200000; i++) {
		uint64_t off;
		uint32_t l;
		enum nvs_dir d;
		offgen_next(&g, &off, &l, &d);
		bad += off % 4096 != 0 || off < start || off + l > start + len || d != NVS_READ;
		if (off < lo)
			lo = off;
		if (off + l > hi)
			hi = off + l;
	}
	ck_assert_uint_eq(bad, 0);
	/* uniform: both ends of the region are reached */
	ck_assert_uint_lt(lo, start + (1 << 20));
	ck_assert_uint_gt(hi, start + len - (1 << 20));
	offgen_free(&g);
}
END_TEST

START_TEST(test_mix_and_bssplit_ratios)
{
	struct spec s = base("randrw");
	struct offgen g;
	char err[128];
	unsigned counts[3] = {0}, reads = 0;
	const int n = 300000;

	ck_assert_int_eq(opt_set(&s, "rwmixread", "70", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bssplit", "4k/10:8k/60:64k/30", err, sizeof(err)), 0);
	/* the drawn sizes: fio's random map would cut some (test_randmap.c) */
	ck_assert_int_eq(opt_set(&s, "norandommap", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1ULL << 30, 4096, 99), 0);
	for (int i = 0; i < n; i++) {
		uint64_t off;
		uint32_t l;
		enum nvs_dir d;
		offgen_next(&g, &off, &l, &d);
		reads += d == NVS_READ;
		counts[l == 4096 ? 0 : l == 8192 ? 1 : 2]++;
	}
	ck_assert_double_eq_tol((double)reads / n, 0.70, 0.01);
	ck_assert_double_eq_tol((double)counts[0] / n, 0.10, 0.01);
	ck_assert_double_eq_tol((double)counts[1] / n, 0.60, 0.01);
	ck_assert_double_eq_tol((double)counts[2] / n, 0.30, 0.01);
}
END_TEST

START_TEST(test_sequential_wraps)
{
	struct spec s = base("write");
	struct offgen g;
	uint64_t off;
	uint32_t l;
	enum nvs_dir d;

	ck_assert_int_eq(offgen_init(&g, &s, 8192, 4 * 4096 + 100, 4096, 1), 0);
	for (int i = 0; i < 9; i++) {
		offgen_next(&g, &off, &l, &d);
		ck_assert_uint_eq(off, 8192 + (uint64_t)(i % 4) * 4096);
		ck_assert_int_eq(d, NVS_WRITE);
	}
	ck_assert_uint_eq(g.wraps, 2);
}
END_TEST

START_TEST(test_region_too_small)
{
	struct spec s = base("randread");
	struct offgen g;
	char err[128];
	ck_assert_int_eq(opt_set(&s, "bs", "128k", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 64 * 1024, 4096, 1), -EINVAL);
}
END_TEST

/* fio's random_distribution=zoned:50/5:30/15:20/ (rand-zones.fio): half the
 * offsets in the first 5% of the region, 30% in the next 15%, 20% in the
 * rest (the missing size); a per-direction list; bad lists refused. */
START_TEST(test_zoned_distribution)
{
	struct spec s = base("randrw");
	struct offgen g;
	char err[256];
	uint64_t len = 1ULL << 30, off;
	unsigned n[2][3] = {{0}}, total[2] = {0}, outside = 0;
	uint32_t l;
	enum nvs_dir d;

	ck_assert_int_eq(
	    opt_set(&s, "random_distribution", "zoned:50/5:30/15:20/", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 4096, len, 4096, 7), 0);
	for (int i = 0; i < 200000; i++) {
		offgen_next(&g, &off, &l, &d);
		/* counted, asserted once below: a ck_assert per draw is a
		 * write to Check's pipe each (seconds for 200,000) */
		outside += off < 4096 || off + l > 4096 + len;
		double at = (double)(off - 4096) / (double)len;
		n[d][at < 0.05 ? 0 : at < 0.20 ? 1 : 2]++;
		total[d]++;
	}
	ck_assert_uint_eq(outside, 0);
	for (int k = 0; k < 2; k++) {
		ck_assert_double_eq_tol(100.0 * n[k][0] / total[k], 50, 1);
		ck_assert_double_eq_tol(100.0 * n[k][1] / total[k], 30, 1);
		ck_assert_double_eq_tol(100.0 * n[k][2] / total[k], 20, 1);
	}
	/* reads zoned, writes uniform (an empty write list) */
	ck_assert_int_eq(
	    opt_set(&s, "random_distribution", "zoned:90/10:10/90,", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, len, 4096, 9), 0);
	memset(n, 0, sizeof(n));
	memset(total, 0, sizeof(total));
	for (int i = 0; i < 200000; i++) {
		offgen_next(&g, &off, &l, &d);
		n[d][(double)off / (double)len < 0.10 ? 0 : 1]++;
		total[d]++;
	}
	ck_assert_double_eq_tol(100.0 * n[NVS_READ][0] / total[NVS_READ], 90, 1);
	ck_assert_double_eq_tol(100.0 * n[NVS_WRITE][0] / total[NVS_WRITE], 10, 1);
	const char *bad[] = {
	    "zoned:50/5:30/15", "zoned:60/50:60/50",  "zoned:50/70:50/70", "zoned:x/5:100/",
	    "zoned:",		"zoned_abs:50/1g:50/"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(opt_set(&s, "random_distribution", bad[i], err, sizeof(err)),
				 -EINVAL);
}
END_TEST

/* rw=read:-8k (backwards-read.fio): fio 3.33's offsets, from its
 * write_iolog on a 64k region at offset 0 and at offset 16k. */
START_TEST(test_backwards)
{
	struct spec s = base("read:-8k");
	struct offgen g;
	uint64_t off;
	uint32_t l;
	enum nvs_dir d;
	static const unsigned at0[] = {0,  56, 52, 48, 44, 40, 36, 32, 28,
				       24, 20, 16, 12, 8,  4,  0,  56};
	static const unsigned at16[] = {56, 52, 48, 44, 40, 36, 32, 28,
					24, 20, 16, 72, 68, 64, 60, 56};

	ck_assert(s.seq_back);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 64 * 1024, 4096, 1), 0);
	for (size_t i = 0; i < sizeof(at0) / sizeof(at0[0]); i++) {
		offgen_next(&g, &off, &l, &d);
		ck_assert_uint_eq(off, at0[i] * 1024ULL);
	}
	ck_assert_int_eq(offgen_init(&g, &s, 16 * 1024, 64 * 1024, 4096, 1), 0);
	for (size_t i = 0; i < sizeof(at16) / sizeof(at16[0]); i++) {
		offgen_next(&g, &off, &l, &d);
		ck_assert_uint_eq(off, at16[i] * 1024ULL);
	}
}
END_TEST

Suite *offgen_suite(void)
{
	Suite *s = suite_create("offgen");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_random_bounds_alignment);
	tcase_add_test(tc, test_mix_and_bssplit_ratios);
	tcase_add_test(tc, test_sequential_wraps);
	tcase_add_test(tc, test_region_too_small);
	tcase_add_test(tc, test_zoned_distribution);
	tcase_add_test(tc, test_backwards);
	tcase_add_test(tc, test_random_map_every_block_once);
	suite_add_tcase(s, tc);
	return s;
}

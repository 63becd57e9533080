/* test_offgen.c - offsets in bounds and aligned; mix and bssplit ratios. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include "io/offgen.h"

static struct spec base(const char *rw)
{
	struct spec s;
	char err[128];
	spec_init(&s);
	ck_assert_int_eq(spec_set(&s, "rw", rw, err, sizeof(err)), 0);
	return s;
}

START_TEST(test_random_bounds_alignment)
{
	struct spec s = base("randread");
	struct offgen g;
	char err[128];
	const uint64_t start = 1 << 20, len = (64 << 20) + 512;

	ck_assert_int_eq(spec_set(&s, "bssplit", "512/20:4k/30:128k/50", err, sizeof(err)), 0);
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
}
END_TEST

START_TEST(test_mix_and_bssplit_ratios)
{
	struct spec s = base("randrw");
	struct offgen g;
	char err[128];
	unsigned counts[3] = {0}, reads = 0;
	const int n = 300000;

	ck_assert_int_eq(spec_set(&s, "rwmixread", "70", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_set(&s, "bssplit", "4k/10:8k/60:64k/30", err, sizeof(err)), 0);
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
	ck_assert_int_eq(spec_set(&s, "bs", "128k", err, sizeof(err)), 0);
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
	unsigned n[2][3] = {{0}}, total[2] = {0};
	uint32_t l;
	enum nvs_dir d;

	ck_assert_int_eq(spec_set(&s, "random_distribution", "zoned:50/5:30/15:20/", err,
				  sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 4096, len, 4096, 7), 0);
	for (int i = 0; i < 200000; i++) {
		offgen_next(&g, &off, &l, &d);
		ck_assert_uint_ge(off, 4096);
		ck_assert_uint_le(off + l, 4096 + len);
		double at = (double)(off - 4096) / (double)len;
		n[d][at < 0.05 ? 0 : at < 0.20 ? 1 : 2]++;
		total[d]++;
	}
	for (int k = 0; k < 2; k++) {
		ck_assert_double_eq_tol(100.0 * n[k][0] / total[k], 50, 1);
		ck_assert_double_eq_tol(100.0 * n[k][1] / total[k], 30, 1);
		ck_assert_double_eq_tol(100.0 * n[k][2] / total[k], 20, 1);
	}
	/* reads zoned, writes uniform (an empty write list) */
	ck_assert_int_eq(spec_set(&s, "random_distribution", "zoned:90/10:10/90,", err,
				  sizeof(err)), 0);
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
	const char *bad[] = {"zoned:50/5:30/15", "zoned:60/50:60/50", "zoned:50/70:50/70",
			     "zoned:x/5:100/", "zoned:", "zoned_abs:50/1g:50/"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(spec_set(&s, "random_distribution", bad[i], err, sizeof(err)),
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
	static const unsigned at0[] = {0, 56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 0, 56};
	static const unsigned at16[] = {56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 72, 68, 64, 60, 56};

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
	suite_add_tcase(s, tc);
	return s;
}

/* test_zones.c - fio's zonemode=strided: the options (NaN, overflow, zbd
 * accepted) and the offsets, sequential and random within the zones. */
#include <check.h>
#include <errno.h>
#include <string.h>
#include "io/core/offgen.h"
#include "io/core/randmap.h"
#include "io/feat/zones.h"

static struct spec zspec(const char *rw, const char *size, const char *range, const char *skip)
{
	struct spec s;
	char err[160];
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", rw, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "zonemode", "strided", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bs", "4k", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "zonesize", size, err, sizeof(err)), 0);
	if (range)
		ck_assert_int_eq(opt_set(&s, "zonerange", range, err, sizeof(err)), 0);
	if (skip)
		ck_assert_int_eq(opt_set(&s, "zoneskip", skip, err, sizeof(err)), 0);
	return s;
}

START_TEST(test_options)
{
	struct spec s;
	char err[160];
	spec_init(&s);
	const char *bad[] = {"nan", "inf", "-4k", "99999999999999999999999", "2z", "", "1e400"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(opt_set(&s, "zonesize", bad[i], err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "zoneskip", "nan", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "zonerange", "inf", err, sizeof(err)), -EINVAL);
	/* zbd: emulated zones (io/feat/zbd.h, tests/unit/test_zbd.c) */
	ck_assert_int_eq(opt_set(&s, "zonemode", "zbd", err, sizeof(err)), 0);
	ck_assert_int_eq(s.zone_mode, SPEC_ZONE_ZBD);
	ck_assert_int_eq(opt_set(&s, "zonemode", "none", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "zonemode", "bogus", err, sizeof(err)), -EINVAL);
	/* fio 3.33's init.c: zonemode is none unless set; none excludes a
	 * zonesize, strided needs one */
	ck_assert_int_eq(opt_set(&s, "zonesize", "1m", err, sizeof(err)), 0);
	ck_assert_int_eq(zones_spec_validate(&s, err, sizeof(err)), -EINVAL);
	s.zone_size = 0;
	ck_assert_int_eq(opt_set(&s, "zonemode", "strided", err, sizeof(err)), 0);
	ck_assert_int_eq(zones_spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "zonesize", "1m", err, sizeof(err)), 0);
	ck_assert_int_eq(zones_spec_validate(&s, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "zonemode", "none", err, sizeof(err)), 0);
	ck_assert_int_eq(zones_spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "zonemode", "strided", err, sizeof(err)), 0);
	s.fileset = true; /* fio drops strided zones with several files */
	ck_assert_int_eq(zones_spec_validate(&s, err, sizeof(err)), -EINVAL);
	s.fileset = false;
	ck_assert_int_eq(opt_set(&s, "zoneskip", "1000", err, sizeof(err)), 0);
	ck_assert_int_eq(zones_spec_validate(&s, err, sizeof(err)), -EINVAL);
}
END_TEST

/* zonesize 8k of zonerange 16k (default: = zonesize), skip 16k: fio's
 * file_offset += zonerange + zoneskip after each zonesize bytes */
START_TEST(test_sequential)
{
	struct spec s = zspec("read", "8k", NULL, "16k");
	struct offgen g;
	uint64_t off, base = 1 << 20;
	uint32_t l;
	enum nvs_dir d;

	/* region 96k: zones at 0, 24k, 48k, 72k, then the start again */
	ck_assert_int_eq(offgen_init(&g, &s, base, 96 * 1024, 4096, 1), 0);
	const uint64_t want[] = {0, 4, 24, 28, 48, 52, 72, 76, 0, 4, 24};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		offgen_next(&g, &off, &l, &d);
		ck_assert_uint_eq(off, base + want[i] * 1024);
		ck_assert_uint_eq(l, 4096);
	}
	ck_assert_uint_eq(g.wraps, 0); /* size, not a wrap, ends the job */
}
END_TEST

/* zonesize 16k > zonerange 8k: the zone is done twice (fio keeps the zone
 * until zone_bytes reaches zonesize) */
START_TEST(test_size_over_range)
{
	struct spec s = zspec("write", "16k", "8k", "8k");
	struct offgen g;
	uint64_t off;
	uint32_t l;
	enum nvs_dir d;

	ck_assert_int_eq(offgen_init(&g, &s, 0, 64 * 1024, 4096, 1), 0);
	const uint64_t want[] = {0, 4, 0, 4, 16, 20, 16, 20, 32};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		offgen_next(&g, &off, &l, &d);
		ck_assert_uint_eq(off, want[i] * 1024);
	}
}
END_TEST

/* random within the zone: every offset in [zone, zone + zonerange), the
 * random map visiting each block of a zone once (zonesize = zonerange) */
START_TEST(test_random)
{
	struct spec s = zspec("randread", "64k", NULL, "192k");
	struct offgen g;
	uint64_t off;
	uint32_t l;
	enum nvs_dir d;

	ck_assert_int_eq(offgen_init(&g, &s, 4096, 1024 * 1024, 4096, 5), 0);
	for (unsigned z = 0; z < 12; z++) {
		uint64_t zs = 4096 + (uint64_t)(z % 4) * 256 * 1024;
		unsigned seen = 0;
		for (unsigned i = 0; i < 16; i++) {
			offgen_next(&g, &off, &l, &d);
			ck_assert_uint_ge(off, zs);
			ck_assert_uint_le(off + l, zs + 64 * 1024);
			ck_assert_uint_eq((off - 4096) % 4096, 0);
			seen |= 1u << ((off - zs) / 4096);
		}
		ck_assert_uint_eq(seen, 0xffff);
	}
	offgen_free(&g);
}
END_TEST

/* mixed sizes (fio's bitmap map): the map starts empty in each zone */
START_TEST(test_random_bssplit_map_reset)
{
	struct spec s = zspec("randread", "32k", "64k", NULL);
	char err[160];
	struct offgen g;
	uint64_t off, zbytes = 0, zs = 0;
	uint32_t l;
	enum nvs_dir d;

	ck_assert_int_eq(opt_set(&s, "bssplit", "4k/50:8k/50", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 256 * 1024, 4096, 3), 0);
	ck_assert_ptr_nonnull(g.rmap);
	for (int i = 0; i < 200; i++) {
		bool first = zbytes >= 32 * 1024;
		if (first) {
			zbytes = 0;
			zs = (zs + 64 * 1024) % (256 * 1024);
		}
		offgen_next(&g, &off, &l, &d);
		ck_assert_uint_ge(off, zs);
		ck_assert_uint_le(off + l, zs + 64 * 1024);
		if (first)
			ck_assert_uint_eq(randmap_nset(g.rmap), l / 4096);
		zbytes += l;
	}
	offgen_free(&g);
}
END_TEST

Suite *zones_suite(void)
{
	Suite *su = suite_create("zones");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_sequential);
	tcase_add_test(tc, test_size_over_range);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_random_bssplit_map_reset);
	suite_add_tcase(su, tc);
	return su;
}

/* test_randmap.c - fio's random map with mixed block sizes: the bitmap
 * (io/core/randmap.h) and the generator's use of it (offgen_mapped): every
 * smallest-size block covered exactly once per pass, sizes cut at blocks
 * done before (so sizes the bssplit does not list), a new pass after a
 * full one. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "io/core/offgen.h"
#include "io/core/randmap.h"

START_TEST(test_bitmap)
{
	/* three levels: 64^2 < n < 64^3, and a partial last word */
	const uint64_t n = 64 * 64 * 3 + 70;
	struct randmap *m = randmap_new(n);

	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_null(randmap_new(0));
	ck_assert_uint_eq(randmap_next_free(m, 5), 5);
	ck_assert_uint_eq(randmap_set_run(m, 5, 3), 3);
	ck_assert_uint_eq(randmap_next_free(m, 5), 8);
	/* a run stops before a block already set */
	ck_assert_uint_eq(randmap_set_run(m, 2, 10), 3);
	ck_assert_uint_eq(randmap_next_free(m, 0), 0);
	/* a run across words, then stopped at the map's end */
	ck_assert_uint_eq(randmap_set_run(m, 60, 200), 200);
	ck_assert_uint_eq(randmap_set_run(m, n - 4, 64), 4);
	ck_assert_uint_eq(randmap_nset(m), 3 + 3 + 200 + 4);
	/* next free wraps to the start */
	ck_assert_uint_eq(randmap_next_free(m, n - 2), 0);
	/* fill all but one block far away: the search finds it through the levels */
	uint64_t hole = 64 * 64 * 2 + 17;
	for (uint64_t b = 0; b < n; b++)
		if (b != hole)
			randmap_set_run(m, b, 1);
	ck_assert_uint_eq(randmap_nset(m), n - 1);
	ck_assert_uint_eq(randmap_next_free(m, 3), hole);
	ck_assert_uint_eq(randmap_next_free(m, hole + 1), hole);
	ck_assert_uint_eq(randmap_set_run(m, hole, 5), 1);
	ck_assert_uint_eq(randmap_next_free(m, 0), RANDMAP_NONE);
	randmap_reset(m);
	ck_assert_uint_eq(randmap_nset(m), 0);
	ck_assert_uint_eq(randmap_next_free(m, n - 1), n - 1);
	randmap_free(m);
}
END_TEST

/* one pass of a bssplit job over @nblk 4k blocks: each block once */
static void one_pass(const char *rw, const char *bssplit, uint64_t nblk, uint64_t seed)
{
	struct spec s;
	struct offgen g;
	char err[128];
	const uint64_t start = 1 << 20, len = nblk * 4096;
	uint8_t *cov = calloc(nblk, 1);
	uint64_t bytes = 0, ios = 0, cut = 0;

	ck_assert_ptr_nonnull(cov);
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", rw, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bssplit", bssplit, err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, start, len, 4096, seed), 0);
	ck_assert_ptr_nonnull(g.rmap);
	ck_assert(!g.lfsr_on); /* not lfsr */
	while (bytes < len) {
		uint64_t off;
		uint32_t l;
		enum nvs_dir d;
		offgen_next(&g, &off, &l, &d);
		ck_assert(off >= start && off % 4096 == 0 && l % 4096 == 0 && l > 0);
		ck_assert_uint_le(off + l, start + len);
		for (uint64_t b = (off - start) / 4096; b < (off - start + l) / 4096; b++)
			cov[b]++;
		cut += l != 4096 && l != 16384 && l != 65536;
		bytes += l;
		ios++;
	}
	ck_assert_uint_eq(bytes, len); /* the pass ends exactly at the region's size */
	uint64_t bad = 0;
	for (uint64_t b = 0; b < nblk; b++)
		bad += cov[b] != 1;
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_eq(g.map_passes, 0);
	/* cut sizes (8k, 12k, 20k...) exist: sizes the bssplit does not list */
	ck_assert_uint_gt(cut, ios / 50);
	/* the next I/O starts fio's next loop (io_size bytes done): the map
	 * emptied, the streams re-seeded */
	uint64_t off;
	uint32_t l;
	enum nvs_dir d;
	offgen_next(&g, &off, &l, &d);
	ck_assert_uint_eq(g.loops, 1);
	ck_assert_uint_eq(randmap_nset(g.rmap), (l + 4095) / 4096);
	offgen_free(&g);
	free(cov);
}

START_TEST(test_bssplit_every_block_once)
{
	one_pass("randwrite", "4k/50:16k/30:64k/20", 4096, 1);
	one_pass("randrw", "4k/50:16k/30:64k/20", 3000 + 7, 2);
	one_pass("randread", "64k/80:4k/20", 1 << 14, 3);
}
END_TEST

START_TEST(test_cut_at_done_block)
{
	struct spec s;
	struct offgen g;
	char err[128];

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", "randwrite", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bssplit", "4k/1:64k/99", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 64 * 4096, 4096, 5), 0);
	/* every other block done: each I/O is cut to one 4k block */
	for (uint64_t b = 0; b < 64; b += 2)
		ck_assert_uint_eq(randmap_set_run(g.rmap, b, 1), 1);
	for (int i = 0; i < 32; i++) {
		uint64_t off;
		uint32_t l;
		enum nvs_dir d;
		offgen_next(&g, &off, &l, &d);
		ck_assert_uint_eq(l, 4096);
		ck_assert_uint_eq(off / 4096 % 2, 1);
	}
	ck_assert_uint_eq(randmap_nset(g.rmap), 64);
	offgen_free(&g);
}
END_TEST

START_TEST(test_no_map_cases)
{
	struct spec s;
	struct offgen g;
	char err[128];

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", "randread", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bssplit", "4k/50:8k/50", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "norandommap", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	ck_assert_ptr_null(g.rmap); /* norandommap: with replacement */
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", "randread", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	ck_assert_ptr_nonnull(g.rmap); /* one size: fio's map too */
	ck_assert_uint_eq(randmap_nbits(g.rmap), 256);
	ck_assert(!g.lfsr_on);
	offgen_free(&g);
	ck_assert_int_eq(opt_set(&s, "random_generator", "lfsr", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	ck_assert_ptr_null(g.rmap); /* lfsr: no map, fio's lfsr of 256 values */
	ck_assert(g.lfsr_on);
	ck_assert_uint_eq(g.lfsr_n, 256);
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", "randread", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bsrange", "4k-16k", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	ck_assert_ptr_nonnull(g.rmap); /* bsrange: the bitmap */
	ck_assert_uint_eq(randmap_nbits(g.rmap), 256);
	offgen_free(&g);
	/* bs=4k,16k: fio's map of 4k blocks (rw_min_bs counts the read's
	 * size even on randwrite), writes drawing and marking 16k units */
	ck_assert_int_eq(opt_set(&s, "rw", "randrw", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bs", "4k,16k", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	ck_assert_ptr_nonnull(g.rmap);
	ck_assert_uint_eq(randmap_nbits(g.rmap), 256);
	ck_assert_uint_eq(g.munit[0], 4096);
	ck_assert_uint_eq(g.munit[1], 16384);
	offgen_free(&g);
	ck_assert_int_eq(opt_set(&s, "rw", "randwrite", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	ck_assert_ptr_nonnull(g.rmap);
	offgen_free(&g);
	/* a blockalign other than a direction's smallest size: fio turns its
	 * map off */
	ck_assert_int_eq(opt_set(&s, "blockalign", "4k", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	ck_assert_ptr_null(g.rmap);
	s.blockalign = 0;
	/* per-direction bssplit with one smallest size: the bitmap */
	ck_assert_int_eq(opt_set(&s, "rw", "randrw", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bssplit", "4k/50:64k/50,4k/10:8k/90", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	ck_assert_ptr_nonnull(g.rmap);
	offgen_free(&g);
	offgen_free(&g); /* twice: harmless */
}
END_TEST

/* fio's units: with 64k reads and 1M writes on one map of 64k blocks, write
 * block b is 1M * b on the device and bit b in the map.  Writes only ever
 * draw bits below len / 1M; once those are done, the next free bit lies
 * past the last 1M block: fio's fill_io_u fails, its pass ends and starts
 * over re-seeded (randrepeat): the I/Os after a restart are the first
 * ones again.  Nothing ever passes the region's end. */
START_TEST(test_units_and_restart)
{
	struct spec s;
	struct offgen g;
	char err[128];
	enum { N = 4000 };
	static uint64_t offs[N];
	static uint32_t lens[N];
	static uint8_t dirs[N];
	const uint64_t len = 64 << 20;
	int first = -1;

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", "randrw", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bssplit", "64k/40:1024k/60,1024k/100", err, sizeof(err)),
			 0);
	/* without time_based (or io_size) fio's job ends at the failed I/O */
	ck_assert_int_eq(offgen_init(&g, &s, 0, len, 65536, 7), 0);
	for (int i = 0; i < N && g.wraps != UINT64_MAX; i++) {
		enum nvs_dir d;
		offgen_next(&g, &offs[0], &lens[0], &d);
	}
	ck_assert_uint_eq(g.wraps, UINT64_MAX);
	ck_assert_uint_eq(g.restarts, 0);
	offgen_free(&g);
	ck_assert_int_eq(opt_set(&s, "time_based", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, len, 65536, 7), 0);
	ck_assert_ptr_nonnull(g.rmap);
	ck_assert_uint_eq(g.munit[0], 65536);
	ck_assert_uint_eq(g.munit[1], 1 << 20);
	for (int i = 0; i < N; i++) {
		enum nvs_dir d;
		uint64_t before = g.restarts;
		offgen_next(&g, &offs[i], &lens[i], &d);
		dirs[i] = (uint8_t)d;
		ck_assert_uint_le(offs[i] + lens[i], len);
		if (d == NVS_WRITE) {
			ck_assert_uint_eq(offs[i] % (1 << 20), 0);
			ck_assert_uint_eq(lens[i], 1 << 20); /* one bit: never cut */
		}
		if (g.restarts > before && first < 0)
			first = i;
	}
	ck_assert_int_gt(first, 0); /* it does restart */
	for (int k = 0; k < 10 && first + k < N; k++) {
		ck_assert_uint_eq(offs[first + k], offs[k]);
		ck_assert_uint_eq(lens[first + k], lens[k]);
		ck_assert_uint_eq(dirs[first + k], dirs[k]);
	}
	offgen_free(&g);
	/* randrepeat=0: a restart goes on with the stream, no repeat */
	ck_assert_int_eq(opt_set(&s, "randrepeat", "0", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, len, 65536, 7), 0);
	for (int i = 0; i < N; i++) {
		enum nvs_dir d;
		offgen_next(&g, &offs[i], &lens[i], &d);
		ck_assert_uint_le(offs[i] + lens[i], len);
	}
	ck_assert_uint_gt(g.restarts, 0);
	offgen_free(&g);
}
END_TEST

/* size= larger than the device (fio's io_size): sizes fit io_size, not the
 * device, so an I/O that would pass the device's end restarts the pass;
 * with size= within the device it never does (time_based: without it the
 * job would end at the first). */
START_TEST(test_io_size_past_end)
{
	struct spec s;
	struct offgen g;
	char err[128];
	const uint64_t len = 16 << 20;

	for (int big = 0; big < 2; big++) {
		spec_init(&s);
		ck_assert_int_eq(opt_set(&s, "rw", "randread", err, sizeof(err)), 0);
		ck_assert_int_eq(opt_set(&s, "bssplit", "4k/60:64k/40", err, sizeof(err)), 0);
		ck_assert_int_eq(opt_set(&s, "size", big ? "4g" : "16m", err, sizeof(err)), 0);
		ck_assert_int_eq(opt_set(&s, "time_based", NULL, err, sizeof(err)), 0);
		ck_assert_int_eq(offgen_init(&g, &s, 0, len, 4096, 3), 0);
		ck_assert_uint_eq(g.fit_len, big ? 4ULL << 30 : len);
		for (int i = 0; i < 20000; i++) {
			uint64_t off;
			uint32_t l;
			enum nvs_dir d;
			offgen_next(&g, &off, &l, &d);
			ck_assert_uint_le(off + l, len);
		}
		if (big)
			ck_assert_uint_gt(g.restarts, 0);
		else
			ck_assert_uint_eq(g.restarts, 0);
		offgen_free(&g);
	}
}
END_TEST

Suite *randmap_suite(void)
{
	Suite *s = suite_create("randmap");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_bitmap);
	tcase_add_test(tc, test_bssplit_every_block_once);
	tcase_add_test(tc, test_cut_at_done_block);
	tcase_add_test(tc, test_no_map_cases);
	tcase_add_test(tc, test_units_and_restart);
	tcase_add_test(tc, test_io_size_past_end);
	suite_add_tcase(s, tc);
	return s;
}

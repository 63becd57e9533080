/* test_frand.c - fio's random streams (io/core/frand.h) and the generator's use
 * of them (io/core/offgen.h), against numbers taken from Debian's fio 3.33:
 * `fio --name=t --filename=F --rw=randread --bs=4k --number_ios=8
 * --ioengine=psync --write_iolog=L` on a 64 MiB file (and the options
 * named below), offsets / 4096 from L. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "io/core/fileset.h"
#include "io/core/frand.h"
#include "io/core/offgen.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"

/* fio 3.33, thread 1, randrepeat=1: the first 4k blocks of 16384 */
static const uint64_t taus32_t1[8] = {988, 12128, 13814, 7700, 6584, 13764, 6234, 5792};
/* numjobs=2: thread 2's first four */
static const uint64_t taus32_t2[4] = {4174, 2976, 9841, 644};
/* random_generator=tausworthe64 (norandommap), thread 1 */
static const uint64_t taus64_t1[5] = {15375, 430, 1321, 1629, 8668};

START_TEST(test_taus_streams)
{
	struct frand f;

	frand_init(&f, FRAND_RANDSEED * 1, false);
	for (int i = 0; i < 8; i++)
		ck_assert_uint_eq(frand_scale(&f, frand_next(&f), 16384), taus32_t1[i]);
	frand_init(&f, FRAND_RANDSEED * 2, false);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(frand_scale(&f, frand_next(&f), 16384), taus32_t2[i]);
	frand_init(&f, FRAND_RANDSEED * 1, true);
	for (int i = 0; i < 5; i++)
		ck_assert_uint_eq(frand_scale(&f, frand_next(&f), 16384), taus64_t1[i]);
	/* rand_between stays in its bounds, both inclusive */
	frand_init(&f, 7, false);
	unsigned seen[3] = {0};
	for (int i = 0; i < 3000; i++) {
		uint64_t v = frand_between(&f, 1, 3);
		ck_assert(v >= 1 && v <= 3);
		seen[v - 1]++;
	}
	ck_assert(seen[0] > 800 && seen[1] > 800 && seen[2] > 800);
}
END_TEST

/* fio's per-job seeds: setup_random_seeds with randseed 0x89, thread 1 */
START_TEST(test_job_seeds)
{
	uint64_t s1[FRAND_NSEEDS], s2[FRAND_NSEEDS];

	frand_job_seeds(s1, FRAND_DEFAULT_SEED, 1);
	frand_job_seeds(s2, FRAND_DEFAULT_SEED, 2);
	uint64_t seed = FRAND_DEFAULT_SEED;
	for (int i = 0; i < 4; i++)
		seed *= 0x9e370001ULL;
	ck_assert_uint_eq(s1[0], seed);
	ck_assert_uint_eq(s2[0], seed * 2);
	ck_assert_uint_eq(s1[1], seed * 0x9e370001ULL + 1);
	ck_assert_uint_eq(frand_block_seed(s1, true, 3), FRAND_RANDSEED * 3);
	ck_assert_uint_eq(frand_block_seed(s1, false, 1), s1[FRAND_BLOCK]);
}
END_TEST

/* the generator issues fio's offsets: randread 4k over 64 MiB, thread 1,
 * then thread 2 (fio's second job) */
START_TEST(test_offgen_fio_offsets)
{
	struct spec s;
	struct offgen g;
	char err[128];

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", "randread", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 64 << 20, 4096, 12345), 0);
	for (int i = 0; i < 8; i++) {
		uint64_t off;
		uint32_t l;
		enum nvs_dir d;
		offgen_next(&g, &off, &l, &d);
		ck_assert_uint_eq(off, taus32_t1[i] * 4096);
		ck_assert_uint_eq(l, 4096);
		ck_assert_int_eq(d, NVS_READ);
	}
	offgen_free(&g);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 64 << 20, 4096, 1), 0);
	offgen_seed(&g, &s, 2);
	for (int i = 0; i < 4; i++) {
		uint64_t off;
		uint32_t l;
		enum nvs_dir d;
		offgen_next(&g, &off, &l, &d);
		ck_assert_uint_eq(off, taus32_t2[i] * 4096);
	}
	offgen_free(&g);
}
END_TEST

/* fio 3.33: --rw=randrw --bssplit=4k/50:64k/30:8k
 * --random_generator=tausworthe64 --number_ios=8 over 64 MiB: direction,
 * offset and size from fio's rwmix, offset and bssplit streams */
START_TEST(test_offgen_fio_mix)
{
	static const struct {
		enum nvs_dir d;
		uint64_t off;
		uint32_t len;
	} want[8] = {{NVS_READ, 62976000, 65536}, {NVS_READ, 1761280, 65536},
		     {NVS_READ, 5410816, 4096},	  {NVS_WRITE, 6672384, 65536},
		     {NVS_READ, 35504128, 65536}, {NVS_READ, 1744896, 8192},
		     {NVS_WRITE, 29540352, 4096}, {NVS_WRITE, 22380544, 8192}};
	struct spec s;
	struct offgen g;
	char err[128];

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", "randrw", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bssplit", "4k/50:64k/30:8k", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "random_generator", "tausworthe64", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 64 << 20, 4096, 1), 0);
	for (int i = 0; i < 8; i++) {
		uint64_t off;
		uint32_t l;
		enum nvs_dir d;
		offgen_next(&g, &off, &l, &d);
		ck_assert_int_eq(d, want[i].d);
		ck_assert_uint_eq(off, want[i].off);
		ck_assert_uint_eq(l, want[i].len);
	}
	offgen_free(&g);
}
END_TEST

/* fio's jhash (hash.h, its byte-wise 12-byte loop included), values from
 * fio 3.33's own header */
START_TEST(test_jhash)
{
	static const struct {
		const char *k;
		uint32_t h;
	} want[] = {{"", 0x61c88647},
		    {"/dev/loop0", 0x57928ad3},
		    {"/tmp/nvsrng-zipf.dat", 0x584620ca},
		    {"abcdefghijkl", 0xd855beeb},
		    {"abcdefghijklm", 0x59536a0b}};
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_uint_eq(frand_jhash(want[i].k, (uint32_t)strlen(want[i].k), 0),
				  want[i].h);
}
END_TEST

/* fio 3.33: --filename=/tmp/nvsrng-zipf.dat --size=64m --rw=randread
 * --bs=4k --number_ios=8 --random_distribution=D: the file's own stream,
 * seeded by its name (offsets / 4096) */
START_TEST(test_offgen_fio_dist)
{
	static const struct {
		const char *d;
		uint64_t b[8];
	} want[] = {{"zipf:1.2", {1837, 5072, 5791, 12519, 10533, 15212, 7153, 3512}},
		    {"normal:5:0.2", {12464, 13844, 9024, 13598, 15784, 10423, 5684, 5228}},
		    {"pareto:0.9:0.7", {9828, 13148, 6789, 11819, 9512, 16182, 11147, 13218}}};
	char err[128];

	for (unsigned k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		struct spec s;
		struct offgen g;
		spec_init(&s);
		ck_assert_int_eq(opt_set(&s, "rw", "randread", err, sizeof(err)), 0);
		ck_assert_int_eq(opt_set(&s, "random_distribution", want[k].d, err, sizeof(err)),
				 0);
		ck_assert_int_eq(offgen_init(&g, &s, 0, 64 << 20, 4096, 1), 0);
		offgen_dist_seed(&g, &s, "/tmp/nvsrng-zipf.dat", 1);
		for (int i = 0; i < 8; i++) {
			uint64_t off;
			uint32_t l;
			enum nvs_dir d;
			offgen_next(&g, &off, &l, &d);
			ck_assert_uint_eq(off, want[k].b[i] * 4096);
			ck_assert_uint_eq(l, 4096);
		}
		offgen_free(&g);
	}
}
END_TEST

/* file_service_type=random: fio's next_file_state (seed slot
 * FIO_RAND_FILE_OFF of the thread) picks each I/O's file, n * u */
START_TEST(test_fileset_random)
{
	struct spec s;
	struct fileset fs;
	struct frand ref;
	uint64_t seeds[FRAND_NSEEDS], start[3] = {0, 0, 0}, len[3], limit[3] = {0, 0, 0};
	char err[128];
	unsigned bad = 0;

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", "read", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "file_service_type", "random", err, sizeof(err)), 0);
	for (int i = 0; i < 3; i++)
		len[i] = 1 << 20;
	ck_assert_int_eq(fileset_init(&fs, &s, 3, start, len, limit, 4096, 1, &bad), 0);
	fileset_seed(&fs, &s, 2);
	frand_job_seeds(seeds, FRAND_DEFAULT_SEED, 2);
	frand_init(&ref, seeds[FRAND_FILE], false);
	for (int i = 0; i < 64; i++) {
		uint64_t off;
		uint32_t l;
		enum nvs_dir d;
		unsigned f;
		ck_assert(fileset_next(&fs, 1, &off, &l, &d, &f));
		ck_assert_uint_eq(f, frand_scale(&ref, frand_next(&ref), 3));
	}
	fileset_free(&fs);
}
END_TEST

/* frand_scale's signed conversions (a 32-bit stream, n below 2^63) give
 * fio's unsigned formula's value for every r: the extremes and a stream's
 * values, n from 1 to just below 2^63 (and past it: the formula itself) */
START_TEST(test_scale_same)
{
	static const uint64_t ns[] = {1,
				      3,
				      16384,
				      4194304,
				      1ULL << 32,
				      (1ULL << 32) + 1,
				      123456789012345ULL,
				      (1ULL << 53) + 1,
				      (1ULL << 63) - 1,
				      1ULL << 63,
				      UINT64_MAX};
	struct frand f;

	frand_init(&f, 12345, false);
	for (unsigned i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		for (unsigned k = 0; k < 20000; k++) {
			uint64_t r = k == 0 ? 0 : k == 1 ? UINT32_MAX : frand_next(&f);
			uint64_t want =
			    (uint64_t)((double)ns[i] * ((double)r / ((double)frand_max(&f) + 1.0)));
			ck_assert_uint_eq(frand_scale(&f, r, ns[i]), want);
			ck_assert_uint_lt(frand_scale(&f, r, ns[i]), ns[i]);
		}
}
END_TEST

Suite *frand_suite(void)
{
	Suite *s = suite_create("frand");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_taus_streams);
	tcase_add_test(tc, test_scale_same);
	tcase_add_test(tc, test_job_seeds);
	tcase_add_test(tc, test_offgen_fio_offsets);
	tcase_add_test(tc, test_offgen_fio_mix);
	tcase_add_test(tc, test_jhash);
	tcase_add_test(tc, test_offgen_fio_dist);
	tcase_add_test(tc, test_fileset_random);
	suite_add_tcase(s, tc);
	return s;
}

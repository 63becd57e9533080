/* test_fiomean.c - fio options whose meaning nvscope had wrong (issue 13):
 * each is fio's meaning now, or refused with the reason. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/cli.h"
#include "io/core/offgen.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"

static int cmp_desc(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

static int set(struct spec *s, const char *k, const char *v, char *err)
{
	return opt_set(s, k, v, err, 256);
}

START_TEST(test_batch_complete_is_min)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	/* fio: iodepth_batch_complete is an alias of iodepth_batch_complete_min */
	ck_assert_int_eq(set(&s, "iodepth_batch_complete", "4", err), 0);
	ck_assert_uint_eq(s.batch_complete_min, 4);
	ck_assert_uint_eq(s.batch_complete, 0);
	ck_assert_int_eq(set(&s, "iodepth_batch_complete_max", "16", err), 0);
	ck_assert_uint_eq(s.batch_complete, 16);
	ck_assert_uint_eq(s.batch_complete_min, 4);
	ck_assert_int_eq(set(&s, "iodepth_batch_complete_min", "2", err), 0);
	ck_assert_uint_eq(s.batch_complete_min, 2);
}
END_TEST

START_TEST(test_rate_iops_per_direction)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	/* fio: one value limits every direction */
	ck_assert_int_eq(set(&s, "rate_iops", "1000", err), 0);
	ck_assert_uint_eq(s.rate_iops_dir[0], 1000);
	ck_assert_uint_eq(s.rate_iops_dir[1], 1000);
	ck_assert_uint_eq(s.rate_iops, 0);
	/* randrw 50/50: 1000 reads + 1000 writes a second (fio), not 500+500 */
	/* reads only: 1000 */
	/* r,w and an empty part */
	ck_assert_int_eq(set(&s, "rate_iops", "500,200", err), 0);
	ck_assert_uint_eq(s.rate_iops_dir[0], 500);
	ck_assert_uint_eq(s.rate_iops_dir[1], 200);
	ck_assert_int_eq(set(&s, "rate_iops", ",300", err), 0);
	ck_assert_uint_eq(s.rate_iops_dir[0], 0);
	ck_assert_uint_eq(s.rate_iops_dir[1], 300);
	ck_assert_int_eq(set(&s, "rate_iops", "1,2,3", err), -EINVAL); /* trim differs */
	ck_assert_int_eq(set(&s, "rate_iops", "nan", err), -EINVAL);
	ck_assert_int_eq(set(&s, "rate_iops", ",", err), -EINVAL);
	/* the plans' total across directions (vdbench iorate) is its own key */
	spec_init(&s);
	ck_assert_int_eq(set(&s, "rate_iops_total", "1000", err), 0);
	ck_assert_uint_eq(s.rate_iops, 1000);
	ck_assert_uint_eq(s.rate_iops_dir[0], 0);
	/* rate_min / rate_iops_min, and fio's refusal above the rate */
	ck_assert_int_eq(set(&s, "rate_min", "1m", err), 0);
	ck_assert_uint_eq(s.rate_min_bw[0], 1 << 20);
	ck_assert_uint_eq(s.rate_min_bw[1], 1 << 20);
	ck_assert_int_eq(set(&s, "rate_iops_min", "10,", err), 0);
	ck_assert_uint_eq(s.rate_min_iops[0], 10);
	ck_assert_uint_eq(s.rate_min_iops[1], 0);
	ck_assert_int_eq(set(&s, "rate_iops", "5", err), 0);
	ck_assert_int_eq(set(&s, "filename", "/tmp/x", err), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "never"));
	spec_init(&s);
	/* rate= bandwidth, fio's sizes */
	ck_assert_int_eq(set(&s, "rate", "1m,512k", err), 0);
	ck_assert_uint_eq(s.rate_bw_dir[0], 1 << 20);
	ck_assert_uint_eq(s.rate_bw_dir[1], 512 << 10);
}
END_TEST

START_TEST(test_iec_sizes_decimal)
{
	struct spec s;
	char err[256];

	/* checked against fio 3.33: size=4MiB writes 4,000,000 bytes (rounded up
	 * to whole blocks), size=4MB 4 MiB (kb_base=1024) */
	spec_init(&s);
	ck_assert_int_eq(set(&s, "size", "4MiB", err), 0);
	ck_assert_uint_eq(s.size, 4000000);
	ck_assert_int_eq(set(&s, "size", "4MB", err), 0);
	ck_assert_uint_eq(s.size, 4u << 20);
}
END_TEST

/* fio's filename=a:b is ONE job over both files (a file set), not one
 * worker per file (that is nvscope's --target a,b) and not refused. */
START_TEST(test_filename_list_fileset)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert_int_eq(set(&s, "filename", "/tmp/a:/tmp/b", err), 0);
	ck_assert_uint_eq(s.ntargets, 2);
	ck_assert(s.fileset);
	ck_assert_str_eq(s.targets[1], "/tmp/b");
	ck_assert_int_eq(set(&s, "filename", "/tmp/a::/tmp/b", err), -EINVAL);
	spec_init(&s);
	ck_assert_int_eq(set(&s, "filename", "/tmp/a", err), 0);
	ck_assert_uint_eq(s.ntargets, 1);
	ck_assert(!s.fileset);
	/* fio's escaped colon is part of the one path; fio does not split on ',' */
	spec_init(&s);
	ck_assert_int_eq(set(&s, "filename", "/dev/bsg/0\\:0,1", err), 0);
	ck_assert_uint_eq(s.ntargets, 1);
	ck_assert_str_eq(s.targets[0], "/dev/bsg/0:0,1");
	ck_assert(!s.fileset);
	spec_init(&s);
	ck_assert_int_eq(set(&s, "filename", "/tmp/a", err), 0);
	/* nvscope's own --target list stays one worker per target */
	ck_assert_int_eq(set(&s, "target", "/tmp/b,/tmp/c", err), 0);
	ck_assert_uint_eq(s.ntargets, 3);
	ck_assert(!s.fileset);
	/* file_service_type: fio's names and ":N" */
	ck_assert_int_eq(set(&s, "file_service_type", "random:4", err), 0);
	ck_assert_uint_eq(s.file_service, 2);
	ck_assert_uint_eq(s.file_service_nr, 4);
	ck_assert_int_eq(set(&s, "file_service_type", "sequential", err), 0);
	ck_assert_uint_eq(s.file_service, 1);
	ck_assert_uint_eq(s.file_service_nr, 1);
	ck_assert_int_eq(set(&s, "file_service_type", "zipf:1.2", err), -EINVAL);
	ck_assert_int_eq(set(&s, "file_service_type", "roundrobin:0", err), -EINVAL);
	ck_assert_int_eq(set(&s, "file_service_type", "roundrobin:x", err), -EINVAL);

	struct cli c;
	char *argv[] = {"run", "--filename=/tmp/a:/tmp/b", NULL};
	int i = 1;
	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(cli_take(&c, 2, argv, &i, err, sizeof(err)), 1);
}
END_TEST

START_TEST(test_cpus_policy_randrepeat_pcts_sched)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert(!s.cpus_split); /* fio's default: shared */
	ck_assert_int_eq(set(&s, "cpus_allowed_policy", "split", err), 0);
	ck_assert(s.cpus_split);
	ck_assert_int_eq(set(&s, "cpus_allowed_policy", "shared", err), 0);
	ck_assert(!s.cpus_split);
	ck_assert_int_eq(set(&s, "cpus_allowed_policy", "spread", err), -EINVAL);

	ck_assert(!s.randrepeat_off);
	ck_assert_int_eq(set(&s, "randrepeat", "0", err), 0);
	ck_assert(s.randrepeat_off);
	ck_assert_int_eq(set(&s, "randrepeat", "maybe", err), -EINVAL);
	ck_assert(!s.seed_given);
	ck_assert_int_eq(set(&s, "randseed", "42", err), 0);
	ck_assert(s.seed_given);

	ck_assert_int_eq(set(&s, "percentile_list", "99.9:50:99", err), 0);
	ck_assert_uint_eq(s.npct, 3);
	ck_assert_double_eq(s.pct_list[0], 50); /* sorted, as fio sorts it */
	ck_assert_double_eq(s.pct_list[2], 99.9);
	ck_assert_int_eq(set(&s, "percentile_list", "101", err), -EINVAL);
	ck_assert_int_eq(set(&s, "percentile_list", "nan", err), -EINVAL);
	ck_assert_int_eq(set(&s, "percentile_list",
			     "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21", err),
			 -EINVAL);

	ck_assert_int_eq(set(&s, "ioscheduler", "none", err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "every user"));
}
END_TEST

START_TEST(test_per_direction_sizes)
{
	struct spec s;
	struct offgen g;
	char err[256];
	unsigned seen[2][70] = {{0}};

	spec_init(&s);
	ck_assert_int_eq(set(&s, "bs", "8k,4k", err), 0);
	ck_assert_uint_eq(s.nbs, 2);
	ck_assert_uint_eq(s.bs[0].bs, 8192);
	ck_assert_uint_eq(s.bs[0].weight, 100);
	ck_assert_uint_eq(s.bs[0].wweight, 0);
	ck_assert_uint_eq(s.bs[1].wweight, 100);
	ck_assert_int_eq(set(&s, "bs", "4k", err), 0);
	ck_assert_uint_eq(s.nbs, 1);
	ck_assert_uint_eq(s.bs[0].wweight, 100);
	ck_assert_int_eq(set(&s, "bs", "4k,8k,16k", err), -EINVAL); /* trim differs */
	ck_assert_int_eq(set(&s, "bs", "4k,8k,8k", err), 0);
	/* bssplit=reads,writes */
	ck_assert_int_eq(set(&s, "bssplit", "4k/20:64k/80,8k/50:64k/50", err), 0);
	ck_assert_uint_eq(s.nbs, 3);
	ck_assert_uint_eq(s.bs[1].bs, 65536);
	ck_assert_uint_eq(s.bs[1].weight, 80);
	ck_assert_uint_eq(s.bs[1].wweight, 50);
	ck_assert_uint_eq(s.bs[2].weight, 0);
	ck_assert_int_eq(set(&s, "bssplit", "4k/20:64k/70,8k", err), -EINVAL);

	/* the generator: reads 4k/64k, writes 8k/64k (the drawn sizes: the
	 * random map would cut some, test_randmap.c) */
	ck_assert_int_eq(set(&s, "rw", "randrw", err), 0);
	ck_assert_int_eq(set(&s, "norandommap", NULL, err), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 64 << 20, 4096, 7), 0);
	for (int i = 0; i < 20000; i++) {
		uint64_t off;
		uint32_t len;
		enum nvs_dir d;
		offgen_next(&g, &off, &len, &d);
		ck_assert_uint_le(off + len, 64 << 20);
		seen[d][len / 1024 < 70 ? len / 1024 : 69]++;
	}
	ck_assert_uint_eq(seen[0][8], 0);
	ck_assert_uint_eq(seen[1][4], 0);
	ck_assert_uint_gt(seen[0][4], 0);
	ck_assert_uint_gt(seen[1][8], 0);
	ck_assert_uint_gt(seen[0][64], 3 * seen[0][4]); /* 80 : 20 */

	/* bsrange: fio's uniform multiples of min, all in range */
	ck_assert_int_eq(set(&s, "bsrange", "4k-32k", err), 0);
	ck_assert_uint_eq(s.bsrange[0][0], 4096);
	ck_assert_uint_eq(s.bsrange[1][1], 32768);
	ck_assert_int_eq(set(&s, "bsrange", "32k-4k", err), -EINVAL);
	ck_assert_int_eq(set(&s, "bsrange", "4k", err), -EINVAL);
	ck_assert_int_eq(set(&s, "bsrange", "4k-32k", err), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 64 << 20, 4096, 7), 0);
	memset(seen, 0, sizeof(seen));
	for (int i = 0; i < 16000; i++) {
		uint64_t off;
		uint32_t len;
		enum nvs_dir d;
		offgen_next(&g, &off, &len, &d);
		ck_assert_uint_eq(len % 4096, 0);
		ck_assert(len >= 4096 && len <= 32768);
		seen[0][len / 4096]++;
	}
	for (int k = 1; k <= 8; k++) /* 2000 each expected */
		ck_assert(seen[0][k] > 1700 && seen[0][k] < 2300);
	ck_assert_int_eq(set(&s, "blocksize_unaligned", NULL, err), 0);
	ck_assert(s.bs_unaligned);
	/* bs= after bsrange= replaces it */
	ck_assert_int_eq(set(&s, "bs", "4k", err), 0);
	ck_assert_uint_eq(s.bsrange[0][1], 0);
}
END_TEST

START_TEST(test_rw_modifier_and_pct_random)
{
	struct spec s;
	struct offgen g;
	char err[256];
	uint64_t off, prev = 0;
	uint32_t len;
	enum nvs_dir d;

	spec_init(&s);
	ck_assert_int_eq(set(&s, "rw", "write:4k", err), 0);
	ck_assert_int_eq(s.rw, RW_WRITE);
	ck_assert_uint_eq(s.seq_add, 4096);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	for (int i = 0; i < 5; i++) { /* 0, 8k, 16k...: a 4k hole after each */
		offgen_next(&g, &off, &len, &d);
		ck_assert_uint_eq(off, (uint64_t)i * 8192);
	}
	ck_assert_int_eq(set(&s, "rw", "randread:8", err), 0);
	ck_assert_int_eq(s.rw, RW_RANDREAD);
	ck_assert_uint_eq(s.seq_nr, 8);
	ck_assert_uint_eq(s.seq_add, 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 64 << 20, 4096, 1), 0);
	/* fio: sequential for N-1 I/Os, then a new random offset */
	unsigned jumps = 0;
	for (int i = 0; i < 800; i++) {
		offgen_next(&g, &off, &len, &d);
		if (i && off != prev + 4096)
			jumps++;
		prev = off;
	}
	ck_assert(jumps >= 90 && jumps <= 100);
	offgen_free(&g); /* fio's map */
	ck_assert_int_eq(set(&s, "rw", "randread:0", err), -EINVAL);
	ck_assert_int_eq(set(&s, "rw", "read:-4k", err), 0); /* backwards: test_offgen.c */
	ck_assert(s.seq_back);
	ck_assert_int_eq(set(&s, "rw", "read:-0", err), -EINVAL);
	ck_assert_int_eq(set(&s, "rw", "read:--4k", err), -EINVAL);
	ck_assert_int_eq(set(&s, "rw", "trimx", err), -EINVAL);
	ck_assert_int_eq(set(&s, "rw", "randrw", err), 0);
	ck_assert_uint_eq(s.seq_nr, 1);

	ck_assert_int_eq(set(&s, "percentage_random", "0", err), 0);
	ck_assert_uint_eq(s.pct_random[0], 0);
	ck_assert_int_eq(set(&s, "percentage_random", "90,10", err), 0);
	ck_assert_uint_eq(s.pct_random[0], 90);
	ck_assert_uint_eq(s.pct_random[1], 10);
	ck_assert_int_eq(set(&s, "percentage_random", "101", err), -EINVAL);

	ck_assert_int_eq(set(&s, "thinktime", "500", err), 0); /* fio: us */
	ck_assert_uint_eq(s.thinktime_ns, 500000);
	ck_assert_int_eq(set(&s, "thinktime", "2ms", err), 0);
	ck_assert_uint_eq(s.thinktime_ns, 2000000);
	ck_assert_int_eq(set(&s, "thinktime_blocks", "0", err), -EINVAL);
	ck_assert_int_eq(set(&s, "startdelay", "2", err), 0); /* fio: seconds */
	ck_assert_uint_eq(s.startdelay_ns, 2000000000ULL);
	ck_assert_int_eq(set(&s, "startdelay", "1-5", err), -EINVAL);
	ck_assert_int_eq(set(&s, "offset_increment", "1g", err), 0);
	ck_assert_uint_eq(s.offset_increment, 1ULL << 30);
	ck_assert_int_eq(set(&s, "offset_increment", "10%", err), -EINVAL);
}
END_TEST

START_TEST(test_random_distribution)
{
	struct spec s;
	struct offgen g;
	char err[256];
	unsigned hits[1024] = {0};

	spec_init(&s);
	ck_assert_int_eq(set(&s, "random_distribution", "zipf:1.2", err), 0);
	ck_assert_int_eq(s.dist, DIST_ZIPF);
	ck_assert_double_eq(s.dist_val, 1.2);
	ck_assert_int_eq(set(&s, "random_distribution", "zipf", err), 0);
	ck_assert_double_eq(s.dist_val, 1.1); /* fio's default */
	ck_assert_int_eq(set(&s, "random_distribution", "zipf:1", err), -EINVAL);
	ck_assert_int_eq(set(&s, "random_distribution", "pareto:1", err), -EINVAL);
	ck_assert_int_eq(set(&s, "random_distribution", "normal:100", err), -EINVAL);
	ck_assert_int_eq(set(&s, "random_distribution", "zipf:nan", err), -EINVAL);
	ck_assert_int_eq(set(&s, "random_distribution", "zoned:50/10:50/90", err), 0);
	ck_assert_int_eq(s.dist, DIST_ZONED); /* test_offgen.c: the shares */
	ck_assert_int_eq(set(&s, "random_distribution", "zoned_abs:50/1g:50/", err), -EINVAL);
	ck_assert_int_eq(set(&s, "random_distribution", "pareto:0.9:0.5", err), 0);
	ck_assert_double_eq(s.dist_center, 0.5);
	ck_assert_int_eq(set(&s, "random_distribution", "gauss:5", err), 0);
	ck_assert_int_eq(s.dist, DIST_GAUSS);

	/* zipf:1.2 over 1024 blocks: a hot spot (the top 10% of the blocks
	 * take most of the I/O), every offset in the region */
	ck_assert_int_eq(set(&s, "random_distribution", "zipf:1.2", err), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 1 << 20, 4 << 20, 4096, 3), 0);
	for (int i = 0; i < 20000; i++) {
		uint64_t off;
		uint32_t len;
		enum nvs_dir d;
		offgen_next(&g, &off, &len, &d);
		ck_assert_uint_ge(off, 1 << 20);
		ck_assert_uint_le(off + len, 5 << 20);
		hits[(off - (1 << 20)) / 4096]++;
	}
	qsort(hits, 1024, sizeof(hits[0]), cmp_desc);
	unsigned top = 0;
	for (int i = 0; i < 102; i++)
		top += hits[i];
	ck_assert_uint_gt(top, 20000 * 6 / 10);
}
END_TEST

Suite *fiomean_suite(void)
{
	Suite *s = suite_create("fiomean");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_batch_complete_is_min);
	tcase_add_test(tc, test_rate_iops_per_direction);
	tcase_add_test(tc, test_iec_sizes_decimal);
	tcase_add_test(tc, test_filename_list_fileset);
	tcase_add_test(tc, test_cpus_policy_randrepeat_pcts_sched);
	tcase_add_test(tc, test_per_direction_sizes);
	tcase_add_test(tc, test_rw_modifier_and_pct_random);
	tcase_add_test(tc, test_random_distribution);
	suite_add_tcase(s, tc);
	return s;
}

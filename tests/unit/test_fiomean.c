/* test_fiomean.c - fio options whose meaning nvscope had wrong (issue 13):
 * each is fio's meaning now, or refused with the reason. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/cli.h"
#include "io/spec.h"

static int set(struct spec *s, const char *k, const char *v, char *err)
{
	return spec_set(s, k, v, err, 256);
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

START_TEST(test_filename_list_refused)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert_int_eq(set(&s, "filename", "/tmp/a:/tmp/b", err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "ONE job"));
	ck_assert_uint_eq(s.ntargets, 0);
	ck_assert_int_eq(set(&s, "filename", "/tmp/a", err), 0);
	ck_assert_uint_eq(s.ntargets, 1);
	/* nvscope's own --target list stays one worker per target */
	ck_assert_int_eq(set(&s, "target", "/tmp/b,/tmp/c", err), 0);
	ck_assert_uint_eq(s.ntargets, 3);

	struct cli c;
	char *argv[] = {"run", "--filename=/tmp/a:/tmp/b", NULL};
	int i = 1;
	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(cli_take(&c, 2, argv, &i, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "ONE job"));
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

Suite *fiomean_suite(void)
{
	Suite *s = suite_create("fiomean");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_batch_complete_is_min);
	tcase_add_test(tc, test_rate_iops_per_direction);
	tcase_add_test(tc, test_iec_sizes_decimal);
	tcase_add_test(tc, test_filename_list_refused);
	tcase_add_test(tc, test_cpus_policy_randrepeat_pcts_sched);
	suite_add_tcase(s, tc);
	return s;
}

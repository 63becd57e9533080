/* test_filesize.c - fio's filesize= (io/feat/filesize.c): the parser (sizes,
 * ranges, refusals), and the length a target gets (fio's setup_files:
 * within the range whole, outside it the size or a draw in the range, a
 * shorter device whole, a shorter regular file refused). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "io/feat/filesize.h"

START_TEST(test_filesize_parse)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "filesize", "128m", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.filesize[0], 128u << 20);
	ck_assert_uint_eq(s.filesize[1], 128u << 20);
	ck_assert_int_eq(opt_set(&s, "filesize", "4k-1m", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.filesize[0], 4096);
	ck_assert_uint_eq(s.filesize[1], 1u << 20);
	ck_assert_int_eq(opt_set(&s, "filesize", "4k:8k", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.filesize[1], 8192);
	static const char *const bad[] = {"0",	    "",	   "nan", "inf", "-1",
					  "8k-4k",  "4k-", "-4k", "1e3", "99999999999999999999",
					  "4k-nan", "0-4k"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(opt_set(&s, "filesize", bad[i], err, sizeof(err)), -EINVAL);
		ck_assert_ptr_nonnull(strstr(err, "filesize"));
	}
	ck_assert_uint_eq(s.filesize[0], 4096); /* untouched by the refusals */
}
END_TEST

START_TEST(test_filesize_apply)
{
	struct spec s;
	struct target t;
	char err[256];

	spec_init(&s);
	memset(&t, 0, sizeof(t));
	snprintf(t.path, sizeof(t.path), "/dev/x");
	t.kind = TARGET_BLOCK;
	t.size = 64u << 20;
	ck_assert_int_eq(filesize_apply(&s, &t, 0, err, sizeof(err)), 0); /* none */
	ck_assert_uint_eq(t.size, 64u << 20);
	s.filesize[0] = s.filesize[1] = 16u << 20;
	ck_assert_int_eq(filesize_apply(&s, &t, 0, err, sizeof(err)), 0);
	ck_assert_uint_eq(t.size, 16u << 20);
	/* within the range: whole */
	t.size = 40u << 20;
	s.filesize[0] = 32u << 20, s.filesize[1] = 64u << 20;
	ck_assert_int_eq(filesize_apply(&s, &t, 0, err, sizeof(err)), 0);
	ck_assert_uint_eq(t.size, 40u << 20);
	/* a shorter device: whole */
	t.size = 8u << 20;
	s.filesize[0] = s.filesize[1] = 16u << 20;
	ck_assert_int_eq(filesize_apply(&s, &t, 0, err, sizeof(err)), 0);
	ck_assert_uint_eq(t.size, 8u << 20);
	/* a range outside: a draw in [lo, hi), whole blocks, differing per file */
	uint64_t got[8];
	bool differ = false;
	s.filesize[0] = 1u << 20, s.filesize[1] = 4u << 20;
	for (unsigned i = 0; i < 8; i++) {
		t.size = 64u << 20;
		ck_assert_int_eq(filesize_apply(&s, &t, i, err, sizeof(err)), 0);
		got[i] = t.size;
		ck_assert_uint_ge(got[i], 1u << 20);
		ck_assert_uint_le(got[i], 4u << 20);
		ck_assert_uint_eq(got[i] % 4096, 0);
		differ |= i && got[i] != got[0];
	}
	ck_assert(differ);
	/* a shorter regular file: refused, fio would extend it */
	t.kind = TARGET_FILE;
	t.size = 1u << 20;
	s.filesize[0] = s.filesize[1] = 2u << 20;
	ck_assert_int_eq(filesize_apply(&s, &t, 0, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "does not create or grow files"));
	ck_assert_uint_eq(t.size, 1u << 20);
}
END_TEST

Suite *filesize_suite(void)
{
	Suite *s = suite_create("filesize");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_filesize_parse);
	tcase_add_test(tc, test_filesize_apply);
	suite_add_tcase(s, tc);
	return s;
}

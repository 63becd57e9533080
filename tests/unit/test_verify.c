/* test_verify.c - the write/verify pattern: every 512-byte sector differs
 * by offset and by run seed, and a changed byte is found at its sector. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "io/feat/verify.h"

START_TEST(test_roundtrip)
{
	static unsigned char buf[8192];
	uint64_t fb = 77;
	verify_pattern(buf, sizeof(buf), 1 << 20, 42, false, NULL);
	ck_assert_uint_eq(verify_pattern(buf, sizeof(buf), 1 << 20, 42, true, &fb), 0);
	ck_assert_uint_eq(fb, 77); /* untouched without a mismatch */
	buf[3 * 512 + 100] ^= 1;
	buf[5 * 512 + 511] ^= 0x80;
	ck_assert_uint_eq(verify_pattern(buf, sizeof(buf), 1 << 20, 42, true, &fb), 2);
	ck_assert_uint_eq(fb, (1 << 20) + 3 * 512);
}
END_TEST

START_TEST(test_fresh)
{
	static unsigned char a[4096], b[4096];
	verify_pattern(a, sizeof(a), 0, 1, false, NULL);
	/* another run (seed) or another place (offset): every sector differs */
	ck_assert_uint_eq(verify_pattern(a, sizeof(a), 0, 2, true, NULL), 8);
	ck_assert_uint_eq(verify_pattern(a, sizeof(a), 512, 1, true, NULL), 8);
	/* no two sectors of one run are equal, nor is a sector mostly zero */
	for (int i = 0; i < 8; i++)
		for (int j = i + 1; j < 8; j++)
			ck_assert(memcmp(a + i * 512, a + j * 512, 512));
	verify_pattern(b, sizeof(b), 0, 1, false, NULL);
	ck_assert(!memcmp(a, b, sizeof(a))); /* deterministic for the read-back */
	int zeros = 0;
	for (size_t i = 0; i < sizeof(a); i++) /* payload: random, ~1/256 zeros */
		zeros += i % 512 >= 16 && !a[i];
	ck_assert_int_lt(zeros, 64);
}
END_TEST

Suite *verify_suite(void)
{
	Suite *s = suite_create("verify");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_fresh);
	suite_add_tcase(s, tc);
	return s;
}

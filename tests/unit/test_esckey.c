/* test_esckey.c - escape sequences terminfo does not describe (vt100):
 * decoded to keys, or dropped whole, never left as letters. */
#include <check.h>
#include <curses.h>
#include <string.h>
#include "ui/esckey.h"

static int dec(const char *s)
{
	return esckey_decode(s, strlen(s));
}

START_TEST(decode)
{
	ck_assert_int_eq(dec("[4~"), KEY_END);
	ck_assert_int_eq(dec("[F"), KEY_END);
	ck_assert_int_eq(dec("OF"), KEY_END);
	ck_assert_int_eq(dec("[8~"), KEY_END);
	ck_assert_int_eq(dec("[1~"), KEY_HOME);
	ck_assert_int_eq(dec("[H"), KEY_HOME);
	ck_assert_int_eq(dec("[5~"), KEY_PPAGE);
	ck_assert_int_eq(dec("[6~"), KEY_NPAGE);
	ck_assert_int_eq(dec("[Z"), KEY_BTAB);
	ck_assert_int_eq(dec("[A"), KEY_UP);
	ck_assert_int_eq(dec("OB"), KEY_DOWN);
	ck_assert_int_eq(dec("OP"), KEY_F(1));
	ck_assert_int_eq(dec("[15~"), KEY_F(5));
	ck_assert_int_eq(dec("[21~"), KEY_F(10));
	ck_assert_int_eq(dec("[[E"), KEY_F(5));
	ck_assert_int_eq(dec("[1;5H"), KEY_HOME); /* Ctrl-Home */
	/* unknown: dropped whole */
	ck_assert_int_eq(dec("[99~"), 0);
	ck_assert_int_eq(dec("[16~"), 0);
	ck_assert_int_eq(dec("[?1u"), 0);
	ck_assert_int_eq(dec("x"), 0);
	ck_assert_int_eq(dec("[~"), 0);
}
END_TEST

START_TEST(complete)
{
	ck_assert(!esckey_complete("", 0));
	ck_assert(!esckey_complete("[", 1));
	ck_assert(!esckey_complete("[1", 2));
	ck_assert(!esckey_complete("[15", 3));
	ck_assert(esckey_complete("[15~", 4));
	ck_assert(!esckey_complete("O", 1));
	ck_assert(esckey_complete("OF", 2));
	ck_assert(!esckey_complete("[[", 2));
	ck_assert(esckey_complete("[[A", 3));
	ck_assert(esckey_complete("q", 1));
}
END_TEST

Suite *esckey_suite(void)
{
	Suite *s = suite_create("esckey");
	TCase *tc = tcase_create("esckey");
	tcase_add_test(tc, decode);
	tcase_add_test(tc, complete);
	suite_add_tcase(s, tc);
	return s;
}

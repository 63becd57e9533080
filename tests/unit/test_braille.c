/* test_braille.c - braille dot encoding and the dot canvas. */
#include <check.h>
#include "ui/braille.h"

START_TEST(dot_bits_match_unicode)
{
	/* Unicode: dots 1,2,3,7 left column, 4,5,6,8 right column. */
	ck_assert_uint_eq(braille_bit(0, 0), 0x01);
	ck_assert_uint_eq(braille_bit(0, 1), 0x02);
	ck_assert_uint_eq(braille_bit(0, 2), 0x04);
	ck_assert_uint_eq(braille_bit(0, 3), 0x40);
	ck_assert_uint_eq(braille_bit(1, 0), 0x08);
	ck_assert_uint_eq(braille_bit(1, 1), 0x10);
	ck_assert_uint_eq(braille_bit(1, 2), 0x20);
	ck_assert_uint_eq(braille_bit(1, 3), 0x80);
	ck_assert_uint_eq(braille_bit(2, 0), 0);
	ck_assert_uint_eq(braille_bit(0, 4), 0);
	ck_assert_uint_eq(braille_bit(-1, 0), 0);
	ck_assert_uint_eq(braille_char(0), 0x2800);
	ck_assert_uint_eq(braille_char(0xff), 0x28ff);
	/* every bit distinct */
	unsigned all = 0;
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 2; x++) {
			ck_assert_uint_eq(all & braille_bit(x, y), 0);
			all |= braille_bit(x, y);
		}
	ck_assert_uint_eq(all, 0xff);
}
END_TEST

START_TEST(ascii_fallback)
{
	ck_assert_int_eq(braille_ascii(0), ' ');
	ck_assert_int_eq(braille_ascii(0x01), '\'');
	ck_assert_int_eq(braille_ascii(0x10), '\'');
	ck_assert_int_eq(braille_ascii(0x40), '.');
	ck_assert_int_eq(braille_ascii(0x20), '.');
	ck_assert_int_eq(braille_ascii(0x41), ':');
}
END_TEST

START_TEST(canvas_sets_dots)
{
	struct bcanvas c = {0};
	ck_assert_int_eq(bcanvas_init(&c, 3, 2), 0);
	bcanvas_set(&c, 0, 0, 5); /* cell 0,0 top-left */
	bcanvas_set(&c, 5, 7, 6); /* cell 2,1 bottom-right */
	bcanvas_set(&c, 3, 4, 7); /* cell 1,1 dot (1,0) */
	bcanvas_set(&c, 6, 0, 9); /* off canvas: ignored */
	bcanvas_set(&c, -1, 0, 9);
	bcanvas_set(&c, 0, 8, 9);
	ck_assert_uint_eq(bcanvas_cell(&c, 0, 0)->bits, 0x01);
	ck_assert_uint_eq(bcanvas_cell(&c, 0, 0)->role, 5);
	ck_assert_uint_eq(bcanvas_cell(&c, 2, 1)->bits, 0x80);
	ck_assert_uint_eq(bcanvas_cell(&c, 1, 1)->bits, 0x08);
	ck_assert_uint_eq(bcanvas_cell(&c, 1, 0)->bits, 0);
	ck_assert_uint_eq(bcanvas_cell(&c, 2, 0)->bits, 0);
	ck_assert_ptr_null(bcanvas_cell(&c, 3, 0));
	/* last dot wins the colour */
	bcanvas_set(&c, 1, 1, 8);
	ck_assert_uint_eq(bcanvas_cell(&c, 0, 0)->bits, 0x11);
	ck_assert_uint_eq(bcanvas_cell(&c, 0, 0)->role, 8);
	/* full cell */
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 2; x++)
			bcanvas_set(&c, 2 + x, y, 1);
	ck_assert_uint_eq(braille_char(bcanvas_cell(&c, 1, 0)->bits), 0x28ff);
	/* regrow and clear */
	ck_assert_int_eq(bcanvas_init(&c, 10, 10), 0);
	for (int y = 0; y < 10; y++)
		for (int x = 0; x < 10; x++)
			ck_assert_uint_eq(bcanvas_cell(&c, x, y)->bits, 0);
	bcanvas_release(&c);
	bcanvas_release(&c);
}
END_TEST

Suite *braille_suite(void)
{
	Suite *s = suite_create("braille");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, dot_bits_match_unicode);
	tcase_add_test(tc, ascii_fallback);
	tcase_add_test(tc, canvas_sets_dots);
	suite_add_tcase(s, tc);
	return s;
}

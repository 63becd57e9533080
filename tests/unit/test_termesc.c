/* test_termesc.c - issue 20, cause 9: text from outside reaches a terminal
 * with every control escaped (C0, DEL, C1, bidi overrides, bytes not in
 * well-formed UTF-8); a cut (bytes or columns) never splits an escape or a
 * UTF-8 sequence; the stream filter keeps a sequence split between writes
 * whole. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/termesc.h"
#include "base/utf8.h"

static const char *esc(const char *s, unsigned flags)
{
	static char b[512];
	termesc(b, sizeof(b), s, strlen(s), (size_t)-1, flags, NULL);
	return b;
}

START_TEST(test_escapes)
{
	ck_assert_str_eq(esc("/dev/nvme0n1", 0), "/dev/nvme0n1");
	ck_assert_str_eq(esc("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe", 0),
			 "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe");
	ck_assert_str_eq(esc("a\x1b]0;owned\x07z", 0), "a\\x1b]0;owned\\x07z");
	ck_assert_str_eq(esc("\x1b[2J", 0), "\\x1b[2J");
	ck_assert_str_eq(esc("a\nb\tc\rd", 0), "a\\nb\\tc\\rd");
	ck_assert_str_eq(esc("a\nb\tc\rd", TERMESC_KEEP_NL), "a\nb\tc\rd");
	ck_assert_str_eq(esc("\x1b\n", TERMESC_KEEP_NL), "\\x1b\n");
	ck_assert_str_eq(esc("\x7f\x01\x08", 0), "\\x7f\\x01\\x08");
	ck_assert_str_eq(esc("\xc2\x9b"
			     "31m",
			     0),
			 "\\u009b31m"); /* C1 CSI */
	ck_assert_str_eq(esc("\xc2\x9d"
			     "0;x",
			     0),
			 "\\u009d0;x");			  /* C1 OSC */
	ck_assert_str_eq(esc("\xc2\xa0", 0), "\xc2\xa0"); /* NBSP: printable */
	ck_assert_str_eq(esc("a\xe2\x80\xae"
			     "cod.exe",
			     0),
			 "a\\u202ecod.exe"); /* RLO */
	ck_assert_str_eq(esc("\xe2\x81\xa6", 0), "\\u2066");
	ck_assert_str_eq(esc("\xff\xfe", 0), "\\xff\\xfe");
	ck_assert_str_eq(esc("\xc0\xaf", 0), "\\xc0\\xaf");	     /* overlong */
	ck_assert_str_eq(esc("x\xe2\x82", 0), "x\\xe2\\x82");	     /* truncated */
	ck_assert_str_eq(esc("\xed\xa0\x80", 0), "\\xed\\xa0\\x80"); /* surrogate */
	/* a NUL inside the length is a control too */
	char b[32];
	termesc(b, sizeof(b), "a\0b", 3, (size_t)-1, 0, NULL);
	ck_assert_str_eq(b, "a\\x00b");
	ck_assert_str_eq(termesc_str("n\x1b"), "n\\x1b");
	ck_assert_str_eq(termesc_str(NULL), "(null)");
}
END_TEST

START_TEST(test_cut)
{
	char b[64];
	bool cut;
	/* bytes: "ab" fits, the 4-byte escape of ESC does not */
	ck_assert_uint_eq(termesc(b, 5, "ab\x1bz", 4, (size_t)-1, 0, &cut), 7);
	ck_assert_str_eq(b, "ab");
	ck_assert(cut);
	ck_assert_uint_eq(termesc(b, 7, "ab\x1bz", 4, (size_t)-1, 0, &cut), 7);
	ck_assert_str_eq(b, "ab\\x1b");
	ck_assert(cut);
	ck_assert_uint_eq(termesc(b, 8, "ab\x1bz", 4, (size_t)-1, 0, &cut), 7);
	ck_assert_str_eq(b, "ab\\x1bz");
	ck_assert(!cut);
	/* a UTF-8 sequence is whole or absent */
	termesc(b, 3, "a\xc3\xa9", 3, (size_t)-1, 0, &cut);
	ck_assert_str_eq(b, "a");
	ck_assert(cut);
	/* columns: a code point is one, an escape its length */
	termesc(b, sizeof(b), "\xc3\xa9\xc3\xa9\xc3\xa9", 6, 2, 0, &cut);
	ck_assert_str_eq(b, "\xc3\xa9\xc3\xa9");
	ck_assert(cut);
	termesc(b, sizeof(b), "ab\x1b", 3, 5, 0, &cut);
	ck_assert_str_eq(b, "ab");
	ck_assert(cut);
	termesc(b, sizeof(b), "ab\x1b", 3, 6, 0, &cut);
	ck_assert_str_eq(b, "ab\\x1b");
	ck_assert(!cut);
	/* cap 0: nothing written, the length still told */
	ck_assert_uint_eq(termesc(NULL, 0, "\x1b", 1, (size_t)-1, 0, NULL), 4);
}
END_TEST

static bool no_controls(const char *s, size_t n, bool nl)
{
	if (!utf8_valid(s, n))
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if ((c < 0x20 && !(nl && (c == '\n' || c == '\t' || c == '\r'))) || c == 0x7f)
			return false;
		if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] <= 0x9f)
			return false;
	}
	return true;
}

/* random bytes, random caps and widths: the result is free of controls,
 * well-formed, and a prefix of the whole escaped form */
START_TEST(test_random)
{
	char in[64], full[512], part[512];
	unsigned seed = 20;
	int first_bad = -1;
	for (int it = 0; it < 20000; it++) {
		size_t n = (size_t)(rand_r(&seed) % sizeof(in));
		for (size_t i = 0; i < n; i++) {
			int r = rand_r(&seed) % 4;
			in[i] = (char)(r == 0	? rand_r(&seed) % 0x20
				       : r == 1 ? 0x80 + rand_r(&seed) % 0x80
				       : r == 2 ? "\xc2\xe2\xf0\x1b"[rand_r(&seed) % 4]
						: 0x20 + rand_r(&seed) % 0x60);
		}
		unsigned fl = (unsigned)(it & 1);
		size_t len = termesc(full, sizeof(full), in, n, (size_t)-1, fl, NULL);
		size_t cap = (size_t)(rand_r(&seed) % 40) + 1, cols = (size_t)(rand_r(&seed) % 40);
		termesc(part, cap, in, n, it & 2 ? cols : (size_t)-1, fl, NULL);
		size_t pl = strlen(part);
		/* the cut ends at a unit boundary: escaping the rest gives the rest */
		bool good = strlen(full) == len && no_controls(full, len, fl) && pl < cap &&
			    no_controls(part, pl, fl) && !memcmp(part, full, pl) &&
			    (pl == len || full[pl] == '\\' || (unsigned char)full[pl] < 0x80 ||
			     ((unsigned char)full[pl] & 0xc0) == 0xc0);
		/* the first bad draw, asserted once after the loop (a ck_assert
		 * per draw is a write to Check's pipe: seconds for 20,000) */
		if (!good && first_bad < 0)
			first_bad = it;
	}
	ck_assert_msg(first_bad < 0, "draw %d: not a well-formed prefix free of controls",
		      first_bad);
}
END_TEST

START_TEST(test_stream)
{
	int p[2];
	char got[256];
	ck_assert_int_eq(pipe(p), 0);
	FILE *f = termesc_fdopen(p[1], false);
	ck_assert_ptr_nonnull(f);
	fputs("a\xe2", f); /* a euro sign split in three writes */
	fputs("\x82", f);
	fputs("\xac\x1b[2J\n", f);
	fputs("\xe2", f);     /* a lead byte cut short by the next write's */
	fputs("\xf0\x92", f); /* 4-byte sequence, itself split (found by fuzzing) */
	fputs("\x80\xae", f);
	fputs("\xc2", f); /* a C1 CSI split in two */
	fputs("\x9b"
	      "b\xe2",
	      f); /* and a sequence left open at the end */
	fclose(f);
	close(p[1]);
	ssize_t n = read(p[0], got, sizeof(got) - 1);
	close(p[0]);
	ck_assert_int_gt(n, 0);
	got[n] = '\0';
	ck_assert_str_eq(got, "a\xe2\x82\xac\\x1b[2J\n\\xe2\xf0\x92\x80\xae\\u009bb\\xe2");
}
END_TEST

Suite *termesc_suite(void)
{
	Suite *s = suite_create("termesc");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_escapes);
	tcase_add_test(tc, test_cut);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_stream);
	suite_add_tcase(s, tc);
	return s;
}

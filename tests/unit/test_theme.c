/* test_theme.c - theme parsing (good and bad files) and colour fallback. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ui/theme.h"

START_TEST(colours)
{
	struct colour c;
	ck_assert_int_eq(theme_parse_colour("red", &c), 0);
	ck_assert_int_eq(c.kind, COLOUR_INDEX);
	ck_assert_int_eq(c.index, 1);
	ck_assert_int_eq(theme_parse_colour("BrightWhite", &c), 0);
	ck_assert_int_eq(c.index, 15);
	ck_assert_int_eq(theme_parse_colour("bright-red", &c), 0);
	ck_assert_int_eq(c.index, 9);
	ck_assert_int_eq(theme_parse_colour("grey", &c), 0);
	ck_assert_int_eq(c.index, 8);
	ck_assert_int_eq(theme_parse_colour("200", &c), 0);
	ck_assert_int_eq(c.index, 200);
	ck_assert_int_eq(theme_parse_colour("#FF8000", &c), 0);
	ck_assert_int_eq(c.kind, COLOUR_RGB);
	ck_assert_uint_eq(c.r, 255);
	ck_assert_uint_eq(c.g, 128);
	ck_assert_uint_eq(c.b, 0);
	ck_assert_int_eq(theme_parse_colour("default", &c), 0);
	ck_assert_int_eq(c.kind, COLOUR_DEFAULT);
	ck_assert_int_eq(theme_parse_colour("#12345", &c), -EINVAL);
	ck_assert_int_eq(theme_parse_colour("#12345g", &c), -EINVAL);
	ck_assert_int_eq(theme_parse_colour("256", &c), -EINVAL);
	ck_assert_int_eq(theme_parse_colour("purple", &c), -EINVAL);
}
END_TEST

START_TEST(fallback)
{
	struct colour c = {COLOUR_RGB, 0, 255, 0, 0};
	ck_assert_int_eq(theme_colour_index(&c, 256), 196); /* cube 5,0,0 */
	ck_assert_int_eq(theme_colour_index(&c, 16), 9);    /* bright red */
	ck_assert_int_eq(theme_colour_index(&c, 8), 1);	    /* red */
	c = (struct colour){COLOUR_RGB, 0, 128, 128, 128};
	int g = theme_colour_index(&c, 256);
	ck_assert(g >= 232 || g == 16 + 36 * 2 + 6 * 2 + 2 || g == 244); /* a grey */
	ck_assert_int_eq(theme_colour_index(&c, 16), 8);
	c = (struct colour){COLOUR_RGB, 0, 0x5f, 0xaf, 0xd7};
	ck_assert_int_eq(theme_colour_index(&c, 256), 16 + 36 * 1 + 6 * 3 + 4);
	c = (struct colour){COLOUR_INDEX, 12, 0, 0, 0};
	ck_assert_int_eq(theme_colour_index(&c, 256), 12);
	ck_assert_int_eq(theme_colour_index(&c, 8), 4); /* bright blue -> blue */
	c = (struct colour){COLOUR_INDEX, 196, 0, 0, 0};
	ck_assert_int_eq(theme_colour_index(&c, 16), 9);
	ck_assert_int_eq(theme_colour_index(&c, 8), 1);
	c = (struct colour){COLOUR_DEFAULT, 0, 0, 0, 0};
	ck_assert_int_eq(theme_colour_index(&c, 256), -1);
}
END_TEST

START_TEST(good_file)
{
	const char *text = "# a comment\n"
			   "; another\n"
			   "\n"
			   "name = test\n"
			   "description = a test theme\n"
			   "large_digits = yes\n"
			   "background = black\n"
			   "read = #00ff00 bold\n"
			   "  write = magenta on white reverse underline  \n"
			   "lat_p99=yellow";
	struct theme t;
	char err[256] = "";
	ck_assert_int_eq(theme_parse(text, "x.theme", &t, err, sizeof(err)), 0);
	ck_assert_str_eq(t.name, "test");
	ck_assert_str_eq(t.description, "a test theme");
	ck_assert(t.bignum);
	ck_assert(!t.mono);
	ck_assert_int_eq(t.role[ROLE_READ].fg.kind, COLOUR_RGB);
	ck_assert_uint_eq(t.role[ROLE_READ].fg.g, 255);
	ck_assert_uint_eq(t.role[ROLE_READ].attrs, THEME_BOLD);
	ck_assert_int_eq(t.role[ROLE_READ].bg.index, 0); /* from background */
	ck_assert_int_eq(t.role[ROLE_WRITE].fg.index, 5);
	ck_assert_int_eq(t.role[ROLE_WRITE].bg.index, 7);
	ck_assert_uint_eq(t.role[ROLE_WRITE].attrs, THEME_REVERSE | THEME_UNDERLINE);
	ck_assert_int_eq(t.role[ROLE_LAT_P99].fg.index, 3);
	/* a role not named keeps the built-in style */
	struct theme d;
	theme_default(&d);
	ck_assert_int_eq(t.role[ROLE_CPU_IRQ].fg.index, d.role[ROLE_CPU_IRQ].fg.index);
	/* no name line: the file name is used */
	ck_assert_int_eq(theme_parse("read = red\n", "themes/abc.theme", &t, err, sizeof(err)), 0);
	ck_assert_str_eq(t.name, "abc");
}
END_TEST

static void expect_error(const char *text, const char *want)
{
	struct theme t;
	char err[256] = "";
	ck_assert_int_eq(theme_parse(text, "bad.theme", &t, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, want), "error '%s' lacks '%s'", err, want);
}

START_TEST(bad_files)
{
	expect_error("name = x\nraed = red\n", "bad.theme:2: unknown key 'raed'");
	expect_error("read = purple\n", "bad.theme:1: read: bad colour or attribute 'purple'");
	expect_error("\n\n\nread = red blink\n", "bad.theme:4:");
	expect_error("read = red on\n", "bad.theme:1:");
	expect_error("read =\n", "bad.theme:1:");
	expect_error("# ok\nthis line has no equals\n", "bad.theme:2: expected 'key = value'");
	expect_error("large_digits = maybe\n", "bad.theme:1: large_digits");
	expect_error("background = #zzzzzz\n", "bad.theme:1: bad colour");
	expect_error("= red\n", "bad.theme:1: missing key");
}
END_TEST

START_TEST(shipped_themes_parse)
{
	const char *names[] = {"default", "light", "mono", "showfloor"};
	const char *top = getenv("NVS_TOP");
	for (unsigned i = 0; i < 4; i++) {
		char path[512], err[256] = "";
		struct theme t;
		snprintf(path, sizeof(path), "%s/themes/%s.theme", top ? top : ".", names[i]);
		ck_assert_msg(theme_load(path, &t, err, sizeof(err)) == 0, "%s", err);
		ck_assert_str_eq(t.name, names[i]);
	}
	struct theme t;
	char err[256] = "";
	ck_assert_int_eq(theme_load("/nonexistent/x.theme", &t, err, sizeof(err)), -ENOENT);
	ck_assert(strstr(err, "/nonexistent/x.theme"));
	/* a bad file on disk reports its path and line */
	char tmpl[] = "/tmp/nvs-theme-XXXXXX";
	int fd = mkstemp(tmpl);
	ck_assert_int_ge(fd, 0);
	const char *bad = "name = b\nread = green\nwrite = nocolour\n";
	ck_assert_int_eq(write(fd, bad, strlen(bad)), (int)strlen(bad));
	close(fd);
	ck_assert_int_eq(theme_load(tmpl, &t, err, sizeof(err)), -EINVAL);
	char want[64];
	snprintf(want, sizeof(want), "%s:3:", tmpl);
	ck_assert_msg(strstr(err, want), "%s", err);
	unlink(tmpl);
}
END_TEST

/* No colour: every colour theme falls back to attributes (the cursor line
 * reverse), a mono theme keeps its own; series get distinct glyphs. */
START_TEST(nocolour_fallback)
{
	struct theme t;
	theme_default(&t);
	ck_assert_uint_eq(t.role[ROLE_SELECTED].attrs & THEME_REVERSE, 0); /* colour only */
	ck_assert_uint_eq(theme_attrs(&t, ROLE_SELECTED, true), t.role[ROLE_SELECTED].attrs);
	ck_assert(theme_attrs(&t, ROLE_SELECTED, false) & THEME_REVERSE);
	ck_assert(theme_attrs(&t, ROLE_ERROR, false) & THEME_REVERSE);
	ck_assert(theme_attrs(&t, ROLE_HEADER, false) & THEME_BOLD);
	ck_assert_uint_eq(theme_attrs(&t, ROLE_NONE, false), 0);
	t.mono = true;
	t.role[ROLE_SELECTED].attrs = THEME_UNDERLINE;
	ck_assert_uint_eq(theme_attrs(&t, ROLE_SELECTED, false), THEME_UNDERLINE);
	ck_assert(theme_glyph(ROLE_READ) && theme_glyph(ROLE_WRITE));
	ck_assert_int_ne(theme_glyph(ROLE_READ), theme_glyph(ROLE_WRITE));
	ck_assert_int_ne(theme_glyph(ROLE_LAT_MEAN), theme_glyph(ROLE_LAT_P99));
	ck_assert_int_eq(theme_glyph(ROLE_NORMAL), 0);
}
END_TEST

Suite *theme_suite(void)
{
	Suite *s = suite_create("theme");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, colours);
	tcase_add_test(tc, fallback);
	tcase_add_test(tc, good_file);
	tcase_add_test(tc, bad_files);
	tcase_add_test(tc, shipped_themes_parse);
	tcase_add_test(tc, nocolour_fallback);
	suite_add_tcase(s, tc);
	return s;
}

/* test_layout.c - pane layout: no overlap, everything inside, sizes. */
#include <check.h>
#include <errno.h>
#include "ui/layout.h"

static void check_layout(const struct layout_in *in)
{
	struct layout l;
	ck_assert_int_eq(layout_compute(in, &l), 0);
	int shown = 0;
	for (int i = 0; i < PANE_COUNT; i++) {
		const struct rect *r = &l.pane[i];
		if (r->w == 0 || r->h == 0)
			continue;
		shown++;
		ck_assert_msg(rect_inside(r, in->cols, in->rows), "pane %d outside %dx%d", i,
			      in->cols, in->rows);
		for (int j = i + 1; j < PANE_COUNT; j++)
			ck_assert_msg(!rect_overlap(r, &l.pane[j]),
				      "panes %d and %d overlap at %dx%d", i, j, in->cols, in->rows);
	}
	ck_assert_int_ge(shown, 4);
	ck_assert_int_eq(l.pane[PANE_TITLE].h, 1);
	ck_assert_int_eq(l.pane[PANE_STATUS].h, 1);
	ck_assert_int_eq(l.pane[PANE_STATUS].y, in->rows - 1);
	ck_assert_int_eq(l.pane[PANE_STATUS].w, in->cols);
	if (in->showfloor) {
		/* big figures over the full width, two strips, the body used */
		ck_assert_int_ge(l.pane[PANE_NUMBERS].h, 7);
		ck_assert_int_eq(l.pane[PANE_NUMBERS].w, in->cols);
		ck_assert_int_ge(l.pane[PANE_IOPS].h, 4);
		ck_assert_int_ge(l.pane[PANE_LAT].h, 4);
		long area = 0;
		for (int i = 0; i < PANE_COUNT; i++)
			area += (long)l.pane[i].w * l.pane[i].h;
		ck_assert_int_eq(area, (long)in->cols * in->rows);
	} else if (in->screen == SCREEN_LIVE) {
		/* the main strips, numbers and CPU are always there, usable */
		ck_assert_int_ge(l.pane[PANE_IOPS].h, 4);
		ck_assert_int_ge(l.pane[PANE_LAT].h, 4);
		ck_assert_int_ge(l.pane[PANE_IOPS].w, 30);
		ck_assert_int_ge(l.pane[PANE_NUMBERS].h, 6);
		ck_assert_int_ge(l.pane[PANE_NUMBERS].w, 24);
		ck_assert_int_ge(l.pane[PANE_CPU].h, 4);
		/* the body is fully used: areas add up */
		long area = 0;
		for (int i = 0; i < PANE_COUNT; i++)
			area += (long)l.pane[i].w * l.pane[i].h;
		ck_assert_int_eq(area, (long)in->cols * in->rows);
	} else {
		ck_assert_int_ge(l.pane[PANE_DEVICES].h, 5);
		ck_assert_int_ge(l.pane[PANE_LAUNCH].h, 5);
		ck_assert_int_ge(l.pane[PANE_FORM].w, 28);
		ck_assert_int_ge(l.pane[PANE_LAUNCH].w, 28);
	}
}

START_TEST(fits_everywhere)
{
	static const int sizes[][2] = {{80, 24}, {300, 80},  {60, 18}, {200, 60}, {132, 43},
				       {61, 19}, {500, 200}, {80, 50}, {250, 24}};
	for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (int screen = 0; screen < 2; screen++)
			for (unsigned nt = 1; nt <= 24; nt += 23)
				for (unsigned nqd = 1; nqd <= 9; nqd += 8)
					for (int h = 0; h < 2; h++)
						for (int big = 0; big < 2; big++)
							for (unsigned ns = 0; ns <= 30; ns += 6) {
								struct layout_in in = {
								    sizes[s][0], sizes[s][1],
								    screen,	 nt,
								    nqd,	 h,
								    big,	 ns,
								    big && h};
								check_layout(&in);
							}
}
END_TEST

/* A plan's step list sits between the numbers and the CPU pane. */
START_TEST(plan_steps)
{
	struct layout l;
	struct layout_in in = {80, 24, SCREEN_LIVE, 1, 3, false, false, 5, false};
	ck_assert_int_eq(layout_compute(&in, &l), 0);
	ck_assert_int_eq(l.pane[PANE_STEPS].h, 6);
	ck_assert_int_eq(l.pane[PANE_STEPS].y, l.pane[PANE_NUMBERS].y + l.pane[PANE_NUMBERS].h);
	ck_assert_int_eq(l.pane[PANE_CPU].y, l.pane[PANE_STEPS].y + l.pane[PANE_STEPS].h);
	ck_assert_int_ge(l.pane[PANE_CPU].h, 4);
	in.nsteps = 40; /* capped: the CPU pane keeps its rows */
	ck_assert_int_eq(layout_compute(&in, &l), 0);
	ck_assert_int_ge(l.pane[PANE_CPU].h, 4);
	ck_assert_int_ge(l.pane[PANE_STEPS].h, 3);
	in.nsteps = 0;
	ck_assert_int_eq(layout_compute(&in, &l), 0);
	ck_assert_int_eq(l.pane[PANE_STEPS].h * l.pane[PANE_STEPS].w, 0);
}
END_TEST

START_TEST(rich_when_large)
{
	struct layout_in in = {300, 80, SCREEN_LIVE, 24, 9, true, false, 0, false};
	struct layout l;
	ck_assert_int_eq(layout_compute(&in, &l), 0);
	ck_assert_int_ge(l.pane[PANE_QD].h, 9 + 2);
	ck_assert_int_ge(l.pane[PANE_TARGETS].h, 3);
	ck_assert_int_eq(l.pane[PANE_HEALTH].h, 3);
	ck_assert_int_ge(l.pane[PANE_IOPS].h, 10);
	/* a single target without sweep or NVMe shows none of the extras */
	struct layout_in one = {80, 24, SCREEN_LIVE, 1, 1, false, false, 0, false};
	ck_assert_int_eq(layout_compute(&one, &l), 0);
	ck_assert_int_eq(l.pane[PANE_QD].h * l.pane[PANE_QD].w, 0);
	ck_assert_int_eq(l.pane[PANE_TARGETS].h * l.pane[PANE_TARGETS].w, 0);
	ck_assert_int_eq(l.pane[PANE_HEALTH].h * l.pane[PANE_HEALTH].w, 0);
}
END_TEST

/* Showfloor: large figures across the top, two fat strips, nothing else. */
START_TEST(showfloor_screen)
{
	struct layout l;
	struct layout_in in = {80, 24, SCREEN_LIVE, 4, 5, true, false, 3, true};
	ck_assert_int_eq(layout_compute(&in, &l), 0);
	ck_assert_int_eq(l.pane[PANE_NUMBERS].w, 80);
	ck_assert_int_ge(l.pane[PANE_NUMBERS].h, 7); /* header, 5 digit rows, labels */
	ck_assert_int_ge(l.pane[PANE_IOPS].h, 6);
	ck_assert_int_ge(l.pane[PANE_LAT].h, 5);
	ck_assert_int_eq(l.pane[PANE_IOPS].w, 80);
	static const int none[] = {PANE_CPU, PANE_TARGETS, PANE_QD, PANE_HEALTH, PANE_STEPS};
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		ck_assert_int_eq(l.pane[none[i]].w * l.pane[none[i]].h, 0);
	/* a big screen: room for 9x15 digits (header, 15 rows, labels) */
	in.cols = 200, in.rows = 55;
	ck_assert_int_eq(layout_compute(&in, &l), 0);
	ck_assert_int_ge(l.pane[PANE_NUMBERS].h, 17);
	ck_assert_int_ge(l.pane[PANE_LAT].h, 10);
	/* too narrow for 6x10: no empty rows under the 3x5 digits */
	in.cols = 100, in.rows = 40;
	ck_assert_int_eq(layout_compute(&in, &l), 0);
	ck_assert_int_eq(l.pane[PANE_NUMBERS].h, 7);
}
END_TEST

START_TEST(too_small)
{
	struct layout l;
	struct layout_in in = {59, 24, SCREEN_LIVE, 1, 1, false, false, 0, false};
	ck_assert_int_eq(layout_compute(&in, &l), -ERANGE);
	for (int i = 0; i < PANE_COUNT; i++)
		ck_assert_int_eq(l.pane[i].w * l.pane[i].h, 0);
	in.cols = 80;
	in.rows = 17;
	ck_assert_int_eq(layout_compute(&in, &l), -ERANGE);
	in.cols = 0;
	in.rows = 0;
	ck_assert_int_eq(layout_compute(&in, &l), -ERANGE);
}
END_TEST

START_TEST(helpers)
{
	struct rect a = {0, 0, 10, 5}, b = {10, 0, 5, 5}, c = {9, 4, 2, 2}, z = {3, 3, 0, 0};
	ck_assert(!rect_overlap(&a, &b));
	ck_assert(rect_overlap(&a, &c));
	ck_assert(!rect_overlap(&a, &z));
	ck_assert(rect_inside(&a, 10, 5));
	ck_assert(!rect_inside(&a, 9, 5));
	struct rect h = layout_center(80, 24, 60, 30);
	ck_assert(rect_inside(&h, 80, 24));
	ck_assert_int_eq(h.x, 10);

	struct rect area = {2, 3, 100, 10}, cells[24];
	int n = layout_grid(&area, 24, 24, 3, cells);
	ck_assert_int_eq(n, 12); /* 4 columns x 3 rows */
	for (int i = 0; i < n; i++) {
		ck_assert_int_ge(cells[i].w, 24);
		ck_assert_int_ge(cells[i].h, 3);
		ck_assert(cells[i].x >= 2 && cells[i].x + cells[i].w <= 102);
		ck_assert(cells[i].y >= 3 && cells[i].y + cells[i].h <= 13);
		for (int j = i + 1; j < n; j++)
			ck_assert(!rect_overlap(&cells[i], &cells[j]));
	}
	ck_assert_int_eq(layout_grid(&area, 2, 24, 3, cells), 2);
	ck_assert_int_eq(cells[0].w + cells[1].w, 100);
	struct rect tiny = {0, 0, 10, 2};
	ck_assert_int_eq(layout_grid(&tiny, 5, 24, 3, cells), 0);
}
END_TEST

Suite *layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, fits_everywhere);
	tcase_add_test(tc, rich_when_large);
	tcase_add_test(tc, plan_steps);
	tcase_add_test(tc, showfloor_screen);
	tcase_add_test(tc, too_small);
	tcase_add_test(tc, helpers);
	suite_add_tcase(s, tc);
	return s;
}

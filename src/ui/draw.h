/* draw.h - the widgets, written once (draw.c): text in a colour role, pane
 * headers and frames, the braille scatter strip with its axes, segmented
 * bars and large digits.  A widget draws through a painter - the colours of
 * the roles, ASCII or UTF-8, the strip's canvas - never through the whole
 * console's state.  UI thread only (ncurses). */
#ifndef NVS_UI_DRAW_H
#define NVS_UI_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "run/source.h"
#include "ui/axis.h"
#include "ui/braille.h"
#include "ui/theme.h"

/* What a widget draws with: set up by the console from its theme
 * (apply_colours), read by every widget. */
struct paint {
	bool ascii;    /* no UTF-8: ASCII glyphs and box corners */
	int ncolors;   /* 0: no colour */
	bool nocolour; /* attributes and glyphs only (theme_attrs, theme_glyph) */
	attr_t attr[ROLE_COUNT];
	short pair[ROLE_COUNT];
	struct bcanvas canvas; /* the scatter strip's dots, reused */
};

/* How a strip draws its samples (the `d` key cycles them). */
enum plot_style {
	PLOT_DOTS,  /* one braille dot per sample (the full spread) */
	PLOT_THICK, /* a half-cell block per sample: seen from across a room */
	PLOT_FILL,  /* the area under each series' per-column mean, filled */
	PLOT_NSTYLES
};

struct plot_ser {
	const void *base;      /* array of records whose first member is double t */
	size_t n, stride, off; /* count, record size, offset of the float value */
	uint8_t role;
};

struct plot {
	struct plot_ser ser[4];
	int nser;
	double t0, t1;
	bool log;
	enum axis_unit unit;
	bool labels; /* value labels on the left and a time axis below */
	bool near;   /* linear axis around the data, not from 0 (temperatures) */
	enum plot_style style;
	bool stack; /* fill: the series stacked (read and write IOPS: the top is the total) */
	const struct source_mark *marks; /* step markers, in time order */
	int nmarks;
};

/* Sets the attributes of @role on @w. */
void draw_role(struct paint *pa, WINDOW *w, int role);
/* Writes @s at (@y, @x) of @w in @role, clipped to @maxw columns (UTF-8
 * aware).  Returns the columns written. */
int draw_str(struct paint *pa, WINDOW *w, int y, int x, int maxw, int role, const char *s);
int draw_fmt(struct paint *pa, WINDOW *w, int y, int x, int maxw, int role, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* The pane's title line: @title on the left, @right on the right. */
void draw_header(struct paint *pa, WINDOW *w, const char *title, const char *right);
/* Fills row @y of @w with blanks in @role. */
void draw_fill(struct paint *pa, WINDOW *w, int y, int role);
/* A full-screen view's window *@win, (re)made at the terminal's size and
 * cleared in the normal role.  Returns it, NULL when it cannot be made. */
WINDOW *draw_screen(struct paint *pa, WINDOW **win);
/* Clears window @w in @fill_role and frames it in @border_role (ASCII
 * corners under --ascii): the overlays' box. */
void draw_frame(struct paint *pa, WINDOW *w, int fill_role, int border_role);
/* A strip of @p in the rectangle (@y, @x, @h, @w) of window @win, in
 * @p->style, with its step markers.  Returns the largest value shown (NAN
 * when none). */
double draw_plot(struct paint *pa, WINDOW *win, int y, int x, int h, int w, const struct plot *p);
/* Label columns draw_plot gives a strip @w wide (0 without labels). */
int draw_plot_label_w(int w, bool labels);
/* A horizontal bar of segments (percentages of @w columns). */
void draw_bar(struct paint *pa, WINDOW *win, int y, int x, int w, const double *pct,
	      const int *roles, int n);
/* @text ("857k", digits, '.', k, M, G, space) in large digits: the 3x5
 * font with each cell @scale x @scale (5 * @scale rows); returns the columns
 * used (0 when it does not fit in @maxw or below @y). */
int draw_big(struct paint *pa, WINDOW *win, int y, int x, int maxw, int role, const char *text,
	     int scale);
/* Columns draw_big uses for @text at @scale. */
int draw_big_width(const char *text, int scale);
/* Display width of UTF-8 @s. */
int draw_width(const char *s);

#endif

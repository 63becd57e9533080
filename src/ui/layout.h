/* layout.h - where each pane goes: a pure function of the terminal size, the
 * screen shown and what there is to show.  No ncurses. */
#ifndef NVS_UI_LAYOUT_H
#define NVS_UI_LAYOUT_H

#include <stdbool.h>

#define LAYOUT_MIN_COLS 60
#define LAYOUT_MIN_ROWS 18

enum pane_id {
	PANE_TITLE,   /* top line: name, state, target, clock */
	PANE_STATUS,  /* bottom line: the main keys */
	PANE_DEVICES, /* setup screen: the device tree */
	PANE_LAUNCH,  /* setup screen: presets */
	PANE_FORM,    /* setup screen: the custom workload form */
	PANE_IOPS,    /* live: IOPS or MB/s strip */
	PANE_LAT,     /* live: latency strip (mean, p99) */
	PANE_HEALTH,  /* live: temperature / throttle strip (NVMe) */
	PANE_TARGETS, /* live: small per-target strips (several targets) */
	PANE_QD,      /* live: per-queue-depth table (sweeps) */
	PANE_NUMBERS, /* live: current and run-average figures */
	PANE_CPU,     /* live: per-core CPU bars */
	PANE_STEPS,   /* live: a plan's step list */
	PANE_COUNT
};

enum layout_screen { SCREEN_SETUP, SCREEN_LIVE };

struct rect {
	int x, y, w, h; /* w == 0 or h == 0: not shown */
};

struct layout_in {
	int cols, rows;
	enum layout_screen screen;
	unsigned ntargets; /* targets of the run; > 1 shows PANE_TARGETS */
	unsigned nqd;	   /* queue-depth steps; > 1 shows PANE_QD */
	bool health;	   /* an NVMe target: show PANE_HEALTH */
	bool big;	   /* showfloor: larger numbers pane */
	unsigned nsteps;   /* a plan's steps; > 0 shows PANE_STEPS */
	bool showfloor;	   /* the live screen as a booth: big figures (PANE_NUMBERS
			    * across the top) and two fat strips, nothing else */
};

struct layout {
	struct rect pane[PANE_COUNT];
};

/* Computes the panes for @in.  Panes never overlap and all lie inside the
 * terminal.  Returns 0, or -ERANGE when the terminal is below
 * LAYOUT_MIN_COLS x LAYOUT_MIN_ROWS (every pane is then empty). */
int layout_compute(const struct layout_in *in, struct layout *out);
/* True when @a and @b share at least one cell. */
bool rect_overlap(const struct rect *a, const struct rect *b);
/* True when @r is shown and lies inside a @cols x @rows screen. */
bool rect_inside(const struct rect *r, int cols, int rows);
/* A @w x @h rectangle centred on the screen, clipped to it. */
struct rect layout_center(int cols, int rows, int w, int h);
/* Splits @area into a grid of up to @n cells of at least @minw x @minh (as
 * many columns as fit, then rows).  Writes the cells to @cells (room for @n)
 * and returns how many fit (0..n). */
int layout_grid(const struct rect *area, int n, int minw, int minh, struct rect *cells);

#endif

/* rounds.h - where the steady-state window falls on a console strip.  The
 * rounds themselves are cut in stats/rounds.h (one way for the console and
 * `nvscope steady`).  Pure functions, no ncurses. */
#ifndef NVS_UI_ROUNDS_H
#define NVS_UI_ROUNDS_H

#include <stdbool.h>
#include "stats/rounds.h"

/* The strip cell (0..@pw-1) of time @t on a strip of @pw cells showing
 * [@t0, @t1], with draw_plot's mapping (2 dots per cell); may be < 0 or
 * >= @pw when @t is outside. */
int rounds_col(double t, double t0, double t1, int pw);
/* The cells [*c0, *c1] covering the time span [@a, @b] on that strip,
 * clipped to it.  False (cells unset) when nothing of it is visible. */
bool rounds_span_cols(double a, double b, double t0, double t1, int pw, int *c0, int *c1);
/* The verdict at a replay position: the rounds of @all that had ended by
 * position @now (all of them when @at_end; a round ends a little after its
 * last sample: 5 % of its length is allowed), offset by @shift seconds
 * (a step's start on the replay's time axis), into @out (replaced), and the
 * rule @p over them into @view.  0 or -ENOMEM. */
int rounds_at(const struct rounds *all, double shift, double now, bool at_end,
	      const struct steady_params *p, struct rounds *out, struct steady_view *view);

#endif

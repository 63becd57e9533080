/* rounds.c - the steady-state window on a console strip.
 *
 * The window on the strip uses draw_plot's mapping (draw.c): a time t is
 * dot column lround((t - t0) * (2 pw - 1) / (t1 - t0)) of 2 pw dots, cell =
 * dot / 2, so the marks line up with the dots above them. */
#include "ui/rounds.h"

#include <math.h>

int rounds_col(double t, double t0, double t1, int pw)
{
	if (pw <= 0 || !(t1 > t0))
		return -1;
	double scale = (2 * pw - 1) / (t1 - t0);
	double dot = round((t - t0) * scale);
	if (dot < -2.0 * pw)
		dot = -2.0 * pw;
	if (dot > 4.0 * pw)
		dot = 4.0 * pw;
	return (int)floor(dot / 2);
}

bool rounds_span_cols(double a, double b, double t0, double t1, int pw, int *c0, int *c1)
{
	int x0 = rounds_col(a, t0, t1, pw), x1 = rounds_col(b, t0, t1, pw);
	if (pw <= 0 || !(t1 > t0) || x1 < 0 || x0 >= pw || b < a)
		return false;
	*c0 = x0 < 0 ? 0 : x0;
	*c1 = x1 >= pw ? pw - 1 : x1;
	return true;
}

int rounds_at(const struct rounds *all, double shift, double now, bool at_end,
	      const struct steady_params *p, struct rounds *out, struct steady_view *view)
{
	int ret = 0;
	out->n = 0;
	for (size_t i = 0; i < all->n && !ret; i++) {
		double t0 = all->t0[i] + shift, t1 = all->t1[i] + shift;
		if (at_end || t1 <= now + 0.05 * (t1 - t0))
			ret = rounds_push(out, t0, t1, all->v[i]);
	}
	rounds_steady(out, p, view);
	return ret;
}

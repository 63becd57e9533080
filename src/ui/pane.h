/* pane.h - what a pane draws from, as tmux's screen_write_ctx: the painter,
 * the source shown, the view of the time axis, the theme and this frame's
 * time range.  panes_draw (panes.c) builds one for each pane it draws; a
 * drawer takes it, or its own module's state and the painter, never the
 * whole console (struct app: tests/integration/layers.sh keeps it so).
 * UI thread only. */
#ifndef NVS_UI_PANE_H
#define NVS_UI_PANE_H

#include <stdbool.h>
#include "run/source.h"
#include "ui/draw.h"
#include "ui/theme.h"

/* the view of the time axis and the strips (keys.c, strips.c) */
struct ui_view {
	bool log, mbps;
	double span;	 /* seconds shown; 0 = the whole run */
	double view_end; /* right edge when not following */
	bool follow;
	int tgt_page;
	int qd_back; /* per-QD rows scrolled back (0 follows, < 0 on past the running row) */
	enum plot_style style; /* of the IOPS, latency and per-target strips */
};

struct pane_ctx {
	struct paint *p;	   /* what it draws with */
	struct source src;	   /* what it shows (run/source.h) */
	struct ui_view *view;	   /* scale and style; a drawer clamps the page and
				    * the per-QD scroll to what fits */
	const struct theme *theme; /* its name and options (bignum) */
	double t0, t1;		   /* the strips' time range this frame */
};

/* The series drawn: aggregate (@t < 0) or target @t.  Never NULL. */
const struct series *pane_series(const struct pane_ctx *c, int t);
/* Series groups: the targets, or the copies of a trace storm. */
unsigned pane_ntargets(const struct pane_ctx *c);
/* The copies of a trace storm shown, 0 when not one. */
unsigned pane_copies(const struct pane_ctx *c);
/* Path of target @t; "" when unknown. */
const char *pane_target_name(const struct pane_ctx *c, unsigned t);
/* Whether the source has capability @cap (SOURCE_*). */
bool pane_can(const struct pane_ctx *c, unsigned cap);
void pane_info(const struct pane_ctx *c, struct source_info *out);
/* The plan shown (NULL: none) and its state. */
const struct plan *pane_plan(const struct pane_ctx *c, struct source_plan_state *st);

#endif

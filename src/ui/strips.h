/* strips.h - the live time strips (strips.c): one function per pane, called
 * by panes_draw with the pane's context (pane.h) and, for the IOPS and
 * health strips, the steady view and the health readers. */
#ifndef NVS_UI_STRIPS_H
#define NVS_UI_STRIPS_H

#include "ui/app.h"

/* The newest point for "now" figures: the last one, unless it is a short
 * tail interval (the end of a job).  NULL when @s is empty. */
const struct point *strips_now_point(const struct series *s);
/* Points @ps at the values at offset @off of @s's points, in @role. */
void strips_points(struct plot_ser *ps, const struct series *s, size_t off, uint8_t role);
void strips_iops(const struct pane_ctx *c, WINDOW *w, struct ui_steady *st);
void strips_lat(const struct pane_ctx *c, WINDOW *w);
void strips_health(const struct pane_ctx *c, WINDOW *w, const struct ui_health *hl);
void strips_targets(const struct pane_ctx *c, WINDOW *w);

#endif

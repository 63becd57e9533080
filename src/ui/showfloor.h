/* showfloor.h - the figures of showfloor mode (a trade-show booth): IOPS,
 * MB/s and p99 latency in large digits across the top of the screen. */
#ifndef NVS_UI_SHOWFLOOR_H
#define NVS_UI_SHOWFLOOR_H

#include "ui/app.h"

/* Draws the big figures into @w (the Numbers pane's window in showfloor
 * mode).  A figure that does not fit in large digits is written in plain
 * text on the line below them, never cut. */
void showfloor_numbers(const struct pane_ctx *c, WINDOW *w);
/* The cell size of the big figures @txt (labels @lab under them) in a
 * window of @wd x @h: the largest integer scale of the 3x5 font for which
 * the header, the digits (5 * scale rows), the labels and the three
 * figures side by side (each counted as 5 characters at least, so the size
 * holds as the figures change) fit; 1 otherwise.  Pure. */
int showfloor_scale(int wd, int h, const char *const txt[3], const char *const lab[3]);
/* The large-digit text and label of a p99 latency of @us microseconds
 * ("245" "p99 us", "1.25" "p99 ms", "-" when unknown).  Pure. */
void showfloor_lat_text(double us, char *text, size_t tlen, char *label, size_t llen);

#endif

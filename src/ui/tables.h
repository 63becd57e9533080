/* tables.h - the live panes of figures (tables.c): per queue depth, Numbers
 * and CPU, called by panes_draw with the pane's context (pane.h). */
#ifndef NVS_UI_TABLES_H
#define NVS_UI_TABLES_H

#include "ui/app.h"

void tables_qd(const struct pane_ctx *c, WINDOW *w);
void tables_numbers(const struct pane_ctx *c, WINDOW *w);
void tables_cpu(const struct pane_ctx *c, WINDOW *w, const struct ui_cpu *cp);
/* A CPU bar's segments (user, system, irq: busy time, the bar's fill) into
 * @pct; returns their sum, the percentage written by the bar.  iowait is
 * idle time, in neither (the pane's title gives it).  Pure. */
double tables_cpu_fill(const struct cpu_util *u, double pct[3]);

#endif

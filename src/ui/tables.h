/* tables.h - the live panes of figures (tables.c): per queue depth, Numbers
 * and CPU, called by panes_draw's table. */
#ifndef NVS_UI_TABLES_H
#define NVS_UI_TABLES_H

#include "ui/app.h"

void tables_qd(struct app *a, WINDOW *w);
void tables_numbers(struct app *a, WINDOW *w);
void tables_cpu(struct app *a, WINDOW *w);
/* A CPU bar's segments (user, system, irq: busy time, the bar's fill) into
 * @pct; returns their sum, the percentage written by the bar.  iowait is
 * idle time, in neither (the pane's title gives it).  Pure. */
double tables_cpu_fill(const struct cpu_util *u, double pct[3]);

#endif

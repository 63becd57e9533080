/* tables.h - the live panes of figures (tables.c): per queue depth, Numbers
 * and CPU, called by panes_draw's table. */
#ifndef NVS_UI_TABLES_H
#define NVS_UI_TABLES_H

#include "ui/app.h"

void tables_qd(struct app *a, WINDOW *w);
void tables_numbers(struct app *a, WINDOW *w);
void tables_cpu(struct app *a, WINDOW *w);

#endif

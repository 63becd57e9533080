/* healthui.h - the per-drive health view: `H` on a Devices row (a
 * controller, a namespace or its generic node) opens a full-screen view of
 * the controller's SMART / health log (every field nvme-cli's smart-log
 * shows; invalid ones read N/A), the entries of its Error Information log
 * and the state and newest result of its Device Self-test log.  Read once
 * when the view opens and again on `r`, on a thread of its own (a stalled
 * drive never holds the screen: the view says how long it has waited and
 * still closes); a target that is not NVMe (a loop device, a file) says
 * so.  The lines scroll (k j, arrows, PgUp PgDn, g G), the
 * ones out of sight counted; Esc or q closes.  UI thread only. */
#ifndef NVS_UI_HEALTHUI_H
#define NVS_UI_HEALTHUI_H

#include <stdbool.h>

struct app;
struct healthui;
struct paint;
struct ui_screen;

/* Opens the view for the Devices row under the cursor.  0 or -errno (a
 * message in the status bar says why). */
int healthui_open(struct app *a);
/* True while the view is shown. */
bool healthui_active(const struct app *a);
/* Keys while the view is shown (it takes every key).  True when taken. */
bool healthui_key(struct app *a, int ch, bool is_key);
/* Every frame: takes a finished reading, or counts the seconds waited. */
void healthui_tick(struct app *a);
/* Draws the view over the whole screen. */
void healthui_draw(struct healthui *u, struct paint *pa, const struct ui_screen *scr);
/* Frees the view.  NULL-safe. */
void healthui_free(struct app *a);

#endif

/* checkui.h - the console's drive check: `c` in the Devices pane checks the
 * marked drives with a read-only profile (quick; `p` in the view picks
 * rma) in a thread of its own (check_run), and a full-screen view shows
 * each drive's phase and progress live, then the verdicts and reasons.
 * The results directory is the one `nvscope check` writes.  Profiles that
 * write (burn-in) are refused here: the headless command takes the typed
 * confirmation for them.  UI thread only, except the runner thread, which
 * shares with the UI only the batch's atomics and a done flag. */
#ifndef NVS_UI_CHECKUI_H
#define NVS_UI_CHECKUI_H

#include <stdbool.h>
#include <stddef.h>

struct app;
struct checkui;
struct paint;
struct ui_screen;

/* Opens the check view for the marked drives (or the one under the
 * cursor), ready to start with profile "quick".  0 or -errno (a message in
 * the status bar says why). */
int checkui_open(struct app *a);
/* `nvscope --check PROFILE`: opens the view with profile @name (a name or
 * a path; a profile that writes is refused, as in the view) and starts it.
 * 0 or -errno with a message in @err. */
int checkui_open_start(struct app *a, const char *name, char *err, size_t len);
/* True while the check view is shown. */
bool checkui_active(const struct app *a);
/* What the check view's keys do (their bindings are in the one action
 * table, keys.c, which gives the view every key but E): start the check
 * (once), the next profile (before the start), stop a running one, close
 * the view (false: a check runs, said in the status bar). */
void checkui_start(struct app *a);
void checkui_next_profile(struct app *a);
void checkui_stop(struct app *a);
bool checkui_close(struct app *a);
/* Every frame: notices progress and the end of the check. */
void checkui_tick(struct app *a);
/* Draws the view over the whole screen. */
void checkui_draw(struct checkui *c, struct paint *pa, const struct ui_screen *scr, const char *msg,
		  int msg_role);
/* Stops and joins a running check and frees the view.  NULL-safe. */
void checkui_free(struct app *a);

#endif

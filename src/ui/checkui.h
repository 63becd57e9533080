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
/* Keys of the check view (Enter starts, p cycles the profile, s stops, q
 * closes once the check ended).  True when the key was taken. */
bool checkui_key(struct app *a, int ch, bool is_key);
/* Every frame: notices progress and the end of the check. */
void checkui_tick(struct app *a);
/* Draws the view over the whole screen. */
void checkui_draw(struct app *a);
/* Stops and joins a running check and frees the view.  NULL-safe. */
void checkui_free(struct app *a);

#endif

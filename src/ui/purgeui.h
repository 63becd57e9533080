/* purgeui.h - purge from the console: `P` on a Devices row opens a menu of
 * Format (no secure erase / user data / crypto), Sanitize (block / crypto /
 * overwrite) and Trim (deallocate); what the controller's Identify data
 * (OACS, FNA, SANICAP, ONCS) or the device (not NVMe, no discard) rules out
 * is greyed with the reason and cannot be chosen.  A choice is checked
 * against the write-safety rule (in use: refused; data: refused unless the
 * console was started with --force-destroy), then asks for the typed token
 * (the serial for NVMe, the path otherwise) in the one destroy dialog, and
 * runs purge_run() (dev/purge.h) in a thread of its own: progress in the
 * title bar, the result as an event, the devices rescanned at the end.  A
 * running purge is not interrupted (Esc says so; a sanitize goes on in the
 * controller anyway).  UI thread only, except the runner thread, which
 * shares with the UI only two atomics (progress, done) until it is joined. */
#ifndef NVS_UI_PURGEUI_H
#define NVS_UI_PURGEUI_H

#include <stdbool.h>
#include <stddef.h>

struct app;
struct paint;
struct purgeui;
struct ui_screen;

/* Opens the purge menu for the Devices row under the cursor.  0 or -errno
 * (a message in the status bar says why). */
int purgeui_open(struct app *a);
/* What the purge keys do (their bindings are in the one action table,
 * keys.c: the menu takes every key; while a purge runs, Esc, s and q say
 * why it goes on): the menu's cursor by @d, choosing its method (the
 * destroy dialog follows), closing it; purgeui_wait says it in the status
 * bar. */
void purgeui_move(struct app *a, int d);
void purgeui_choose(struct app *a);
void purgeui_close(struct app *a);
void purgeui_wait(struct app *a);
/* A purge runs (its token typed). */
bool purgeui_running(const struct app *a);
/* The menu is shown (it takes the keys; the mouse is ignored). */
bool purgeui_menu_open(const struct app *a);
/* A purge runs (or waits for its typed token). */
bool purgeui_busy(const struct app *a);
/* Every frame: progress (the title bar) and the end of the purge. */
void purgeui_tick(struct app *a);
/* The menu box over the setup screen. */
void purgeui_draw(const struct purgeui *p, struct paint *pa, struct ui_screen *scr);
/* "PURGE format 45% 0:12" for the title bar, "" when none runs. */
void purgeui_title(const struct app *a, char *buf, size_t len);
/* Waits for a running purge (never abandoned halfway) and frees the state.
 * NULL-safe. */
void purgeui_free(struct app *a);

#endif

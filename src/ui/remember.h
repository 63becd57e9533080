/* remember.h - the console's settings between sessions (config/settings.h):
 * taken at start-up under what the command line says, saved on quit. */
#ifndef NVS_UI_REMEMBER_H
#define NVS_UI_REMEMBER_H

#include <stdbool.h>
#include <stddef.h>

struct app;
struct console_opts;

/* Reads settings.ini (unless --no-settings) and applies what the command
 * line did not set: the theme (when @o->theme is NULL), the remembered
 * targets that still exist (when none was given, not for --plan or a
 * replay), the form values that opt_set still accepts, the layout
 * toggles.  A file that cannot be used is ignored, and left alone (this
 * session saves nothing); its message is left in @msg ("" when none) for
 * the status bar. */
void remember_load(struct app *a, const struct console_opts *o, char *msg, size_t len);
/* Saves the current settings (not with --no-settings, --demo; a replay
 * keeps the remembered targets and form).  0 or -errno with @err. */
int remember_save(struct app *a, char *err, size_t len);

#endif

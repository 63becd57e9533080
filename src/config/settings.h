/* settings.h - what the console remembers between sessions:
 * $XDG_CONFIG_HOME/nvscope/settings.ini (~/.config/nvscope/ without it).
 *
 * The file holds the theme, the last marked targets, the custom form's
 * values and the layout toggles - never a confirmation token, an override
 * (--force-destroy, --yes-destroy-data) or anything that could write a
 * target by itself: a target remembered is only marked again, and every
 * write still asks for its typed confirmation.  Read with inih and the
 * strict number reader (base/num); a malformed, oversized, non-regular or
 * foreign-owned file is ignored as a whole (the caller shows the message).
 * Written only through dev/safety_out.c (atomic replacement of a regular
 * file of ours in a directory of ours, never through a symlink). */
#ifndef NVS_SETTINGS_H
#define NVS_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include "nvscope.h"

#define SETTINGS_MAX_TARGETS 16
#define SETTINGS_MAX_FORM    16
#define SETTINGS_PATH_MAX    256 /* a target path, NUL included */
#define SETTINGS_VAL_MAX     64	 /* a theme name or form value, NUL included */
#define SETTINGS_FILE_MAX    65536

struct settings {
	char theme[SETTINGS_VAL_MAX]; /* "" = not remembered */
	char targets[SETTINGS_MAX_TARGETS][SETTINGS_PATH_MAX];
	unsigned ntargets;
	struct {
		char key[32];
		char val[SETTINGS_VAL_MAX];
	} form[SETTINGS_MAX_FORM];
	unsigned nform;
	/* layout toggles: -1 = not remembered, else 0 / 1 */
	int log, mbps, steady;
	double span;	/* seconds of the time axis, 0 = whole run; < 0 not remembered */
	double round_s; /* steady-state round, s; < 0 not remembered */
};

/* Nothing remembered. */
void settings_init(struct settings *s);
/* Parses settings text @text (@n bytes, need not end in NUL) into @s
 * (settings_init first).  A line that is not [view]/[targets]/[form] or a
 * known key with a valid value, a NUL byte, a line over 1000 bytes, more
 * than SETTINGS_MAX_* entries: -EINVAL, @err says where, and @s is left
 * as nothing remembered. */
int settings_parse(const char *text, size_t n, struct settings *s, char *err, size_t len);
/* The directory: $XDG_CONFIG_HOME/nvscope when that is an absolute path,
 * else $HOME/.config/nvscope.  0, -ENOENT (neither set) or -ENAMETOOLONG. */
int settings_dir(char *buf, size_t len);
/* Reads DIR/settings.ini (settings_dir).  -ENOENT when there is none (not
 * an error); -EPERM for a symlink, a non-regular file or one owned by
 * another user (not root); -EFBIG over SETTINGS_FILE_MAX; parse errors as
 * settings_parse.  @s is nothing remembered on any error. */
int settings_load(const char *dir, struct settings *s, char *err, size_t len);
/* Writes @s as text into @buf; the length, or -ENOSPC. */
int settings_format(const struct settings *s, char *buf, size_t len);
/* Writes DIR/settings.ini atomically (creating DIR, 0755, when missing)
 * through safety_replace_in().  0 or -errno with @err. */
int settings_save(const char *dir, const struct settings *s, char *err, size_t len);

#endif

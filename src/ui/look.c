/* look.c - the console's look: the theme files (theme.c reads them), the
 * one chosen, and its roles turned into curses attributes and colour pairs
 * for the painter (draw.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "ui/app.h"

void look_apply(struct app *a)
{
	bool colour = has_colors() && !a->look.theme.mono;
	if (colour && !a->paint.ncolors) {
		start_color();
		use_default_colors();
		a->paint.ncolors = COLORS >= 256 ? 256 : COLORS >= 16 ? 16 : COLORS >= 8 ? 8 : 0;
	}
	/* no colour (none, fewer than 8, a mono theme): attributes and glyphs */
	a->paint.nocolour = !colour || !a->paint.ncolors;
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct role_style *s = &a->look.theme.role[r];
		unsigned ta = theme_attrs(&a->look.theme, (enum role)r, !a->paint.nocolour);
		attr_t at = 0;
		if (ta & THEME_BOLD)
			at |= A_BOLD;
		if (ta & THEME_DIM)
			at |= A_DIM;
		if (ta & THEME_REVERSE)
			at |= A_REVERSE;
		if (ta & THEME_UNDERLINE)
			at |= A_UNDERLINE;
		a->paint.attr[r] = at;
		a->paint.pair[r] = 0;
		if (!a->paint.nocolour && r > 0 && r < COLOR_PAIRS) {
			int fg = theme_colour_index(&s->fg, a->paint.ncolors);
			int bg = theme_colour_index(&s->bg, a->paint.ncolors);
			if (init_pair((short)r, (short)fg, (short)bg) == OK)
				a->paint.pair[r] = (short)r;
		}
	}
	app_dirty_all(a);
}

int app_set_theme(struct app *a, int idx, const char *name, char *err, size_t len)
{
	struct theme t;
	char path[1100];
	if (idx < 0 && name) {
		for (int i = 0; i < a->look.ntheme; i++)
			if (!strcmp(a->look.theme_names[i], name))
				idx = i;
		if (idx < 0) {
			snprintf(err, len, "unknown theme '%s' (themes in %s)", name,
				 a->look.theme_dir[0] ? a->look.theme_dir : "none found");
			return -ENOENT;
		}
	}
	if (idx < 0 || idx >= a->look.ntheme) {
		theme_default(&t);
	} else {
		snprintf(path, sizeof(path), "%s/%s.theme", a->look.theme_dir,
			 a->look.theme_names[idx]);
		int ret = theme_load(path, &t, err, len);
		if (ret)
			return ret;
	}
	a->look.theme = t;
	a->look.theme_idx = idx;
	if (a->look.active)
		look_apply(a);
	return 0;
}

int look_init(struct app *a, const char *name, char *err, size_t len)
{
	if (!theme_dir(a->look.theme_dir, sizeof(a->look.theme_dir))) {
		int n = theme_list(a->look.theme_dir, &a->look.theme_names);
		a->look.ntheme = n > 0 ? n : 0;
	}
	if (name)
		return app_set_theme(a, -1, name, err, len);
	if (app_set_theme(a, -1, "default", err, len))
		theme_default(&a->look.theme); /* no theme files: built-in */
	return 0;
}

/* theme.h - colour themes: semantic roles (what a thing is, not its colour,
 * as in htop's CRT.c) mapped to colours and attributes by themes/NAME.theme
 * files (`role = FG [on BG] [bold|dim|reverse|underline]...`).  Parsing and
 * colour mapping are pure; the console turns a theme into curses pairs. */
#ifndef NVS_UI_THEME_H
#define NVS_UI_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum role {
	ROLE_NONE, /* 0: "no colour" in canvases */
	ROLE_NORMAL,
	ROLE_TITLE,
	ROLE_STATUS,
	ROLE_STATUS_KEY,
	ROLE_BORDER,
	ROLE_HEADER,   /* pane titles, table headers */
	ROLE_SELECTED, /* cursor line */
	ROLE_MARKED,   /* a selected target */
	ROLE_DIM,
	ROLE_AXIS,
	ROLE_READ,
	ROLE_WRITE,
	ROLE_LAT_MEAN,
	ROLE_LAT_P99,
	ROLE_TEMP,
	ROLE_OK,
	ROLE_WARN,
	ROLE_ERROR,
	ROLE_CPU_USER,
	ROLE_CPU_SYSTEM,
	ROLE_CPU_IOWAIT,
	ROLE_CPU_IRQ,
	ROLE_BIGNUM,
	ROLE_COUNT
};

enum colour_kind { COLOUR_DEFAULT, COLOUR_INDEX, COLOUR_RGB };

struct colour {
	enum colour_kind kind;
	int index;	 /* COLOUR_INDEX: 0..255 (0..15 the ANSI names) */
	uint8_t r, g, b; /* COLOUR_RGB */
};

#define THEME_BOLD	0x1
#define THEME_DIM	0x2
#define THEME_REVERSE	0x4
#define THEME_UNDERLINE 0x8

struct role_style {
	struct colour fg, bg;
	unsigned attrs; /* THEME_* */
};

struct theme {
	char name[64];
	char description[128];
	bool bignum; /* large_digits = yes: big numbers pane (showfloor) */
	bool mono;   /* no colours at all, attributes only */
	struct role_style role[ROLE_COUNT];
};

/* The theme key of @r ("read", "lat_p99", ...); NULL for ROLE_NONE. */
const char *theme_role_name(enum role r);
/* Fills @t with the built-in dark theme (used when no file is found). */
void theme_default(struct theme *t);
/* Parses a colour: "default", a name ("red", "brightred", "gray"), a number
 * 0..255 or "#RRGGBB".  0 or -EINVAL. */
int theme_parse_colour(const char *s, struct colour *c);
/* Parses @text (the contents of @fname, for messages) into @t, starting from
 * the built-in default so a theme names only what it changes.  Errors name
 * the place: "themes/x.theme:7: unknown role 'raed'".  0 or -EINVAL. */
int theme_parse(const char *text, const char *fname, struct theme *t, char *err, size_t errlen);
/* Reads and parses file @path.  0, -errno (unreadable) or -EINVAL. */
int theme_load(const char *path, struct theme *t, char *err, size_t errlen);
/* The terminal colour number for @c on a terminal of @ncolors (256, 16 or
 * 8): RGB goes to the nearest xterm-256 cube/grey entry, or the nearest of
 * the 16/8 ANSI colours; indexes above the range fold down likewise.
 * Returns -1 for COLOUR_DEFAULT (the terminal's own). */
int theme_colour_index(const struct colour *c, int ncolors);
/* The attributes (THEME_*) role @r gets from @t: its own with @colour; on
 * a terminal without colour (no has_colors(), fewer than 8, or a mono
 * theme) a colour theme's roles fall back to attributes alone (the cursor
 * line reverse, headers bold underline, warnings bold, errors reverse bold,
 * as themes/mono.theme), so nothing is told apart by colour only; a mono
 * theme keeps its own. */
unsigned theme_attrs(const struct theme *t, enum role r, bool colour);
/* Without colour, the glyph a strip or bar cell of series role @r is drawn
 * with, so series stay apart: read '+', write 'x', latency mean '*', p99
 * 'o', temperature '#', CPU user '|', system '=', iowait '.', irq '^'; 0
 * for other roles. */
char theme_glyph(enum role r);
/* Finds the theme directory: $NVSCOPE_THEMES, ./themes, <exe>/../share/
 * nvscope/themes, /usr/share/nvscope/themes.  0 with @dir set, or -ENOENT. */
int theme_dir(char *dir, size_t len);
/* Lists the *.theme names (without extension) of @dir, sorted, into
 * @names (malloc'ed array of malloc'ed strings; free with theme_names_free).
 * Returns the count (>= 0) or -errno. */
int theme_list(const char *dir, char ***names);
void theme_names_free(char **names, int n);

#endif

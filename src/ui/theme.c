/* theme.c - theme files and colour fallback.
 *
 * Format: one `key = value` per line, '#' or ';' starts a comment line.
 * Keys are the role names below plus name, description, large_digits, mono and
 * background (sets the background of every role; later lines override).
 * A role's value is `FG [on BG] [bold|dim|reverse|underline]...`.
 *
 * Colour fallback: xterm's 256-colour palette is 16 ANSI colours, a 6x6x6
 * cube with levels 0,95,135,175,215,255 (index 16 + 36r + 6g + b) and a
 * 24-step grey ramp 8 + 10i (index 232 + i).  An #RRGGBB goes to the nearest
 * cube or ramp entry by squared RGB distance; on 16- or 8-colour terminals
 * to the nearest of the ANSI colours with xterm's default RGB values. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "base/input.h"
#include "base/num.h"
#include "config/datadir.h"
#include "ui/theme.h"

static const char *role_names[ROLE_COUNT] = {
    [ROLE_NONE] = NULL,
    [ROLE_NORMAL] = "normal",
    [ROLE_TITLE] = "title",
    [ROLE_STATUS] = "status",
    [ROLE_STATUS_KEY] = "status_key",
    [ROLE_BORDER] = "border",
    [ROLE_HEADER] = "header",
    [ROLE_SELECTED] = "selected",
    [ROLE_MARKED] = "marked",
    [ROLE_DIM] = "dim",
    [ROLE_AXIS] = "axis",
    [ROLE_READ] = "read",
    [ROLE_WRITE] = "write",
    [ROLE_LAT_MEAN] = "lat_mean",
    [ROLE_LAT_P99] = "lat_p99",
    [ROLE_TEMP] = "temperature",
    [ROLE_OK] = "ok",
    [ROLE_WARN] = "warn",
    [ROLE_ERROR] = "error",
    [ROLE_CPU_USER] = "cpu_user",
    [ROLE_CPU_SYSTEM] = "cpu_system",
    [ROLE_CPU_IOWAIT] = "cpu_iowait",
    [ROLE_CPU_IRQ] = "cpu_irq",
    [ROLE_BIGNUM] = "bignum",
};

static const char *ansi_names[16] = {
    "black",	  "red",	   "green",	  "yellow",	 "blue",	"magenta",
    "cyan",	  "white",	   "brightblack", "brightred",	 "brightgreen", "brightyellow",
    "brightblue", "brightmagenta", "brightcyan",  "brightwhite",
};

static const uint8_t ansi_rgb[16][3] = {
    {0, 0, 0},	   {205, 0, 0},	    {0, 205, 0},     {205, 205, 0},   {0, 0, 238}, {205, 0, 205},
    {0, 205, 205}, {229, 229, 229}, {127, 127, 127}, {255, 0, 0},     {0, 255, 0}, {255, 255, 0},
    {92, 92, 255}, {255, 0, 255},   {0, 255, 255},   {255, 255, 255},
};

static const int cube_level[6] = {0, 95, 135, 175, 215, 255};

const char *theme_role_name(enum role r)
{
	return (unsigned)r < ROLE_COUNT ? role_names[r] : NULL;
}

static void style(struct theme *t, enum role r, int fg, int bg, unsigned attrs)
{
	struct role_style *s = &t->role[r];
	s->fg.kind = fg < 0 ? COLOUR_DEFAULT : COLOUR_INDEX;
	s->fg.index = fg;
	s->bg.kind = bg < 0 ? COLOUR_DEFAULT : COLOUR_INDEX;
	s->bg.index = bg;
	s->attrs = attrs;
}

void theme_default(struct theme *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "builtin");
	snprintf(t->description, sizeof(t->description), "built-in dark theme");
	for (int r = 0; r < ROLE_COUNT; r++)
		style(t, r, -1, -1, 0);
	style(t, ROLE_TITLE, 0, 6, THEME_BOLD);
	style(t, ROLE_STATUS, 0, 6, 0);
	style(t, ROLE_STATUS_KEY, 15, 0, THEME_BOLD);
	style(t, ROLE_BORDER, 4, -1, 0);
	style(t, ROLE_HEADER, 6, -1, THEME_BOLD);
	style(t, ROLE_SELECTED, 0, 6, 0);
	style(t, ROLE_MARKED, 11, -1, THEME_BOLD);
	style(t, ROLE_DIM, 8, -1, 0);
	style(t, ROLE_AXIS, 8, -1, 0);
	style(t, ROLE_READ, 10, -1, 0);
	style(t, ROLE_WRITE, 13, -1, 0);
	style(t, ROLE_LAT_MEAN, 14, -1, 0);
	style(t, ROLE_LAT_P99, 11, -1, 0);
	style(t, ROLE_TEMP, 9, -1, 0);
	style(t, ROLE_OK, 10, -1, 0);
	style(t, ROLE_WARN, 11, -1, THEME_BOLD);
	style(t, ROLE_ERROR, 15, 1, THEME_BOLD);
	style(t, ROLE_CPU_USER, 2, -1, 0);
	style(t, ROLE_CPU_SYSTEM, 1, -1, 0);
	style(t, ROLE_CPU_IOWAIT, 8, -1, 0);
	style(t, ROLE_CPU_IRQ, 5, -1, 0);
	style(t, ROLE_BIGNUM, 14, -1, THEME_BOLD);
}

unsigned theme_attrs(const struct theme *t, enum role r, bool colour)
{
	static const unsigned fallback[ROLE_COUNT] = {
	    [ROLE_TITLE] = THEME_REVERSE | THEME_BOLD,
	    [ROLE_STATUS] = THEME_REVERSE,
	    [ROLE_STATUS_KEY] = THEME_BOLD,
	    [ROLE_BORDER] = THEME_DIM,
	    [ROLE_HEADER] = THEME_BOLD | THEME_UNDERLINE,
	    [ROLE_SELECTED] = THEME_REVERSE,
	    [ROLE_MARKED] = THEME_BOLD,
	    [ROLE_DIM] = THEME_DIM,
	    [ROLE_AXIS] = THEME_DIM,
	    [ROLE_READ] = THEME_BOLD,
	    [ROLE_LAT_MEAN] = THEME_BOLD,
	    [ROLE_TEMP] = THEME_BOLD,
	    [ROLE_WARN] = THEME_BOLD,
	    [ROLE_ERROR] = THEME_REVERSE | THEME_BOLD,
	    [ROLE_CPU_USER] = THEME_BOLD,
	    [ROLE_CPU_SYSTEM] = THEME_REVERSE,
	    [ROLE_CPU_IOWAIT] = THEME_DIM,
	    [ROLE_CPU_IRQ] = THEME_UNDERLINE,
	    [ROLE_BIGNUM] = THEME_BOLD,
	};
	if (r <= ROLE_NONE || r >= ROLE_COUNT)
		return 0;
	if (colour || t->mono)
		return t->role[r].attrs;
	return fallback[r];
}

char theme_glyph(enum role r)
{
	switch (r) {
	case ROLE_READ:
		return '+';
	case ROLE_WRITE:
		return 'x';
	case ROLE_LAT_MEAN:
		return '*';
	case ROLE_LAT_P99:
		return 'o';
	case ROLE_TEMP:
		return '#';
	case ROLE_CPU_USER:
		return '|';
	case ROLE_CPU_SYSTEM:
		return '=';
	case ROLE_CPU_IOWAIT:
		return '.';
	case ROLE_CPU_IRQ:
		return '^';
	default:
		return 0;
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int theme_parse_colour(const char *s, struct colour *c)
{
	memset(c, 0, sizeof(*c));
	if (!strcasecmp(s, "default") || !strcasecmp(s, "none")) {
		c->kind = COLOUR_DEFAULT;
		return 0;
	}
	if (s[0] == '#') {
		if (strlen(s) != 7)
			return -EINVAL;
		int v[6];
		for (int i = 0; i < 6; i++)
			if ((v[i] = hexval((unsigned char)s[i + 1])) < 0)
				return -EINVAL;
		c->kind = COLOUR_RGB;
		c->r = (uint8_t)(v[0] * 16 + v[1]);
		c->g = (uint8_t)(v[2] * 16 + v[3]);
		c->b = (uint8_t)(v[4] * 16 + v[5]);
		return 0;
	}
	if (isdigit((unsigned char)s[0])) {
		unsigned n;
		if (num_parse_uint(s, 0, 255, &n))
			return -EINVAL;
		c->kind = COLOUR_INDEX;
		c->index = (int)n;
		return 0;
	}
	const char *name = s;
	char buf[32];
	if (!strncasecmp(s, "bright-", 7) || !strncasecmp(s, "bright_", 7)) {
		snprintf(buf, sizeof(buf), "bright%s", s + 7);
		name = buf;
	}
	if (!strcasecmp(name, "gray") || !strcasecmp(name, "grey")) {
		c->kind = COLOUR_INDEX;
		c->index = 8;
		return 0;
	}
	for (int i = 0; i < 16; i++)
		if (!strcasecmp(name, ansi_names[i])) {
			c->kind = COLOUR_INDEX;
			c->index = i;
			return 0;
		}
	return -EINVAL;
}

static int nearest_ansi(int r, int g, int b, int n)
{
	int best = 0;
	long bestd = LONG_MAX;
	for (int i = 0; i < n; i++) {
		long dr = r - ansi_rgb[i][0], dg = g - ansi_rgb[i][1], db = b - ansi_rgb[i][2];
		long d = dr * dr + dg * dg + db * db;
		if (d < bestd) {
			bestd = d;
			best = i;
		}
	}
	return best;
}

static int nearest_level(int v)
{
	int best = 0;
	for (int i = 1; i < 6; i++)
		if (abs(v - cube_level[i]) < abs(v - cube_level[best]))
			best = i;
	return best;
}

static int rgb_to_256(int r, int g, int b)
{
	int ri = nearest_level(r), gi = nearest_level(g), bi = nearest_level(b);
	int cr = cube_level[ri], cg = cube_level[gi], cb = cube_level[bi];
	long dc = (long)(r - cr) * (r - cr) + (long)(g - cg) * (g - cg) + (long)(b - cb) * (b - cb);
	int avg = (r + g + b) / 3;
	int gi2 = avg < 8 ? 0 : avg > 238 ? 23 : (avg - 8 + 5) / 10;
	int gv = 8 + 10 * gi2;
	long dg = (long)(r - gv) * (r - gv) + (long)(g - gv) * (g - gv) + (long)(b - gv) * (b - gv);
	return dg < dc ? 232 + gi2 : 16 + 36 * ri + 6 * gi + bi;
}

static void index_to_rgb(int idx, int *r, int *g, int *b)
{
	if (idx < 16) {
		*r = ansi_rgb[idx][0];
		*g = ansi_rgb[idx][1];
		*b = ansi_rgb[idx][2];
	} else if (idx < 232) {
		idx -= 16;
		*r = cube_level[idx / 36];
		*g = cube_level[idx / 6 % 6];
		*b = cube_level[idx % 6];
	} else {
		*r = *g = *b = 8 + 10 * (idx - 232);
	}
}

int theme_colour_index(const struct colour *c, int ncolors)
{
	int r, g, b;
	switch (c->kind) {
	case COLOUR_DEFAULT:
		return -1;
	case COLOUR_INDEX:
		if (c->index < ncolors)
			return c->index;
		if (c->index < 16 && ncolors >= 8)
			return c->index - 8; /* bright -> normal */
		index_to_rgb(c->index, &r, &g, &b);
		return nearest_ansi(r, g, b, ncolors >= 16 ? 16 : 8);
	case COLOUR_RGB:
		if (ncolors >= 256)
			return rgb_to_256(c->r, c->g, c->b);
		return nearest_ansi(c->r, c->g, c->b, ncolors >= 16 ? 16 : 8);
	}
	return -1;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int parse_bool(const char *v, bool *out)
{
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcmp(v, "1") ||
	    !strcasecmp(v, "on")) {
		*out = true;
		return 0;
	}
	if (!strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcmp(v, "0") ||
	    !strcasecmp(v, "off")) {
		*out = false;
		return 0;
	}
	return -EINVAL;
}

/* Parses `FG [on BG] [attr]...` into @st; on error names the bad word. */
static int parse_style(char *v, struct role_style *st, const char **bad)
{
	char *save = NULL;
	int n = 0;
	bool want_bg = false;
	st->attrs = 0;
	for (char *w = strtok_r(v, " \t", &save); w; w = strtok_r(NULL, " \t", &save), n++) {
		*bad = w;
		if (want_bg) {
			if (theme_parse_colour(w, &st->bg))
				return -EINVAL;
			want_bg = false;
		} else if (!strcasecmp(w, "on") && n > 0) {
			want_bg = true;
		} else if (!strcasecmp(w, "bold")) {
			st->attrs |= THEME_BOLD;
		} else if (!strcasecmp(w, "dim")) {
			st->attrs |= THEME_DIM;
		} else if (!strcasecmp(w, "reverse")) {
			st->attrs |= THEME_REVERSE;
		} else if (!strcasecmp(w, "underline")) {
			st->attrs |= THEME_UNDERLINE;
		} else if (n == 0) {
			if (theme_parse_colour(w, &st->fg))
				return -EINVAL;
		} else {
			return -EINVAL;
		}
	}
	if (want_bg) {
		*bad = "on (no background colour follows)";
		return -EINVAL;
	}
	if (n == 0) {
		*bad = "(empty value)";
		return -EINVAL;
	}
	return 0;
}

static int parse_line(char *line, struct theme *t, char *why, size_t len)
{
	char *eq = strchr(line, '=');
	if (!eq) {
		snprintf(why, len, "expected 'key = value'");
		return -EINVAL;
	}
	*eq = '\0';
	char *key = trim(line), *val = trim(eq + 1);
	if (!*key) {
		snprintf(why, len, "missing key before '='");
		return -EINVAL;
	}
	if (!strcasecmp(key, "name")) {
		snprintf(t->name, sizeof(t->name), "%s", val);
		return 0;
	}
	if (!strcasecmp(key, "description")) {
		snprintf(t->description, sizeof(t->description), "%s", val);
		return 0;
	}
	if (!strcasecmp(key, "large_digits") || !strcasecmp(key, "mono")) {
		bool b;
		if (parse_bool(val, &b)) {
			snprintf(why, len, "%s: expected yes or no, got '%.40s'", key, val);
			return -EINVAL;
		}
		if (!strcasecmp(key, "large_digits"))
			t->bignum = b;
		else
			t->mono = b;
		return 0;
	}
	if (!strcasecmp(key, "background")) {
		struct colour c;
		if (theme_parse_colour(val, &c)) {
			snprintf(why, len, "bad colour '%.40s'", val);
			return -EINVAL;
		}
		for (int r = 1; r < ROLE_COUNT; r++)
			t->role[r].bg = c;
		return 0;
	}
	for (int r = 1; r < ROLE_COUNT; r++) {
		if (strcasecmp(key, role_names[r]))
			continue;
		struct role_style st = t->role[r];
		const char *bad = val;
		if (parse_style(val, &st, &bad)) {
			snprintf(why, len, "%s: bad colour or attribute '%.40s'", key, bad);
			return -EINVAL;
		}
		t->role[r] = st;
		return 0;
	}
	snprintf(why, len, "unknown key '%.40s'", key);
	return -EINVAL;
}

int theme_parse(const char *text, const char *fname, struct theme *t, char *err, size_t errlen)
{
	theme_default(t);
	t->name[0] = '\0';
	t->description[0] = '\0';
	int lineno = 0;
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char line[512], why[160];
		lineno++;
		if (n >= sizeof(line)) {
			snprintf(err, errlen, "%s:%d: line too long", fname, lineno);
			return -EINVAL;
		}
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (nl ? 1 : 0);
		char *s = trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (parse_line(s, t, why, sizeof(why))) {
			snprintf(err, errlen, "%s:%d: %s", fname, lineno, why);
			return -EINVAL;
		}
	}
	if (!t->name[0]) {
		const char *base = strrchr(fname, '/');
		base = base ? base + 1 : fname;
		snprintf(t->name, sizeof(t->name), "%.*s", (int)strcspn(base, "."), base);
	}
	return 0;
}

int theme_load(const char *path, struct theme *t, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	/* docs/safety.md "Rule: hostile inputs": a regular file of at most 1 MiB */
	int ret = input_read_all(path, 1u << 20, "theme", &buf, &len, err, errlen);
	if (ret)
		return ret;
	ret = theme_parse(buf, path, t, err, errlen);
	free(buf);
	return ret;
}

int theme_dir(char *dir, size_t len)
{
	return datadir_first("themes", "NVSCOPE_THEMES", NULL, dir, len);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int theme_list(const char *dir, char ***names)
{
	*names = NULL;
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	char **v = NULL;
	int n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l <= 6 || strcmp(e->d_name + l - 6, ".theme"))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			char **nv = realloc(v, (size_t)cap * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
		}
		if (!(v[n] = strndup(e->d_name, l - 6)))
			goto nomem;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), cmp_str);
	*names = v;
	return n;
nomem:
	closedir(d);
	theme_names_free(v, n);
	return -ENOMEM;
}

void theme_names_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

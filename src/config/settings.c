/* settings.c - the console's remembered settings, see settings.h.
 *
 * inih does the INI syntax, driven through ini_parse_stream() with our own
 * line reader (a NUL byte or an overlong line is an error, never a cut
 * line); every value is checked here: names and paths printable ASCII,
 * numbers through base/num, toggles 0 or 1.  Any error drops the whole
 * file: half a file of settings is not what anyone saved. */
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/num.h"
#include "config/settings.h"
#include "dev/safety.h"

#define LINE_MAX_LEN 1000

struct sparse {
	const char *pos, *end;
	unsigned line;
	char err[160];
	struct settings *s;
};

void settings_init(struct settings *s)
{
	memset(s, 0, sizeof(*s));
	s->log = s->mbps = s->steady = -1;
	s->span = s->round_s = -1;
}

static int bad(struct sparse *ps, const char *fmt, const char *what)
{
	if (!ps->err[0])
		snprintf(ps->err, sizeof(ps->err), fmt, what);
	return 0; /* inih: stop with an error */
}

/* Printable ASCII, no quote/comment characters inih would treat apart, no
 * blanks at the ends (inih strips them): a value that reads back as
 * written. */
static bool plain(const char *v, size_t max, bool path)
{
	size_t n = strlen(v);
	if (!n || n >= max || v[0] == ' ' || v[n - 1] == ' ')
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)v[i];
		if (c < 0x20 || c > 0x7e || c == ';' || c == '#' || c == '=' || c == '[')
			return false;
	}
	return !path || v[0] == '/';
}

static bool word(const char *k, size_t max)
{
	size_t n = strlen(k);
	if (!n || n >= max)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= '0' && k[i] <= '9') || k[i] == '_'))
			return false;
	return true;
}

static int toggle(struct sparse *ps, const char *v, int *out)
{
	if (!strcmp(v, "0") || !strcmp(v, "1")) {
		*out = v[0] == '1';
		return 1;
	}
	return bad(ps, "'%s' is not 0 or 1", v);
}

static int handler(void *user, const char *sec, const char *key, const char *val)
{
	struct sparse *ps = user;
	struct settings *s = ps->s;
	if (!key) /* a section line: checked with its first key */
		return strcmp(sec, "view") && strcmp(sec, "targets") && strcmp(sec, "form")
			   ? bad(ps, "unknown section [%s]", sec)
			   : 1;
	if (!strcmp(sec, "view")) {
		if (!strcmp(key, "theme")) {
			if (!plain(val, sizeof(s->theme), false) || strchr(val, '/'))
				return bad(ps, "theme '%s' is not a theme name", val);
			snprintf(s->theme, sizeof(s->theme), "%s", val);
			return 1;
		}
		if (!strcmp(key, "log"))
			return toggle(ps, val, &s->log);
		if (!strcmp(key, "mbps"))
			return toggle(ps, val, &s->mbps);
		if (!strcmp(key, "steady"))
			return toggle(ps, val, &s->steady);
		if (!strcmp(key, "span"))
			return num_parse_double(val, 0, 1e7, &s->span)
				   ? bad(ps, "span '%s' is not a number of seconds in [0, 1e7]",
					 val)
				   : 1;
		if (!strcmp(key, "round"))
			return num_parse_double(val, 1, 86400, &s->round_s)
				   ? bad(ps, "round '%s' is not a number of seconds in [1, 86400]",
					 val)
				   : 1;
		return bad(ps, "unknown key '%s' in [view]", key);
	}
	if (!strcmp(sec, "targets")) {
		if (strcmp(key, "target"))
			return bad(ps, "unknown key '%s' in [targets]", key);
		if (s->ntargets >= SETTINGS_MAX_TARGETS)
			return bad(ps, "more than %s targets", "16");
		if (!plain(val, SETTINGS_PATH_MAX, true))
			return bad(ps, "target '%.100s' is not an absolute path", val);
		snprintf(s->targets[s->ntargets++], SETTINGS_PATH_MAX, "%s", val);
		return 1;
	}
	if (!strcmp(sec, "form")) {
		if (!word(key, sizeof(s->form[0].key)))
			return bad(ps, "form key '%.40s' is not a word", key);
		if (s->nform >= SETTINGS_MAX_FORM)
			return bad(ps, "more than %s form values", "16");
		if (!plain(val, SETTINGS_VAL_MAX, false))
			return bad(ps, "form value '%.70s' is not plain text", val);
		for (unsigned i = 0; i < s->nform; i++)
			if (!strcmp(s->form[i].key, key))
				return bad(ps, "form key '%s' given twice", key);
		snprintf(s->form[s->nform].key, sizeof(s->form[0].key), "%s", key);
		snprintf(s->form[s->nform++].val, SETTINGS_VAL_MAX, "%s", val);
		return 1;
	}
	return bad(ps, "a key outside [view], [targets] or [form]: '%.40s'", key);
}

/* inih's line reader over our buffer: a NUL byte or a line longer than
 * @num - 1 stops the parse (recorded in ps->err). */
static char *reader(char *str, int num, void *stream)
{
	struct sparse *ps = stream;
	if (ps->err[0] || ps->pos >= ps->end)
		return NULL;
	const char *nl = memchr(ps->pos, '\n', (size_t)(ps->end - ps->pos));
	size_t len = nl ? (size_t)(nl - ps->pos) + 1 : (size_t)(ps->end - ps->pos);
	ps->line++;
	if (len > LINE_MAX_LEN || len + 1 > (size_t)num) {
		snprintf(ps->err, sizeof(ps->err), "line too long");
		return NULL;
	}
	if (memchr(ps->pos, '\0', len)) {
		snprintf(ps->err, sizeof(ps->err), "a NUL byte");
		return NULL;
	}
	memcpy(str, ps->pos, len);
	str[len] = '\0';
	ps->pos += len;
	return str;
}

int settings_parse(const char *text, size_t n, struct settings *s, char *err, size_t len)
{
	struct sparse ps = {.pos = text, .end = text + n, .s = s};
	settings_init(s);
	int r = ini_parse_stream(reader, &ps, handler, &ps);
	if (!ps.err[0] && r > 0)
		snprintf(ps.err, sizeof(ps.err), "not a [section] or 'key = value' line");
	else if (!ps.err[0] && r)
		snprintf(ps.err, sizeof(ps.err), "cannot parse (%d)", r);
	if (!ps.err[0])
		return 0;
	snprintf(err, len, "line %u: %s", ps.line, ps.err);
	settings_init(s);
	return r == -2 ? -ENOMEM : -EINVAL;
}

int settings_dir(char *buf, size_t len)
{
	const char *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");
	int n;
	if (x && x[0] == '/')
		n = snprintf(buf, len, "%s/nvscope", x);
	else if (h && h[0] == '/')
		n = snprintf(buf, len, "%s/.config/nvscope", h);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int settings_load(const char *dir, struct settings *s, char *err, size_t len)
{
	char path[600], *text = NULL;
	struct stat st;
	int rc = 0;
	settings_init(s);
	if ((size_t)snprintf(path, sizeof(path), "%s/settings.ini", dir) >= sizeof(path)) {
		snprintf(err, len, "settings directory name too long");
		return -ENAMETOOLONG;
	}
	/* never through a symlink, never blocking on a FIFO */
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		if (rc == -ELOOP)
			rc = -EPERM;
		snprintf(err, len, "%.500s: %s", path,
			 rc == -EPERM ? "a symlink (ignored)" : strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, len, "%.500s: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || (st.st_uid != geteuid() && st.st_uid != 0)) {
		rc = -EPERM;
		snprintf(err, len, "%.500s: not a regular file of yours (ignored)", path);
		goto out;
	}
	if (st.st_size > SETTINGS_FILE_MAX) {
		rc = -EFBIG;
		snprintf(err, len, "%.500s: larger than %d bytes (ignored)", path,
			 SETTINGS_FILE_MAX);
		goto out;
	}
	text = malloc(SETTINGS_FILE_MAX + 1);
	if (!text) {
		rc = -ENOMEM;
		snprintf(err, len, "out of memory");
		goto out;
	}
	size_t n = 0;
	for (;;) {
		ssize_t r = read(fd, text + n, SETTINGS_FILE_MAX + 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			snprintf(err, len, "%.500s: %s", path, strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > SETTINGS_FILE_MAX) { /* grew since fstat */
			rc = -EFBIG;
			snprintf(err, len, "%.500s: larger than %d bytes (ignored)", path,
				 SETTINGS_FILE_MAX);
			goto out;
		}
	}
	char perr[200];
	rc = settings_parse(text, n, s, perr, sizeof(perr));
	if (rc)
		snprintf(err, len, "%.400s: %s (ignored)", path, perr);
out:
	if (rc)
		settings_init(s);
	free(text);
	close(fd);
	return rc;
}

int settings_format(const struct settings *s, char *buf, size_t len)
{
	size_t n = 0;
#define OUT(...)                                                                                   \
	do {                                                                                       \
		int w_ = snprintf(buf + n, len > n ? len - n : 0, __VA_ARGS__);                    \
		if (w_ < 0 || (size_t)w_ >= (len > n ? len - n : 0))                               \
			return -ENOSPC;                                                            \
		n += (size_t)w_;                                                                   \
	} while (0)
	OUT("# nvscope console settings: written by nvscope on quit (--no-settings: neither\n"
	    "# read nor written).  Never a confirmation or an override.\n[view]\n");
	if (s->theme[0] && plain(s->theme, sizeof(s->theme), false) && !strchr(s->theme, '/'))
		OUT("theme = %s\n", s->theme);
	if (s->log >= 0)
		OUT("log = %d\n", !!s->log);
	if (s->mbps >= 0)
		OUT("mbps = %d\n", !!s->mbps);
	if (s->steady >= 0)
		OUT("steady = %d\n", !!s->steady);
	if (s->span >= 0 && s->span <= 1e7)
		OUT("span = %.17g\n", s->span);
	if (s->round_s >= 1 && s->round_s <= 86400)
		OUT("round = %.17g\n", s->round_s);
	OUT("[targets]\n");
	for (unsigned i = 0; i < s->ntargets && i < SETTINGS_MAX_TARGETS; i++)
		if (plain(s->targets[i], SETTINGS_PATH_MAX, true)) /* else not kept */
			OUT("target = %s\n", s->targets[i]);
	OUT("[form]\n");
	for (unsigned i = 0; i < s->nform && i < SETTINGS_MAX_FORM; i++)
		if (word(s->form[i].key, sizeof(s->form[i].key)) &&
		    plain(s->form[i].val, SETTINGS_VAL_MAX, false))
			OUT("%s = %s\n", s->form[i].key, s->form[i].val);
#undef OUT
	return (int)n;
}

int settings_save(const char *dir, const struct settings *s, char *err, size_t len)
{
	char *buf = malloc(SETTINGS_FILE_MAX);
	if (!buf) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	int n = settings_format(s, buf, SETTINGS_FILE_MAX), rc;
	if (n < 0) {
		snprintf(err, len, "settings: too large");
		rc = n;
		goto out;
	}
	/* the directory: created when missing, then checked as ours */
	int dfd = safety_results_dir(dir, true, err, len);
	if (dfd < 0) {
		rc = dfd;
		goto out;
	}
	close(dfd);
	rc = safety_replace_in(dir, "settings.ini", buf, (size_t)n, err, len);
out:
	free(buf);
	return rc;
}

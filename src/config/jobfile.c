/* jobfile.c - a small reader for fio's job-file syntax, written to fio's
 * semantics (fio's init.c __parse_jobs_ini, parse.c strip_blank_end,
 * options.c fio_option_dup_subs / fio_keyword_replace).
 *
 * Why not inih (used for plans): its semantics differ from fio's in ways
 * that change the workload, and Debian's libinih is built with fixed options
 * we cannot change:
 *   - it reports sections only through their keys, so empty sections
 *     (`[t0]` alone, a job with fio's defaults) vanish;
 *   - an indented line is a continuation of the previous value
 *     (INI_ALLOW_MULTILINE), fio reads it as an option;
 *   - it takes inline comments only after whitespace and only ';', fio cuts
 *     every line at the first ';' and then at the first '#';
 *   - a NUL byte ends its line early, so the next line is read as part of
 *     it; it has no `include`, no ${ENV}, and no bare `flag` lines.
 *
 * fio's rules kept here: leading blanks are skipped; a line whose first
 * non-blank character is ';' or '#' is a comment; every other line is cut
 * at its first ';', then at its first '#', and trailing blanks go; `[name]`
 * starts a section (each header is one section: empty and repeated ones
 * too); `include FILE` inside a section reads FILE's lines as options of
 * that section (FILE as given if it exists, else beside the including
 * file; no sections in it); ${VAR} becomes the environment variable's value
 * (empty when unset); $pagesize, $ncpus and $mb_memory become their values.
 * Differences, all refusals with file:line rather than guesses: NUL bytes,
 * invalid UTF-8 and control characters; a header without its closing ']',
 * an empty or over-255-character name; arithmetic on $keywords (fio runs
 * bc); include nested more than JOBFILE_MAX_INCLUDE deep.  Lines have no
 * length limit (fio's is 8191 characters). */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/input.h"
#include "config/jobfile.h"

struct ctx {
	const struct jobfile_ops *ops;
	void *user;
	char *err;
	size_t errlen;
	bool in_section;
	bool no_include; /* jobfile_parse_mem: no file is read */
	unsigned nsections;
	size_t total;	   /* bytes of every file read (JOBFILE_MAX_TOTAL) */
	bool open_failed; /* parse_file's error is its file's, not a line's */
};

/* The whole file, NUL-terminated (embedded NULs are found per line): a
 * regular file of at most JOBFILE_MAX_BYTES (base/input.h). */
static int read_all(const char *path, char **out, size_t *outlen, char *err, size_t errlen)
{
	return input_read_all(path, JOBFILE_MAX_BYTES, "job file", out, outlen, err, errlen);
}

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0], need, min, cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 1, min = 0x80, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		need = 2, min = 0x800, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		need = 3, min = 0x10000, cp = c & 0x07;
	else
		return 0;
	if (n < need + 1)
		return 0;
	for (unsigned i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return need + 1;
}

/* Text a job file may hold: UTF-8 without NUL or control characters
 * (tabs and a CR before the newline are fine).  0 or -EINVAL with @why. */
static int check_text(const char *line, size_t n, const char **why)
{
	const unsigned char *s = (const unsigned char *)line;

	for (size_t i = 0; i < n;) {
		if (s[i] == '\0') {
			*why = "NUL byte (a job file is text)";
			return -EINVAL;
		}
		if (s[i] < 0x20 && s[i] != '\t' && s[i] != '\r' && s[i] != '\f' && s[i] != '\v') {
			*why = "control character (a job file is text)";
			return -EINVAL;
		}
		size_t l = utf8_len(s + i, n - i);
		if (!l) {
			*why = "invalid UTF-8";
			return -EINVAL;
		}
		i += l;
	}
	return 0;
}

/* fio's strip_blank_end: cut at the first ';', then at the first '#', then
 * drop trailing blanks. */
static void strip_end(char *p)
{
	size_t n;

	p[strcspn(p, ";")] = '\0';
	p[strcspn(p, "#")] = '\0';
	n = strlen(p);
	while (n && (isspace((unsigned char)p[n - 1]) || iscntrl((unsigned char)p[n - 1])))
		p[--n] = '\0';
}

struct sbuf {
	char *s;
	size_t len, cap;
};

static int sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *ns = realloc(b->s, cap);
		if (!ns)
			return -ENOMEM;
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/* fio_option_dup_subs: ${VAR} -> getenv(VAR) (nothing when unset), then
 * fio_keyword_replace.  *@out is malloc'ed; *@keyword says a $keyword was
 * replaced (fio then evaluates arithmetic with bc). */
static int substitute(const char *in, char **out, bool *keyword)
{
	static const char *const words[] = {"$pagesize", "$mb_memory", "$ncpus"};
	struct sbuf b = {0};
	int rc = 0;

	*keyword = false;
	while (*in && !rc) {
		const char *close;
		if (in[0] == '$' && in[1] == '{' && (close = strchr(in, '}')) && close > in + 1) {
			char *name = strndup(in + 2, (size_t)(close - in - 2));
			const char *v = name ? getenv(name) : NULL;
			if (!name)
				rc = -ENOMEM;
			else if (v)
				rc = sb_add(&b, v, strlen(v));
			free(name);
			in = close + 1;
			continue;
		}
		size_t i;
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (!strncmp(in, words[i], strlen(words[i])))
				break;
		if (i < sizeof(words) / sizeof(words[0])) {
			char num[32];
			long pg = sysconf(_SC_PAGESIZE);
			unsigned long long v =
			    i == 0   ? (unsigned long long)pg
			    : i == 1 ? (unsigned long long)sysconf(_SC_PHYS_PAGES) *
					   (unsigned long long)pg / (1024 * 1024)
				     : (unsigned long long)sysconf(_SC_NPROCESSORS_CONF);
			snprintf(num, sizeof(num), "%llu", v);
			rc = sb_add(&b, num, strlen(num));
			in += strlen(words[i]);
			*keyword = true;
			continue;
		}
		rc = sb_add(&b, in, 1);
		in++;
	}
	if (!rc && !b.s)
		rc = sb_add(&b, "", 0);
	if (rc) {
		free(b.s);
		return rc;
	}
	*out = b.s;
	return 0;
}

static int parse_file(struct ctx *c, const char *path, unsigned depth);

#define FAIL(...)                                                                                  \
	do {                                                                                       \
		int n_ = snprintf(c->err, c->errlen, "%s:%u: ", path, lineno);                     \
		if (n_ >= 0 && (size_t)n_ < c->errlen)                                             \
			snprintf(c->err + n_, c->errlen - (size_t)n_, __VA_ARGS__);                \
		rc = -EINVAL;                                                                      \
		goto cleanup;                                                                      \
	} while (0)

/* `include FILE`: as given when it exists (fio checks access()), else
 * beside the including file. */
static int do_include(struct ctx *c, const char *path, unsigned lineno, const char *name,
		      unsigned depth)
{
	const char *slash = strrchr(path, '/');
	char *full = NULL;
	int rc;

	if (depth + 1 > JOBFILE_MAX_INCLUDE) {
		full = NULL;
		FAIL("include: nested more than %d deep", JOBFILE_MAX_INCLUDE);
	}
	if (!*name)
		FAIL("include: no file name");
	if (c->no_include)
		FAIL("include: not read from an in-memory job file");
	if (access(name, F_OK) && slash && name[0] != '/') {
		if (asprintf(&full, "%.*s%s", (int)(slash - path + 1), path, name) < 0) {
			full = NULL;
			rc = -ENOMEM;
			goto cleanup;
		}
	}
	c->open_failed = false;
	rc = parse_file(c, full ? full : name, depth + 1);
	if (rc && c->open_failed) { /* "FILE: is a FIFO, not ...": say who included it */
		char why[512];
		snprintf(why, sizeof(why), "%s", c->err);
		c->open_failed = false;
		FAIL("include: %s", why);
	}
cleanup:
	free(full);
	return rc;
}

/* One logical line (NUL-terminated, newline removed). */
static int do_line(struct ctx *c, const char *path, unsigned lineno, char *p, unsigned depth)
{
	char *sub = NULL, *val;
	bool keyword;
	int rc = 0;

	p += strspn(p, " \t\f\v\r");
	if (!*p || *p == ';' || *p == '#')
		return 0;
	strip_end(p);
	if (!*p)
		return 0;
	if (*p == '[') {
		size_t n = strlen(p);
		if (depth)
			FAIL("no [section] in an included file (fio: \"No new sections in "
			     "included files\")");
		if (n < 2 || p[n - 1] != ']')
			FAIL("'%s': a section header is [name]", p);
		p[n - 1] = '\0';
		p++;
		if (!*p)
			FAIL("empty section name []");
		if (strlen(p) > 255)
			FAIL("section name longer than 255 characters");
		if (++c->nsections > JOBFILE_MAX_SECTIONS)
			FAIL("more than %u sections: a job file holds at most %u (refused, not "
			     "cut)",
			     JOBFILE_MAX_SECTIONS, JOBFILE_MAX_SECTIONS);
		c->in_section = true;
		c->err[0] = '\0';
		rc = c->ops->section(c->user, p, c->err, c->errlen);
		if (rc) {
			char why[256];
			snprintf(why, sizeof(why), "%s",
				 c->err[0] ? c->err : rc == -ENOMEM ? "out of memory" : strerror(-rc));
			FAIL("[%s]: %s", p, why);
		}
		return 0;
	}
	if (lineno == 1 && !depth && !strncmp(p, "\xef\xbb\xbf", 3))
		FAIL("a UTF-8 byte-order mark starts the file (fio does not read it either): "
		     "remove it");
	if (!c->in_section)
		FAIL("'%s' is outside a [section] (fio: option outside of [] job section)", p);
	if (!strncmp(p, "include", 7) && (p[7] == ' ' || p[7] == '\t'))
		return do_include(c, path, lineno, p + 8 + strspn(p + 8, " \t"), depth);
	rc = substitute(p, &sub, &keyword);
	if (rc) {
		snprintf(c->err, c->errlen, "%s:%u: out of memory", path, lineno);
		goto cleanup;
	}
	val = strchr(sub, '=');
	if (val) {
		char *k = val;
		*val++ = '\0';
		while (k > sub && isspace((unsigned char)k[-1]))
			*--k = '\0';
		val += strspn(val, " \t");
		if (keyword && strpbrk(val, "+-*/"))
			FAIL("%s: arithmetic in a value ('%s') is not supported (fio evaluates it "
			     "with bc)",
			     sub, val);
	}
	if (!*sub)
		FAIL("'=%s': no option name before '='", val ? val : "");
	c->err[0] = '\0';
	rc = c->ops->option(c->user, sub, val, c->err, c->errlen);
	if (rc) {
		char *why = strdup(c->err[0]		? c->err
				   : rc == -ENOMEM ? "out of memory"
						   : strerror(-rc));
		if (!why) {
			rc = -ENOMEM;
			goto cleanup;
		}
		int n_ = snprintf(c->err, c->errlen, "%s:%u: ", path, lineno);
		if (n_ >= 0 && (size_t)n_ < c->errlen)
			snprintf(c->err + n_, c->errlen - (size_t)n_, "%s", why);
		free(why);
		rc = rc == -ENOMEM ? rc : -EINVAL;
	}
cleanup:
	free(sub);
	return rc;
}

/* Parses @text (@len bytes, NUL-terminated, changed in place). */
static int parse_text(struct ctx *c, const char *path, char *text, size_t len, unsigned depth)
{
	char *line, *end = text + len;
	unsigned lineno = 0;
	int rc = 0;

	for (line = text; line < end && !rc;) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
		const char *why;

		lineno++;
		if (check_text(line, n, &why)) {
			snprintf(c->err, c->errlen, "%s:%u: %s", path, lineno, why);
			rc = -EINVAL;
			break;
		}
		line[n] = '\0';
		rc = do_line(c, path, lineno, line, depth);
		line += n + 1;
	}
	return rc;
}

static int parse_file(struct ctx *c, const char *path, unsigned depth)
{
	char *text = NULL;
	size_t len = 0;
	int rc = read_all(path, &text, &len, c->err, c->errlen);

	if (rc) {
		c->open_failed = true;
		return rc;
	}
	c->total += len;
	if (c->total > JOBFILE_MAX_TOTAL) {
		snprintf(c->err, c->errlen,
			 "%s: the job file and its includes hold more than %u MiB (refused)", path,
			 JOBFILE_MAX_TOTAL >> 20);
		free(text);
		c->open_failed = true;
		return -EFBIG;
	}
	if (c->ops->file && (rc = c->ops->file(c->user, path, depth, c->err, c->errlen))) {
		free(text);
		return rc;
	}
	rc = parse_text(c, path, text, len, depth);
	free(text);
	return rc;
}

int jobfile_parse(const char *path, const struct jobfile_ops *ops, void *user, char *err,
		  size_t errlen)
{
	struct ctx c = {.ops = ops, .user = user, .err = err, .errlen = errlen};

	err[0] = '\0';
	return parse_file(&c, path, 0);
}

int jobfile_parse_mem(const char *name, const char *buf, size_t len, const struct jobfile_ops *ops,
		      void *user, char *err, size_t errlen)
{
	struct ctx c = {.ops = ops, .user = user, .err = err, .errlen = errlen, .no_include = true};
	char *text;
	int rc;

	err[0] = '\0';
	if (len > JOBFILE_MAX_BYTES) {
		snprintf(err, errlen, "%s: larger than %u MiB: not a job file", name,
			 JOBFILE_MAX_BYTES >> 20);
		return -EINVAL;
	}
	text = malloc(len + 1);
	if (!text) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	memcpy(text, buf, len);
	text[len] = '\0';
	rc = parse_text(&c, name, text, len, 0);
	free(text);
	return rc;
}

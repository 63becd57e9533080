/* termesc.c - see termesc.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/termesc.h"
#include "base/utf8.h"

/* The escape of the unit at @s (@len bytes left) into @esc (at least 8
 * bytes); the unit's length in *@n.  0 when the unit is copied as it is. */
static size_t unit(const unsigned char *s, size_t len, unsigned flags, char *esc, size_t *n)
{
	size_t k = utf8_seq_len((const char *)s, len);

	*n = k ? k : 1;
	if (!k)
		return (size_t)snprintf(esc, 8, "\\x%02x", s[0]);
	if (k == 1) {
		if (s[0] >= 0x20 && s[0] != 0x7f)
			return 0;
		if ((flags & TERMESC_KEEP_NL) && (s[0] == '\n' || s[0] == '\t' || s[0] == '\r'))
			return 0;
		if (s[0] == '\n' || s[0] == '\t' || s[0] == '\r') {
			esc[0] = '\\';
			esc[1] = s[0] == '\n' ? 'n' : s[0] == '\t' ? 't' : 'r';
			esc[2] = '\0';
			return 2;
		}
		return (size_t)snprintf(esc, 8, "\\x%02x", s[0]);
	}
	unsigned cp = 0;
	if (k == 2)
		cp = (s[0] & 0x1fu) << 6 | (s[1] & 0x3fu);
	else if (k == 3)
		cp = (s[0] & 0x0fu) << 12 | (s[1] & 0x3fu) << 6 | (s[2] & 0x3fu);
	if ((cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069))
		return (size_t)snprintf(esc, 8, "\\u%04x", cp);
	return 0;
}

size_t termesc(char *dst, size_t cap, const char *str, size_t len, size_t cols, unsigned flags,
	       bool *cut)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t out = 0, total = 0, used = 0;
	bool full = false;

	if (cut)
		*cut = false;
	for (size_t i = 0; i < len;) {
		char esc[8];
		size_t n, e = unit(s + i, len - i, flags, esc, &n);
		size_t bytes = e ? e : n, w = e ? e : 1;
		if (!full && (out + bytes + 1 > cap || (cols != (size_t)-1 && used + w > cols))) {
			full = true;
			if (cut)
				*cut = true;
		}
		if (!full) {
			memcpy(dst + out, e ? esc : (const char *)s + i, bytes);
			out += bytes;
			used += w;
		}
		total += bytes;
		i += n;
	}
	if (cap)
		dst[out] = '\0';
	return total;
}

const char *termesc_str(const char *s)
{
	static _Thread_local char ring[8][1024];
	static _Thread_local unsigned next;
	char *b = ring[next++ % 8];
	bool cut;

	termesc(b, sizeof(ring[0]) - 3, s ? s : "(null)", s ? strlen(s) : 6, (size_t)-1, 0, &cut);
	if (cut)
		strcat(b, "...");
	return b;
}

static int write_all(int fd, const char *b, size_t n)
{
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

/* 1..3 bytes at the end that start a well-formed sequence not yet whole */
static bool incomplete(const unsigned char *s, size_t len)
{
	static const unsigned char pad1[] = {0x80, 0x90, 0xa0};
	unsigned char t[4];

	if (!len || len > 3 || s[0] < 0xc2 || s[0] > 0xf4)
		return false;
	for (size_t p = 0; p < sizeof(pad1); p++) {
		memcpy(t, s, len);
		for (size_t i = len; i < 4; i++)
			t[i] = i == 1 ? pad1[p] : 0x80;
		size_t k = utf8_seq_len((const char *)t, 4);
		if (k > len)
			return true;
	}
	return false;
}

struct filt {
	int fd;
	unsigned char carry[4]; /* a sequence cut by the end of the last write */
	size_t ncarry;
	bool fixed; /* the process's stdout/stderr filter: static, never freed */
};

static int filt_out(struct filt *f, const unsigned char *s, size_t len)
{
	char out[4096];
	size_t o = 0;

	for (size_t i = 0; i < len;) {
		char esc[8];
		size_t n, e = unit(s + i, len - i, TERMESC_KEEP_NL, esc, &n);
		size_t bytes = e ? e : n;
		if (o + bytes > sizeof(out)) {
			if (write_all(f->fd, out, o))
				return -1;
			o = 0;
		}
		memcpy(out + o, e ? esc : (const char *)s + i, bytes);
		o += bytes;
		i += n;
	}
	return write_all(f->fd, out, o);
}

static ssize_t filt_write(void *cookie, const char *buf, size_t size)
{
	struct filt *f = cookie;
	const unsigned char *s = (const unsigned char *)buf;
	size_t i = 0;

	/* the units that begin in the carried bytes, with up to 3 new ones:
	 * each ends inside them, unless the input ends first */
	if (f->ncarry) {
		unsigned char t[8];
		size_t nc = f->ncarry, tn = nc, pos = 0;
		memcpy(t, f->carry, nc);
		for (size_t k = 0; k < 3 && k < size; k++)
			t[tn++] = s[k];
		f->ncarry = 0;
		while (pos < nc) {
			if (tn == nc + size && incomplete(t + pos, tn - pos)) {
				memcpy(f->carry, t + pos, tn - pos); /* still open */
				f->ncarry = tn - pos;
				return (ssize_t)size;
			}
			size_t k = utf8_seq_len((const char *)t + pos, tn - pos);
			if (filt_out(f, t + pos, k ? k : 1))
				return -1;
			pos += k ? k : 1;
		}
		i = pos - nc;
	}
	size_t end = size, tail = 0;
	for (size_t t = 1; t <= 3 && t <= size - i; t++)
		if (incomplete(s + size - t, t))
			tail = t;
	end = size - tail;
	if (end > i && filt_out(f, s + i, end - i))
		return -1;
	memcpy(f->carry + f->ncarry, s + end, tail);
	f->ncarry += tail;
	return (ssize_t)size;
}

static int filt_close(void *cookie)
{
	struct filt *f = cookie;
	int rc = f->ncarry ? filt_out(f, f->carry, f->ncarry) : 0;
	if (!f->fixed)
		free(f);
	return rc;
}

/* A stream writing through filter @f (fd set). */
static FILE *filt_open(struct filt *f, bool buffered)
{
	int mode = buffered ? _IOFBF : _IONBF;
	static const cookie_io_functions_t io = {.write = filt_write, .close = filt_close};
	FILE *s = fopencookie(f, "w", io);

	if (s)
		setvbuf(s, NULL, mode, mode == _IONBF ? 0 : BUFSIZ);
	return s;
}

FILE *termesc_fdopen(int fd, bool buffered)
{
	struct filt *f = calloc(1, sizeof(*f));
	FILE *s;

	if (!f)
		return NULL;
	f->fd = fd;
	if (!(s = filt_open(f, buffered)))
		free(f);
	return s;
}

int termesc_install(bool out)
{
	/* once per process (a fuzz harness runs cmd_main again and again), on
	 * static filters: the process's streams, never dropped nor freed */
	static struct filt ferr = {.fd = STDERR_FILENO, .fixed = true},
			   fout = {.fd = STDOUT_FILENO, .fixed = true};
	static FILE *inst_err, *inst_out;

	if (!inst_err) {
		FILE *e = filt_open(&ferr, false);
		if (!e)
			return -ENOMEM;
		fflush(stderr);
		stderr = inst_err = e;
	}
	if (out && !inst_out) {
		FILE *o = filt_open(&fout, true);
		if (!o)
			return -ENOMEM; /* stderr escaped, stdout as it was */
		if (isatty(STDOUT_FILENO))
			setvbuf(o, NULL, _IOLBF, BUFSIZ);
		fflush(stdout);
		stdout = inst_out = o;
	}
	return 0;
}

void termesc_raw(int fd, const char *s)
{
	fflush(stdout);
	fflush(stderr);
	write_all(fd, s, strlen(s));
}

/* input.c - opening and reading files from outside (see input.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/input.h"

const char *input_fmt_size(uint64_t n, char *buf, size_t len)
{
	if (n >= (1u << 20) && !(n & ((1u << 20) - 1)))
		snprintf(buf, len, "%llu MiB", (unsigned long long)(n >> 20));
	else if (n >= 1024 && !(n & 1023))
		snprintf(buf, len, "%llu KiB", (unsigned long long)(n >> 10));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)n);
	return buf;
}

static const char *kind(mode_t m)
{
	return S_ISFIFO(m)   ? "is a FIFO"
	       : S_ISCHR(m)  ? "is a character device"
	       : S_ISBLK(m)  ? "is a block device"
	       : S_ISDIR(m)  ? "is a directory"
	       : S_ISSOCK(m) ? "is a socket"
			     : "is not a file";
}

int input_open(const char *path, uint64_t cap, const char *what, char *err, size_t errlen)
{
	struct stat st;
	char a[32];
	int fd, rc, fl;

	/* O_NONBLOCK: opening a FIFO with no writer returns at once */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		snprintf(err, errlen, "%s: %s, not a regular file (a %s is read from a file)", path,
			 kind(st.st_mode), what);
		goto fail;
	}
	if ((uint64_t)st.st_size > cap) {
		rc = -EFBIG;
		snprintf(err, errlen, "%s: %llu bytes, larger than the %s a %s may have", path,
			 (unsigned long long)st.st_size, input_fmt_size(cap, a, sizeof(a)), what);
		goto fail;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return rc;
}

FILE *input_fopen(const char *path, uint64_t cap, const char *what, char *err, size_t errlen)
{
	int fd = input_open(path, cap, what, err, errlen);
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		close(fd);
		errno = e;
	}
	return f;
}

int input_read_all(const char *path, size_t cap, const char *what, char **text, size_t *len,
		   char *err, size_t errlen)
{
	char a[32];
	char *buf = NULL;
	size_t n = 0, size;
	struct stat st;
	int rc = 0;
	int fd = input_open(path, cap, what, err, errlen);

	*text = NULL;
	*len = 0;
	if (fd < 0)
		return fd;
	/* the size fstat saw, plus one byte to see a file that grew */
	size = fstat(fd, &st) ? 0 : (size_t)st.st_size;
	buf = malloc(size + 2);
	if (!buf) {
		rc = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory (%zu bytes)", path, size + 2);
		goto out;
	}
	for (;;) {
		ssize_t r = read(fd, buf + n, size + 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: read: %s", path, strerror(-rc));
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n <= size)
			continue;
		/* it grew while read: go on up to the cap */
		if (n > cap) {
			rc = -EFBIG;
			snprintf(err, errlen, "%s: grew past the %s a %s may have", path,
				 input_fmt_size(cap, a, sizeof(a)), what);
			goto out;
		}
		size_t ns = size * 2 + 4096 < cap ? size * 2 + 4096 : cap;
		char *nb = realloc(buf, ns + 2);
		if (!nb) {
			rc = -ENOMEM;
			snprintf(err, errlen, "%s: out of memory", path);
			goto out;
		}
		buf = nb;
		size = ns;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	buf = NULL;
out:
	free(buf);
	close(fd);
	return rc;
}

long input_getline(FILE *f, char **buf, size_t *cap, size_t max, unsigned *lineno)
{
	size_t n = 0;
	int c;

	if (!*buf || !*cap) {
		size_t want = max + 1 < 256 ? max + 1 : 256;
		char *nb = realloc(*buf, want);
		if (!nb)
			return -ENOMEM;
		*buf = nb;
		*cap = want;
	}
	while ((c = getc_unlocked(f)) != EOF && c != '\n') {
		if (n >= max) {
			(*lineno)++;
			return -E2BIG;
		}
		if (n + 1 >= *cap) {
			size_t want = *cap * 2 < max + 1 ? *cap * 2 : max + 1;
			char *nb = realloc(*buf, want);
			if (!nb)
				return -ENOMEM;
			*buf = nb;
			*cap = want;
		}
		(*buf)[n++] = (char)c;
	}
	if (ferror(f))
		return -EIO;
	if (c == EOF && !n)
		return -1;
	(*buf)[n] = '\0';
	(*lineno)++;
	return (long)n;
}

void input_line_err(long rc, const char *path, unsigned lineno, size_t max, char *err,
		    size_t errlen)
{
	char a[32];

	if (rc == -E2BIG)
		snprintf(err, errlen, "%s:%u: line longer than %s (refused, not cut)", path, lineno,
			 input_fmt_size(max, a, sizeof(a)));
	else if (rc == -ENOMEM)
		snprintf(err, errlen, "%s:%u: out of memory", path, lineno + 1);
	else
		snprintf(err, errlen, "%s:%u: read error", path, lineno + 1);
}

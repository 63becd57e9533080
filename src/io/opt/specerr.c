/* specerr.c - fio's ignore_error (options.c str_ignore_error_cb and
 * td_error.c td_non_fatal_error): parsing and the check. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/opt/specerr.h"

/* An errno by name (strerrorname_np's), or 0. */
static int errno_named(const char *s, size_t len)
{
	for (int e = 1; e < 4096; e++) {
		const char *n = strerrorname_np(e);
		if (n && strlen(n) == len && !strncmp(n, s, len))
			return e;
	}
	return 0;
}

/* One errno of a list: [s, s + len).  Positive, or 0 when unknown. */
static int errno_of(const char *s, size_t len)
{
	char buf[32], *end;
	long v;

	if (len && s[0] == 'E')
		return errno_named(s, len);
	if (!len || len >= sizeof(buf))
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	v = strtol(buf, &end, !strncmp(buf, "0x", 2) || !strncmp(buf, "0X", 2) ? 16 : 10);
	if (errno || *end || v == 0 || v > 4095 || v < -4095)
		return 0;
	return (int)(v < 0 ? -v : v); /* fio takes -5 as 5 */
}

int specerr_parse(struct specerr *e, const char *val, char *err, size_t errlen)
{
	const char *p = val ? val : "";
	unsigned k = 0;

	memset(e, 0, sizeof(*e));
	while (*p == ' ' || *p == '\t')
		p++;
	for (;;) {
		size_t klen = strcspn(p, ",");
		const char *q = p, *kend = p + klen;
		if (k >= SPECERR_NKIND) {
			snprintf(err, errlen,
				 "ignore_error: '%s': at most 3 lists (read,write,verify)", val);
			return -EINVAL;
		}
		/* fio: errnos up to the first empty one, ':' between them */
		while (q < kend) {
			size_t len = strcspn(q, ":,");
			while (len && (q[len - 1] == ' ' || q[len - 1] == '\t'))
				len--;
			if (!len)
				break;
			int n = errno_of(q, len);
			if (!n) {
				snprintf(err, errlen,
					 "ignore_error: unknown error '%.*s' (an errno name such "
					 "as EIO, or its number)",
					 (int)len, q);
				return -EINVAL;
			}
			if (e->n[k] == SPECERR_MAX) {
				snprintf(err, errlen, "ignore_error: more than %d errors in a list",
					 SPECERR_MAX);
				return -EINVAL;
			}
			e->err[k][e->n[k]++] = n;
			q += strcspn(q, ":,");
			if (*q == ':')
				q++;
		}
		if (!*kend)
			return 0;
		p = kend + 1;
		k++;
	}
}

enum specerr_kind specerr_kind_of(bool is_read, int errnum)
{
	if (errnum == EILSEQ)
		return SPECERR_VERIFY;
	return is_read ? SPECERR_READ : SPECERR_WRITE;
}

bool specerr_ignored(const struct specerr *e, bool cont, enum specerr_kind k, int errnum)
{
	if (k >= SPECERR_NKIND || !e->n[k])
		return cont;
	for (unsigned i = 0; i < e->n[k]; i++)
		if (e->err[k][i] == errnum)
			return true;
	return false;
}

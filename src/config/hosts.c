/* hosts.c - targets, ssh destinations and host lists (hosts.h; the rules
 * in docs/hosts.md, "Addressing"). */
#include "config/hosts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/num.h"

#define NAME_LEN_MAX 255 /* a DNS name has at most 253 characters */
#define RANGE_DIGITS 18	 /* a range bound, zeros included: fits a u64 */

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen, const char *fmt,
						      ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Puts "@prefix" (printf format) before the message already in @err. */
__attribute__((format(printf, 3, 4))) static void err_prefix(char *err, size_t errlen,
							     const char *fmt, ...)
{
	char *inner, *prefix = NULL;
	va_list ap;
	int n;

	if (!err || !errlen || !(inner = strdup(err)))
		return;
	va_start(ap, fmt);
	n = vasprintf(&prefix, fmt, ap);
	va_end(ap);
	if (n >= 0)
		snprintf(err, errlen, "%s%s", prefix, inner);
	free(prefix);
	free(inner);
}

/* ---- destinations */

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

/* 0 when @s[0..@n) is a user or host name ssh may be given, else -EINVAL
 * with a message about @dest. */
static int check_name(const char *what, const char *s, size_t n, const char *dest, char *err,
		      size_t errlen)
{
	if (n == 0)
		return fail(err, errlen, "'%s': no %s name", dest, what);
	if (s[0] == '-')
		return fail(err, errlen,
			    "'%s': the %s name starts with '-' (ssh would read it as an option): "
			    "refused",
			    dest, what);
	if (n > NAME_LEN_MAX)
		return fail(err, errlen, "'%.40s...': the %s name is longer than %d characters",
			    dest, what, NAME_LEN_MAX);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (name_char((char)c))
			continue;
		if (c > ' ' && c < 0x7f)
			return fail(err, errlen,
				    "'%s': '%c' in the %s name (letters, digits, '.', '_' and '-' "
				    "only)",
				    dest, c, what);
		return fail(err, errlen,
			    "'%s': the byte 0x%02x in the %s name (letters, digits, '.', '_' and "
			    "'-' only)",
			    dest, c, what);
	}
	return 0;
}

/* The text between the brackets: an IPv6 address, optionally with a zone
 * ("fe80::1%eth0").  Its canonical form into @canon when not NULL. */
static int check_v6(const char *s, size_t n, const char *dest, char canon[INET6_ADDRSTRLEN],
		    char *err, size_t errlen)
{
	char addr[INET6_ADDRSTRLEN];
	const char *zone = memchr(s, '%', n);
	size_t an = zone ? (size_t)(zone - s) : n;
	struct in6_addr a;

	if (an == 0 || an >= sizeof(addr) || !memchr(s, ':', an))
		return fail(err, errlen, "'%s': brackets hold an IPv6 address ([::1])", dest);
	memcpy(addr, s, an);
	addr[an] = '\0';
	if (inet_pton(AF_INET6, addr, &a) != 1)
		return fail(err, errlen, "'%s': '%s' is not an IPv6 address", dest, addr);
	if (zone) {
		size_t zn = n - an - 1;
		if (zn == 0 || zn > NAME_LEN_MAX)
			return fail(err, errlen, "'%s': an empty or overlong zone after '%%'",
				    dest);
		for (size_t i = 0; i < zn; i++)
			if (!name_char(zone[1 + i]))
				return fail(err, errlen,
					    "'%s': the zone after '%%' is an interface name "
					    "(letters, digits, '.', '_', '-')",
					    dest);
	}
	if (canon && !inet_ntop(AF_INET6, &a, canon, INET6_ADDRSTRLEN))
		return fail(err, errlen, "'%s': the address cannot be printed", dest);
	return 0;
}

void hosts_dest_clear(struct hosts_dest *d)
{
	if (!d)
		return;
	free(d->user);
	free(d->host);
	memset(d, 0, sizeof(*d));
}

/* The host part of @dest (after the user): its name (@hs, @hn), its port
 * text (NULL when none), whether it is an IPv6 address. */
static int split_host(const char *dest, const char *h, const char **hs, size_t *hn,
		      const char **port, char *err, size_t errlen)
{
	const char *close, *colon;
	int rc;

	*port = NULL;
	if (*h == '[') {
		close = strchr(h, ']');
		if (!close)
			return fail(err, errlen, "'%s': '[' without its ']'", dest);
		*hs = h + 1;
		*hn = (size_t)(close - *hs);
		rc = check_v6(*hs, *hn, dest, NULL, err, errlen);
		if (rc)
			return rc;
		if (close[1] == ':')
			*port = close + 2;
		else if (close[1])
			return fail(err, errlen, "'%s': only ':PORT' may follow ']'", dest);
		return 0;
	}
	colon = strchr(h, ':');
	if (colon && strchr(colon + 1, ':'))
		return fail(err, errlen,
			    "'%s': an IPv6 address goes in brackets ([::1], [::1]:2222)", dest);
	*hs = h;
	*hn = colon ? (size_t)(colon - h) : strlen(h);
	if (colon)
		*port = colon + 1;
	return check_name("host", h, *hn, dest, err, errlen);
}

int hosts_parse_dest(const char *dest, struct hosts_dest *out, char *err, size_t errlen)
{
	const char *at, *h, *hs = NULL, *port = NULL;
	size_t hn = 0;
	unsigned p = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!dest || !*dest)
		return fail(err, errlen, "an empty host");
	at = strrchr(dest, '@');
	h = at ? at + 1 : dest;
	if (at && (rc = check_name("user", dest, (size_t)(at - dest), dest, err, errlen)))
		return rc;
	rc = split_host(dest, h, &hs, &hn, &port, err, errlen);
	if (rc)
		return rc;
	if (port && num_parse_uint(port, 1, 65535, &p))
		return fail(err, errlen, "'%s': the port '%s' is not a number in 1..65535", dest,
			    port);
	out->host = strndup(hs, hn);
	out->user = at ? strndup(dest, (size_t)(at - dest)) : NULL;
	if (!out->host || (at && !out->user)) {
		hosts_dest_clear(out);
		return -ENOMEM;
	}
	out->port = p;
	return 0;
}

/* ---- targets */

/* scp's rule: the ':' ending the host, or NULL for a local path (a '/'
 * before any ':'); in "[...]" (at the start or after '@') a ':' is part of
 * the address, and "]:" ends the host. */
static const char *scp_colon(const char *s)
{
	bool bracket = *s == '[';

	for (; *s; s++) {
		if (*s == '@' && s[1] == '[')
			bracket = true;
		if (*s == ']' && s[1] == ':' && bracket)
			return s + 1;
		if (*s == ':' && !bracket)
			return s;
		if (*s == '/')
			return NULL;
	}
	return NULL;
}

int hosts_split_target(const char *target, char **dest, char **path, char *err, size_t errlen)
{
	struct hosts_dest hd;
	const char *sep, *p;
	size_t nd;
	char *d;
	int rc;

	*dest = *path = NULL;
	if (!target || !*target)
		return fail(err, errlen, "an empty target");
	if (target[0] == '/' || target[0] == '.')
		return 0;
	sep = scp_colon(target);
	if (!sep)
		return 0;
	p = sep + 1;
	nd = strspn(p, "0123456789");
	if (nd && p[nd] == ':') { /* HOST:PORT:PATH */
		sep = p + nd;
		p = sep + 1;
	}
	if (sep == target)
		return fail(err, errlen, "target '%s': no host before ':'", target);
	d = strndup(target, (size_t)(sep - target));
	if (!d)
		return -ENOMEM;
	rc = hosts_parse_dest(d, &hd, err, errlen);
	hosts_dest_clear(&hd);
	if (rc) {
		err_prefix(err, errlen, "target '%s': ", target);
		free(d);
		return rc;
	}
	if (*p != '/') {
		rc = fail(err, errlen,
			  "target '%s': the path on %s must be absolute (a file here? write ./%s)",
			  target, d, target);
		free(d);
		return rc;
	}
	*path = strdup(p);
	if (!*path) {
		free(d);
		return -ENOMEM;
	}
	*dest = d;
	return 1;
}

/* ---- ranges: "n[01-03,7]" -> n01 n02 n03 n07 */

struct range {
	uint64_t lo, hi;
	unsigned width; /* zero padding: the width of lo as written with a leading 0 */
};

struct group {
	const char *lit; /* the text before the group */
	size_t litlen;
	struct range *r; /* NULL for the text after the last group */
	size_t nr;
	uint64_t count;
	size_t cur;  /* odometer: the range */
	uint64_t at; /* and the value in it */
};

struct pattern {
	struct group *g;
	size_t ng;
	size_t maxlen; /* the longest expansion, without its NUL */
	uint64_t total;
};

static void pattern_free(struct pattern *p)
{
	for (size_t i = 0; i < p->ng; i++)
		free(p->g[i].r);
	free(p->g);
	memset(p, 0, sizeof(*p));
}

/* Text of digits, ',' and '-' only: a range group (else the brackets are
 * text: an IPv6 address, or a mistake the name check reports). */
static bool range_text(const char *s, size_t n)
{
	return n > 0 && strspn(s, "0123456789,-") >= n;
}

static int range_bound(const char *s, size_t n, const char *pat, uint64_t *v, char *err,
		       size_t errlen)
{
	char num[RANGE_DIGITS + 1];

	if (n == 0 || n > RANGE_DIGITS)
		return fail(err, errlen, "'%s': a range bound is empty or longer than %d digits",
			    pat, RANGE_DIGITS);
	memcpy(num, s, n);
	num[n] = '\0';
	if (num_parse_u64(num, 0, UINT64_MAX, v))
		return fail(err, errlen, "'%s': '%s' is not a range bound", pat, num);
	return 0;
}

/* One element of a group: "7" or "01-16". */
static int range_parse(const char *s, size_t n, const char *pat, struct range *r, char *err,
		       size_t errlen)
{
	const char *dash = memchr(s, '-', n);
	size_t ln = dash ? (size_t)(dash - s) : n;
	int rc = range_bound(s, ln, pat, &r->lo, err, errlen);

	if (rc)
		return rc;
	r->hi = r->lo;
	if (dash) {
		rc = range_bound(dash + 1, n - ln - 1, pat, &r->hi, err, errlen);
		if (rc)
			return rc;
		if (r->hi < r->lo)
			return fail(err, errlen, "'%s': the range %.*s runs backwards", pat, (int)n,
				    s);
	}
	r->width = s[0] == '0' && ln > 1 ? (unsigned)ln : 0;
	return 0;
}

/* The group "[...]" at @s (@n characters inside) into @g. */
static int group_parse(const char *s, size_t n, const char *pat, struct group *g, char *err,
		       size_t errlen)
{
	size_t i = 0, nr = 1;
	int rc;

	for (size_t k = 0; k < n; k++)
		nr += s[k] == ',';
	g->r = calloc(nr, sizeof(*g->r));
	if (!g->r)
		return -ENOMEM;
	g->count = 0;
	while (g->nr < nr) {
		const char *comma = memchr(s + i, ',', n - i);
		size_t en = comma ? (size_t)(comma - (s + i)) : n - i;
		struct range *r = &g->r[g->nr];
		rc = range_parse(s + i, en, pat, r, err, errlen);
		if (rc)
			return rc;
		g->nr++;
		if (r->hi - r->lo >= HOSTS_MAX || (g->count += r->hi - r->lo + 1) > HOSTS_MAX)
			return fail(err, errlen, "'%s' names more than %d hosts", pat, HOSTS_MAX);
		i += en + 1;
	}
	return 0;
}

static int pattern_add_group(struct pattern *p, const char *lit, size_t litlen)
{
	struct group *g = realloc(p->g, (p->ng + 1) * sizeof(*g));

	if (!g)
		return -ENOMEM;
	p->g = g;
	memset(&g[p->ng], 0, sizeof(*g));
	g[p->ng].lit = lit;
	g[p->ng].litlen = litlen;
	g[p->ng].count = 1;
	p->ng++;
	p->maxlen += litlen;
	return 0;
}

/* Splits @pat into text and range groups; counts the expansions. */
static int pattern_parse(const char *pat, struct pattern *p, char *err, size_t errlen)
{
	const char *lit = pat, *s = pat, *close;
	int rc;

	memset(p, 0, sizeof(*p));
	p->total = 1;
	while ((s = strchr(s, '['))) {
		close = strchr(s + 1, ']');
		if (!close)
			break;
		if (!range_text(s + 1, (size_t)(close - s - 1))) {
			s = close + 1;
			continue;
		}
		rc = pattern_add_group(p, lit, (size_t)(s - lit));
		if (!rc)
			rc = group_parse(s + 1, (size_t)(close - s - 1), pat, &p->g[p->ng - 1], err,
					 errlen);
		if (rc)
			return rc;
		p->total *= p->g[p->ng - 1].count; /* both <= HOSTS_MAX: no overflow */
		if (p->total > HOSTS_MAX)
			return fail(err, errlen, "'%s' names more than %d hosts", pat, HOSTS_MAX);
		p->maxlen += RANGE_DIGITS + 1;
		lit = s = close + 1;
	}
	return pattern_add_group(p, lit, strlen(lit));
}

/* The expansion the odometer is at, into @buf (p->maxlen + 1 bytes). */
static void pattern_print(const struct pattern *p, char *buf)
{
	char *o = buf;

	for (size_t i = 0; i < p->ng; i++) {
		const struct group *g = &p->g[i];
		memcpy(o, g->lit, g->litlen);
		o += g->litlen;
		if (g->r)
			o += sprintf(o, "%0*llu", (int)g->r[g->cur].width,
				     (unsigned long long)g->at);
	}
	*o = '\0';
}

/* Moves the odometer on (the last group fastest). */
static void pattern_next(struct pattern *p)
{
	for (size_t i = p->ng; i-- > 0;) {
		struct group *g = &p->g[i];
		if (!g->r)
			continue;
		if (g->at < g->r[g->cur].hi) {
			g->at++;
			return;
		}
		g->cur = (g->cur + 1) % g->nr;
		g->at = g->r[g->cur].lo;
		if (g->cur)
			return;
	}
}

/* ---- the list */

struct hosts_item {
	char *text; /* as written, expanded */
	char *key;  /* user, host and port, for duplicates */
};

struct hosts_list {
	struct hosts_item *v;
	size_t n, cap;
	size_t *slot; /* open addressing: index + 1, 0 free */
	size_t nslot; /* a power of two, at least twice n */
};

struct hosts_list *hosts_list_new(void)
{
	return calloc(1, sizeof(struct hosts_list));
}

size_t hosts_list_count(const struct hosts_list *l)
{
	return l ? l->n : 0;
}

const char *hosts_list_get(const struct hosts_list *l, size_t i)
{
	return l && i < l->n ? l->v[i].text : NULL;
}

static uint64_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* The slot of @key: its item's, or the free one where it would go. */
static size_t *list_slot(const struct hosts_list *l, const char *key)
{
	size_t mask = l->nslot - 1, i = (size_t)hash(key) & mask;

	while (l->slot[i] && strcmp(l->v[l->slot[i] - 1].key, key))
		i = (i + 1) & mask;
	return &l->slot[i];
}

static int list_rehash(struct hosts_list *l, size_t nslot)
{
	size_t *slot = calloc(nslot, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	free(l->slot);
	l->slot = slot;
	l->nslot = nslot;
	for (size_t i = 0; i < l->n; i++)
		*list_slot(l, l->v[i].key) = i + 1;
	return 0;
}

/* Drops the items from @n on (an add that failed). */
static void list_truncate(struct hosts_list *l, size_t n)
{
	if (n >= l->n)
		return;
	for (size_t i = n; i < l->n; i++) {
		free(l->v[i].text);
		free(l->v[i].key);
	}
	l->n = n;
	memset(l->slot, 0, l->nslot * sizeof(*l->slot));
	for (size_t i = 0; i < l->n; i++)
		*list_slot(l, l->v[i].key) = i + 1;
}

/* The key of a destination: user, host (IPv6 by value, names without
 * case) and port. */
static char *dest_key(const struct hosts_dest *d)
{
	char canon[INET6_ADDRSTRLEN], *host = d->host, *key = NULL, *zone;
	char *h = strdup(d->host);

	if (!h)
		return NULL;
	for (char *c = h; *c; c++)
		if (*c >= 'A' && *c <= 'Z')
			*c = (char)(*c - 'A' + 'a');
	zone = strchr(h, '%');
	if (strchr(h, ':') && !check_v6(d->host, strlen(d->host), d->host, canon, NULL, 0))
		host = canon;
	else
		host = h, zone = NULL;
	if (asprintf(&key, "%s\n%s%s\n%u", d->user ? d->user : "", host, zone ? zone : "",
		     d->port) < 0)
		key = NULL;
	free(h);
	return key;
}

/* Adds @text (a valid destination) unless its key is there: 0, or
 * -EINVAL past HOSTS_MAX, -ENOMEM. */
static int list_put(struct hosts_list *l, const char *text, const struct hosts_dest *d, char *err,
		    size_t errlen)
{
	struct hosts_item it = {0};
	size_t *slot;
	int rc;

	it.key = dest_key(d);
	if (!it.key)
		return -ENOMEM;
	if (l->nslot && *list_slot(l, it.key)) {
		free(it.key);
		return 0;
	}
	if (l->n >= HOSTS_MAX) {
		free(it.key);
		return fail(err, errlen, "more than %d hosts", HOSTS_MAX);
	}
	if (2 * (l->n + 1) > l->nslot && (rc = list_rehash(l, l->nslot ? 2 * l->nslot : 64))) {
		free(it.key);
		return rc;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct hosts_item *v = realloc(l->v, cap * sizeof(*v));
		if (!v) {
			free(it.key);
			return -ENOMEM;
		}
		l->v = v;
		l->cap = cap;
	}
	it.text = strdup(text);
	if (!it.text) {
		free(it.key);
		return -ENOMEM;
	}
	slot = list_slot(l, it.key);
	l->v[l->n++] = it;
	*slot = l->n;
	return 0;
}

int hosts_list_add(struct hosts_list *l, const char *pattern, char *err, size_t errlen)
{
	struct pattern p;
	struct hosts_dest d;
	size_t n0 = l->n;
	char *buf = NULL;
	int rc;

	if (!pattern || !*pattern)
		return fail(err, errlen, "an empty host");
	rc = pattern_parse(pattern, &p, err, errlen);
	if (rc)
		goto out;
	buf = malloc(p.maxlen + 1);
	if (!buf) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < p.ng; i++)
		if (p.g[i].r)
			p.g[i].at = p.g[i].r[0].lo;
	for (uint64_t k = 0; k < p.total && !rc; k++, pattern_next(&p)) {
		pattern_print(&p, buf);
		rc = hosts_parse_dest(buf, &d, err, errlen);
		if (rc && p.ng > 1)
			err_prefix(err, errlen, "'%s': ", pattern);
		if (!rc)
			rc = list_put(l, buf, &d, err, errlen);
		hosts_dest_clear(&d);
	}
	if (rc)
		list_truncate(l, n0);
out:
	free(buf);
	pattern_free(&p);
	return rc;
}

static char *trim(char *s)
{
	char *e;

	s += strspn(s, " \t\r\n\v\f");
	e = s + strlen(s);
	while (e > s && strchr(" \t\r\n\v\f", e[-1]))
		*--e = '\0';
	return s;
}

int hosts_list_add_file(struct hosts_list *l, const char *path, char *err, size_t errlen)
{
	size_t n0 = l->n, cap = 0;
	unsigned long lineno = 0;
	char *line = NULL, *s;
	ssize_t len;
	FILE *f;
	int rc = 0;

	f = fopen(path, "re");
	if (!f) {
		rc = -errno;
		fail(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	errno = 0;
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (strlen(line) != (size_t)len) {
			rc = fail(err, errlen, "%s:%lu: a NUL byte in the line", path, lineno);
			break;
		}
		if ((s = strchr(line, '#')))
			*s = '\0';
		s = trim(line);
		if (!*s)
			continue;
		rc = hosts_list_add(l, s, err, errlen);
		if (rc) {
			err_prefix(err, errlen, "%s:%lu: ", path, lineno);
			break;
		}
		errno = 0;
	}
	if (!rc && ferror(f)) {
		rc = errno ? -errno : -EIO;
		fail(err, errlen, "%s: %s", path, strerror(-rc));
	}
	if (rc)
		list_truncate(l, n0);
	free(line);
	fclose(f);
	return rc;
}

void hosts_list_free(struct hosts_list *l)
{
	if (!l)
		return;
	list_truncate(l, 0);
	free(l->v);
	free(l->slot);
	free(l);
}

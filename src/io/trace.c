/* trace.c - block trace readers (see trace.h).  Every number is parsed
 * strictly (digits only, range-checked, nothing trailing); the first bad line
 * or record ends the load with a message naming it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/trace.h"

#define TRACE_MAX_LEN  (64u << 20)	 /* one I/O at most 64 MiB */
#define TRACE_MAX_FILE ((size_t)1 << 31) /* one input file at most 2 GiB */
#define BLK_MAGIC      0x65617400u
#define BLK_VERSION    0x07u
#define BLK_REC	       48u
#define BLK_TA_ISSUE   7u
#define BLK_TC_WRITE   (1u << 1)
#define BLK_TC_FLUSH   (1u << 2)
#define BLK_TC_PC      (1u << 9)
#define BLK_TC_NOTIFY  (1u << 10)
#define BLK_TC_DISCARD (1u << 13)

static const char *const fmt_names[] = {
    [TRACE_IOLOG2] = "fio iolog v2",
    [TRACE_IOLOG3] = "fio iolog v3",
    [TRACE_MSR_CSV] = "SNIA/MSR CSV",
    [TRACE_BLKTRACE] = "blktrace",
};

const char *trace_fmt_name(enum trace_fmt f)
{
	return (unsigned)f < sizeof(fmt_names) / sizeof(fmt_names[0]) ? fmt_names[f] : "?";
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void trace_free(struct trace *t)
{
	if (!t)
		return;
	free(t->io);
	free(t);
}

static struct trace *trace_alloc(const char *name, enum trace_fmt fmt)
{
	struct trace *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->fmt = fmt;
	snprintf(t->path, sizeof(t->path), "%s", name);
	return t;
}

static int push(struct trace *t, const struct trace_io *io)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		if (cap > SIZE_MAX / sizeof(*io))
			return -ENOMEM;
		void *p = realloc(t->io, cap * sizeof(*io));
		if (!p)
			return -ENOMEM;
		t->io = p;
		t->cap = cap;
	}
	t->io[t->n++] = *io;
	t->nops[io->op]++;
	if (io->op > TRACE_WRITE)
		return 0; /* trims and syncs are not replayed: no buffer, no extent */
	if (io->len > t->max_len)
		t->max_len = io->len;
	if (io->off + io->len > t->max_end)
		t->max_end = io->off + io->len;
	return 0;
}

/* Strict unsigned decimal of [s, s+n): digits only, no overflow. */
static bool num_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned char)s[i] - '0';
		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

struct tok {
	const char *p;
	size_t n;
};

static bool tok_is(const struct tok *t, const char *s)
{
	return t->n == strlen(s) && !memcmp(t->p, s, t->n);
}

/* Splits [s, e) at any byte of @seps (runs of whitespace collapse when
 * @ws); up to @max tokens, returns the count (max + 1 when more). */
static unsigned split(const char *s, const char *e, bool ws, struct tok *tk, unsigned max)
{
	unsigned n = 0;
	while (s <= e) {
		if (ws) {
			while (s < e && (*s == ' ' || *s == '\t'))
				s++;
			if (s == e)
				break;
		}
		const char *b = s;
		while (s < e && (ws ? (*s != ' ' && *s != '\t') : *s != ','))
			s++;
		if (n == max)
			return max + 1;
		tk[n++] = (struct tok){b, (size_t)(s - b)};
		s++;
		if (!ws && s > e)
			break;
	}
	return n;
}

/* Distinct names (files, disks), linear: traces name a handful. */
struct names {
	struct tok *v;
	unsigned n;
};

static int names_add(struct names *nm, const struct tok *t)
{
	for (unsigned i = 0; i < nm->n; i++)
		if (nm->v[i].n == t->n && !memcmp(nm->v[i].p, t->p, t->n))
			return 0;
	if (nm->n >= 4096)
		return 0; /* counted up to 4096 */
	void *p = realloc(nm->v, (nm->n + 1) * sizeof(*nm->v));
	if (!p)
		return -ENOMEM;
	nm->v = p;
	nm->v[nm->n++] = *t;
	return 0;
}

static int io_fields(const char *name, unsigned line, const struct tok *off, const struct tok *len,
		     bool need_len, struct trace_io *io, char *err, size_t errlen)
{
	uint64_t o, l;
	if (!num_u64(off->p, off->n, &o))
		return fail(err, errlen, "%s:%u: bad offset '%.*s'", name, line,
			    (int)(off->n > 40 ? 40 : off->n), off->p);
	if (!num_u64(len->p, len->n, &l))
		return fail(err, errlen, "%s:%u: bad length '%.*s'", name, line,
			    (int)(len->n > 40 ? 40 : len->n), len->p);
	uint64_t max = io->op == TRACE_TRIM ? UINT32_MAX : TRACE_MAX_LEN;
	if (need_len && (l == 0 || l > max))
		return fail(err, errlen, "%s:%u: length %llu out of range (1..%llu)", name, line,
			    (unsigned long long)l, (unsigned long long)max);
	if (!need_len && l > TRACE_MAX_LEN)
		l = 0;
	if (o > UINT64_MAX - l)
		return fail(err, errlen, "%s:%u: offset + length overflows", name, line);
	io->off = o;
	io->len = (uint32_t)l;
	return 0;
}

/* fio iolog v2/v3: "[ts] file action [offset length]". */
static int parse_iolog_line(struct trace *t, const char *name, unsigned line, const struct tok *tk,
			    unsigned n, uint64_t *clock, uint64_t *first, struct names *nm,
			    char *err, size_t errlen)
{
	bool v3 = t->fmt == TRACE_IOLOG3;
	unsigned b = v3 ? 1 : 0;
	struct trace_io io = {.line = line};
	uint64_t ts = 0;

	if (n != b + 2 && n != b + 4)
		return fail(err, errlen, "%s:%u: expected %s, got %u fields", name, line,
			    v3 ? "'timestamp file action [offset length]'"
			       : "'file action [offset length]'",
			    n);
	if (v3) {
		if (!num_u64(tk[0].p, tk[0].n, &ts) || ts > UINT64_MAX / 1000)
			return fail(err, errlen, "%s:%u: bad timestamp '%.*s'", name, line,
				    (int)(tk[0].n > 40 ? 40 : tk[0].n), tk[0].p);
		ts *= 1000; /* fio writes microseconds */
	}
	if (names_add(nm, &tk[b]))
		return -ENOMEM;
	const struct tok *act = &tk[b + 1];
	if (n == b + 2) {
		if (tok_is(act, "add") || tok_is(act, "open") || tok_is(act, "close"))
			return 0;
		return fail(err, errlen, "%s:%u: unknown file action '%.*s'", name, line,
			    (int)(act->n > 40 ? 40 : act->n), act->p);
	}
	if (tok_is(act, "wait")) {
		uint64_t us;
		if (v3)
			return fail(err, errlen, "%s:%u: 'wait' is not allowed in version 3", name,
				    line);
		if (!num_u64(tk[2].p, tk[2].n, &us) || us > UINT64_MAX / 1000 ||
		    *clock > UINT64_MAX - us * 1000)
			return fail(err, errlen, "%s:%u: bad wait '%.*s'", name, line,
				    (int)(tk[2].n > 40 ? 40 : tk[2].n), tk[2].p);
		*clock += us * 1000;
		t->timed = true;
		return 0;
	}
	bool data = true;
	if (tok_is(act, "read"))
		io.op = TRACE_READ;
	else if (tok_is(act, "write"))
		io.op = TRACE_WRITE;
	else if (tok_is(act, "trim"))
		io.op = TRACE_TRIM;
	else if (tok_is(act, "sync") || tok_is(act, "datasync"))
		io.op = TRACE_SYNC, data = false;
	else
		return fail(err, errlen, "%s:%u: unknown action '%.*s'", name, line,
			    (int)(act->n > 40 ? 40 : act->n), act->p);
	int rc = io_fields(name, line, &tk[b + 2], &tk[b + 3], data, &io, err, errlen);
	if (rc)
		return rc;
	if (v3) {
		if (*first == UINT64_MAX)
			*first = ts;
		ts = ts < *first ? 0 : ts - *first;
		if (ts < *clock)
			ts = *clock; /* out of order: issue at once, as fio */
		*clock = ts;
	}
	io.t_ns = *clock;
	return push(t, &io);
}

/* MSR Cambridge / SNIA IOTTA: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime */
static int parse_csv_line(struct trace *t, const char *name, unsigned line, const struct tok *tk,
			  unsigned n, uint64_t *clock, uint64_t *first, struct names *nm, char *err,
			  size_t errlen)
{
	struct trace_io io = {.line = line};
	uint64_t ts;

	if (n != 7)
		return fail(err, errlen,
			    "%s:%u: expected 7 comma-separated fields "
			    "(Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime), got %u",
			    name, line, n > 7 ? 8 : n);
	if (!num_u64(tk[0].p, tk[0].n, &ts))
		return fail(err, errlen, "%s:%u: bad timestamp '%.*s'", name, line,
			    (int)(tk[0].n > 40 ? 40 : tk[0].n), tk[0].p);
	if (tk[3].n == 4 && !strncasecmp(tk[3].p, "read", 4))
		io.op = TRACE_READ;
	else if (tk[3].n == 5 && !strncasecmp(tk[3].p, "write", 5))
		io.op = TRACE_WRITE;
	else
		return fail(err, errlen, "%s:%u: unknown type '%.*s' (Read or Write)", name, line,
			    (int)(tk[3].n > 40 ? 40 : tk[3].n), tk[3].p);
	int rc = io_fields(name, line, &tk[4], &tk[5], true, &io, err, errlen);
	if (rc)
		return rc;
	uint64_t rt;
	if (!num_u64(tk[6].p, tk[6].n, &rt))
		return fail(err, errlen, "%s:%u: bad response time '%.*s'", name, line,
			    (int)(tk[6].n > 40 ? 40 : tk[6].n), tk[6].p);
	if (names_add(nm, &tk[2]))
		return -ENOMEM;
	if (*first == UINT64_MAX)
		*first = ts;
	uint64_t rel = ts < *first ? 0 : ts - *first;
	if (rel > UINT64_MAX / 100)
		return fail(err, errlen, "%s:%u: timestamp out of range", name, line);
	rel *= 100; /* Windows filetime: 100 ns units */
	if (rel < *clock)
		rel = *clock;
	*clock = rel;
	io.t_ns = rel;
	return push(t, &io);
}

int trace_parse_text(const char *name, const char *buf, size_t len, struct trace **out, char *err,
		     size_t errlen)
{
	static const char v2[] = "fio version 2 iolog", v3[] = "fio version 3 iolog";
	const char *p = buf, *end = buf + len;
	struct names nm = {0};
	uint64_t clock = 0, first = UINT64_MAX;
	unsigned line = 0;
	enum trace_fmt fmt;
	int rc = 0;

	*out = NULL;
	const char *nl = memchr(p, '\n', len);
	const char *e1 = nl ? nl : end;
	size_t l1 = (size_t)(e1 - p);
	if (l1 && p[l1 - 1] == '\r')
		l1--;
	if (l1 == sizeof(v2) - 1 && !memcmp(p, v2, l1))
		fmt = TRACE_IOLOG2;
	else if (l1 == sizeof(v3) - 1 && !memcmp(p, v3, l1))
		fmt = TRACE_IOLOG3;
	else if ((l1 >= 9 && !memcmp(p, "# tracer:", 9)) || memmem(p, l1, ": block_rq_issue: ", 18))
		return trace_parse_ftrace(name, buf, len, 0, out, err, errlen);
	else if (l1 >= 12 && !memcmp(p, "fio version ", 12))
		return fail(err, errlen, "%s:1: unknown iolog version line '%.*s'", name,
			    (int)(l1 > 60 ? 60 : l1), p);
	else if (memchr(p, ',', l1))
		fmt = TRACE_MSR_CSV;
	else
		return fail(err, errlen,
			    "%s:1: not a trace (no 'fio version 2|3 iolog' line, not CSV, not "
			    "blktrace)",
			    name);
	struct trace *t = trace_alloc(name, fmt);
	if (!t)
		return -ENOMEM;
	t->timed = fmt != TRACE_IOLOG2;
	if (fmt != TRACE_MSR_CSV) {
		p = nl ? nl + 1 : end;
		line = 1;
	}
	while (p < end) {
		struct tok tk[8];
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		line++;
		const char *le = e;
		if (le > p && le[-1] == '\r')
			le--;
		bool blank = true;
		for (const char *q = p; q < le; q++) {
			if (!*q) {
				rc = fail(err, errlen, "%s:%u: NUL byte in a text trace", name,
					  line);
				goto out;
			}
			if (*q != ' ' && *q != '\t')
				blank = false;
		}
		if (!blank) {
			if (fmt == TRACE_MSR_CSV) {
				unsigned n = split(p, le, false, tk, 7);
				if (line == 1 && n && tk[0].n == 9 &&
				    !strncasecmp(tk[0].p, "timestamp", 9)) {
					p = e + 1;
					continue; /* header */
				}
				rc = parse_csv_line(t, name, line, tk, n, &clock, &first, &nm, err,
						    errlen);
			} else {
				unsigned n = split(p, le, true, tk, 5);
				rc = parse_iolog_line(t, name, line, tk, n, &clock, &first, &nm,
						      err, errlen);
			}
			if (rc)
				goto out;
		}
		p = e + 1;
	}
	if (!t->n) {
		rc = fail(err, errlen, "%s: no I/O in the trace", name);
		goto out;
	}
	t->nfiles = nm.n;
out:
	free(nm.v);
	if (rc) {
		trace_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

static int cmp_time(const void *a, const void *b)
{
	const struct trace_io *x = a, *y = b;
	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* One trace_pipe line; 1 when it is not a block_rq_issue event of @devt. */
static int ftrace_line(const char *name, unsigned line, const char *p, const char *e, uint32_t devt,
		       struct trace_io *io, char *err, size_t errlen)
{
	static const char tag[] = ": block_rq_issue: ";
	const char *m = NULL;
	struct tok tk[12];

	for (const char *q = p; q + sizeof(tag) - 1 <= e; q++)
		if (!memcmp(q, tag, sizeof(tag) - 1)) {
			m = q;
			break;
		}
	if (!m)
		return 1;
	/* the timestamp "SECS.USECS" ends at m */
	const char *ts = m;
	while (ts > p && ts[-1] != ' ')
		ts--;
	const char *dot = memchr(ts, '.', (size_t)(m - ts));
	uint64_t sec, usec;
	if (!dot || !num_u64(ts, (size_t)(dot - ts), &sec) || (m - dot - 1) != 6 ||
	    !num_u64(dot + 1, 6, &usec) || sec > UINT64_MAX / 1000000000ULL - 1)
		return fail(err, errlen, "%s:%u: bad timestamp", name, line);
	io->t_ns = sec * 1000000000ULL + usec * 1000;
	unsigned n = split(m + sizeof(tag) - 1, e, true, tk, 11);
	if (n > 11)
		n = 11; /* what follows the sector count is not needed */
	if (n < 6)
		return fail(err, errlen, "%s:%u: short block_rq_issue event", name, line);
	const char *comma = memchr(tk[0].p, ',', tk[0].n);
	uint64_t maj, min, sector, nsect;
	if (!comma || !num_u64(tk[0].p, (size_t)(comma - tk[0].p), &maj) ||
	    !num_u64(comma + 1, tk[0].n - (size_t)(comma - tk[0].p) - 1, &min) || maj > 4095 ||
	    min > 0xfffff)
		return fail(err, errlen, "%s:%u: bad device '%.*s'", name, line, (int)tk[0].n,
			    tk[0].p);
	if (devt && ((maj << 20) | min) != devt)
		return 1;
	/* "(CMD)" may hold spaces: the sector follows the token that ends in ')' */
	unsigned i = 3;
	while (i < n && (tk[i].n == 0 || tk[i].p[tk[i].n - 1] != ')'))
		i++;
	if (i + 3 >= n || !tok_is(&tk[i + 2], "+"))
		return fail(err, errlen, "%s:%u: no 'SECTOR + COUNT' in the event", name, line);
	if (!num_u64(tk[i + 1].p, tk[i + 1].n, &sector) ||
	    !num_u64(tk[i + 3].p, tk[i + 3].n, &nsect) || nsect > UINT32_MAX / 512 ||
	    sector > (UINT64_MAX - UINT32_MAX) / 512)
		return fail(err, errlen, "%s:%u: bad sector or count", name, line);
	const struct tok *rwbs = &tk[1];
	bool d = memchr(rwbs->p, 'D', rwbs->n), w = memchr(rwbs->p, 'W', rwbs->n);
	bool r = memchr(rwbs->p, 'R', rwbs->n), f = memchr(rwbs->p, 'F', rwbs->n);
	io->off = sector * 512;
	io->len = (uint32_t)(nsect * 512);
	if (!d && io->len > TRACE_MAX_LEN)
		return fail(err, errlen, "%s:%u: %u bytes in one I/O (at most %u)", name, line,
			    io->len, TRACE_MAX_LEN);
	if (!io->len) {
		if (!f)
			return 1; /* no data, no flush */
		io->op = TRACE_SYNC;
		io->off = 0;
		return 0;
	}
	io->op = d ? TRACE_TRIM : w ? TRACE_WRITE : r ? TRACE_READ : TRACE_READ;
	return 0;
}

int trace_parse_ftrace(const char *name, const char *buf, size_t len, uint32_t devt,
		       struct trace **out, char *err, size_t errlen)
{
	struct trace *t = trace_alloc(name, TRACE_FTRACE);
	const char *p = buf, *end = buf + len;
	unsigned line = 0;
	int rc = 0;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->timed = true;
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		struct trace_io io = {0};
		if (!e)
			e = end;
		line++;
		if (*p != '#') {
			io.line = line;
			rc = ftrace_line(name, line, p, e, devt, &io, err, errlen);
			if (rc < 0)
				goto out;
			if (rc == 0 && (rc = push(t, &io)))
				goto out;
			rc = 0;
		}
		p = e + 1;
	}
	if (!t->n) {
		rc = fail(err, errlen, "%s: no block_rq_issue events%s", name,
			  devt ? " of the device" : "");
		goto out;
	}
	/* per-CPU buffers interleave: order by time, stable by line */
	qsort(t->io, t->n, sizeof(*t->io), cmp_time);
	uint64_t t0 = t->io[0].t_ns;
	for (size_t i = 0; i < t->n; i++)
		t->io[i].t_ns -= t0;
	t->nfiles = 1;
out:
	if (rc) {
		trace_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

static uint32_t bswap32(uint32_t v)
{
	return __builtin_bswap32(v);
}

static uint32_t rd32(const unsigned char *p, bool sw)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return sw ? bswap32(v) : v;
}

static uint64_t rd64(const unsigned char *p, bool sw)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return sw ? __builtin_bswap64(v) : v;
}

static uint16_t rd16(const unsigned char *p, bool sw)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return sw ? __builtin_bswap16(v) : v;
}

int trace_parse_blktrace(const char *const *names, const void *const *bufs, const size_t *lens,
			 unsigned nbuf, struct trace **out, char *err, size_t errlen)
{
	struct trace *t = trace_alloc(nbuf ? names[0] : "", TRACE_BLKTRACE);
	uint32_t devs[64];
	unsigned ndev = 0;
	uint32_t rec_no = 0;
	int rc = 0;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->timed = true;
	for (unsigned f = 0; f < nbuf; f++) {
		const unsigned char *p = bufs[f], *end = p + lens[f];
		uint32_t rec = 0;
		while (p < end) {
			rec++;
			rec_no++;
			if ((size_t)(end - p) < BLK_REC) {
				rc = fail(err, errlen, "%s: record %u: truncated (%zu of %u bytes)",
					  names[f], rec, (size_t)(end - p), BLK_REC);
				goto out;
			}
			uint32_t magic;
			memcpy(&magic, p, 4);
			bool sw = false;
			if ((magic & 0xffffff00u) != BLK_MAGIC) {
				sw = true;
				magic = bswap32(magic);
			}
			if ((magic & 0xffffff00u) != BLK_MAGIC) {
				rc = fail(
				    err, errlen,
				    "%s: record %u: bad magic 0x%08x (not blktrace, or corrupt)",
				    names[f], rec, magic);
				goto out;
			}
			if ((magic & 0xff) != BLK_VERSION) {
				rc = fail(err, errlen, "%s: record %u: blktrace version %u, not %u",
					  names[f], rec, magic & 0xff, BLK_VERSION);
				goto out;
			}
			uint64_t time = rd64(p + 8, sw), sector = rd64(p + 16, sw);
			uint32_t bytes = rd32(p + 24, sw), action = rd32(p + 28, sw);
			uint32_t device = rd32(p + 36, sw);
			uint16_t pdu = rd16(p + 46, sw);
			if ((size_t)(end - p) - BLK_REC < pdu) {
				rc =
				    fail(err, errlen, "%s: record %u: truncated payload (%u bytes)",
					 names[f], rec, pdu);
				goto out;
			}
			p += BLK_REC + pdu;
			uint32_t cat = action >> 16;
			if ((action & 0xffff) != BLK_TA_ISSUE ||
			    (cat & (BLK_TC_NOTIFY | BLK_TC_PC)))
				continue;
			struct trace_io io = {.t_ns = time, .line = rec_no};
			if (cat & BLK_TC_DISCARD)
				io.op = TRACE_TRIM;
			else if (!bytes && (cat & BLK_TC_FLUSH))
				io.op = TRACE_SYNC;
			else if (cat & BLK_TC_WRITE)
				io.op = TRACE_WRITE;
			else
				io.op = TRACE_READ;
			if (!bytes && io.op != TRACE_SYNC)
				continue; /* no data: nothing to replay */
			if ((io.op != TRACE_TRIM && bytes > TRACE_MAX_LEN) ||
			    sector > (UINT64_MAX - bytes) / 512) {
				rc = fail(err, errlen,
					  "%s: record %u: sector %llu + %u bytes out of range",
					  names[f], rec, (unsigned long long)sector, bytes);
				goto out;
			}
			io.off = sector * 512;
			io.len = bytes;
			unsigned d = 0;
			while (d < ndev && devs[d] != device)
				d++;
			if (d == ndev && ndev < 64)
				devs[ndev++] = device;
			if ((rc = push(t, &io)))
				goto out;
		}
	}
	if (!t->n) {
		rc = fail(err, errlen, "%s: no issue (D) events with data in the trace",
			  nbuf ? names[0] : "(none)");
		goto out;
	}
	qsort(t->io, t->n, sizeof(*t->io), cmp_time);
	uint64_t t0 = t->io[0].t_ns;
	for (size_t i = 0; i < t->n; i++)
		t->io[i].t_ns -= t0;
	t->nfiles = ndev;
out:
	if (rc) {
		trace_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

void trace_map(struct trace *t, uint64_t scale, uint32_t align)
{
	t->max_end = 0;
	for (size_t i = 0; i < t->n; i++) {
		struct trace_io *io = &t->io[i];
		if (scale > 1)
			io->off /= scale;
		if (align)
			io->off &= ~((uint64_t)align - 1);
		if (io->op <= TRACE_WRITE && io->off + io->len > t->max_end)
			t->max_end = io->off + io->len;
	}
}

int trace_check_fit(const struct trace *t, uint64_t region_len, uint32_t lbs, char *err,
		    size_t errlen)
{
	const char *unit = t->fmt == TRACE_BLKTRACE ? "record" : "line";
	for (size_t i = 0; i < t->n; i++) {
		const struct trace_io *io = &t->io[i];
		if (io->op > TRACE_WRITE)
			continue; /* not replayed */
		if (io->off + io->len > region_len)
			return fail(err, errlen,
				    "%s: %s %u: offset %llu + %u bytes is beyond the target's %llu "
				    "bytes (replay_scale/replay_redirect, or a larger target)",
				    t->path, unit, io->line, (unsigned long long)io->off, io->len,
				    (unsigned long long)region_len);
		if (lbs && (io->off % lbs || io->len % lbs))
			return fail(err, errlen,
				    "%s: %s %u: offset %llu or length %u is not a multiple of the "
				    "logical block size %u (replay_align, or buffered I/O)",
				    t->path, unit, io->line, (unsigned long long)io->off, io->len,
				    lbs);
	}
	return 0;
}

/* Reads all of regular file @path. */
static int slurp(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	int rc = 0;

	*buf = NULL;
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > TRACE_MAX_FILE) {
		rc = fail(err, errlen, "%s: not a regular file of at most 2 GiB", path);
		goto out;
	}
	*buf = malloc((size_t)st.st_size + 1);
	if (!*buf) {
		rc = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", path);
		goto out;
	}
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, *buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			rc = r < 0 ? -errno : -EIO;
			snprintf(err, errlen, "%s: read: %s", path, strerror(-rc));
			goto out;
		}
		got += (size_t)r;
	}
	(*buf)[got] = '\0';
	*len = got;
out:
	close(fd);
	if (rc) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

static bool is_blk_magic(const char *b, size_t n)
{
	uint32_t m;
	if (n < 4)
		return false;
	memcpy(&m, b, 4);
	return (m & 0xffffff00u) == BLK_MAGIC || (bswap32(m) & 0xffffff00u) == BLK_MAGIC;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* PREFIX.blktrace.N -> every PREFIX.blktrace.M in its directory, sorted. */
static int blk_siblings(const char *path, char ***out, unsigned *nout)
{
	const char *base = strrchr(path, '/');
	size_t dlen = base ? (size_t)(base - path) + 1 : 0;
	base = base ? base + 1 : path;
	const char *tag = strstr(base, ".blktrace.");
	char **v = NULL;
	unsigned n = 0;
	int rc = 0;

	if (!tag) {
		v = malloc(sizeof(*v));
		if (!v || !(v[0] = strdup(path))) {
			free(v);
			return -ENOMEM;
		}
		*out = v;
		*nout = 1;
		return 0;
	}
	size_t plen = (size_t)(tag - base) + 10;
	char *dir = strndup(path, dlen ? dlen : 0);
	DIR *d = opendir(dlen ? dir : ".");
	if (!dir || !d) {
		rc = d ? -ENOMEM : -errno;
		goto out;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *s = e->d_name;
		if (strncmp(s, base, plen) || !s[plen] ||
		    strspn(s + plen, "0123456789") != strlen(s + plen))
			continue;
		void *p = realloc(v, (n + 1) * sizeof(*v));
		if (!p) {
			rc = -ENOMEM;
			goto out;
		}
		v = p;
		char *full = malloc(dlen + strlen(s) + 1);
		if (!full) {
			rc = -ENOMEM;
			goto out;
		}
		memcpy(full, path, dlen);
		strcpy(full + dlen, s);
		v[n++] = full;
	}
	qsort(v, n, sizeof(*v), cmp_str);
out:
	if (d)
		closedir(d);
	free(dir);
	if (rc) {
		for (unsigned i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return rc;
	}
	*out = v;
	*nout = n;
	return 0;
}

/* NAME.blktrace.N: blktrace's per-CPU file (may be empty) */
static bool blk_name(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *tag = strstr(base, ".blktrace.");
	return tag && tag[10] && strspn(tag + 10, "0123456789") == strlen(tag + 10);
}

int trace_load(const char *path, struct trace **out, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int rc = slurp(path, &buf, &len, err, errlen);

	*out = NULL;
	if (rc)
		return rc;
	if (!is_blk_magic(buf, len) && !blk_name(path)) {
		rc = trace_parse_text(path, buf, len, out, err, errlen);
		free(buf);
		return rc;
	}
	free(buf);
	char **files = NULL;
	unsigned n = 0;
	rc = blk_siblings(path, &files, &n);
	if (rc) {
		snprintf(err, errlen, "%s: cannot list its per-CPU files: %s", path, strerror(-rc));
		return rc;
	}
	char **bufs = calloc(n, sizeof(*bufs));
	size_t *lens = calloc(n, sizeof(*lens));
	if (!bufs || !lens) {
		rc = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < n && !rc; i++)
		rc = slurp(files[i], &bufs[i], &lens[i], err, errlen);
	if (!rc)
		rc = trace_parse_blktrace((const char *const *)files, (const void *const *)bufs,
					  lens, n, out, err, errlen);
	if (!rc)
		snprintf((*out)->path, sizeof((*out)->path), "%s", path);
out:
	for (unsigned i = 0; i < n; i++) {
		if (bufs)
			free(bufs[i]);
		free(files[i]);
	}
	free(files);
	free(bufs);
	free(lens);
	return rc;
}

int trace_write_iolog3(FILE *f, const struct trace *t, const char *fname)
{
	static const char *const act[] = {"read", "write", "trim", "sync"};

	if (strpbrk(fname, " \t\n\r"))
		return -EINVAL; /* fio's fields are separated by white space */
	fprintf(f, "fio version 3 iolog\n0 %s add\n0 %s open\n", fname, fname);
	for (size_t i = 0; i < t->n; i++) {
		const struct trace_io *io = &t->io[i];
		fprintf(f, "%llu %s %s %llu %u\n", (unsigned long long)(io->t_ns / 1000), fname,
			act[io->op], (unsigned long long)(io->op == TRACE_SYNC ? 0 : io->off),
			io->op == TRACE_SYNC ? 0 : io->len);
	}
	fprintf(f, "%llu %s close\n",
		t->n ? (unsigned long long)(t->io[t->n - 1].t_ns / 1000) : 0ULL, fname);
	return ferror(f) ? -EIO : 0;
}

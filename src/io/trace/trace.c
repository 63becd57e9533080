/* trace.c - block trace readers (see trace.h).  Every number is parsed
 * strictly (digits only, range-checked, nothing trailing); the first bad line
 * or record ends the load with a message naming it. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/trace/trace.h"
#include "io/trace/trace_priv.h"

const char *trace_fmt_name(enum trace_fmt f)
{
	switch (f) {
	case TRACE_IOLOG2:
		return "fio iolog v2";
	case TRACE_IOLOG3:
		return "fio iolog v3";
	case TRACE_MSR_CSV:
		return "SNIA/MSR CSV";
	case TRACE_BLKTRACE:
		return "blktrace";
	case TRACE_FTRACE:
		return "tracefs block_rq_issue";
	}
	return "?";
}

int trace_fail(char *err, size_t errlen, const char *fmt, ...)
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

struct trace *trace_alloc(const char *name, enum trace_fmt fmt)
{
	struct trace *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->fmt = fmt;
	snprintf(t->path, sizeof(t->path), "%s", name);
	return t;
}

int trace_push(struct trace *t, const struct trace_io *io)
{
	if (t->n >= TRACE_MAX_IOS)
		return -E2BIG; /* trace_mem_err says so */
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		if (cap > TRACE_MAX_IOS)
			cap = TRACE_MAX_IOS;
		void *p = realloc(t->io, cap * sizeof(*io));
		if (!p)
			return -ENOMEM;
		t->io = p;
		t->cap = cap;
	}
	t->io[t->n++] = *io;
	t->nops[io->op]++;
	if (io->op == TRACE_SYNC)
		return 0; /* a flush: no buffer, no extent */
	if (io->op != TRACE_TRIM && io->len > t->max_len)
		t->max_len = io->len; /* a trim needs no buffer */
	if (io->off + io->len > t->max_end)
		t->max_end = io->off + io->len;
	return 0;
}

/* Strict unsigned decimal of [s, s+n): digits only, no overflow. */
bool trace_num_u64(const char *s, size_t n, uint64_t *out)
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

bool trace_tok_is(const struct tok *t, const char *s)
{
	return t->n == strlen(s) && !memcmp(t->p, s, t->n);
}

/* Splits [s, e) at any byte of @seps (runs of whitespace collapse when
 * @ws); up to @max tokens, returns the count (max + 1 when more). */
unsigned trace_split(const char *s, const char *e, bool ws, struct tok *tk, unsigned max)
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

/* Distinct names (files, disks), linear: traces name a handful.  Copies:
 * a streamed trace's lines do not outlive their chunk. */
static int names_add(struct trace_names *nm, const struct tok *t)
{
	for (unsigned i = 0; i < nm->n; i++)
		if (strlen(nm->v[i]) == t->n && !memcmp(nm->v[i], t->p, t->n))
			return 0;
	if (nm->n >= 4096)
		return 0; /* counted up to 4096 */
	void *p = realloc(nm->v, (nm->n + 1) * sizeof(*nm->v));
	if (!p)
		return -ENOMEM;
	nm->v = p;
	if (!(nm->v[nm->n] = strndup(t->p, t->n)))
		return -ENOMEM;
	nm->n++;
	return 0;
}

static void names_free(struct trace_names *nm)
{
	for (unsigned i = 0; i < nm->n; i++)
		free(nm->v[i]);
	free(nm->v);
	memset(nm, 0, sizeof(*nm));
}

static int io_fields(const char *name, unsigned line, const struct tok *off, const struct tok *len,
		     bool need_len, struct trace_io *io, char *err, size_t errlen)
{
	uint64_t o, l;
	if (!trace_num_u64(off->p, off->n, &o))
		return trace_fail(err, errlen, "%s:%u: bad offset '%.*s'", name, line,
				  (int)(off->n > 40 ? 40 : off->n), off->p);
	if (!trace_num_u64(len->p, len->n, &l))
		return trace_fail(err, errlen, "%s:%u: bad length '%.*s'", name, line,
				  (int)(len->n > 40 ? 40 : len->n), len->p);
	uint64_t max = io->op == TRACE_TRIM ? UINT32_MAX : TRACE_MAX_LEN;
	if (need_len && (l == 0 || l > max))
		return trace_fail(err, errlen, "%s:%u: length %llu out of range (1..%llu)", name,
				  line, (unsigned long long)l, (unsigned long long)max);
	if (!need_len && l > TRACE_MAX_LEN)
		l = 0;
	if (o > UINT64_MAX - l)
		return trace_fail(err, errlen, "%s:%u: offset + length overflows", name, line);
	io->off = o;
	io->len = (uint32_t)l;
	return 0;
}

/* fio iolog v2/v3: "[ts] file action [offset length]". */
static int parse_iolog_line(struct trace *t, const char *name, unsigned line, const struct tok *tk,
			    unsigned n, uint64_t *clock, uint64_t *first, struct trace_names *nm,
			    char *err, size_t errlen)
{
	bool v3 = t->fmt == TRACE_IOLOG3;
	unsigned b = v3 ? 1 : 0;
	struct trace_io io = {.line = line};
	uint64_t ts = 0;

	if (n != b + 2 && n != b + 4)
		return trace_fail(err, errlen, "%s:%u: expected %s, got %u fields", name, line,
				  v3 ? "'timestamp file action [offset length]'"
				     : "'file action [offset length]'",
				  n);
	if (v3) {
		if (!trace_num_u64(tk[0].p, tk[0].n, &ts) || ts > UINT64_MAX / 1000)
			return trace_fail(err, errlen, "%s:%u: bad timestamp '%.*s'", name, line,
					  (int)(tk[0].n > 40 ? 40 : tk[0].n), tk[0].p);
		ts *= 1000; /* fio writes microseconds */
	}
	if (names_add(nm, &tk[b]))
		return -ENOMEM;
	const struct tok *act = &tk[b + 1];
	if (n == b + 2) {
		if (trace_tok_is(act, "add") || trace_tok_is(act, "open") ||
		    trace_tok_is(act, "close"))
			return 0;
		return trace_fail(err, errlen, "%s:%u: unknown file action '%.*s'", name, line,
				  (int)(act->n > 40 ? 40 : act->n), act->p);
	}
	if (trace_tok_is(act, "wait")) {
		uint64_t us;
		if (v3)
			return trace_fail(err, errlen, "%s:%u: 'wait' is not allowed in version 3",
					  name, line);
		if (!trace_num_u64(tk[2].p, tk[2].n, &us) || us > UINT64_MAX / 1000 ||
		    *clock > UINT64_MAX - us * 1000)
			return trace_fail(err, errlen, "%s:%u: bad wait '%.*s'", name, line,
					  (int)(tk[2].n > 40 ? 40 : tk[2].n), tk[2].p);
		*clock += us * 1000;
		t->timed = true;
		return 0;
	}
	bool data = true;
	if (trace_tok_is(act, "read"))
		io.op = TRACE_READ;
	else if (trace_tok_is(act, "write"))
		io.op = TRACE_WRITE;
	else if (trace_tok_is(act, "trim"))
		io.op = TRACE_TRIM;
	else if (trace_tok_is(act, "sync") || trace_tok_is(act, "datasync"))
		io.op = TRACE_SYNC, data = false;
	else
		return trace_fail(err, errlen, "%s:%u: unknown action '%.*s'", name, line,
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
	return trace_push(t, &io);
}

/* MSR Cambridge / SNIA IOTTA: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime */
static int parse_csv_line(struct trace *t, const char *name, unsigned line, const struct tok *tk,
			  unsigned n, uint64_t *clock, uint64_t *first, struct trace_names *nm,
			  char *err, size_t errlen)
{
	struct trace_io io = {.line = line};
	uint64_t ts;

	if (n != 7)
		return trace_fail(
		    err, errlen,
		    "%s:%u: expected 7 comma-separated fields "
		    "(Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime), got %u",
		    name, line, n > 7 ? 8 : n);
	if (!trace_num_u64(tk[0].p, tk[0].n, &ts))
		return trace_fail(err, errlen, "%s:%u: bad timestamp '%.*s'", name, line,
				  (int)(tk[0].n > 40 ? 40 : tk[0].n), tk[0].p);
	if (tk[3].n == 4 && !strncasecmp(tk[3].p, "read", 4))
		io.op = TRACE_READ;
	else if (tk[3].n == 5 && !strncasecmp(tk[3].p, "write", 5))
		io.op = TRACE_WRITE;
	else
		return trace_fail(err, errlen, "%s:%u: unknown type '%.*s' (Read or Write)", name,
				  line, (int)(tk[3].n > 40 ? 40 : tk[3].n), tk[3].p);
	int rc = io_fields(name, line, &tk[4], &tk[5], true, &io, err, errlen);
	if (rc)
		return rc;
	uint64_t rt;
	if (!trace_num_u64(tk[6].p, tk[6].n, &rt))
		return trace_fail(err, errlen, "%s:%u: bad response time '%.*s'", name, line,
				  (int)(tk[6].n > 40 ? 40 : tk[6].n), tk[6].p);
	if (names_add(nm, &tk[2]))
		return -ENOMEM;
	if (*first == UINT64_MAX)
		*first = ts;
	uint64_t rel = ts < *first ? 0 : ts - *first;
	if (rel > UINT64_MAX / 100)
		return trace_fail(err, errlen, "%s:%u: timestamp out of range", name, line);
	rel *= 100; /* Windows filetime: 100 ns units */
	if (rel < *clock)
		rel = *clock;
	*clock = rel;
	io.t_ns = rel;
	return trace_push(t, &io);
}

int trace_mem_err(int rc, const char *name, unsigned line, char *err, size_t errlen)
{
	char at[16] = "";
	if (line)
		snprintf(at, sizeof(at), ":%u", line);
	if (rc == -E2BIG)
		snprintf(err, errlen,
			 "%s%s: more than %u I/Os: a replayed trace is held in memory, at most "
			 "%zu MiB (refused, not cut)",
			 name, at, TRACE_MAX_IOS,
			 (size_t)TRACE_MAX_IOS * sizeof(struct trace_io) >> 20);
	else if (rc == -ENOMEM)
		snprintf(err, errlen, "%s%s: out of memory", name, at);
	return rc;
}

/* Line 1 of a text trace: its format (st->t made), or an error. */
static int text_first(struct trace_text *st, const char *p, size_t l1, char *err, size_t errlen)
{
	static const char v2[] = "fio version 2 iolog", v3[] = "fio version 3 iolog";
	enum trace_fmt fmt;

	if (l1 == sizeof(v2) - 1 && !memcmp(p, v2, l1))
		fmt = TRACE_IOLOG2;
	else if (l1 == sizeof(v3) - 1 && !memcmp(p, v3, l1))
		fmt = TRACE_IOLOG3;
	else if ((l1 >= 9 && !memcmp(p, "# tracer:", 9)) || memmem(p, l1, ": block_rq_issue: ", 18))
		fmt = TRACE_FTRACE;
	else if (l1 >= 12 && !memcmp(p, "fio version ", 12))
		return trace_fail(err, errlen, "%s:1: unknown iolog version line '%.*s'", st->name,
				  (int)(l1 > 60 ? 60 : l1), p);
	else if (memchr(p, ',', l1))
		fmt = TRACE_MSR_CSV;
	else
		return trace_fail(
		    err, errlen,
		    "%s:1: not a trace (no 'fio version 2|3 iolog' line, not CSV, not "
		    "blktrace)",
		    st->name);
	if (!(st->t = trace_alloc(st->name, fmt)))
		return trace_mem_err(-ENOMEM, st->name, 1, err, errlen);
	st->t->timed = fmt != TRACE_IOLOG2;
	return 0;
}

/* One line [p, p+n) without its '\n'. */
static int text_line(struct trace_text *st, const char *p, size_t n, char *err, size_t errlen)
{
	const char *le = p + n;
	unsigned line = ++st->line;
	struct tok tk[8];
	bool blank = true;
	int rc;

	if (n > TRACE_MAX_LINE)
		return trace_fail(err, errlen,
				  "%s:%u: line longer than %u bytes (refused, not cut)", st->name,
				  line, TRACE_MAX_LINE);
	if (le > p && le[-1] == '\r')
		le--;
	if (line == 1) {
		rc = text_first(st, p, (size_t)(le - p), err, errlen);
		if (rc || (st->t->fmt != TRACE_MSR_CSV && st->t->fmt != TRACE_FTRACE))
			return rc; /* the version line: no I/O */
	}
	if (st->t->fmt == TRACE_FTRACE) {
		if (*p == '#' || !n)
			return 0;
		rc = trace_ftrace_line(st->t, st->name, line, p, p + n, 0, err, errlen);
		return rc < 0 ? trace_mem_err(rc, st->name, line, err, errlen) : 0;
	}
	for (const char *q = p; q < le; q++) {
		if (!*q)
			return trace_fail(err, errlen, "%s:%u: NUL byte in a text trace", st->name,
					  line);
		if (*q != ' ' && *q != '\t')
			blank = false;
	}
	if (blank)
		return 0;
	if (st->t->fmt == TRACE_MSR_CSV) {
		unsigned k = trace_split(p, le, false, tk, 7);
		if (line == 1 && k && tk[0].n == 9 && !strncasecmp(tk[0].p, "timestamp", 9))
			return 0; /* header */
		rc = parse_csv_line(st->t, st->name, line, tk, k, &st->clock, &st->first, &st->nm,
				    err, errlen);
	} else {
		unsigned k = trace_split(p, le, true, tk, 5);
		rc = parse_iolog_line(st->t, st->name, line, tk, k, &st->clock, &st->first, &st->nm,
				      err, errlen);
	}
	return trace_mem_err(rc, st->name, line, err, errlen);
}

void trace_text_init(struct trace_text *st, const char *name)
{
	memset(st, 0, sizeof(*st));
	st->name = name;
	st->first = UINT64_MAX;
}

int trace_text_feed(struct trace_text *st, const char *p, size_t n, char *err, size_t errlen)
{
	const char *end = p + n;
	int rc = 0;

	while (p < end && !rc) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		size_t seg = (size_t)(e - p);
		if (!st->ncarry && nl) { /* a whole line in this chunk */
			rc = text_line(st, p, seg, err, errlen);
			p = nl + 1;
			continue;
		}
		/* a line's part: kept up to TRACE_MAX_LINE + 1 bytes */
		if (st->ncarry + seg > TRACE_MAX_LINE)
			return trace_fail(err, errlen,
					  "%s:%u: line longer than %u bytes (refused, not cut)",
					  st->name, st->line + 1, TRACE_MAX_LINE);
		if (!st->carry && !(st->carry = malloc(TRACE_MAX_LINE + 1)))
			return trace_mem_err(-ENOMEM, st->name, st->line + 1, err, errlen);
		memcpy(st->carry + st->ncarry, p, seg);
		st->ncarry += seg;
		p = e;
		if (nl) {
			rc = text_line(st, st->carry, st->ncarry, err, errlen);
			st->ncarry = 0;
			p = nl + 1;
		}
	}
	return rc;
}

int trace_text_finish(struct trace_text *st, int rc, struct trace **out, char *err, size_t errlen)
{
	*out = NULL;
	if (!rc && st->ncarry)
		rc = text_line(st, st->carry, st->ncarry, err, errlen);
	if (!rc && !st->t) /* no line at all */
		rc = trace_fail(err, errlen,
				"%s:1: not a trace (no 'fio version 2|3 iolog' line, not CSV, not "
				"blktrace)",
				st->name);
	if (!rc && st->t->fmt == TRACE_FTRACE)
		rc = trace_ftrace_finish(st->t, 0, err, errlen);
	else if (!rc && !st->t->n)
		rc = trace_fail(err, errlen, "%s: no I/O in the trace", st->name);
	if (!rc) {
		st->t->nfiles = st->t->fmt == TRACE_FTRACE ? 1 : st->nm.n;
		*out = st->t;
		st->t = NULL;
	}
	trace_free(st->t);
	names_free(&st->nm);
	free(st->carry);
	memset(st, 0, sizeof(*st));
	return rc;
}

int trace_parse_text(const char *name, const char *buf, size_t len, struct trace **out, char *err,
		     size_t errlen)
{
	struct trace_text st;

	trace_text_init(&st, name);
	return trace_text_finish(&st, trace_text_feed(&st, buf, len, err, errlen), out, err,
				 errlen);
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
		if (io->op != TRACE_SYNC && io->off + io->len > t->max_end)
			t->max_end = io->off + io->len;
	}
}

int trace_check_fit(const struct trace *t, uint64_t region_len, uint32_t lbs, char *err,
		    size_t errlen)
{
	const char *unit = t->fmt == TRACE_BLKTRACE ? "record" : "line";
	for (size_t i = 0; i < t->n; i++) {
		const struct trace_io *io = &t->io[i];
		if (io->op == TRACE_SYNC)
			continue; /* a flush of the whole target: no range */
		if (io->op == TRACE_TRIM && io->len > TRACE_MAX_TRIM)
			return trace_fail(
			    err, errlen,
			    "%s: %s %u: a trim of %u bytes: replayed trims are at most "
			    "%u bytes (one discard request)",
			    t->path, unit, io->line, io->len, TRACE_MAX_TRIM);
		if (io->off + io->len > region_len)
			return trace_fail(
			    err, errlen,
			    "%s: %s %u: offset %llu + %u bytes is beyond the target's %llu "
			    "bytes (replay_scale/replay_redirect, or a larger target)",
			    t->path, unit, io->line, (unsigned long long)io->off, io->len,
			    (unsigned long long)region_len);
		if (lbs && (io->off % lbs || io->len % lbs))
			return trace_fail(
			    err, errlen,
			    "%s: %s %u: offset %llu or length %u is not a multiple of the "
			    "logical block size %u (replay_align, or buffered I/O)",
			    t->path, unit, io->line, (unsigned long long)io->off, io->len, lbs);
	}
	return 0;
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

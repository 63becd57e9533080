/* trace_kernel.c - the kernel's block-layer captures (see trace.h): blktrace's
 * binary per-CPU files and tracefs's block_rq_issue text, both the issue
 * ("D") events; and trace_load, which tells a binary capture from a text
 * trace.  Every number is parsed strictly; the first bad line or record ends
 * the load with a message naming it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/input.h"
#include "io/trace/trace.h"
#include "io/trace/trace_priv.h"

#define TRACE_CHUNK (64u << 10) /* a text trace is read this much at a time */

#define BLK_MAGIC      0x65617400u
#define BLK_VERSION    0x07u
#define BLK_REC	       48u
#define BLK_TA_ISSUE   7u
#define BLK_TC_WRITE   (1u << 1)
#define BLK_TC_FLUSH   (1u << 2)
#define BLK_TC_PC      (1u << 9)
#define BLK_TC_NOTIFY  (1u << 10)
#define BLK_TC_DISCARD (1u << 13)

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
	if (!dot || !trace_num_u64(ts, (size_t)(dot - ts), &sec) || (m - dot - 1) != 6 ||
	    !trace_num_u64(dot + 1, 6, &usec) || sec > UINT64_MAX / 1000000000ULL - 1)
		return trace_fail(err, errlen, "%s:%u: bad timestamp", name, line);
	io->t_ns = sec * 1000000000ULL + usec * 1000;
	unsigned n = trace_split(m + sizeof(tag) - 1, e, true, tk, 11);
	if (n > 11)
		n = 11; /* what follows the sector count is not needed */
	if (n < 6)
		return trace_fail(err, errlen, "%s:%u: short block_rq_issue event", name, line);
	const char *comma = memchr(tk[0].p, ',', tk[0].n);
	uint64_t maj, min, sector, nsect;
	if (!comma || !trace_num_u64(tk[0].p, (size_t)(comma - tk[0].p), &maj) ||
	    !trace_num_u64(comma + 1, tk[0].n - (size_t)(comma - tk[0].p) - 1, &min) ||
	    maj > 4095 || min > 0xfffff)
		return trace_fail(err, errlen, "%s:%u: bad device '%.*s'", name, line, (int)tk[0].n,
				  tk[0].p);
	if (devt && ((maj << 20) | min) != devt)
		return 1;
	/* "(CMD)" may hold spaces: the sector follows the token that ends in ')' */
	unsigned i = 3;
	while (i < n && (tk[i].n == 0 || tk[i].p[tk[i].n - 1] != ')'))
		i++;
	if (i + 3 >= n || !trace_tok_is(&tk[i + 2], "+"))
		return trace_fail(err, errlen, "%s:%u: no 'SECTOR + COUNT' in the event", name,
				  line);
	if (!trace_num_u64(tk[i + 1].p, tk[i + 1].n, &sector) ||
	    !trace_num_u64(tk[i + 3].p, tk[i + 3].n, &nsect) || nsect > UINT32_MAX / 512 ||
	    sector > (UINT64_MAX - UINT32_MAX) / 512)
		return trace_fail(err, errlen, "%s:%u: bad sector or count", name, line);
	const struct tok *rwbs = &tk[1];
	bool d = memchr(rwbs->p, 'D', rwbs->n), w = memchr(rwbs->p, 'W', rwbs->n);
	bool r = memchr(rwbs->p, 'R', rwbs->n), f = memchr(rwbs->p, 'F', rwbs->n);
	io->off = sector * 512;
	io->len = (uint32_t)(nsect * 512);
	if (!d && io->len > TRACE_MAX_LEN)
		return trace_fail(err, errlen, "%s:%u: %u bytes in one I/O (at most %u)", name,
				  line, io->len, TRACE_MAX_LEN);
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

int trace_ftrace_line(struct trace *t, const char *name, unsigned line, const char *p,
		      const char *e, uint32_t devt, char *err, size_t errlen)
{
	struct trace_io io = {.line = line};
	int rc = ftrace_line(name, line, p, e, devt, &io, err, errlen);
	if (rc < 0)
		return rc;
	return rc == 0 ? trace_push(t, &io) : 0;
}

int trace_ftrace_finish(struct trace *t, uint32_t devt, char *err, size_t errlen)
{
	if (!t->n)
		return trace_fail(err, errlen, "%s: no block_rq_issue events%s", t->path,
				  devt ? " of the device" : "");
	/* per-CPU buffers interleave: order by time, stable by line */
	qsort(t->io, t->n, sizeof(*t->io), cmp_time);
	uint64_t t0 = t->io[0].t_ns;
	for (size_t i = 0; i < t->n; i++)
		t->io[i].t_ns -= t0;
	t->nfiles = 1;
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
		return trace_mem_err(-ENOMEM, name, 0, err, errlen);
	t->timed = true;
	while (p < end && !rc) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		line++;
		if (*p != '#')
			rc =
			    trace_mem_err(trace_ftrace_line(t, name, line, p, e, devt, err, errlen),
					  name, line, err, errlen);
		p = e + 1;
	}
	if (!rc)
		rc = trace_ftrace_finish(t, devt, err, errlen);
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

/* One blktrace record at @p (@left bytes to the buffer's end) of file
 * @name, record @rec: *@io filled from an issue event with data (1), 0
 * for any other event, or -EINVAL with @err; *@used: the record's bytes
 * with its payload.  *@device: the device it names. */
static int blk_record(const unsigned char *p, size_t left, const char *name, uint32_t rec,
		      struct trace_io *io, size_t *used, uint32_t *device, char *err, size_t errlen)
{
	uint32_t magic;
	bool sw = false;

	if (left < BLK_REC)
		return trace_fail(err, errlen, "%s: record %u: truncated (%zu of %u bytes)", name,
				  rec, left, BLK_REC);
	memcpy(&magic, p, 4);
	if ((magic & 0xffffff00u) != BLK_MAGIC) {
		sw = true;
		magic = bswap32(magic);
	}
	if ((magic & 0xffffff00u) != BLK_MAGIC)
		return trace_fail(err, errlen,
				  "%s: record %u: bad magic 0x%08x (not blktrace, or corrupt)",
				  name, rec, magic);
	if ((magic & 0xff) != BLK_VERSION)
		return trace_fail(err, errlen, "%s: record %u: blktrace version %u, not %u", name,
				  rec, magic & 0xff, BLK_VERSION);
	uint64_t time = rd64(p + 8, sw), sector = rd64(p + 16, sw);
	uint32_t bytes = rd32(p + 24, sw), action = rd32(p + 28, sw);
	uint16_t pdu = rd16(p + 46, sw);
	*device = rd32(p + 36, sw);
	if (left - BLK_REC < pdu)
		return trace_fail(err, errlen, "%s: record %u: truncated payload (%u bytes)", name,
				  rec, pdu);
	*used = BLK_REC + pdu;
	uint32_t cat = action >> 16;
	if ((action & 0xffff) != BLK_TA_ISSUE || (cat & (BLK_TC_NOTIFY | BLK_TC_PC)))
		return 0;
	io->t_ns = time;
	if (cat & BLK_TC_DISCARD)
		io->op = TRACE_TRIM;
	else if (!bytes && (cat & BLK_TC_FLUSH))
		io->op = TRACE_SYNC;
	else if (cat & BLK_TC_WRITE)
		io->op = TRACE_WRITE;
	else
		io->op = TRACE_READ;
	if (!bytes && io->op != TRACE_SYNC)
		return 0; /* no data: nothing to replay */
	if ((io->op != TRACE_TRIM && bytes > TRACE_MAX_LEN) || sector > (UINT64_MAX - bytes) / 512)
		return trace_fail(err, errlen, "%s: record %u: sector %llu + %u bytes out of range",
				  name, rec, (unsigned long long)sector, bytes);
	io->off = sector * 512;
	io->len = bytes;
	return 1;
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
		return trace_mem_err(-ENOMEM, nbuf ? names[0] : "", 0, err, errlen);
	t->timed = true;
	for (unsigned f = 0; f < nbuf && !rc; f++) {
		const unsigned char *p = bufs[f], *end = p + lens[f];
		for (uint32_t rec = 1; p < end && !rc; rec++) {
			struct trace_io io = {.line = ++rec_no};
			size_t used = 0;
			uint32_t device = 0;
			rc = blk_record(p, (size_t)(end - p), names[f], rec, &io, &used, &device,
					err, errlen);
			p += used;
			if (rc <= 0)
				continue;
			unsigned d = 0;
			while (d < ndev && devs[d] != device)
				d++;
			if (d == ndev && ndev < 64)
				devs[ndev++] = device;
			rc = trace_push(t, &io);
		}
	}
	if (!rc && !t->n)
		rc = trace_fail(err, errlen, "%s: no issue (D) events with data in the trace",
				nbuf ? names[0] : "(none)");
	if (rc < 0) {
		trace_free(t);
		return rc;
	}
	qsort(t->io, t->n, sizeof(*t->io), cmp_time);
	uint64_t t0 = t->io[0].t_ns;
	for (size_t i = 0; i < t->n; i++)
		t->io[i].t_ns -= t0;
	t->nfiles = ndev;
	*out = t;
	return 0;
}

/* Reads all of blktrace file @path: a regular file (base/input.h) that
 * keeps the trace's files within *@budget bytes (TRACE_MAX_BLK). */
static int slurp(const char *path, size_t *budget, char **buf, size_t *len, char *err,
		 size_t errlen)
{
	int rc = input_read_all(path, *budget, "blktrace trace (all its per-CPU files)", buf, len,
				err, errlen);
	if (!rc)
		*budget -= *len;
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

/* blktrace's per-CPU files of @path: read whole, merged by time. */
static int load_blktrace(const char *path, struct trace **out, char *err, size_t errlen)
{
	char **files = NULL;
	unsigned n = 0;
	size_t budget = TRACE_MAX_BLK;
	int rc = blk_siblings(path, &files, &n);
	if (rc) {
		snprintf(err, errlen, "%s: cannot list its per-CPU files: %s", path, strerror(-rc));
		return rc;
	}
	char **bufs = calloc(n, sizeof(*bufs));
	size_t *lens = calloc(n, sizeof(*lens));
	if (!bufs || !lens) {
		rc = trace_mem_err(-ENOMEM, path, 0, err, errlen);
		goto out;
	}
	for (unsigned i = 0; i < n && !rc; i++)
		rc = slurp(files[i], &budget, &bufs[i], &lens[i], err, errlen);
	if (!rc)
		rc = trace_parse_blktrace((const char *const *)files, (const void *const *)bufs,
					  lens, n, out, err, errlen);
	if (rc == -E2BIG || rc == -ENOMEM) /* trace_push: no message of its own */
		trace_mem_err(rc, path, 0, err, errlen);
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

/* A text trace streamed from @fd, TRACE_CHUNK bytes at a time: a bad line 1
 * is refused after one chunk, and the text is never held whole.  @head
 * holds the @nhead bytes already read. */
static int load_text(const char *path, int fd, char *chunk, size_t nhead, struct trace **out,
		     char *err, size_t errlen)
{
	struct trace_text st;
	ssize_t r = (ssize_t)nhead;
	int rc = 0;

	trace_text_init(&st, path);
	while (!rc && r > 0) {
		rc = trace_text_feed(&st, chunk, (size_t)r, err, errlen);
		while (!rc && (r = read(fd, chunk, TRACE_CHUNK)) < 0 && errno == EINTR)
			;
		if (!rc && r < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: read: %s", path, strerror(-rc));
		}
	}
	return trace_text_finish(&st, rc, out, err, errlen);
}

int trace_load(const char *path, struct trace **out, char *err, size_t errlen)
{
	char *chunk = NULL;
	ssize_t n = 0;
	int rc, fd;

	*out = NULL;
	/* docs/safety.md "Rule: hostile inputs": a regular file, capped */
	fd = input_open(path, TRACE_MAX_FILE, "trace", err, errlen);
	if (fd < 0)
		return fd;
	if (!(chunk = malloc(TRACE_CHUNK))) {
		rc = trace_mem_err(-ENOMEM, path, 0, err, errlen);
		goto out;
	}
	while ((n = read(fd, chunk, TRACE_CHUNK)) < 0 && errno == EINTR)
		;
	if (n < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: read: %s", path, strerror(-rc));
		goto out;
	}
	if (is_blk_magic(chunk, (size_t)n) || blk_name(path)) {
		close(fd);
		fd = -1;
		rc = load_blktrace(path, out, err, errlen);
	} else {
		rc = load_text(path, fd, chunk, (size_t)n, out, err, errlen);
	}
out:
	free(chunk);
	if (fd >= 0)
		close(fd);
	return rc;
}

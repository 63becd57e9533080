/* iolog.c - write_iolog: the issued I/Os as a fio version 3 iolog (see
 * iolog.h).  fio's own lines (iolog.c, log_io_u and log_file):
 *   fio version 3 iolog
 *   USEC FILE add | open | close
 *   USEC FILE read|write OFFSET LENGTH
 * USEC: microseconds since the log's start.
 *
 * Several jobs naming one file (fio's --write_iolog=FILE given with a job
 * file applies to every job; or write_iolog=FILE in [global]): as fio
 * (iolog.c init_iolog_write opens it with fopen "a"), every job appends its
 * own log, version line, add/open, I/Os and close lines, to the file.  The
 * first job of the run (iolog_hold .. iolog_release: `nvscope run`'s job
 * list) to open it empties it (fio also keeps an earlier run's; a plan's
 * steps and the console's runs each start it anew).  Lines are written
 * whole, a buffer of them per write(2) on an O_APPEND descriptor, so jobs
 * running together interleave their lines but never cut one (fio's 8 KiB
 * stdio buffers do). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dev/safety.h"
#include "io/trace/iolog.h"
#include "nvscope.h"

#define IOLOG_BUF (64u << 10) /* whole lines per write(2) */

struct iolog {
	int fd; /* O_APPEND; -1 once closed */
	char *buf;
	size_t blen;
	char path[1024];
	unsigned nfiles, nw;
	char **names;
	struct spsc **rings;
	_Atomic uint64_t *clocks;
	struct iolog_rec *pend, *tmp; /* merge buffer (sorted), scratch */
	size_t npend, cap;
	uint64_t written, popped, last_us;
	int err;
};

/* The files written this run, while a run holds the table (iolog_hold):
 * fio's jobs append to one file, the first empties it. */
static pthread_mutex_t seen_mu = PTHREAD_MUTEX_INITIALIZER;
static struct seen {
	dev_t dev;
	ino_t ino;
} * seen;
static size_t nseen, capseen;
static unsigned held;

void iolog_hold(void)
{
	pthread_mutex_lock(&seen_mu);
	if (!held++)
		nseen = 0;
	pthread_mutex_unlock(&seen_mu);
}

void iolog_release(void)
{
	pthread_mutex_lock(&seen_mu);
	if (held && !--held) {
		free(seen);
		seen = NULL;
		nseen = capseen = 0;
	}
	pthread_mutex_unlock(&seen_mu);
}

/* 1 when @st is the run's first open of its file (or no run holds the
 * table): empty it; 0 when a job of this run wrote it already; -ENOMEM. */
static int first_open(const struct stat *st)
{
	int rc = 1;

	pthread_mutex_lock(&seen_mu);
	for (size_t i = 0; held && i < nseen && rc == 1; i++)
		if (seen[i].dev == st->st_dev && seen[i].ino == st->st_ino)
			rc = 0;
	if (held && rc == 1 && nseen == capseen) {
		size_t nc = capseen ? capseen * 2 : 8;
		struct seen *ns = realloc(seen, nc * sizeof(*ns));
		if (!ns)
			rc = -ENOMEM;
		else
			seen = ns, capseen = nc;
	}
	if (held && rc == 1)
		seen[nseen++] = (struct seen){st->st_dev, st->st_ino};
	pthread_mutex_unlock(&seen_mu);
	return rc;
}

/* Writes the buffered lines with one write(2) (O_APPEND: another job's
 * lines land before or after them, never inside).  0 or l->err. */
static int flush(struct iolog *l)
{
	for (size_t done = 0; done < l->blen && !l->err;) {
		ssize_t k = write(l->fd, l->buf + done, l->blen - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			l->err = k < 0 ? -errno : -EIO;
		else
			done += (size_t)k;
	}
	l->blen = 0;
	return l->err;
}

/* One line into the buffer (flushed first when it would not fit). */
__attribute__((format(printf, 2, 3))) static void emit(struct iolog *l, const char *fmt, ...)
{
	for (int tries = 0; tries < 2; tries++) {
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(l->buf + l->blen, IOLOG_BUF - l->blen, fmt, ap);
		va_end(ap);
		if (k >= 0 && (size_t)k < IOLOG_BUF - l->blen) {
			l->blen += (size_t)k;
			return;
		}
		if (flush(l))
			return;
	}
	if (!l->err)
		l->err = -ENAMETOOLONG; /* a line longer than the buffer: not cut */
}

int iolog_new(const char *path, const char *const *names, const int *fds, unsigned nfiles,
	      unsigned nworkers, struct iolog **out, char *err, size_t errlen)
{
	struct iolog *l = calloc(1, sizeof(*l));
	struct stat st;
	int fd = -1, rc = -ENOMEM;

	*out = NULL;
	if (!l)
		goto fail;
	l->fd = -1;
	if (strlen(path) >= sizeof(l->path)) {
		snprintf(err, errlen, "write_iolog: file name longer than %zu bytes",
			 sizeof(l->path) - 1);
		rc = -EINVAL;
		goto fail;
	}
	snprintf(l->path, sizeof(l->path), "%s", path);
	for (unsigned i = 0; i < nfiles; i++)
		if (strpbrk(names[i], " \t\r\n")) {
			/* fio splits its lines at white space */
			snprintf(err, errlen,
				 "write_iolog=%s: target '%s' has white space in its name", path,
				 names[i]);
			rc = -EINVAL;
			goto fail;
		}
	/* opened as it is, checked, then emptied: never truncate a target */
	fd = safety_open_output(path, SAFETY_OUT_KEEP, err, errlen);
	if (fd < 0) {
		rc = fd;
		if (!err[0])
			snprintf(err, errlen, "write_iolog=%s: %s", path, strerror(-rc));
		goto fail;
	}
	if (fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, errlen, "write_iolog=%s: %s", path, strerror(-rc));
		goto fail;
	}
	for (unsigned i = 0; i < nfiles; i++) {
		struct stat ts;
		if (fds[i] >= 0 && !fstat(fds[i], &ts) && ts.st_dev == st.st_dev &&
		    ts.st_ino == st.st_ino) {
			snprintf(err, errlen, "write_iolog=%s is the target %s: refused", path,
				 names[i]);
			rc = -EPERM;
			goto fail;
		}
	}
	rc = first_open(&st);
	if (rc < 0 || (rc == 1 && ftruncate(fd, 0)) || fcntl(fd, F_SETFL, O_APPEND)) {
		rc = rc < 0 ? rc : -errno;
		snprintf(err, errlen, "write_iolog=%s: %s", path, strerror(-rc));
		goto fail;
	}
	l->fd = fd;
	fd = -1;
	l->nfiles = nfiles;
	l->nw = nworkers;
	l->cap = (size_t)nworkers * IOLOG_RING;
	l->names = calloc(nfiles, sizeof(*l->names));
	l->rings = calloc(nworkers, sizeof(*l->rings));
	l->clocks = calloc(nworkers, sizeof(*l->clocks));
	l->pend = malloc(l->cap * sizeof(*l->pend));
	l->tmp = malloc(l->cap * sizeof(*l->tmp));
	l->buf = malloc(IOLOG_BUF);
	if (!l->names || !l->rings || !l->clocks || !l->pend || !l->tmp || !l->buf)
		goto nomem;
	for (unsigned i = 0; i < nfiles; i++)
		if (!(l->names[i] = strdup(names[i])))
			goto nomem;
	for (unsigned w = 0; w < nworkers; w++) {
		atomic_init(&l->clocks[w], 0);
		if (!(l->rings[w] = spsc_new(sizeof(struct iolog_rec), IOLOG_RING)))
			goto nomem;
	}
	emit(l, "fio version 3 iolog\n");
	for (unsigned i = 0; i < nfiles; i++)
		emit(l, "0 %s add\n", names[i]);
	for (unsigned i = 0; i < nfiles; i++)
		emit(l, "0 %s open\n", names[i]);
	*out = l;
	return 0;
nomem:
	rc = -ENOMEM;
	snprintf(err, errlen, "write_iolog=%s: out of memory", path);
fail:
	if (fd >= 0)
		close(fd);
	iolog_free(l);
	return rc;
}

struct spsc *iolog_ring(struct iolog *l, unsigned w)
{
	return w < l->nw ? l->rings[w] : NULL;
}

_Atomic uint64_t *iolog_clock(struct iolog *l, unsigned w)
{
	return w < l->nw ? &l->clocks[w] : NULL;
}

static bool before(const struct iolog_rec *a, const struct iolog_rec *b)
{
	return a->t_ns < b->t_ns || (a->t_ns == b->t_ns && a->w < b->w);
}

/* Stable bottom-up merge sort of pend[0..n) by (time, worker). */
static void sort_pend(struct iolog *l, size_t n)
{
	struct iolog_rec *a = l->pend, *b = l->tmp;

	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				b[k++] = before(&a[j], &a[i]) ? a[j++] : a[i++];
			while (i < mid)
				b[k++] = a[i++];
			while (j < hi)
				b[k++] = a[j++];
		}
		struct iolog_rec *s = a;
		a = b;
		b = s;
	}
	if (a != l->pend)
		memcpy(l->pend, a, n * sizeof(*a));
}

static void put(struct iolog *l, const struct iolog_rec *r, uint64_t t0)
{
	uint64_t us = r->t_ns > t0 ? (r->t_ns - t0) / 1000 : 0;
	if (us < l->last_us)
		us = l->last_us; /* never backwards (a forced write, see below) */
	l->last_us = us;
	emit(l, "%llu %s %s %llu %u\n", (unsigned long long)us, l->names[r->file],
	     r->dir == NVS_WRITE  ? "write"
	     : r->dir == NVS_TRIM ? "trim"
	     : r->dir == NVS_NDIR ? "sync" /* fio's fsync/fdatasync entry */
				  : "read",
	     (unsigned long long)r->off, r->len);
	l->written++;
}

static int drain(struct iolog *l, uint64_t t0, bool final)
{
	uint64_t wm = UINT64_MAX; /* no worker pushes a record before this */
	size_t n0 = l->npend, n = l->npend;

	/* the clocks first: a record pushed before a clock's store is popped */
	for (unsigned w = 0; w < l->nw; w++) {
		uint64_t c = atomic_load_explicit(&l->clocks[w], memory_order_acquire);
		if (c < wm)
			wm = c;
	}
	for (unsigned w = 0; w < l->nw; w++)
		while (n < l->cap && spsc_pop(l->rings[w], &l->pend[n]) == 0)
			l->pend[n++].w = (uint16_t)w;
	l->popped += n - n0;
	if (n != n0)
		sort_pend(l, n);
	size_t k = 0;
	if (final)
		k = n;
	else {
		while (k < n && l->pend[k].t_ns < wm)
			k++;
		if (!k && n == l->cap)
			k = n / 2; /* the buffer is full of records a slow worker may precede */
	}
	for (size_t i = 0; i < k; i++)
		put(l, &l->pend[i], t0);
	memmove(l->pend, l->pend + k, (n - k) * sizeof(*l->pend));
	l->npend = n - k;
	flush(l); /* what was put, whole lines */
	return l->err;
}

int iolog_drain(struct iolog *l, uint64_t t0)
{
	return l && l->fd >= 0 ? drain(l, t0, false) : 0;
}

int iolog_finish(struct iolog *l, uint64_t t0, char *err, size_t errlen)
{
	uint64_t dropped = 0;
	int rc;

	if (!l || l->fd < 0)
		return 0;
	/* every worker has ended: repeat until the rings are empty */
	for (uint64_t seen = UINT64_MAX; !(rc = drain(l, t0, true)) && l->popped != seen;)
		seen = l->popped;
	for (unsigned i = 0; i < l->nfiles; i++)
		emit(l, "%llu %s close\n", (unsigned long long)l->last_us, l->names[i]);
	for (unsigned w = 0; w < l->nw; w++)
		dropped += spsc_dropped(l->rings[w]);
	if (flush(l))
		rc = rc ? rc : l->err;
	if (close(l->fd) && !rc)
		rc = -EIO;
	l->fd = -1;
	if (rc) {
		snprintf(err, errlen, "write_iolog=%s: write failed: %s", l->path, strerror(-rc));
		return rc;
	}
	if (dropped) {
		snprintf(err, errlen,
			 "write_iolog=%s: %llu I/Os not logged (a worker's log ring of %u records "
			 "filled before the writer emptied it): the log is incomplete",
			 l->path, (unsigned long long)dropped, IOLOG_RING);
		return -ENOBUFS;
	}
	return 0;
}

uint64_t iolog_written(const struct iolog *l)
{
	return l ? l->written : 0;
}

void iolog_free(struct iolog *l)
{
	if (!l)
		return;
	if (l->fd >= 0)
		close(l->fd);
	free(l->buf);
	for (unsigned i = 0; l->names && i < l->nfiles; i++)
		free(l->names[i]);
	for (unsigned w = 0; l->rings && w < l->nw; w++)
		spsc_free(l->rings[w]);
	free(l->names);
	free(l->rings);
	free((void *)l->clocks);
	free(l->pend);
	free(l->tmp);
	free(l);
}

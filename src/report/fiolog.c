/* fiolog.c - fio's log files from per-interval rows.
 *
 * fio 3.33 writes one line per entry, "time, value, ddir, bs, prio"
 * (iolog.c: "%lu, %lu, %u, %llu, %u"): time in ms since the job started,
 * the value (IOPS; KiB/s; latency in ns), the direction (0 read, 1 write),
 * and for windowed logs (log_avg_msec > 0) bs 0 and priority 0 (with
 * log_prio=1 printed "0x0000", fio's 0x%04x); log_offset=1 adds an
 * offset column before the priority, 0 for windowed entries as fio.  With
 * log_avg_msec each direction seen in a window gets its own line holding the
 * window's average.  nvscope's window is its sample interval: log_avg_msec
 * sets it (100 ms .. 60 s; per-I/O logging, fio's log_avg_msec=0, is refused
 * by opt_set - it would put a file write behind every completion).  The
 * lines come from the rows the consumer already builds, after the job:
 * - _iops: I/Os completed in the interval / its length;
 * - _bw: bytes / length / 1024 (KiB/s, as fio);
 * - _lat, _slat, _clat (write_lat_log writes all three, as fio; _slat only
 *   when the job measures slat, io/opt/spec.h spec_slat, as fio leaves it out
 *   with disable_slat=1): the means of the interval's completions' lat (prep
 *   to completion), slat (prep to the submission returning) and clat (clat's
 *   start to completion: worker.c) in ns; the samples carry the lat sum and
 *   the sum of lat's part before clat of the same I/Os (slat when measured,
 *   stats/sample.h), so clat's mean is lat's minus that part's;
 * - names: fio's thread_number (1 + the copies of the jobs before) numbers
 *   each numjobs copy's files, from the copies' own rows (see fiolog.h);
 * intervals inside ramp_time are not logged (the JSON totals skip them too).
 *
 * The histogram log (write_hist_log) is fio 3.33's "msec, ddir, bs, bin0,
 * ..., bin1855" with log_hist_coarseness=0: each line holds the interval's
 * own counts (fio logs differences, too) in fio's 1856 bins.  nvscope's
 * buckets are fio's bins (hist.c), so bin i is bucket i; the three groups
 * nvscope keeps past fio's last (2^34 ns, 17 s) are folded into bin 1855,
 * as fio folds such values.  bs is the job's (first) block size.  Lines are
 * written from the consumer's row hook while the job runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dev/safety.h"
#include "report/fiolog.h"

bool fiolog_wanted(const struct spec *s)
{
	return s->log_iops[0] || s->log_lat[0] || s->log_bw[0];
}

_Static_assert(HIST_NBUCKETS >= 1856, "fio's bins must map onto nvscope's buckets");

FILE *fiolog_create(const char *path)
{
	return safety_fopen_output(path, SAFETY_OUT_TRUNC, NULL, 0);
}

enum kind { K_IOPS, K_BW, K_LAT, K_SLAT, K_CLAT };

static unsigned long long value(const struct point *p, int d, enum kind k)
{
	double v;

	switch (k) {
	case K_IOPS:
		v = p->iops[d];
		break;
	case K_BW:
		v = p->bw[d] / 1024.0;
		break;
	case K_LAT:
		v = p->lat_mean_us[d] * 1e3;
		break;
	case K_SLAT:
		v = p->slat_mean_us[d] * 1e3;
		break;
	default: /* clat = lat - slat, I/O by I/O, so in their means */
		v = ((double)p->lat_mean_us[d] - p->slat_mean_us[d]) * 1e3;
		break;
	}
	return isfinite(v) && v > 0 ? (unsigned long long)llround(v) : 0;
}

unsigned fiolog_thread(const struct spec *jobs, unsigned j)
{
	unsigned n = 1;

	for (unsigned k = 0; k < j; k++)
		n += jobs[k].numjobs ? jobs[k].numjobs : 1;
	return n;
}

/* PREFIX + suffix + "_" + type + ".N.log"|".log", in @dir when relative.
 * @n: fio's thread_number, 0 for per_job_logs=0's name. */
static int log_path(const char *dir, const char *prefix, const char *suffix, const char *type,
		    unsigned n, char *path, size_t len, char *err, size_t errlen)
{
	char num[16] = ".log";
	int w;

	if (n)
		snprintf(num, sizeof(num), ".%u.log", n);
	if (prefix[0] == '/' || !dir)
		w = snprintf(path, len, "%s%s_%s%s", prefix, suffix, type, num);
	else
		w = snprintf(path, len, "%s/%s%s_%s%s", dir, prefix, suffix, type, num);
	if (w < 0 || (size_t)w >= len) {
		snprintf(err, errlen, "log file name too long: %s%s_%s", prefix, suffix, type);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* The number in the name of the log of a job's series @c of @nser (0: no
 * number): fio's per_job_logs=1 names each copy by its thread_number;
 * nvscope's own several targets (one series, several workers, no fio
 * equivalent) get the per_job_logs=0 name. */
static unsigned log_num(const struct spec *s, unsigned nser, unsigned c, unsigned thread)
{
	bool several = nser <= 1 && s->numjobs * (s->stripe || s->fileset ? 1 : s->ntargets) > 1;

	return s->per_job_logs && !several ? thread + c : 0;
}

static void write_rows(FILE *f, const struct spec *s, const struct series *ser, enum kind k)
{
	for (size_t i = 0; ser && i < ser->n; i++) {
		const struct point *p = &ser->pt[i];
		if (p->ramp || p->dt <= 0)
			continue;
		unsigned long long ms = (unsigned long long)llround(p->t * 1000.0);
		for (int d = 0; d < NVS_NDIR; d++) {
			if (p->iops[d] <= 0)
				continue; /* fio: a line per direction seen in the window */
			/* fio: windowed entries carry priority 0; log_prio
			 * prints it as 0x%04x */
			fprintf(f, "%llu, %llu, %d, 0, %s%s\n", ms, value(p, d, k), d,
				s->log_offset ? "0, " : "", s->prio.log ? "0x0000" : "0");
		}
	}
}

static int write_one(const struct spec *s, const struct series *const *ser, unsigned nser,
		     unsigned thread, const char *dir, const char *prefix, const char *suffix,
		     const char *type, enum kind k, char *err, size_t errlen)
{
	char path[PATH_MAX];
	FILE *f = NULL;
	int rc = 0;

	for (unsigned c = 0; c < nser && !rc; c++) {
		unsigned n = log_num(s, nser, c, thread);
		if (!f || n) { /* per_job_logs=0: every copy's lines in one file, as fio appends */
			rc =
			    log_path(dir, prefix, suffix, type, n, path, sizeof(path), err, errlen);
			if (rc)
				break;
			f = fiolog_create(path);
			if (!f) {
				rc = -errno;
				snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
				break;
			}
		}
		write_rows(f, s, ser[c], k);
		if (n || c + 1 == nser) {
			if (ferror(f) | fclose(f)) {
				snprintf(err, errlen, "cannot write %s", path);
				rc = -EIO;
			}
			f = NULL;
		}
	}
	if (f)
		fclose(f);
	return rc;
}

int fiolog_write(const struct spec *s, const struct series *const *ser, unsigned nser,
		 unsigned thread, const char *dir, const char *suffix, char *err, size_t errlen)
{
	static const struct {
		const char *type;
		enum kind k;
	} lat[] = {{"lat", K_LAT}, {"slat", K_SLAT}, {"clat", K_CLAT}};
	int rc = 0;

	if (!suffix)
		suffix = "";
	if (s->log_iops[0])
		rc = write_one(s, ser, nser, thread, dir, s->log_iops, suffix, "iops", K_IOPS, err,
			       errlen);
	if (!rc && s->log_bw[0])
		rc = write_one(s, ser, nser, thread, dir, s->log_bw, suffix, "bw", K_BW, err,
			       errlen);
	for (unsigned i = 0; !rc && s->log_lat[0] && i < 3; i++)
		if (lat[i].k != K_SLAT || spec_slat(s))
			rc = write_one(s, ser, nser, thread, dir, s->log_lat, suffix, lat[i].type,
				       lat[i].k, err, errlen);
	return rc;
}

#define FIO_PLAT_NR 1856 /* fio's FIO_IO_U_PLAT_NR: 29 groups of 64 */

struct fiolog_hist {
	FILE *f;
	char path[PATH_MAX];
	uint32_t bs;
	bool failed;
};

int fiolog_hist_open(const struct spec *s, unsigned thread, const char *dir, const char *suffix,
		     struct fiolog_hist **out, char *err, size_t errlen)
{
	struct fiolog_hist *h;
	int rc;

	*out = NULL;
	if (!s->log_hist[0])
		return 0;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	/* the job's rows (its copies together): one file */
	rc = log_path(dir, s->log_hist, suffix ? suffix : "", "clat_hist",
		      s->per_job_logs &&
			      s->numjobs * (s->stripe || s->fileset ? 1 : s->ntargets) == 1
			  ? thread
			  : 0,
		      h->path, sizeof(h->path), err, errlen);
	if (!rc) {
		h->f = fiolog_create(h->path);
		if (!h->f) {
			rc = -errno;
			snprintf(err, errlen, "cannot write %s: %s", h->path, strerror(errno));
		}
	}
	if (rc) {
		free(h);
		return rc;
	}
	h->bs = s->bs[0].bs;
	*out = h;
	return 0;
}

void fiolog_hist_row(const struct point *pt, const uint32_t *bucket, void *arg)
{
	struct fiolog_hist *h = arg;

	if (!h || pt->ramp || pt->dt <= 0)
		return;
	for (int d = 0; d < NVS_NDIR; d++) {
		const uint32_t *b = bucket + (size_t)d * HIST_NBUCKETS;
		uint64_t tail = 0, any = 0;
		for (unsigned i = 0; i < HIST_NBUCKETS; i++)
			any |= b[i];
		if (!any)
			continue;
		fprintf(h->f, "%llu, %d, %u", (unsigned long long)llround(pt->t * 1000.0), d,
			h->bs);
		for (unsigned i = 0; i < FIO_PLAT_NR - 1; i++)
			fprintf(h->f, ", %u", b[i]);
		for (unsigned i = FIO_PLAT_NR - 1; i < HIST_NBUCKETS; i++)
			tail += b[i];
		fprintf(h->f, ", %llu\n", (unsigned long long)tail);
	}
	if (ferror(h->f))
		h->failed = true;
}

int fiolog_hist_close(struct fiolog_hist *h, char *err, size_t errlen)
{
	int rc = 0;

	if (!h)
		return 0;
	if (h->failed | ferror(h->f) | fclose(h->f)) {
		snprintf(err, errlen, "cannot write %s", h->path);
		rc = -EIO;
	}
	free(h);
	return rc;
}

/* csv.c - per-interval series as CSV, and back. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/types.h>
#include <string.h>
#include "base/input.h"
#include "base/num.h"
#include "report/csv.h"

#define CSV_HEADER                                                                                 \
	"time_s,read_iops,write_iops,read_mbps,write_mbps,read_lat_mean_us,write_lat_mean_us,"     \
	"read_lat_p99_us,write_lat_p99_us,read_lat_max_us,write_lat_max_us,errors,cpu_pct,ramp,"   \
	"trim_iops,trim_mbps,trim_lat_mean_us,trim_lat_p99_us,trim_lat_max_us"
/* the trim columns came last and later: a file without them still reads */
#define CSV_COLUMNS_OLD 14
#define CSV_COLUMNS	19

void csv_write_header(FILE *f)
{
	fputs(CSV_HEADER "\n", f);
}

void csv_write_point(FILE *f, const struct point *p)
{
	fprintf(f, "%.3f,%.1f,%.1f,%.3f,%.3f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%llu,%.1f,%d", p->t,
		p->iops[0], p->iops[1], p->bw[0] / 1e6, p->bw[1] / 1e6, p->lat_mean_us[0],
		p->lat_mean_us[1], p->lat_p99_us[0], p->lat_p99_us[1], p->lat_max_us[0],
		p->lat_max_us[1], (unsigned long long)p->errors, p->cpu_pct, p->ramp);
	fprintf(f, ",%.1f,%.3f,%.2f,%.2f,%.2f\n", p->iops[NVS_TRIM], p->bw[NVS_TRIM] / 1e6,
		p->lat_mean_us[NVS_TRIM], p->lat_p99_us[NVS_TRIM], p->lat_max_us[NVS_TRIM]);
}

int csv_parse_numbers(const char *s, double *v, int max, const char **rest)
{
	int n = 0;
	const char *end;

	while (n < max) {
		s += strspn(s, " \t");
		/* finite numbers only: "nan", "inf", 1e400 end the row here */
		if (num_scan_double(s, &end, &v[n]))
			break;
		n++;
		s = end;
		if (*s != ',')
			break;
		s++;
	}
	if (rest)
		*rest = s;
	return n;
}

int csv_parse_point(const char *line, double prev_t, struct point *p)
{
	double v[CSV_COLUMNS];
	const char *s;
	int n = csv_parse_numbers(line, v, CSV_COLUMNS, &s);

	if ((n != CSV_COLUMNS && n != CSV_COLUMNS_OLD) || (*s != '\n' && *s != '\0' && *s != '\r'))
		return -EINVAL;
	memset(p, 0, sizeof(*p));
	p->t = v[0];
	p->dt = prev_t >= 0 ? v[0] - prev_t : v[0];
	p->iops[0] = v[1];
	p->iops[1] = v[2];
	p->bw[0] = v[3] * 1e6;
	p->bw[1] = v[4] * 1e6;
	p->lat_mean_us[0] = v[5];
	p->lat_mean_us[1] = v[6];
	p->lat_p99_us[0] = v[7];
	p->lat_p99_us[1] = v[8];
	p->lat_max_us[0] = v[9];
	p->lat_max_us[1] = v[10];
	int64_t ramp;
	if (num_to_u64(v[11] > 0 ? v[11] : 0, UINT64_MAX, &p->errors) ||
	    num_to_i64(v[13], 0, 1, &ramp))
		return -EINVAL;
	p->cpu_pct = v[12];
	p->ramp = (int)ramp;
	if (n == CSV_COLUMNS) {
		p->iops[NVS_TRIM] = v[14];
		p->bw[NVS_TRIM] = v[15] * 1e6;
		p->lat_mean_us[NVS_TRIM] = v[16];
		p->lat_p99_us[NVS_TRIM] = v[17];
		p->lat_max_us[NVS_TRIM] = v[18];
	}
	/* both directions: the mean weighted by IOPS; p99 can only be bounded
	 * (the larger of the two) once the histograms are gone; NAN when the
	 * interval completed nothing */
	double all = p->iops[0] + p->iops[1];
	p->lat_mean_all_us = NAN;
	p->lat_p99_all_us = NAN;
	if (all > 0) {
		p->lat_mean_all_us =
		    (p->lat_mean_us[0] * p->iops[0] + p->lat_mean_us[1] * p->iops[1]) / all;
		p->lat_p99_all_us = fmax(p->lat_p99_us[0], p->lat_p99_us[1]);
	}
	return 0;
}

int csv_read_series(const char *path, struct series *out, char *err, size_t errlen)
{
	FILE *f = input_fopen(path, CSV_MAX_BYTES, "samples CSV", err, errlen);
	char *line = NULL;
	size_t lcap = 0;
	unsigned lineno = 0;
	long got;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!f)
		return -errno;
	while ((got = input_getline(f, &line, &lcap, CSV_MAX_LINE, &lineno)) >= 0) {
		struct point p;

		if (lineno == 1) {
			if (strncmp(line, "time_s,", 7)) {
				snprintf(err, errlen,
					 "%s:1: not an nvscope samples CSV (header %.20s...)", path,
					 line);
				rc = -EINVAL;
				goto close_file;
			}
			continue;
		}
		if (!got || line[0] == '\r' || line[0] == '#')
			continue;
		if (strlen(line) != (size_t)got ||
		    csv_parse_point(line, out->n ? out->pt[out->n - 1].t : -1, &p)) {
			snprintf(err, errlen, "%s:%u: expected %d (or %d) numeric columns", path,
				 lineno, CSV_COLUMNS, CSV_COLUMNS_OLD);
			rc = -EINVAL;
			goto close_file;
		}
		if (series_push(out, &p)) {
			rc = -ENOMEM;
			snprintf(err, errlen, "out of memory");
			goto close_file;
		}
	}
	if (got != -1) {
		input_line_err(got, path, lineno, CSV_MAX_LINE, err, errlen);
		rc = got == -ENOMEM ? -ENOMEM : -EINVAL;
		goto close_file;
	}
	if (lineno == 0) {
		snprintf(err, errlen, "%s: empty file", path);
		rc = -EINVAL;
	}
close_file:
	free(line);
	fclose(f);
	if (rc)
		series_release(out);
	return rc;
}

/* The next whole row at or after byte @at of @f (@at inside a row: the
 * rest of it skipped): its time into *@t, its text into *@line; the byte
 * after it into *@next.  1, 0 at the end, or -errno. */
static int row_at(FILE *f, off_t at, bool skip, char **line, size_t *cap, double *t, off_t *next)
{
	ssize_t got;

	if (fseeko(f, at, SEEK_SET))
		return -errno;
	if (skip && getline(line, cap, f) < 0)
		return ferror(f) ? -EIO : 0;
	for (;;) {
		off_t start = ftello(f);
		if ((got = getline(line, cap, f)) < 0)
			return ferror(f) ? -EIO : 0;
		if ((size_t)got > CSV_MAX_LINE)
			return -EINVAL;
		if ((*line)[got - 1] != '\n') /* a row still being written */
			return 0;
		if ((*line)[0] == '#' || !strncmp(*line, "time_s,", 7))
			continue;
		if (csv_parse_numbers(*line, t, 1, NULL) != 1)
			return -EINVAL;
		*next = start + got;
		return 1;
	}
}

int csv_read_window(FILE *f, double t0, double t1, size_t max, struct series *out)
{
	char *line = NULL;
	size_t cap = 0;
	double t, prev = -1;
	off_t lo = 0, hi, next;
	int rc = 0;

	out->n = 0;
	if (fseeko(f, 0, SEEK_END) || (hi = ftello(f)) < 0)
		return -errno;
	/* lo: a row start whose time is before t0 (or the file's start) */
	while (hi - lo > 4096) {
		off_t mid = lo + (hi - lo) / 2;
		if ((rc = row_at(f, mid, true, &line, &cap, &t, &next)) < 0)
			goto out;
		if (rc && t < t0)
			lo = mid;
		else
			hi = mid;
	}
	bool skip = lo > 0;
	for (off_t at = lo; out->n < max; at = next, skip = false) {
		struct point p;
		if ((rc = row_at(f, at, skip, &line, &cap, &t, &next)) <= 0)
			break;
		if (t >= t0 && (prev < 0 ? 0 : prev) < t1) { /* overlaps [t0, t1] */
			if (csv_parse_point(line, prev, &p)) {
				rc = -EINVAL;
				break;
			}
			if (series_push(out, &p)) {
				rc = -ENOMEM;
				break;
			}
		}
		if (prev >= t1)
			break;
		prev = t;
	}
out:
	free(line);
	return rc < 0 ? rc : 0;
}

/* csv.h - per-interval series as CSV (one row per interval, with a header)
 * and back (for replay and `steady`). */
#ifndef NVS_CSV_H
#define NVS_CSV_H

#include <stdio.h>
#include "stats/collect.h"

/* docs/safety.md "Rule: hostile inputs": a samples CSV read back (replay,
 * steady, report) is a regular file of at most CSV_MAX_BYTES with lines
 * of at most CSV_MAX_LINE bytes (a longer one is refused, not cut). */
#define CSV_MAX_BYTES (1u << 30)
#define CSV_MAX_LINE  4096u

/* The header line: time_s,read_iops,write_iops,read_mbps,write_mbps,
 * read_lat_mean_us,write_lat_mean_us,read_lat_p99_us,write_lat_p99_us,
 * read_lat_max_us,write_lat_max_us,errors,cpu_pct,ramp */
void csv_write_header(FILE *f);
void csv_write_point(FILE *f, const struct point *p);
/* Reads up to @max comma-separated numbers from @s into @v; *@rest (may be
 * NULL) points after the last one read.  Returns how many were read: a
 * field that is not a finite number (num_scan_double) ends the list. */
int csv_parse_numbers(const char *s, double *v, int max, const char **rest);
/* Parses one data line of that CSV into @p; @prev_t is the previous row's
 * time (-1 for the first), for dt.  The whole line must be the 14 numbers.
 * 0 or -EINVAL. */
int csv_parse_point(const char *line, double prev_t, struct point *p);
/* Reads a CSV written by csv_write_*.  Errors name file:line.  0 or -errno. */
int csv_read_series(const char *path, struct series *out, char *err, size_t errlen);
/* The points of @f (such a CSV, its rows in time order, possibly still
 * being appended to) that overlap [@t0, @t1], at most @max, into @out
 * (emptied first): found by a binary search over the file's bytes, so a
 * window of a long run costs its own rows, not the file.  A point's dt is
 * its time less the row before it (read too).  0, or -EINVAL (a row that
 * is not the CSV's), -ENOMEM, -errno of the reads. */
int csv_read_window(FILE *f, double t0, double t1, size_t max, struct series *out);

#endif

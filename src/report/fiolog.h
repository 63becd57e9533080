/* fiolog.h - fio's log files (write_iops_log, write_lat_log, write_bw_log,
 * write_hist_log) from a job's per-interval rows on the consumer's side,
 * never on the I/O path. */
#ifndef NVS_FIOLOG_H
#define NVS_FIOLOG_H

#include <stddef.h>
#include "io/spec.h"
#include "stats/collect.h"

/* Creates or truncates log file @path through the safety module's output
 * rule (safety_fopen_output: no symlink, no device, no directory of another
 * user), so a name from a job file cannot reach a device.  NULL with errno set. */
FILE *fiolog_create(const char *path);
/* True when @s asks for any log file. */
bool fiolog_wanted(const struct spec *s);
/* Writes the logs @s asks for, from the rows @ser of one run of it.  File
 * names are fio's: PREFIX + @suffix + "_iops.1.log" (also _bw, _lat, _clat)
 * for a job of one worker; with several workers (numjobs or targets) the
 * rows are the job's aggregate and the name is fio's per_job_logs=0 one,
 * PREFIX_iops.log.  A relative PREFIX lands in @dir (NULL: the current
 * directory).  0, or -errno with @err naming the file. */
int fiolog_write(const struct spec *s, const struct series *ser, const char *dir,
		 const char *suffix, char *err, size_t errlen);

/* fio's histogram log (write_hist_log=NAME): NAME_clat_hist.1.log (names as
 * above), written while the job runs, one line per interval and direction
 * from the consumer's row hook (collect_on_row), so nothing accumulates in
 * memory.  Open before the job, pass fiolog_hist_row and the handle to
 * runjob_run_rows, close after: 0 or -errno (@err says which file). */
struct fiolog_hist;
int fiolog_hist_open(const struct spec *s, const char *dir, const char *suffix,
		     struct fiolog_hist **out, char *err, size_t errlen);
void fiolog_hist_row(const struct point *pt, const uint32_t *bucket, void *arg);
/* NULL-safe; 0 or -EIO when a write failed. */
int fiolog_hist_close(struct fiolog_hist *h, char *err, size_t errlen);

#endif

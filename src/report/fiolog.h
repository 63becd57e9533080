/* fiolog.h - fio's log files (write_iops_log, write_lat_log, write_bw_log,
 * write_hist_log) from a job's per-interval rows on the consumer's side,
 * never on the I/O path. */
#ifndef NVS_FIOLOG_H
#define NVS_FIOLOG_H

#include <stddef.h>
#include "io/opt/spec.h"
#include "stats/collect.h"

/* Creates or truncates log file @path through the safety module's output
 * rule (safety_fopen_output: no symlink, no device, no directory of another
 * user), so a name from a job file cannot reach a device.  NULL with errno set. */
FILE *fiolog_create(const char *path);
/* True when @s asks for any log file. */
bool fiolog_wanted(const struct spec *s);
/* fio's thread_number of the first copy of job @j of @jobs (1 + the copies
 * of the jobs before it): the N of fio's NAME_lat.N.log. */
unsigned fiolog_thread(const struct spec *jobs, unsigned j);
/* Writes the logs @s asks for from one run of it: @ser[c] the rows of its
 * numjobs copy c (@nser copies), or one series (@nser 1) of the whole job.
 * File names are fio 3.33's: PREFIX + @suffix + "_iops.N.log" (also _bw;
 * write_lat_log writes _lat, _slat and _clat; _slat only when the job
 * measures slat, spec_slat), N = @thread + c (fio's
 * thread_number, fiolog_thread); per_job_logs=0 gives PREFIX_iops.log
 * holding every copy's lines one copy after another (fio appends them).
 * One series of several workers that are no fio copies (nvscope's several
 * targets, a replay's numjobs) is the job's aggregate, under the
 * per_job_logs=0 name.  A relative PREFIX lands in @dir (NULL: the current
 * directory).  0, or -errno with @err naming the file. */
int fiolog_write(const struct spec *s, const struct series *const *ser, unsigned nser,
		 unsigned thread, const char *dir, const char *suffix, char *err, size_t errlen);

/* fio's histogram log (write_hist_log=NAME): NAME_clat_hist.N.log (names as
 * above; a job of several copies: their aggregate, NAME_clat_hist.log), written while the job runs,
 * one line per interval and direction from the consumer's row hook (collect_on_row), so nothing
 * accumulates in memory.  Open before the job, pass fiolog_hist_row and the handle to
 * runjob_run_rows, close after: 0 or -errno (@err says which file). */
struct fiolog_hist;
int fiolog_hist_open(const struct spec *s, unsigned thread, const char *dir, const char *suffix,
		     struct fiolog_hist **out, char *err, size_t errlen);
void fiolog_hist_row(const struct point *pt, const uint32_t *bucket, void *arg);
/* NULL-safe; 0 or -EIO when a write failed. */
int fiolog_hist_close(struct fiolog_hist *h, char *err, size_t errlen);

#endif

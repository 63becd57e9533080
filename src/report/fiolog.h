/* fiolog.h - fio's log files (write_iops_log, write_lat_log, write_bw_log)
 * from a job's per-interval rows: written after the job from the
 * consumer's series, never on the I/O path. */
#ifndef NVS_FIOLOG_H
#define NVS_FIOLOG_H

#include <stddef.h>
#include "io/spec.h"
#include "stats/collect.h"

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

#endif

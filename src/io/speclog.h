/* speclog.h - fio's log options of a job: write_iops_log, write_lat_log,
 * write_bw_log, write_hist_log (a name, or the job's), log_hist_msec,
 * per_job_logs, log_max_value, log_offset.  The writers are report/fiolog. */
#ifndef NVS_SPECLOG_H
#define NVS_SPECLOG_H

#include <stddef.h>
#include "io/spec.h"

/* Sets @key (normalised: '_' for '-') to @v.  0, -EINVAL with @err, or
 * -ENOENT when @key is not a log option. */
int speclog_spec_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen);
/* name= changed: the logs named after the job follow it. */
void speclog_rename(struct spec *s);

#endif

/* speclog.h - fio's log options of a job: write_iops_log, write_lat_log,
 * write_bw_log, write_hist_log (a name, or the job's), log_hist_msec,
 * per_job_logs, log_max_value, log_offset.  The writers are report/fiolog. */
#ifndef NVS_SPECLOG_H
#define NVS_SPECLOG_H

#include <stddef.h>
#include "io/opt/opt.h"
#include "io/opt/spec.h"

/* The log options: rows of io/opt's table. */
#define SPECLOG_NOPTS 8
extern const struct opt_row speclog_opts[SPECLOG_NOPTS];
/* name= changed: the logs named after the job follow it. */
void speclog_rename(struct spec *s);

#endif

/* replay.h - what `nvscope replay DIR` reads besides samples.csv: the
 * per-step rows of summary.json (fio layout) for the per-QD table. */
#ifndef NVS_RUN_REPLAY_H
#define NVS_RUN_REPLAY_H

#include <stddef.h>
#include "run/resdir.h"

/* Reads DIR/summary.json: one row per job.  *@rows is malloc'ed (caller
 * frees).  Returns the count, or -errno (-ENOENT: no summary, -EINVAL: not
 * the expected JSON, with @err set). */
int replay_qd_rows(const char *dir, struct resdir_row **rows, char *err, size_t errlen);

#endif

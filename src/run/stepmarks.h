/* stepmarks.h - where a run changes step (queue depth or job), for the
 * markers on the strips: from the live session's steps, from a results
 * directory's events.log ("T start step i/n: job NAME at QD q"), or from
 * the ramps in a plan step's series.  No ncurses; the sources call these. */
#ifndef NVS_RUN_STEPMARKS_H
#define NVS_RUN_STEPMARKS_H

#include <stdbool.h>
#include <stddef.h>
#include "run/resdir.h"
#include "run/source.h"
#include "stats/series.h"

struct session;
/* The markers of live session @s into @m (room for @max), in time order:
 * one at the start of every step after the first that has begun,
 * labelled "QD8" (or "job 2" when the job changes at the same depth).
 * Returns the count. */
int stepmarks_session(const struct session *s, struct source_mark *m, int max);
/* A plan step's measurements in @s: each after the first begins where a
 * ramp interval follows a measured one (none without ramp_time), labelled
 * from the step's table @rows (row k: measurement k; "QD8", or "50%" and
 * "max" when @pct) or "step k" while its row is not written yet.  Pure;
 * unit-tested. */
int stepmarks_ramps(const struct series *s, const struct resdir_row *rows, int nrows, bool pct,
		    struct source_mark *m, int max);
/* The step markers of results directory @dir (its events.log, a regular
 * file of at most 1 MiB) into @m; the count, 0 when it has none. */
int stepmarks_read(const char *dir, struct source_mark *m, int max);
/* Parses events.log text @text: the step starts after the first.  Returns
 * the count written to @m (room for @max).  Pure; unit-tested. */
int stepmarks_parse(const char *text, struct source_mark *m, int max);

#endif

/* stepmarks.h - where a run changes step (queue depth or job), for the
 * markers on the strips: from the live session's steps, or from a results
 * directory's events.log ("T start step i/n: job NAME at QD q"). */
#ifndef NVS_UI_STEPMARKS_H
#define NVS_UI_STEPMARKS_H

#include <stdbool.h>
#include <stddef.h>
#include "ui/app.h"

/* The markers of the run shown into @m (room for @max), in time order: one
 * at the start of every step after the first, labelled "QD8" (or "job 2"
 * when the job changes at the same depth); a replay's from stepmarks_load.
 * A plan's measure, rate-curve or grid step: stepmarks_ramps on its series.
 * Returns the count. */
int stepmarks_get(struct app *a, struct plot_mark *m, int max);
/* A plan step's measurements in @s: each after the first begins where a
 * ramp interval follows a measured one (none without ramp_time), labelled
 * from the step's table @rows (row k: measurement k; "QD8", or "50%" and
 * "max" when @pct) or "step k" while its row is not written yet.  Pure;
 * unit-tested. */
int stepmarks_ramps(const struct series *s, const struct resdir_row *rows, int nrows, bool pct,
		    struct plot_mark *m, int max);
/* Reads the step markers of results directory @dir (its events.log) into
 * a->marks for a replay; none when it has no such file. */
void stepmarks_load(struct app *a, const char *dir);
/* Parses events.log text @text: the step starts after the first.  Returns
 * the count written to @m (room for @max).  Pure; unit-tested. */
int stepmarks_parse(const char *text, struct plot_mark *m, int max);

#endif

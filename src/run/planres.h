/* planres.h - what the console shows of a plan step besides its samples:
 * its result as the plan wrote it (step.json, steady.json: attained at
 * round N, or not attained with range and slope against the limits) and
 * how long it is planned to take (from the plan's durations and maximum
 * rounds) for progress and ETA.  Files and arithmetic only, no ncurses.
 * struct planres and the arithmetic the console's step list uses are
 * declared in source.h (the one run/ header the console includes). */
#ifndef NVS_RUN_PLANRES_H
#define NVS_RUN_PLANRES_H

#include <stdbool.h>
#include <stddef.h>
#include "config/plan.h"
#include "run/source.h" /* struct planres, and the figures the console uses */

/* Reads step directory @dir (step.json, steady.json) into @r.  0, or
 * -ENOENT when step.json is missing or unreadable (@r: nothing known). */
int planres_read(const char *dir, struct planres *r);
/* The verdict in words: "steady at round 3" or "NOT steady in 4 rounds:
 * range 25.0% > 20%, slope 3.1% <= 10%"; "" when there is none. */
void planres_verdict(const struct planres *r, char *buf, size_t len);

#endif

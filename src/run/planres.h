/* planres.h - what the console shows of a plan step besides its samples:
 * its result as the plan wrote it (step.json, steady.json: attained at
 * round N, or not attained with range and slope against the limits) and
 * how long it is planned to take (from the plan's durations and maximum
 * rounds) for progress and ETA.  Files and arithmetic only, no ncurses. */
#ifndef NVS_RUN_PLANRES_H
#define NVS_RUN_PLANRES_H

#include <stdbool.h>
#include <stddef.h>
#include "config/plan.h"

struct planres {
	bool done;	  /* step.json says "done" */
	bool has_verdict; /* steady.json (precondition, matrix) was read */
	bool attained;	  /* steady state reached (has_verdict) */
	unsigned round;	  /* the round it was reached at (attained) */
	unsigned rounds;  /* rounds run */
	unsigned window;  /* the rule's window */
	bool has_pct;	  /* range_pct/slope_pct of the last window */
	double avg;	  /* window average */
	double range_pct, slope_pct;
	double range_limit, slope_limit;
};

/* Reads step directory @dir (step.json, steady.json) into @r.  0, or
 * -ENOENT when step.json is missing or unreadable (@r: nothing known). */
int planres_read(const char *dir, struct planres *r);
/* A finished precondition/matrix that did not reach steady state. */
bool planres_failed(const struct planres *r);
/* The verdict in words: "steady at round 3" or "NOT steady in 4 rounds:
 * range 25.0% > 20%, slope 3.1% <= 10%"; "" when there is none. */
void planres_verdict(const struct planres *r, char *buf, size_t len);

/* Seconds step @st is planned to take at most (a precondition may end
 * before its maximum rounds); 0 when it is not known in advance (a purge,
 * a fill: it depends on the drive). */
double planres_step_seconds(const struct plan_step *st);
/* Measurement units of step @st (rounds, queue depths, points, cells), 0
 * when it has none (purge, fill). */
unsigned planres_step_units(const struct plan_step *st);
/* Seconds left in plan @p when step @cur has run @elapsed seconds: that
 * step's remainder (never below 0) plus the later steps.  *@unknown is set
 * when a step still to run has no planned length (the ETA is then a lower
 * bound); *@upper when a precondition may end earlier. */
double planres_eta(const struct plan *p, unsigned cur, double elapsed, bool *unknown, bool *upper);
/* "1h02m", "12m05s", "45s" (@s < 0 or not finite: "?"). */
void planres_fmt_dur(double s, char *buf, size_t len);

#endif

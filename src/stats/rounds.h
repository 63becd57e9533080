/* rounds.h - the one way rounds are cut: a per-interval series cut into
 * rounds of R seconds (mean IOPS per round) and the SNIA rule applied to
 * them (stats/steady.h).  Used by the console's steady-state view and by
 * `nvscope steady --round`, so both give the same verdict on the same
 * samples (tests/unit/test_rounds.c).  Pure functions. */
#ifndef NVS_STATS_ROUNDS_H
#define NVS_STATS_ROUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include "stats/series.h"
#include "stats/steady.h"

/* Rounds: parallel arrays, one entry per complete round. */
struct rounds {
	double *t0, *t1; /* span on the run's time axis, s */
	double *v;	 /* the tracked value: mean IOPS (read + write) */
	size_t n, cap;
};

/* Where a run stands against the rule. */
struct steady_view {
	size_t nrounds;
	size_t attained;	    /* 1-based round first steady, 0 = never */
	double attained_s;	    /* end time of that round, s */
	struct steady_verdict last; /* the window ending at the newest round */
	bool left;		    /* was steady, the newest window is not */
};

/* Cuts @pt[0..n-1] (time order, t = end of each interval) into rounds of
 * @round_s seconds from @origin on the run's time axis (the start of the
 * workload; intervals before it are ignored): round k spans [origin + k R,
 * origin + (k+1) R) and holds the intervals whose midpoint falls in it.  Its value is the
 * time-weighted mean of read + write IOPS over its measured (non-ramp)
 * intervals; a round without measured time is left out.  Only complete
 * rounds count: the data must reach the round's end (within a quarter of
 * the last interval).  Replaces the contents of @r (grown as needed).
 * Returns the round count, or -ENOMEM / -EINVAL (round_s <= 0). */
int rounds_build(const struct point *pt, size_t n, double origin, double round_s, struct rounds *r);
/* Appends one round.  0 or -ENOMEM. */
int rounds_push(struct rounds *r, double t0, double t1, double v);
/* Frees the arrays (not @r itself); NULL-safe. */
void rounds_release(struct rounds *r);
/* Applies rule @p to the values of @r into @out.  Never fails. */
void rounds_steady(const struct rounds *r, const struct steady_params *p, struct steady_view *out);
/* The same cut of bare samples: @t[i] end time, @dt[i] length (s), @v[i]
 * the tracked value, as `nvscope steady --round` reads them from a file
 * (ramp rows already left out).  Builds the points and calls rounds_build,
 * so the command and the console cut rounds one way.  Same returns. */
int rounds_build_values(const double *t, const double *dt, const double *v, size_t n, double origin,
			double round_s, struct rounds *r);

#endif

/* runss.h - fio's in-job steady state on the consumer side: the rows that
 * the collector emits (once per interval, after pool_drain) are fed to a
 * stats/fioss detector; the caller stops the pool(s) when it is attained.
 * Nothing here runs on the I/O threads. */
#ifndef NVS_RUNSS_H
#define NVS_RUNSS_H

#include <stdbool.h>
#include <stddef.h>
#include "io/opt/spec.h"
#include "stats/fioss.h"
#include "stats/series.h"

/* The detector of @s's steadystate options: *@out NULL when ss_dur is 0
 * (off).  0, or -ENOMEM. */
int runss_new(const struct spec *s, struct fioss **out);
/* True when @a and @b judge alike (fio refuses a report group whose jobs
 * differ: "steadystate options must be consistent within reporting groups"). */
bool runss_same(const struct spec *a, const struct spec *b);
/* Feeds rows *@next.. of the sum of @nm aggregate series @m (the jobs of a
 * group_reporting group, or one job): row i is fed once every member has
 * it or has ended (@ended[k], NULL = none has).  Ramp rows are skipped;
 * times count from @t0 s (the end of ramp_time).  Returns true when
 * attained (now or before). */
bool runss_poll(struct fioss *ss, const struct series *const *m, const bool *ended, unsigned nm,
		size_t *next, double t0);

#endif

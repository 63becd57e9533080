/* rounds.c - rounds and the steady-state rule over them, for the console
 * and `nvscope steady --round` alike.
 *
 * The SNIA PTS (Enterprise v1.1, section 2.1 and 3.x "Steady State
 * Verification") runs the stimulus in rounds and tracks one value per
 * round; the rule itself is in src/stats/steady.c.  A console run has no
 * rounds of its own: it has a per-interval series (1 s by default).  Here it
 * is cut into rounds of R seconds of the run's time axis; each round's value
 * is the time-weighted mean IOPS of its intervals (sum iops*dt / sum dt),
 * which is what a round of R seconds would have measured as one pool.
 * Ramp intervals are not measured and do not count.  Rounds start at the
 * start of the current workload (a QD sweep's step: the previous steps are
 * another workload, not a drift of this one).  An interval belongs to
 * the round its midpoint (t - dt/2) falls in, so an interval straddling a
 * boundary is counted once.  A round is complete once the data reach its
 * end; the newest, partial round waits.
 * `nvscope steady --round` reads bare (time, value) samples from a file; it
 * hands them to rounds_build_values, which makes them points (value as
 * IOPS, dt from the file or the spacing) and cuts them here too. */
#include "stats/rounds.h"
#include "base/num.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int rounds_push(struct rounds *r, double t0, double t1, double v)
{
	if (r->n == r->cap) {
		size_t nc = r->cap ? r->cap * 2 : 64;
		double *a = realloc(r->t0, nc * sizeof(*a));
		if (!a)
			return -ENOMEM;
		r->t0 = a;
		if (!(a = realloc(r->t1, nc * sizeof(*a))))
			return -ENOMEM;
		r->t1 = a;
		if (!(a = realloc(r->v, nc * sizeof(*a))))
			return -ENOMEM;
		r->v = a;
		r->cap = nc;
	}
	r->t0[r->n] = t0;
	r->t1[r->n] = t1;
	r->v[r->n] = v;
	r->n++;
	return 0;
}

void rounds_release(struct rounds *r)
{
	if (!r)
		return;
	free(r->t0);
	free(r->t1);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

int rounds_build(const struct point *pt, size_t n, double origin, double round_s, struct rounds *r)
{
	r->n = 0;
	if (!(round_s > 0))
		return -EINVAL;
	if (!n)
		return 0;
	double end = pt[n - 1].t + 0.25 * pt[n - 1].dt;
	size_t i = 0;
	while (i < n && pt[i].t - pt[i].dt / 2 < origin)
		i++; /* an earlier workload (step) */
	while (i < n) {
		int64_t k64 = 0;
		/* a hostile series: out-of-range round numbers clamp, never UB */
		if (num_to_i64(floor((pt[i].t - pt[i].dt / 2 - origin) / round_s), 0, LONG_MAX - 1,
			       &k64))
			k64 = (pt[i].t - pt[i].dt / 2 - origin) / round_s > 0 ? LONG_MAX - 1 : 0;
		long k = (long)k64;
		double t0 = origin + k * round_s, t1 = origin + (k + 1) * round_s;
		if (end < t1)
			break; /* the newest round is not complete yet */
		double io = 0, dt = 0;
		for (; i < n; i++) {
			const struct point *p = &pt[i];
			if ((p->t - p->dt / 2) >= t1)
				break;
			if (p->ramp || !(p->dt > 0))
				continue;
			io += point_iops(p) * p->dt;
			dt += p->dt;
		}
		if (dt > 0 && rounds_push(r, t0, t1, io / dt))
			return -ENOMEM;
	}
	return (int)r->n;
}

void rounds_steady(const struct rounds *r, const struct steady_params *p, struct steady_view *out)
{
	struct steady_verdict first;
	memset(out, 0, sizeof(*out));
	out->nrounds = r->n;
	out->attained = steady_scan(r->v, r->n, p, &first, &out->last);
	if (out->attained)
		out->attained_s = r->t1[out->attained - 1];
	out->left = out->attained && out->last.valid && !out->last.attained;
}

int rounds_build_values(const double *t, const double *dt, const double *v, size_t n, double origin,
			double round_s, struct rounds *r)
{
	struct point *pt = calloc(n ? n : 1, sizeof(*pt));
	if (!pt)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		pt[i].t = t[i];
		pt[i].dt = dt[i];
		pt[i].iops[NVS_READ] = v[i];
	}
	int ret = rounds_build(pt, n, origin, round_s, r);
	free(pt);
	return ret;
}

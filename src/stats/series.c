/* series.c - the per-interval history container, see series.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats/series.h"

int series_push(struct series *s, const struct point *p)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		struct point *np = realloc(s->pt, cap * sizeof(*np));
		if (!np)
			return -ENOMEM;
		s->pt = np;
		s->cap = cap;
	}
	s->pt[s->n++] = *p;
	return 0;
}

void series_release(struct series *s)
{
	free(s->pt);
	s->pt = NULL;
	s->n = s->cap = 0;
}

/* Mean of @x and @y weighted by @wx and @wy (0 when both weigh nothing). */
static float wmean(float x, double wx, float y, double wy)
{
	double w = wx + wy;
	return w > 0 ? (float)((x * wx + y * wy) / w) : 0.0f;
}

static float fmaxf_nan(float x, float y)
{
	if (isnan(x))
		return y;
	return isnan(y) || x >= y ? x : y;
}

void point_merge(struct point *a, const struct point *b)
{
	double dt = a->dt + b->dt, ios_a = 0, ios_b = 0;

	for (int d = 0; d < NVS_NDIR; d++) {
		double ia = (double)a->iops[d] * a->dt, ib = (double)b->iops[d] * b->dt;
		a->lat_mean_us[d] = wmean(a->lat_mean_us[d], ia, b->lat_mean_us[d], ib);
		a->slat_mean_us[d] = wmean(a->slat_mean_us[d], ia, b->slat_mean_us[d], ib);
		a->lat_p99_us[d] = fmaxf_nan(a->lat_p99_us[d], b->lat_p99_us[d]);
		a->lat_max_us[d] = fmaxf_nan(a->lat_max_us[d], b->lat_max_us[d]);
		a->iops[d] = dt > 0 ? (float)((ia + ib) / dt) : 0.0f;
		a->bw[d] = wmean(a->bw[d], a->dt, b->bw[d], b->dt);
		ios_a += ia;
		ios_b += ib;
	}
	if (isnan(a->lat_mean_all_us) || ios_a <= 0)
		a->lat_mean_all_us = b->lat_mean_all_us;
	else if (!isnan(b->lat_mean_all_us) && ios_b > 0)
		a->lat_mean_all_us = wmean(a->lat_mean_all_us, ios_a, b->lat_mean_all_us, ios_b);
	a->lat_p99_all_us = fmaxf_nan(a->lat_p99_all_us, b->lat_p99_all_us);
	a->cpu_pct = wmean(a->cpu_pct, a->dt, b->cpu_pct, b->dt);
	a->errors += b->errors;
	if (b->workers < a->workers)
		a->workers = b->workers;
	a->t = b->t;
	a->dt = dt;
}

bool point_mergeable(const struct point *a, const struct point *b)
{
	return a->ramp == b->ramp && fabs(b->t - b->dt - a->t) <= 0.01 * b->dt;
}

/* May @a take @b in, as one point of at most @res seconds? */
static bool fits(const struct point *a, const struct point *b, double res)
{
	return point_mergeable(a, b) && a->dt + b->dt <= res * 1.01;
}

/* The coarse part pt[0 .. nold) at twice the resolution: adjacent points
 * merged where they fit. */
static void halve(struct series *s, struct series_rrd *r)
{
	size_t w = 0;

	r->res *= 2;
	for (size_t i = 0; i < r->nold; w++) {
		struct point p = s->pt[i++];
		if (i < r->nold && fits(&p, &s->pt[i], r->res))
			point_merge(&p, &s->pt[i++]);
		s->pt[w] = p;
	}
	memmove(&s->pt[w], &s->pt[r->nold], (s->n - r->nold) * sizeof(*s->pt));
	s->n -= r->nold - w;
	r->nold = w;
}

size_t series_rrd_fold(struct series *s, struct series_rrd *r)
{
	size_t n0 = s->n, fine = s->n - r->nold;

	if (fine <= r->keep + r->keep / 4)
		return 0;
	size_t w = r->nold, from = r->nold, to = s->n - r->keep;
	if (r->res <= 0)
		r->res = 2 * s->pt[from].dt;
	for (size_t i = from; i < to; i++) {
		const struct point *p = &s->pt[i];
		if (w > 0 && fits(&s->pt[w - 1], p, r->res))
			point_merge(&s->pt[w - 1], p);
		else
			s->pt[w++] = *p;
	}
	memmove(&s->pt[w], &s->pt[to], r->keep * sizeof(*s->pt));
	s->n = w + r->keep;
	r->nold = w;
	/* (points that cannot merge - gaps, the ramp's edge - stay apart: a
	 * bounded number of halvings, not a loop on them) */
	for (int k = 0; r->nold > r->keep && k < 64; k++)
		halve(s, r);
	return n0 - s->n;
}

int series_compose(const struct series *live, const struct series *win, struct series *out)
{
	out->n = 0;
	if (!win->n) {
		for (size_t i = 0; i < live->n; i++)
			if (series_push(out, &live->pt[i]))
				return -ENOMEM;
		return 0;
	}
	/* a millisecond's slack: the window comes from a CSV, times in ms */
	double w0 = win->pt[0].t - win->pt[0].dt + 1e-3, w1 = win->pt[win->n - 1].t + 1e-3;
	size_t i = 0;
	/* live's points that end where the window starts */
	for (; i < live->n && live->pt[i].t <= w0; i++)
		if (series_push(out, &live->pt[i]))
			return -ENOMEM;
	for (size_t k = 0; k < win->n; k++)
		if (series_push(out, &win->pt[k]))
			return -ENOMEM;
	for (; i < live->n; i++)
		if (live->pt[i].t > w1 && series_push(out, &live->pt[i]))
			return -ENOMEM;
	return 0;
}

/* steady.c - steady-state detection.
 *
 * The SNIA rule.  The Solid State Storage Performance Test Specification
 * (SNIA PTS Enterprise v1.1, section 2.1 "Steady State" and 3.x "Steady
 * State Verification"; the same in PTS-C and PTS 2.0) runs a test stimulus
 * in rounds and tracks one variable per round (e.g. 4 KiB random write
 * IOPS).  The "measurement window" is the last 5 rounds.  The device is in
 * steady state when, over that window,
 *   (1) range:  max(y) - min(y) <= 20 % of the window average, and
 *   (2) slope:  the excursion of the least-squares line across the window,
 *       |slope| * (window - 1), is <= 10 % of the window average
 *       (the PTS states it as "slope x number of rounds in the window";
 *       with x = round index the line spans window - 1 steps, which is what
 *       the PTS worked examples compute).
 * The window size and both limits are parameters here; both comparisons are
 * inclusive ("within").  The least-squares slope of y over x = 0..w-1 is
 *   b = sum((x - xm)(y - ym)) / sum((x - xm)^2).
 * A window whose average is <= 0 is never steady (percentages undefined).
 *
 * The fio alternative (fio(1), options ss=, ss_dur=; fio's steadystate.c):
 * over the window of samples with mean m,
 *   iops:L      max |y - m| <= L      (L% : <= L/100 * m)
 *   iops_slope:L  |b| <= L            (L% : |b| <= L/100 * m)
 * where b is the least-squares slope per sample.  bw: and bw_slope: are the
 * same on bandwidth.  Only one criterion applies, as in fio.
 */
#include "base/num.h"
#include "stats/steady.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Tolerance for the inclusive comparisons, so that a series constructed to
 * sit exactly on a limit is not lost to rounding. */
#define STEADY_EPS 1e-9

void steady_params_init(struct steady_params *p)
{
	memset(p, 0, sizeof(*p));
	p->rule = STEADY_SNIA;
	p->window = 5;
	p->range_pct = 20.0;
	p->slope_pct = 10.0;
	p->fio_limit = 0.0;
	p->fio_pct = true;
	p->metric = STEADY_IOPS;
}

int steady_params_check(const struct steady_params *p)
{
	if (!p || p->window < 2 || p->window > 100000)
		return -EINVAL;
	if (!(p->range_pct >= 0) || !(p->slope_pct >= 0) || !(p->fio_limit >= 0))
		return -EINVAL;
	return 0;
}

int steady_parse_tolerance(const char *s, double *out)
{
	const char *end;
	double v;
	if (!s || num_scan_double(s, &end, &v))
		return -EINVAL;
	if (*end == '%')
		end++;
	if (*end || !(v >= 0 && v <= 1000))
		return -EINVAL;
	*out = v;
	return 0;
}

int steady_parse_fio(const char *s, struct steady_params *p)
{
	static const struct {
		const char *name;
		enum steady_rule rule;
		enum steady_metric metric;
	} kinds[] = {
	    {"iops_slope", STEADY_FIO_SLOPE, STEADY_IOPS},
	    {"bw_slope", STEADY_FIO_SLOPE, STEADY_BW},
	    {"iops", STEADY_FIO_DEV, STEADY_IOPS},
	    {"bw", STEADY_FIO_DEV, STEADY_BW},
	};
	const char *colon = s ? strchr(s, ':') : NULL;
	if (!colon)
		return -EINVAL;
	size_t klen = (size_t)(colon - s);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strlen(kinds[i].name) != klen || strncasecmp(s, kinds[i].name, klen))
			continue;
		const char *end;
		double v;
		if (num_scan_double(colon + 1, &end, &v) || !(v >= 0))
			return -EINVAL;
		bool pct = false;
		if (*end == '%') {
			pct = true;
			end++;
		}
		if (*end)
			return -EINVAL;
		p->rule = kinds[i].rule;
		p->metric = kinds[i].metric;
		p->fio_limit = v;
		p->fio_pct = pct;
		return 0;
	}
	return -EINVAL;
}

static bool within(double value, double limit)
{
	return value <= limit + STEADY_EPS * (fabs(limit) > 1 ? fabs(limit) : 1);
}

void steady_eval(const double *v, size_t n, const struct steady_params *p,
		 struct steady_verdict *out)
{
	memset(out, 0, sizeof(*out));
	size_t w = p->window;
	if (w < 2 || n < w)
		return;
	const double *y = v + (n - w);
	double sum = 0, mn = y[0], mx = y[0];
	for (size_t i = 0; i < w; i++) {
		sum += y[i];
		if (y[i] < mn)
			mn = y[i];
		if (y[i] > mx)
			mx = y[i];
	}
	double avg = sum / (double)w, xm = (double)(w - 1) / 2.0;
	double sxy = 0, sxx = 0, maxdev = 0;
	for (size_t i = 0; i < w; i++) {
		double dx = (double)i - xm;
		sxy += dx * (y[i] - avg);
		sxx += dx * dx;
		if (fabs(y[i] - avg) > maxdev)
			maxdev = fabs(y[i] - avg);
	}
	out->valid = true;
	out->round = n;
	out->avg = avg;
	out->min = mn;
	out->max = mx;
	out->slope = sxx > 0 ? sxy / sxx : 0;
	out->pct_valid = avg > 0;

	switch (p->rule) {
	case STEADY_SNIA:
		if (out->pct_valid) {
			out->range_pct = (mx - mn) / avg * 100.0;
			out->slope_pct = fabs(out->slope) * (double)(w - 1) / avg * 100.0;
		}
		out->range_ok = out->pct_valid && within(out->range_pct, p->range_pct);
		out->slope_ok = out->pct_valid && within(out->slope_pct, p->slope_pct);
		break;
	case STEADY_FIO_DEV:
		if (out->pct_valid)
			out->range_pct = maxdev / avg * 100.0;
		out->range_ok = p->fio_pct ? out->pct_valid && within(out->range_pct, p->fio_limit)
					   : within(maxdev, p->fio_limit);
		out->slope_ok = true;
		break;
	case STEADY_FIO_SLOPE:
		if (out->pct_valid)
			out->slope_pct = fabs(out->slope) / avg * 100.0;
		out->slope_ok = p->fio_pct ? out->pct_valid && within(out->slope_pct, p->fio_limit)
					   : within(fabs(out->slope), p->fio_limit);
		out->range_ok = true;
		break;
	}
	out->attained = out->range_ok && out->slope_ok;
}

size_t steady_scan(const double *v, size_t n, const struct steady_params *p,
		   struct steady_verdict *first, struct steady_verdict *last)
{
	struct steady_verdict cur, found;
	size_t at = 0;
	memset(&found, 0, sizeof(found));
	memset(&cur, 0, sizeof(cur));
	for (size_t k = p->window; k <= n && p->window >= 2; k++) {
		steady_eval(v, k, p, &cur);
		if (!at && cur.attained) {
			at = k;
			found = cur;
		}
	}
	if (first)
		*first = found;
	if (last)
		*last = cur;
	return at;
}

struct steady {
	struct steady_params p;
	double *v;
	size_t n, cap;
	size_t attained_round;
	bool last_ok;
};

struct steady *steady_new(const struct steady_params *p)
{
	struct steady *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	if (p)
		s->p = *p;
	else
		steady_params_init(&s->p);
	if (steady_params_check(&s->p)) {
		free(s);
		return NULL;
	}
	return s;
}

void steady_free(struct steady *s)
{
	if (!s)
		return;
	free(s->v);
	free(s);
}

int steady_push(struct steady *s, double v, struct steady_verdict *out)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		double *nv = realloc(s->v, cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		s->v = nv;
		s->cap = cap;
	}
	s->v[s->n++] = v;
	struct steady_verdict vd;
	steady_eval(s->v, s->n, &s->p, &vd);
	s->last_ok = vd.attained;
	if (vd.attained && !s->attained_round)
		s->attained_round = s->n;
	if (out)
		*out = vd;
	return 0;
}

size_t steady_count(const struct steady *s)
{
	return s ? s->n : 0;
}

const double *steady_values(const struct steady *s)
{
	return s ? s->v : NULL;
}

size_t steady_attained_round(const struct steady *s)
{
	return s ? s->attained_round : 0;
}

bool steady_left(const struct steady *s)
{
	return s && s->attained_round && !s->last_ok;
}

const struct steady_params *steady_params(const struct steady *s)
{
	return &s->p;
}

/* runss.c - fio's in-job steady state fed from the collector's rows (see
 * runss.h; the maths and what fio does: stats/fioss.c). */
#include <errno.h>
#include "run/runss.h"

/* fio's default: steadystate=iops_slope:0.01% */
static void crit_of(const struct spec *s, unsigned *crit, double *limit)
{
	*crit = s->ss_given ? s->ss_crit : FIOSS_IOPS | FIOSS_SLOPE | FIOSS_PCT;
	*limit = s->ss_given ? s->ss_limit : 0.01;
}

int runss_new(const struct spec *s, struct fioss **out)
{
	unsigned crit;
	double limit;

	*out = NULL;
	if (!s->ss_dur_s)
		return 0;
	crit_of(s, &crit, &limit);
	*out = fioss_new_check(crit, limit, s->ss_dur_s, s->ss_check_s ? s->ss_check_s : 1,
			       (double)s->ss_ramp_ns / 1e9);
	return *out ? 0 : -ENOMEM;
}

bool runss_same(const struct spec *a, const struct spec *b)
{
	unsigned ca, cb;
	double la, lb;

	if (a->ss_dur_s != b->ss_dur_s || a->ss_ramp_ns != b->ss_ramp_ns ||
	    a->ss_check_s != b->ss_check_s)
		return false;
	if (!a->ss_dur_s) /* fio: criterion bits still compared (ss_state) */
		return true;
	crit_of(a, &ca, &la);
	crit_of(b, &cb, &lb);
	return ca == cb && la == lb;
}

bool runss_poll(struct fioss *ss, const struct series *const *m, const bool *ended, unsigned nm,
		size_t *next, double t0)
{
	for (;;) {
		size_t i = *next;
		bool have = false, all = true;
		for (unsigned k = 0; k < nm; k++) {
			if (m[k]->n > i)
				have = true;
			else if (!ended || !ended[k])
				all = false;
		}
		if (!have || !all || fioss_attained(ss))
			return fioss_attained(ss);
		double t = 0, dt = 0, ios = 0, bytes = 0, clat = 0;
		bool ramp = false;
		for (unsigned k = 0; k < nm; k++) {
			if (m[k]->n <= i)
				continue;
			const struct point *p = &m[k]->pt[i];
			if (p->t > t) {
				t = p->t;
				dt = p->dt;
			}
			ios += point_iops(p) * p->dt;
			bytes += point_bw(p) * p->dt;
			for (int d = 0; d < NVS_NDIR; d++) /* clat = lat - slat, summed */
				clat += ((double)p->lat_mean_us[d] - p->slat_mean_us[d]) * 1e3 *
					p->iops[d] * p->dt;
			ramp |= p->ramp != 0;
		}
		(*next)++;
		if (!ramp)
			fioss_feed_lat(ss, t - t0, dt, ios, bytes, clat);
	}
}

/* fioss.c - fio's in-job steady-state detection, the criterion maths.
 *
 * What fio computes (fio 3.33, steadystate.c, helper_thread.c, stat.c;
 * HOWTO "Steady state"): once a second fio's helper thread takes, per job
 * (or per report group with group_reporting, summed over its jobs), the
 * I/Os and bytes done since the previous check and turns them into an
 * integer rate: 1000 * delta / milliseconds.  Checks start one second after
 * ss_ramp (counted from the end of ramp_time, when fio resets the job's
 * clock), so the first sample is the second [ss_ramp, ss_ramp + 1).  The
 * last ss_dur samples sit in a ring of ss_dur slots; once it is full, every
 * sample is judged:
 *   - iops / bw (mean deviation): mean = sum / n; deviation = the largest
 *     |y_i - mean| over the window; criterion = deviation, or with a
 *     percent limit 100 * deviation / mean;
 *   - iops_slope / bw_slope: the least-squares slope of y against x =
 *     0..n-1 (the samples taken as evenly spaced), slope =
 *     (sum_xy - sum_x * sum_y / n) / (sum_x2 - sum_x^2 / n), with sum_xy
 *     updated incrementally as the window slides; criterion = slope, or
 *     100 * slope / (sum_y / n) in percent (fio divides sum_y by n in
 *     integers there), and |criterion| is compared.
 * The job stops when criterion < limit ("attained"); otherwise it runs to
 * its runtime.  fio's JSON shows the window oldest first and integer means
 * (sum / n).  This file repeats those steps, including the ring's head/tail
 * walk, so the figures match fio's for the same samples; nvscope's own
 * least-squares helpers (stats/steady.c) judge SNIA rounds and differ.
 *
 * fio master (newer than 3.33) adds, and this file repeats:
 *   - steadystate_check_interval (ss_interval): samples every N whole
 *     seconds instead of 1; the window holds ss_dur / N of them (fio's
 *     "intervals"), x = 0..intervals-1 in the slope;
 *   - lat / lat_slope (commit e6ef1c10, "add latency steady state
 *     detection"): each sample also keeps the mean clat of the I/Os
 *     completed since the previous check, all directions together (the
 *     clat sum over their count), truncated to integer ns (lat_data), and
 *     the same deviation / slope maths judges that series; its JSON adds
 *     "lat_mean" (integer mean of the window) and "lat" (the window, oldest
 *     first).  A limit without % is parsed as fio's check_str_time (a
 *     number of microseconds) and compared as is with the criterion in ns,
 *     as fio master does. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "base/num.h"
#include "stats/fioss.h"

#define BUFFER_FULL 0x1u
#define ATTAINED    0x2u

struct fioss {
	unsigned crit, dur, state;
	unsigned n, check; /* samples in the window (dur / check), check interval (s) */
	double limit, ramp_s;
	unsigned head, tail;
	uint64_t *iops, *bw, *lat;
	double slope, deviation, criterion;
	uint64_t sum_y, sum_x, sum_x_sq, sum_xy, oldest_y;
	/* binning of rows into seconds */
	long bin; /* second being filled, -1: none */
	double bin_ios, bin_bytes, bin_dt, bin_clat;
};

/* fio master's latency limit: check_str_time(nr, &tns, 0), a time whose
 * number is in microseconds (no unit: us; ms, s, m, h, d scale it; a unit
 * fio does not know, ns among them, counts 1), used as is against the
 * criterion in ns.  Units other than those and ns are refused here. */
static int lat_limit(const char *num, double *limit)
{
	static const struct {
		const char *unit;
		double mult;
	} units[] = {{"", 1},	  {"ns", 1},	{"us", 1},    {"usec", 1}, {"ms", 1e3},
		     {"msec", 1e3}, {"s", 1e6}, {"m", 6e7}, {"h", 3.6e9}, {"d", 8.64e10}};
	char n[64];
	size_t len = 0;

	while (num[len] && (num[len] == '.' || (num[len] >= '0' && num[len] <= '9')))
		len++;
	if (!len || len >= sizeof(n))
		return -EINVAL;
	memcpy(n, num, len);
	n[len] = '\0';
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(num + len, units[i].unit)) {
			double v;
			if (num_parse_double(n, 0, 1e15, &v))
				return -EINVAL;
			*limit = v * units[i].mult;
			return 0;
		}
	return -EINVAL;
}

int fioss_parse(const char *v, unsigned *crit, double *limit)
{
	static const struct {
		const char *name;
		unsigned crit;
	} names[] = {{"iops", FIOSS_IOPS},
		     {"iops_slope", FIOSS_IOPS | FIOSS_SLOPE},
		     {"bw", 0},
		     {"bw_slope", FIOSS_SLOPE},
		     {"lat", FIOSS_LAT},
		     {"lat_slope", FIOSS_LAT | FIOSS_SLOPE}};
	const char *colon = v ? strchr(v, ':') : NULL;
	char num[64];
	size_t nl;
	unsigned c = ~0u;

	if (!colon) /* fio: the threshold must be given with the criterion */
		return -EINVAL;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == (size_t)(colon - v) &&
		    !strncmp(v, names[i].name, (size_t)(colon - v)))
			c = names[i].crit;
	nl = strlen(colon + 1);
	if (c == ~0u || !nl || nl >= sizeof(num))
		return -EINVAL;
	memcpy(num, colon + 1, nl + 1);
	if (num[nl - 1] == '%') {
		num[--nl] = '\0';
		while (nl && num[nl - 1] == ' ')
			num[--nl] = '\0';
		if (num_parse_double(num, 0, 1e15, limit))
			return -EINVAL;
		c |= FIOSS_PCT;
	} else if (c & FIOSS_IOPS) {
		if (num_parse_double(num, 0, 1e15, limit))
			return -EINVAL;
	} else if (c & FIOSS_LAT) {
		if (lat_limit(num, limit))
			return -EINVAL;
	} else { /* fio: a bandwidth is a size (str_to_decimal, kilo = 1024) */
		uint64_t b;
		if (num_parse_size(num, &b))
			return -EINVAL;
		*limit = (double)b;
	}
	*crit = c;
	return 0;
}

struct fioss *fioss_new(unsigned crit, double limit, unsigned dur, double ramp_s)
{
	return fioss_new_check(crit, limit, dur, 1, ramp_s);
}

struct fioss *fioss_new_check(unsigned crit, double limit, unsigned dur, unsigned check,
			      double ramp_s)
{
	struct fioss *ss;

	if (!dur || dur > 100000000u || !check || dur % check || (check > 1 && dur <= check) ||
	    !isfinite(limit) || !isfinite(ramp_s) || ramp_s < 0)
		return NULL;
	ss = calloc(1, sizeof(*ss));
	if (!ss)
		return NULL;
	ss->n = dur / check;
	ss->iops = calloc(ss->n, sizeof(*ss->iops));
	ss->bw = calloc(ss->n, sizeof(*ss->bw));
	ss->lat = calloc(ss->n, sizeof(*ss->lat));
	if (!ss->iops || !ss->bw || !ss->lat) {
		fioss_free(ss);
		return NULL;
	}
	ss->crit = crit;
	ss->limit = limit;
	ss->dur = dur;
	ss->check = check;
	ss->ramp_s = ramp_s;
	ss->sum_x = (uint64_t)ss->n * (ss->n - 1) / 2;
	ss->sum_x_sq = (uint64_t)(ss->n - 1) * ss->n * (2 * (uint64_t)ss->n - 1) / 6;
	ss->bin = -1;
	return ss;
}

void fioss_free(struct fioss *ss)
{
	if (!ss)
		return;
	free(ss->iops);
	free(ss->bw);
	free(ss->lat);
	free(ss);
}

static uint64_t *data(struct fioss *ss)
{
	return ss->crit & FIOSS_IOPS ? ss->iops : ss->crit & FIOSS_LAT ? ss->lat : ss->bw;
}

/* fio's steadystate_slope */
static bool judge_slope(struct fioss *ss, uint64_t new_val)
{
	const uint64_t *y = data(ss);
	uint64_t n = ss->n;

	if (ss->state & BUFFER_FULL || ss->tail - ss->head == ss->n - 1) {
		if (!(ss->state & BUFFER_FULL)) { /* first time through */
			ss->sum_y = 0;
			for (unsigned i = 0; i < ss->n; i++) {
				ss->sum_y += y[i];
				ss->sum_xy += i * y[(ss->head + i) % ss->n];
			}
			ss->state |= BUFFER_FULL;
		} else { /* slide: drop the oldest, shift x by one, add the newest */
			ss->sum_y -= ss->oldest_y;
			ss->sum_y += new_val;
			ss->sum_xy = ss->sum_xy - ss->sum_y + n * new_val;
		}
		ss->oldest_y = y[ss->head];
		ss->slope =
		    ((double)ss->sum_xy - (double)ss->sum_x * (double)ss->sum_y / (double)n) /
		    ((double)ss->sum_x_sq - (double)ss->sum_x * (double)ss->sum_x / (double)n);
		if (ss->crit & FIOSS_PCT)
			ss->criterion = 100.0 * ss->slope / (double)(ss->sum_y / n);
		else
			ss->criterion = ss->slope;
		if (fabs(ss->criterion) < ss->limit)
			return true;
	}
	ss->tail = (ss->tail + 1) % ss->n;
	if (ss->tail <= ss->head)
		ss->head = (ss->head + 1) % ss->n;
	return false;
}

/* fio's steadystate_deviation */
static bool judge_deviation(struct fioss *ss)
{
	const uint64_t *y = data(ss);

	if (ss->state & BUFFER_FULL || ss->tail - ss->head == ss->n - 1) {
		if (!(ss->state & BUFFER_FULL)) {
			ss->sum_y = 0;
			for (unsigned i = 0; i < ss->n; i++)
				ss->sum_y += y[i];
			ss->state |= BUFFER_FULL;
		} else {
			ss->sum_y -= ss->oldest_y;
			ss->sum_y += y[ss->tail];
		}
		ss->oldest_y = y[ss->head];
		double mean = (double)ss->sum_y / ss->n;
		ss->deviation = 0.0;
		for (unsigned i = 0; i < ss->n; i++)
			ss->deviation = fmax(ss->deviation, fabs((double)y[i] - mean));
		if (ss->crit & FIOSS_PCT)
			ss->criterion = 100.0 * ss->deviation / mean;
		else
			ss->criterion = ss->deviation;
		if (ss->criterion < ss->limit)
			return true;
	}
	ss->tail = (ss->tail + 1) % ss->n;
	if (ss->tail == ss->head)
		ss->head = (ss->head + 1) % ss->n;
	return false;
}

bool fioss_add(struct fioss *ss, uint64_t iops, uint64_t bw)
{
	return fioss_add_lat(ss, iops, bw, 0);
}

bool fioss_add_lat(struct fioss *ss, uint64_t iops, uint64_t bw, uint64_t lat)
{
	bool ok;

	if (ss->state & ATTAINED)
		return true;
	ss->iops[ss->tail] = iops;
	ss->bw[ss->tail] = bw;
	ss->lat[ss->tail] = lat;
	ok = ss->crit & FIOSS_SLOPE ? judge_slope(ss, ss->crit & FIOSS_IOPS  ? iops
						      : ss->crit & FIOSS_LAT ? lat
									     : bw)
				    : judge_deviation(ss);
	if (ok)
		ss->state |= ATTAINED;
	return ok;
}

/* fio's integer rate (1000 * delta / ms, truncated); the 1e-6 keeps a sum
 * of row lengths like 0.1 x 10 = 0.99999... from losing one */
static uint64_t rate(double n, double dt)
{
	double r = n / dt + 1e-6;
	return r > 0 && r < 1.8e19 ? (uint64_t)r : 0;
}

/* fio master: the mean clat (ns) of the I/Os completed since the last check,
 * truncated to an integer (0 without any) */
static uint64_t mean_lat(double clat, double ios)
{
	double m = ios >= 0.5 ? clat / ios : 0;
	return m > 0 && m < 1.8e19 ? (uint64_t)m : 0;
}

static bool bin_flush(struct fioss *ss)
{
	bool ok = false;

	if (ss->bin >= 0 && ss->bin_dt > 0)
		ok = fioss_add_lat(ss, rate(ss->bin_ios, ss->bin_dt), rate(ss->bin_bytes, ss->bin_dt),
				   mean_lat(ss->bin_clat, ss->bin_ios));
	ss->bin = -1;
	ss->bin_ios = ss->bin_bytes = ss->bin_dt = ss->bin_clat = 0;
	return ok;
}

bool fioss_feed(struct fioss *ss, double t, double dt, double ios, double bytes)
{
	return fioss_feed_lat(ss, t, dt, ios, bytes, 0);
}

bool fioss_feed_lat(struct fioss *ss, double t, double dt, double ios, double bytes,
		    double clat_ns)
{
	if (ss->state & ATTAINED)
		return true;
	if (!(dt > 0) || !isfinite(t) || !isfinite(ios) || !isfinite(bytes) || !isfinite(clat_ns))
		return false;
	double rel = t - ss->ramp_s; /* s since the first interval counted */
	double w = ss->check;	     /* a check interval, s */
	if (dt >= w - 0.001) {	     /* a row of an interval or more is one sample */
		if (rel - dt / 2 < 0)
			return false;
		bin_flush(ss);
		return fioss_add_lat(ss, rate(ios, dt), rate(bytes, dt), mean_lat(clat_ns, ios));
	}
	double mid = rel - dt / 2;
	if (mid < 0)
		return false;
	long bin = (long)floor(mid / w);
	if (bin != ss->bin)
		bin_flush(ss); /* an interval left unfinished (a gap): judged as is */
	ss->bin = bin;
	ss->bin_ios += ios;
	ss->bin_bytes += bytes;
	ss->bin_dt += dt;
	ss->bin_clat += clat_ns;
	if (rel + dt / 2 >= (double)(bin + 1) * w) /* the row ends this interval */
		return bin_flush(ss);
	return false;
}

bool fioss_attained(const struct fioss *ss)
{
	return ss->state & ATTAINED;
}
unsigned fioss_crit(const struct fioss *ss)
{
	return ss->crit;
}
double fioss_limit(const struct fioss *ss)
{
	return ss->limit;
}
unsigned fioss_dur(const struct fioss *ss)
{
	return ss->dur;
}
unsigned fioss_n(const struct fioss *ss)
{
	return ss->n;
}
unsigned fioss_check(const struct fioss *ss)
{
	return ss->check;
}
double fioss_ramp_s(const struct fioss *ss)
{
	return ss->ramp_s;
}
double fioss_slope(const struct fioss *ss)
{
	return ss->slope;
}
double fioss_deviation(const struct fioss *ss)
{
	return ss->deviation;
}
double fioss_criterion(const struct fioss *ss)
{
	return ss->criterion;
}

/* fio's stat.c: attained or not yet full, head is the oldest; otherwise
 * (slid past a failed check) the oldest sits just before head. */
static unsigned oldest(const struct fioss *ss)
{
	if (ss->state & ATTAINED || !(ss->state & BUFFER_FULL))
		return ss->head;
	return ss->head == 0 ? ss->n - 1 : ss->head - 1;
}

uint64_t fioss_iops_at(const struct fioss *ss, unsigned i)
{
	return ss->iops[(oldest(ss) + i) % ss->n];
}
uint64_t fioss_bw_at(const struct fioss *ss, unsigned i)
{
	return ss->bw[(oldest(ss) + i) % ss->n];
}
uint64_t fioss_lat_at(const struct fioss *ss, unsigned i)
{
	return ss->lat[(oldest(ss) + i) % ss->n];
}

static uint64_t mean(const uint64_t *v, unsigned n)
{
	uint64_t sum = 0;
	for (unsigned i = 0; i < n; i++)
		sum += v[i];
	return sum / n;
}
uint64_t fioss_iops_mean(const struct fioss *ss)
{
	return mean(ss->iops, ss->n);
}
uint64_t fioss_bw_mean(const struct fioss *ss)
{
	return mean(ss->bw, ss->n);
}
uint64_t fioss_lat_mean(const struct fioss *ss)
{
	return mean(ss->lat, ss->n);
}

const char *fioss_crit_name(unsigned crit)
{
	return crit & FIOSS_IOPS ? "iops" : crit & FIOSS_LAT ? "lat" : "bw";
}

const char *fioss_name(const struct fioss *ss, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s:%f%s", fioss_crit_name(ss->crit),
		 ss->crit & FIOSS_SLOPE ? "_slope" : "", (double)(float)ss->limit,
		 ss->crit & FIOSS_PCT ? "%" : "");
	return buf;
}

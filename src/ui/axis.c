/* axis.c - linear and log axes with nice ticks and unit labels.
 *
 * Nice numbers: the tick step is the smallest of 1, 2 or 5 times a power of
 * ten that is at least range/n, after Paul Heckbert, "Nice Numbers for Graph
 * Labels", Graphics Gems (1990).  The range is widened outward to whole steps
 * so that both ends carry a label.  Log axes round out to whole decades,
 * which is what SSD review charts do when a consumer drive falls from
 * ~100K IOPS to a few hundred in steady state.  Labels use SI prefixes
 * (k, M, G: decimal, as storage vendors quote IOPS and MB/s). */
#include <math.h>
#include <stdio.h>
#include "ui/axis.h"

double axis_nice_step(double range, int n)
{
	if (!(range > 0) || n < 1)
		return 1;
	double raw = range / n;
	double p = pow(10, floor(log10(raw)));
	double f = raw / p;
	double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
	return nice * p;
}

void axis_autoscale(struct axis *a, double vmin, double vmax, bool log)
{
	a->log = log;
	if (log) {
		if (!(vmax > 0)) {
			a->lo = 1;
			a->hi = 10;
			return;
		}
		if (!(vmin > 0) || vmin > vmax)
			vmin = vmax;
		double lo = floor(log10(vmin)), hi = ceil(log10(vmax));
		if (hi <= lo)
			hi = lo + 1;
		a->lo = pow(10, lo);
		a->hi = pow(10, hi);
		return;
	}
	if (!isfinite(vmin) || !isfinite(vmax) || vmax < vmin) {
		vmin = 0;
		vmax = 1;
	}
	if (vmin > 0)
		vmin = 0;
	if (vmax <= vmin)
		vmax = vmin + (vmin ? fabs(vmin) : 1);
	double step = axis_nice_step(vmax - vmin, 4);
	a->lo = floor(vmin / step) * step;
	a->hi = ceil(vmax / step) * step;
	if (a->hi <= a->lo)
		a->hi = a->lo + step;
}

void axis_autoscale_near(struct axis *a, double vmin, double vmax)
{
	a->log = false;
	if (!isfinite(vmin) || !isfinite(vmax) || vmax < vmin) {
		vmin = 0;
		vmax = 1;
	}
	if (vmax - vmin < 1e-9) { /* flat: a span of 1 unit (or 10%) around it */
		double pad = fabs(vmax) > 10 ? fabs(vmax) * 0.1 : 1;
		vmin -= pad;
		vmax += pad;
	}
	double step = axis_nice_step(vmax - vmin, 4);
	a->lo = floor(vmin / step) * step;
	a->hi = ceil(vmax / step) * step;
	if (a->hi <= a->lo)
		a->hi = a->lo + step;
}

static double frac(const struct axis *a, double v)
{
	if (a->log)
		return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	return (v - a->lo) / (a->hi - a->lo);
}

int axis_map(const struct axis *a, double v, int n)
{
	if (n <= 0 || isnan(v) || (a->log && !(v > 0)) || !(a->hi > a->lo))
		return -1;
	double f = frac(a, v);
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	return (int)lround(f * (n - 1));
}

double axis_unmap(const struct axis *a, int px, int n)
{
	double f = n > 1 ? (double)px / (n - 1) : 0;
	if (a->log)
		return pow(10, log10(a->lo) + f * (log10(a->hi) - log10(a->lo)));
	return a->lo + f * (a->hi - a->lo);
}

int axis_ticks(const struct axis *a, double *ticks, int max)
{
	int n = 0;
	if (max < 1 || !(a->hi > a->lo))
		return 0;
	if (max > AXIS_MAX_TICKS)
		max = AXIS_MAX_TICKS;
	if (a->log) {
		int d0 = (int)floor(log10(a->lo) + 1e-9), d1 = (int)ceil(log10(a->hi) - 1e-9);
		int every = 1;
		while ((d1 - d0) / every + 1 > max)
			every++;
		for (int d = d0; d <= d1 && n < max; d += every)
			ticks[n++] = pow(10, d);
		return n;
	}
	if (max == 1) {
		ticks[0] = a->lo;
		return 1;
	}
	double range = a->hi - a->lo, step;
	int want = max - 1 < 4 ? max - 1 : 4;
	for (;;) {
		step = axis_nice_step(range, want);
		if (range / step + 1 <= max + 1e-9 || want == 1)
			break;
		want--;
	}
	double first = ceil(a->lo / step - 1e-9) * step;
	for (double v = first; v <= a->hi + step * 1e-9 && n < max; v += step)
		ticks[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

/* "%.3g"-like with at most 3 significant digits and no exponent. */
static void fmt3(double v, const char *suffix, char *buf, size_t len)
{
	double av = fabs(v);
	if (av >= 100 || av == 0 || av == floor(av))
		snprintf(buf, len, "%.0f%s", v, suffix);
	else if (av >= 10)
		snprintf(buf, len, "%.1f%s", v, suffix);
	else
		snprintf(buf, len, "%.2g%s", v, suffix);
}

static void fmt_si(double v, const char *unit, char *buf, size_t len)
{
	static const char *pre[] = {"", "k", "M", "G", "T", "P"};
	int i = 0;
	char sfx[16];
	while (fabs(v) >= 999.5 && i < 5) {
		v /= 1000;
		i++;
	}
	snprintf(sfx, sizeof(sfx), "%s%s", pre[i], unit);
	fmt3(v, sfx, buf, len);
}

const char *axis_fmt(double v, enum axis_unit unit, bool ascii, char *buf, size_t len)
{
	if (!len)
		return buf;
	if (isnan(v)) {
		snprintf(buf, len, "N/A");
		return buf;
	}
	switch (unit) {
	case UNIT_NONE:
	case UNIT_IOPS:
		fmt_si(v, "", buf, len);
		break;
	case UNIT_BPS:
		fmt_si(v, "B/s", buf, len);
		break;
	case UNIT_US:
		if (fabs(v) >= 1e6)
			fmt3(v / 1e6, "s", buf, len);
		else if (fabs(v) >= 999.5)
			fmt3(v / 1e3, "ms", buf, len);
		else if (fabs(v) < 1 && v != 0)
			fmt3(v * 1e3, "ns", buf, len);
		else
			fmt3(v, ascii ? "us" : "\xc2\xb5s", buf, len);
		break;
	case UNIT_PCT:
		fmt3(v, "%", buf, len);
		break;
	case UNIT_DEGC:
		snprintf(buf, len, "%.0fC", v);
		break;
	case UNIT_SEC:
		if (fabs(v) >= 3600 * 10)
			snprintf(buf, len, "%.0fh", v / 3600);
		else if (fabs(v) >= 3600)
			snprintf(buf, len, "%.1fh", v / 3600);
		else if (fabs(v) >= 600)
			snprintf(buf, len, "%.0fm", v / 60);
		else
			fmt3(v, "s", buf, len);
		break;
	}
	return buf;
}

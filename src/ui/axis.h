/* axis.h - value axes for the strips: linear or log scaling, autoscale to
 * "nice" bounds, tick positions and short labels with units.  Pure. */
#ifndef NVS_UI_AXIS_H
#define NVS_UI_AXIS_H

#include <stdbool.h>
#include <stddef.h>

#define AXIS_MAX_TICKS 16

/* Units of a value, for labels. */
enum axis_unit {
	UNIT_NONE, /* plain count with k/M/G: "857k" */
	UNIT_IOPS, /* same as NONE */
	UNIT_BPS,  /* bytes/s shown as "1.2GB/s", "350MB/s" (decimal) */
	UNIT_US,   /* microseconds: "85us", "1.2ms", "2.0s" */
	UNIT_PCT,  /* percent: "45%" */
	UNIT_DEGC, /* degrees Celsius: "45C" */
	UNIT_SEC,  /* elapsed seconds: "90s", "15m", "4.4h" */
};

struct axis {
	double lo, hi; /* shown range; for log both > 0 */
	bool log;
};

/* Sets @a to a nice range holding [@vmin, @vmax] (data extremes; an empty or
 * flat range gets a sensible span).  Linear axes start at 0 when vmin >= 0;
 * log axes round out to whole decades and ignore values <= 0 (@vmin is the
 * smallest positive value, or <= 0 when unknown). */
void axis_autoscale(struct axis *a, double vmin, double vmax, bool log);
/* Like axis_autoscale for a linear axis that need not include 0
 * (temperatures): nice bounds just around [@vmin, @vmax]. */
void axis_autoscale_near(struct axis *a, double vmin, double vmax);
/* Position of @v on an axis of @n pixels: 0 at lo, n-1 at hi, clamped; -1
 * when @v cannot be drawn (NaN, or <= 0 on a log axis). */
int axis_map(const struct axis *a, double v, int n);
/* Inverse of axis_map for the centre of pixel @px. */
double axis_unmap(const struct axis *a, int px, int n);
/* Tick values from lo to hi (at most @max, at least 2 when max >= 2):
 * multiples of a nice step (1, 2 or 5 x 10^k) on linear axes, decades on
 * log axes (every other decade when too many).  Returns the count. */
int axis_ticks(const struct axis *a, double *ticks, int max);
/* The nice step (1, 2, 5 x 10^k) closest above @range / @n. */
double axis_nice_step(double range, int n);
/* Short label of @v in @unit (at most ~7 characters); @ascii uses "us"
 * instead of the micro sign.  Returns @buf. */
const char *axis_fmt(double v, enum axis_unit unit, bool ascii, char *buf, size_t len);

#endif

/* lattarget.c - fio's latency-target queue-depth search (see lattarget.h).
 *
 * fio's io_u.c, step by step: lat_target_init (depth 1, bounds 1 and
 * iodepth), lat_target_failed (percentile 100: an I/O above the target
 * ramps down at once, at depth 1 it is fatal; else it is counted),
 * lat_target_check (a window over: the share of I/Os within the target
 * decides), lat_target_success (double, or bisect towards the failing
 * depth; three successes one below it raise that bound by one; the same
 * depth twice: quiesce, reset the statistics, one last window, done) and
 * __lat_target_failed (bisect down, quiesce).  One difference: fio's
 * quiesce reaps the in-flight I/O inside the failure handler, so those
 * completions can fail again at once (percentile 100); here they complete
 * during the quiesce and are not judged: the window starts after them. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "base/num.h"
#include "io/feat/lattarget.h"

static void new_cycle(struct lattarget *lt, uint64_t now)
{
	lt->cycle_ns = now;
	lt->cycle_ios = lt->ios;
	lt->failed = 0;
}

void lattarget_init(struct lattarget *lt, const struct spec *s, unsigned max, uint64_t now)
{
	memset(lt, 0, sizeof(*lt));
	lt->max = max ? max : 1;
	lt->qd = lt->max;
	if (!s->lat_target_ns)
		return;
	lt->on = true;
	lt->target_ns = s->lat_target_ns;
	lt->window_ns = s->lat_window_ns;
	lt->pct = s->lat_pct;
	lt->run = s->lat_run;
	lattarget_restart(lt, now);
}

void lattarget_restart(struct lattarget *lt, uint64_t now)
{
	if (!lt->on || lt->end_run)
		return;
	lt->qd = 1;
	lt->qd_low = 1;
	lt->qd_high = lt->max;
	lt->stable = 0;
	lt->quiesce = false;
	new_cycle(lt, now);
}

/* fio's __lat_target_failed: false when already at depth 1 (nothing left) */
static bool ramp_down(struct lattarget *lt)
{
	if (lt->qd == 1)
		return false;
	lt->qd_high = lt->qd;
	if (lt->qd == lt->qd_low)
		lt->qd_low--;
	lt->qd = (lt->qd + lt->qd_low) / 2;
	lt->stable = 0;
	lt->quiesce = true;
	return true;
}

enum lattarget_act lattarget_note(struct lattarget *lt, uint64_t lat_ns)
{
	lt->ios++;
	if (lat_ns <= lt->target_ns || lt->quiesce)
		return LT_NONE;
	if (lt->pct < 100.0) {
		lt->failed++;
		return LT_NONE;
	}
	return ramp_down(lt) ? LT_QUIESCE : LT_FATAL;
}

static enum lattarget_act success(struct lattarget *lt, uint64_t now)
{
	unsigned qd = lt->qd;

	lt->qd_low = lt->qd;
	if (lt->qd + 1 == lt->qd_high && ++lt->stable >= 3) {
		lt->qd_high++;
		lt->stable = 0;
	}
	if (lt->qd_high != lt->max)
		lt->qd = (lt->qd + lt->qd_high) / 2;
	else
		lt->qd *= 2;
	if (lt->qd > lt->max)
		lt->qd = lt->max;
	if (!lt->run && lt->qd == qd) {
		if (lt->end_run)
			return LT_DONE;
		lt->end_run = true;
		lt->reset_due = true;
		lt->quiesce = true;
		return LT_QUIESCE;
	}
	new_cycle(lt, now);
	return LT_NONE;
}

enum lattarget_act lattarget_check(struct lattarget *lt, uint64_t now)
{
	if (!lt->on || lt->quiesce || now - lt->cycle_ns < lt->window_ns)
		return LT_NONE;
	uint64_t ios = lt->ios - lt->cycle_ios;
	/* fio: no I/O in the window is 0/0, NaN, which fails the comparison */
	double ok = ios ? 100.0 * (double)(ios - lt->failed) / (double)ios : -1.0;
	if (ok >= lt->pct)
		return success(lt, now);
	/* fio: at depth 1 the window is not restarted: it grows until the
	 * share is met */
	return ramp_down(lt) ? LT_QUIESCE : LT_NONE;
}

bool lattarget_resume(struct lattarget *lt, uint64_t now)
{
	bool reset = lt->reset_due;

	lt->quiesce = false;
	lt->reset_due = false;
	new_cycle(lt, now);
	return reset;
}

/* latency_run: 1, true or none, 0 or false (fio's bool, case as given). */
static int lat_run_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	(void)key;
	if (!v || !*v || !strcmp(v, "1") || !strcmp(v, "true"))
		s->lat_run = true;
	else if (!strcmp(v, "0") || !strcmp(v, "false"))
		s->lat_run = false;
	else {
		snprintf(err, errlen, "latency_run: '%s' is not a boolean (0/1)", v);
		return -EINVAL;
	}
	return 0;
}

/* fio: a bare latency_target/latency_window is microseconds. */
#define LAT_TIME(n, f)                                                                             \
	{                                                                                          \
		.name = n, .kind = OPT_TIME, OPT_FIELD(f), .unit_ns = 1000,                        \
		.max_ns = 3600 * NVS_NSEC_PER_SEC,                                                 \
		.what = "a duration up to 1h (bare numbers are us, as in fio)"                     \
	}

const struct opt_row lattarget_opts[LATTARGET_NOPTS] = {
    LAT_TIME("latency_target", lat_target_ns),
    LAT_TIME("latency_window", lat_window_ns),
    {.name = "latency_percentile",
     .kind = OPT_DOUBLE,
     OPT_FIELD(lat_pct),
     .dmin = 0.0,
     .dmax = 100.0,
     .what = "a percentage 0..100"},
    {.name = "latency_run", .kind = OPT_CUSTOM, .set = lat_run_set},
};

int lattarget_spec_validate(const struct spec *s, char *err, size_t errlen)
{
	if (!s->lat_target_ns)
		return 0;
	if (s->niodepth > 1) {
		snprintf(err, errlen,
			 "latency_target searches the depth up to iodepth: give one iodepth, not "
			 "a sweep");
		return -EINVAL;
	}
	if (s->replay.iolog[0]) {
		snprintf(err, errlen,
			 "latency_target with read_iolog: a replay keeps the trace's "
			 "timing, there is no depth to search");
		return -EINVAL;
	}
	return 0;
}

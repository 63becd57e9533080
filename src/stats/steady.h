/* steady.h - steady-state detection on a series of per-round values: the
 * SNIA PTS rule (range and slope excursion over a window of rounds) and, as
 * an alternative, fio's per-sample criteria (ss=iops:X%, ss=iops_slope:X%).
 * See steady.c for the rule and its source. */
#ifndef NVS_STEADY_H
#define NVS_STEADY_H

#include <stdbool.h>
#include <stddef.h>

enum steady_rule {
	STEADY_SNIA,	  /* range <= range_pct and slope excursion <= slope_pct */
	STEADY_FIO_DEV,	  /* fio "iops:": max |v - mean| <= limit */
	STEADY_FIO_SLOPE, /* fio "iops_slope:": |least-squares slope| <= limit */
};

enum steady_metric { STEADY_IOPS, STEADY_BW }; /* fio's iops / bw prefix */

struct steady_params {
	enum steady_rule rule;
	unsigned window;  /* rounds in the measurement window (SNIA: 5) */
	double range_pct; /* SNIA: (max - min) <= range_pct % of the average (20) */
	double slope_pct; /* SNIA: |slope| * (window - 1) <= slope_pct % of avg (10) */
	double fio_limit; /* fio rules: the limit, in % of the mean when fio_pct */
	bool fio_pct;
	enum steady_metric metric; /* which variable the fio-style spec named */
};

/* The verdict on one window (the @window rounds ending at @round). */
struct steady_verdict {
	bool valid;    /* false: fewer rounds than the window (fields unset) */
	bool attained; /* both criteria of the rule met */
	bool range_ok, slope_ok;
	size_t round; /* 1-based index of the window's last round */
	double avg, min, max;
	double slope;	  /* least-squares slope, per round */
	double range_pct; /* (max-min)/avg*100; fio dev rule: max dev/mean*100 */
	double slope_pct; /* |slope|*(window-1)/avg*100; fio slope: |slope|/mean*100 */
	bool pct_valid;	  /* false when avg <= 0 (percentages undefined) */
};

/* Fills @p with the SNIA defaults: window 5, range 20 %, slope 10 %. */
void steady_params_init(struct steady_params *p);
/* A SNIA tolerance (--range, --slope): "20" or "20%", 0..1000 (percent of
 * the window average, not a share of a whole).  0 or -EINVAL. */
int steady_parse_tolerance(const char *s, double *out);
/* Parses a fio-style criterion "iops:5%", "iops_slope:0.3%", "bw:1000",
 * "bw_slope:2%" into @p (rule, limit, metric; the window is kept).
 * Returns 0 or -EINVAL. */
int steady_parse_fio(const char *s, struct steady_params *p);
/* Checks @p (window >= 2, limits >= 0).  0 or -EINVAL. */
int steady_params_check(const struct steady_params *p);

/* Evaluates the window of the last p->window values of @v[0..n-1].  When
 * n < window, @out->valid is false.  Never fails. */
void steady_eval(const double *v, size_t n, const struct steady_params *p,
		 struct steady_verdict *out);
/* Scans every window of @v in order.  Returns the 1-based round of the first
 * window that attains steady state (0 when none) and its verdict in @first;
 * @last gets the verdict of the last window (either may be NULL). */
size_t steady_scan(const double *v, size_t n, const struct steady_params *p,
		   struct steady_verdict *first, struct steady_verdict *last);

/* A live tracker: push one value per round, read the verdict, the round at
 * which steady state was first reached and whether it was left since. */
struct steady;

/* Allocates a tracker with a copy of @p (NULL: SNIA defaults).  NULL on
 * allocation failure or bad parameters.  Caller frees with steady_free. */
struct steady *steady_new(const struct steady_params *p);
/* NULL-safe. */
void steady_free(struct steady *s);
/* Appends one round's value and evaluates the window ending at it into
 * @out (may be NULL).  0 or -ENOMEM. */
int steady_push(struct steady *s, double v, struct steady_verdict *out);
/* Rounds pushed so far and the values (owned by the tracker). */
size_t steady_count(const struct steady *s);
const double *steady_values(const struct steady *s);
/* 1-based round at which steady state was first attained, 0 if never. */
size_t steady_attained_round(const struct steady *s);
/* True when steady state was attained before and the latest window fails. */
bool steady_left(const struct steady *s);
/* The parameters in use. */
const struct steady_params *steady_params(const struct steady *s);

#endif

/* fioss.h - fio's in-job steady-state detection (fio's steadystate=,
 * steadystate_duration=, steadystate_ramp_time=): the criterion maths of
 * fio's steadystate.c, fed one sample per second, and the binning of a
 * job's interval rows into those seconds.  Pure data: no I/O, no threads;
 * the consumer thread feeds it (run/runss.c), never the I/O hot path.
 *
 * Not nvscope's SNIA steady state (stats/steady.c, `nvscope steady`): that
 * one judges rounds of a PTS test; this one stops a fio job early. */
#ifndef NVS_FIOSS_H
#define NVS_FIOSS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* fio's FIO_SS_* criterion bits, same meaning */
#define FIOSS_IOPS  0x1u /* judge IOPS (else bandwidth, bytes/s) */
#define FIOSS_SLOPE 0x2u /* least-squares slope (else max deviation from the mean) */
#define FIOSS_PCT   0x4u /* limit in percent of the window's mean */
#define FIOSS_LAT   0x8u /* judge the mean clat in ns (fio master's FIO_SS_LAT) */

/* Parses fio's steadystate= value
 * "iops|iops_slope|bw|bw_slope|lat|lat_slope:LIMIT[%]" (a bw limit without %
 * is a size: 10m = 10 MiB/s; a lat limit without % a time read as fio master
 * reads it: its number of microseconds, 100us = 1ms / 10 = 100, compared as
 * is with the criterion in ns).  0, or -EINVAL. */
int fioss_parse(const char *v, unsigned *crit, double *limit);
/* "iops", "bw" or "lat" for FIOSS_* bits @crit. */
const char *fioss_crit_name(unsigned crit);

struct fioss;
/* A detector over a window of @dur seconds (>= 1), samples counted from
 * @ramp_s seconds (fio's ss_ramp) after the job's measured start.  NULL on
 * bad arguments or no memory. */
struct fioss *fioss_new(unsigned crit, double limit, unsigned dur, double ramp_s);
/* The same with fio master's steadystate_check_interval of @check s: the
 * window holds dur / check samples, each the rates (and mean clat) of one
 * check interval; @dur must be a multiple of @check and, with @check > 1,
 * longer (fio master's rules). */
struct fioss *fioss_new_check(unsigned crit, double limit, unsigned dur, unsigned check,
			      double ramp_s);
void fioss_free(struct fioss *ss);

/* One 1-second sample (IOPS, bytes/s, all directions): fio's
 * steadystate_slope / steadystate_deviation.  Returns true once attained
 * (then further samples are ignored). */
bool fioss_add(struct fioss *ss, uint64_t iops, uint64_t bw);
/* fioss_add with the interval's mean clat in ns (fio master's lat_data). */
bool fioss_add_lat(struct fioss *ss, uint64_t iops, uint64_t bw, uint64_t lat);
/* One interval row: ends @t s after the measured start, lasts @dt s, did
 * @ios I/Os and moved @bytes.  Rows are summed into whole seconds (a row of
 * 1 s or longer is one sample); the rate of each second goes to fioss_add.
 * Returns fioss_attained. */
bool fioss_feed(struct fioss *ss, double t, double dt, double ios, double bytes);
/* fioss_feed with the row's summed clat of its @ios I/Os, ns: an interval's
 * latency is the sum over its rows / their I/Os (fio master's clat mean of
 * the samples since the previous check).  Rows are summed into check
 * intervals (fioss_new_check), not only seconds. */
bool fioss_feed_lat(struct fioss *ss, double t, double dt, double ios, double bytes,
		    double clat_ns);

bool fioss_attained(const struct fioss *ss);
unsigned fioss_crit(const struct fioss *ss);
double fioss_limit(const struct fioss *ss);
unsigned fioss_dur(const struct fioss *ss); /* seconds */
unsigned fioss_n(const struct fioss *ss);   /* samples in the window */
unsigned fioss_check(const struct fioss *ss); /* check interval, s */
double fioss_ramp_s(const struct fioss *ss);
/* The last computed figures (0 before the window first filled). */
double fioss_slope(const struct fioss *ss);
double fioss_deviation(const struct fioss *ss);
double fioss_criterion(const struct fioss *ss);
/* The window as fio reports it (stat.c): @i-th oldest of fioss_n values
 * (zeros where no sample came), and fio's integer means over the window. */
uint64_t fioss_iops_at(const struct fioss *ss, unsigned i);
uint64_t fioss_bw_at(const struct fioss *ss, unsigned i);
uint64_t fioss_iops_mean(const struct fioss *ss);
uint64_t fioss_bw_mean(const struct fioss *ss);
uint64_t fioss_lat_at(const struct fioss *ss, unsigned i); /* mean clat, ns */
uint64_t fioss_lat_mean(const struct fioss *ss);
/* fio's names: "iops_slope:0.100000%" (fio's JSON "ss") into @buf. */
const char *fioss_name(const struct fioss *ss, char *buf, size_t len);

#endif

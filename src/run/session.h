/* session.h - one console run: a list of jobs (a preset's sections, each
 * possibly a queue-depth sweep) run one pool at a time, their samples merged
 * into whole-run series (aggregate and per target) on one time axis, the
 * per-step results (the per-QD table), and the results directory
 * (samples.csv, summary.json, events.log) for `nvscope replay`.
 * No ncurses; all calls from the UI thread. */
#ifndef NVS_RUN_SESSION_H
#define NVS_RUN_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "nvscope.h"
#include "io/opt/spec.h"
#include "stats/collect.h"
#include "stats/hist.h"
#include "stats/result.h"

#define SESSION_MAX_STEPS 64

enum session_state { SESS_IDLE, SESS_RUNNING, SESS_DONE, SESS_FAILED };

/* One pool run: a job at one queue depth. */
struct session_step {
	unsigned job; /* index into the jobs */
	unsigned iodepth;
	double t0; /* start on the run's time axis, s */
	bool done;
	struct result res; /* aggregate, valid when done */
};

struct session;

/* A new idle session.  NULL when out of memory. */
struct session *session_new(void);
/* Stops and joins a running pool, writes what it has, frees.  NULL-safe. */
void session_free(struct session *s);
/* Starts @njobs jobs (copied) one after another; each job's iodepth list is
 * a sweep.  Writes results under @dir (created; NULL = no results
 * directory).  Returns 0, or -errno with one line in @err (the pool's own
 * refusal for safety: -EPERM).  On error the session stays idle/failed. */
int session_start(struct session *s, const struct spec *jobs, unsigned njobs, const char *dir,
		  char *err, size_t errlen);
/* Drains the rings, moves to the next step when a pool has ended.  Call
 * once per frame.  Returns the number of new aggregate points (>= 0). */
int session_poll(struct session *s);
/* Writes @text as one line (timestamped) to the running session's
 * events.log (overrides of the write-safety rule: docs/safety.md). */
void session_note(struct session *s, const char *text);
/* Asks the running pool to stop and skips the remaining steps; @why goes
 * to events.log ("stopped by SIGTERM"; NULL: "stopped by the user"). */
void session_stop(struct session *s, const char *why);
/* Did the last run end by a stop (session_stop) before its end? */
bool session_stopped(const struct session *s);

enum session_state session_state(const struct session *s);
/* Last error or status line ("" when none). */
const char *session_message(const struct session *s);
/* The whole-run series: aggregate (@t < 0) or of target @t.  A target's
 * points older than the newest kept at full resolution are at one coarser
 * resolution (series_rrd), when they are in its CSV in the results
 * directory: the console's memory does not grow with time.  Where
 * session_window asked, they are read back at full resolution. */
const struct series *session_series(const struct session *s, int t);
/* Per target, the newest points kept at full resolution (0: the default,
 * 128).  Before session_start. */
void session_set_history(struct session *s, size_t keep);
/* The view shows [@t0, @t1]: where that window has folded points of the
 * targets (and is at most as long as the kept points), their full-
 * resolution points are read back from the results directory into the
 * targets' series (session_series), and dropped when the view leaves.  1
 * when the targets' series changed, 0 not, -errno (a CSV not read: the
 * folded points stay). */
int session_window(struct session *s, double t0, double t1);
/* Series groups of the run: its targets, or the copies of a trace storm
 * (one target, trace_copies > 1, one job): session_series(s, t) is copy t. */
unsigned session_ntargets(const struct session *s);
/* The copies of a trace storm (its groups), 0 when not one. */
unsigned session_copies(const struct session *s);
/* Target path @t of the run. */
const char *session_target(const struct session *s, unsigned t);
/* The jobs' first spec (name, rw, ...); NULL before a start. */
const struct spec *session_spec(const struct session *s);
/* Steps: count, the current one (index), and step @i. */
unsigned session_nsteps(const struct session *s);
unsigned session_cur_step(const struct session *s);
const struct session_step *session_step(const struct session *s, unsigned i);
/* Run-wide latency histogram of direction @d (measured intervals only), and
 * of the current step. */
const struct hist *session_hist(const struct session *s, enum nvs_dir d);
const struct hist *session_step_hist(const struct session *s, enum nvs_dir d);
/* Appends one health reading (run time @t, temperature in C or NAN,
 * thermal-throttle transitions since the start) to DIR/health.csv of the
 * running session (created on first use).  0 or -errno. */
int session_record_health(struct session *s, double t, double temp_c, double throttle);
/* Percentile @pct (us, both directions) of the interval of the current
 * step that ends at run time @t (a point's t); NAN when that interval is no
 * longer (or not yet) held - only the last few intervals of a running step
 * are. */
double session_interval_pct(const struct session *s, double t, double pct);
/* Seconds since start / the planned total (0 = unknown): the steps that
 * ended count what they took, the rest what they plan. */
double session_elapsed(const struct session *s);
double session_planned(const struct session *s);
/* Dropped samples (full rings) plus missing worker samples, whole run. */
uint64_t session_dropped(const struct session *s);
/* The results directory ("" when none). */
const char *session_dir(const struct session *s);
/* True for an empty tail row (no I/O, no error, under a quarter of
 * @interval_ns long): such rows are left out of the run series. */
bool session_empty_tail(const struct point *p, uint64_t interval_ns);
/* Makes the default results directory name "results/<YYYYmmdd-HHMMSS>-<name>". */
void session_default_dir(const char *name, char *buf, size_t len);

#endif

/* source.h - what the console reads and controls, as one table of
 * functions per data source (as nvtop's extract_gpuinfo_common.h has one
 * per GPU vendor): a live run (source.c over session.c), a plan run by the
 * console or followed or played back through its results directory
 * (plansrc.c over planexec.c, planview.c and replay.c), and a results
 * directory played back (replay.c); later remote hosts plug in as another
 * table.  Optional figures are announced by validity bits in struct
 * source_info, optional operations by the capability bits of
 * source_ops.caps; never by asking which source it is.
 *
 * The console holds one source at a time, made by a constructor below when
 * what it shows changes (a run starts, a plan starts, a directory is
 * opened), and reads every datum through it: it opens no results file and
 * names no concrete source.  UI thread only; nothing here draws. */
#ifndef NVS_RUN_SOURCE_H
#define NVS_RUN_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "run/resdir.h"
#include "stats/collect.h"
#include "stats/hist.h"
#include "stats/rounds.h"

/* validity bits of struct source_info */
#define SOURCE_HAS_PLANNED  (1u << 0) /* planned_s: the run's planned length */
#define SOURCE_HAS_DROPPED  (1u << 1) /* dropped: samples lost on rings */
#define SOURCE_HAS_HIST	    (1u << 2) /* hist(): the run's full histograms */
#define SOURCE_HAS_IVAL_PCT (1u << 3) /* interval_pct(): a recent interval's percentile */
#define SOURCE_HAS_CURSOR   (1u << 4) /* a play position: now_s may lie before the end */
#define SOURCE_FILE_ROUNDS  (1u << 5) /* rounds only from the source (rounds()), never cut */
#define SOURCE_HAS_HEALTH   (1u << 6) /* the run recorded health readings (health()) */
#define SOURCE_HAS_RUN_PCT  (1u << 7) /* run_pct(): the whole run's percentiles, from its file */

/* capability bits of source_ops.caps: the optional operations */
#define SOURCE_CAN_START (1u << 0) /* start(): runs jobs (the live source) */
#define SOURCE_CAN_STOP	 (1u << 1) /* stop(): a run of this console */
#define SOURCE_CAN_PLAY	 (1u << 2) /* seek(), play(), speed(): a play position */
#define SOURCE_VIEW_ONLY (1u << 3) /* a results directory: nothing to set up or start */
#define SOURCE_HAS_STEPS (1u << 4) /* plan(), plan_state(), step_result(): a plan */

struct source_info {
	unsigned valid;	       /* SOURCE_HAS_* */
	const char *state;     /* "RUNNING", "DONE", "FAILED", "IDLE", "REPLAY", "PAUSED", "PLAN" */
	const char *name;      /* the run's name ("" live: the console names its runs) */
	const char *dir;       /* the results directory this console writes, "" none */
	double now_s;	       /* the time shown: elapsed, or the play position */
	double end_s;	       /* the last sample's time */
	double planned_s;      /* SOURCE_HAS_PLANNED */
	double round_origin_s; /* where rounds of the current workload start */
	double speed;	       /* SOURCE_CAN_PLAY: the play speed (1: real time) */
	const char *title;     /* the target, or the directory played */
	char step[96];	       /* " QD32 2/5", " step 2/7 precondition 4k", "" */
	const char *step_kind; /* a plan step's kind ("rate-curve", "grid"), "" */
	const char *rows_from; /* where the per-QD rows come from, "" live */
	unsigned epoch;	       /* changes when the step shown changes (derived views restart) */
	uint64_t dropped;      /* SOURCE_HAS_DROPPED */
};

/* A per-QD row's state. */
enum source_row { SOURCE_ROW_PENDING, SOURCE_ROW_RUNNING, SOURCE_ROW_DONE };

#define SOURCE_MAX_MARKS 64 /* markers a run has at most (its steps) */

/* A marker on the strips at time @t (a QD or plan step change), labelled
 * @label where there is room. */
struct source_mark {
	double t;
	char label[16];
};

/* One health reading of the run's first NVMe controller (t first, as in
 * struct point, so the strips plot it as a series). */
struct source_health {
	double t;
	double temp_c;	 /* NAN when not valid */
	double throttle; /* thermal transitions since the run's start */
	uint8_t crit;	 /* SMART critical warning bits, 0 none */
};

/* Rounds the source brings (a plan step's rounds.csv: one pool per round),
 * on the source's time axis from @t0, with the rule the step ran with
 * (@has_rule: steady.json or the plan file said it; SNIA only). */
struct source_rounds {
	const struct rounds *r;
	double t0;
	bool has_rule;
	struct steady_params rule;
};

/* What poll() saw change. */
#define SOURCE_CHANGED_DATA (1u << 0) /* samples, rows or the play position: redraw */
#define SOURCE_CHANGED_STEP (1u << 1) /* the step shown changed: views built on it restart */

/* Something that happened in the source, for the status line and the
 * event list (a plan step that ended, the run's end). */
enum source_level { SOURCE_EV_OK, SOURCE_EV_WARN, SOURCE_EV_ERROR };
#define SOURCE_EV_ENDED	  (1u << 0) /* the run ended (a workload that wrote: rescan) */
#define SOURCE_EV_WROTE	  (1u << 1) /* a step that purged or wrote ended: rescan */
#define SOURCE_EV_URGENT  (1u << 2) /* shown at once, over a fresh message */
#define SOURCE_EV_MESSAGE (1u << 3) /* a message, not an event (a run that did not start) */
struct source_event {
	enum source_level level;
	unsigned flags; /* SOURCE_EV_* */
	char text[512];
};

/* The state of a plan (SOURCE_HAS_STEPS). */
struct source_plan_state {
	unsigned cur;	  /* the step shown: current, or at the play position */
	bool finished;	  /* over there (the plan ended, or played to the end) */
	bool has_sub;	  /* @sub is known (a plan running, not a replay) */
	unsigned sub;	  /* rounds or measurements done in step @cur */
	double elapsed_s; /* seconds step @cur has run (at the play position) */
};

struct plan;
struct plan_step;
struct spec;

/* A plan step's result as the plan wrote it (step.json, steady.json:
 * attained at round N, or not attained with range and slope against the
 * limits), read by planres.c; step_result() gives it. */
struct planres {
	bool done;	  /* step.json says "done" */
	bool has_verdict; /* steady.json (precondition, matrix) was read */
	bool attained;	  /* steady state reached (has_verdict) */
	unsigned round;	  /* the round it was reached at (attained) */
	unsigned rounds;  /* rounds run */
	unsigned window;  /* the rule's window */
	bool has_pct;	  /* range_pct/slope_pct of the last window */
	double avg;	  /* window average */
	double range_pct, slope_pct;
	double range_limit, slope_limit;
};

struct source_ops {
	const char *name; /* "live", "replay", "plan" */
	unsigned caps;	  /* SOURCE_CAN_*, SOURCE_VIEW_ONLY, SOURCE_HAS_STEPS */

	/* ---- reads: every source ---- */
	/* Targets with their own series (>= 1) and their paths ("" unknown). */
	unsigned (*ntargets)(const void *ctx);
	const char *(*target)(const void *ctx, unsigned t);
	/* The series drawn: aggregate (@t < 0) or target @t, up to the time
	 * shown.  Never NULL (an empty series); valid until the next call. */
	const struct series *(*series)(void *ctx, int t);
	void (*info)(const void *ctx, struct source_info *out);
	/* Per-QD rows: their count and the current one (*@cur), then row @i. */
	int (*nrows)(const void *ctx, int *cur);
	enum source_row (*row)(const void *ctx, unsigned i, struct resdir_row *q);
	/* The markers where the run changes step, in time order, up to the
	 * time shown (room for @max); the count. */
	int (*marks)(void *ctx, struct source_mark *m, int max);
	/* The health readings up to the time shown (*@pts valid until the next
	 * call); the count, 0 none. */
	size_t (*health)(const void *ctx, const struct source_health **pts);
	/* Once per frame: the run's rings, the results directory followed, the
	 * play position moved by @dt seconds.  SOURCE_CHANGED_* bits. */
	unsigned (*poll)(void *ctx, double dt);
	/* The next event since the last call into *@ev: true, or false when
	 * there is none. */
	bool (*event)(void *ctx, struct source_event *ev);
	/* Whether a run of this console goes on (a workload, a plan). */
	bool (*running)(const void *ctx);
	/* Appends @text (one line) to the events.log of the run while it goes
	 * on (and while its end is reported): never into a run that is over.
	 * 0, or -errno (-ESRCH: no run to log to). */
	int (*note)(void *ctx, const char *text);

	/* ---- optional: NULL when not offered ---- */
	/* SOURCE_HAS_HIST: the run's full histogram of direction @d. */
	const struct hist *(*hist)(const void *ctx, int d);
	/* SOURCE_HAS_IVAL_PCT: percentile @pct of the interval ending at @t. */
	double (*interval_pct)(const void *ctx, double t, double pct);
	/* SOURCE_HAS_RUN_PCT (a source without the histograms, at the end of
	 * the run): the whole run's latency percentile @pct (99 or 99.99), us,
	 * of direction @d or of both (-1); NAN where the file has none. */
	double (*run_pct)(const void *ctx, int d, double pct);
	/* Rounds the source brings for the step shown; NULL when none. */
	const struct source_rounds *(*rounds)(void *ctx);
	/* SOURCE_CAN_START: starts @n jobs (copied) under results directory
	 * @dir.  0, or -errno with @err. */
	int (*start)(void *ctx, const struct spec *jobs, unsigned n, const char *dir, char *err,
		     size_t len);
	/* SOURCE_CAN_STOP: asks the run to stop (@why to its events.log; NULL:
	 * "stopped by the user"). */
	void (*stop)(void *ctx, const char *why);
	/* A health reading of the running workload (recorded to health.csv). */
	void (*add_health)(void *ctx, const struct source_health *h);
	/* SOURCE_CAN_PLAY: moves the play position to @t (clamped); pauses
	 * (@pause 1), plays (0) or toggles (-1) - playing at the end restarts;
	 * multiplies the speed by @f (0.25 .. 4096). */
	void (*seek)(void *ctx, double t);
	void (*play)(void *ctx, int pause);
	void (*speed)(void *ctx, double f);
	/* The strips show [@t0, @t1] (s on the source's axis): a source that
	 * keeps older points coarser (the live run: session_window) reads that
	 * window back at full resolution for the targets' series.  1 when
	 * series() changed, 0 not, -errno (the coarse points stay). */
	int (*window)(void *ctx, double t0, double t1);
	/* SOURCE_HAS_STEPS: the plan as its file reads, its state, and step
	 * @i's result (NULL: none read). */
	const struct plan *(*plan)(const void *ctx);
	void (*plan_state)(const void *ctx, struct source_plan_state *out);
	const struct planres *(*step_result)(const void *ctx, unsigned i);

	void (*free)(void *ctx);
};

struct source {
	const struct source_ops *ops;
	void *ctx;
};

/* ---- constructors (the only names of concrete sources the console uses) ---- */

/* An idle live source (SOURCE_CAN_START): the console's workloads.  0 or
 * -ENOMEM. */
int source_live(struct source *out);
/* A plan the console runs: @p (started by source_pending_start) is taken
 * over and freed; its results directory is followed.  0, or -errno with
 * @err (the source is made all the same: it shows the plan's state without
 * its samples). */
struct source_pending;
int source_plan(struct source_pending *p, struct source *out, char *err, size_t len);
/* Results directory @dir: a plan still running elsewhere (followed), a
 * finished plan (its steps played one after another) or a run (played).
 * 0, or -errno with @err (*@out untouched). */
int source_open(const char *dir, struct source *out, char *err, size_t len);
/* The default results directory of a run named @name:
 * "results/<YYYYmmdd-HHMMSS>-<name>". */
void source_default_dir(const char *name, char *buf, size_t len);
/* Frees a source (NULL-safe) and leaves @s as source_none. */
void source_free(struct source *s);
/* A source with nothing to show (no series, no rows). */
void source_none(struct source *out);

/* ---- for the tables: the operations of a source that has no such thing ---- */
int source_no_marks(void *ctx, struct source_mark *m, int max);
size_t source_no_health(const void *ctx, const struct source_health **pts);
unsigned source_no_poll(void *ctx, double dt);
bool source_no_event(void *ctx, struct source_event *ev);
bool source_not_running(const void *ctx);
int source_no_note(void *ctx, const char *text);

/* ---- other hosts the console watches (hostsrc.c over run/remote.c,
 * docs/hosts.md "The console"): each host's agent over ssh, its drives and
 * their health, whether it answers, its clock.  Polled on the UI thread,
 * never blocking. ---- */
struct source_hosts;
struct remote_opts;
struct dev_list;
enum source_host_state {
	SOURCE_HOST_CONNECTING, /* not answered yet (ssh, the hello) */
	SOURCE_HOST_UP,		/* answering: heartbeats within the deadline */
	SOURCE_HOST_LOST,	/* not answering (why says it); tried again on its own */
};
struct source_host {
	const char *name; /* the ssh destination as given */
	enum source_host_state state;
	const char *why;	     /* LOST: one line, "" otherwise */
	const char *version;	     /* its nvscope, "" before the hello */
	const struct dev_list *devs; /* its drives as last listed (NULL: not yet) */
	double since;		     /* seconds in this state */
	bool clock_valid;	     /* offset_s/rtt_s known (UP) */
	double offset_s, rtt_s;	     /* its clock minus ours; the round trip */
};
/* Something that happened to a host, for the event list: "h3: lost: ...". */
struct source_host_event {
	char *text; /* valid until the next source_hosts_event call */
	bool bad;
};
/* Watches hosts @dests[0..@n) (ssh destinations) with @o (keepalive is
 * set; lost_ns 0: 3 s, so a cut shows within 5 s).  NULL with @err. */
struct source_hosts *source_hosts_new(const char *const *dests, size_t n,
				      const struct remote_opts *o, char *err, size_t len);
/* Handles what came from every host, the deadlines, new tries and the
 * periodic listings; never waits. */
void source_hosts_poll(struct source_hosts *s);
size_t source_hosts_count(const struct source_hosts *s); /* 0 for NULL */
/* Host @i as now (its strings and list live until the next poll). */
void source_hosts_get(const struct source_hosts *s, size_t i, struct source_host *out);
/* The oldest event not taken yet; false when none. */
bool source_hosts_event(struct source_hosts *s, struct source_host_event *ev);
void source_hosts_free(struct source_hosts *s); /* NULL-safe; every ssh killed */

/* ---- a plan the console starts (planstart.c over planexec.c): loaded and
 * checked on the UI thread, then started in a thread of its own and shown
 * through source_plan() ---- */

/* Loads plan @name (a file or a name in presets/plans) for the @n targets
 * @targets.  0 with *@out (free with source_pending_free), or -ENOENT /
 * -EINVAL / -ENOMEM with one line in @err. */
int source_pending_new(const char *name, const char *const *targets, unsigned n,
		       struct source_pending **out, char *err, size_t len);
/* NULL-safe (a plan never started). */
void source_pending_free(struct source_pending *p);
/* A duration override (planexec_override's keys).  0 or -errno with @err. */
int source_pending_override(struct source_pending *p, const char *key, const char *val, char *err,
			    size_t len);
/* The plan's name and whether it purges or writes. */
const char *source_pending_name(const struct source_pending *p);
bool source_pending_destroys(const struct source_pending *p);
/* Whether the comma list @confirm (--yes-destroy-data) confirms every
 * target; when not, @need gets what the first unconfirmed target needs
 * typed and @target its path. */
bool source_pending_confirmed(const struct source_pending *p, const char *confirm, char *need,
			      size_t nlen, char *target, size_t tlen);
/* Target @i of the plan, NULL past the last. */
const char *source_pending_target(const struct source_pending *p, unsigned i);
/* Creates results directory @dir (NULL or "": the default) and starts the
 * plan's thread (planexec_start); then give @p to source_plan().  0 or
 * -errno with @err (nothing started: free @p). */
int source_pending_start(struct source_pending *p, const char *dir, const char *confirm, bool force,
			 char *err, size_t len);

/* ---- a plan's figures for its step list (planres.c) ---- */

/* Whether plan @p purges or writes (as `nvscope plan` decides it). */
bool source_plan_writes(const struct plan *p);
/* A finished precondition/matrix that did not reach steady state. */
bool planres_failed(const struct planres *r);
/* Seconds step @st is planned to take at most (a precondition may end
 * before its maximum rounds); 0 when it is not known in advance (a purge,
 * a fill: it depends on the drive). */
double planres_step_seconds(const struct plan_step *st);
/* Measurement units of step @st (rounds, queue depths, points, cells), 0
 * when it has none (purge, fill). */
unsigned planres_step_units(const struct plan_step *st);
/* Seconds left in plan @p when step @cur has run @elapsed seconds: that
 * step's remainder (never below 0) plus the later steps.  *@unknown is set
 * when a step still to run has no planned length (the ETA is then a lower
 * bound); *@upper when a precondition may end earlier. */
double planres_eta(const struct plan *p, unsigned cur, double elapsed, bool *unknown, bool *upper);
/* "1h02m", "12m05s", "45s" (@s < 0 or not finite: "?"). */
void planres_fmt_dur(double s, char *buf, size_t len);

#endif

/* source.h - what the console reads, as one table of functions per data
 * source (as nvtop's extract_gpuinfo_common.h has one per GPU vendor): a
 * live run (session.c), a results directory played back (replay.c) and a
 * plan followed through its results directory (planview.c); later remote
 * hosts or a trace replay plug in as another table.  Optional figures are
 * announced by validity bits in struct source_info, never by asking which
 * source it is.  UI thread only; nothing here draws. */
#ifndef NVS_RUN_SOURCE_H
#define NVS_RUN_SOURCE_H

#include <stdbool.h>
#include <stdint.h>
#include "run/resdir.h"
#include "stats/collect.h"
#include "stats/hist.h"

/* validity bits of struct source_info */
#define SOURCE_HAS_PLANNED  (1u << 0) /* planned_s: the run's planned length */
#define SOURCE_HAS_DROPPED  (1u << 1) /* dropped: samples lost on rings */
#define SOURCE_HAS_HIST	    (1u << 2) /* hist(): the run's full histograms */
#define SOURCE_HAS_IVAL_PCT (1u << 3) /* interval_pct(): a recent interval's percentile */
#define SOURCE_HAS_CURSOR   (1u << 4) /* a play position: now_s may lie before the end */
#define SOURCE_FILE_ROUNDS  (1u << 5) /* rounds only from the source's rounds.csv */

struct source_info {
	unsigned valid;	       /* SOURCE_HAS_* */
	const char *state;     /* "RUNNING", "DONE", "FAILED", "IDLE", "REPLAY", "PLAN" ... */
	double now_s;	       /* the time shown: elapsed, or the play position */
	double end_s;	       /* the last sample's time */
	double planned_s;      /* SOURCE_HAS_PLANNED */
	double round_origin_s; /* where rounds of the current workload start */
	const char *title;     /* the target, or the directory played */
	char step[96];	       /* " QD32 2/5", " step 2/7 precondition 4k", "" */
	const char *step_kind; /* a plan step's kind ("rate-curve", "grid"), "" */
	const char *rows_from; /* where the per-QD rows come from, "" live */
	uint64_t dropped;      /* SOURCE_HAS_DROPPED */
};

/* A per-QD row's state. */
enum source_row { SOURCE_ROW_PENDING, SOURCE_ROW_RUNNING, SOURCE_ROW_DONE };

struct source_ops {
	const char *name; /* "live", "replay", "plan" */
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
	/* SOURCE_HAS_HIST: the run's full histogram of direction @d. */
	const struct hist *(*hist)(const void *ctx, int d);
	/* SOURCE_HAS_IVAL_PCT: percentile @pct of the interval ending at @t. */
	double (*interval_pct)(const void *ctx, double t, double pct);
};

struct source {
	const struct source_ops *ops;
	void *ctx;
};

/* A source with nothing to show (no series, no rows). */
void source_none(struct source *out);

#endif

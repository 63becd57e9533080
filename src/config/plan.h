/* plan.h - test plans: a review / SNIA PTS procedure as an INI file in the
 * preset syntax (fio option names), one section per step, run in order:
 *
 *   [plan]                       name=, description=, default parameters
 *   [global]                     fio options for every workload step
 *   [purge]                      method=trim|format|sanitize-*, ses=
 *   [fill]                       passes=2 (x capacity), 128k seq write
 *   [precondition LABEL]         the workload in rounds until steady state
 *   [measure LABEL]              each iodepth of a list for runtime
 *   [rate-curve LABEL]           max, then points=10,...,100,110 % of it
 *   [grid LABEL]                 threads= x iodepth= cells
 *   [matrix LABEL]               bs_list= x mixes= cells, in rounds
 *
 * A section is "KIND" or "KIND LABEL"; the same name twice is an error.
 * Precedence of a step's settings: the caller's base spec (targets), then
 * [global], then the step kind's defaults, then [plan] parameters, then the
 * step's own keys, then plan_override() (command-line duration overrides).
 * docs/plans.md is the user documentation. */
#ifndef NVS_PLAN_H
#define NVS_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dev/purge.h"
#include "io/opt/spec.h"
#include "stats/steady.h"

#define PLAN_MAX_STEPS 64
#define PLAN_MAX_LIST  32
#define PLAN_MAX_BYTES (4u << 20) /* a plan file: a bigger one is refused */

enum plan_step_kind {
	STEP_PURGE,
	STEP_FILL,
	STEP_PRECONDITION,
	STEP_MEASURE,
	STEP_RATE_CURVE,
	STEP_GRID,
	STEP_MATRIX,
};

/* The per-round variable that steady state tracks. */
enum plan_track { TRACK_IOPS, TRACK_READ_IOPS, TRACK_WRITE_IOPS, TRACK_BW };

struct plan_step {
	enum plan_step_kind kind;
	char name[64];	  /* the section name: "measure 4k-randread" */
	char label[64];	  /* "4k-randread", or the kind's name */
	unsigned line;	  /* line of the section header */
	struct spec spec; /* the workload (unused by purge) */

	/* purge */
	enum purge_method purge_method;
	int purge_ses;
	/* fill */
	double fill_passes; /* multiples of the region (default 2) */
	/* precondition, matrix: rounds until steady state */
	uint64_t round_ns;   /* precondition: length of one round */
	unsigned max_rounds; /* cap (default 25); matrix: 1 = one pass */
	struct steady_params ss;
	enum plan_track track;
	/* measure, rate-curve, grid, matrix: time per measurement */
	uint64_t runtime_ns;
	uint64_t ramp_ns;
	/* rate-curve: % of the measured maximum */
	double points[PLAN_MAX_LIST];
	unsigned npoints;
	/* grid: workers per target; the queue depths are spec.iodepth[] */
	unsigned threads[PLAN_MAX_LIST];
	unsigned nthreads;
	/* matrix: block sizes x read percentages; the tracked cell */
	uint32_t mbs[PLAN_MAX_LIST];
	unsigned nmbs;
	unsigned mixes[PLAN_MAX_LIST];
	unsigned nmixes;
	uint32_t track_bs;
	unsigned track_mix;
};

struct plan {
	char name[64];
	char description[256];
	char path[512]; /* the file it came from ("" for a string) */
	char *text;	/* the exact plan text (NUL-terminated) */
	struct plan_step *steps;
	unsigned nsteps;
};

/* Parses plan text @text (named @fname in messages).  Each workload step
 * starts from a copy of @base (may be NULL: spec_init defaults); when @base
 * has targets, every workload is checked with spec_validate.  Errors are one
 * line "fname:LINE: why".  Returns 0 with *@out owned by the caller
 * (plan_free), or -EINVAL / -ENOMEM. */
int plan_parse(const char *text, const char *fname, const struct spec *base, struct plan **out,
	       char *err, size_t errlen);
/* Reads and parses file @path (see plan_parse).  -ENOENT etc. when the file
 * cannot be read. */
int plan_load(const char *path, const struct spec *base, struct plan **out, char *err,
	      size_t errlen);
/* Resolves @name: a path to an existing file, or NAME.ini in
 * $NVSCOPE_PRESETS/plans, ./presets/plans, the binary's
 * ../share/nvscope/presets/plans, the binary's presets/plans (source tree)
 * and /usr/share/nvscope/presets/plans.  0 or -ENOENT. */
int plan_find(const char *name, char *path, size_t len);
/* The first of plan_find's directories that exists, into @dir.  0 or
 * -ENOENT. */
int plan_dir(char *dir, size_t len);
/* NULL-safe. */
void plan_free(struct plan *p);

/* Applies a command-line override to every step it concerns:
 *   runtime (measure, rate-curve, grid, matrix cells), ramp_time,
 *   round (precondition round length), max_rounds, fill (passes),
 *   iodepth (measure and grid lists), window, range, slope (steady state).
 * Returns 0, -ENOENT for an unknown key, -EINVAL for a bad value (@err). */
int plan_override(struct plan *p, const char *key, const char *val, char *err, size_t errlen);

/* "purge", "fill", "precondition", "measure", "rate-curve", "grid", "matrix". */
const char *plan_step_kind_name(enum plan_step_kind k);
/* "iops", "read_iops", "write_iops", "bw". */
const char *plan_track_name(enum plan_track t);

#endif

/* planrun.h - executing a parsed plan into a results directory, with the
 * state saved after every step, round and measurement so that a run can be
 * resumed (internal to `nvscope plan`; see plan.c and docs/plans.md). */
#ifndef NVS_PLANRUN_H
#define NVS_PLANRUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "config/plan.h"
#include "stats/series.h"

#define PLANRUN_MAX_VALUES 100000

/* The resumable position: step index, progress inside it, and what the
 * step carries between measurements. */
struct planrun_state {
	unsigned step;	 /* next step to run (nsteps: finished) */
	unsigned sub;	 /* measurements/rounds/cells done in that step */
	double t_offset; /* seconds of samples already in samples.csv */
	double *values;	 /* tracked value per finished round (malloc'ed) */
	unsigned nvalues;
	double max_iops;  /* rate curve: the measured maximum */
	double cur_track; /* matrix: tracked cell of the unfinished round */
	bool cur_track_valid;
	long sizes[3];	/* bytes of samples.csv, table, table2 at the checkpoint */
	double started; /* step start (unix time) */
};

/* One point for a console that runs the plan (planrun.feed): step @step's
 * aggregate (@target -1) or target @target, in the step's time (as in the
 * step's samples.csv). */
struct planrun_pt {
	unsigned step;
	int target;
	struct point pt;
};

struct spsc;
struct planrun {
	struct plan *plan;
	const char *dir;     /* results directory */
	const char *confirm; /* --yes-destroy-data value */
	struct planrun_state st;
	atomic_int *stop; /* set by the signal handler */
	bool quiet;
	char plan_name[64]; /* from state.json on --resume */
	/* the command line to record in state.json (for --resume) */
	char targets[NVS_MAX_TARGETS][256];
	unsigned ntargets;
	uint64_t stripe;
	bool force;
	char overrides[32][2][128];
	unsigned noverrides;
	/* NULL, or a ring of struct planrun_pt the plan's thread pushes every
	 * row into as it writes samples.csv, aggregate and per target: the
	 * console's in-memory feed (planexec.c -> planview.c) */
	struct spsc *feed;
};

/* Runs the steps from r->st onwards.  Returns 0, -EINTR (stopped through
 * r->stop), -EIO (the state could not be saved) or the step's -errno (a
 * refusal or bad workload: -EPERM, -EINVAL ...; an I/O failure); the
 * state allows --resume after any of them.  cmd/ maps it to an exit
 * status with cmd_exit_of(). */
int planrun_run(struct planrun *r);
/* Writes state.json atomically (tmp + rename).  0 or -errno. */
int planrun_save(const struct planrun *r);
/* Reads DIR/state.json into @r (targets, overrides, state).  0 or -errno
 * with @err set. */
int planrun_load(struct planrun *r, const char *dir, char *err, size_t errlen);
/* Writes @dir/summary.json: the jobs of @dir/qdN.json for the @n queue
 * depths @qd, in order (the layout of `nvscope run`'s QD sweep, which
 * `nvscope replay` reads).  0, -ENOENT when no file was found, -errno. */
int planrun_summary(const char *dir, const unsigned *qd, unsigned n);
/* ---- plandir.c: the results directory around planrun_run() ---- */

/* A purge, or any step that writes: the plan destroys data. */
bool planrun_destroys(const struct plan *p);
/* The command that resumes run @r as printed for the user to paste:
 * "nvscope plan --resume DIR" (DIR quoted for a shell where needed), and
 * for a plan that destroys data the confirmation it needs
 * ("--yes-destroy-data=SERIAL,..." with each target's token), which
 * --resume asks for.  Cut output is refused: -ENOSPC. */
int planrun_resume_cmd(const struct planrun *r, char *buf, size_t len);
/* Is another nvscope plan running in results directory @dir (its .lock
 * held)?  Asked before anything else on --resume, so that answer comes at
 * once, not after the checks of targets that plan holds.  Opens nothing
 * for writing, creates nothing. */
bool planrun_busy(const char *dir);
/* "results/NAME-YYYYmmdd-HHMMSS" for a run of @p starting now. */
void planrun_default_dir(const struct plan *p, char *buf, size_t len);
/* Creates results directory @dir (absent or empty: -EEXIST otherwise) with
 * plan.ini, VERSION, device-before.json and the first state.json; sets
 * r->dir = @dir (kept by reference).  0 or -errno with @err. */
int planrun_create_dir(struct planrun *r, const char *dir, char *err, size_t errlen);
/* Takes the one-run lock of r->dir.  Returns the descriptor to close when
 * done, or -EBUSY (another run holds it) / -errno with @err. */
int planrun_lock(const struct planrun *r, char *err, size_t errlen);
/* Writes r->dir/meta.json: plan, targets, overrides, steps, status
 * ("running", "done", "interrupted", "failed"), times; @started_by may be
 * NULL ("console" for the console). */
void planrun_write_meta(const struct planrun *r, const char *status, double started,
			const char *started_by);
/* Device identity (and NVMe health) of every target into r->dir/@name. */
void planrun_write_devices(const struct planrun *r, const char *name);
/* May r->plan run on r->targets with r->confirm and r->force?  The one
 * check of a fresh start, the console and --resume alike: a plan that
 * writes or purges needs every target's confirmation token
 * (safety_confirmed: --yes-destroy-data) and every target must pass the
 * write-safety rule with r->force (in use: never; data: --force-destroy),
 * a [purge] like a fill.  0, -EACCES (not confirmed) or -EPERM (refused),
 * with one line in @err and the index of the target in *@bad (may be NULL). */
int planrun_may_run(const struct planrun *r, unsigned *bad, char *err, size_t errlen);
/* Pins every target of @r by identity (safety_pin_hold), to be done
 * before a check of the targets: the check then judges what is pinned and
 * every later open must find it (docs/safety.md, cause 2).  0, or -errno
 * with @err (nothing held).  planrun_unpin() releases them; pins may be
 * held twice (`nvscope plan` pins before checking its steps, then
 * planrun_begin pins again): every pin of a name must match. */
int planrun_pin(const struct planrun *r, char *err, size_t errlen);
void planrun_unpin(const struct planrun *r);
/* The one life cycle of a plan's results directory, for `nvscope plan`
 * and the console alike: planrun_begin, planrun_run, planrun_end.
 * planrun_begin pins the targets (planrun_pin) first; then a fresh start
 * (!@resume) checks planrun_may_run and creates @dir (planrun_create_dir);
 * a resume sets r->dir = @dir and checks planrun_may_run once it holds the
 * lock.  Then takes the one-run lock and
 * writes meta.json "running" (@started: unix time; @started_by as for
 * planrun_write_meta).  Returns the lock's descriptor (give it to
 * planrun_end), or -errno with one line in @err (nothing left locked or
 * pinned). */
int planrun_begin(struct planrun *r, const char *dir, bool resume, double started,
		  const char *started_by, char *err, size_t errlen);
/* After planrun_run returned @rc: releases planrun_begin's pins; 0 writes
 * device-after.json and meta.json "done"; otherwise meta.json
 * "interrupted" (*r->stop set) or "failed".  Closes @lockfd (when >= 0). */
void planrun_end(struct planrun *r, int lockfd, int rc, double started, const char *started_by);
/* Writes cJSON tree @json to @dir/@name (with a final newline); errors are
 * ignored (the state file, not these, is what resume relies on). */
void planrun_write_json(const char *dir, const char *name, void *json);
/* Writes @dir/step.json of step @i: kind, label, name, index, @status
 * ("running", "done"), r->st.started, @finished (unix time; omitted when
 * 0), the workload's rw, bs, numjobs, rwmixread. */
void planrun_write_step(const struct planrun *r, unsigned i, const char *dir, const char *status,
			double finished);
/* Directory name of step @i: "03-precondition-4k-randwrite". */
void planrun_step_dir(const struct plan *p, unsigned i, char *buf, size_t len);

#endif

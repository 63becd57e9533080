/* planview.h - the console's view of a plan that runs elsewhere (the plan
 * thread of planexec.h, or another `nvscope plan`): everything comes from
 * the results directory it writes - the steps from DIR/plan.ini, the current
 * step from DIR/state.json, the step's samples.csv as it grows (complete
 * lines only), its per-QD table (qd.csv) and its rounds (rounds.csv, read by
 * steadyview.c).  A plan the console runs itself (planexec.h) feeds its rows
 * in memory instead, aggregate and per target, over an SPSC ring (the same
 * rows it writes to samples.csv, which stays for replay).  No ncurses; UI
 * thread only. */
#ifndef NVS_RUN_PLANVIEW_H
#define NVS_RUN_PLANVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include "stats/collect.h"
#include "stats/steady.h"
#include "run/resdir.h"

struct planview;
struct plan;

/* Opens the view of results directory @dir: parses DIR/plan.ini (written
 * before a plan starts).  0 with *@out (planview_free), or -errno with @err. */
int planview_new(const char *dir, struct planview **out, char *err, size_t errlen);
/* NULL-safe. */
void planview_free(struct planview *v);
/* Reads what changed: state.json, the current step's new samples, its
 * table.  Returns true when anything shown changed. */
bool planview_poll(struct planview *v);

/* The plan's name and first target (from state.json; "" until read). */
const char *planview_name(const struct planview *v);
const char *planview_target(const struct planview *v);
unsigned planview_nsteps(const struct planview *v);
/* The step shown: the one running, the last one when finished. */
unsigned planview_cur(const struct planview *v);
/* state.json says finished. */
bool planview_finished(const struct planview *v);
/* Rounds or measurements done in the current step (state.json "sub"). */
unsigned planview_sub(const struct planview *v);
/* Step @i: its section name ("precondition 4k-randwrite") and kind name. */
const char *planview_step_name(const struct planview *v, unsigned i);
const char *planview_step_kind(const struct planview *v, unsigned i);
/* The steady-state rule of step @i as the plan file sets it (command-line
 * overrides are not in plan.ini); NULL when out of range. */
const struct steady_params *planview_step_rule(const struct planview *v, unsigned i);
/* The plan as its plan.ini reads (steps, durations); owned by the view. */
const struct plan *planview_plan(const struct planview *v);
/* Directory of step @i (DIR/NN-kind-label) into @buf.  0, or -EINVAL
 * (no such step) / -ENAMETOOLONG (never a cut path). */
int planview_step_dir_of(const struct planview *v, unsigned i, char *buf, size_t len);
/* The current step's directory (DIR/NN-kind-label). */
const char *planview_step_dir(const struct planview *v);
/* The current step's samples so far: from the plan's in-memory feed when
 * it runs in this process (planview_set_exec), else from its samples.csv. */
const struct series *planview_series(const struct planview *v);
/* Targets with their own series (the feed's; 1 without it) and target @t's
 * series (NULL past the last; with one target, the aggregate). */
unsigned planview_ntargets(const struct planview *v);
const struct series *planview_target_series(const struct planview *v, unsigned t);
/* The current step's table as per-QD rows (measure: qd.csv; grid: one row
 * per cell with qd = threads x QD; rate-curve: qd = the point %).
 * Owned by the view. */
const struct resdir_row *planview_rows(const struct planview *v, int *n);

/* The plan's thread when the console runs it (NULL: following a directory
 * written elsewhere): the view's state then says how it ended. */
struct planexec;
void planview_set_exec(struct planview *v, const struct planexec *pe);
const struct planexec *planview_exec(const struct planview *v);

#endif

/* planview.h - the console's view of a plan that runs elsewhere (the plan
 * thread of planexec.h, or another `nvscope plan`): everything comes from
 * the results directory it writes - the steps from DIR/plan.ini, the current
 * step from DIR/state.json, the step's samples.csv as it grows (complete
 * lines only), its per-QD table (qd.csv) and its rounds (rounds.csv, read by
 * steadyview.c).  No ncurses, no shared memory; UI thread only. */
#ifndef NVS_UI_PLANVIEW_H
#define NVS_UI_PLANVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include "stats/collect.h"
#include "stats/steady.h"
#include "ui/replay.h"

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
/* The current step's samples so far. */
const struct series *planview_series(const struct planview *v);
/* The current step's table as per-QD rows (measure: qd.csv; grid: one row
 * per cell with qd = threads x QD; rate-curve: qd = the point %).
 * Owned by the view. */
const struct qdrow *planview_rows(const struct planview *v, int *n);

/* Step tables. */
enum planview_table {
	PV_TABLE_QD,   /* qd.csv: qd,iops,...  (qd = QD) */
	PV_TABLE_GRID, /* grid.csv: threads,qd,iops,...  (qd = threads x QD) */
	PV_TABLE_RATE, /* rate.csv: point,target_iops,iops,...  (qd = point %, 0 = max) */
};
/* Parses one line of table @t into @q.  0, or -EINVAL (a header or bad
 * line). */
int planview_parse_row(const char *line, enum planview_table t, struct qdrow *q);

#endif

/* dirread.h - what the console shows of a results directory besides its
 * samples and tables, read back: the health readings (health.csv), a plan
 * step's rounds (rounds.csv) and steady-state rule (steady.json), whether
 * a plan's state.json says it finished.  Every file is outside input
 * (docs/safety.md "Rule: hostile inputs"): a regular file of a bounded
 * size, whole lines, finite numbers; a bad line is skipped, never cut.
 * No ncurses; the sources (source.h) call these, the console never does. */
#ifndef NVS_RUN_DIRREAD_H
#define NVS_RUN_DIRREAD_H

#include <stdbool.h>
#include <stddef.h>
#include "run/source.h"
#include "stats/rounds.h"
#include "stats/steady.h"

/* DIR/health.csv into *@pts (malloc'ed, caller frees; NULL when none) and
 * *@n.  0, -ENOENT (no such file: no readings), or -ENOMEM. */
int dirread_health(const char *dir, struct source_health **pts, size_t *n);
/* DIR/rounds.csv appended to @out (round,t_start_s,t_end_s,value,...).
 * 0, or -ENOENT when there is no such file. */
int dirread_rounds(const char *dir, struct rounds *out);
/* DIR/steady.json's SNIA rule: its window and limits over @p (kept only
 * when the result passes steady_params_check).  True when it did. */
bool dirread_rule(const char *dir, struct steady_params *p);
/* DIR/state.json says the plan finished. */
bool dirread_plan_finished(const char *dir);

#endif

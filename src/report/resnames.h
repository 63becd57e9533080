/* resnames.h - the file names of a results directory, defined once for
 * every writer and reader: the console's runs and plans (run/resdir.h, which
 * adds the row type and table readers), the HTML report (report/html.c,
 * report/rtable.c), nvscope check (check/) and the console (ui/).  Only
 * names: no code. */
#ifndef NVS_REPORT_RESNAMES_H
#define NVS_REPORT_RESNAMES_H

/* ---- a console run (session.c) ---- */
#define RESDIR_SAMPLES	  "samples.csv"	  /* aggregate per-interval rows (report/csv.h) */
#define RESDIR_TARGET_FMT "target-%u.csv" /* per-target rows, 1-based */
#define RESDIR_TARGETS	  "targets.txt"	  /* one target path per line */
#define RESDIR_EVENTS	  "events.log"	  /* one timestamped line per event */
#define RESDIR_SUMMARY	  "summary.json"  /* fio layout, one job per QD step */
#define RESDIR_HEALTH	  "health.csv"	  /* SMART readings during the run */

/* ---- a plan (planrun.c, plandir.c, planstate.c, plansum.c) ---- */
#define RESDIR_PLAN_INI	  "plan.ini"
#define RESDIR_VERSION	  "VERSION"
#define RESDIR_META	  "meta.json"
#define RESDIR_STATE	  "state.json"
#define RESDIR_PLAN_LOG	  "plan.log" /* the plan's messages when run from the console */
#define RESDIR_DEV_BEFORE "device-before.json"
#define RESDIR_DEV_AFTER  "device-after.json"
/* in each step directory NN-KIND-LABEL/ */
#define RESDIR_STEP	      "step.json"
#define RESDIR_STEADY	      "steady.json"
#define RESDIR_ROUNDS	      "rounds.csv"
#define RESDIR_QD	      "qd.csv"
#define RESDIR_RATE	      "rate.csv"
#define RESDIR_GRID	      "grid.csv"
#define RESDIR_MATRIX	      "matrix.csv"
#define RESDIR_FILL	      "fill.json"
#define RESDIR_PURGE	      "purge.json"
#define RESDIR_MAX	      "max.json"       /* rate curve: the measured maximum */
#define RESDIR_QD_JSON_FMT    "qd%u.json"      /* measure: one per queue depth */
#define RESDIR_PCT_JSON_FMT   "pct%g.json"     /* rate curve: one per point */
#define RESDIR_CELL_JSON_FMT  "t%uq%u.json"    /* grid: threads, QD */
#define RESDIR_ROUND_JSON_FMT "r%u-%s-%u.json" /* matrix: round, bs, read % */

/* The metric columns every step table ends with. */

/* ---- nvscope check (check/resdir.c, check/state.c, check/run.c): the
 * batch's RESDIR_META, RESDIR_SUMMARY and RESDIR_STATE, and ---- */
#define RESDIR_CHECK_PROFILE	   "profile.ini"  /* the profile as read */
#define RESDIR_CHECK_SUMMARY_CSV   "summary.csv"  /* one row per drive */
#define RESDIR_CHECK_VERDICT	   "verdict.json" /* per drive (its folder) */
#define RESDIR_CHECK_VERDICT_CSV   "verdict.csv"
#define RESDIR_CHECK_HEALTH_BEFORE "health-before.json"
#define RESDIR_CHECK_HEALTH_AFTER  "health-after.json"

#endif

/* resdir.h - the results directory: the contract between the code that
 * writes it (session.c for a console run, planrun.c/plandir.c/planstate.c/
 * plansum.c for a plan) and the code that reads it back (replay.c,
 * planview.c, the console, `nvscope steady`).  Every file name is defined
 * here once, and so is the one per-QD row of the step tables (qd.csv,
 * rate.csv, grid.csv, matrix.csv, the metrics of rounds.csv): its writer,
 * its parser and the one reader of a table.  docs/plans.md and
 * docs/console.md describe the files.  Writes go through dev/safety_out.c
 * (the checked results directory, never through a symlink).
 *
 * Layering: report/ is below run/ and cannot include this header; the HTML
 * report (report/html.c, report/rtable.c) reads the same files by these
 * names as literals and tables by column name (tests/integration/
 * report_html.sh checks it reads what the writers write). */
#ifndef NVS_RUN_RESDIR_H
#define NVS_RUN_RESDIR_H

#include <stddef.h>
#include <stdio.h>

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
#define RESDIR_METRIC_HDR "iops,read_iops,write_iops,mbps,lat_mean_us,lat_p99_us,lat_max_us,cpu_pct"

/* One row of a per-QD table: a step's figures (the console's per-QD pane,
 * a plan's step tables, summary.json's jobs). */
struct resdir_row {
	unsigned qd;			/* queue depth (grid: threads x QD; rate: point %) */
	double iops, riops, wiops;	/* riops/wiops NAN when unknown */
	double bw;			/* both directions; bytes/s */
	double mean_us, p99_us, max_us; /* NAN when unknown */
	double cpu_pct;			/* worker CPU, % of the runtime; NAN unknown */
	double asked; /* a rate-curve point: the rate asked, IOPS (0: the max run); NAN otherwise */
};

struct result;
/* The row of a job's final figures (both directions' latency as merged). */
void resdir_row_of(const struct result *res, struct resdir_row *m);
/* Writes the metric columns of @m and a newline (RESDIR_METRIC_HDR). */
void resdir_row_write(FILE *f, const struct resdir_row *m);

/* Step tables read back as per-QD rows. */
enum resdir_table {
	RESDIR_TABLE_QD,   /* qd.csv: qd,iops,...  (qd = QD) */
	RESDIR_TABLE_GRID, /* grid.csv: threads,qd,iops,...  (qd = threads x QD) */
	RESDIR_TABLE_RATE, /* rate.csv: point,target_iops,iops,...  (qd = point %, 0 = max) */
};
/* Parses one line of table @t into @q.  0, or -EINVAL (a header or bad
 * line). */
int resdir_row_parse(const char *line, enum resdir_table t, struct resdir_row *q);
/* Reads table @path (complete lines only; bad lines skipped) into *@rows
 * (malloc'ed, caller frees).  The count, or -errno (-ENOMEM). */
int resdir_table_read(const char *path, enum resdir_table t, struct resdir_row **rows);

/* The tables of a step of plan kind @kind (enum plan_step_kind): @which 1
 * the table, 2 the second table (matrix: rounds.csv); NULL when none.  And
 * their header lines (no newline). */
const char *resdir_step_table(int kind, int which);
const char *resdir_step_header(int kind, int which);

#endif

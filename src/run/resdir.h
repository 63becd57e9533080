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
 * Layering: the names live in report/resnames.h, below run/, so the HTML
 * report (report/html.c, report/rtable.c), check/ and ui/ use the same
 * ones; the report reads tables by column name (tests/integration/
 * report_html.sh checks it reads what the writers write). */
#ifndef NVS_RUN_RESDIR_H
#define NVS_RUN_RESDIR_H

#include <stddef.h>
#include <stdio.h>

#include "report/resnames.h" /* every file name (RESDIR_*) */

#define RESDIR_METRIC_HDR                                                                          \
	"iops,read_iops,write_iops,mbps,lat_mean_us,lat_p99_us,lat_max_us,cpu_pct,sys_cpu_pct"

/* One row of a per-QD table: a step's figures (the console's per-QD pane,
 * a plan's step tables, summary.json's jobs). */
struct resdir_row {
	unsigned qd;			/* queue depth (grid: threads x QD; rate: point %) */
	double iops, riops, wiops;	/* riops/wiops NAN when unknown */
	double bw;			/* both directions; bytes/s */
	double mean_us, p99_us, max_us; /* NAN when unknown */
	double cpu_pct;			/* worker CPU, % of the runtime; NAN unknown */
	/* the machine's CPU over the job (/proc/stat): the share of all its
	 * cores neither idle nor in iowait, %, as reviews quote it; NAN
	 * unknown (no /proc, or a table written before this column) */
	double sys_cpu_pct;
	double asked; /* a rate-curve point: the rate asked, IOPS (0: the max run); NAN otherwise */
};

struct result;
/* The row of a job's final figures (both directions' latency as merged). */
void resdir_row_of(const struct result *res, struct resdir_row *m);
/* Sets @m's sys_cpu_pct from the machine's utilization @total over the
 * job (all cores). */
struct cpu_util;
void resdir_row_machine(struct resdir_row *m, const struct cpu_util *total);
/* Writes the metric columns of @m and a newline (RESDIR_METRIC_HDR; an
 * unknown sys_cpu_pct as "n/a"). */
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
#define RESDIR_TABLE_MAX_BYTES (64u << 20)
#define RESDIR_TABLE_MAX_LINE  4096u
/* Reads table @path (complete lines only; bad lines skipped) into *@rows
 * (malloc'ed, caller frees).  The count, or -errno (-ENOMEM; -EINVAL or
 * -EFBIG for no regular file of at most RESDIR_TABLE_MAX_BYTES, base/input.h;
 * -E2BIG for a line longer than RESDIR_TABLE_MAX_LINE: refused, not cut). */
int resdir_table_read(const char *path, enum resdir_table t, struct resdir_row **rows);

/* The tables of a step of plan kind @kind (enum plan_step_kind): @which 1
 * the table, 2 the second table (matrix: rounds.csv); NULL when none.  And
 * their header lines (no newline). */
const char *resdir_step_table(int kind, int which);
const char *resdir_step_header(int kind, int which);

#endif

/* runfold.h - fio's group_reporting over `nvscope run`'s results: the
 * results of one report group become one, as fio's __show_run_stats merges
 * them; fio's exitall (the jobs that never start) and several job files in
 * one run. */
#ifndef NVS_RUNFOLD_H
#define NVS_RUNFOLD_H

#include <stdbool.h>
#include "config/cli.h"
#include "run/runsteps.h"

/* fio's rule: a result whose job has group_reporting (@grouped[i]) and the
 * same groupid as the result before it is merged into that one (counts and
 * latency histograms summed, runtime the longest, per-interval bandwidth and
 * IOPS summed, context switches and faults summed); the arrays are
 * compacted in order.  The first job of a group names it and keeps its
 * options, CPU, disk and trace figures.  Returns the new count. */
unsigned runfold_groups(struct runsteps *f, const bool *grouped);

/* fio's `fio a.fio b.fio`: loads @files (each as cli_jobs loads @cli with
 * cli->job set to it; cli->job is the caller's again on return, the first
 * file, which the command's check registers as an input) and appends their
 * jobs to *@jobs: each file's first
 * job behind a stonewall (fio's __parse_jobs_ini stonewall_flag), so every
 * file is its own run and report group; exitall (global) is set on all
 * when any job has it.  0 or -errno with @err. */
int runfold_more_files(struct cli *cli, const char *const *files, unsigned nfiles,
		       struct spec **jobs, unsigned *njobs, char *err, size_t errlen);
/* fio's exit_what=all: the jobs from @from on never started, and fio still
 * lists each (each depth, each numjobs copy unless group_reporting) with
 * zero figures: appends them to @f's arrays (the caller sized them for
 * every job) with their groupid (@sweep: the step's index, as run.c), the
 * steps counted on in *@nstep. */
void runfold_unstarted(struct runsteps *f, const struct spec *jobs, unsigned from, unsigned njobs,
		       bool sweep, unsigned *nstep);
/* fio's exit_what=all: a job from @first to @last (one run group) has it,
 * so no later job starts. */
bool runfold_exit_all(const struct spec *jobs, unsigned first, unsigned last);

#endif

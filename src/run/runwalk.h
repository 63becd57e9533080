/* runwalk.h - a headless run's steps in fio's order (`nvscope run`): each
 * job at each of its queue depths, the jobs of a fio run group started
 * together, fio's exitall honoured, fio's histogram log written per step;
 * each step measured and recorded into struct runsteps, then handed to the
 * caller for its outputs (cmd/run.c: fio's text, CSV, logs). */
#ifndef NVS_RUNWALK_H
#define NVS_RUNWALK_H

#include <stdatomic.h>
#include <stdbool.h>
#include "io/opt/spec.h"
#include "run/runjob.h"
#include "run/runsteps.h"

struct runwalk {
	const struct spec *jobs;
	const struct datagen_place *place; /* [njobs]: each job's place in the run, or NULL */
	unsigned njobs;
	bool sweep;		   /* a QD sweep (steps != jobs): groupids are step indices */
	const char *log_dir;	   /* fio's histogram logs go here (--output-dir), or NULL */
	const _Atomic int *cancel; /* a signal: no further step starts */
	runjob_tick_fn tick;	   /* the progress line, or NULL */
	unsigned repeat;	   /* --repeat: each step run this many times in a
				    * row, each run its own step (0, 1: once) */
	/* A step recorded from entry @first: the caller's outputs for it
	 * (@lsfx: its log files' suffix).  Nonzero when they failed. */
	int (*step_done)(void *arg, unsigned j, unsigned first, const struct runjob *rj,
			 const char *lsfx);
	/* A line for the user (where nvscope differs from fio, a log not
	 * written, a step's I/O error). */
	void (*note)(void *arg, const char *msg);
	void *arg;
	bool failed; /* a step's I/O or outputs failed: the run stopped after it
		      * (and after the rest of its run group, as fio lists it) */
	char err[512];
};

/* fio's run groups (jobs between stonewalls start together): plan[j] = n
 * when jobs j..j+n-1 start together here, 1 when job j runs alone, 0 for
 * the later members of a group.  @note (may be NULL) says where nvscope
 * differs from fio. */
void runwalk_groups(const struct spec *jobs, unsigned njobs, unsigned *plan,
		    void (*note)(void *arg, const char *msg), void *arg);

/* Runs every step of @w's jobs in order into @rs, until the last, a failed
 * step or w->cancel; fio's zones and iologs held over the whole run.  0
 * (w->failed may be set), -ENOMEM, or a step's -errno that kept it from
 * running (w->err says why). */
int runwalk_run(struct runwalk *w, struct runsteps *rs);

#endif

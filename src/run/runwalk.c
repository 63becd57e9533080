/* runwalk.c - a headless run's steps in fio's order (runwalk.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "run/runwalk.h"
#include "io/trace/iolog.h"
#include "io/feat/zbd.h"
#include "report/fiolog.h"
#include "run/runfold.h"

void runwalk_groups(const struct spec *jobs, unsigned njobs, unsigned *plan,
		    void (*note)(void *arg, const char *msg), void *arg)
{
	for (unsigned j = 0, n; j < njobs; j += n) {
		const char *why = NULL;
		for (n = 1; j + n < njobs && jobs[j + n].run_group == jobs[j].run_group; n++)
			;
		for (unsigned k = j; k < j + n && !why; k++)
			if (jobs[k].niodepth > 1)
				why = "an iodepth list (a QD sweep) runs depth by depth";
		for (unsigned k = j; k < j + n; k++)
			plan[k] = why ? 1 : k == j ? n : 0;
		if (why && n > 1 && note) { /* (one job's sweep is no group to tell of) */
			char msg[512];
			snprintf(msg, sizeof(msg),
				 "fio starts [%s] .. [%s] together (no stonewall); nvscope "
				 "runs them one after another: %s",
				 jobs[j].name, jobs[j + n - 1].name, why);
			note(arg, msg);
		}
	}
}

/* The walk under way: its plan of run groups and the group running. */
struct walk {
	struct runwalk *w;
	struct runsteps *rs;
	unsigned *plan;
	struct runsteps_group grp;
};

static void say(struct walk *k, const char *fmt, const char *a)
{
	char msg[600];

	if (!k->w->note)
		return;
	snprintf(msg, sizeof(msg), fmt, a);
	k->w->note(k->w->arg, msg);
}

/* Runs job @j at its depth @q into @rj: its share of the run group
 * started with it, or alone with its histogram log (*@hl).  0, or -errno
 * with w->err. */
static int run_step(struct walk *k, unsigned j, unsigned q, const char *lsfx,
		    struct fiolog_hist **hl, struct runjob *rj)
{
	struct runwalk *w = k->w;
	const struct spec *s = &w->jobs[j];

	if (k->plan[j] > 1) /* a fio run group: started together */
		runsteps_group_run(&k->grp, w->jobs, w->place, j, k->plan[j], w->cancel, w->tick,
				   w->err, sizeof(w->err));
	if (runsteps_group_has(&k->grp, j)) {
		/* a job of a group run together: no histogram log (the row
		 * hook serves one job); the process and disk figures of the
		 * group go to its first job */
		if (s->log_hist[0])
			say(k, "[%s] write_hist_log is not written for jobs run together", s->name);
		return runsteps_group_take(&k->grp, j, rj);
	}
	int rc = fiolog_hist_open(s, fiolog_thread(w->jobs, j), w->log_dir, lsfx, hl, w->err,
				  sizeof(w->err));
	struct runjob_more more = {.row = *hl ? fiolog_hist_row : NULL,
				   .row_arg = *hl,
				   .place = w->place ? &w->place[j] : NULL};
	if (!rc)
		rc = runjob_run_rows(s, s->iodepth[q], w->cancel, w->tick, NULL, &more, rj, w->err,
				     sizeof(w->err));
	return rc;
}

/* One step, job @j at its depth @q: run, recorded, handed over.  1 to go
 * on, 0 when the run stops here (a failure, once the rest of its run group
 * is recorded, as fio lists it), or the -errno that kept it from running. */
static int run_one(struct walk *k, unsigned j, unsigned q)
{
	struct runwalk *w = k->w;
	const struct spec *s = &w->jobs[j];
	struct runsteps_meter m;
	struct fiolog_hist *hl = NULL;
	struct runjob rj;
	char sfx[64], herr[256];

	runsteps_meter_start(&m, s);
	snprintf(sfx, sizeof(sfx), "-iodepth-%u-numjobs-%u", s->iodepth[q], s->numjobs);
	const char *lsfx = s->niodepth > 1 ? sfx : "";
	int rc = run_step(k, j, q, lsfx, &hl, &rj);
	runsteps_meter_stop(&m);
	if (fiolog_hist_close(hl, herr, sizeof(herr)) && !rc) {
		say(k, "%s", herr);
		w->failed = true;
	}
	if (rc)
		return rc < 0 ? rc : -EIO;
	unsigned first = runsteps_add(k->rs, s, w->sweep, &rj, &m);
	if (w->step_done && w->step_done(w->arg, j, first, &rj, lsfx))
		w->failed = true;
	if (rj.error) {
		say(k, "%s", rj.msg);
		w->failed = true;
	}
	runjob_release(&rj);
	return !w->failed || (runsteps_group_has(&k->grp, j) && j + 1 < k->grp.first + k->grp.n);
}

/* Every step in run order, until the last, a failure or a signal. */
static int walk_steps(struct walk *k)
{
	const struct runwalk *w = k->w;
	const struct runsteps_group *g = &k->grp;

	for (unsigned j = 0; j < w->njobs && !atomic_load(w->cancel); j++) {
		for (unsigned q = 0; q < w->jobs[j].niodepth && !atomic_load(w->cancel); q++)
			for (unsigned r = 0;
			     r < (w->repeat ? w->repeat : 1) && !atomic_load(w->cancel); r++) {
				int rc = run_one(k, j, q);
				if (rc <= 0)
					return rc;
			}
		/* exit_what=all: the rest of the jobs never start */
		bool in_grp = runsteps_group_has(g, j);
		if (w->jobs[j].exitall && (!in_grp || j == g->first + g->n - 1) &&
		    runfold_exit_all(w->jobs, in_grp ? g->first : j, j)) {
			/* fio lists the jobs that never started, with zero figures */
			runfold_unstarted(k->rs, w->jobs, j + 1, w->njobs, w->sweep, &k->rs->nstep);
			return 0;
		}
	}
	return 0;
}

int runwalk_run(struct runwalk *w, struct runsteps *rs)
{
	struct walk k = {.w = w, .rs = rs};

	w->failed = false;
	w->err[0] = '\0';
	if (!(k.plan = calloc(w->njobs ? w->njobs : 1, sizeof(*k.plan)))) {
		snprintf(w->err, sizeof(w->err), "out of memory");
		return -ENOMEM;
	}
	runwalk_groups(w->jobs, w->njobs, k.plan, w->note, w->arg);
	zbd_hold();   /* zonemode=zbd: fio's zones live over the whole run */
	iolog_hold(); /* write_iolog: the run's jobs append to a file they share */
	int rc = walk_steps(&k);
	zbd_release();
	iolog_release();
	runsteps_group_release(&k.grp);
	free(k.plan);
	return rc;
}

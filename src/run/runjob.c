/* runjob.c - one headless job: start, drain the rings, join, merge. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "dev/safety.h"
#include "run/runjob.h"
#include "run/runss.h"
#include "stats/series.h"

static int copy_series(struct series *dst, const struct series *src)
{
	memset(dst, 0, sizeof(*dst));
	for (size_t i = 0; src && i < src->n; i++)
		if (series_push(dst, &src->pt[i]))
			return -ENOMEM;
	return 0;
}

/* runjob_pool_new, the written devices claimed through @claims (NULL: by
 * the pool itself). */
static int pool_setup(const struct spec *s, const struct datagen_place *place, unsigned qd,
		      struct safety_claims *claims, struct pool **pp, struct collect **cp,
		      unsigned *groups, char *err, size_t errlen)
{
	struct pool *p = NULL;
	unsigned *wt = NULL;
	int rc;

	*pp = NULL;
	*cp = NULL;
	rc = pool_new_claims(s, qd, claims, &p, err, errlen);
	if (rc)
		return rc;
	if (place)
		pool_set_place(p, place);
	unsigned nw = pool_nworkers(p);
	wt = calloc(nw ? nw : 1, sizeof(*wt));
	if (!wt)
		goto nomem;
	for (unsigned w = 0; w < nw; w++)
		wt[w] = pool_worker_target(p, w);
	/* a stripe set is one target (as pool_result counts it) */
	*groups = s->stripe ? 1 : pool_ntargets(p);
	*cp = collect_new(nw, *groups, wt, s->interval_ns);
	free(wt);
	if (!*cp)
		goto nomem;
	*pp = p;
	return 0;
nomem:
	pool_free(p);
	snprintf(err, errlen, "out of memory");
	return -ENOMEM;
}

int runjob_pool_new(const struct spec *s, unsigned qd, struct pool **pp, struct collect **cp,
		    unsigned *groups, char *err, size_t errlen)
{
	return pool_setup(s, NULL, qd, NULL, pp, cp, groups, err, errlen);
}

/* fio's clones (numjobs) reported apart: a second collector whose groups
 * are the copies, fed the same samples. */
static bool want_clones(const struct spec *s, const struct pool *p)
{
	return s->numjobs > 1 && !pool_trace(p);
}

static struct collect *clone_collect(const struct pool *p, const struct spec *s)
{
	unsigned nw = pool_nworkers(p);
	unsigned *wt = calloc(nw ? nw : 1, sizeof(*wt));
	struct collect *c = NULL;

	if (!wt)
		return NULL;
	for (unsigned w = 0; w < nw; w++)
		wt[w] = pool_worker_clone(p, w);
	c = collect_new(nw, s->numjobs, wt, s->interval_ns);
	free(wt);
	return c;
}

struct feed {
	struct collect *c, *cc; /* the job's collector, the copies' (or NULL) */
};

static void feed(const struct sample *smp, void *arg)
{
	struct feed *f = arg;

	collect_sample(smp, f->c);
	if (f->cc)
		collect_sample(smp, f->cc);
}

static int clone_finish(const struct pool *p, const struct spec *s, struct collect *cc,
			struct runjob *out)
{
	unsigned n = s->numjobs, nt = out->ntargets;

	if (!cc)
		return 0;
	collect_flush(cc);
	out->clone = calloc(n, sizeof(*out->clone));
	out->clone_target = calloc((size_t)n * (nt ? nt : 1), sizeof(*out->clone_target));
	out->clone_series = calloc(n, sizeof(*out->clone_series));
	if (!out->clone || !out->clone_target || !out->clone_series)
		return -ENOMEM;
	out->nclones = n;
	for (unsigned c = 0; c < n; c++) {
		pool_clone_result(p, c, -1, &out->clone[c]);
		for (unsigned t = 0; t < nt; t++)
			pool_clone_result(p, c, (int)t, &out->clone_target[(size_t)c * nt + t]);
		if (copy_series(&out->clone_series[c], collect_series(cc, (int)c)))
			return -ENOMEM;
	}
	return 0;
}

/* How a replay's figures become text: given by a higher layer (main.c sets
 * report/tracejson's), so io/ includes nothing of report/. */
static const struct runjob_trace_fmt *trace_fmt;

void runjob_set_trace_fmt(const struct runjob_trace_fmt *f)
{
	trace_fmt = f;
}

/* The replay's own figures, per copy and over all. */
static int trace_figures(const struct pool *p, const struct spec *s, struct runjob *out)
{
	unsigned n = pool_nworkers(p);
	struct result *res = calloc(n, sizeof(*res));
	const struct replay_stats **ts = calloc(n, sizeof(*ts));
	const struct trace *t = pool_trace(p);
	int rc = -ENOMEM;

	if (!trace_fmt) {
		rc = 0; /* nobody asked for them */
		goto out;
	}
	if (!res || !ts)
		goto out;
	for (unsigned c = 0; c < n; c++)
		pool_copy(p, c, &res[c], &ts[c]);
	out->trace_json = trace_fmt->build(s, t, res, ts, n);
	trace_fmt->line(t, ts, n, t->timed && !s->replay.no_stall, out->trace_line,
			sizeof(out->trace_line));
	if (out->trace_json)
		rc = 0;
out:
	free(res);
	free(ts);
	return rc;
}

int runjob_run_rows(const struct spec *s, unsigned qd, const _Atomic int *cancel,
		    runjob_tick_fn tick, void *arg, const struct runjob_more *more,
		    struct runjob *out, char *err, size_t errlen)
{
	struct pool *p = NULL;
	struct collect *c = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	unsigned groups;
	rc = pool_setup(s, more ? more->place : NULL, qd, NULL, &p, &c, &groups, err, errlen);
	if (rc)
		return rc;
	if (more)
		collect_on_row(c, more->row, more->row_arg);
	struct feed fd = {c, want_clones(s, p) ? clone_collect(p, s) : NULL};
	out->per_target = calloc(groups, sizeof(*out->per_target));
	out->target_series = calloc(groups, sizeof(*out->target_series));
	if (!out->per_target || !out->target_series || (want_clones(s, p) && !fd.cc)) {
		rc = -ENOMEM;
		goto free_collect;
	}
	out->ntargets = groups;
	rc = runss_new(s, &out->ss);
	if (rc)
		goto free_collect;
	size_t ssnext = 0;
	struct cpu *cpu = cpu_new(); /* NULL without /proc: CPU figures absent */
	rc = pool_start(p);
	if (rc) {
		pool_stop(p);
		pool_join(p);
		pool_error(p, err, errlen);
		cpu_free(cpu);
		goto free_collect;
	}
	while (pool_running(p)) {
		struct timespec ts = {0, 100000000};
		nanosleep(&ts, NULL);
		pool_drain(p, feed, &fd);
		if (out->ss && !fioss_attained(out->ss)) { /* fio's steadystate */
			const struct series *m = collect_series(c, -1);
			if (runss_poll(out->ss, &m, NULL, 1, &ssnext, (double)s->ramp_ns / 1e9))
				pool_stop(p);
		}
		if (cancel && atomic_load_explicit(cancel, memory_order_relaxed)) {
			out->cancelled = true;
			pool_stop(p);
		}
		if (tick)
			tick(p, c, arg);
	}
	pool_join(p);
	out->elapsed_s = (double)pool_elapsed_ns(p) / 1e9;
	if (cpu && !cpu_update(cpu)) {
		out->ncores = cpu_count(cpu) < CPU_MAX ? cpu_count(cpu) : CPU_MAX;
		for (unsigned i = 0; i < out->ncores; i++)
			out->cores[i] = *cpu_get(cpu, (int)i);
		out->cpu_total = *cpu_get(cpu, -1);
	}
	cpu_free(cpu);
	cpu = NULL;
	pool_drain(p, feed, &fd);
	collect_flush(c);
	pool_result(p, -1, &out->agg);
	for (unsigned t = 0; t < groups; t++) {
		pool_result(p, (int)t, &out->per_target[t]);
		copy_series(&out->target_series[t], collect_series(c, (int)t));
	}
	rc = copy_series(&out->series, collect_series(c, -1));
	out->dropped = pool_dropped(p);
	out->missing = collect_missing(c);
	out->error = pool_error(p, out->msg, sizeof(out->msg));
	if (!rc && pool_trace(p))
		rc = trace_figures(p, s, out);
	if (!rc)
		rc = clone_finish(p, s, fd.cc, out);
free_collect:
	collect_free(fd.cc);
	collect_free(c);
	pool_free(p);
	if (rc) {
		if (!err[0])
			snprintf(err, errlen, "%s", strerror(-rc));
		runjob_release(out);
	}
	return rc;
}

void runjob_release(struct runjob *r)
{
	if (!r)
		return;
	if (r->target_series)
		for (unsigned t = 0; t < r->ntargets; t++)
			series_release(&r->target_series[t]);
	free(r->target_series);
	free(r->per_target);
	free(r->trace_json);
	r->trace_json = NULL;
	for (unsigned c = 0; r->clone_series && c < r->nclones; c++)
		series_release(&r->clone_series[c]);
	free(r->clone_series);
	free(r->clone_target);
	free(r->clone);
	r->clone_series = NULL;
	r->clone_target = NULL;
	r->clone = NULL;
	r->nclones = 0;
	fioss_free(r->ss);
	r->ss = NULL;
	series_release(&r->series);
	r->target_series = NULL;
	r->per_target = NULL;
}

int runjob_run(const struct spec *s, unsigned qd, const _Atomic int *cancel, runjob_tick_fn tick,
	       void *arg, struct runjob *out, char *err, size_t errlen)
{
	return runjob_run_rows(s, qd, cancel, tick, arg, NULL, out, err, errlen);
}

/* runjob_run_many: one slot per job of a run group. */
struct slot {
	struct pool *p;
	struct collect *c;
	struct feed fd; /* c and the copies' collector */
	unsigned groups;
	bool started, ended;
	int waitee;    /* fio's wait_for: the slot it starts after, -1 none */
	size_t ssnext; /* next row for fio's steady state */
};

/* fio's exitall (fio_terminate_threads): job @i ended; exit_what=group stops
 * the jobs of its report group, stonewall and all every running one.  With
 * exitall_on_error (io/feat/xrun.c) a job that ended in error does the same. */
static void exit_all(const struct spec *specs, struct slot *sl, unsigned n, unsigned i)
{
	if (!specs[i].exitall && !(specs[i].xrun.exitall_error && pool_error(sl[i].p, NULL, 0)))
		return;
	for (unsigned k = 0; k < n; k++)
		if (k != i &&
		    (specs[i].exit_what || specs[k].report_group == specs[i].report_group)) {
			pool_stop(sl[k].p);
			if (!sl[k].started) /* fio: a job not yet started never starts */
				sl[k].ended = true;
		}
}

/* fio's wait_for: the earlier job of this group named so, or -1 (none, or it
 * ran before this group started: nothing to wait for). */
static int waitee_of(const struct spec *specs, unsigned i)
{
	if (!specs[i].wait_for[0])
		return -1;
	for (unsigned k = 0; k < i; k++)
		if (!strcmp(specs[k].name, specs[i].wait_for))
			return (int)k;
	return -1;
}

/* Starts the slots whose waitee has ended (all without one at first); a
 * waiter whose waitee never started (stopped) ends unstarted as well.  As
 * fio's run_threads, the jobs that start now are all set up first, then
 * released at one instant (one t0): a job does not run alone while the
 * next one sets up (fio's flow between jobs counts on it: flow.fio). */
static int start_ready(struct slot *sl, unsigned n, char *err, size_t errlen)
{
	struct pool **go = calloc(n ? n : 1, sizeof(*go));
	unsigned ngo = 0;
	int rc = 0;

	if (!go)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		int w = sl[i].waitee;
		if (sl[i].started || sl[i].ended || (w >= 0 && !sl[w].ended))
			continue;
		if (w >= 0 && !sl[w].started) {
			sl[i].ended = true;
			continue;
		}
		int lrc = pool_launch(sl[i].p);
		sl[i].started = true;
		go[ngo++] = sl[i].p;
		if (lrc) {
			pool_error(sl[i].p, err, errlen);
			rc = lrc;
			break;
		}
	}
	pool_go(go, ngo); /* every launched pool's workers wait for it */
	free(go);
	return rc;
}

static int slot_setup(struct slot *sl, const struct spec *s, const struct datagen_place *place,
		      unsigned qd, struct safety_claims *claims, struct runjob *out, char *err,
		      size_t errlen)
{
	int rc = pool_setup(s, place, qd, claims, &sl->p, &sl->c, &sl->groups, err, errlen);

	if (rc)
		return rc;
	sl->fd.c = sl->c;
	sl->fd.cc = want_clones(s, sl->p) ? clone_collect(sl->p, s) : NULL;
	out->per_target = calloc(sl->groups, sizeof(*out->per_target));
	out->target_series = calloc(sl->groups, sizeof(*out->target_series));
	if (!out->per_target || !out->target_series || (want_clones(s, sl->p) && !sl->fd.cc))
		return -ENOMEM;
	out->ntargets = sl->groups;
	return runss_new(s, &out->ss);
}

/* fio's steadystate_setup: with group_reporting the report group is judged
 * as one, on the sum of its jobs, by its last job (the others hold none);
 * fio refuses a group whose jobs' steadystate options differ. */
static bool ss_member(const struct spec *specs, unsigned h, unsigned k)
{
	return k == h || (specs[h].group_reporting && specs[k].group_reporting &&
			  specs[k].report_group == specs[h].report_group);
}

int runjob_check_group(const struct spec *specs, unsigned n, char *err, size_t errlen)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = i + 1; k < n; k++)
			if (specs[k].report_group == specs[i].report_group &&
			    !runss_same(&specs[i], &specs[k])) {
				snprintf(err, errlen,
					 "[%s]: steadystate options must be consistent within "
					 "reporting groups (as fio)",
					 specs[k].name);
				return -EINVAL;
			}
	return 0;
}

static void ss_setup(const struct spec *specs, unsigned n, struct runjob *outs)
{
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = i + 1; k < n && outs[i].ss; k++)
			if (ss_member(specs, i, k)) { /* a later job of the group holds it */
				fioss_free(outs[i].ss);
				outs[i].ss = NULL;
			}
}

/* Feeds every judging job its group's new rows; stops the group when its
 * steady state is attained. */
static void ss_poll(const struct spec *specs, struct slot *sl, unsigned n, struct runjob *outs,
		    const struct series **m, bool *ended)
{
	for (unsigned h = 0; h < n; h++) {
		unsigned nm = 0;
		if (!outs[h].ss || fioss_attained(outs[h].ss))
			continue;
		for (unsigned k = 0; k < n; k++)
			if (ss_member(specs, h, k)) {
				m[nm] = collect_series(sl[k].c, -1);
				ended[nm++] = !pool_running(sl[k].p);
			}
		if (runss_poll(outs[h].ss, m, ended, nm, &sl[h].ssnext,
			       (double)specs[h].ramp_ns / 1e9))
			for (unsigned k = 0; k < n; k++)
				if (ss_member(specs, h, k))
					pool_stop(sl[k].p);
	}
}

static int slot_finish(struct slot *sl, const struct spec *s, struct runjob *out)
{
	int rc;

	pool_drain(sl->p, feed, &sl->fd);
	collect_flush(sl->c);
	out->elapsed_s = (double)pool_elapsed_ns(sl->p) / 1e9;
	pool_result(sl->p, -1, &out->agg);
	for (unsigned t = 0; t < sl->groups; t++) {
		pool_result(sl->p, (int)t, &out->per_target[t]);
		copy_series(&out->target_series[t], collect_series(sl->c, (int)t));
	}
	rc = copy_series(&out->series, collect_series(sl->c, -1));
	out->dropped = pool_dropped(sl->p);
	out->missing = collect_missing(sl->c);
	out->error = pool_error(sl->p, out->msg, sizeof(out->msg));
	if (!rc)
		rc = clone_finish(sl->p, s, sl->fd.cc, out);
	return rc;
}

/* A group of jobs run together (runjob_run_many): its slots and what
 * they share while they run. */
struct group {
	const struct spec *specs;
	struct slot *sl;
	unsigned n;
	struct runjob *outs;
	const struct series **mser; /* fio's in-job steady state (ss_poll) */
	bool *mend;
	const _Atomic int *cancel;
	runjob_tick_fn tick;
	void *arg;
	char *err;
	size_t errlen;
};

/* Stops every slot that started and waits for it. */
static void stop_started(struct group *g)
{
	for (unsigned i = 0; i < g->n; i++)
		if (g->sl[i].started) {
			pool_stop(g->sl[i].p);
			pool_join(g->sl[i].p);
		}
}

/* One round of the group's poll: every slot drained, the cancelled ones
 * stopped, the ended ones seen (fio's exitall).  True while any slot runs
 * or waits (wait_for). */
static bool poll_slots(struct group *g, bool stop)
{
	bool running = false;

	for (unsigned i = 0; i < g->n; i++) {
		struct slot *sl = &g->sl[i];
		pool_drain(sl->p, feed, &sl->fd);
		if (stop) {
			g->outs[i].cancelled = true;
			pool_stop(sl->p);
			if (!sl->started)
				sl->ended = true;
		}
		if (!sl->started && !sl->ended) { /* wait_for: still waiting */
			running = true;
		} else if (pool_running(sl->p)) {
			if (g->tick && !running) /* the first one still running */
				g->tick(sl->p, sl->c, g->arg);
			running = true;
		} else if (!sl->ended) {
			sl->ended = true;
			exit_all(g->specs, g->sl, g->n, i);
		}
	}
	return running;
}

/* Polls the started group every 100 ms until every job has ended,
 * starting the ones waiting (wait_for) as their waitees end.  0, or the
 * -errno of a waiter that could not start (the others stopped). */
static int run_group(struct group *g)
{
	int rc = 0;

	for (bool running = true; running;) {
		struct timespec ts = {0, 100000000};
		bool stop = g->cancel && atomic_load_explicit(g->cancel, memory_order_relaxed);
		nanosleep(&ts, NULL);
		running = poll_slots(g, stop);
		int src = stop || rc ? 0 : start_ready(g->sl, g->n, g->err, g->errlen);
		if (src) { /* a waiter could not start: stop them all */
			for (unsigned i = 0; i < g->n; i++) {
				pool_stop(g->sl[i].p);
				g->sl[i].ended |= !g->sl[i].started;
			}
			rc = src;
			running = true;
		}
		ss_poll(g->specs, g->sl, g->n, g->outs, g->mser, g->mend);
	}
	for (unsigned i = 0; i < g->n; i++)
		pool_join(g->sl[i].p);
	return rc;
}

/* The machine's CPU over the group's run, into every job's results. */
static void group_cpu(struct cpu *cpu, struct runjob *outs, unsigned n)
{
	if (!cpu || cpu_update(cpu))
		return;
	for (unsigned i = 0; i < n; i++) {
		outs[i].ncores = cpu_count(cpu) < CPU_MAX ? cpu_count(cpu) : CPU_MAX;
		for (unsigned c = 0; c < outs[i].ncores; c++)
			outs[i].cores[c] = *cpu_get(cpu, (int)c);
		outs[i].cpu_total = *cpu_get(cpu, -1);
	}
}

int runjob_run_many(const struct spec *specs, const struct datagen_place *places,
		    const unsigned *qds, unsigned n, const _Atomic int *cancel, runjob_tick_fn tick,
		    void *arg, struct runjob *outs, char *err, size_t errlen)
{
	struct group g = {.specs = specs,
			  .n = n,
			  .outs = outs,
			  .cancel = cancel,
			  .tick = tick,
			  .arg = arg,
			  .err = err,
			  .errlen = errlen};
	/* the group's writes: each device claimed and judged once, by the
	 * first job that writes it, before any job starts; every job writing
	 * it writes through its own open of that file; released when the
	 * whole group has ended */
	struct safety_claims *claims = safety_claims_new();
	struct cpu *cpu = NULL;
	int rc = 0;
	unsigned i;

	memset(outs, 0, n * sizeof(*outs));
	g.sl = calloc(n ? n : 1, sizeof(*g.sl));
	if (!g.sl || !claims) {
		free(g.sl);
		safety_claims_free(claims);
		return -ENOMEM;
	}
	/* what the group's options refuse, before any job opens (lays out) a file */
	rc = runjob_check_group(specs, n, err, errlen);
	for (i = 0; i < n && !rc; i++)
		rc = slot_setup(&g.sl[i], &specs[i], places ? &places[i] : NULL, qds[i], claims,
				&outs[i], err, errlen);
	if (!rc)
		ss_setup(specs, n, outs);
	g.mser = calloc(n ? n : 1, sizeof(*g.mser));
	g.mend = calloc(n ? n : 1, sizeof(*g.mend));
	if (!rc && (!g.mser || !g.mend))
		rc = -ENOMEM;
	if (rc)
		goto cleanup;
	cpu = cpu_new();
	for (i = 0; i < n; i++)
		g.sl[i].waitee = waitee_of(specs, i);
	rc = start_ready(g.sl, n, err, errlen);
	if (rc) { /* one could not start: stop the ones that did */
		stop_started(&g);
		goto cleanup;
	}
	rc = run_group(&g);
	group_cpu(cpu, outs, n);
	for (i = 0; i < n && !rc; i++)
		rc = slot_finish(&g.sl[i], &specs[i], &outs[i]);
cleanup:
	free(g.mser);
	free(g.mend);
	cpu_free(cpu);
	for (i = 0; i < n; i++) {
		collect_free(g.sl[i].fd.cc);
		collect_free(g.sl[i].c);
		pool_free(g.sl[i].p);
	}
	safety_claims_free(claims); /* the pools closed their descriptors */
	free(g.sl);
	if (rc) {
		if (!err[0])
			snprintf(err, errlen, "%s", strerror(-rc));
		for (i = 0; i < n; i++)
			runjob_release(&outs[i]);
	}
	return rc;
}

/* session.c - runs a console workload step by step and records it.
 *
 * A step is one job at one queue depth: one pool (pool.h) and one collector
 * (collect.h).  Every frame the UI thread drains the pool's rings through
 * on_sample(), which feeds the collector and merges the interval's latency
 * buckets into run-wide and per-step histograms (for live p99.99 and max).
 * The collector hands each new row to on_point() instead of keeping it (one
 * copy from the ring to the history): it goes onto the whole-run series
 * with the step's start time added, and into samples.csv as it comes, so a
 * killed console still leaves a replayable directory.  When a pool ends,
 * its exact result (merged full histograms) becomes the step's row of the
 * per-QD table and the next step starts; at the end summary.json is written
 * with json_write_run (fio's layout, one job per step). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "dev/safety.h"
#include "io/core/pool.h"
#include "report/csv.h"
#include "report/json.h"
#include "run/runjob.h"
#include "run/runss.h"
#include "run/session.h"
#include "run/resdir.h"

#define SESSION_IVAL_SLOTS 8
/* Per target, the newest points kept at full resolution (a per-target
 * strip is at most half a wide screen: 128 columns of 2 dots, 2 minutes of
 * 1-s samples); the older ones at one coarser resolution (series_rrd:
 * issue 25, memory flat in time), read back from the target's CSV at full
 * resolution where the view goes. */
#define SESSION_HIST_KEEP 128

struct session {
	enum session_state state;
	char msg[256];
	struct spec *jobs;
	unsigned njobs;
	struct session_step step[SESSION_MAX_STEPS];
	/* each step's aggregate points: a range of the run's series (agg),
	 * not a copy (docs/architecture.md, the sample's path) */
	size_t step_first[SESSION_MAX_STEPS], step_n[SESSION_MAX_STEPS];
	unsigned nsteps, cur;
	bool stop;
	bool stopped;	   /* the last run ended by a stop */
	char stop_why[64]; /* its event line */

	struct pool *pool;
	struct collect *collect;
	int added; /* aggregate rows since the last poll */

	struct series agg;
	struct series tgt[NVS_MAX_TARGETS];
	unsigned ntargets; /* series groups: targets, or the copies of a storm */
	unsigned ncopies;  /* a trace storm's copies (its groups), 0 otherwise */
	struct hist run_hist[NVS_NDIR], step_hist[NVS_NDIR];
	/* the last intervals' latency (both directions), by sample seq */
	struct hist ival[SESSION_IVAL_SLOTS];
	uint64_t ival_seq[SESSION_IVAL_SLOTS];
	bool ival_used[SESSION_IVAL_SLOTS];
	uint64_t dropped;
	double done_s; /* duration of the finished steps */

	struct fioss *ss; /* fio's steady state of the step (ss_dur), or NULL */
	size_t ssnext;	  /* its next row of the step's points */

	char dir[512];
	FILE *csv, *events, *health;
	FILE *tcsv[NVS_MAX_TARGETS]; /* per-target series, with several targets */

	/* the per-target history (SESSION_HIST_KEEP): target t's points up to
	 * coarse_end[t] are folded; zoom[t] is its series with the window
	 * [zoom_t0, zoom_t1] read back at full resolution (zoomed) */
	size_t hist_keep;
	struct series_rrd rrd[NVS_MAX_TARGETS];
	double coarse_end[NVS_MAX_TARGETS];
	struct series zoom[NVS_MAX_TARGETS];
	bool zoomed;
	double zoom_t0, zoom_t1;
	size_t zoom_n; /* the largest zoom[] built */
};

struct session *session_new(void)
{
	struct session *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->hist_keep = SESSION_HIST_KEEP;
	for (int d = 0; d < NVS_NDIR; d++) {
		hist_init(&s->run_hist[d]);
		hist_init(&s->step_hist[d]);
	}
	return s;
}

static void event(struct session *s, const char *fmt, const char *arg)
{
	if (!s->events)
		return;
	fprintf(s->events, "%.1f ", session_elapsed(s));
	fprintf(s->events, fmt, arg);
	fputc('\n', s->events);
	fflush(s->events);
}

void session_note(struct session *s, const char *text)
{
	event(s, "%s", text);
}

static void close_target_csvs(struct session *s)
{
	for (unsigned t = 0; t < NVS_MAX_TARGETS; t++)
		if (s->tcsv[t]) {
			fclose(s->tcsv[t]);
			s->tcsv[t] = NULL;
		}
}

static void release_run(struct session *s)
{
	close_target_csvs(s);
	pool_free(s->pool);
	s->pool = NULL;
	collect_free(s->collect);
	s->collect = NULL;
	fioss_free(s->ss);
	s->ss = NULL;
	series_release(&s->agg);
	for (unsigned t = 0; t < NVS_MAX_TARGETS; t++) {
		series_release(&s->tgt[t]);
		series_release(&s->zoom[t]);
		s->coarse_end[t] = 0;
		s->rrd[t] = (struct series_rrd){.keep = s->hist_keep};
	}
	s->zoomed = false;
	if (s->csv)
		fclose(s->csv);
	if (s->events)
		fclose(s->events);
	if (s->health)
		fclose(s->health);
	s->csv = s->events = s->health = NULL;
	free(s->jobs);
	s->jobs = NULL;
}

static void finish(struct session *s);

void session_free(struct session *s)
{
	if (!s)
		return;
	if (s->state == SESS_RUNNING) {
		s->stop = true;
		pool_stop(s->pool);
		while (s->state == SESS_RUNNING) {
			session_poll(s);
			nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
		}
	}
	release_run(s);
	free(s);
}

static void on_sample(const struct sample *smp, void *arg)
{
	struct session *s = arg;
	collect_sample(smp, s->collect);
	unsigned k = (unsigned)(smp->seq % SESSION_IVAL_SLOTS);
	if (!s->ival_used[k] || s->ival_seq[k] != smp->seq) {
		hist_init(&s->ival[k]);
		s->ival_seq[k] = smp->seq;
		s->ival_used[k] = true;
	}
	for (int d = 0; d < NVS_NDIR; d++) {
		const struct sample_dir *sd = &smp->dir[d];
		if (sd->lat_n)
			hist_merge_counts(&s->ival[k], sd->lat_bucket, sd->lat_n, sd->lat_sum,
					  sd->lat_min, sd->lat_max, sd->lat_sumsq);
	}
	if (smp->flags & SAMPLE_RAMP)
		return;
	for (int d = 0; d < NVS_NDIR; d++) {
		const struct sample_dir *sd = &smp->dir[d];
		if (!sd->lat_n)
			continue;
		hist_merge_counts(&s->run_hist[d], sd->lat_bucket, sd->lat_n, sd->lat_sum,
				  sd->lat_min, sd->lat_max, sd->lat_sumsq);
		hist_merge_counts(&s->step_hist[d], sd->lat_bucket, sd->lat_n, sd->lat_sum,
				  sd->lat_min, sd->lat_max, sd->lat_sumsq);
	}
}

/* The collector's row for the sliver of time between a job's last full
 * interval and its stop: no I/O, no error, a small fraction of an interval.
 * It carries nothing, and drawn it would look like a stall to 0 IOPS. */
bool session_empty_tail(const struct point *p, uint64_t interval_ns)
{
	return p->dt < 0.25 * interval_ns / 1e9 && p->iops[0] == 0 && p->iops[1] == 0 &&
	       p->errors == 0;
}

/* Target @t's new point @p: into the window's series too (while a window
 * is read back), and the target's older points made coarser (series_rrd)
 * when they are in its CSV to read back.  A window's series that has grown
 * by as many points as are kept is dropped (built again at the next
 * session_window). */
static void keep_history(struct session *s, int t, const struct point *p)
{
	struct series *h = &s->tgt[t];

	if (s->zoomed && (series_push(&s->zoom[t], p) || s->zoom[t].n >= s->zoom_n + s->hist_keep))
		s->zoomed = false;
	if (!s->tcsv[t] || !series_rrd_fold(h, &s->rrd[t]))
		return;
	s->coarse_end[t] = h->pt[s->rrd[t].nold - 1].t;
}

/* A new collector row (@t = -1: the aggregate): onto the run series and
 * its CSV with the step's start added (an empty partial interval at a
 * step's end is left out: no I/O was asked in it); the step's points are
 * its range of the run's series. */
static void on_point(int t, const struct point *pt, void *arg)
{
	struct session *s = arg;
	if (t >= (int)s->ntargets)
		return;
	if (session_empty_tail(pt, s->jobs[s->step[s->cur].job].interval_ns))
		return;
	struct series *run = t < 0 ? &s->agg : &s->tgt[t];
	if (series_push(run, pt))
		return;
	if (t < 0) /* the step's points are its range of the run's */
		s->step_n[s->cur]++;
	struct point *p = &run->pt[run->n - 1];
	p->t += s->step[s->cur].t0; /* onto the run's axis, in place: no copy */
	FILE *f = t < 0 ? s->csv : s->tcsv[t];
	if (f)
		csv_write_point(f, p);
	if (t < 0)
		s->added++;
	else
		keep_history(s, t, p);
}

/* Flushes the rows on_point wrote; returns the new aggregate rows. */
static int absorb(struct session *s)
{
	int added = s->added;
	s->added = 0;
	if (added && s->csv) {
		fflush(s->csv);
		for (unsigned t = 0; t < s->ntargets; t++)
			if (s->tcsv[t])
				fflush(s->tcsv[t]);
	}
	return added;
}

static int start_step(struct session *s, char *err, size_t errlen)
{
	struct session_step *st = &s->step[s->cur];
	const struct spec *job = &s->jobs[st->job];
	unsigned groups;
	fioss_free(s->ss);
	s->ssnext = 0;
	s->step_first[s->cur] = s->agg.n;
	s->step_n[s->cur] = 0;
	if (runss_new(job, &s->ss)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	int ret = runjob_pool_new(job, st->iodepth, &s->pool, &s->collect, &groups, err, errlen);
	if (ret)
		return ret;
	if (s->ncopies) {
		/* a storm's copies (one worker each, one target) are its groups:
		 * a collector by copy instead of by target */
		unsigned nw = pool_nworkers(s->pool);
		unsigned *wt = calloc(nw ? nw : 1, sizeof(*wt));
		struct collect *c = NULL;
		if (wt) {
			for (unsigned w = 0; w < nw; w++)
				wt[w] = w % s->ncopies;
			c = collect_new(nw, s->ncopies, wt, job->interval_ns);
			free(wt);
		}
		if (!c) {
			ret = -ENOMEM;
			snprintf(err, errlen, "out of memory");
			goto free_collect;
		}
		collect_free(s->collect);
		s->collect = c;
	}
	collect_on_point(s->collect, on_point, s);
	memset(s->ival_used, 0, sizeof(s->ival_used));
	for (int d = 0; d < NVS_NDIR; d++)
		hist_init(&s->step_hist[d]);
	st->t0 = s->done_s;
	ret = pool_start(s->pool);
	if (ret) {
		pool_error(s->pool, err, errlen);
		if (!err[0])
			snprintf(err, errlen, "cannot start the workers: %s", strerror(-ret));
		goto free_collect;
	}
	char what[160];
	snprintf(what, sizeof(what), "step %u/%u: job %s at QD %u", s->cur + 1, s->nsteps,
		 job->name[0] ? job->name : spec_rw_name(job->rw), st->iodepth);
	event(s, "start %s", what);
	return 0;
free_collect:
	collect_free(s->collect);
	s->collect = NULL;
	pool_free(s->pool);
	s->pool = NULL;
	return ret;
}

/* The results directory: created (or ours already), never a symlink, its
 * files created in it by safety_out.c (never through a planted symlink). */
static int open_dir(struct session *s, const char *dir, char *err, size_t errlen)
{
	char msg[400], name[32];
	if (strlen(dir) >= sizeof(s->dir)) {
		snprintf(err, errlen, "results directory name too long (%zu bytes)", strlen(dir));
		return -ENAMETOOLONG;
	}
	int ret = safety_results_dir(dir, true, err, errlen);
	if (ret < 0)
		return ret;
	close(ret);
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	snprintf(name, sizeof(name), RESDIR_SAMPLES);
	if (!(s->csv = safety_fopen_in(dir, name, SAFETY_OUT_TRUNC, msg, sizeof(msg))))
		goto fail;
	csv_write_header(s->csv);
	fflush(s->csv);
	snprintf(name, sizeof(name), RESDIR_EVENTS);
	if (!(s->events = safety_fopen_in(dir, name, SAFETY_OUT_TRUNC, msg, sizeof(msg))))
		goto fail;
	if (s->ntargets < 2)
		return 0;
	/* several targets: each one's series too, and which is which */
	snprintf(name, sizeof(name), RESDIR_TARGETS);
	FILE *names = safety_fopen_in(dir, name, SAFETY_OUT_TRUNC, msg, sizeof(msg));
	if (!names)
		goto fail;
	for (unsigned t = 0; t < s->ntargets; t++)
		if (s->ncopies)
			fprintf(names, "%u copy %u\n", t, t);
		else
			fprintf(names, "%u %s\n", t, s->jobs[0].targets[t]);
	fclose(names);
	for (unsigned t = 0; t < s->ntargets; t++) {
		snprintf(name, sizeof(name), RESDIR_TARGET_FMT, t);
		if (!(s->tcsv[t] = safety_fopen_in(dir, name, SAFETY_OUT_TRUNC, msg, sizeof(msg))))
			goto fail;
		csv_write_header(s->tcsv[t]);
	}
	return 0;
fail:;
	int e = errno;
	snprintf(err, errlen, "cannot write %s/%s: %s", dir, name, msg);
	return -e;
}

/* Undoes open_dir: our two files, and the directory when it is empty. */
static void remove_dir(struct session *s)
{
	char path[600];
	if (s->csv)
		fclose(s->csv);
	if (s->events)
		fclose(s->events);
	s->csv = s->events = NULL;
	snprintf(path, sizeof(path), "%s/" RESDIR_SAMPLES, s->dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/" RESDIR_EVENTS, s->dir);
	unlink(path);
	for (unsigned t = 0; t < NVS_MAX_TARGETS; t++)
		if (s->tcsv[t]) {
			snprintf(path, sizeof(path), "%s/" RESDIR_TARGET_FMT, s->dir, t);
			unlink(path);
		}
	close_target_csvs(s);
	snprintf(path, sizeof(path), "%s/" RESDIR_TARGETS, s->dir);
	unlink(path);
	rmdir(s->dir);
	s->dir[0] = '\0';
}

int session_start(struct session *s, const struct spec *jobs, unsigned njobs, const char *dir,
		  char *err, size_t errlen)
{
	int ret;
	err[0] = '\0';
	if (s->state == SESS_RUNNING) {
		snprintf(err, errlen, "a workload is already running");
		return -EBUSY;
	}
	release_run(s);
	memset(s->step, 0, sizeof(s->step));
	s->nsteps = s->cur = 0;
	s->stop = false;
	s->stopped = false;
	s->dropped = 0;
	s->added = 0;
	s->done_s = 0;
	s->dir[0] = s->msg[0] = '\0';
	for (int d = 0; d < NVS_NDIR; d++)
		hist_init(&s->run_hist[d]);
	if (!njobs) {
		snprintf(err, errlen, "no job to run");
		return -EINVAL;
	}
	for (unsigned j = 0; j < njobs; j++) {
		if ((ret = spec_validate(&jobs[j], err, errlen)))
			goto fail;
		unsigned nd = jobs[j].niodepth ? jobs[j].niodepth : 1;
		for (unsigned q = 0; q < nd; q++) {
			if (s->nsteps == SESSION_MAX_STEPS) {
				snprintf(err, errlen, "too many steps (max %d)", SESSION_MAX_STEPS);
				ret = -EINVAL;
				goto fail;
			}
			s->step[s->nsteps].job = j;
			s->step[s->nsteps].iodepth = jobs[j].niodepth ? jobs[j].iodepth[q] : 0;
			s->nsteps++;
		}
	}
	if (!(s->jobs = malloc(njobs * sizeof(*jobs)))) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto fail;
	}
	memcpy(s->jobs, jobs, njobs * sizeof(*jobs));
	s->njobs = njobs;
	s->ntargets = jobs[0].ntargets ? jobs[0].ntargets : 1;
	if (s->ntargets > NVS_MAX_TARGETS)
		s->ntargets = NVS_MAX_TARGETS;
	/* a trace storm on one target (one job): a series per copy */
	s->ncopies = 0;
	if (njobs == 1 && jobs[0].replay.iolog[0] && jobs[0].replay.copies > 1 &&
	    jobs[0].replay.copies <= NVS_MAX_TARGETS && s->ntargets == 1)
		s->ncopies = s->ntargets = jobs[0].replay.copies;
	if (dir && (ret = open_dir(s, dir, err, errlen)))
		goto fail;
	if ((ret = start_step(s, err, errlen)))
		goto fail;
	if (!s->step[0].iodepth)
		s->step[0].iodepth = pool_iodepth(s->pool);
	s->state = SESS_RUNNING;
	return 0;
fail:
	/* nothing ran: leave no results directory behind */
	if (s->dir[0])
		remove_dir(s);
	snprintf(s->msg, sizeof(s->msg), "%s", err);
	s->state = SESS_FAILED;
	return ret;
}

/* Step @i's aggregate points: its range of the run's series, read in
 * place (valid until the next push). */
static struct series step_points(const struct session *s, unsigned i)
{
	return (struct series){.pt = s->agg.pt ? s->agg.pt + s->step_first[i] : NULL,
			       .n = s->step_n[i]};
}

static void write_summary(struct session *s)
{
	if (!s->dir[0])
		return;
	/* results hold full histograms (~33 KiB each): not on the stack */
	struct result *res = malloc(SESSION_MAX_STEPS * sizeof(*res));
	struct series ser[SESSION_MAX_STEPS];
	double t0[SESSION_MAX_STEPS];
	unsigned n = 0;
	if (!res) {
		event(s, "%s", "summary.json: out of memory");
		return;
	}
	for (unsigned i = 0; i < s->nsteps; i++)
		if (s->step[i].done) {
			res[n] = s->step[i].res;
			ser[n] = step_points(s, i);
			t0[n] = s->step[i].t0;
			n++;
		}
	char msg[400];
	FILE *f = safety_fopen_in(s->dir, RESDIR_SUMMARY, SAFETY_OUT_TRUNC, msg, sizeof(msg));
	if (!f) {
		event(s, "cannot write summary.json: %s", msg);
		free(res);
		return;
	}
	struct json_run run = {
	    .spec = &s->jobs[0],
	    .jobs = res,
	    .njobs = n,
	    .series = ser,
	    .series_t0 = t0,
	    .dropped = s->dropped,
	};
	if (json_write_run(f, &run))
		event(s, "%s", "summary.json: write failed");
	fclose(f);
	free(res);
}

static void finish(struct session *s)
{
	s->state = s->msg[0] ? SESS_FAILED : SESS_DONE;
	event(s, "end: %s", s->msg[0] ? s->msg : "done");
	write_summary(s);
	close_target_csvs(s);
	if (s->csv)
		fclose(s->csv);
	if (s->health)
		fclose(s->health);
	s->csv = s->health = NULL;
}

/* The current pool has ended: record its step, start the next. */
static void end_step(struct session *s)
{
	struct session_step *st = &s->step[s->cur];
	char err[256] = "";
	pool_join(s->pool);
	pool_drain(s->pool, on_sample, s);
	collect_flush(s->collect);
	absorb(s);
	if (pool_error(s->pool, err, sizeof(err)) && err[0])
		snprintf(s->msg, sizeof(s->msg), "%s", err);
	if (!pool_result(s->pool, -1, &st->res))
		st->done = true;
	if (!st->iodepth)
		st->iodepth = pool_iodepth(s->pool);
	s->dropped += pool_dropped(s->pool) + collect_missing(s->collect);
	double dur = pool_elapsed_ns(s->pool) / 1e9;
	if (s->agg.n && s->agg.pt[s->agg.n - 1].t > st->t0 + dur)
		dur = s->agg.pt[s->agg.n - 1].t - st->t0;
	s->done_s = st->t0 + dur;
	pool_free(s->pool);
	s->pool = NULL;
	collect_free(s->collect);
	s->collect = NULL;
	if (s->msg[0] || s->stop || s->cur + 1 >= s->nsteps) {
		if (s->stop && !s->msg[0]) {
			s->stopped = true;
			event(s, "%s", s->stop_why[0] ? s->stop_why : "stopped by the user");
		}
		finish(s);
		return;
	}
	s->cur++;
	if (start_step(s, err, sizeof(err))) {
		snprintf(s->msg, sizeof(s->msg), "%s", err);
		finish(s);
	}
}

int session_poll(struct session *s)
{
	if (s->state != SESS_RUNNING || !s->pool)
		return 0;
	pool_drain(s->pool, on_sample, s);
	int added = absorb(s);
	if (s->ss && !fioss_attained(s->ss)) { /* fio's steadystate: the step ends early */
		struct series pts = step_points(s, s->cur);
		const struct series *m = &pts;
		const struct spec *job = &s->jobs[s->step[s->cur].job];
		/* its points on the run's axis: the step's start and ramp off */
		if (runss_poll(s->ss, &m, NULL, 1, &s->ssnext,
			       s->step[s->cur].t0 + (double)job->ramp_ns / 1e9)) {
			event(s, "%s", "fio's steady state attained: the step ends");
			pool_stop(s->pool);
		}
	}
	if (!pool_running(s->pool)) {
		size_t before = s->agg.n;
		end_step(s);
		added += (int)(s->agg.n - before);
	}
	return added;
}

void session_stop(struct session *s, const char *why)
{
	if (s->state != SESS_RUNNING)
		return;
	snprintf(s->stop_why, sizeof(s->stop_why), "%s", why ? why : "");
	s->stop = true;
	pool_stop(s->pool);
}

bool session_stopped(const struct session *s)
{
	return s->stopped;
}

enum session_state session_state(const struct session *s)
{
	return s->state;
}

const char *session_message(const struct session *s)
{
	return s->msg;
}

const struct series *session_series(const struct session *s, int t)
{
	if (t < 0)
		return &s->agg;
	if ((unsigned)t >= s->ntargets)
		return NULL;
	return s->zoomed ? &s->zoom[t] : &s->tgt[t];
}

void session_set_history(struct session *s, size_t keep)
{
	s->hist_keep = keep ? keep : SESSION_HIST_KEEP;
}

/* [*@t0, *@t1] widened to the folded points of target @t it cuts into. */
static void widen(const struct series *h, double *t0, double *t1)
{
	for (size_t i = 0; i < h->n; i++) {
		const struct point *p = &h->pt[i];
		if (p->t - p->dt < *t0 && p->t > *t0)
			*t0 = p->t - p->dt;
		if (p->t - p->dt < *t1 && p->t > *t1)
			*t1 = p->t;
	}
}

/* Target @t's series with [t0, t1] read back from its CSV into zoom[t]. */
static int read_back(struct session *s, unsigned t, double t0, double t1, size_t max)
{
	char path[600];
	struct series win = {0};
	int rc;

	widen(&s->tgt[t], &t0, &t1);
	snprintf(path, sizeof(path), "%s/" RESDIR_TARGET_FMT, s->dir, t);
	FILE *f = fopen(path, "r");
	if (!f)
		return -errno;
	rc = csv_read_window(f, t0, t1, max, &win);
	fclose(f);
	if (!rc)
		rc = series_compose(&s->tgt[t], &win, &s->zoom[t]);
	series_release(&win);
	return rc;
}

int session_window(struct session *s, double t0, double t1)
{
	bool need = false;
	double ival = s->jobs ? s->jobs[0].interval_ns / 1e9 : 1;
	size_t max = 2 * s->hist_keep;

	for (unsigned t = 0; t < s->ntargets && s->jobs; t++)
		need |= s->coarse_end[t] > t0;
	/* a window longer than the points kept at full resolution (the whole
	 * run, a wide zoom): the folded points draw it */
	if (!need || (t1 - t0) / ival > (double)s->hist_keep) {
		bool was = s->zoomed;
		s->zoomed = false;
		for (unsigned t = 0; t < NVS_MAX_TARGETS; t++)
			series_release(&s->zoom[t]);
		return was;
	}
	if (s->zoomed && s->zoom_t0 == t0 && s->zoom_t1 == t1)
		return 0;
	for (unsigned t = 0; t < s->ntargets; t++) {
		int rc = read_back(s, t, t0, t1, max);
		if (rc) {
			s->zoomed = false;
			return rc;
		}
	}
	s->zoom_n = 0;
	for (unsigned t = 0; t < s->ntargets; t++)
		if (s->zoom[t].n > s->zoom_n)
			s->zoom_n = s->zoom[t].n;
	s->zoomed = true;
	s->zoom_t0 = t0;
	s->zoom_t1 = t1;
	return 1;
}

unsigned session_ntargets(const struct session *s)
{
	return s->jobs ? s->ntargets : 0;
}

unsigned session_copies(const struct session *s)
{
	return s->jobs ? s->ncopies : 0;
}

const char *session_target(const struct session *s, unsigned t)
{
	if (!s->jobs || t >= s->jobs[0].ntargets)
		return "";
	return s->jobs[0].targets[t];
}

const struct spec *session_spec(const struct session *s)
{
	if (!s->jobs)
		return NULL;
	return &s->jobs[s->nsteps ? s->step[s->cur].job : 0];
}

unsigned session_nsteps(const struct session *s)
{
	return s->nsteps;
}

unsigned session_cur_step(const struct session *s)
{
	return s->cur;
}

const struct session_step *session_step(const struct session *s, unsigned i)
{
	return i < s->nsteps ? &s->step[i] : NULL;
}

const struct hist *session_hist(const struct session *s, enum nvs_dir d)
{
	return &s->run_hist[d];
}

const struct hist *session_step_hist(const struct session *s, enum nvs_dir d)
{
	return &s->step_hist[d];
}

int session_record_health(struct session *s, double t, double temp_c, double throttle)
{
	if (s->state != SESS_RUNNING || !s->dir[0])
		return 0;
	if (!s->health) {
		if (!(s->health =
			  safety_fopen_in(s->dir, RESDIR_HEALTH, SAFETY_OUT_TRUNC, NULL, 0)))
			return -errno;
		fprintf(s->health, "time_s,temp_c,throttle_events\n");
	}
	if (isnan(temp_c))
		fprintf(s->health, "%.3f,,%.0f\n", t, throttle);
	else
		fprintf(s->health, "%.3f,%.1f,%.0f\n", t, temp_c, throttle);
	fflush(s->health);
	return 0;
}

/* The percentile of the interval that ended at t, from the newest
 * SESSION_IVAL_SLOTS intervals of the step running or, once the run has
 * ended, of its last step (the Numbers pane's "now" stays the last
 * second's, as its mean and p99 do). */
double session_interval_pct(const struct session *s, double t, double pct)
{
	if (!s->jobs || !s->nsteps)
		return NAN;
	const struct session_step *st = &s->step[s->cur];
	double ival = s->jobs[st->job].interval_ns / 1e9;
	long long seq = llround((t - st->t0) / ival) - 1;
	if (seq < 0)
		return NAN;
	unsigned k = (unsigned)(seq % SESSION_IVAL_SLOTS);
	if (!s->ival_used[k] || s->ival_seq[k] != (uint64_t)seq || !s->ival[k].n)
		return NAN;
	return hist_percentile(&s->ival[k], pct) / 1e3;
}

double session_elapsed(const struct session *s)
{
	if (s->pool)
		return s->step[s->cur].t0 + pool_elapsed_ns(s->pool) / 1e9;
	return s->done_s;
}

double session_planned(const struct session *s)
{
	/* the steps that ended took what they took (a size-limited step ends
	 * early); the one running and the rest take what they plan; a run
	 * that ended lasts to its last sample */
	if (s->state != SESS_RUNNING && s->agg.n)
		return s->agg.pt[s->agg.n - 1].t;
	double total = s->done_s;
	for (unsigned i = s->state == SESS_RUNNING ? s->cur : s->nsteps; i < s->nsteps; i++) {
		const struct spec *j = &s->jobs[s->step[i].job];
		if (!j->runtime_ns)
			return 0;
		total += (j->ramp_ns + j->runtime_ns) / 1e9;
	}
	return total;
}

uint64_t session_dropped(const struct session *s)
{
	uint64_t d = s->dropped;
	if (s->pool)
		d += pool_dropped(s->pool);
	if (s->collect)
		d += collect_missing(s->collect);
	return d;
}

const char *session_dir(const struct session *s)
{
	return s->dir;
}

void session_default_dir(const char *name, char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "results/%s-%s", stamp, name && *name ? name : "run");
}

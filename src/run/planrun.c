/* planrun.c - runs a plan's steps with the engine (one pool per round or
 * measurement: src/io/core/pool.h + src/stats/collect.h), writing the results
 * directory and checkpointing state.json after every step, round and
 * measurement.  A checkpoint records the byte length of the step's CSV files,
 * so a resumed run truncates what an interrupted measurement half-wrote and
 * appends from there: a resume continues, it does not restart.
 *
 * Results directory (docs/plans.md):
 *   plan.ini meta.json state.json device-before.json device-after.json
 *   NN-KIND-LABEL/ step.json samples.csv and, by kind:
 *     fill          fill.json
 *     purge         purge.json
 *     precondition  rounds.csv steady.json
 *     measure       qd.csv qdN.json
 *     rate-curve    rate.csv max.json pctN.json
 *     grid          grid.csv tTqQ.json
 *     matrix        matrix.csv rounds.csv steady.json rR-BS-MIX.json */
#include "run/planrun.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "base/termesc.h"
#include "dev/devmodel.h"
#include "dev/safety.h"
#include "run/resdir.h"
#include "run/runjob.h"
#include "ring/spsc.h"
#include "io/core/target.h"
#include "report/csv.h"
#include "report/json.h"
#include "stats/collect.h"
#include "stats/hist.h"
#include "stats/result.h"

#define EINTR_STOP (-EINTR)

/* The open files of the running step. */
struct stepio {
	char dir[1024];
	FILE *f[3]; /* samples.csv, table, table2 */
	char path[3][1100];
};

static double now_unix(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double track_value(enum plan_track t, const struct resdir_row *m)
{
	switch (t) {
	case TRACK_READ_IOPS:
		return m->riops;
	case TRACK_WRITE_IOPS:
		return m->wiops;
	case TRACK_BW:
		return m->bw / 1e6; /* MB/s */
	default:
		return m->iops;
	}
}

static void say(const struct planrun *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(const struct planrun *r, const char *fmt, ...)
{
	if (r->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

static int push_value(struct planrun_state *s, double v)
{
	double *n = realloc(s->values, (s->nvalues + 1) * sizeof(double));
	if (!n)
		return -ENOMEM;
	s->values = n;
	s->values[s->nvalues++] = v;
	return 0;
}

/* ---- step files and checkpoints ---- */

static void stepio_close(struct stepio *io)
{
	for (int i = 0; i < 3; i++)
		if (io->f[i]) {
			fclose(io->f[i]);
			io->f[i] = NULL;
		}
}

/* Opens the step's files: fresh (with headers) or, when the state holds a
 * checkpoint of this step, truncated to it and appended to. */
static int stepio_open(struct planrun *r, const struct plan_step *st, struct stepio *io)
{
	bool resume = r->st.sizes[0] >= 0;
	const char *names[3] = {st->kind == STEP_PURGE ? NULL : RESDIR_SAMPLES,
				resdir_step_table(st->kind, 1), resdir_step_table(st->kind, 2)};
	char msg[512];
	/* the step directory and its files: created in the checked results
	 * directory, never through a symlink (safety_out.c) */
	int dfd = safety_results_dir(io->dir, true, msg, sizeof(msg));
	if (dfd < 0) {
		fprintf(stderr, "nvscope plan: %s\n", msg);
		return dfd;
	}
	for (int i = 0; i < 3; i++) {
		if (!names[i])
			continue;
		char path[sizeof(io->path[0])];
		snprintf(path, sizeof(path), "%s/%s", io->dir, names[i]);
		memcpy(io->path[i], path, sizeof(path));
		struct stat sb;
		int fd = safety_openat_output(dfd, names[i], SAFETY_OUT_APPEND, msg, sizeof(msg));
		if (fd < 0 || !(io->f[i] = fdopen(fd, "a"))) {
			int e = fd < 0 ? fd : -errno;
			if (fd >= 0)
				close(fd);
			else
				fprintf(stderr, "nvscope plan: %s/%s\n", io->dir, msg);
			close(dfd);
			return e;
		}
		/* the checkpointed length (what an interrupted measurement
		 * half-wrote is cut), or a fresh file with its header */
		if (resume && r->st.sizes[i] >= 0 && !fstat(fd, &sb) &&
		    sb.st_size >= r->st.sizes[i] && !ftruncate(fd, r->st.sizes[i]))
			continue;
		if (ftruncate(fd, 0)) {
			close(dfd);
			return -errno;
		}
		if (i == 0)
			csv_write_header(io->f[i]);
		else
			fprintf(io->f[i], "%s\n", resdir_step_header(st->kind, i));
	}
	close(dfd);
	return 0;
}

/* Flushes the step's files to disk and records the checkpoint. */
static int checkpoint(struct planrun *r, struct stepio *io)
{
	for (int i = 0; i < 3; i++) {
		if (!io->f[i]) {
			r->st.sizes[i] = -1;
			continue;
		}
		fflush(io->f[i]);
		fsync(fileno(io->f[i]));
		r->st.sizes[i] = ftell(io->f[i]);
	}
	return planrun_save(r);
}

/* ---- one pool run ---- */

struct job {
	struct spec spec;
	unsigned qd;
	const char *json_name; /* fio JSON file in the step dir, or NULL */
	struct result res;
	struct resdir_row m;
	double t_start, t_end; /* in the step's samples.csv time */
};

struct tick {
	struct planrun *r;
	struct stepio *io;
	size_t done;		       /* rows of the aggregate series written to samples.csv */
	size_t tdone[NVS_MAX_TARGETS]; /* rows of each target's series fed */
	bool tty;
};

/* Feeds @pt of target @t (-1: the aggregate) to the console, if one
 * listens; a full ring drops it (counted by the ring). */
static void feed(struct tick *tk, int t, const struct point *pt)
{
	if (!tk->r->feed)
		return;
	struct planrun_pt fp = {.step = tk->r->st.step, .target = t, .pt = *pt};
	(void)spsc_push(tk->r->feed, &fp);
}

/* The rows of target @t's series beyond those fed, in the step's time. */
static void feed_target(struct tick *tk, unsigned t, const struct series *ser)
{
	if (!ser || t >= NVS_MAX_TARGETS)
		return;
	for (; tk->tdone[t] < ser->n; tk->tdone[t]++) {
		struct point pt = ser->pt[tk->tdone[t]];
		pt.t += tk->r->st.t_offset;
		feed(tk, (int)t, &pt);
	}
}

/* Writes the rows @ser has beyond those already written, in the step's
 * time (and a progress line on a terminal, nothing in logs). */
static void write_rows(struct tick *tk, const struct series *ser, bool progress)
{
	size_t before = tk->done;

	for (; tk->done < ser->n; tk->done++) {
		struct point pt = ser->pt[tk->done];
		pt.t += tk->r->st.t_offset;
		csv_write_point(tk->io->f[0], &pt);
		feed(tk, -1, &pt);
		if (progress && tk->tty && !pt.ramp && pt.dt >= 0.05)
			fprintf(stderr, "\r    %7.0f s %12.0f IOPS %10.1f MB/s %10.1f us   ", pt.t,
				point_iops(&pt), point_bw(&pt) / 1e6, pt.lat_mean_all_us);
	}
	/* whole rows, as they come: the console follows a plan by reading them */
	if (tk->done != before)
		fflush(tk->io->f[0]);
}

static void on_tick(const struct pool *p, const struct collect *c, void *arg)
{
	struct tick *tk = arg;
	write_rows(tk, collect_series(c, -1), true);
	if (tk->r->feed && pool_ntargets(p) > 1)
		for (unsigned t = 0; t < pool_ntargets(p); t++)
			feed_target(tk, t, collect_series(c, (int)t));
}

static int run_job(struct planrun *r, struct stepio *io, struct job *j)
{
	char err[512];
	struct runjob rj;
	struct tick tk = {.r = r, .io = io, .tty = !r->quiet && isatty(STDERR_FILENO)};
	int rc;

	j->spec.iodepth[0] = j->qd;
	j->spec.niodepth = 1;
	rc = runjob_run(&j->spec, j->qd, r->stop, on_tick, &tk, &rj, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "nvscope plan: %s\n", err);
		return rc;
	}
	if (tk.tty)
		termesc_raw(STDERR_FILENO, "\r\033[K"); /* stderr escapes every ESC */
	write_rows(&tk, &rj.series, false);
	if (r->feed && rj.ntargets > 1)
		for (unsigned t = 0; t < rj.ntargets; t++)
			feed_target(&tk, t, &rj.target_series[t]);
	if (rj.error && !rj.cancelled) {
		fprintf(stderr, "nvscope plan: I/O error: %s\n", rj.msg);
		rc = -EIO;
		goto release;
	}
	if (rj.cancelled) {
		rc = EINTR_STOP;
		goto release;
	}
	j->res = rj.agg;
	resdir_row_of(&j->res, &j->m);
	if (rj.ncores) /* the machine over the job, as reviews quote CPU */
		resdir_row_machine(&j->m, &rj.cpu_total);
	if (rj.trace_line[0] && !r->quiet)
		printf("  %s\n", rj.trace_line); /* a [trace] step's own figures */
	j->t_start = r->st.t_offset;
	double el = rj.elapsed_s;
	if (rj.series.n && rj.series.pt[rj.series.n - 1].t > el)
		el = rj.series.pt[rj.series.n - 1].t;
	r->st.t_offset += el;
	j->t_end = r->st.t_offset;
	if (j->json_name) {
		char msg[512];
		FILE *f =
		    safety_fopen_in(io->dir, j->json_name, SAFETY_OUT_TRUNC, msg, sizeof(msg));
		if (!f)
			fprintf(stderr, "nvscope plan: cannot write %s/%s: %s\n", io->dir,
				j->json_name, msg);
		/* per target results beside the aggregate when several targets */
		bool per = rj.ntargets > 1;
		if (f) {
			struct json_run jr = {.spec = &j->spec,
					      .jobs = &j->res,
					      .njobs = 1,
					      .targets = per ? rj.per_target : NULL,
					      .ntargets = per ? rj.ntargets : 0,
					      .series = &rj.series,
					      .cores = rj.cores,
					      .ncores = &rj.ncores,
					      .dropped = rj.dropped,
					      .extra_key = rj.trace_json ? "trace" : NULL,
					      .extra_json = rj.trace_json,
					      .plus = true, /* json+: the report's QoS */
					      .lat_bins = true};
			json_write_run(f, &jr);
			fclose(f);
		}
	}
	rc = 0;
release:
	runjob_release(&rj);
	return rc;
}

/* ---- the steps ---- */

static int step_purge(struct planrun *r, const struct plan_step *st, struct stepio *io)
{
	cJSON *o = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(o, "targets");
	int rc = 0;
	for (unsigned i = 0; i < r->ntargets && !rc; i++) {
		char token[256] = "";
		/* the user's confirmation, as purge wants it (serial for NVMe);
		 * none given: purge refuses */
		safety_confirmed(r->confirm, r->targets[i], token, sizeof(token));
		struct purge_opts po = {.method = st->purge_method,
					.ses = st->purge_ses,
					.confirm = token,
					.force = r->force};
		char err[512] = "";
		int nvme_status = 0;
		say(r, "  purge %s ...\n", r->targets[i]);
		rc = purge_run(r->targets[i], &po, &nvme_status, err, sizeof(err));
		cJSON *t = cJSON_CreateObject();
		cJSON_AddStringToObject(t, "target", r->targets[i]);
		cJSON_AddBoolToObject(t, "ok", rc == 0);
		cJSON_AddNumberToObject(t, "errno", -rc);
		cJSON_AddNumberToObject(t, "nvme_status", nvme_status);
		cJSON_AddStringToObject(t, "message", err);
		cJSON_AddItemToArray(arr, t);
		if (rc)
			fprintf(stderr, "nvscope plan: purge failed: %s\n", err);
	}
	planrun_write_json(io->dir, RESDIR_PURGE, o);
	cJSON_Delete(o);
	return rc;
}

/* Bytes of the workload region on @path for @s (as the engine computes). */
static uint64_t region_bytes(const struct spec *s, const char *path)
{
	struct target t;
	char err[256];
	if (target_open(&t, path, false, false, false, s->size + s->offset, err, sizeof(err)))
		return 0;
	uint64_t size = t.size;
	target_close(&t);
	uint64_t off = s->offset_pct ? (uint64_t)((double)size * s->offset_pct / 100.0) : s->offset;
	if (off >= size)
		return 0;
	uint64_t n = s->size_pct ? (uint64_t)((double)size * s->size_pct / 100.0)
		     : s->size	 ? s->size
				 : size - off;
	return n > size - off ? size - off : n;
}

static int step_fill(struct planrun *r, const struct plan_step *st, struct stepio *io)
{
	struct job *j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->spec = st->spec;
	uint64_t len = 0;
	for (unsigned i = 0; i < j->spec.ntargets; i++) {
		uint64_t l = region_bytes(&j->spec, j->spec.targets[i]);
		if (l > len)
			len = l;
	}
	uint64_t bs = j->spec.bs[0].bs ? j->spec.bs[0].bs : 131072;
	uint64_t per = (uint64_t)((double)len * st->fill_passes / j->spec.numjobs);
	per = per / bs * bs;
	j->spec.io_size = per ? per : bs;
	j->qd = j->spec.iodepth[0];
	j->json_name = RESDIR_FILL;
	say(r, "  fill: %.3g x %llu bytes with %llu-byte sequential writes, QD%u\n",
	    st->fill_passes, (unsigned long long)len, (unsigned long long)bs, j->qd);
	int rc = run_job(r, io, j);
	if (!rc)
		say(r, "  fill done: %.0f MB/s, %.1f s\n", j->m.bw / 1e6, j->t_end - j->t_start);
	free(j);
	return rc;
}

static cJSON *verdict_json(const struct plan_step *st, const struct planrun_state *s, size_t at,
			   const struct steady_verdict *v, double t_at)
{
	cJSON *o = cJSON_CreateObject();
	const struct steady_params *p = &st->ss;
	cJSON_AddStringToObject(o, "rule",
				p->rule == STEADY_SNIA	    ? "snia"
				: p->rule == STEADY_FIO_DEV ? "fio-deviation"
							    : "fio-slope");
	cJSON_AddNumberToObject(o, "window", p->window);
	cJSON_AddNumberToObject(o, "range_limit_pct",
				p->rule == STEADY_SNIA ? p->range_pct : p->fio_limit);
	cJSON_AddNumberToObject(o, "slope_limit_pct",
				p->rule == STEADY_SNIA ? p->slope_pct : p->fio_limit);
	cJSON_AddStringToObject(o, "track", plan_track_name(st->track));
	cJSON_AddBoolToObject(o, "attained", at > 0);
	if (at)
		cJSON_AddNumberToObject(o, "round", (double)at);
	else
		cJSON_AddNullToObject(o, "round");
	if (at)
		cJSON_AddNumberToObject(o, "time_s", t_at);
	else
		cJSON_AddNullToObject(o, "time_s");
	cJSON_AddNumberToObject(o, "rounds", s->nvalues);
	cJSON_AddNumberToObject(o, "max_rounds", st->max_rounds);
	if (v->valid) {
		cJSON_AddNumberToObject(o, "window_avg", v->avg);
		cJSON_AddNumberToObject(o, "range_pct", v->pct_valid ? v->range_pct : 0);
		cJSON_AddNumberToObject(o, "slope_pct", v->pct_valid ? v->slope_pct : 0);
	}
	cJSON *vals = cJSON_AddArrayToObject(o, "values");
	for (unsigned i = 0; i < s->nvalues; i++)
		cJSON_AddItemToArray(vals, cJSON_CreateNumber(s->values[i]));
	return o;
}

/* After each round: evaluates the rule; writes steady.json; true when the
 * rounds are over (steady, or the cap). */
static bool rounds_verdict(struct planrun *r, const struct plan_step *st, struct stepio *io,
			   double t_end_of_round)
{
	struct steady_verdict first, last;
	size_t at = steady_scan(r->st.values, r->st.nvalues, &st->ss, &first, &last);
	const struct steady_verdict *v = at ? &first : &last;
	if (v->valid && v->pct_valid)
		say(r, "    window avg %.0f, range %.1f%%, slope %.1f%% -> %s\n", v->avg,
		    v->range_pct, v->slope_pct, at ? "steady" : "not steady");
	bool over = at || r->st.nvalues >= st->max_rounds;
	if (over) {
		double t_at = at ? t_end_of_round : 0;
		if (at)
			say(r, "  steady state at round %zu (%.0f s)\n", at, t_at - 0.0);
		else
			say(r, "  WARNING: no steady state in %u rounds (cap)\n", r->st.nvalues);
		cJSON *o = verdict_json(st, &r->st, at, v, t_at);
		planrun_write_json(io->dir, RESDIR_STEADY, o);
		cJSON_Delete(o);
	}
	return over;
}

static int step_precondition(struct planrun *r, const struct plan_step *st, struct stepio *io)
{
	struct job *j = calloc(1, sizeof(*j));
	int rc = 0;
	if (!j)
		return -ENOMEM;
	if (r->st.nvalues && rounds_verdict(r, st, io, r->st.t_offset)) {
		free(j); /* resumed after the last round's checkpoint */
		return 0;
	}
	while (r->st.nvalues < st->max_rounds) {
		unsigned round = r->st.nvalues + 1;
		j->spec = st->spec;
		j->qd = st->spec.iodepth[0];
		j->json_name = NULL;
		rc = run_job(r, io, j);
		if (rc)
			break;
		double v = track_value(st->track, &j->m);
		fprintf(io->f[1], "%u,%.3f,%.3f,%.3f,", round, j->t_start, j->t_end, v);
		resdir_row_write(io->f[1], &j->m);
		if ((rc = push_value(&r->st, v)))
			break;
		r->st.sub = round;
		say(r, "  round %u: %.0f %s, mean %.0f us, p99 %.0f us\n", round, v,
		    plan_track_name(st->track), j->m.mean_us, j->m.p99_us);
		bool over = rounds_verdict(r, st, io, j->t_end);
		if ((rc = checkpoint(r, io)))
			break;
		if (over)
			break;
	}
	free(j);
	return rc;
}

static int step_measure(struct planrun *r, const struct plan_step *st, struct stepio *io)
{
	struct job *j = calloc(1, sizeof(*j));
	int rc = 0;
	char name[64];
	if (!j)
		return -ENOMEM;
	for (unsigned i = r->st.sub; i < st->spec.niodepth; i++) {
		j->spec = st->spec;
		j->qd = st->spec.iodepth[i];
		snprintf(name, sizeof(name), RESDIR_QD_JSON_FMT, j->qd);
		j->json_name = name;
		if ((rc = run_job(r, io, j)))
			break;
		fprintf(io->f[1], "%u,", j->qd);
		resdir_row_write(io->f[1], &j->m);
		say(r,
		    "  QD%-4u %10.0f IOPS %9.1f MB/s  mean %8.1f us  p99 %8.1f us  max %8.1f us\n",
		    j->qd, j->m.iops, j->m.bw / 1e6, j->m.mean_us, j->m.p99_us, j->m.max_us);
		r->st.sub = i + 1;
		if ((rc = checkpoint(r, io)))
			break;
	}
	free(j);
	if (!rc)
		planrun_summary(io->dir, st->spec.iodepth, st->spec.niodepth);
	return rc;
}

static int step_rate_curve(struct planrun *r, const struct plan_step *st, struct stepio *io)
{
	struct job *j = calloc(1, sizeof(*j));
	int rc = 0;
	char name[64];
	if (!j)
		return -ENOMEM;
	unsigned nworkers =
	    st->spec.numjobs * (st->spec.stripe || st->spec.fileset ? 1 : st->spec.ntargets);
	for (unsigned i = r->st.sub; i <= st->npoints; i++) {
		j->spec = st->spec;
		j->qd = st->spec.iodepth[0];
		double target = 0;
		if (i == 0) {
			j->spec.rate_iops = 0;
			snprintf(name, sizeof(name), RESDIR_MAX);
		} else {
			target = r->st.max_iops * st->points[i - 1] / 100.0;
			/* vdbench's iorate: the total across directions
			 * (rate_iops_total), not fio's per-direction rate_iops */
			double per = target / (nworkers ? nworkers : 1);
			j->spec.rate_iops = per < 1 ? 1 : (uint64_t)llround(per);
			snprintf(name, sizeof(name), RESDIR_PCT_JSON_FMT, st->points[i - 1]);
		}
		j->json_name = name;
		if ((rc = run_job(r, io, j)))
			break;
		if (i == 0) {
			r->st.max_iops = j->m.iops;
			fprintf(io->f[1], "max,0,");
			say(r, "  max   %10.0f IOPS  mean %8.1f us  p99 %8.1f us\n", j->m.iops,
			    j->m.mean_us, j->m.p99_us);
		} else {
			fprintf(io->f[1], "%g,%.1f,", st->points[i - 1], target);
			say(r, "  %4g%% %10.0f IOPS (target %.0f)  mean %8.1f us  p99 %8.1f us\n",
			    st->points[i - 1], j->m.iops, target, j->m.mean_us, j->m.p99_us);
		}
		resdir_row_write(io->f[1], &j->m);
		r->st.sub = i + 1;
		if ((rc = checkpoint(r, io)))
			break;
	}
	free(j);
	return rc;
}

static int step_grid(struct planrun *r, const struct plan_step *st, struct stepio *io)
{
	struct job *j = calloc(1, sizeof(*j));
	int rc = 0;
	char name[64];
	unsigned nq = st->spec.niodepth, n = st->nthreads * nq;
	if (!j)
		return -ENOMEM;
	for (unsigned i = r->st.sub; i < n; i++) {
		unsigned t = st->threads[i / nq], q = st->spec.iodepth[i % nq];
		j->spec = st->spec;
		j->spec.numjobs = t;
		j->qd = q;
		snprintf(name, sizeof(name), RESDIR_CELL_JSON_FMT, t, q);
		j->json_name = name;
		if ((rc = run_job(r, io, j)))
			break;
		fprintf(io->f[1], "%u,%u,", t, q);
		resdir_row_write(io->f[1], &j->m);
		say(r, "  T%-3uQ%-4u %10.0f IOPS  mean %8.1f us  p99 %8.1f us\n", t, q, j->m.iops,
		    j->m.mean_us, j->m.p99_us);
		r->st.sub = i + 1;
		if ((rc = checkpoint(r, io)))
			break;
	}
	free(j);
	return rc;
}

static void matrix_cell(const struct plan_step *st, unsigned cell, struct spec *s)
{
	unsigned bs = st->mbs[cell / st->nmixes], mix = st->mixes[cell % st->nmixes];
	bool seq = st->spec.rw == RW_READ || st->spec.rw == RW_WRITE || st->spec.rw == RW_RW;
	*s = st->spec;
	s->bs[0].bs = bs;
	s->bs[0].weight = 100;
	s->bs[0].wweight = 100;
	memset(s->bsrange, 0, sizeof(s->bsrange));
	s->nbs = 1;
	s->rw = mix == 100 ? (seq ? RW_READ : RW_RANDREAD)
		: mix == 0 ? (seq ? RW_WRITE : RW_RANDWRITE)
			   : (seq ? RW_RW : RW_RANDRW);
	s->rwmixread = mix;
}

static int step_matrix(struct planrun *r, const struct plan_step *st, struct stepio *io)
{
	struct job *j = calloc(1, sizeof(*j));
	int rc = 0;
	char name[96], b[32];
	unsigned ncells = st->nmbs * st->nmixes;
	if (!j)
		return -ENOMEM;
	if (r->st.nvalues && r->st.sub % ncells == 0 && rounds_verdict(r, st, io, r->st.t_offset)) {
		free(j);
		return 0;
	}
	while (r->st.nvalues < st->max_rounds && !rc) {
		unsigned round = r->st.nvalues + 1;
		double t0 = r->st.t_offset;
		for (unsigned cell = r->st.sub % ncells; cell < ncells; cell++) {
			matrix_cell(st, cell, &j->spec);
			j->qd = st->spec.iodepth[0];
			unsigned bs = j->spec.bs[0].bs, mix = j->spec.rwmixread;
			snprintf(name, sizeof(name), RESDIR_ROUND_JSON_FMT, round,
				 spec_fmt_size(bs, b, sizeof(b)), mix);
			j->json_name = name;
			if ((rc = run_job(r, io, j)))
				break;
			fprintf(io->f[1], "%u,%u,%u,", round, bs, mix);
			resdir_row_write(io->f[1], &j->m);
			say(r, "  round %u %6s %3u/%-3u %10.0f IOPS  mean %8.1f us  max %9.1f us\n",
			    round, b, mix, 100 - mix, j->m.iops, j->m.mean_us, j->m.max_us);
			if (bs == st->track_bs && mix == st->track_mix) {
				r->st.cur_track = track_value(st->track, &j->m);
				r->st.cur_track_valid = true;
			}
			r->st.sub++;
			if (cell + 1 < ncells && (rc = checkpoint(r, io)))
				break;
		}
		if (rc)
			break;
		double v = r->st.cur_track_valid ? r->st.cur_track : 0;
		fprintf(io->f[2], "%u,%.3f,%.3f,%.3f\n", round, t0, r->st.t_offset, v);
		if ((rc = push_value(&r->st, v)))
			break;
		r->st.cur_track_valid = false;
		bool over = rounds_verdict(r, st, io, r->st.t_offset);
		rc = checkpoint(r, io);
		if (over)
			break;
	}
	free(j);
	return rc;
}

int planrun_run(struct planrun *r)
{
	struct plan *p = r->plan;
	int rc = 0;

	while (r->st.step < p->nsteps) {
		unsigned i = r->st.step;
		const struct plan_step *st = &p->steps[i];
		struct stepio io;
		char sub[128];
		memset(&io, 0, sizeof(io));
		planrun_step_dir(p, i, sub, sizeof(sub));
		snprintf(io.dir, sizeof(io.dir), "%s/%s", r->dir, sub);
		bool resumed = r->st.sizes[0] >= 0;
		if (!resumed) {
			r->st.started = now_unix();
			r->st.t_offset = 0;
		}
		say(r, "[%u/%u] %s%s\n", i + 1, p->nsteps, st->name, resumed ? " (resumed)" : "");
		rc = stepio_open(r, st, &io);
		if (rc) {
			stepio_close(&io);
			fprintf(stderr, "nvscope plan: %s: %s\n", io.dir, strerror(-rc));
			return rc;
		}
		planrun_write_step(r, i, io.dir, "running", 0);
		if (!resumed && (rc = checkpoint(r, &io))) {
			stepio_close(&io);
			fprintf(stderr, "nvscope plan: cannot save state: %s\n", strerror(-rc));
			return -EIO;
		}
		switch (st->kind) {
		case STEP_PURGE:
			rc = step_purge(r, st, &io);
			break;
		case STEP_FILL:
			rc = step_fill(r, st, &io);
			break;
		case STEP_PRECONDITION:
			rc = step_precondition(r, st, &io);
			break;
		case STEP_MEASURE:
			rc = step_measure(r, st, &io);
			break;
		case STEP_RATE_CURVE:
			rc = step_rate_curve(r, st, &io);
			break;
		case STEP_GRID:
			rc = step_grid(r, st, &io);
			break;
		case STEP_MATRIX:
			rc = step_matrix(r, st, &io);
			break;
		}
		if (rc) {
			char cmd[4096];
			stepio_close(&io);
			if (planrun_resume_cmd(r, cmd, sizeof(cmd)))
				snprintf(cmd, sizeof(cmd),
					 "nvscope plan --resume DIR (too long to print)");
			if (rc == EINTR_STOP) {
				fprintf(stderr, "nvscope plan: interrupted; continue with: %s\n",
					cmd);
				return rc;
			}
			fprintf(stderr,
				"nvscope plan: step %u (%s) failed; the results so far are in "
				"%s (retry the step: %s)\n",
				i + 1, st->name, r->dir, cmd);
			return rc;
		}
		for (int k = 0; k < 3; k++)
			if (io.f[k])
				fflush(io.f[k]);
		planrun_write_step(r, i, io.dir, "done", now_unix());
		stepio_close(&io);
		r->st.step = i + 1;
		r->st.sub = 0;
		r->st.nvalues = 0;
		r->st.max_iops = 0;
		r->st.cur_track_valid = false;
		for (int k = 0; k < 3; k++)
			r->st.sizes[k] = -1;
		if ((rc = planrun_save(r))) {
			fprintf(stderr, "nvscope plan: cannot save state: %s\n", strerror(-rc));
			return -EIO;
		}
	}
	return 0;
}

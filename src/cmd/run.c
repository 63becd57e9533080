/* run.c - `nvscope run`: one workload (or a preset's jobs, or a QD sweep)
 * headless; fio-like summary, JSON and CSV. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/stat.h>
#include "nvscope.h"
#include "base/num.h"
#include "cmd/cmd.h"
#include "cmd/hostrun.h"
#include "config/cli.h"
#include "dev/safety.h"
#include "config/preset.h"
#include "io/core/datagen.h"
#include "run/runjob.h"
#include "run/runsteps.h"
#include "run/runwalk.h"
#include "cmd/runcheck.h"
#include "run/runfold.h"
#include "cmd/runtext.h"
#include "cmd/stopsig.h"
#include "report/csv.h"
#include "report/fiolog.h"
#include "report/json.h"

static _Atomic int interrupted; /* the signal number: stopsig.h's four */

static void on_signal(int sig)
{
	atomic_store_explicit(&interrupted, sig, memory_order_relaxed);
}

/* The files cli_jobs read: preset or job files and their includes. */
struct readlist {
	char **path;
	unsigned n;
};

struct run_opts {
	struct cli cli;
	bool json;
	bool plus; /* json+ */
	bool quiet;
	bool parse_only; /* print the parsed jobs, run nothing */
	const char *output;
	const char *output_dir; /* one JSON per job and depth (fio-plot's layout), logs */
	const char *csv;
	unsigned repeat;      /* --repeat N: each step N times (0: once) */
	const char *more[16]; /* fio's `fio a.fio b.fio`: the job files after the first */
	unsigned nmore;
	struct readlist *read; /* every file the jobs were read from (exec_run's) */
};

/* preset_extra.file: a file the jobs are read from, an input of the
 * command (no output may land on it: check_all). */
static int add_read(void *arg, const char *path, char *err, size_t errlen)
{
	struct readlist *r = arg;
	char **np = realloc(r->path, (r->n + 1) * sizeof(*np));

	if (np)
		r->path = np;
	if (!np || !(np[r->n] = strdup(path))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	r->n++;
	return 0;
}

static void progress(const struct pool *p, const struct collect *c, void *arg)
{
	const struct series *s = collect_series(c, -1);
	uint64_t planned = pool_planned_ns(p);
	char a[32], b[32];

	(void)arg;
	if (!s || !s->n)
		return;
	const struct point *pt = &s->pt[s->n - 1];
	if (planned)
		fprintf(stderr, "\r[%6.1f/%.1fs] ", (double)pool_elapsed_ns(p) / 1e9,
			(double)planned / 1e9);
	else
		fprintf(stderr, "\r[%6.1fs] ", (double)pool_elapsed_ns(p) / 1e9);
	(void)b;
	fprintf(stderr, "IOPS %s  %.1f MB/s  lat mean %.1f us p99 %.1f us   ",
		runtext_si(pt->iops[0] + pt->iops[1] + pt->iops[2], a, sizeof(a)),
		(pt->bw[0] + pt->bw[1] + pt->bw[2]) / 1e6, pt->lat_mean_all_us, pt->lat_p99_all_us);
}

static int write_csv(FILE *f, const struct series *s)
{
	csv_write_header(f);
	for (size_t i = 0; i < s->n; i++)
		csv_write_point(f, &s->pt[i]);
	return fclose(f) ? -errno : 0;
}

/* The output files, opened and checked before any I/O (safety_out.c): the
 * JSON report and one CSV per result (job x queue depth, in run order). */
struct outputs {
	FILE *json;
	FILE **csv;
	char **csv_path;
	unsigned ncsv;
};

/* Is @path one of the run's targets (the same file)? */
static bool is_target(const char *path, const struct spec *jobs, unsigned njobs)
{
	struct stat a, b;
	if (stat(path, &a))
		return false;
	for (unsigned j = 0; j < njobs; j++)
		for (unsigned t = 0; t < jobs[j].ntargets; t++)
			if (!stat(jobs[j].targets[t], &b) && a.st_dev == b.st_dev &&
			    a.st_ino == b.st_ino)
				return true;
	return false;
}

static FILE *open_output(const char *path, const struct spec *jobs, unsigned njobs)
{
	char msg[512];
	if (is_target(path, jobs, njobs)) {
		fprintf(stderr, "nvscope run: %s is a target of this run, not an output file\n",
			path);
		return NULL;
	}
	FILE *f = safety_fopen_output(path, SAFETY_OUT_TRUNC, msg, sizeof(msg));
	if (!f)
		fprintf(stderr, "nvscope run: %s\n", msg);
	return f;
}

static void close_outputs(struct outputs *out, bool remove_unused)
{
	for (unsigned i = 0; i < out->ncsv; i++) {
		if (out->csv && out->csv[i]) {
			fclose(out->csv[i]);
			if (remove_unused)
				unlink(out->csv_path[i]);
		}
		if (out->csv_path)
			free(out->csv_path[i]);
	}
	free(out->csv);
	free(out->csv_path);
	if (out->json && out->json != stdout)
		fclose(out->json);
	memset(out, 0, sizeof(*out));
}

/* Names every output of the run (the CSV files: one per result), opening
 * nothing.  0 or -ENOMEM. */
static int name_outputs(const struct run_opts *o, const struct spec *jobs, unsigned njobs,
			unsigned total, struct outputs *out)
{
	memset(out, 0, sizeof(*out));
	if (!o->csv)
		return 0;
	out->csv = calloc(total, sizeof(*out->csv));
	out->csv_path = calloc(total, sizeof(*out->csv_path));
	if (!out->csv || !out->csv_path)
		return -ENOMEM;
	size_t l = strlen(o->csv);
	int base = (int)(l - (l > 4 && !strcmp(o->csv + l - 4, ".csv") ? 4 : 0));
	for (unsigned j = 0; j < njobs; j++)
		for (unsigned q = 0; q < jobs[j].niodepth; q++) {
			char **p = &out->csv_path[out->ncsv];
			if (total == 1 ? !(*p = strdup(o->csv))
				       : asprintf(p, "%.*s-%s-qd%u.csv", base, o->csv, jobs[j].name,
						  jobs[j].iodepth[q]) < 0) {
				*p = NULL;
				return -ENOMEM;
			}
			out->ncsv++;
		}
	return 0;
}

/* Pins every target of the run by identity (safety_pin_hold), each path
 * once, before the command is checked (@hold false: releases them).  The
 * check then judges what was pinned, and every later open - a later run
 * group, a later depth of a sweep, a later job, each reopening its target
 * by path - compares with the same pin: a device or file swapped in under
 * the name at any time after the pin is refused, never checked as one
 * thing and written as another (docs/safety.md, issue 20 cause 2).  0, or
 * -errno (said; nothing held then). */
static int pin_targets(const struct spec *jobs, unsigned njobs, bool hold)
{
	char msg[512];
	int rc = 0;
	for (unsigned j = 0; j < njobs && !rc; j++)
		for (unsigned t = 0; t < jobs[j].ntargets && !rc; t++) {
			const char *p = jobs[j].targets[t];
			bool seen = false;
			for (unsigned k = 0; k <= j && !seen; k++)
				for (unsigned u = 0; u < jobs[k].ntargets && !seen; u++)
					seen = (k < j || u < t) && !strcmp(jobs[k].targets[u], p);
			if (seen)
				continue;
			if (!hold)
				safety_pin_release(p);
			else if ((rc = safety_pin_hold(p, msg, sizeof(msg))))
				fprintf(stderr, "nvscope run: %s\n", msg);
		}
	if (rc) /* releasing one never held is harmless */
		pin_targets(jobs, njobs, false);
	return rc;
}

/* The whole command checked before its first write (cmd/runcheck.h): the
 * jobs of every group and file, their targets, every output.  The targets
 * are pinned first, so that what is checked is what the pins hold and
 * every later open finds.  0 with the pins held (pin_targets releases
 * them), or -errno (said; nothing held). */
static int check_all(const struct run_opts *o, const struct spec *jobs, unsigned njobs,
		     const struct outputs *out)
{
	const char **outs = calloc(out->ncsv + 1, sizeof(*outs));
	unsigned nout = 0;
	char err[1024];
	int rc = -ENOMEM;

	if (!outs)
		goto out;
	if (o->output)
		outs[nout++] = o->output;
	for (unsigned i = 0; i < out->ncsv; i++)
		outs[nout++] = out->csv_path[i];
	/* the inputs: every preset or job file and include, as it was read */
	struct runcheck c = {.jobs = jobs,
			     .njobs = njobs,
			     .inputs = (const char *const *)o->read->path,
			     .ninputs = o->read->n,
			     .outputs = outs,
			     .noutputs = nout,
			     .output_dir = o->output_dir};
	if ((rc = pin_targets(jobs, njobs, true)))
		goto out;
	rc = runcheck_all(&c, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "nvscope run: %s\n", err);
		pin_targets(jobs, njobs, false);
	}
out:
	free(outs);
	return rc;
}

/* Opens every output of the run before it starts (named by name_outputs,
 * checked by check_all).  0, or -errno (said). */
static int open_outputs(const struct run_opts *o, const struct spec *jobs, unsigned njobs,
			struct outputs *out)
{
	if (o->output && !(out->json = open_output(o->output, jobs, njobs)))
		return -EPERM;
	for (unsigned i = 0; i < out->ncsv; i++)
		if (!(out->csv[i] = open_output(out->csv_path[i], jobs, njobs)))
			return -EPERM;
	return 0;
}

/* One step's file in --output-dir: bench-fio's name RW-QD-NUMJOBS.json,
 * which fio-plot's QD and numjobs charts read (one fio JSON per depth in a
 * directory); prefixed with the job's name when two steps would share it. */
static int step_json_name(const struct result *res, const struct json_job *info,
			  const unsigned *step, unsigned n, unsigned i, char *buf, size_t len)
{
	bool clash = false;
	unsigned nj = info[i].spec->numjobs; /* a copy's result says 1 */
	int w;

	for (unsigned k = 0; k < n; k++)
		clash |= step[k] != step[i] && info[k].spec->rw == info[i].spec->rw &&
			 res[k].iodepth == res[i].iodepth && info[k].spec->numjobs == nj;
	if (clash)
		w = snprintf(buf, len, "%s-%u-%s-%u-%u.json", res[i].name, step[i],
			     spec_rw_name(info[i].spec->rw), res[i].iodepth, nj);
	else
		w = snprintf(buf, len, "%s-%u-%u.json", spec_rw_name(info[i].spec->rw),
			     res[i].iodepth, nj);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

/* Writes one step's JSON as @name in the --output-dir directory @dirfd
 * (created and checked before the run by safety_results_dir). */
static int write_step_json(int dirfd, const char *name, const struct json_run *jr)
{
	char msg[512];
	int fd = safety_openat_output(dirfd, name, SAFETY_OUT_TRUNC, msg, sizeof(msg));
	FILE *f;
	int rc;

	if (fd < 0) {
		fprintf(stderr, "nvscope run: %s\n", msg);
		return fd;
	}
	if (!(f = fdopen(fd, "w"))) {
		rc = -errno;
		close(fd);
		return rc;
	}
	rc = json_write_run(f, jr);
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

enum { O_PARSE_ONLY = 256, O_FORMAT, O_OUTPUT, O_OUTPUT_DIR, O_CSV, O_REPEAT, O_QUIET = 'q' };

static const struct cmd_opt opts[] = {
    CMD_WORKLOAD_OPTS,
    {{"parse-only", no_argument, NULL, O_PARSE_ONLY},
     0,
     NULL,
     "print the jobs as parsed and run nothing"},
    {{"output-format", required_argument, NULL, O_FORMAT},
     0,
     "normal|json|json+",
     "the results as fio prints them: text or JSON"},
    {{"output", required_argument, NULL, O_OUTPUT},
     0,
     "FILE",
     "the results go to FILE (JSON with --output-format=json)"},
    {{"output-dir", required_argument, NULL, O_OUTPUT_DIR},
     0,
     "DIR",
     "one JSON per job and depth (fio-plot's layout), logs"},
    {{"csv", required_argument, NULL, O_CSV},
     0,
     "FILE",
     "the per-interval samples (FILE-JOB-qdN.csv for several)"},
    {{"repeat", required_argument, NULL, O_REPEAT},
     0,
     "N",
     "each step run N times in a row: their mean, min, max and spread (KDiskMark's)"},
    {{"quiet", no_argument, NULL, O_QUIET}, 'q', NULL, "no progress line"},
    HOSTRUN_OPTS,
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

static int parse(struct run_opts *o, const struct cmd_args *a)
{
	o->cli = *a->cli;
	for (unsigned i = 0; i < a->npos; i++) {
		if (!o->cli.job && !o->cli.preset) {
			o->cli.job = a->pos[i]; /* fio style: nvscope run job.fio */
			continue;
		}
		if (o->cli.job && o->nmore < NVS_ARRAY_SIZE(o->more)) {
			o->more[o->nmore++] = a->pos[i]; /* fio: each file after the first
							  * starts with a stonewall */
			continue;
		}
		fprintf(stderr, "nvscope run: '%s': %s\n", a->pos[i],
			o->cli.preset ? "a preset or job files, not both" : "at most 17 job files");
		return -EINVAL;
	}
	for (unsigned i = 0; i < a->nopt; i++) {
		const char *v = a->opt[i].val;
		switch (a->opt[i].id) {
		case O_PARSE_ONLY:
			o->parse_only = true;
			break;
		case O_QUIET:
			o->quiet = true;
			break;
		case O_FORMAT:
			if (!strcmp(v, "json") || !strcmp(v, "json+")) {
				o->json = true;
				o->plus = v[4] == '+';
			} else if (strcmp(v, "normal")) {
				fprintf(stderr,
					"nvscope run: --output-format: '%s' is not normal, json or "
					"json+\n",
					v);
				return -EINVAL;
			}
			break;
		case O_OUTPUT:
			o->output = v;
			break;
		case O_OUTPUT_DIR:
			o->output_dir = v;
			break;
		case O_CSV:
			o->csv = v;
			break;
		case O_REPEAT:
			if (num_parse_uint(v, 1, 1000, &o->repeat)) {
				fprintf(stderr,
					"nvscope run: --repeat: '%s' is not a count of 1 to 1000\n",
					v);
				return -EINVAL;
			}
			break;
		}
	}
	return 0;
}

/* The command under way: its options, jobs and outputs, the steps'
 * results. */
struct runcmd {
	const struct run_opts *o;
	struct spec *jobs;
	struct datagen_place *place; /* each job's place in the run (io/core/datagen.h) */
	unsigned njobs, total;	     /* total: the steps (job x depth) */
	struct outputs out;
	int dirfd;	    /* --output-dir, or -1 */
	struct runsteps rs; /* the results, in run order */
	FILE *human;	    /* the normal (text) output */
	bool show;	    /* the progress line */
	bool fold;	    /* fio's group_reporting: printed after the run, merged */
	bool pinned;	    /* pin_targets */
	char *repeat_json;  /* --repeat's summary for the JSON (report_repeats) */
	int status;
	char err[512];
};

/* The whole command first, its targets pinned: a refusal after a write is
 * no refusal, and what is written is what was checked; then the outputs,
 * opened before any I/O.  0 with the pins held, or NVS_EXIT_USAGE (said;
 * nothing held or open). */
static int prepare_outputs(struct runcmd *c)
{
	const struct run_opts *o = c->o;

	if (name_outputs(o, c->jobs, c->njobs, c->total, &c->out) ||
	    check_all(o, c->jobs, c->njobs, &c->out)) {
		close_outputs(&c->out, true);
		return NVS_EXIT_USAGE;
	}
	int orc = open_outputs(o, c->jobs, c->njobs, &c->out);
	if (!orc && o->output_dir &&
	    (orc = c->dirfd = safety_results_dir(o->output_dir, true, c->err, sizeof(c->err))) < 0)
		fprintf(stderr, "nvscope run: %s\n", c->err);
	if (orc < 0) {
		pin_targets(c->jobs, c->njobs, false);
		close_outputs(&c->out, true);
		return NVS_EXIT_USAGE;
	}
	return 0;
}

/* What the steps need: the results' arrays (@cap entries), the signals
 * caught.  0, or the exit status. */
static int set_up(struct runcmd *c, unsigned cap)
{
	const struct run_opts *o = c->o;
	const struct spec *j0 = &c->jobs[0];

	if (runsteps_alloc(&c->rs, cap, j0->stripe || j0->fileset ? 1 : j0->ntargets)) {
		fprintf(stderr, "nvscope run: out of memory\n");
		return NVS_EXIT_IOERR;
	}
	stopsig_catch(on_signal, true); /* SIGINT, SIGTERM, SIGHUP, SIGQUIT */
	/* fio's --output without a JSON format: the normal output goes there */
	c->human = !o->json && o->output ? c->out.json : o->json && !o->output ? stderr : stdout;
	c->show = !o->quiet && isatty(STDERR_FILENO);
	for (unsigned j = 0; j < c->njobs; j++)
		c->fold |= c->jobs[j].group_reporting && c->total == c->njobs;
	return 0;
}

/* fio's logs of job @j's step recorded from @first (write_bw_log...): each
 * copy's own, when copies. */
static void write_logs(struct runcmd *c, unsigned j, unsigned first, const struct runjob *rj,
		       const char *lsfx)
{
	const struct spec *s = &c->jobs[j];
	bool split = runsteps_apart(s, rj);
	unsigned nl = rj->nclones ? rj->nclones : 1;
	const struct series **ls = calloc(nl, sizeof(*ls));

	for (unsigned k = 0; ls && k < nl; k++)
		ls[k] = !rj->nclones || split ? &c->rs.ser[first + k] : &rj->clone_series[k];
	if (!ls || fiolog_write(s, ls, nl, fiolog_thread(c->jobs, j), c->o->output_dir, lsfx,
				c->err, sizeof(c->err))) {
		fprintf(stderr, "nvscope run: %s\n", ls ? c->err : strerror(ENOMEM));
		c->status = NVS_EXIT_IOERR;
	}
	free(ls);
}

/* The outputs of job @j's step recorded from @first, as it ends: fio's
 * logs, its CSV, its text (unless folded after the run or JSON only), a
 * replay's trace line. */
static void report_step(struct runcmd *c, unsigned j, unsigned first, const struct runjob *rj,
			const char *lsfx)
{
	const struct run_opts *o = c->o;
	const struct runsteps *rs = &c->rs;
	bool split = runsteps_apart(&c->jobs[j], rj);
	unsigned k = rs->step[first], nt = rs->ntargets;

	if (fiolog_wanted(&c->jobs[j]))
		write_logs(c, j, first, rj, lsfx);
	if (c->out.csv && k < c->out.ncsv && c->out.csv[k]) {
		FILE *cf = c->out.csv[k];
		c->out.csv[k] = NULL;
		/* the step's aggregate: kept, unless its copies were */
		if (write_csv(cf, split ? &rj->series : &rs->ser[first])) {
			fprintf(stderr, "nvscope run: cannot write %s: %s\n", c->out.csv_path[k],
				strerror(errno));
			c->status = NVS_EXIT_IOERR;
		}
	}
	for (unsigned i = first; i < rs->n && (!o->json || o->output) && !c->fold; i++) {
		struct runjob v = {.agg = rs->res[i],
				   .per_target = &rs->tres[(size_t)i * nt],
				   .ntargets = rj->ntargets < nt ? rj->ntargets : nt,
				   .series = rs->ser[i],
				   .dropped = split ? rs->res[i].dropped : rj->dropped,
				   .ss = i == first ? rs->info[first].ss : NULL};
		runtext_result(c->human, &c->jobs[j], &v);
	}
	if (rj->trace_line[0] && (!o->quiet || o->json))
		fprintf(c->human, "%s\n", rj->trace_line);
}

/* The progress line cleared (before anything else is printed). */
static void unshow(const struct runcmd *c)
{
	if (c->show)
		fprintf(stderr, "\r%80s\r", "");
}

static void note(void *arg, const char *msg)
{
	unshow(arg);
	fprintf(stderr, "nvscope run: %s\n", msg);
}

/* runwalk's step_done: the step's outputs; nonzero when they failed. */
static int step_done(void *arg, unsigned j, unsigned first, const struct runjob *rj,
		     const char *lsfx)
{
	struct runcmd *c = arg;
	int before = c->status;

	unshow(c);
	c->status = 0;
	report_step(c, j, first, rj, lsfx);
	int failed = c->status;
	if (!c->status)
		c->status = before;
	return failed;
}

/* Every step in run order (run/runwalk.c), until the last, a failure or a
 * signal. */
static void run_steps(struct runcmd *c)
{
	struct runwalk w = {.jobs = c->jobs,
			    .place = c->place,
			    .njobs = c->njobs,
			    .sweep = c->total != c->njobs || c->o->repeat > 1,
			    .repeat = c->o->repeat,
			    .log_dir = c->o->output_dir,
			    .cancel = &interrupted,
			    .tick = c->show ? progress : NULL,
			    .step_done = step_done,
			    .note = note,
			    .arg = c};
	int rc = runwalk_run(&w, &c->rs);

	if (rc) {
		unshow(c);
		fprintf(stderr, "nvscope run: %s\n", w.err);
		c->status = cmd_exit_of(rc);
	} else if (w.failed)
		c->status = NVS_EXIT_IOERR;
}

/* fio's group_reporting: the results of each report group merged into
 * one, and printed after the run. */
static void print_folded(struct runcmd *c)
{
	struct runsteps *rs = &c->rs;
	bool *grouped = calloc(rs->n, sizeof(*grouped));

	for (unsigned i = 0; grouped && i < rs->n; i++)
		grouped[i] = rs->info[i].spec->group_reporting;
	if (grouped)
		runfold_groups(rs, grouped);
	free(grouped);
	for (unsigned i = 0; i < rs->n && (!c->o->json || c->o->output); i++) {
		struct runjob v = {.agg = rs->res[i],
				   .per_target = &rs->tres[(size_t)i * rs->ntargets],
				   .ntargets = rs->ntargets,
				   .series = rs->ser[i],
				   .dropped = rs->res[i].dropped,
				   .ss = rs->info[i].ss};
		runtext_result(c->human, rs->info[i].spec, &v);
	}
}

/* The run's JSON report, to --output or stdout (closed). */
static void write_json(struct runcmd *c)
{
	const struct run_opts *o = c->o;
	const struct runsteps *rs = &c->rs;
	FILE *f = o->output ? c->out.json : stdout;
	struct diskstat alldisks[NVS_MAX_TARGETS];
	uint64_t dropped = 0;

	for (unsigned i = 0; i < rs->n; i++)
		dropped += rs->res[i].dropped;
	struct json_run jr = {.spec = &c->jobs[0],
			      .jobs = rs->res,
			      .njobs = rs->n,
			      .targets = rs->tres,
			      .ntargets = rs->ntargets,
			      .series = rs->ser,
			      .cores = rs->cores,
			      .ncores = rs->ncores,
			      .dropped = dropped,
			      .info = rs->info,
			      .plus = o->plus,
			      .disks = alldisks,
			      .ndisks = runsteps_merge_disks(rs, alldisks),
			      .groupid = rs->gid,
			      .extra_key = rs->tjson[rs->n - 1] ? "trace" : NULL,
			      .extra_json = rs->tjson[rs->n - 1],
			      .stop_signal = atomic_load(&interrupted),
			      .repeat_json = c->repeat_json};
	if (!f || json_write_run(f, &jr)) {
		fprintf(stderr, "nvscope run: cannot write %s: %s\n",
			o->output ? o->output : "JSON", strerror(errno));
		c->status = NVS_EXIT_IOERR;
	}
	if (f && f != stdout && fclose(f) && !c->status) {
		fprintf(stderr, "nvscope run: cannot write %s: %s\n", o->output, strerror(errno));
		c->status = NVS_EXIT_IOERR;
	}
	c->out.json = NULL;
}

/* --output-dir: one JSON per step, its numjobs copies together, as fio
 * writes them. */
static void write_step_jsons(struct runcmd *c)
{
	const struct runsteps *rs = &c->rs;
	unsigned nt = rs->ntargets;

	for (unsigned i = 0, k; i < rs->n; i = k) {
		char name[256];
		for (k = i + 1; k < rs->n && rs->step[k] == rs->step[i]; k++)
			;
		struct json_run jr = {.spec = rs->info[i].spec,
				      .jobs = &rs->res[i],
				      .njobs = k - i,
				      .targets = &rs->tres[(size_t)i * nt],
				      .ntargets = nt,
				      .series = &rs->ser[i],
				      .cores = &rs->cores[(size_t)i * CPU_MAX],
				      .ncores = &rs->ncores[i],
				      .dropped = rs->res[i].dropped,
				      .info = &rs->info[i],
				      .plus = c->o->plus,
				      .disks = &rs->disks[(size_t)i * NVS_MAX_TARGETS],
				      .ndisks = rs->ndisks[i],
				      .groupid = &rs->gid[i],
				      .extra_key = rs->tjson[i] ? "trace" : NULL,
				      .extra_json = rs->tjson[i]};
		int rc = step_json_name(rs->res, rs->info, rs->step, rs->n, i, name, sizeof(name));
		if (!rc)
			rc = write_step_json(c->dirfd, name, &jr);
		if (rc) {
			fprintf(stderr, "nvscope run: cannot write %s/%s: %s\n", c->o->output_dir,
				name, strerror(-rc));
			c->status = NVS_EXIT_IOERR;
		}
	}
}

/* --repeat: each step's runs summed up, as text (unless JSON only) and
 * for the JSON (c->repeat_json). */
static void report_repeats(struct runcmd *c)
{
	struct runsteps_rep *rep = calloc(c->total, sizeof(*rep));
	int n = rep ? runsteps_repeats(&c->rs, rep, c->total) : -ENOMEM;

	if (n < 0) {
		fprintf(stderr, "nvscope run: --repeat: out of memory\n");
		c->status = NVS_EXIT_IOERR;
	} else {
		if (!c->o->json || c->o->output)
			runtext_repeat_table(c->human, rep, (unsigned)n, c->o->repeat);
		c->repeat_json = runtext_repeat_json(rep, (unsigned)n, c->o->repeat);
	}
	free(rep);
}

/* The run's reports once its steps ended: fio's folded groups, the QD
 * table, the JSON, the --output-dir files, the normal output closed. */
static void report_run(struct runcmd *c)
{
	const struct run_opts *o = c->o;

	if (c->fold && c->rs.n)
		print_folded(c);
	if (c->rs.nstep > 1 && (!o->json || o->output) && o->repeat < 2)
		runtext_qd_table(c->human, c->rs.res, c->rs.n);
	if (o->repeat > 1 && c->rs.n)
		report_repeats(c);
	if (atomic_load(&interrupted))
		fprintf(stderr, "nvscope run: interrupted; partial results kept\n");
	if (c->rs.n && o->json && (o->output || !o->output_dir))
		write_json(c);
	if (c->dirfd >= 0)
		write_step_jsons(c);
	if (!o->json && o->output && c->out.json && c->rs.n) { /* the normal output, in --output */
		FILE *f = c->out.json;
		c->out.json = NULL;
		if (ferror(f) | fclose(f)) {
			fprintf(stderr, "nvscope run: cannot write %s\n", o->output);
			c->status = NVS_EXIT_IOERR;
		}
	}
}

/* Everything released, the outputs of results that never came (a failed
 * or interrupted run) removed.  The exit status. */
static int finish(struct runcmd *c)
{
	if (c->pinned)
		pin_targets(c->jobs, c->njobs, false);
	if (c->out.json && !c->rs.n) {
		fclose(c->out.json);
		c->out.json = NULL;
		unlink(c->o->output);
	}
	close_outputs(&c->out, true);
	if (c->dirfd >= 0)
		close(c->dirfd);
	runsteps_release(&c->rs);
	free(c->jobs);
	free(c->place);
	free(c->repeat_json);
	if (!c->status && atomic_load(&interrupted))
		c->status =
		    128 + atomic_load(&interrupted); /* 129 HUP, 130 INT, 131 QUIT, 143 TERM */
	return c->status;
}

/* Why --repeat cannot run these jobs, or NULL: where each run's outputs
 * would need a name of their own, or runs are not one step's. */
static const char *repeat_refused(const struct run_opts *o, const struct spec *jobs, unsigned n)
{
	if (o->repeat < 2)
		return NULL;
	if (o->csv)
		return "with --csv (each run's samples would need a file of its own)";
	if (o->output_dir)
		return "with --output-dir (each run's JSON would need a name of its own)";
	for (unsigned j = 0; j < n; j++) {
		if (fiolog_wanted(&jobs[j]))
			return "with fio's write_*_log (each run's logs would need names of their "
			       "own)";
		if (jobs[j].group_reporting)
			return "with group_reporting (it folds the jobs' results, not the runs')";
		if (j + 1 < n && jobs[j + 1].run_group == jobs[j].run_group)
			return "with jobs that run together (a fio run group without stonewall)";
	}
	return NULL;
}

/* A run that ends before its outputs: what run_command allocated, freed. */
static int give_up(struct runcmd *c, int status)
{
	free(c->jobs);
	free(c->place);
	return status;
}

static int run_command(const struct cmd_entry *self, struct cmd_args *a, struct readlist *read)
{
	struct run_opts o;
	struct runcmd c = {.o = &o, .dirfd = -1};
	unsigned cap; /* results: steps (job x depth) x numjobs copies */

	(void)self;
	memset(&o, 0, sizeof(o));
	if (parse(&o, a))
		return NVS_EXIT_USAGE;
	o.cli.no_target_ok = o.parse_only;
	struct preset_extra x = {.file = add_read, .arg = read};
	o.cli.extra = &x; /* the files read: inputs (check_all) */
	o.read = read;
	if (cli_jobs(&o.cli, &c.jobs, &c.njobs, c.err, sizeof(c.err)) ||
	    runfold_more_files(&o.cli, o.more, o.nmore, &c.jobs, &c.njobs, c.err, sizeof(c.err))) {
		fprintf(stderr, "nvscope run: %s\n", c.err);
		free(c.jobs);
		return NVS_EXIT_USAGE;
	}
	char note[PRESET_NOTE_LEN];
	/* fio's thread numbers (data, dedupe_global), beside the jobs */
	if (!(c.place = calloc(c.njobs ? c.njobs : 1, sizeof(*c.place)))) {
		free(c.jobs);
		return NVS_EXIT_IOERR;
	}
	datagen_number_run(c.jobs, c.njobs, c.place);
	for (unsigned j = 0; j < c.njobs; j++) {
		if (o.parse_only)
			preset_print_job(stdout, &c.jobs[j]);
		else if (preset_engine_note(&c.jobs[j], note, sizeof(note))[0])
			fprintf(stderr, "nvscope run: [%s] %s\n", c.jobs[j].name, note);
	}
	if (o.parse_only) {
		return give_up(&c, NVS_EXIT_OK);
	}
	cap = runsteps_size(c.jobs, c.njobs, &c.total) * (o.repeat ? o.repeat : 1);
	const char *why = repeat_refused(&o, c.jobs, c.njobs);
	if (why) {
		fprintf(stderr, "nvscope run: --repeat %u: %s\n", o.repeat, why);
		return give_up(&c, NVS_EXIT_USAGE);
	}
	if (prepare_outputs(&c)) {
		return give_up(&c, NVS_EXIT_USAGE);
	}
	c.pinned = true;
	if (!(c.status = set_up(&c, cap))) {
		run_steps(&c);
		report_run(&c);
	}
	return finish(&c);
}

static int exec_run(const struct cmd_entry *self, struct cmd_args *a)
{
	struct readlist read = {0};

	hostrun_gate_init();	     /* the far end of a run over hosts: its one start */
	if (hostrun_wanted(self, a)) /* any HOST:PATH target: the run over hosts */
		return hostrun_exec(self, a);
	int status = run_command(self, a, &read);

	for (unsigned i = 0; i < read.n; i++)
		free(read.path[i]);
	free(read.path);
	return status;
}

const struct cmd_entry cmd_run_entry = {
    .name = "run",
    .summary = "run one workload headless, print results, write JSON/CSV",
    .usage = "run --target PATH [--target PATH ...] [workload options]\n"
	     "    [--preset NAME | --job FILE.fio | FILE.fio [FILE.fio...]] [--parse-only]\n"
	     "    [--output-format=normal|json|json+] [--output FILE]\n"
	     "    [--output-dir DIR] [--csv FILE] [-q]\n"
	     "run --target HOST:PATH [--target HOST:PATH ...] [workload options]\n"
	     "    [--preset NAME] [--yes-destroy-data ID,...] [host options]\n"
	     "run (--host DEST ... | --hosts FILE) --target PATH ... [workload options]\n"
	     "    [--preset NAME] [--yes-destroy-data ID,...] [host options]\n"
	     "    [--output-format=normal|json|json+] [-q]",
    .text =
	"A job file (--job or positional) gets fio's defaults (buffered, psync = QD1);\n"
	"several job files run one after another, as fio runs them.\n"
	"workload options (fio's names): --rw= --bs= --bssplit= --rwmixread= --iodepth=N[,N..]\n"
	"  --numjobs= --runtime= --ramp_time= --time_based --size= --offset= --io_size=\n"
	"  --loops= --rate_iops=R[,W] --rate=R[,W] --rate_iops_total= --rate_process=\n"
	"  --direct=0|1 --blockalign= --percentile_list= --randrepeat=0|1\n"
	"  --ioengine=io_uring|io_uring_cmd --sqthread_poll --hipri --fixedbufs=0|1\n"
	"  --registerfiles=0|1 --iodepth_batch_submit= --iodepth_batch_complete_max=\n"
	"  --cpus_allowed=LIST --cpus_allowed_policy=shared|split --interval=1s\n"
	"  --stripe=SIZE --continue_on_error=all --bsrange= --percentage_random=\n"
	"  --random_distribution= --offset_increment= --startdelay= --thinktime=\n"
	"  --rate_min= --disable_slat=0 (slat measured: a second io_uring_enter per\n"
	"  submission; a job file measures it unless disable_slat=1)\n"
	"  --slat_percentiles=1 (every fio option: docs/cli.md, \"fio's options\")\n"
	"  data: --scramble_buffers=0|1 --refill_buffers --zero_buffers --buffer_pattern=\n"
	"  --buffer_compress_percentage= --buffer_compress_chunk= --dedupe_percentage=\n"
	"  --force-destroy (write over a partition table or filesystem signature)\n"
	"  trace replay: --read_iolog=FILE (fio iolog v2/v3, blktrace, MSR CSV)\n"
	"  --replay_no_stall --replay_time_scale=PCT --replay_redirect=DEV --replay_align=\n"
	"  --replay_scale=N --trace_copies=N --trace_stagger=TIME (docs/traces.md)\n"
	"  --write_iolog=FILE: the issued I/Os as a fio v3 iolog (fio --read_iolog)\n"
	"HOST:PATH targets run on their hosts over ssh, started together (docs/hosts.md).",
    .opts = opts,
    .notes = "exit status: 0 ok, 1 I/O error during the run, 2 bad input or refused,\n"
	     "  128 + the signal when stopped by one, results so far written (129 SIGHUP,\n"
	     "  130 SIGINT, 131 SIGQUIT, 143 SIGTERM).\n"
	     "See nvscope(1).",
    .flags = CMD_WORKLOAD,
    .exec = exec_run,
};

/* run.c - `nvscope run`: one workload (or a preset's jobs, or a QD sweep)
 * headless; fio-like summary, JSON and CSV. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "nvscope.h"
#include "cmd/cmd.h"
#include "cmd/hostrun.h"
#include "config/cli.h"
#include "dev/safety.h"
#include "config/preset.h"
#include "io/datagen.h"
#include "run/runjob.h"
#include "io/zbd.h"
#include "io/iolog.h"
#include "cmd/runcheck.h"
#include "cmd/runfold.h"
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
		(pt->bw[0] + pt->bw[1] + pt->bw[2]) / 1e6,
		pt->lat_mean_all_us, pt->lat_p99_all_us);
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

/* Sums the disk deltas of steps [0, n) by device into @out (NVS_MAX_TARGETS). */
static unsigned merge_disks(const struct diskstat *d, const unsigned *nd, unsigned n,
			    struct diskstat *out)
{
	unsigned m = 0;

	for (unsigned i = 0; i < n; i++)
		for (unsigned t = 0; t < nd[i]; t++) {
			const struct diskstat *x = &d[(size_t)i * NVS_MAX_TARGETS + t];
			unsigned k;
			for (k = 0; k < m && strcmp(out[k].name, x->name); k++)
				;
			if (k == m && m == NVS_MAX_TARGETS)
				continue;
			if (k == m)
				memset(&out[m++], 0, sizeof(*out));
			diskstat_add(&out[k], x);
		}
	return m;
}
enum { O_PARSE_ONLY = 256, O_FORMAT, O_OUTPUT, O_OUTPUT_DIR, O_CSV, O_QUIET = 'q' };

static const struct cmd_opt opts[] = {
    CMD_WORKLOAD_OPTS,
    {{"parse-only", no_argument, NULL, O_PARSE_ONLY}, 0, NULL,
     "print the jobs as parsed and run nothing"},
    {{"output-format", required_argument, NULL, O_FORMAT}, 0, "normal|json|json+",
     "the results as fio prints them: text or JSON"},
    {{"output", required_argument, NULL, O_OUTPUT}, 0, "FILE",
     "the results go to FILE (JSON with --output-format=json)"},
    {{"output-dir", required_argument, NULL, O_OUTPUT_DIR}, 0, "DIR",
     "one JSON per job and depth (fio-plot's layout), logs"},
    {{"csv", required_argument, NULL, O_CSV}, 0, "FILE",
     "the per-interval samples (FILE-JOB-qdN.csv for several)"},
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
					"nvscope run: --output-format: '%s' is not normal, json or json+\n",
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
		}
	}
	return 0;
}

/* fio's run groups (jobs between stonewalls start together): plan[j] = n
 * when jobs j..j+n-1 start together here, 1 when job j runs alone, 0 for
 * the later members of a group.  Says on stderr where nvscope differs. */
static void plan_groups(const struct spec *jobs, unsigned njobs, unsigned *plan, bool say)
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
		if (why && say)
			fprintf(stderr,
				"nvscope run: fio starts [%s] .. [%s] together (no stonewall); nvscope "
				"runs them one after another: %s\n",
				jobs[j].name, jobs[j + n - 1].name, why);
	}
}

static int run_command(const struct cmd_entry *self, struct cmd_args *a, struct readlist *read)
{
	struct run_opts o;
	struct spec *jobs = NULL;
	unsigned njobs = 0, nres = 0;
	struct result *res = NULL, *tres = NULL;
	struct series *ser = NULL;
	struct cpu_util *cores = NULL;
	unsigned *ncores = NULL;
	struct json_job *info = NULL;
	struct diskstat *disks = NULL, *alldisks = NULL;
	unsigned *ndisks = NULL;
	char **tjson = NULL; /* nvscope.trace of each step (read_iolog) */
	char err[512];
	int status = NVS_EXIT_OK;
	unsigned ntargets = 0;
	struct outputs out = {0};
	int dirfd = -1;
	unsigned *plan = NULL; /* fio run groups: plan_groups */
	unsigned *gid = NULL;  /* fio's groupid per result (a QD sweep: the step's index) */
	unsigned *step = NULL; /* the step (job x depth) each result is of */
	unsigned nstep = 0;
	const char **note = NULL; /* engine_note per result */
	struct runjob *grp = NULL; /* the results of the group being reported */
	bool zheld = false;	   /* zbd_hold taken */
	bool pinned = false;	   /* pin_targets held */
	unsigned gfirst = 0, gn = 0;
	int grc = 0;

	(void)self;
	memset(&o, 0, sizeof(o));
	if (parse(&o, a))
		return NVS_EXIT_USAGE;
	o.cli.no_target_ok = o.parse_only;
	struct preset_extra x = {.file = add_read, .arg = read};
	o.cli.extra = &x; /* the files read: inputs (check_all) */
	o.read = read;
	if (cli_jobs(&o.cli, &jobs, &njobs, err, sizeof(err)) ||
	    runfold_more_files(&o.cli, o.more, o.nmore, &jobs, &njobs, err, sizeof(err))) {
		fprintf(stderr, "nvscope run: %s\n", err);
		free(jobs);
		return NVS_EXIT_USAGE;
	}
	datagen_number_run(jobs, njobs); /* fio's thread numbers: data, dedupe_global */
	for (unsigned j = 0; j < njobs; j++) {
		if (o.parse_only)
			preset_print_job(stdout, &jobs[j]);
		else if (jobs[j].engine_note[0])
			fprintf(stderr, "nvscope run: [%s] %s\n", jobs[j].name, jobs[j].engine_note);
	}
	if (o.parse_only) {
		free(jobs);
		return NVS_EXIT_OK;
	}
	unsigned total = 0, cap = 0; /* steps (job x depth); results (numjobs copies) */
	for (unsigned j = 0; j < njobs; j++) {
		total += jobs[j].niodepth;
		cap += jobs[j].niodepth * (jobs[j].numjobs > 1 ? jobs[j].numjobs : 1);
	}
	/* the whole command first, its targets pinned: a refusal after a
	 * write is no refusal, and what is written is what was checked; then
	 * the outputs, opened before any I/O */
	if (name_outputs(&o, jobs, njobs, total, &out) || check_all(&o, jobs, njobs, &out)) {
		close_outputs(&out, true);
		free(jobs);
		return NVS_EXIT_USAGE;
	}
	pinned = true;
	int orc = open_outputs(&o, jobs, njobs, &out);
	if (!orc && o.output_dir &&
	    (orc = dirfd = safety_results_dir(o.output_dir, true, err, sizeof(err))) < 0)
		fprintf(stderr, "nvscope run: %s\n", err);
	if (orc < 0) {
		pin_targets(jobs, njobs, false);
		close_outputs(&out, true);
		free(jobs);
		return NVS_EXIT_USAGE;
	}
	ntargets = jobs[0].stripe || jobs[0].fileset ? 1 : jobs[0].ntargets;
	res = calloc(cap, sizeof(*res));
	tres = calloc((size_t)cap * ntargets, sizeof(*tres));
	ser = calloc(cap, sizeof(*ser));
	cores = calloc((size_t)cap * CPU_MAX, sizeof(*cores));
	ncores = calloc(cap, sizeof(*ncores));
	info = calloc(cap, sizeof(*info));
	disks = calloc((size_t)cap * NVS_MAX_TARGETS, sizeof(*disks));
	alldisks = calloc(NVS_MAX_TARGETS, sizeof(*alldisks));
	ndisks = calloc(cap, sizeof(*ndisks));
	tjson = calloc(cap, sizeof(*tjson));
	step = calloc(cap, sizeof(*step));
	if (!res || !tres || !ser || !cores || !ncores || !info || !disks || !alldisks || !ndisks ||
	    !tjson || !step) {
		fprintf(stderr, "nvscope run: out of memory\n");
		status = NVS_EXIT_IOERR;
		goto free_all;
	}
	stopsig_catch(on_signal, true); /* SIGINT, SIGTERM, SIGHUP, SIGQUIT */
	/* fio's --output without a JSON format: the normal output goes there */
	FILE *human = !o.json && o.output ? out.json : o.json && !o.output ? stderr : stdout;
	bool show = !o.quiet && isatty(STDERR_FILENO);

	plan = calloc(njobs, sizeof(*plan));
	gid = calloc(cap, sizeof(*gid));
	note = calloc(cap, sizeof(*note));
	if (!plan || !gid || !note) {
		status = NVS_EXIT_IOERR;
		goto free_all;
	}
	plan_groups(jobs, njobs, plan, true);
	zbd_hold(); /* zonemode=zbd: fio's zones live over the whole run */
	iolog_hold(); /* write_iolog: the run's jobs append to a file they share */
	zheld = true;
	bool fold = false; /* fio's group_reporting: printed after the run, merged */
	for (unsigned j = 0; j < njobs; j++)
		fold |= jobs[j].group_reporting && total == njobs;
	for (unsigned j = 0; j < njobs && !atomic_load(&interrupted); j++) {
		for (unsigned q = 0; q < jobs[j].niodepth && !atomic_load(&interrupted); q++) {
			struct runjob rj;
			struct rusage ru0, ru1;
			struct diskstat d0[NVS_MAX_TARGETS], d1;
			struct timespec t0, t1;
			bool have[NVS_MAX_TARGETS];
			for (unsigned t = 0; t < jobs[j].ntargets && t < NVS_MAX_TARGETS; t++)
				have[t] = !diskstat_read(jobs[j].targets[t], &d0[t]);
			getrusage(RUSAGE_SELF, &ru0);
			clock_gettime(CLOCK_MONOTONIC, &t0);
			char sfx[64];
			struct fiolog_hist *hl = NULL;
			snprintf(sfx, sizeof(sfx), "-iodepth-%u-numjobs-%u", jobs[j].iodepth[q],
				 jobs[j].numjobs);
			const char *lsfx = jobs[j].niodepth > 1 ? sfx : "";
			int rc;
			if (plan[j] > 1) { /* a fio run group: started together */
				unsigned *qds = calloc(plan[j], sizeof(*qds)); /* 0: each its depth */
				for (unsigned g = 0; grp && g < gn; g++)
					runjob_release(&grp[g]);
				free(grp);
				gfirst = j;
				gn = plan[j];
				grp = calloc(gn, sizeof(*grp));
				grc = grp && qds ? runjob_run_many(&jobs[j], qds, gn, &interrupted,
								   show ? progress : NULL, NULL, grp,
								   err, sizeof(err))
						 : -ENOMEM;
				free(qds);
			}
			if (grp && j >= gfirst && j < gfirst + gn) {
				/* a job of a group run together: no histogram log (the
				 * row hook serves one job); the process and disk
				 * figures of the group go to its first job */
				if (jobs[j].log_hist[0])
					fprintf(stderr,
						"nvscope run: [%s] write_hist_log is not written for "
						"jobs run together\n",
						jobs[j].name);
				rc = grc;
				rj = grp[j - gfirst];
				memset(&grp[j - gfirst], 0, sizeof(rj)); /* now rj's to release */
			} else {
				rc = fiolog_hist_open(&jobs[j], fiolog_thread(jobs, j), o.output_dir,
						      lsfx, &hl, err, sizeof(err));
				if (!rc)
					rc = runjob_run_rows(&jobs[j], jobs[j].iodepth[q], &interrupted,
							     show ? progress : NULL, NULL,
							     hl ? fiolog_hist_row : NULL, hl, &rj, err,
							     sizeof(err));
			}
			clock_gettime(CLOCK_MONOTONIC, &t1);
			getrusage(RUSAGE_SELF, &ru1);
			char herr[256];
			if (fiolog_hist_close(hl, herr, sizeof(herr)) && !rc) {
				fprintf(stderr, "nvscope run: %s\n", herr);
				status = NVS_EXIT_IOERR;
			}
			if (show)
				fprintf(stderr, "\r%80s\r", "");
			if (rc) {
				fprintf(stderr, "nvscope run: %s\n", err);
				status = cmd_exit_of(rc);
				goto report;
			}
			/* fio without group_reporting lists each of numjobs copies;
			 * with it, one entry whose job_runtime is theirs summed */
			bool split = rj.nclones && !jobs[j].group_reporting;
			double jrt = 0;
			for (unsigned c = 0; c < rj.nclones; c++)
				jrt += rj.clone[c].runtime_s;
			unsigned ncl = split ? rj.nclones : 1, first = nres;
			double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
				    (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
			for (unsigned c = 0; c < ncl; c++, nres++) {
				const struct result *cr = split ? &rj.clone[c] : &rj.agg;
				gid[nres] = total == njobs ? jobs[j].report_group : nstep;
				step[nres] = nstep;
				note[nres] = jobs[j].engine_note;
				res[nres] = *cr;
				if (rj.error && !res[nres].error)
					res[nres].error = -rj.error;
				info[nres] = (struct json_job){
				    .spec = &jobs[j],
				    .elapsed_s = rj.elapsed_s,
				    .job_runtime_s = split || !jrt ? cr->runtime_s : jrt};
				for (unsigned t = 0; t < ntargets && t < rj.ntargets; t++)
					tres[nres * ntargets + t] =
					    split ? rj.clone_target[(size_t)c * rj.ntargets + t]
						  : rj.per_target[t];
				ncores[nres] = rj.ncores;
				memcpy(&cores[(size_t)nres * CPU_MAX], rj.cores, sizeof(rj.cores));
				if (split) {
					ser[nres] = rj.clone_series[c];
					rj.clone_series[c] = (struct series){0};
				}
			}
			/* the process, disk and trace figures once, on the first copy
			 * (group_reporting and the top-level disk_util sum them) */
			info[first].ctx =
			    (uint64_t)(ru1.ru_nvcsw - ru0.ru_nvcsw + ru1.ru_nivcsw - ru0.ru_nivcsw);
			info[first].majf = (uint64_t)(ru1.ru_majflt - ru0.ru_majflt);
			info[first].minf = (uint64_t)(ru1.ru_minflt - ru0.ru_minflt);
			for (unsigned t = 0; t < jobs[j].ntargets && t < NVS_MAX_TARGETS; t++)
				if (have[t] && !diskstat_read(jobs[j].targets[t], &d1))
					diskstat_delta(&d0[t], &d1, ms,
						       &disks[(size_t)first * NVS_MAX_TARGETS +
							      ndisks[first]++]);
			if (fiolog_wanted(&jobs[j])) { /* fio's: each copy's own, when copies */
				unsigned nl = rj.nclones ? rj.nclones : 1;
				const struct series **ls = calloc(nl, sizeof(*ls));
				for (unsigned c = 0; ls && c < nl; c++)
					ls[c] = !rj.nclones ? &rj.series
						: split	    ? &ser[first + c]
							    : &rj.clone_series[c];
				if (!ls || fiolog_write(&jobs[j], ls, nl, fiolog_thread(jobs, j),
							o.output_dir, lsfx, err, sizeof(err))) {
					fprintf(stderr, "nvscope run: %s\n", ls ? err : strerror(ENOMEM));
					status = NVS_EXIT_IOERR;
				}
				free(ls);
			}
			if (out.csv && nstep < out.ncsv && out.csv[nstep]) {
				FILE *cf = out.csv[nstep];
				out.csv[nstep] = NULL;
				if (write_csv(cf, &rj.series)) {
					fprintf(stderr, "nvscope run: cannot write %s: %s\n",
						out.csv_path[nstep], strerror(errno));
					status = NVS_EXIT_IOERR;
				}
			}
			for (unsigned c = first; c < nres && (!o.json || o.output) && !fold; c++) {
				struct runjob v = {.agg = res[c],
						   .per_target = &tres[(size_t)c * ntargets],
						   .ntargets = rj.ntargets < ntargets ? rj.ntargets
										      : ntargets,
						   .series = split ? ser[c] : rj.series,
						   .dropped = split ? res[c].dropped : rj.dropped,
						   .ss = c == first ? rj.ss : NULL};
				runtext_result(human, &jobs[j], &v);
			}
			if (rj.trace_line[0] && (!o.quiet || o.json))
				fprintf(human, "%s\n", rj.trace_line);
			tjson[first] = rj.trace_json;
			rj.trace_json = NULL;
			if (!split) {
				ser[first] = rj.series;
				rj.series = (struct series){0};
			}
			info[first].ss = rj.ss; /* fio's steady state: freed with info */
			rj.ss = NULL;
			nstep++;
			if (rj.error) {
				fprintf(stderr, "nvscope run: %s\n", rj.msg);
				status = NVS_EXIT_IOERR;
			}
			runjob_release(&rj);
			/* a failed job stops the run, after the rest of its run
			 * group (run together with it) is recorded, as fio lists it */
			if (status && !(grp && j >= gfirst && j + 1 < gfirst + gn))
				goto report;
		}
		/* exit_what=all: the rest of the jobs never start */
		bool in_grp = grp && j >= gfirst && j < gfirst + gn;
		if (jobs[j].exitall && (!in_grp || j == gfirst + gn - 1) &&
		    runfold_exit_all(jobs, in_grp ? gfirst : j, j)) {
			/* fio lists the jobs that never started, with zero figures */
			struct runfold f = {.res = res, .tres = tres, .ntargets = ntargets,
					    .ser = ser, .info = info, .gid = gid, .note = note,
					    .tjson = tjson, .cores = cores, .ncores = ncores,
					    .disks = disks, .ndisks = ndisks, .step = step,
					    .n = nres};
			runfold_unstarted(&f, jobs, j + 1, njobs, total != njobs, &nstep);
			nres = f.n;
			break;
		}
	}
report:
	if (fold && nres) {
		bool *grouped = calloc(nres, sizeof(*grouped));
		struct runfold f = {.res = res, .tres = tres, .ntargets = ntargets, .ser = ser,
				    .info = info, .gid = gid, .note = note, .tjson = tjson,
				    .cores = cores, .ncores = ncores, .disks = disks,
				    .ndisks = ndisks, .step = step, .n = nres};
		for (unsigned i = 0; grouped && i < nres; i++)
			grouped[i] = info[i].spec->group_reporting;
		if (grouped)
			nres = runfold_groups(&f, grouped);
		free(grouped);
		for (unsigned i = 0; i < nres && (!o.json || o.output); i++) {
			struct runjob v = {.agg = res[i], .per_target = &tres[(size_t)i * ntargets],
					   .ntargets = ntargets, .series = ser[i],
					   .dropped = res[i].dropped, .ss = info[i].ss};
			runtext_result(human, info[i].spec, &v);
		}
	}
	if (nstep > 1 && (!o.json || o.output))
		runtext_qd_table(human, res, nres);
	if (atomic_load(&interrupted))
		fprintf(stderr, "nvscope run: interrupted; partial results kept\n");
	if (nres && o.json && (o.output || !o.output_dir)) {
		FILE *f = o.output ? out.json : stdout;
		uint64_t dropped = 0;
		for (unsigned i = 0; i < nres; i++)
			dropped += res[i].dropped;
		struct json_run jr = {.spec = &jobs[0], .jobs = res, .njobs = nres,
				      .targets = tres, .ntargets = ntargets, .series = ser,
				      .cores = cores, .ncores = ncores,
				      .dropped = dropped, .info = info, .plus = o.plus,
				      .disks = alldisks,
				      .ndisks = merge_disks(disks, ndisks, nres, alldisks),
				      .groupid = gid, .engine_note = note,
				      .extra_key = tjson[nres - 1] ? "trace" : NULL,
				      .extra_json = tjson[nres - 1],
				      .stop_signal = atomic_load(&interrupted)};
		if (!f || json_write_run(f, &jr)) {
			fprintf(stderr, "nvscope run: cannot write %s: %s\n",
				o.output ? o.output : "JSON", strerror(errno));
			status = NVS_EXIT_IOERR;
		}
		if (f && f != stdout && fclose(f) && !status) {
			fprintf(stderr, "nvscope run: cannot write %s: %s\n", o.output,
				strerror(errno));
			status = NVS_EXIT_IOERR;
		}
		out.json = NULL;
	}
	for (unsigned i = 0, k; dirfd >= 0 && i < nres; i = k) {
		char name[256];
		/* one file per step: its numjobs copies together, as fio writes them */
		for (k = i + 1; k < nres && step[k] == step[i]; k++)
			;
		struct json_run jr = {.spec = info[i].spec, .jobs = &res[i], .njobs = k - i,
				      .targets = &tres[(size_t)i * ntargets], .ntargets = ntargets,
				      .series = &ser[i], .cores = &cores[(size_t)i * CPU_MAX],
				      .ncores = &ncores[i], .dropped = res[i].dropped,
				      .info = &info[i], .plus = o.plus,
				      .disks = &disks[(size_t)i * NVS_MAX_TARGETS],
				      .ndisks = ndisks[i], .groupid = &gid[i],
				      .extra_key = tjson[i] ? "trace" : NULL, .extra_json = tjson[i]};
		int rc = step_json_name(res, info, step, nres, i, name, sizeof(name));
		if (!rc)
			rc = write_step_json(dirfd, name, &jr);
		if (rc) {
			fprintf(stderr, "nvscope run: cannot write %s/%s: %s\n", o.output_dir, name,
				strerror(-rc));
			status = NVS_EXIT_IOERR;
		}
	}
	if (!o.json && o.output && out.json && nres) { /* the normal output, in --output */
		FILE *f = out.json;
		out.json = NULL;
		if (ferror(f) | fclose(f)) {
			fprintf(stderr, "nvscope run: cannot write %s\n", o.output);
			status = NVS_EXIT_IOERR;
		}
	}
free_all:
	if (pinned)
		pin_targets(jobs, njobs, false);
	if (zheld) {
		zbd_release();
		iolog_release();
	}
	/* outputs of results that never came (failed or interrupted run) */
	if (out.json && !nres) {
		fclose(out.json);
		out.json = NULL;
		unlink(o.output);
	}
	close_outputs(&out, true);
	if (dirfd >= 0)
		close(dirfd);
	for (unsigned g = 0; grp && g < gn; g++)
		runjob_release(&grp[g]);
	free(grp);
	free(plan);
	free(gid);
	free(step);
	free(note);
	for (unsigned i = 0; i < nres; i++)
		series_release(&ser[i]);
	for (unsigned i = 0; tjson && i < cap; i++)
		free(tjson[i]);
	free(tjson);
	free(ser);
	for (unsigned i = 0; info && i < nres; i++)
		fioss_free(info[i].ss);
	free(info);
	free(disks);
	free(alldisks);
	free(ndisks);
	free(cores);
	free(ncores);
	free(tres);
	free(res);
	free(jobs);
	if (!status && atomic_load(&interrupted))
		status = 128 + atomic_load(&interrupted); /* 129 HUP, 130 INT, 131 QUIT, 143 TERM */
	return status;
}

static int exec_run(const struct cmd_entry *self, struct cmd_args *a)
{
	struct readlist read = {0};

	hostrun_gate_init(); /* the far end of a run over hosts: its one start */
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
	     "    [--output-format=normal|json|json+] [-q]",
    .text = "A job file (--job or positional) gets fio's defaults (buffered, psync = QD1);\n"
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

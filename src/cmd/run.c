/* run.c - `nvscope run`: one workload (or a preset's jobs, or a QD sweep)
 * headless; fio-like summary, JSON and CSV. */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "nvscope.h"
#include "cmd/cmd.h"
#include "config/cli.h"
#include "config/preset.h"
#include "io/runjob.h"
#include "report/csv.h"
#include "report/json.h"

static _Atomic int interrupted; /* set by SIGINT/SIGTERM only */

static void on_signal(int sig)
{
	(void)sig;
	atomic_store_explicit(&interrupted, 1, memory_order_relaxed);
}

struct run_opts {
	struct cli cli;
	bool json;
	bool quiet;
	bool parse_only; /* print the parsed jobs, run nothing */
	const char *output;
	const char *csv;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nvscope run --target PATH [--target PATH ...] [workload options]\n"
		"                   [--preset NAME | --job FILE.fio | FILE.fio] [--parse-only]\n"
		"                   [--output-format=normal|json] [--output FILE] [--csv FILE] [-q]\n"
		"a job file (--job or positional) gets fio's defaults (buffered, psync = QD1);\n"
		"--parse-only prints the jobs as parsed and runs nothing.\n"
		"workload options (fio's names): --rw= --bs= --bssplit= --rwmixread= --iodepth=N[,N..]\n"
		"  --numjobs= --runtime= --ramp_time= --time_based --size= --offset= --io_size=\n"
		"  --loops= --rate_iops= --rate_process=linear|poisson --direct=0|1 --blockalign=\n"
		"  --ioengine=io_uring|io_uring_cmd --sqthread_poll --hipri --fixedbufs=0|1\n"
		"  --registerfiles=0|1 --iodepth_batch_submit= --iodepth_batch_complete_max=\n"
		"  --cpus_allowed=LIST --interval=1s --stripe=SIZE --continue_on_error=all\n"
		"  --force-destroy (write over a partition table or filesystem signature)\n"
		"exit status: 0 ok, 1 I/O error during the run, 2 bad input or refused.\n"
		"See nvscope(1).\n");
}

static const char *si(double v, char *buf, size_t len)
{
	if (v >= 1e9)
		snprintf(buf, len, "%.2fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
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
		si(pt->iops[0] + pt->iops[1], a, sizeof(a)), (pt->bw[0] + pt->bw[1]) / 1e6,
		pt->lat_mean_all_us, pt->lat_p99_all_us);
}

static void print_dir(FILE *f, const struct result *r, enum nvs_dir d)
{
	const struct result_dir *rd = &r->dir[d];
	char a[32], b[32], c[32];

	if (!rd->ios && !rd->errors)
		return;
	(void)b;
	fprintf(f, "  %s: IOPS=%s, BW=%.1fMiB/s (%.1fMB/s) (%sB in %.2fs)\n",
		d == NVS_READ ? "read" : "write", si(result_iops(r, d), a, sizeof(a)),
		result_bw(r, d) / 1048576.0, result_bw(r, d) / 1e6,
		si((double)rd->bytes, c, sizeof(c)), r->runtime_s);
	const struct hist *h = &rd->lat;
	if (h->n) {
		fprintf(f, "    lat (usec): min=%.1f, max=%.1f, avg=%.2f, stdev=%.2f\n",
			(double)h->min / 1e3, (double)h->max / 1e3, hist_mean(h) / 1e3,
			hist_stddev(h) / 1e3);
		fprintf(f,
			"    lat percentiles (usec): 50th=%.1f, 99th=%.1f, 99.9th=%.1f, "
			"99.99th=%.1f\n",
			(double)hist_percentile(h, 50) / 1e3, (double)hist_percentile(h, 99) / 1e3,
			(double)hist_percentile(h, 99.9) / 1e3,
			(double)hist_percentile(h, 99.99) / 1e3);
	}
	if (rd->errors)
		fprintf(f, "    errors: %llu (first: %s)\n", (unsigned long long)rd->errors,
			strerror(rd->first_errno));
}

static void print_result(FILE *f, const struct spec *s, const struct runjob *rj)
{
	const struct result *r = &rj->agg;
	char a[32];
	double cpu = r->usr_s + r->sys_s;

	fprintf(f, "%s: (rw=%s, bs=%s%s, iodepth=%u, jobs=%u) %s\n", r->name, spec_rw_name(s->rw),
		spec_fmt_size(s->bs[0].bs, a, sizeof(a)), s->nbs > 1 ? " (bssplit)" : "",
		r->iodepth, r->numjobs, r->target);
	print_dir(f, r, NVS_READ);
	print_dir(f, r, NVS_WRITE);
	fprintf(f, "  cpu: usr=%.1f%%, sys=%.1f%% of one core; IOPS per CPU-second: %s\n",
		r->runtime_s > 0 ? 100 * r->usr_s / r->runtime_s : 0,
		r->runtime_s > 0 ? 100 * r->sys_s / r->runtime_s : 0,
		si(cpu > 0 ? (double)(r->dir[0].ios + r->dir[1].ios) / cpu : 0, a, sizeof(a)));
	fprintf(f, "  samples: %zu intervals, %llu dropped\n", rj->series.n,
		(unsigned long long)rj->dropped);
	for (unsigned m = 0; m < r->nmembers && m < s->ntargets; m++)
		fprintf(f, "  member %-24s IOPS=%s\n", s->targets[m],
			si(r->runtime_s > 0 ? (double)r->member[m].ios / r->runtime_s : 0, a,
			   sizeof(a)));
	if (rj->ntargets > 1)
		for (unsigned t = 0; t < rj->ntargets; t++) {
			const struct result *tr = &rj->per_target[t];
			fprintf(f, "  %-24s IOPS=%s\n", tr->target,
				si(result_total_iops(tr), a, sizeof(a)));
		}
}

static void print_qd_table(FILE *f, const struct result *res, unsigned n)
{
	fprintf(f, "\n%6s %12s %10s %10s %10s %10s %7s\n", "QD", "IOPS", "MB/s", "mean us",
		"p99 us", "max us", "CPU %");
	for (unsigned i = 0; i < n; i++) {
		const struct result *r = &res[i];
		struct hist h;
		hist_init(&h);
		hist_merge(&h, &r->dir[0].lat);
		hist_merge(&h, &r->dir[1].lat);
		fprintf(f, "%6u %12.0f %10.1f %10.1f %10.1f %10.1f %7.1f\n", r->iodepth,
			result_total_iops(r), (result_bw(r, NVS_READ) + result_bw(r, NVS_WRITE)) / 1e6,
			hist_mean(&h) / 1e3, (double)hist_percentile(&h, 99) / 1e3,
			(double)h.max / 1e3,
			r->runtime_s > 0 ? 100 * (r->usr_s + r->sys_s) / r->runtime_s : 0);
	}
}

static int write_csv(const char *path, const struct series *s)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -errno;
	csv_write_header(f);
	for (size_t i = 0; i < s->n; i++)
		csv_write_point(f, &s->pt[i]);
	return fclose(f) ? -errno : 0;
}

static int parse(struct run_opts *o, int argc, char **argv)
{
	char err[256];

	for (int i = 1; i < argc;) {
		const char *a = argv[i];
		int rc = cli_take(&o->cli, argc, argv, &i, err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "nvscope run: %s\n", err);
			return -EINVAL;
		}
		if (rc > 0)
			continue;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(NVS_EXIT_OK);
		} else if (!strcmp(a, "--parse-only")) {
			o->parse_only = true;
		} else if (a[0] != '-' && !o->cli.job && !o->cli.preset) {
			o->cli.job = a; /* fio style: nvscope run job.fio */
		} else if (a[0] != '-') {
			fprintf(stderr, "nvscope run: one job file at a time ('%s', then '%s')\n",
				o->cli.job ? o->cli.job : o->cli.preset, a);
			return -EINVAL;
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			o->quiet = true;
		} else if (!strncmp(a, "--output-format=", 16)) {
			if (!strcmp(a + 16, "json"))
				o->json = true;
			else if (strcmp(a + 16, "normal")) {
				fprintf(stderr, "nvscope run: --output-format: '%s' is not normal or json\n",
					a + 16);
				return -EINVAL;
			}
		} else if ((!strcmp(a, "--output") || !strcmp(a, "--csv")) && i + 1 < argc) {
			*(a[2] == 'o' ? &o->output : &o->csv) = argv[++i];
		} else if (!strncmp(a, "--output=", 9)) {
			o->output = a + 9;
		} else if (!strncmp(a, "--csv=", 6)) {
			o->csv = a + 6;
		} else {
			fprintf(stderr, "nvscope run: unknown option '%s' (see nvscope run --help)\n", a);
			return -EINVAL;
		}
		i++;
	}
	return 0;
}

/* Both write one block device: nvscope holds a device it writes
 * exclusively (O_EXCL), so they cannot run at once. */
static bool write_same_device(const struct spec *a, const struct spec *b)
{
	if (!spec_writes(a) || !spec_writes(b))
		return false;
	for (unsigned i = 0; i < a->ntargets; i++)
		for (unsigned k = 0; k < b->ntargets; k++) {
			struct stat sa, sb;
			if (!stat(a->targets[i], &sa) && !stat(b->targets[k], &sb) &&
			    S_ISBLK(sa.st_mode) && S_ISBLK(sb.st_mode) && sa.st_rdev == sb.st_rdev)
				return true;
		}
	return false;
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
		for (unsigned k = j; k < j + n && !why; k++) {
			if (jobs[k].niodepth > 1)
				why = "an iodepth list (a QD sweep) runs depth by depth";
			for (unsigned m = j; m < k && !why; m++)
				if (write_same_device(&jobs[m], &jobs[k]))
					why = "two of them write one block device, which nvscope opens "
					      "exclusively";
		}
		for (unsigned k = j; k < j + n; k++)
			plan[k] = why ? 1 : k == j ? n : 0;
		if (why && say)
			fprintf(stderr,
				"nvscope run: fio starts [%s] .. [%s] together (no stonewall); nvscope "
				"runs them one after another: %s\n",
				jobs[j].name, jobs[j + n - 1].name, why);
	}
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	struct spec *jobs = NULL;
	unsigned njobs = 0, nres = 0;
	struct result *res = NULL, *tres = NULL;
	struct series *ser = NULL;
	struct cpu_util *cores = NULL;
	unsigned *ncores = NULL;
	char err[512];
	int status = NVS_EXIT_OK;
	unsigned ntargets = 0;
	unsigned *plan = NULL; /* fio run groups: plan_groups */
	unsigned *gid = NULL;  /* fio's groupid per result (job files without QD sweeps) */
	const char **note = NULL; /* engine_note per result */
	struct runjob *grp = NULL; /* the results of the group being reported */
	unsigned gfirst = 0, gn = 0;
	int grc = 0;

	memset(&o, 0, sizeof(o));
	if (parse(&o, argc, argv))
		return NVS_EXIT_USAGE;
	o.cli.no_target_ok = o.parse_only;
	if (cli_jobs(&o.cli, &jobs, &njobs, err, sizeof(err))) {
		fprintf(stderr, "nvscope run: %s\n", err);
		return NVS_EXIT_USAGE;
	}
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
	unsigned total = 0;
	for (unsigned j = 0; j < njobs; j++)
		total += jobs[j].niodepth;
	ntargets = jobs[0].stripe ? 1 : jobs[0].ntargets;
	res = calloc(total, sizeof(*res));
	tres = calloc((size_t)total * ntargets, sizeof(*tres));
	ser = calloc(total, sizeof(*ser));
	cores = calloc((size_t)total * CPU_MAX, sizeof(*cores));
	ncores = calloc(total, sizeof(*ncores));
	if (!res || !tres || !ser || !cores || !ncores) {
		fprintf(stderr, "nvscope run: out of memory\n");
		status = NVS_EXIT_IOERR;
		goto free_all;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	FILE *human = o.json && !o.output ? stderr : stdout;
	bool show = !o.quiet && isatty(STDERR_FILENO);

	plan = calloc(njobs, sizeof(*plan));
	gid = calloc(total, sizeof(*gid));
	note = calloc(total, sizeof(*note));
	if (!plan || !gid || !note) {
		status = NVS_EXIT_IOERR;
		goto free_all;
	}
	plan_groups(jobs, njobs, plan, true);
	for (unsigned j = 0; j < njobs && !atomic_load(&interrupted); j++) {
		for (unsigned q = 0; q < jobs[j].niodepth && !atomic_load(&interrupted); q++) {
			struct runjob rj;
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
				rc = grc;
				rj = grp[j - gfirst];
				memset(&grp[j - gfirst], 0, sizeof(rj)); /* now rj's to release */
			} else {
				rc = runjob_run(&jobs[j], jobs[j].iodepth[q], &interrupted,
						show ? progress : NULL, NULL, &rj, err, sizeof(err));
			}
			if (show)
				fprintf(stderr, "\r%80s\r", "");
			if (rc) {
				fprintf(stderr, "nvscope run: %s\n", err);
				status = rc == -EINVAL || rc == -EPERM || rc == -ENOENT ||
						 rc == -EACCES || rc == -ENOTTY || rc == -EISDIR
						 ? NVS_EXIT_USAGE
						 : NVS_EXIT_IOERR;
				goto report;
			}
			gid[nres] = jobs[j].report_group;
			note[nres] = jobs[j].engine_note;
			res[nres] = rj.agg;
			for (unsigned t = 0; t < ntargets && t < rj.ntargets; t++)
				tres[nres * ntargets + t] = rj.per_target[t];
			if (!o.json || o.output)
				print_result(human, &jobs[j], &rj);
			ncores[nres] = rj.ncores;
			memcpy(&cores[(size_t)nres * CPU_MAX], rj.cores, sizeof(rj.cores));
			ser[nres] = rj.series;
			rj.series = (struct series){0};
			nres++;
			if (rj.error) {
				fprintf(stderr, "nvscope run: %s\n", rj.msg);
				status = NVS_EXIT_IOERR;
			}
			runjob_release(&rj);
			if (status)
				goto report;
		}
	}
report:
	if (nres > 1 && (!o.json || o.output))
		print_qd_table(human, res, nres);
	if (atomic_load(&interrupted))
		fprintf(stderr, "nvscope run: interrupted; partial results kept\n");
	if (nres && o.json) {
		FILE *f = o.output ? fopen(o.output, "w") : stdout;
		uint64_t dropped = 0;
		for (unsigned i = 0; i < nres; i++)
			dropped += res[i].dropped;
		struct json_run jr = {.spec = &jobs[0], .jobs = res, .njobs = nres,
				      .targets = tres, .ntargets = ntargets, .series = ser,
				      .cores = cores, .ncores = ncores,
				      .dropped = dropped, .groupid = total == njobs ? gid : NULL,
				      .engine_note = note};
		if (!f || json_write_run(f, &jr)) {
			fprintf(stderr, "nvscope run: cannot write %s: %s\n",
				o.output ? o.output : "JSON", strerror(errno));
			status = NVS_EXIT_IOERR;
		}
		if (f && f != stdout)
			fclose(f);
	}
	if (nres && o.csv) {
		for (unsigned i = 0; i < nres; i++) {
			char path[1024];
			if (nres == 1)
				snprintf(path, sizeof(path), "%s", o.csv);
			else
				snprintf(path, sizeof(path), "%.*s-%s-qd%u.csv",
					 (int)(strlen(o.csv) - (strstr(o.csv, ".csv") ? 4 : 0)), o.csv,
					 res[i].name, res[i].iodepth);
			if (write_csv(path, &ser[i])) {
				fprintf(stderr, "nvscope run: cannot write %s: %s\n", path,
					strerror(errno));
				status = NVS_EXIT_IOERR;
			}
		}
	}
free_all:
	for (unsigned g = 0; grp && g < gn; g++)
		runjob_release(&grp[g]);
	free(grp);
	free(plan);
	free(gid);
	free(note);
	for (unsigned i = 0; i < nres; i++)
		series_release(&ser[i]);
	free(ser);
	free(cores);
	free(ncores);
	free(tres);
	free(res);
	free(jobs);
	if (!status && atomic_load(&interrupted))
		status = 130;
	return status;
}

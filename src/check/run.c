/* run.c - a check profile over a batch of drives (see run.h). */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "check/resdir.h"
#include "check/run.h"
#include "dev/devmodel.h"
#include "dev/nvme.h"
#include "dev/safety.h"
#include "run/runjob.h"
#include "io/feat/verify.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/resnames.h"

static double unix_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

void check_safe_name(const char *serial, char *buf, size_t len)
{
	size_t i = 0;

	for (; serial[i] && i + 1 < len; i++) {
		char c = serial[i];
		bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
		buf[i] = ok && !(i == 0 && c == '.') ? c : '_';
	}
	if (len)
		buf[i < len ? i : len - 1] = '\0';
	if (len > 1 && !buf[0])
		snprintf(buf, len, "_");
}

int check_drive_identify(struct check_drive *d, const char *path, const void *lv, char *err,
			 size_t errlen)
{
	const struct dev_list *l = lv;
	const struct dev_ns *ns = NULL;
	const struct dev_ctrl *c = dev_list_find_nvme(l, path, &ns);
	const struct dev_block *b = c ? NULL : dev_list_find_block(l, path);

	if (strlen(path) >= sizeof(d->path)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -ENAMETOOLONG;
	}
	memset(d, 0, sizeof(*d));
	if (c) {
		if (!ns && c->nr_namespaces) /* a controller: its first namespace */
			ns = &c->namespaces[0];
		if (!ns) {
			snprintf(err, errlen, "%s: controller without a namespace", path);
			return -ENOENT;
		}
		d->nvme = true;
		snprintf(d->path, sizeof(d->path), "%s", ns->block_device);
		snprintf(d->ctrl, sizeof(d->ctrl), "%s", c->path);
		snprintf(d->serial, sizeof(d->serial), "%s", c->serial);
		snprintf(d->model, sizeof(d->model), "%s", c->model);
		snprintf(d->firmware, sizeof(d->firmware), "%s", c->firmware);
		d->capacity = ns->size_bytes;
	} else if (b) {
		snprintf(d->path, sizeof(d->path), "%s", path);
		snprintf(d->serial, sizeof(d->serial), "%s", b->name);
		/* a loop device's "model" is its backing file: the driver groups them */
		snprintf(d->model, sizeof(d->model), "%s",
			 b->model[0] && strcmp(b->driver, "loop") ? b->model : b->driver);
		d->capacity = b->size_bytes;
	} else {
		snprintf(err, errlen, "%s: not a device nvscope knows (see nvscope list)", path);
		return -ENOENT;
	}
	snprintf(d->in.model, sizeof(d->in.model), "%s", d->model);
	return 0;
}

const char *check_phase_name(const struct check_batch *b, int p)
{
	switch (p) {
	case CHECK_PHASE_WAIT:
		return "waiting";
	case CHECK_PHASE_HEALTH:
		return "health";
	case CHECK_PHASE_SELFTEST:
		return "self-test";
	case CHECK_PHASE_HEALTH_END:
		return "health";
	case CHECK_PHASE_DONE:
		return "done";
	default:
		p -= CHECK_PHASE_JOB;
		return p >= 0 && (unsigned)p < b->prof->njobs ? b->prof->jobs[p].name : "?";
	}
}

/* ---- one phase on one drive ---- */

struct task {
	struct check_batch *b;
	struct check_drive *d;
	int phase;
	_Atomic int *done;
	_Atomic bool finished;
};

static bool cancelled(const struct check_batch *b)
{
	return b->cancel && atomic_load_explicit(b->cancel, memory_order_relaxed);
}

int check_drive_dir(const struct check_batch *b, const struct check_drive *d, char *buf, size_t len)
{
	char safe[80];
	check_safe_name(d->serial, safe, sizeof(safe));
	int w = snprintf(buf, len, "%s/%s", b->dir, safe);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

void check_out_fail(struct check_batch *b, int rc, const char *msg)
{
	int none = 0;
	if (rc && atomic_compare_exchange_strong(&b->out_rc, &none, rc))
		snprintf(b->out_err, sizeof(b->out_err), "%s", msg);
}

/* @d's directory/@name for writing (safety_fopen_in), or NULL with the
 * failure recorded in @b. */
static FILE *drive_file(struct check_batch *b, const struct check_drive *d, const char *name)
{
	char dir[CHECK_PATH_MAX], msg[512];
	FILE *f;

	if (check_drive_dir(b, d, dir, sizeof(dir))) {
		snprintf(msg, sizeof(msg), "%s/%s: path too long", b->dir, d->serial);
		check_out_fail(b, -ENAMETOOLONG, msg);
		return NULL;
	}
	if (!(f = safety_fopen_in(dir, name, SAFETY_OUT_TRUNC, msg, sizeof(msg)))) {
		int rc = errno ? -errno : -EIO;
		check_msg_in(dir, name, msg, sizeof(msg));
		check_out_fail(b, rc, msg);
	}
	return f;
}

/* Closes @f, recording a write error of @name in @b. */
static void drive_close(struct check_batch *b, const struct check_drive *d, FILE *f,
			const char *name)
{
	char msg[512];
	int bad = ferror(f);
	if (fclose(f) || bad) {
		snprintf(msg, sizeof(msg), "%s/%s/%s: write error", b->dir, d->serial, name);
		check_out_fail(b, -EIO, msg);
	}
}

static void save_health(struct check_batch *b, const struct check_drive *d,
			const struct dev_health *h, const char *name)
{
	void *j;
	char *s;
	FILE *f;

	if (!b->dir)
		return;
	j = dev_health_to_json(h, d->ctrl);
	s = j ? json_print(j) : NULL;
	cJSON_Delete(j);
	if (!s) {
		check_out_fail(b, -ENOMEM, "out of memory");
		return;
	}
	if ((f = drive_file(b, d, name))) {
		fprintf(f, "%s\n", s);
		drive_close(b, d, f, name);
	}
	free(s);
}

static void do_health(struct check_batch *b, struct check_drive *d, bool end)
{
	struct judge_input *in = &d->in;
	char err[256];
	int st = 0;

	if (!d->nvme) {
		snprintf(in->health_msg, sizeof(in->health_msg), "not an NVMe device");
		return;
	}
	in->health_expected = true;
	if (!end) {
		in->health_valid = !dev_health_read(d->ctrl, &in->health, &st, err, sizeof(err));
		if (!in->health_valid)
			snprintf(in->health_msg, sizeof(in->health_msg), "%.150s", err);
		else
			save_health(b, d, &in->health, RESDIR_CHECK_HEALTH_BEFORE);
		if (b->prof->error_log)
			in->errlog_valid =
			    !nvs_nvme_error_log(d->ctrl, &in->errlog, &st, err, sizeof(err));
	} else {
		in->health_after_valid =
		    !dev_health_read(d->ctrl, &in->health_after, &st, err, sizeof(err));
		if (in->health_after_valid)
			save_health(b, d, &in->health_after, RESDIR_CHECK_HEALTH_AFTER);
	}
}

static void do_selftest(struct check_batch *b, struct check_drive *d)
{
	struct judge_input *in = &d->in;
	char err[256];
	int st = 0, r;

	if (!b->prof->selftest)
		return;
	if (!d->nvme) {
		in->st = JUDGE_ST_NOT_SUPPORTED;
		snprintf(in->selftest_msg, sizeof(in->selftest_msg), "not an NVMe device");
		return;
	}
	r = nvs_nvme_selftest_start(d->ctrl, b->prof->selftest == 2, &st, err, sizeof(err));
	if (r == -EOPNOTSUPP) {
		in->st = JUDGE_ST_NOT_SUPPORTED;
		return;
	}
	if (r) {
		in->st = JUDGE_ST_ERROR;
		snprintf(in->selftest_msg, sizeof(in->selftest_msg), "%.150s", err);
		return;
	}
	double deadline = unix_now() + (double)b->prof->selftest_timeout_ns / 1e9;
	for (;;) {
		sleep_ms(1000);
		r = nvs_nvme_selftest_status(d->ctrl, &in->selftest, &st, err, sizeof(err));
		if (r) {
			in->st = JUDGE_ST_ERROR;
			snprintf(in->selftest_msg, sizeof(in->selftest_msg), "%.150s", err);
			return;
		}
		if (!in->selftest.running) {
			in->st = JUDGE_ST_DONE;
			return;
		}
		atomic_store(&d->permille, (int)in->selftest.percent * 10);
		if (cancelled(b)) { /* stopped: so is the drive's test (--resume starts anew) */
			in->st = JUDGE_ST_ERROR;
			r = nvs_nvme_selftest_abort(d->ctrl, &st, err, sizeof(err));
			snprintf(in->selftest_msg, sizeof(in->selftest_msg),
				 "interrupted at %u%%%s", in->selftest.percent,
				 r ? " (could not abort it: it goes on in the drive)"
				   : " and aborted");
			return;
		}
		if (unix_now() > deadline) {
			in->st = JUDGE_ST_TIMEOUT;
			return;
		}
	}
}

static void save_run(struct check_batch *b, const struct check_drive *d, const struct spec *s,
		     const struct runjob *rj)
{
	char name[128];
	FILE *f;
	int w;

	if (!b->dir)
		return;
	w = snprintf(name, sizeof(name), "%s.json", s->name);
	if (w < 0 || (size_t)w >= sizeof(name)) {
		check_out_fail(b, -ENAMETOOLONG, "job name too long for a file name");
		return;
	}
	if ((f = drive_file(b, d, name))) {
		struct json_run jr = {.spec = s,
				      .jobs = &rj->agg,
				      .njobs = 1,
				      .series = &rj->series,
				      .cores = rj->cores,
				      .ncores = &rj->ncores,
				      .dropped = rj->dropped};
		json_write_run(f, &jr);
		drive_close(b, d, f, name);
	}
	snprintf(name, sizeof(name), "%s.csv", s->name); /* no longer than the .json name */
	if ((f = drive_file(b, d, name))) {
		csv_write_header(f);
		for (size_t i = 0; i < rj->series.n; i++)
			csv_write_point(f, &rj->series.pt[i]);
		drive_close(b, d, f, name);
	}
}

static void job_tick(const struct pool *p, const struct collect *c, void *arg)
{
	struct check_drive *d = arg;
	uint64_t planned = pool_planned_ns(p);

	(void)c;
	if (planned)
		atomic_store(&d->permille, (int)fmin(1000.0, 1000.0 * (double)pool_elapsed_ns(p) /
								 (double)planned));
}

static void verify_tick(double pct, void *arg)
{
	struct check_drive *d = arg;
	atomic_store(&d->permille, (int)(pct * 10));
}

static void do_verify(struct check_batch *b, struct check_drive *d, unsigned j)
{
	const struct spec *s = &b->prof->jobs[j];
	struct judge_job *jj = &d->in.jobs[j];
	struct check_jobres *res = &d->res[j];
	struct verify_region rg = {.offset = s->offset,
				   .size = s->size,
				   .offset_pct = s->offset_pct,
				   .size_pct = s->size_pct,
				   .bs = s->bs[0].bs};
	struct verify_result vr;
	char err[256] = "";

	if (!d->write_ok) { /* never reached through nvscope check: it refuses first */
		snprintf(jj->msg, sizeof(jj->msg), "refused: writing not confirmed for this drive");
		return;
	}
	if (verify_run(d->path, &rg, b->force || s->force_destroy, &d->cancel, verify_tick, d, &vr,
		       err, sizeof(err))) {
		snprintf(jj->msg, sizeof(jj->msg), "%.190s", err);
		return;
	}
	jj->ran = !vr.cancelled;
	jj->interrupted = vr.cancelled;
	jj->errors = vr.io_errors;
	jj->mismatches = vr.mismatches;
	jj->first_bad = vr.first_bad;
	snprintf(jj->msg, sizeof(jj->msg), "%.190s", vr.msg);
	res->bytes = vr.written + vr.read;
	res->seconds = vr.write_s + vr.read_s;
	res->mbps = res->seconds > 0 ? (double)res->bytes / res->seconds / 1e6 : 0;
}

static void do_job(struct check_batch *b, struct check_drive *d, unsigned j)
{
	const struct check_profile *p = b->prof;
	struct judge_job *jj = &d->in.jobs[j];
	struct check_jobres *res = &d->res[j];
	struct spec s = p->jobs[j];
	struct runjob rj;
	char err[256] = "";

	/* a job run again (after --resume) starts clean; a performance job's
	 * later rounds add to its first */
	bool perf = jj->role == JUDGE_ROLE_PERF, later = perf && b->round > 0;
	unsigned nr = p->perf_rounds > 1 && perf ? p->perf_rounds : 1;
	if (!later) {
		jj->ran = jj->interrupted = false;
		jj->errors = jj->mismatches = jj->first_bad = 0;
		jj->figure = NAN;
		jj->nrounds = 0;
		jj->msg[0] = '\0';
	}
	memset(res, 0, sizeof(*res));
	if (jj->role == JUDGE_ROLE_VERIFY) {
		do_verify(b, d, j);
		return;
	}
	if (spec_writes(&s)) { /* profile_load refuses these; never write here */
		snprintf(jj->msg, sizeof(jj->msg), "refused: job writes");
		return;
	}
	snprintf(s.targets[0], sizeof(s.targets[0]), "%s", d->path);
	s.ntargets = 1;
	s.runtime_ns /= nr; /* the job's time, shared by its rounds */
	if (runjob_run(&s, 0, &d->cancel, job_tick, d, &rj, err, sizeof(err))) {
		snprintf(jj->msg, sizeof(jj->msg), "%.190s", err);
		jj->ran = false;
		return;
	}
	jj->ran = (!later || jj->ran) && !rj.cancelled;
	jj->interrupted = rj.cancelled;
	const struct result *r = &rj.agg;
	jj->errors += r->dir[NVS_READ].errors + r->dir[NVS_WRITE].errors;
	if (rj.error) {
		if (!jj->errors)
			jj->errors = 1;
		snprintf(jj->msg, sizeof(jj->msg), "%.190s", rj.msg);
	}
	res->iops = result_total_iops(r);
	res->mbps = (result_bw(r, NVS_READ) + result_bw(r, NVS_WRITE)) / 1e6;
	res->seconds = r->runtime_s;
	res->bytes = r->dir[NVS_READ].bytes + r->dir[NVS_WRITE].bytes;
	struct lat_all l;
	result_lat_all(r, &l);
	if (l.n) {
		res->lat_mean_us = l.mean_us;
		res->lat_p99_us = l.p99_us;
	}
	if (perf && jj->ran && r->runtime_s > 0 && jj->nrounds < JUDGE_MAX_ROUNDS) {
		double v[JUDGE_MAX_ROUNDS];
		jj->rounds[jj->nrounds++] = jj->random ? res->iops : res->mbps;
		memcpy(v, jj->rounds, jj->nrounds * sizeof(v[0]));
		jj->figure = judge_median(v, jj->nrounds); /* a busy moment is one round */
	}
	save_run(b, d, &s, &rj);
	runjob_release(&rj);
}

/* Is @d still the drive that was confirmed (its pin, check_run)?  A drive
 * swapped in under its name between phases is not tested, and its
 * results are never filed under the old one: the job fails with why. */
static bool still_pinned(struct check_drive *d, int phase)
{
	char msg[256];
	int j = phase - CHECK_PHASE_JOB;

	if (!safety_pin_verify(d->path, msg, sizeof(msg)))
		return true;
	if (j >= 0) {
		d->in.jobs[j].ran = false;
		snprintf(d->in.jobs[j].msg, sizeof(d->in.jobs[j].msg), "refused: %.180s", msg);
	} else {
		snprintf(d->in.health_msg, sizeof(d->in.health_msg), "refused: %.140s", msg);
	}
	return false;
}

/* Job @j of drive @d, which stopped completing I/O (now or in an earlier
 * phase): did not run, FAIL (never PASS, never "interrupted"). */
static void mark_stalled(const struct check_batch *b, struct check_drive *d, int j)
{
	struct judge_job *jj = &d->in.jobs[j];

	jj->ran = jj->interrupted = false;
	snprintf(jj->msg, sizeof(jj->msg), "not responding: no I/O completed in %g s",
		 (double)b->prof->stall_timeout_ns / 1e9);
}

static void *task_main(void *arg)
{
	struct task *t = arg;
	struct check_drive *d = t->d;
	int j = t->phase - CHECK_PHASE_JOB;

	atomic_store(&d->permille, 0);
	atomic_store(&d->phase, t->phase);
	if (atomic_load(&d->stalled)) /* nothing more is sent to it */
		;
	else if (!still_pinned(d, t->phase))
		; /* refused: nothing run */
	else if (t->phase == CHECK_PHASE_HEALTH)
		do_health(t->b, d, false);
	else if (t->phase == CHECK_PHASE_HEALTH_END)
		do_health(t->b, d, true);
	else if (t->phase == CHECK_PHASE_SELFTEST)
		do_selftest(t->b, d);
	else
		do_job(t->b, d, (unsigned)j);
	if (j >= 0 && atomic_load(&d->stalled))
		mark_stalled(t->b, d, j);
	atomic_store(&d->permille, 1000);
	atomic_store(&t->finished, true);
	atomic_fetch_add(t->done, 1);
	return NULL;
}

/* ---- the stall watch: a drive that completes nothing ---- */

/* Seconds of CLOCK_MONOTONIC (no jump of the wall clock makes a stall). */
static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct watch {
	dev_t rdev;
	bool ok;       /* its counts can be read */
	uint64_t done; /* I/Os completed, as last seen */
	double since;  /* when that count last moved, or nothing was in flight */
};

/* The kernel's count of I/Os completed by block device @rdev and of those
 * in flight (/sys/dev/block/M:m/stat: sysfs never waits for the device). */
static bool io_counts(dev_t rdev, uint64_t *done, uint64_t *inflight)
{
	unsigned long long f[9];
	char p[64];
	FILE *fp;
	int n;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/stat", major(rdev), minor(rdev));
	if (!(fp = fopen(p, "re")))
		return false;
	n = fscanf(fp, "%llu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3],
		   &f[4], &f[5], &f[6], &f[7], &f[8]);
	fclose(fp);
	if (n != 9)
		return false;
	*done = f[0] + f[4]; /* reads and writes completed */
	*inflight = f[8];
	return true;
}

static void watch_start(struct watch *w, const struct check_drive *d)
{
	struct stat st;
	uint64_t fl;

	memset(w, 0, sizeof(*w));
	w->since = mono_now();
	if (stat(d->path, &st) || !S_ISBLK(st.st_mode)) /* the node only: no I/O */
		return;
	w->rdev = st.st_rdev;
	w->ok = io_counts(w->rdev, &w->done, &fl);
}

/* @d has had I/O in flight and completed none for the profile's
 * stall_timeout: not responding.  Its job is stopped (its own cancel). */
static void watch_tick(const struct check_batch *b, struct check_drive *d, struct watch *w)
{
	uint64_t done, fl;
	double now = mono_now();

	if (!w->ok || atomic_load(&d->stalled) || !io_counts(w->rdev, &done, &fl))
		return;
	if (done != w->done || !fl) {
		w->done = done;
		w->since = now;
	} else if (now - w->since >= (double)b->prof->stall_timeout_ns / 1e9) {
		atomic_store(&d->stalled, true);
		atomic_store(&d->cancel, 1);
	}
}

/* Runs @phase on drives [@first, @first + @count) in parallel; calls
 * @tick while waiting. */
static int run_phase_on(struct check_batch *b, int phase, size_t first, size_t count,
			void (*tick)(const struct check_batch *, void *), void *arg)
{
	pthread_t *th = calloc(count, sizeof(*th));
	struct task *tk = calloc(count, sizeof(*tk));
	struct watch *w = calloc(count, sizeof(*w));
	_Atomic int done = 0;
	size_t started = 0;
	int rc = 0;

	if (!th || !tk || !w) {
		rc = -ENOMEM;
		goto out;
	}
	for (; started < count; started++) {
		tk[started] = (struct task){
		    .b = b, .d = &b->d[first + started], .phase = phase, .done = &done};
		watch_start(&w[started], tk[started].d);
		if (pthread_create(&th[started], NULL, task_main, &tk[started])) {
			rc = -EAGAIN;
			break;
		}
	}
	while (atomic_load(&done) < (int)started) {
		for (size_t i = 0; i < started; i++) {
			if (cancelled(b)) /* each drive's job stops on its own flag */
				atomic_store(&tk[i].d->cancel, 1);
			if (!atomic_load(&tk[i].finished))
				watch_tick(b, tk[i].d, &w[i]);
		}
		if (tick)
			tick(b, arg);
		sleep_ms(cancelled(b) ? 20 : 200);
	}
	for (size_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
out:
	free(th);
	free(tk);
	free(w);
	return rc;
}

/* Runs @phase on every drive.  Performance jobs run on one drive at a
 * time: side by side, drives share the host's CPUs and PCIe links and the
 * figures would measure the host, not the drive.  Everything else (health,
 * self-test, read and verify passes) runs on all drives at once. */
static int run_phase(struct check_batch *b, int phase,
		     void (*tick)(const struct check_batch *, void *), void *arg)
{
	int j = phase - CHECK_PHASE_JOB;
	int rc = 0;

	atomic_store(&b->phase, phase);
	b->round = 0;
	if (j < 0 || b->prof->role[j] != JUDGE_ROLE_PERF)
		return run_phase_on(b, phase, 0, b->n, tick, arg);
	/* rounds alternating across the batch (A B C A B C ...): a busy
	 * moment of the host falls on one round of one drive, and each
	 * drive's figure is the median of its rounds */
	unsigned nr = b->prof->perf_rounds > 1 ? b->prof->perf_rounds : 1;
	for (unsigned r = 0; r < nr && !rc && !cancelled(b); r++) {
		b->round = r;
		for (size_t i = 0; i < b->n; i++)
			atomic_store(&b->d[i].phase, CHECK_PHASE_WAIT);
		for (size_t i = 0; i < b->n && !rc && !cancelled(b); i++)
			rc = run_phase_on(b, phase, i, 1, tick, arg);
	}
	b->round = 0;
	return rc;
}

unsigned check_steps(const struct check_profile *p, int *steps)
{
	unsigned n = 0;

	steps[n++] = CHECK_PHASE_HEALTH;
	if (p->selftest)
		steps[n++] = CHECK_PHASE_SELFTEST;
	for (unsigned j = 0; j < p->njobs; j++)
		steps[n++] = CHECK_PHASE_JOB + (int)j;
	steps[n++] = CHECK_PHASE_HEALTH_END;
	return n;
}

static void init_drive(struct check_batch *b, struct check_drive *d)
{
	const struct check_profile *p = b->prof;

	d->started = unix_now();
	d->in.njobs = p->njobs;
	for (unsigned j = 0; j < p->njobs; j++) {
		struct judge_job *jj = &d->in.jobs[j];
		snprintf(jj->name, sizeof(jj->name), "%s", p->jobs[j].name);
		jj->role = p->role[j];
		jj->min = p->job_min[j];
		jj->random = p->jobs[j].rw == RW_RANDREAD || p->jobs[j].rw == RW_RANDRW;
		jj->figure = NAN;
	}
}

/* Pins every drive of @b by identity (safety_pin_hold): from here on, an
 * open of a drive's path that finds another device is refused.  0, or the
 * failure recorded in @b (nothing pinned then). */
static int pin_drives(struct check_batch *b)
{
	char msg[512];
	int rc = 0;
	size_t i;

	for (i = 0; !rc && i < b->n; i++)
		rc = safety_pin_hold(b->d[i].path, msg, sizeof(msg));
	if (!rc)
		return 0;
	for (size_t k = 0; k + 1 < i; k++)
		safety_pin_release(b->d[k].path);
	check_out_fail(b, rc, msg);
	return rc;
}

static void unpin_drives(const struct check_batch *b)
{
	for (size_t i = 0; i < b->n; i++)
		safety_pin_release(b->d[i].path);
}

static int check_run_pinned(struct check_batch *b,
			    void (*tick)(const struct check_batch *b, void *arg), void *arg);

int check_run(struct check_batch *b, void (*tick)(const struct check_batch *b, void *arg),
	      void *arg)
{
	int rc = pin_drives(b);

	if (rc)
		return rc;
	rc = check_run_pinned(b, tick, arg);
	unpin_drives(b);
	return rc;
}

static int check_run_pinned(struct check_batch *b,
			    void (*tick)(const struct check_batch *b, void *arg), void *arg)
{
	const struct check_profile *p = b->prof;
	int steps[3 + JUDGE_MAX_JOBS], rc = 0;
	unsigned nsteps = check_steps(p, steps);

	for (size_t i = 0; i < b->n; i++) {
		if (!b->next_step)
			init_drive(b, &b->d[i]);
		atomic_store(&b->d[i].cancel, 0);
		atomic_store(&b->d[i].stalled, false);
	}
	for (size_t i = 0; b->dir && i < b->n; i++) { /* refused: before any I/O */
		char dir[CHECK_PATH_MAX], msg[512];
		if (check_drive_dir(b, &b->d[i], dir, sizeof(dir))) {
			snprintf(msg, sizeof(msg), "%s/%s: path too long", b->dir, b->d[i].serial);
			check_out_fail(b, -ENAMETOOLONG, msg);
			return -ENAMETOOLONG;
		}
		if ((rc = check_results_dir(dir, true, msg, sizeof(msg)))) {
			check_out_fail(b, rc, msg);
			return rc;
		}
	}
	while (!rc && b->next_step < nsteps && !cancelled(b)) {
		int ph = steps[b->next_step];
		rc = run_phase(b, ph, tick, arg);
		if (rc || cancelled(b))
			break; /* an interrupted phase runs again on --resume */
		b->next_step++;
		if (b->checkpoint)
			b->checkpoint(b, b->checkpoint_arg);
	}
	for (unsigned k = b->next_step; k < nsteps; k++) {
		int j = steps[k] - CHECK_PHASE_JOB;
		for (size_t i = 0; j >= 0 && i < b->n; i++) {
			struct judge_job *jj = &b->d[i].in.jobs[j];
			if (!jj->ran)
				jj->interrupted = true;
		}
	}
	b->cancelled = cancelled(b);
	atomic_store(&b->phase, CHECK_PHASE_DONE);
	for (size_t i = 0; i < b->n; i++) {
		b->d[i].finished = unix_now();
		atomic_store(&b->d[i].phase, CHECK_PHASE_DONE);
	}
	if (tick)
		tick(b, arg);
	if (rc)
		return rc;
	struct judge_input *in = calloc(b->n, sizeof(*in));
	struct judge_verdict *v = calloc(b->n, sizeof(*v));
	if (!in || !v) {
		free(in);
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < b->n; i++)
		in[i] = b->d[i].in;
	judge_batch(in, b->n, &p->th, v);
	for (size_t i = 0; i < b->n; i++)
		b->d[i].verdict = v[i];
	free(in);
	free(v);
	return 0;
}

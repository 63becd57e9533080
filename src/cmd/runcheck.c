/* runcheck.c - `nvscope run`: the whole command checked before its first
 * write.  A refusal found after a run group wrote (a later group's options,
 * a log that cannot be written, an engine that cannot drive a file already
 * laid out) broke "exit 2 = nothing touched"; here every job, target and
 * output is checked first, by the same rules the later paths apply. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "cmd/runcheck.h"
#include "dev/safety.h"
#include "io/core/backend.h"
#include "io/trace/replay.h"
#include "io/trace/trace.h"
#include "report/fiolog.h"
#include "run/runjob.h"

/* Does job @s write its targets?  A replay writes when its trace does
 * (loaded here to know it, as the pool will). */
static int job_writes(const struct spec *s, bool *w, char *err, size_t errlen)
{
	struct trace *t = NULL;
	int rc;

	*w = spec_writes(s);
	if (!s->replay.iolog[0])
		return 0;
	rc = replay_prepare(s, &t, err, errlen);
	if (rc)
		return rc;
	*w = replay_writes(t);
	trace_free(t);
	return 0;
}

/* Is block device @rdev zoned (sysfs queue/zoned not "none")? */
static bool blk_zoned(dev_t rdev)
{
	char p[96], v[32] = "";
	FILE *f;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/queue/zoned", major(rdev), minor(rdev));
	if (!(f = fopen(p, "r")))
		return false;
	if (!fgets(v, sizeof(v), f))
		v[0] = '\0';
	fclose(f);
	return v[0] && strncmp(v, "none", 4);
}

/* What target @path is, for the judgements below: its stat through the
 * held pins (safety_pin_stat), so that the check judges what was pinned
 * and every later open finds it (a target swapped in since is refused
 * here, with the pin's words).  *@exists false when it is absent; a
 * target that cannot be looked at is refused, never taken as absent. */
static int target_look(const char *path, struct stat *st, bool *exists, char *msg, size_t len)
{
	int rc = safety_pin_stat(path, st, msg, len);

	*exists = !rc;
	return rc == -ENOENT ? 0 : rc;
}

/* The engine and zone options against the kind of target @path (@st when
 * it @exists): what the pool refuses only once the file is open (and laid
 * out). */
static int target_kind(const struct spec *s, const char *path, bool exists, const struct stat *st,
		       char *err, size_t errlen)
{
	bool file = !exists || S_ISREG(st->st_mode);

	if (s->ioengine == ENGINE_IO_URING_CMD && file) {
		snprintf(err, errlen,
			 "%s: passthrough (ioengine=io_uring_cmd) needs an NVMe generic device "
			 "(/dev/ngXnY), not a file",
			 path);
		return -EINVAL;
	}
	/* a device other than an NVMe generic one: refused here as the
	 * backend's check would refuse it at open, after earlier groups ran */
	if (s->ioengine == ENGINE_IO_URING_CMD && !file) {
		bool generic = S_ISCHR(st->st_mode) && safety_is_nvme_generic(st->st_rdev);
		int rc = uring_cmd_may_drive(path, generic, err, errlen);
		if (rc)
			return rc;
	}
	if (s->zone_mode == SPEC_ZONE_ZBD && !s->zone_size && s->ioengine != ENGINE_IO_URING_CMD &&
	    (file || (S_ISBLK(st->st_mode) && !blk_zoned(st->st_rdev)))) {
		snprintf(err, errlen,
			 "%s: zonemode=zbd needs a zonesize on a device that is not zoned "
			 "(zones are emulated, as fio 3.33)",
			 path);
		return -EINVAL;
	}
	return 0;
}

/* Would a job that does not write still lay out (extend or create) regular
 * file @st (when it @exists)?  Then it is judged as a write, as
 * target_open judges it. */
static bool lays_out(const struct spec *s, bool exists, const struct stat *st)
{
	uint64_t want = s->size_pct ? 0 : s->size + s->offset;

	if (!exists)
		return true;
	return S_ISREG(st->st_mode) && (uint64_t)st->st_size < want;
}

int runcheck_job(const struct spec *s, char *err, size_t errlen)
{
	char msg[512];
	bool w;
	int rc = spec_validate(s, msg, sizeof(msg));

	if (!rc)
		rc = job_writes(s, &w, msg, sizeof(msg));
	bool judged = false; /* the write rule's message, as target_open says it */
	for (unsigned t = 0; !rc && t < s->ntargets; t++) {
		struct stat st;
		bool exists;
		rc = target_look(s->targets[t], &st, &exists, msg, sizeof(msg));
		judged = rc == -ESTALE && w; /* not what was pinned: not written */
		if (!rc)
			rc = target_kind(s, s->targets[t], exists, &st, msg, sizeof(msg));
		if (!rc && (w || lays_out(s, exists, &st))) {
			rc = safety_check_write(s->targets[t], s->force_destroy, msg, sizeof(msg));
			judged = rc != 0;
		}
	}
	if (rc)
		snprintf(err, errlen, "[%s] %s%s", s->name, judged ? "refusing to write: " : "",
			 msg);
	return rc;
}

/* Registers every input and target of the command in @fs. */
static int add_files(const struct runcheck *c, struct safety_fileset *fs)
{
	int rc = 0;

	for (unsigned i = 0; !rc && i < c->ninputs; i++)
		rc = safety_fileset_add(fs, c->inputs[i], false, "a job file");
	for (unsigned j = 0; !rc && j < c->njobs; j++) {
		const struct spec *s = &c->jobs[j];
		rc = safety_fileset_add(fs, s->replay.iolog, false, "the read_iolog trace");
		for (unsigned t = 0; !rc && t < s->ntargets; t++)
			rc = safety_fileset_add(fs, s->targets[t], true, "the target");
	}
	return rc;
}

static int check_output(const struct safety_fileset *fs, const char *path, char *err, size_t errlen)
{
	return safety_fileset_check_output(fs, path, err, errlen);
}

/* One log file name as report/fiolog.c makes it: PREFIX SUFFIX _TYPE
 * (.N).log, in --output-dir when relative; checked as an output. */
static int check_log(const struct runcheck *c, const struct safety_fileset *fs,
		     const struct spec *s, const char *prefix, const char *sfx, const char *type,
		     unsigned num, char *err, size_t errlen)
{
	char path[PATH_MAX], n[16] = ".log";
	bool in_dir = c->output_dir && prefix[0] != '/';

	if (num)
		snprintf(n, sizeof(n), ".%u.log", num);
	int w = snprintf(path, sizeof(path), "%s%s%s%s_%s%s", in_dir ? c->output_dir : "",
			 in_dir ? "/" : "", prefix, sfx, type, n);
	if (w < 0 || (size_t)w >= sizeof(path)) {
		snprintf(err, errlen, "[%s] log file name too long: %s", s->name, prefix);
		return -ENAMETOOLONG;
	}
	return check_output(fs, path, err, errlen);
}

/* A job's write_*_log files (report/fiolog.c's names, every one it may
 * write: each depth's suffix of a sweep, the name without a number and
 * each copy's thread number), each checked as an output.  Under an
 * --output-dir that does not exist yet (made for this run) there is
 * nothing to meet. */
static int check_logs(const struct runcheck *c, const struct safety_fileset *fs, unsigned j,
		      char *err, size_t errlen)
{
	static const char *const types[] = {"iops", "bw", "lat", "slat", "clat", "clat_hist"};
	const struct spec *s = &c->jobs[j];
	const char *pre[] = {s->log_iops, s->log_bw,  s->log_lat,
			     s->log_lat,  s->log_lat, s->log_hist};
	unsigned thread = fiolog_thread(c->jobs, j), copies = s->numjobs ? s->numjobs : 1;
	struct stat st;
	int rc = 0;

	for (unsigned k = 0; !rc && k < 6; k++) {
		if (!pre[k][0] || (c->output_dir && pre[k][0] != '/' && stat(c->output_dir, &st)))
			continue;
		if (k == 3 && !spec_slat(s))
			continue; /* no _slat log (report/fiolog.c) */
		for (unsigned q = 0; !rc && q < s->niodepth; q++) {
			char sfx[64] = "";
			if (s->niodepth > 1)
				snprintf(sfx, sizeof(sfx), "-iodepth-%u-numjobs-%u", s->iodepth[q],
					 s->numjobs);
			for (unsigned num = 0; !rc && num <= copies; num++)
				rc = check_log(c, fs, s, pre[k], sfx, types[k],
					       num ? thread + num - 1 : 0, err, errlen);
		}
	}
	return rc;
}

/* write_hist_log in a run group started together (run.c's plan_groups:
 * n > 1, no iodepth list): its rows serve one job only, so the log would
 * not be written - refused rather than ignored. */
static int hist_in_group(const struct spec *g, unsigned n, char *err, size_t errlen)
{
	for (unsigned k = 0; k < n; k++)
		if (g[k].niodepth > 1)
			return 0; /* run one after another: each writes its log */
	for (unsigned k = 0; n > 1 && k < n; k++)
		if (g[k].log_hist[0]) {
			snprintf(err, errlen,
				 "[%s] write_hist_log is not written for jobs run together (a run "
				 "group): give the job a stonewall",
				 g[k].name);
			return -EINVAL;
		}
	return 0;
}

static void (*test_hook)(void *arg); /* tests only: runcheck_set_test_hook */
static void *test_arg;

void runcheck_set_test_hook(void (*fn)(void *arg), void *arg)
{
	test_hook = fn;
	test_arg = arg;
}

int runcheck_all(const struct runcheck *c, char *err, size_t errlen)
{
	struct safety_fileset *fs = safety_fileset_new();
	int rc = fs ? add_files(c, fs) : -ENOMEM;

	if (rc) {
		snprintf(err, errlen, "%s", strerror(-rc));
		goto out;
	}
	/* every run group's options together, then each job and its targets */
	for (unsigned j = 0, n; !rc && j < c->njobs; j += n) {
		for (n = 1; j + n < c->njobs && c->jobs[j + n].run_group == c->jobs[j].run_group;
		     n++)
			;
		rc = runjob_check_group(&c->jobs[j], n, err, errlen);
		if (!rc)
			rc = hist_in_group(&c->jobs[j], n, err, errlen);
	}
	for (unsigned j = 0; !rc && j < c->njobs; j++)
		rc = runcheck_job(&c->jobs[j], err, errlen);
	/* every output against the rule, the inputs and the targets */
	for (unsigned i = 0; !rc && i < c->noutputs; i++)
		rc = check_output(fs, c->outputs[i], err, errlen);
	for (unsigned j = 0; !rc && j < c->njobs; j++) {
		const struct spec *s = &c->jobs[j];
		if (s->replay.write_iolog[0])
			rc = check_output(fs, s->replay.write_iolog, err, errlen);
		if (!rc)
			rc = check_logs(c, fs, j, err, errlen);
	}
out:
	safety_fileset_free(fs);
	if (!rc && test_hook)
		test_hook(test_arg);
	return rc;
}

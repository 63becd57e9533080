/* check.c - `nvscope check`: a tray of drives in, PASS/WARN/FAIL per serial
 * out (docs/check.md).  This file: the command line, choosing the drives,
 * the write confirmation and safety pre-check (before anything is touched
 * on any drive), the results directory, progress, and the exit status.
 * The run is src/check/run.c, the judging src/check/judge.c. */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "check/out.h"
#include "check/resdir.h"
#include "check/profile.h"
#include "check/run.h"
#include "check/state.h"
#include "cmd/cmd.h"
#include "cmd/checkcmd.h"
#include "cmd/hostcmd.h"
#include "cmd/runcheck.h"
#include "cmd/stopsig.h"
#include "base/termesc.h"
#include "run/planrun.h"
#include "dev/devmodel.h"
#include "dev/safety.h"
#include "report/json.h"
#include "report/resnames.h"

static _Atomic int stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store_explicit(&stop_flag, 1, memory_order_relaxed);
}

static int list_profiles(void)
{
	static const char *const names[] = {"quick", "burn-in", "rma"};
	for (size_t i = 0; i < NVS_ARRAY_SIZE(names); i++) {
		struct check_profile *p = NULL;
		char err[512];
		if (!check_profile_load(names[i], &p, err, sizeof(err))) {
			printf("%-10s %s  (%s)\n", p->name, p->description, p->path);
			check_profile_free(p);
		} else {
			printf("%-10s (%s)\n", names[i], err);
		}
	}
	return NVS_EXIT_OK;
}

enum {
	O_TARGET = 't',
	O_OUTPUT = 'o',
	O_QUIET = 'q',
	O_ALL = 256,
	O_MODEL,
	O_PROFILE,
	O_JSON,
	O_CSV,
	O_CONFIRM,
	O_FORCE,
	O_LIST,
	O_RESUME
};

static const struct cmd_opt opts[] = {
    {{"target", required_argument, NULL, O_TARGET}, 't', "DEV", "a drive (repeat for more)"},
    {{"all-nvme", no_argument, NULL, O_ALL},
     0,
     NULL,
     "every NVMe controller (its first namespace)"},
    {{"model", required_argument, NULL, O_MODEL}, 0, "M", "only drives of this model"},
    {{"profile", required_argument, NULL, O_PROFILE},
     0,
     "NAME",
     "presets/checks/NAME.ini or a file: quick, burn-in, rma"},
    {{"json", no_argument, NULL, O_JSON},
     0,
     NULL,
     "the batch as JSON on stdout (for an asset system)"},
    {{"csv", required_argument, NULL, O_CSV}, 0, "FILE", "one CSV row per drive"},
    {{"output", required_argument, NULL, O_OUTPUT},
     'o',
     "DIR",
     "results directory (default results/check-NAME-DATE-TIME)"},
    {{"yes-destroy-data", required_argument, NULL, O_CONFIRM},
     0,
     "LIST",
     "a profile that writes (burn-in) needs every drive\n"
     "named: its serial (NVMe) or path, comma-separated"},
    {{"force-destroy", no_argument, NULL, O_FORCE},
     0,
     NULL,
     "write even over a partition table/filesystem"},
    {{"quiet", no_argument, NULL, O_QUIET}, 'q', NULL, "no progress"},
    {{"resume", required_argument, NULL, O_RESUME},
     0,
     "DIR",
     "continue an interrupted check (the same drives,\n"
     "checked by serial; unfinished phase runs again)"},
    {{"list", no_argument, NULL, O_LIST}, 0, NULL, "the profiles"},
    HOSTCMD_OPTS,
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

/* 0, 1 (--list: listed), -EINVAL (said). */
static int parse(struct checkcmd *o, const struct cmd_args *a)
{
	for (unsigned i = 0; i < a->nopt; i++) {
		const char *v = a->opt[i].val;
		switch (a->opt[i].id) {
		case O_TARGET:
			if (o->ntargets == NVS_MAX_TARGETS) {
				fprintf(stderr, "nvscope check: more than %d targets\n",
					NVS_MAX_TARGETS);
				return -EINVAL;
			}
			o->targets[o->ntargets++] = v;
			break;
		case O_ALL:
			o->all_nvme = true;
			break;
		case O_MODEL:
			o->model = v;
			break;
		case O_PROFILE:
			o->profile = v;
			break;
		case O_JSON:
			o->json = true;
			break;
		case O_CSV:
			o->csv = v;
			break;
		case O_OUTPUT:
			o->dir = v;
			break;
		case O_CONFIRM:
			o->confirm = v;
			break;
		case O_FORCE:
			o->force = true;
			break;
		case O_QUIET:
			o->quiet = true;
			break;
		case O_RESUME:
			o->resume = v;
			break;
		case O_LIST:
			list_profiles();
			return 1;
		}
	}
	if (a->npos) {
		fprintf(stderr, "nvscope check: unexpected '%s' (targets go after --target)\n",
			a->pos[0]);
		return -EINVAL;
	}
	if (o->resume) {
		if (o->ntargets || o->all_nvme || o->model || o->profile || o->dir) {
			fprintf(stderr,
				"nvscope check: --resume DIR takes the drives and profile "
				"from DIR (give --yes-destroy-data/--force-destroy again)\n");
			return -EINVAL;
		}
		return 0;
	}
	if (!o->profile) {
		fprintf(stderr, "nvscope check: give --profile NAME (nvscope check --list)\n");
		return -EINVAL;
	}
	if (!o->ntargets == !o->all_nvme) {
		fprintf(stderr, "nvscope check: give --target DEV (repeatable) or --all-nvme\n");
		return -EINVAL;
	}
	return 0;
}

/* Adds drive @path to @d[*n] unless its serial (or path) is there already. */
static int add_drive(struct check_drive *d, size_t *n, const char *path, const struct dev_list *l,
		     bool dup_is_error)
{
	char err[512];
	struct check_drive *nd = &d[*n];

	if (check_drive_identify(nd, path, l, err, sizeof(err))) {
		fprintf(stderr, "nvscope check: %s\n", err);
		return -ENOENT;
	}
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(d[i].serial, nd->serial) || !strcmp(d[i].path, nd->path)) {
			if (!dup_is_error)
				return 0;
			fprintf(stderr, "nvscope check: %s and %s are the same drive (%s)\n",
				d[i].path, path, nd->serial);
			return -EINVAL;
		}
	(*n)++;
	return 0;
}

static int pick_drives(const struct checkcmd *o, const struct dev_list *l, struct check_drive *d,
		       size_t *n)
{
	char why[512];

	*n = 0;
	for (unsigned i = 0; i < o->ntargets; i++) {
		/* the agent's --allow: refused by name before anything is opened */
		if (o->allow && o->allow(o->allow_arg, o->targets[i], why, sizeof(why))) {
			fprintf(stderr, "nvscope check: %s\n", why);
			return -EPERM;
		}
		if (add_drive(d, n, o->targets[i], l, true))
			return -EINVAL;
	}
	for (size_t c = 0; o->all_nvme && c < l->nr_ctrls; c++) {
		if (!l->ctrls[c].nr_namespaces)
			continue;
		if (o->model && strcmp(l->ctrls[c].model, o->model))
			continue;
		if (*n == NVS_MAX_TARGETS) {
			fprintf(
			    stderr,
			    "nvscope check: more than %d drives: choose with --model or --target\n",
			    NVS_MAX_TARGETS);
			return -EINVAL;
		}
		size_t before = *n;
		if (add_drive(d, n, l->ctrls[c].path, l, false))
			return -EINVAL;
		/* --all-nvme on an agent with --allow: the allowed drives only */
		if (*n > before && o->allow &&
		    o->allow(o->allow_arg, d[*n - 1].path, why, sizeof(why)))
			(*n)--;
	}
	if (o->model) {
		size_t k = 0;
		for (size_t i = 0; i < *n; i++)
			if (!strcmp(d[i].model, o->model))
				d[k++] = d[i];
		*n = k;
	}
	if (!*n) {
		fprintf(stderr, "nvscope check: no drive to check%s%s%s\n",
			o->model ? " of model '" : "", o->model ? o->model : "",
			o->model ? "'" : "");
		return -ENOENT;
	}
	return 0;
}

/* A profile that writes: every drive confirmed and allowed by the safety
 * rules, checked for all before any is touched. */
static int confirm_writes(const struct checkcmd *o, struct check_drive *d, size_t n)
{
	char token[256], msg[512];
	int bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (!safety_confirmed(o->confirm, d[i].path, token, sizeof(token))) {
			char need[256] = "";
			safety_confirm_token(d[i].path, need, sizeof(need));
			fprintf(
			    stderr,
			    "nvscope check: refusing: the profile writes to %s and destroys its "
			    "data; confirm with --yes-destroy-data=%s\n",
			    d[i].path, need);
			bad = 1;
			continue;
		}
		int rc = safety_check_write(d[i].path, o->force, msg, sizeof(msg));
		if (rc) {
			fprintf(stderr, "nvscope check: refusing to write: %s\n", msg);
			bad = 1;
			continue;
		}
		d[i].write_ok = true;
	}
	return bad ? -EPERM : 0;
}

/* Pins every drive by identity (safety_pin_hold) before any check of it
 * (@hold false: releases them): the confirmation's write rule and the
 * jobs' checks then judge what is pinned, and check_run (which pins the
 * drives again for its phases) refuses a drive that is not that one any
 * more.  0, or -errno (said; nothing held). */
static int pin_drives(const struct check_drive *d, size_t n, bool hold)
{
	char msg[512];
	int rc = 0;
	size_t i;

	for (i = 0; hold && i < n; i++)
		if ((rc = safety_pin_hold(d[i].path, msg, sizeof(msg)))) {
			fprintf(stderr, "nvscope check: %s\n", msg);
			break;
		}
	/* released: all of them, or those held before a failure */
	for (size_t k = 0; (!hold || rc) && k < (hold ? i : n); k++)
		safety_pin_release(d[k].path);
	return rc;
}

struct progress {
	bool tty;
	int last_phase;
};

static void tick(const struct check_batch *b, void *arg)
{
	struct progress *pg = arg;
	int ph = atomic_load(&b->phase);

	if (!pg->tty) { /* a line per phase */
		if (ph != pg->last_phase && ph != CHECK_PHASE_DONE)
			fprintf(stderr, "check: %s on %zu drive%s\n", check_phase_name(b, ph), b->n,
				b->n == 1 ? "" : "s");
		pg->last_phase = ph;
		return;
	}
	termesc_raw(STDERR_FILENO, "\r\033[K"); /* stderr escapes every ESC */
	fprintf(stderr, "%-18s", check_phase_name(b, ph));
	for (size_t i = 0; i < b->n && i < 6; i++) {
		int dp = atomic_load(&b->d[i].phase);
		fprintf(stderr, " %s %s", b->d[i].serial,
			dp == ph		 ? ""
			: dp == CHECK_PHASE_WAIT ? "wait"
						 : "done");
		if (dp == ph)
			fprintf(stderr, "%d%%", atomic_load(&b->d[i].permille) / 10);
	}
	if (ph == CHECK_PHASE_DONE)
		fputc('\n', stderr);
}

/* --resume: the drives of DIR/state.json, each still the same drive. */
static int load_resume(struct checkcmd *o, struct check_batch *b, const struct dev_list *l,
		       struct check_drive *d, size_t *n, char *confirm, size_t clen)
{
	char err[1024];
	struct check_drive now;

	if (check_state_load(b, o->resume, d, NVS_MAX_TARGETS, n, confirm, clen, err,
			     sizeof(err))) {
		fprintf(stderr, "nvscope check: %s\n", err);
		return -EINVAL;
	}
	for (size_t i = 0; i < *n; i++) {
		/* the agent's --allow: a drive of the state not allowed is refused
		 * by name before anything is opened, as on a fresh start */
		if (o->allow && o->allow(o->allow_arg, d[i].path, err, sizeof(err))) {
			fprintf(stderr, "nvscope check: %s\n", err);
			return -EPERM;
		}
		if (check_drive_identify(&now, d[i].path, l, err, sizeof(err))) {
			fprintf(stderr, "nvscope check: %s\n", err);
			return -ENOENT;
		}
		if (strcmp(now.serial, d[i].serial)) {
			fprintf(stderr,
				"nvscope check: %s is now %s, the check began on %s: refusing to "
				"resume\n",
				d[i].path, now.serial, d[i].serial);
			return -EINVAL;
		}
		memcpy(d[i].ctrl, now.ctrl, sizeof(now.ctrl));
		memcpy(d[i].model, now.model, sizeof(now.model));
		memcpy(d[i].firmware, now.firmware, sizeof(now.firmware));
		d[i].nvme = now.nvme;
		d[i].capacity = now.capacity;
	}
	/* The write confirmation and --force-destroy are the command line's,
	 * as on a fresh start (docs/safety.md): never the file's, which only
	 * records what the first run was given. */
	(void)confirm;
	b->force = o->force;
	return 0;
}

/* Takes the lock of results directory @dfd (@dir, checked by the safety
 * module): @dir/.lock, opened by the module too (kept as it is), flock'ed.
 * The lock's descriptor, or -errno reported. */
static int lock_dir(int dfd, const char *dir)
{
	char msg[1024];
	int fd = safety_openat_output(dfd, ".lock", SAFETY_OUT_KEEP, msg, sizeof(msg));
	if (fd < 0) {
		fprintf(stderr, "nvscope check: %s/%s\n", dir, msg);
		return fd;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		fprintf(stderr, "nvscope check: %s: another nvscope check is running there\n", dir);
		return -EBUSY;
	}
	return fd;
}

struct ckpt {
	const char *dir, *confirm;
};

static void checkpoint(struct check_batch *b, void *arg)
{
	const struct ckpt *c = arg;
	char msg[1024];
	int rc = check_state_save(b, c->dir, c->confirm, msg, sizeof(msg));
	if (rc) {
		fprintf(stderr, "nvscope check: cannot save state: %s\n", msg);
		check_out_fail(b, rc, msg);
	}
}

/* The profile's measuring jobs on each drive, checked as they will run
 * (check/run.c do_job: the drive as the one target): options, engine and
 * zone options against the drive.  The verify jobs' writes are judged by
 * confirm_writes.  0 or -errno with @err. */
static int check_jobs(const struct check_profile *prof, const struct check_drive *d, size_t n,
		      char *err, size_t errlen)
{
	for (unsigned j = 0; j < prof->njobs; j++) {
		if (prof->role[j] == JUDGE_ROLE_VERIFY)
			continue;
		for (size_t i = 0; i < n; i++) {
			struct spec s = prof->jobs[j];
			snprintf(s.targets[0], sizeof(s.targets[0]), "%s", d[i].path);
			s.ntargets = 1;
			int rc = runcheck_job(&s, err, errlen);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* May --csv be written?  The output rule, and not one of the command's
 * files: the profile, the drives (by identity, safety_fileset_*). */
static int check_csv(const struct checkcmd *o, const struct check_profile *prof,
		     const struct check_drive *d, size_t n, char *err, size_t errlen)
{
	struct safety_fileset *fs = safety_fileset_new();
	int rc = fs ? safety_fileset_add(fs, prof->path, false, "the check profile") : -ENOMEM;

	for (size_t i = 0; !rc && i < n; i++)
		rc = safety_fileset_add(fs, d[i].path, true, "a drive checked");
	if (!rc)
		rc = safety_fileset_check_output(fs, o->csv, err, errlen);
	else
		snprintf(err, errlen, "%s", strerror(-rc));
	safety_fileset_free(fs);
	return rc;
}

enum { GO_ON = -1 }; /* a step of checkcmd_run returns it, or the exit status */

/* One check under way: what it checks, where its results go, what it
 * holds. */
struct checkctx {
	struct checkcmd *o; /* the resume and default directory set here */
	struct check_profile *prof;
	struct dev_list *l;
	struct check_drive *d; /* [n] of NVS_MAX_TARGETS */
	size_t n;
	struct check_batch b;
	struct ckpt ck; /* the batch's checkpoint argument */
	FILE *csv;
	int lockfd, dfd;
	bool pinned; /* pin_drives held */
	double started;
	char err[1024], dirbuf[512], confirm[4096];
};

/* The profile: the one named, or a resumed check's DIR/profile.ini under
 * the name it began with.  GO_ON or NVS_EXIT_USAGE (said). */
static int load_profile(struct checkctx *c)
{
	struct checkcmd *o = c->o;
	char pname[64];

	if (o->resume) {
		snprintf(c->dirbuf, sizeof(c->dirbuf), "%s/profile.ini", o->resume);
		if (strlen(o->resume) + 13 >= sizeof(c->dirbuf) ||
		    check_state_profile(o->resume, pname, sizeof(pname))) {
			fprintf(stderr,
				"nvscope check: %s: no check state to resume (a check that never "
				"began: start it again with -o %s)\n",
				o->resume, o->resume);
			return NVS_EXIT_USAGE;
		}
		o->profile = c->dirbuf;
		o->dir = o->resume;
	}
	if (check_profile_load(o->profile, &c->prof, c->err, sizeof(c->err))) {
		fprintf(stderr, "nvscope check: %s\n", c->err);
		return NVS_EXIT_USAGE;
	}
	if (o->resume)
		snprintf(c->prof->name, sizeof(c->prof->name), "%s", pname);
	return GO_ON;
}

/* The drives (a resumed check's, or those the command line names), pinned,
 * their writes confirmed; the results directory named.  GO_ON or the exit
 * status (said). */
static int choose_drives(struct checkctx *c)
{
	struct checkcmd *o = c->o;

	c->l = dev_scan_ids(c->err, sizeof(c->err));
	c->d = calloc(NVS_MAX_TARGETS, sizeof(*c->d));
	if (!c->l || !c->d) {
		fprintf(stderr, "nvscope check: %s\n", c->l ? "out of memory" : c->err);
		return NVS_EXIT_IOERR;
	}
	c->b.prof = c->prof;
	if (o->resume ? load_resume(o, &c->b, c->l, c->d, &c->n, c->confirm, sizeof(c->confirm))
		      : pick_drives(o, c->l, c->d, &c->n))
		return NVS_EXIT_USAGE;
	if (pin_drives(c->d, c->n, true))
		return NVS_EXIT_USAGE;
	c->pinned = true;
	if (check_profile_writes(c->prof) && confirm_writes(o, c->d, c->n))
		return NVS_EXIT_USAGE; /* refused: nothing touched */
	if (!o->dir) {
		if (check_default_dir(c->prof->name, c->dirbuf, sizeof(c->dirbuf))) {
			fprintf(stderr, "nvscope check: profile name too long for a directory\n");
			return NVS_EXIT_USAGE;
		}
		o->dir = c->dirbuf;
	}
	return GO_ON;
}

/* Every job on every drive as it will run (a refusal of the last phase
 * must not come after the first one wrote), and --csv checked before
 * anything is made: never the profile or a drive, never a file in use (the
 * image behind a loop device).  GO_ON or the exit status (said). */
static int check_first(struct checkctx *c)
{
	int rc;

	if ((rc = check_jobs(c->prof, c->d, c->n, c->err, sizeof(c->err)))) {
		fprintf(stderr, "nvscope check: %s\n", c->err);
		return cmd_exit_of(rc);
	}
	if (c->o->csv && (rc = check_csv(c->o, c->prof, c->d, c->n, c->err, sizeof(c->err)))) {
		fprintf(stderr, "nvscope check: --csv %s\n", c->err);
		return cmd_exit_of(rc);
	}
	return GO_ON;
}

/* The results directory (and --csv) checked by the safety module before
 * any I/O, empty unless resumed, locked; --csv opened.  GO_ON or the exit
 * status (said). */
static int open_results(struct checkctx *c)
{
	struct checkcmd *o = c->o;
	int rc;

	if ((c->dfd = safety_results_dir(o->dir, !o->resume, c->err, sizeof(c->err))) < 0) {
		fprintf(stderr, "nvscope check: %s\n", c->err);
		return cmd_exit_of(c->dfd);
	}
	if (!o->resume && !check_dir_empty(o->dir)) {
		fprintf(stderr,
			"nvscope check: %s exists and is not empty (continue with --resume)\n",
			o->dir);
		return NVS_EXIT_USAGE;
	}
	if ((c->lockfd = lock_dir(c->dfd, o->dir)) < 0)
		return cmd_exit_of(c->lockfd);
	if (o->csv &&
	    !(c->csv = safety_fopen_output(o->csv, SAFETY_OUT_TRUNC, c->err, sizeof(c->err)))) {
		rc = -errno;
		fprintf(stderr, "nvscope check: --csv %s\n", c->err);
		return cmd_exit_of(rc);
	}
	return GO_ON;
}

/* The batch set up (a resumed one at its next step), and its fixed files
 * written: a fresh start's profile, VERSION and first state; meta.json
 * "running".  GO_ON or the exit status (said). */
static int begin_batch(struct checkctx *c)
{
	struct checkcmd *o = c->o;
	unsigned next = c->b.next_step;
	int rc;

	c->ck = (struct ckpt){.dir = o->dir, .confirm = o->confirm};
	c->b = (struct check_batch){.prof = c->prof,
				    .d = c->d,
				    .n = c->n,
				    .force = o->force,
				    .cancel = o->cancel ? o->cancel : &stop_flag,
				    .dir = o->dir,
				    .next_step = next,
				    .checkpoint = checkpoint,
				    .checkpoint_arg = &c->ck};
	c->started = (double)time(NULL);
	if (!o->resume) {
		for (size_t i = 0; i < c->n; i++)
			c->d[i].started = c->started;
		if ((rc = check_write_text(o->dir, RESDIR_CHECK_PROFILE, c->prof->text, c->err,
					   sizeof(c->err))) ||
		    (rc = check_write_text(o->dir, "VERSION", "nvscope " NVS_VERSION "\n", c->err,
					   sizeof(c->err))) ||
		    (rc = check_state_save(&c->b, o->dir, o->confirm, c->err, sizeof(c->err)))) {
			fprintf(stderr, "nvscope check: %s\n", c->err);
			return cmd_exit_of(rc);
		}
	}
	if ((rc = check_write_meta(&c->b, o->dir, "running", c->started, c->err, sizeof(c->err)))) {
		fprintf(stderr, "nvscope check: %s\n", c->err);
		return cmd_exit_of(rc);
	}
	return GO_ON;
}

/* The batch run, with the caller's progress and cancel flag or the
 * command's line and the stop signals.  GO_ON, or the exit status of a
 * run that failed (said; meta.json "failed"). */
static int run_batch(struct checkctx *c)
{
	struct checkcmd *o = c->o;
	struct progress pg = {.tty = !o->quiet && isatty(2), .last_phase = -1};
	int rc;

	if (!o->cancel)
		stopsig_catch(on_signal, false); /* SIGINT, SIGTERM, SIGHUP, SIGQUIT */
	if (o->tick)
		rc = check_run(&c->b, o->tick, o->tick_arg);
	else
		rc = check_run(&c->b, o->quiet ? NULL : tick, &pg);
	if (!o->cancel)
		stopsig_default();
	if (!rc)
		return GO_ON;
	fprintf(stderr, "nvscope check: %s\n",
		atomic_load(&c->b.out_rc) ? c->b.out_err : strerror(-rc));
	if (check_write_meta(&c->b, o->dir, "failed", c->started, c->err, sizeof(c->err)))
		fprintf(stderr, "nvscope check: %s\n", c->err);
	return atomic_load(&c->b.out_rc) ? cmd_exit_of(rc) : NVS_EXIT_IOERR;
}

/* The checked batch: its results written, meta.json "done" or
 * "interrupted", shown (the caller's output, --json or the table).  The
 * exit status. */
static int report_batch(struct checkctx *c)
{
	struct checkcmd *o = c->o;
	struct check_batch *b = &c->b;
	cJSON *batch = check_batch_json(b, o->dir);
	unsigned cnt[4];
	int rc, ret;

	if ((rc = check_write_results(b, o->dir, c->csv, batch, c->err, sizeof(c->err))))
		check_out_fail(b, rc, c->err);
	if ((rc = check_write_meta(b, o->dir, b->cancelled ? "interrupted" : "done", c->started,
				   c->err, sizeof(c->err))))
		check_out_fail(b, rc, c->err);
	if (o->out) {
		o->out(b, batch, o->dir, o->out_arg);
	} else if (o->json) {
		if ((rc = json_puts(batch, stdout)))
			fprintf(stderr, "nvscope check: cannot print the JSON: %s\n",
				strerror(-rc));
	} else {
		check_print_table(b, stdout);
		if (!o->quiet)
			printf("results: %s%s\n", o->dir,
			       b->cancelled ? " (interrupted: nvscope check --resume continues)"
					    : "");
	}
	cJSON_Delete(batch);
	check_counts(b, cnt);
	ret = b->cancelled || cnt[JUDGE_FAIL] || cnt[JUDGE_NA] ? NVS_EXIT_IOERR : NVS_EXIT_OK;
	if ((rc = atomic_load(&b->out_rc))) { /* results the check could not write: never silent */
		fprintf(stderr, "nvscope check: results incomplete: %s\n", b->out_err);
		ret = cmd_exit_of(rc);
	}
	return ret;
}

int checkcmd_run(const struct checkcmd *in)
{
	struct checkcmd own = *in;
	struct checkctx c = {.o = &own, .lockfd = -1, .dfd = -1};
	int ret;

	if ((ret = load_profile(&c)) != GO_ON)
		return ret;
	if ((ret = choose_drives(&c)) == GO_ON && (ret = check_first(&c)) == GO_ON &&
	    (ret = open_results(&c)) == GO_ON && (ret = begin_batch(&c)) == GO_ON &&
	    (ret = run_batch(&c)) == GO_ON)
		ret = report_batch(&c);
	if (c.csv && fclose(c.csv) && ret == NVS_EXIT_OK) {
		fprintf(stderr, "nvscope check: --csv %s: %s\n", own.csv, strerror(errno));
		ret = NVS_EXIT_IOERR;
	}
	if (c.pinned)
		pin_drives(c.d, c.n, false);
	if (c.lockfd >= 0)
		close(c.lockfd);
	if (c.dfd >= 0)
		close(c.dfd);
	free(c.d);
	dev_list_free(c.l);
	check_profile_free(c.prof);
	return ret;
}

static int exec_check(const struct cmd_entry *self, struct cmd_args *args)
{
	struct checkcmd o = {0};
	struct hostcmd h;
	bool remote = false;
	int rc;

	if (hostcmd_take(&h, self, args))
		return NVS_EXIT_USAGE;
	if ((rc = parse(&o, args))) {
		hostcmd_clear(&h);
		return rc > 0 ? NVS_EXIT_OK : NVS_EXIT_USAGE;
	}
	if (hostcmd_targets(&h, self, o.targets, o.ntargets, &remote))
		rc = NVS_EXIT_USAGE;
	else if (remote)
		rc = hostcmd_check(self, &h, &o);
	else
		rc = checkcmd_run(&o);
	hostcmd_clear(&h);
	return rc;
}

const struct cmd_entry cmd_check_entry = {
    .name = "check",
    .summary = "check drives with a profile: PASS/WARN/FAIL per serial",
    .usage = "check (--target DEV [--target DEV ...] | --all-nvme [--model M])\n"
	     "      --profile NAME [--json] [--csv FILE] [-o DIR]\n"
	     "      [--yes-destroy-data=SERIAL|PATH,...] [--force-destroy] [-q]\n"
	     "check --resume DIR [--yes-destroy-data=SERIAL|PATH,...] [--force-destroy]\n"
	     "      [--json] [--csv FILE] [-q]\n"
	     "check --list\n"
	     "check (--host DEST ... | --hosts FILE | --target HOST:DEV ...) [host options]\n"
	     "      (--all-nvme | --target DEV ...) --profile NAME [--json] [-o DIR] [-q]",
    .text = "Checks each drive with a profile (presets/checks/NAME.ini or a file: quick,\n"
	    "burn-in, rma) and prints one row per serial: model, firmware, capacity,\n"
	    "PASS/WARN/FAIL and the reasons.  Drives run in parallel.  Over hosts\n"
	    "(docs/hosts.md) each host checks its drives with its nvscope (the profile\n"
	    "NAME and -o DIR as that host reads them; %h in DIR is the host), together,\n"
	    "one row per host and drive.",
    .opts = opts,
    .notes = "exit status: 0 every drive PASS or WARN, 1 any FAIL (or not judged, or\n"
	     "interrupted), 2 bad input or refused (nothing touched).  Over hosts: 1 as\n"
	     "well when a host could not be checked (named on stderr).  See docs/check.md.",
    .exec = exec_check,
};

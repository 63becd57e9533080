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

int checkcmd_run(const struct checkcmd *in)
{
	struct checkcmd own = *in, *o = &own; /* the resume and default directory set here */
	struct check_profile *prof = NULL;
	struct dev_list *l = NULL;
	struct check_drive *d = NULL;
	struct check_batch b = {0};
	char err[1024], dirbuf[512], confirm[4096] = "", pname[64];
	FILE *csv = NULL;
	size_t n = 0;
	int ret = NVS_EXIT_USAGE, rc, lockfd = -1, dfd = -1;
	bool pinned = false; /* pin_drives held */

	if (o->resume) {
		snprintf(dirbuf, sizeof(dirbuf), "%s/profile.ini", o->resume);
		if (strlen(o->resume) + 13 >= sizeof(dirbuf) ||
		    check_state_profile(o->resume, pname, sizeof(pname))) {
			fprintf(stderr,
				"nvscope check: %s: no check state to resume (a check that never "
				"began: start it again with -o %s)\n",
				o->resume, o->resume);
			return NVS_EXIT_USAGE;
		}
		o->profile = dirbuf;
		o->dir = o->resume;
	}
	if (check_profile_load(o->profile, &prof, err, sizeof(err))) {
		fprintf(stderr, "nvscope check: %s\n", err);
		return NVS_EXIT_USAGE;
	}
	if (o->resume)
		snprintf(prof->name, sizeof(prof->name), "%s", pname);
	l = dev_scan_ids(err, sizeof(err));
	d = calloc(NVS_MAX_TARGETS, sizeof(*d));
	if (!l || !d) {
		fprintf(stderr, "nvscope check: %s\n", l ? "out of memory" : err);
		ret = NVS_EXIT_IOERR;
		goto out;
	}
	b.prof = prof;
	if (o->resume ? load_resume(o, &b, l, d, &n, confirm, sizeof(confirm))
		      : pick_drives(o, l, d, &n))
		goto out;
	if (pin_drives(d, n, true))
		goto out;
	pinned = true;
	if (check_profile_writes(prof) && confirm_writes(o, d, n))
		goto out; /* refused: nothing touched */
	if (!o->dir) {
		if (check_default_dir(prof->name, dirbuf, sizeof(dirbuf))) {
			fprintf(stderr, "nvscope check: profile name too long for a directory\n");
			goto out;
		}
		o->dir = dirbuf;
	}
	/* every job on every drive as it will run: a refusal of the last
	 * phase must not come after the first one wrote */
	if ((rc = check_jobs(prof, d, n, err, sizeof(err)))) {
		fprintf(stderr, "nvscope check: %s\n", err);
		ret = cmd_exit_of(rc);
		goto out;
	}
	/* --csv checked before anything is made: never the profile or a
	 * drive, never a file in use (the image behind a loop device) */
	if (o->csv && (rc = check_csv(o, prof, d, n, err, sizeof(err)))) {
		fprintf(stderr, "nvscope check: --csv %s\n", err);
		ret = cmd_exit_of(rc);
		goto out;
	}
	/* the results directory (and --csv) checked by the safety module before any I/O */
	if ((dfd = safety_results_dir(o->dir, !o->resume, err, sizeof(err))) < 0) {
		fprintf(stderr, "nvscope check: %s\n", err);
		ret = cmd_exit_of(dfd);
		goto out;
	}
	if (!o->resume && !check_dir_empty(o->dir)) {
		fprintf(stderr,
			"nvscope check: %s exists and is not empty (continue with --resume)\n",
			o->dir);
		goto out;
	}
	if ((lockfd = lock_dir(dfd, o->dir)) < 0) {
		ret = cmd_exit_of(lockfd);
		goto out;
	}
	if (o->csv && !(csv = safety_fopen_output(o->csv, SAFETY_OUT_TRUNC, err, sizeof(err)))) {
		rc = -errno;
		fprintf(stderr, "nvscope check: --csv %s\n", err);
		ret = cmd_exit_of(rc);
		goto out;
	}
	struct ckpt ck = {.dir = o->dir, .confirm = o->confirm};
	unsigned next = b.next_step;
	b = (struct check_batch){.prof = prof,
				 .d = d,
				 .n = n,
				 .force = o->force,
				 .cancel = o->cancel ? o->cancel : &stop_flag,
				 .dir = o->dir,
				 .next_step = next,
				 .checkpoint = checkpoint,
				 .checkpoint_arg = &ck};
	double started = (double)time(NULL);
	if (!o->resume) {
		for (size_t i = 0; i < n; i++)
			d[i].started = started;
		if ((rc = check_write_text(o->dir, RESDIR_CHECK_PROFILE, prof->text, err,
					   sizeof(err))) ||
		    (rc = check_write_text(o->dir, "VERSION", "nvscope " NVS_VERSION "\n", err,
					   sizeof(err))) ||
		    (rc = check_state_save(&b, o->dir, o->confirm, err, sizeof(err)))) {
			fprintf(stderr, "nvscope check: %s\n", err);
			ret = cmd_exit_of(rc);
			goto out;
		}
	}
	if ((rc = check_write_meta(&b, o->dir, "running", started, err, sizeof(err)))) {
		fprintf(stderr, "nvscope check: %s\n", err);
		ret = cmd_exit_of(rc);
		goto out;
	}

	if (!o->cancel)
		stopsig_catch(on_signal, false); /* SIGINT, SIGTERM, SIGHUP, SIGQUIT */
	struct progress pg = {.tty = !o->quiet && isatty(2), .last_phase = -1};
	if (o->tick)
		rc = check_run(&b, o->tick, o->tick_arg);
	else
		rc = check_run(&b, o->quiet ? NULL : tick, &pg);
	if (!o->cancel)
		stopsig_default();
	if (rc) {
		fprintf(stderr, "nvscope check: %s\n",
			atomic_load(&b.out_rc) ? b.out_err : strerror(-rc));
		if (check_write_meta(&b, o->dir, "failed", started, err, sizeof(err)))
			fprintf(stderr, "nvscope check: %s\n", err);
		ret = atomic_load(&b.out_rc) ? cmd_exit_of(rc) : NVS_EXIT_IOERR;
		goto out;
	}
	cJSON *batch = check_batch_json(&b, o->dir);
	if ((rc = check_write_results(&b, o->dir, csv, batch, err, sizeof(err))))
		check_out_fail(&b, rc, err);
	if ((rc = check_write_meta(&b, o->dir, b.cancelled ? "interrupted" : "done", started, err,
				   sizeof(err))))
		check_out_fail(&b, rc, err);
	if (o->out) {
		o->out(&b, batch, o->dir, o->out_arg);
	} else if (o->json) {
		if ((rc = json_puts(batch, stdout)))
			fprintf(stderr, "nvscope check: cannot print the JSON: %s\n",
				strerror(-rc));
	} else {
		check_print_table(&b, stdout);
		if (!o->quiet)
			printf("results: %s%s\n", o->dir,
			       b.cancelled ? " (interrupted: nvscope check --resume continues)"
					   : "");
	}
	cJSON_Delete(batch);
	unsigned c[4];
	check_counts(&b, c);
	ret = b.cancelled || c[JUDGE_FAIL] || c[JUDGE_NA] ? NVS_EXIT_IOERR : NVS_EXIT_OK;
	if ((rc = atomic_load(&b.out_rc))) { /* results the check could not write: never silent */
		fprintf(stderr, "nvscope check: results incomplete: %s\n", b.out_err);
		ret = cmd_exit_of(rc);
	}
out:
	if (csv && fclose(csv) && ret == NVS_EXIT_OK) {
		fprintf(stderr, "nvscope check: --csv %s: %s\n", o->csv, strerror(errno));
		ret = NVS_EXIT_IOERR;
	}
	if (pinned)
		pin_drives(d, n, false);
	if (lockfd >= 0)
		close(lockfd);
	if (dfd >= 0)
		close(dfd);
	free(d);
	dev_list_free(l);
	check_profile_free(prof);
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

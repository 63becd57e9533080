/* plandir.c - a plan's results directory: what `nvscope plan` and the
 * console both do around planrun_run(): the rule for starting a plan
 * (planrun_may_run: confirmation and the write-safety rule), creating the
 * directory with its fixed files (plan.ini, VERSION, device identity and
 * health, the first state.json), the one-run lock, meta.json. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "run/planrun.h"
#include "config/plan.h"
#include "dev/devmodel.h"
#include "dev/safety.h"
#include "dev/testbed.h"
#include "report/json.h"
#include "run/resdir.h"

bool planrun_destroys(const struct plan *p)
{
	for (unsigned i = 0; i < p->nsteps; i++)
		if (p->steps[i].kind == STEP_PURGE ||
		    (p->steps[i].kind != STEP_MATRIX && spec_writes(&p->steps[i].spec)))
			return true;
		else if (p->steps[i].kind == STEP_MATRIX)
			for (unsigned m = 0; m < p->steps[i].nmixes; m++)
				if (p->steps[i].mixes[m] < 100)
					return true;
	return false;
}

/* Appends @s to @buf (used @*o), single-quoted for a shell when it holds
 * anything but [A-Za-z0-9/._,=+:@-]. */
static void shell_arg(char *buf, size_t len, size_t *o, const char *pre, const char *s)
{
	bool plain = *s != '\0';
	for (const char *p = s; *p; p++)
		plain &= (bool)(strchr("/._,=+:@-", *p) || (*p >= 'a' && *p <= 'z') ||
				(*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'));
	int k = snprintf(buf + *o, *o < len ? len - *o : 0, "%s%s", pre, plain ? "" : "'");
	*o += k > 0 ? (size_t)k : 0;
	for (const char *p = s; *p; p++) {
		k = snprintf(buf + *o, *o < len ? len - *o : 0, "%s",
			     *p == '\'' && !plain ? "'\\''" : (char[2]){*p, 0});
		*o += k > 0 ? (size_t)k : 0;
	}
	k = snprintf(buf + *o, *o < len ? len - *o : 0, "%s", plain ? "" : "'");
	*o += k > 0 ? (size_t)k : 0;
}

bool planrun_busy(const char *dir)
{
	char path[1100];
	if (snprintf(path, sizeof(path), "%s/.lock", dir) >= (int)sizeof(path))
		return false;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool busy = flock(fd, LOCK_SH | LOCK_NB) && errno == EWOULDBLOCK;
	close(fd);
	return busy;
}

int planrun_resume_cmd(const struct planrun *r, char *buf, size_t len)
{
	size_t o = 0;
	char tokens[NVS_MAX_TARGETS * 72] = "", tok[256];
	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	shell_arg(buf, len, &o, "nvscope plan --resume ", r->dir);
	if (r->plan && planrun_destroys(r->plan)) {
		size_t t = 0;
		for (unsigned i = 0; i < r->ntargets; i++) {
			if (safety_confirm_token(r->targets[i], tok, sizeof(tok)))
				snprintf(tok, sizeof(tok), "%s", r->targets[i]);
			int k = snprintf(tokens + t, sizeof(tokens) - t, "%s%s", i ? "," : "", tok);
			t += k > 0 ? (size_t)k : 0;
			if (t >= sizeof(tokens))
				return -ENOSPC;
		}
		shell_arg(buf, len, &o, " --yes-destroy-data=", tokens);
		if (r->force)
			shell_arg(buf, len, &o, " ", "--force-destroy");
	}
	return o < len ? 0 : -ENOSPC;
}

static int write_file(const char *dir, const char *name, const char *text, char *err, size_t errlen)
{
	return safety_replace_in(dir, name, text, strlen(text), err, errlen);
}

int planrun_may_run(const struct planrun *r, unsigned *bad, char *err, size_t errlen)
{
	err[0] = '\0';
	if (!planrun_destroys(r->plan))
		return 0; /* reads only */
	for (unsigned i = 0; i < r->ntargets; i++) {
		const char *t = r->targets[i];
		char need[256] = "", msg[768];
		if (bad)
			*bad = i;
		if (!safety_confirmed(r->confirm, t, NULL, 0)) {
			safety_confirm_token(t, need, sizeof(need));
			snprintf(err, errlen,
				 "plan '%s' destroys the data on %s: add --yes-destroy-data=%s%s",
				 r->plan->name, t, need[0] ? need : t,
				 need[0] && strcmp(need, t) ? " (the controller's serial)" : "");
			return -EACCES;
		}
		/* the rule of every write, for a [purge] step as for a fill */
		int rc = safety_check_write(t, r->force, msg, sizeof(msg));
		if (rc) {
			snprintf(err, errlen, "plan '%s': refusing to write: %s", r->plan->name,
				 msg);
			return -EPERM;
		}
	}
	return 0;
}

/* Device identity (and NVMe health) of every target into @name. */
void planrun_write_devices(const struct planrun *r, const char *name)
{
	char err[256];
	struct dev_list *l = dev_scan_ids(err, sizeof(err));
	cJSON *o = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(o, "targets");
	cJSON_AddNumberToObject(o, "time", (double)time(NULL));
	for (unsigned i = 0; i < r->ntargets; i++) {
		const char *path = r->targets[i];
		cJSON *t = cJSON_CreateObject();
		cJSON_AddStringToObject(t, "path", path);
		const struct dev_ns *ns = NULL;
		const struct dev_ctrl *c = l ? dev_list_find_nvme(l, path, &ns) : NULL;
		const struct dev_block *b = l && !c ? dev_list_find_block(l, path) : NULL;
		if (c) {
			cJSON_AddStringToObject(t, "kind", "nvme");
			cJSON_AddStringToObject(t, "controller", c->name);
			cJSON_AddStringToObject(t, "model", c->model);
			cJSON_AddStringToObject(t, "serial", c->serial);
			cJSON_AddStringToObject(t, "firmware", c->firmware);
			cJSON_AddStringToObject(t, "transport", c->transport);
			cJSON_AddStringToObject(t, "address", c->address);
			if (ns) {
				cJSON_AddNumberToObject(t, "nsid", ns->nsid);
				cJSON_AddNumberToObject(t, "size_bytes", (double)ns->size_bytes);
				cJSON_AddNumberToObject(t, "lba_size", ns->lba_size);
			}
			struct dev_health h;
			int st = 0;
			char herr[256];
			if (!dev_health_read(path, &h, &st, herr, sizeof(herr))) {
				cJSON *hj = dev_health_to_json(&h, path);
				if (hj)
					cJSON_AddItemToObject(t, "health", hj);
			} else {
				cJSON_AddStringToObject(t, "health_error", herr);
			}
		} else if (b) {
			cJSON_AddStringToObject(t, "kind",
						b->kind == DEV_KIND_FILE ? "file" : "block");
			cJSON_AddStringToObject(t, "driver", b->driver);
			cJSON_AddStringToObject(t, "model", b->model);
			cJSON_AddNumberToObject(t, "size_bytes", (double)b->size_bytes);
			cJSON_AddNumberToObject(t, "lba_size", b->lba_size);
			cJSON_AddBoolToObject(t, "rotational", b->rotational);
		} else {
			struct stat sb;
			cJSON_AddStringToObject(t, "kind", "file");
			if (!stat(path, &sb))
				cJSON_AddNumberToObject(t, "size_bytes", (double)sb.st_size);
		}
		cJSON_AddItemToArray(arr, t);
	}
	planrun_write_json(r->dir, name, o);
	cJSON_Delete(o);
	dev_list_free(l);
}

/* Device JSON @name of the results directory, or NULL. */
static cJSON *dev_json(const struct planrun *r, const char *name)
{
	char path[4096];
	int n = snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	return n > 0 && (size_t)n < sizeof(path) ? json_read_file(path) : NULL;
}

/* Each drive's health before the run (device-before.json) and, once it
 * ended well, after it (device-after.json) into test bed @tb. */
static void add_health(const struct planrun *r, cJSON *tb, bool done)
{
	cJSON *before = r->dir ? dev_json(r, RESDIR_DEV_BEFORE) : NULL;
	cJSON *after = r->dir && done ? dev_json(r, RESDIR_DEV_AFTER) : NULL;
	testbed_add_health(tb, before, after);
	cJSON_Delete(before);
	cJSON_Delete(after);
}

void planrun_write_meta(const struct planrun *r, const char *status, double started,
			const char *started_by)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "nvscope_version", NVS_VERSION);
	cJSON_AddStringToObject(o, "plan", r->plan->name);
	cJSON_AddStringToObject(o, "description", r->plan->description);
	cJSON_AddStringToObject(o, "plan_file", r->plan->path);
	cJSON *t = cJSON_AddArrayToObject(o, "targets");
	for (unsigned i = 0; i < r->ntargets; i++)
		cJSON_AddItemToArray(t, cJSON_CreateString(r->targets[i]));
	if (r->stripe)
		cJSON_AddNumberToObject(o, "stripe", (double)r->stripe);
	cJSON *ov = cJSON_AddObjectToObject(o, "overrides");
	for (unsigned i = 0; i < r->noverrides; i++)
		cJSON_AddStringToObject(ov, r->overrides[i][0], r->overrides[i][1]);
	cJSON *steps = cJSON_AddArrayToObject(o, "steps");
	for (unsigned i = 0; i < r->plan->nsteps; i++) {
		char d[128];
		planrun_step_dir(r->plan, i, d, sizeof(d));
		cJSON_AddItemToArray(steps, cJSON_CreateString(d));
	}
	if (started_by)
		cJSON_AddStringToObject(o, "started_by", started_by);
	cJSON_AddNumberToObject(o, "started", started);
	cJSON_AddStringToObject(o, "status", status);
	if (strcmp(status, "running"))
		cJSON_AddNumberToObject(o, "finished", (double)time(NULL));
	/* the machine, the command line of this start and the targets */
	const char *paths[NVS_MAX_TARGETS];
	for (unsigned i = 0; i < r->ntargets && i < NVS_MAX_TARGETS; i++)
		paths[i] = r->targets[i];
	cJSON *tb =
	    testbed_json(paths, r->ntargets < NVS_MAX_TARGETS ? r->ntargets : NVS_MAX_TARGETS);
	if (tb) {
		add_health(r, tb, !strcmp(status, "done"));
		cJSON_AddItemToObject(o, "testbed", tb);
	}
	planrun_write_json(r->dir, RESDIR_META, o);
	cJSON_Delete(o);
}

static bool dir_empty(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return true;
	struct dirent *e;
	bool empty = true;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

void planrun_default_dir(const struct plan *p, char *buf, size_t len)
{
	char ts[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, len, "results/%s-%s", p->name, ts);
}

int planrun_create_dir(struct planrun *r, const char *dir, char *err, size_t errlen)
{
	int rc;

	if (!dir_empty(dir)) {
		snprintf(err, errlen, "%s exists and is not empty (continue a run with --resume %s)",
			 dir, dir);
		return -EEXIST;
	}
	/* created (or empty and ours), never through a symlink (safety_out.c) */
	rc = safety_results_dir(dir, true, err, errlen);
	if (rc < 0)
		return rc;
	close(rc);
	r->dir = dir;
	if ((rc = write_file(dir, RESDIR_PLAN_INI, r->plan->text, err, errlen)) ||
	    (rc = write_file(dir, RESDIR_VERSION, "nvscope " NVS_VERSION "\n", err, errlen)))
		return rc;
	planrun_write_devices(r, RESDIR_DEV_BEFORE);
	rc = planrun_save(r);
	if (rc)
		snprintf(err, errlen, "cannot write %s/state.json: %s", dir, strerror(-rc));
	return rc;
}

int planrun_lock(const struct planrun *r, char *err, size_t errlen)
{
	char msg[512];
	int fd, dfd;

	/* also where a resumed run first checks its directory: ours, no symlink */
	dfd = safety_results_dir(r->dir, false, err, errlen);
	if (dfd < 0)
		return dfd;
	fd = safety_openat_output(dfd, ".lock", SAFETY_OUT_KEEP, msg, sizeof(msg));
	close(dfd);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", r->dir, msg);
		return fd;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		snprintf(err, errlen, "%s: another nvscope plan is running there", r->dir);
		return -EBUSY;
	}
	return fd;
}

void planrun_step_dir(const struct plan *p, unsigned i, char *buf, size_t len)
{
	const struct plan_step *st = &p->steps[i];
	char lab[64];
	size_t j = 0;
	for (const char *c = st->label; *c && j < sizeof(lab) - 1; c++)
		lab[j++] = (char)((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
					  (*c >= '0' && *c <= '9') || *c == '.' || *c == '_'
				      ? *c
				      : '-');
	lab[j] = '\0';
	if (!strcmp(lab, plan_step_kind_name(st->kind)))
		snprintf(buf, len, "%02u-%s", i + 1, lab);
	else
		snprintf(buf, len, "%02u-%s-%s", i + 1, plan_step_kind_name(st->kind), lab);
}

void planrun_write_json(const char *dir, const char *name, void *json)
{
	char msg[512];
	char *text = json_print(json);
	size_t len = text ? strlen(text) : 0;
	char *buf = text ? realloc(text, len + 2) : NULL;
	if (!buf) {
		free(text);
		return;
	}
	memcpy(buf + len, "\n", 2);
	/* atomically, in the checked results directory (safety_out.c) */
	if (safety_replace_in(dir, name, buf, len + 1, msg, sizeof(msg)))
		fprintf(stderr, "nvscope plan: cannot write %s/%s: %s\n", dir, name, msg);
	free(buf);
}

/* fio's bssplit text of @s ("4k/50:8k/30:64k/20", read weights), malloc'ed. */
static char *bssplit_text(const struct spec *s)
{
	char *buf = NULL, b[32];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	for (unsigned k = 0; k < s->nbs && k < NVS_MAX_BSSPLIT; k++)
		fprintf(f, "%s%s/%u", k ? ":" : "", spec_fmt_size(s->bs[k].bs, b, sizeof(b)),
			s->bs[k].weight);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* A trace replay's step: its iolog's name, copies and stagger (what it
 * runs, rather than the rw and bs of the workload it starts from). */
static void step_trace(const struct spec_replay *rp, cJSON *o)
{
	const char *base = strrchr(rp->iolog, '/');
	cJSON_AddStringToObject(o, "trace", base ? base + 1 : rp->iolog);
	cJSON_AddNumberToObject(o, "trace_copies", rp->copies ? rp->copies : 1);
	cJSON_AddNumberToObject(o, "trace_stagger_s", (double)rp->stagger_ns / 1e9);
}

/* The parameters step @st runs with, after the plan's defaults, its keys and
 * the command line's overrides (meta.json "overrides" names those): what
 * the report prints, rather than the plan's description. */
static void step_as_run(const struct planrun *r, const struct plan_step *st, cJSON *o)
{
	bool timed = st->kind == STEP_MEASURE || st->kind == STEP_RATE_CURVE ||
		     st->kind == STEP_GRID || st->kind == STEP_MATRIX;
	if (st->kind == STEP_PURGE)
		return;
	cJSON *qd = cJSON_AddArrayToObject(o, "iodepth");
	for (unsigned k = 0; k < st->spec.niodepth && k < NVS_MAX_QD_STEPS; k++)
		cJSON_AddItemToArray(qd, cJSON_CreateNumber(st->spec.iodepth[k]));
	if (st->spec.nbs > 1) {
		char *t = bssplit_text(&st->spec);
		if (t)
			cJSON_AddStringToObject(o, "bssplit", t);
		free(t);
	}
	if (st->kind == STEP_FILL)
		cJSON_AddNumberToObject(o, "passes", st->fill_passes);
	if (st->kind == STEP_PRECONDITION) {
		cJSON_AddNumberToObject(o, "round_s", (double)st->round_ns / 1e9);
		cJSON_AddNumberToObject(o, "max_rounds", st->max_rounds);
	}
	if (st->kind == STEP_MATRIX)
		cJSON_AddNumberToObject(o, "max_rounds", st->max_rounds);
	if (timed)
		cJSON_AddNumberToObject(o, "runtime_s", (double)st->spec.runtime_ns / 1e9);
	if (timed || st->kind == STEP_PRECONDITION)
		cJSON_AddNumberToObject(o, "ramp_s", (double)st->spec.ramp_ns / 1e9);
	if (r->stripe)
		cJSON_AddNumberToObject(o, "stripe", (double)r->stripe);
	if (st->spec.replay.iolog[0])
		step_trace(&st->spec.replay, o);
}

void planrun_write_step(const struct planrun *r, unsigned i, const char *dir, const char *status,
			double finished)
{
	const struct plan_step *st = &r->plan->steps[i];
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", plan_step_kind_name(st->kind));
	cJSON_AddStringToObject(o, "label", st->label);
	cJSON_AddStringToObject(o, "name", st->name);
	cJSON_AddNumberToObject(o, "index", i + 1);
	cJSON_AddStringToObject(o, "status", status);
	cJSON_AddNumberToObject(o, "started", r->st.started);
	if (finished > 0)
		cJSON_AddNumberToObject(o, "finished", finished);
	cJSON_AddStringToObject(o, "rw", spec_rw_name(st->spec.rw));
	char b[32];
	cJSON_AddStringToObject(o, "bs", spec_fmt_size(st->spec.bs[0].bs, b, sizeof(b)));
	cJSON_AddNumberToObject(o, "numjobs", st->spec.numjobs);
	if (st->spec.rw == RW_RW || st->spec.rw == RW_RANDRW)
		cJSON_AddNumberToObject(o, "rwmixread", st->spec.rwmixread);
	step_as_run(r, st, o);
	planrun_write_json(dir, RESDIR_STEP, o);
	cJSON_Delete(o);
}

int planrun_pin(const struct planrun *r, char *err, size_t errlen)
{
	for (unsigned i = 0; i < r->ntargets; i++) {
		int ret = safety_pin_hold(r->targets[i], err, errlen);
		if (ret) { /* nothing held: those before it released */
			while (i--)
				safety_pin_release(r->targets[i]);
			return ret;
		}
	}
	return 0;
}

void planrun_unpin(const struct planrun *r)
{
	for (unsigned i = 0; i < r->ntargets; i++)
		safety_pin_release(r->targets[i]);
}

int planrun_begin(struct planrun *r, const char *dir, bool resume, double started,
		  const char *started_by, char *err, size_t errlen)
{
	int ret, fd = -1;

	/* the targets pinned before they are checked: the check judges what
	 * is pinned, every later open of a step must find the same device or
	 * file (safety_pin_*, released by planrun_end) */
	if ((ret = planrun_pin(r, err, errlen)))
		return ret;
	if (!resume) {
		/* a fresh start: checked before its directory exists */
		ret = planrun_may_run(r, NULL, err, errlen);
		if (!ret) /* refused (exists, another user's, a symlink ...) */
			ret = planrun_create_dir(r, dir, err, errlen);
		if (ret)
			goto unpin;
	} else {
		r->dir = dir;
	}
	/* one run per results directory at a time */
	fd = planrun_lock(r, err, errlen);
	if (fd < 0) {
		ret = fd;
		goto unpin;
	}
	/* a resume: checked once it holds the directory's lock */
	if (resume && (ret = planrun_may_run(r, NULL, err, errlen)))
		goto unlock;
	planrun_write_meta(r, "running", started, started_by);
	return fd;

unlock:
	close(fd);
unpin:
	planrun_unpin(r);
	return ret;
}

void planrun_end(struct planrun *r, int lockfd, int rc, double started, const char *started_by)
{
	planrun_unpin(r);
	if (!rc) {
		planrun_write_devices(r, RESDIR_DEV_AFTER);
		planrun_write_meta(r, "done", started, started_by);
	} else {
		bool stopped = r->stop && atomic_load(r->stop);
		planrun_write_meta(r, stopped ? "interrupted" : "failed", started, started_by);
	}
	if (lockfd >= 0)
		close(lockfd);
}

/* planexec.c - a plan in a background thread for the console.
 *
 * What `nvscope plan` does around planrun_run() (src/cmd/plan.c) is done
 * for the console through the same life cycle (planrun_begin, planrun_run,
 * planrun_end in plandir.c): refuse an unconfirmed destructive plan,
 * create and lock the results directory with plan.ini, VERSION, meta.json,
 * device identity and the first state.json, run, then device-after.json
 * and the final meta.json.  The plan
 * thread gets the struct planrun and nothing else; the UI thread does not
 * touch it until the join (pthread_join orders the accesses).  The stop
 * request is an atomic_int that planrun_run polls; the end is an atomic_bool
 * set with release order after planrun_run returns. */
#include "run/planexec.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "run/planrun.h"
#include "config/plan.h"
#include "dev/devmodel.h"
#include "dev/safety.h"
#include "ring/spsc.h"
#include "run/resdir.h"

struct planexec {
	struct planrun r;
	atomic_int stop;
	atomic_bool done;
	pthread_t thread;
	bool started, joined;
	int rc;
	int lockfd, saved_stderr;
	double t_start;
	char dir[1024];
};

int planexec_new(const char *name, const char *const *targets, unsigned n, struct planexec **out,
		 char *err, size_t errlen)
{
	char path[1024];
	struct spec base;
	*out = NULL;
	if (!n || n > NVS_MAX_TARGETS) {
		snprintf(err, errlen, "a plan needs 1 to %d targets", NVS_MAX_TARGETS);
		return -EINVAL;
	}
	if (plan_find(name, path, sizeof(path))) {
		snprintf(err, errlen, "no plan '%s' (a file, or a name in presets/plans)", name);
		return -ENOENT;
	}
	struct planexec *pe = calloc(1, sizeof(*pe));
	if (!pe) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	pe->lockfd = pe->saved_stderr = -1;
	for (int i = 0; i < 3; i++)
		pe->r.st.sizes[i] = -1;
	spec_init(&base);
	for (unsigned i = 0; i < n; i++) {
		snprintf(pe->r.targets[i], sizeof(pe->r.targets[0]), "%s", targets[i]);
		int ret = opt_set(&base, "target", targets[i], err, errlen);
		if (!ret && (base.ntargets != i + 1 || strcmp(base.targets[i], targets[i]))) {
			snprintf(err, errlen, "target '%.200s': ':' and ',' separate targets",
				 targets[i]);
			ret = -EINVAL;
		}
		if (ret) {
			free(pe);
			return ret;
		}
	}
	pe->r.ntargets = n;
	int ret = plan_load(path, &base, &pe->r.plan, err, errlen);
	if (ret) {
		free(pe);
		return ret;
	}
	/* the rows for the screen: ~6 s of 64 targets at 10 rows per second
	 * (the UI drains it every frame); NULL: the view reads samples.csv */
	pe->r.feed = spsc_new(sizeof(struct planrun_pt), 4096);
	*out = pe;
	return 0;
}

int planexec_override(struct planexec *pe, const char *key, const char *val, char *err,
		      size_t errlen)
{
	struct planrun *r = &pe->r;
	if (pe->started || r->noverrides >= NVS_ARRAY_SIZE(r->overrides))
		return -EBUSY;
	int ret = plan_override(r->plan, key, val, err, errlen);
	if (ret)
		return ret;
	/* recorded in state.json so that `nvscope plan --resume` keeps them */
	snprintf(r->overrides[r->noverrides][0], sizeof(r->overrides[0][0]), "%s", key);
	snprintf(r->overrides[r->noverrides][1], sizeof(r->overrides[0][1]), "%s", val);
	r->noverrides++;
	return 0;
}

const char *planexec_name(const struct planexec *pe)
{
	return pe->r.plan->name;
}

/* As `nvscope plan` decides it (planrun_destroys). */
bool planexec_destroys(const struct planexec *pe)
{
	return planrun_destroys(pe->r.plan);
}

bool planexec_confirmed(const struct planexec *pe, const char *confirm, char *need, size_t nlen,
			char *target, size_t tlen)
{
	for (unsigned i = 0; i < pe->r.ntargets; i++) {
		const char *t = pe->r.targets[i];
		if (confirm && safety_confirmed(confirm, t, NULL, 0))
			continue;
		need[0] = '\0';
		safety_confirm_token(t, need, nlen);
		if (!need[0])
			snprintf(need, nlen, "%s", t);
		snprintf(target, tlen, "%s", t);
		return false;
	}
	return true;
}

static void *plan_thread(void *arg)
{
	struct planexec *pe = arg;
	pe->rc = planrun_run(&pe->r);
	atomic_store_explicit(&pe->done, true, memory_order_release);
	return NULL;
}

int planexec_start(struct planexec *pe, const char *dir, const char *confirm, bool force, char *err,
		   size_t errlen)
{
	int ret;
	if (pe->started) {
		snprintf(err, errlen, "the plan was started already");
		return -EBUSY;
	}
	if (dir && *dir)
		snprintf(pe->dir, sizeof(pe->dir), "%s", dir);
	else
		planrun_default_dir(pe->r.plan, pe->dir, sizeof(pe->dir));
	pe->r.confirm = confirm ? confirm : "";
	pe->r.force = force;
	pe->r.quiet = true; /* no progress lines: the terminal is the console's */
	pe->r.stop = &pe->stop;
	for (unsigned s = 0; s < pe->r.plan->nsteps; s++)
		pe->r.plan->steps[s].spec.force_destroy = force; /* the command line's */
	/* the check, directory, lock and meta.json of `nvscope plan` */
	pe->t_start = (double)time(NULL);
	pe->lockfd = planrun_begin(&pe->r, pe->dir, false, pe->t_start, "console", err, errlen);
	if (pe->lockfd < 0) {
		ret = pe->lockfd;
		pe->lockfd = -1;
		return ret;
	}
	/* the plan's messages go to DIR/plan.log, not over the screen */
	char msg[256];
	int dfd = safety_results_dir(pe->dir, false, msg, sizeof(msg));
	int log = dfd < 0 ? dfd
			  : safety_openat_output(dfd, RESDIR_PLAN_LOG, SAFETY_OUT_APPEND, msg,
						 sizeof(msg));
	if (dfd >= 0)
		close(dfd);
	if (log >= 0) {
		fflush(stderr);
		pe->saved_stderr = dup(STDERR_FILENO);
		if (pe->saved_stderr >= 0)
			dup2(log, STDERR_FILENO);
		close(log);
	}
	atomic_store(&pe->stop, 0);
	atomic_store(&pe->done, false);
	ret = -pthread_create(&pe->thread, NULL, plan_thread, pe);
	if (ret) {
		snprintf(err, errlen, "cannot start the plan thread: %s", strerror(-ret));
		goto restore_stderr;
	}
	pthread_setname_np(pe->thread, "plan");
	pe->started = true;
	return 0;
restore_stderr:
	if (pe->saved_stderr >= 0) {
		dup2(pe->saved_stderr, STDERR_FILENO);
		close(pe->saved_stderr);
		pe->saved_stderr = -1;
	}
	planrun_end(&pe->r, pe->lockfd, ret, pe->t_start, "console"); /* "failed" */
	pe->lockfd = -1;
	return ret;
}

bool planexec_running(const struct planexec *pe)
{
	return pe && pe->started && !atomic_load_explicit(&pe->done, memory_order_acquire);
}

void planexec_stop(struct planexec *pe)
{
	if (pe)
		atomic_store_explicit(&pe->stop, 1, memory_order_relaxed);
}

int planexec_finish(struct planexec *pe)
{
	if (!pe->started)
		return -EINVAL;
	if (pe->joined)
		return pe->rc;
	pthread_join(pe->thread, NULL);
	pe->joined = true;
	fflush(stderr);
	if (pe->saved_stderr >= 0) {
		dup2(pe->saved_stderr, STDERR_FILENO);
		close(pe->saved_stderr);
		pe->saved_stderr = -1;
	}
	planrun_end(&pe->r, pe->lockfd, pe->rc, pe->t_start, "console");
	pe->lockfd = -1;
	return pe->rc;
}

struct spsc *planexec_feed(const struct planexec *pe)
{
	return pe->r.feed;
}

bool planexec_ended(const struct planexec *pe, int *rc)
{
	if (!pe->joined)
		return false;
	*rc = pe->rc;
	return true;
}

const char *planexec_target(const struct planexec *pe, unsigned i)
{
	return i < pe->r.ntargets ? pe->r.targets[i] : NULL;
}

const char *planexec_dir(const struct planexec *pe)
{
	return pe->dir;
}

int planexec_resume_cmd(const struct planexec *pe, char *buf, size_t len)
{
	return planrun_resume_cmd(&pe->r, buf, len);
}

void planexec_free(struct planexec *pe)
{
	if (!pe)
		return;
	if (pe->started) {
		planexec_stop(pe);
		planexec_finish(pe);
	}
	plan_free(pe->r.plan);
	free(pe->r.st.values);
	spsc_free(pe->r.feed);
	free(pe);
}

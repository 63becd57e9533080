/* plan.c - `nvscope plan`: runs a test plan (presets/plans/NAME.ini or a
 * file) on the targets into a results directory, resumable with --resume.
 * The steps themselves run in planrun.c; this file does the command line,
 * the safety confirmation, the results directory's fixed files (plan.ini,
 * meta.json, device identity and health before/after) and signals. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
#include "cmd/cmd.h"
#include "cmd/runcheck.h"
#include "cmd/stopsig.h"
#include "run/planrun.h"
#include "config/plan.h"
#include "dev/devmodel.h"
#include "dev/safety.h"
#include "run/resdir.h"

static atomic_int stop_flag; /* the signal number */

static void on_signal(int sig)
{
	atomic_store_explicit(&stop_flag, sig, memory_order_relaxed);
}

static int list_plans(void)
{
	char dir[4200], path[4500];
	struct dirent **ents = NULL;
	if (plan_dir(dir, sizeof(dir))) {
		fprintf(stderr, "nvscope plan: no presets/plans directory found\n");
		return NVS_EXIT_USAGE;
	}
	int n = scandir(dir, &ents, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(ents[i]->d_name);
		if (l > 4 && !strcmp(ents[i]->d_name + l - 4, ".ini")) {
			struct plan *p = NULL;
			char err[512];
			snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
			if (!plan_load(path, NULL, &p, err, sizeof(err))) {
				printf("%-26s %2u steps  %s\n", p->name, p->nsteps, p->description);
				plan_free(p);
			} else {
				printf("%-26s (bad: %s)\n", ents[i]->d_name, err);
			}
		}
		free(ents[i]);
	}
	free(ents);
	return NVS_EXIT_OK;
}

static void print_steps(const struct plan *p)
{
	printf("plan %s: %s\n", p->name, p->description);
	for (unsigned i = 0; i < p->nsteps; i++) {
		const struct plan_step *s = &p->steps[i];
		char b[32];
		printf("  %2u. %-34s", i + 1, s->name);
		if (s->kind == STEP_PURGE)
			printf(" %s\n", s->purge_method == PURGE_TRIM	  ? "trim"
					: s->purge_method == PURGE_FORMAT ? "format"
									  : "sanitize");
		else if (s->spec.replay.iolog[0]) /* a trace step: its trace, not a workload */
			printf(" replay %s x%u%s%s runtime %.3gs\n", s->spec.replay.iolog,
			       s->spec.replay.copies ? s->spec.replay.copies : 1,
			       s->spec.replay.no_stall ? " no_stall" : " timed",
			       s->spec.replay.stagger_ns ? " staggered" : "",
			       (double)s->spec.runtime_ns / 1e9);
		else
			printf(" %s %s QD%u%s T%u runtime %.3gs%s\n", spec_rw_name(s->spec.rw),
			       spec_fmt_size(s->spec.bs[0].bs, b, sizeof(b)), s->spec.iodepth[0],
			       s->spec.niodepth > 1 ? "..." : "", s->spec.numjobs,
			       (double)(s->kind == STEP_PRECONDITION ? s->round_ns
								     : s->spec.runtime_ns) /
				   1e9,
			       s->kind == STEP_PRECONDITION ? " per round" : "");
	}
}

enum {
	O_TARGET = 't',
	O_RESULTS = 256,
	O_RESUME,
	O_CONFIRM,
	O_FORCE,
	O_STRIPE,
	O_DRY,
	O_QUIET,
	O_LIST,
	O_OVR
};

static const struct cmd_opt opts[] = {
    {{"target", required_argument, NULL, O_TARGET}, 't', "PATH", "a target (repeat for more)"},
    {{"results", required_argument, NULL, O_RESULTS},
     0,
     "DIR",
     "results directory (default results/PLAN-DATE-TIME)"},
    {{"resume", required_argument, NULL, O_RESUME},
     0,
     "DIR",
     "continue the plan of DIR where it stopped"},
    {{"yes-destroy-data", required_argument, NULL, O_CONFIRM},
     0,
     "LIST",
     "confirm that the plan may destroy the data on\n"
     "these targets (comma list, each --target)"},
    {{"force-destroy", no_argument, NULL, O_FORCE},
     0,
     NULL,
     "write even where a partition table/filesystem is"},
    {{"stripe", required_argument, NULL, O_STRIPE},
     0,
     "SIZE",
     "the targets form one RAID 0 set of this stripe"},
    {{"dry-run", no_argument, NULL, O_DRY}, 0, NULL, "parse and print the steps, run nothing"},
    {{"quiet", no_argument, NULL, O_QUIET}, 0, NULL, "no progress lines"},
    {{"list", no_argument, NULL, O_LIST}, 0, NULL, "the plans in presets/plans"},
    {{"runtime", required_argument, NULL, O_OVR + 0}, 0, "T", "every step's runtime"},
    {{"ramp-time", required_argument, NULL, O_OVR + 1}, 0, "T", "every step's ramp time"},
    {{"ramp_time", required_argument, NULL, O_OVR + 2}, 0, "T", "the same as --ramp-time"},
    {{"round", required_argument, NULL, O_OVR + 3},
     0,
     "T",
     "the round length of every preconditioning step"},
    {{"max-rounds", required_argument, NULL, O_OVR + 4},
     0,
     "N",
     "every preconditioning step's limit of rounds"},
    {{"fill", required_argument, NULL, O_OVR + 5}, 0, "PASSES", "the passes of every fill step"},
    {{"iodepth", required_argument, NULL, O_OVR + 6},
     0,
     "LIST",
     "every step's queue depth (list: a sweep)"},
    {{"window", required_argument, NULL, O_OVR + 7},
     0,
     "N",
     "every step's steady-state window in rounds"},
    {{"range", required_argument, NULL, O_OVR + 8},
     0,
     "PCT",
     "every step's steady-state range limit"},
    {{"slope", required_argument, NULL, O_OVR + 9},
     0,
     "PCT",
     "every step's steady-state slope limit"},
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

/* The name of the option with id @id (an override). */
static const char *opt_name(int id)
{
	for (const struct cmd_opt *o = opts; o->o.name; o++)
		if (o->o.val == id)
			return o->o.name;
	return "?";
}

enum { GO_ON = -1 }; /* a step of exec_plan returns it, or the exit status */

/* What the command line asks besides the plan run's own fields. */
struct plan_args {
	struct planrun *r;
	const char *results, *resume;
	bool dry;
	bool list; /* --list: the plans, nothing else */
};

/* The options into @pa and its planrun (--list stops there).  GO_ON or
 * NVS_EXIT_USAGE (said). */
static int parse_opts(struct plan_args *pa, const struct cmd_args *a)
{
	struct planrun *r = pa->r;
	char err[1024];

	for (unsigned i = 0; i < a->nopt && !pa->list; i++) {
		const char *v = a->opt[i].val;
		switch (a->opt[i].id) {
		case O_TARGET:
			if (r->ntargets >= NVS_MAX_TARGETS) {
				fprintf(stderr, "nvscope plan: too many targets\n");
				return NVS_EXIT_USAGE;
			}
			if (strlen(v) >= sizeof(r->targets[0])) {
				fprintf(stderr,
					"nvscope plan: --target: path longer than %zu bytes: "
					"%.60s...\n",
					sizeof(r->targets[0]) - 1, v);
				return NVS_EXIT_USAGE;
			}
			snprintf(r->targets[r->ntargets++], sizeof(r->targets[0]), "%s", v);
			break;
		case O_RESULTS:
			pa->results = v;
			break;
		case O_RESUME:
			pa->resume = v;
			break;
		case O_CONFIRM:
			r->confirm = v;
			break;
		case O_FORCE:
			r->force = true;
			break;
		case O_STRIPE: {
			struct spec tmp;
			spec_init(&tmp);
			if (opt_set(&tmp, "stripe", v, err, sizeof(err))) {
				fprintf(stderr, "nvscope plan: --stripe: %s\n", err);
				return NVS_EXIT_USAGE;
			}
			r->stripe = tmp.stripe;
			break;
		}
		case O_DRY:
			pa->dry = true;
			break;
		case O_QUIET:
			r->quiet = true;
			break;
		case O_LIST:
			pa->list = true;
			break;
		default: /* O_OVR + k: a duration override */
			if (r->noverrides >= 32) {
				fprintf(stderr, "nvscope plan: too many overrides\n");
				return NVS_EXIT_USAGE;
			}
			if (strlen(v) >= sizeof(r->overrides[0][1])) {
				fprintf(stderr, "nvscope plan: --%s: value too long\n",
					opt_name(a->opt[i].id));
				return NVS_EXIT_USAGE;
			}
			snprintf(r->overrides[r->noverrides][0], 128, "%s", opt_name(a->opt[i].id));
			snprintf(r->overrides[r->noverrides][1], 128, "%s", v);
			r->noverrides++;
			break;
		}
	}
	return GO_ON;
}

/* --resume DIR: the run's state read back from DIR, the plan file
 * DIR/plan.ini into @path.  GO_ON or NVS_EXIT_USAGE (said). */
static int resume_run(struct plan_args *pa, const struct cmd_args *a, char *path, size_t len)
{
	struct planrun *r = pa->r;
	char err[1024];

	if (a->npos || r->ntargets) {
		fprintf(stderr, "nvscope plan: --resume DIR takes no plan or targets (they are "
				"in DIR/state.json)\n");
		return NVS_EXIT_USAGE;
	}
	if (r->noverrides) { /* taken, never ignored: a run keeps its durations */
		fprintf(stderr,
			"nvscope plan: --resume keeps the durations the run started with "
			"(DIR/state.json): --%s cannot be given again\n",
			r->overrides[0][0]);
		return NVS_EXIT_USAGE;
	}
	bool q = r->quiet, force = r->force;
	const char *confirm = r->confirm;
	if (planrun_load(r, pa->resume, err, sizeof(err))) {
		fprintf(stderr, "nvscope plan: %s\n", err);
		return NVS_EXIT_USAGE;
	}
	r->quiet = q;
	/* the confirmation and the override are the user's, now: never
	 * taken from DIR (editable, and DIR/plan.ini may have changed) */
	r->force = force;
	r->confirm = confirm;
	if (snprintf(path, len, "%s/" RESDIR_PLAN_INI, pa->resume) >= (int)len) {
		fprintf(stderr, "nvscope plan: --resume: directory name too long\n");
		return NVS_EXIT_USAGE;
	}
	pa->results = pa->resume;
	return GO_ON;
}

/* Which plan file (into @path): DIR/plan.ini of a resumed run, or the one
 * named.  GO_ON or NVS_EXIT_USAGE (said). */
static int find_plan(const struct cmd_entry *self, struct plan_args *pa, const struct cmd_args *a,
		     char *path, size_t len)
{
	/* every file of a run is DIR/step/name in buffers of ~1 KiB: a longer
	 * directory name is refused here rather than cut short there */
	if ((pa->results && strlen(pa->results) > 768) ||
	    (pa->resume && strlen(pa->resume) > 768)) {
		fprintf(stderr, "nvscope plan: results directory name longer than 768 bytes\n");
		return NVS_EXIT_USAGE;
	}
	if (pa->resume)
		return resume_run(pa, a, path, len);
	if (a->npos != 1) {
		cmd_help(stderr, self);
		return NVS_EXIT_USAGE;
	}
	if (plan_find(a->pos[0], path, len)) {
		fprintf(stderr,
			"nvscope plan: no plan '%s' (a file, or a name in "
			"presets/plans; see nvscope plan --list)\n",
			a->pos[0]);
		return NVS_EXIT_USAGE;
	}
	if (!pa->r->ntargets && !pa->dry) {
		fprintf(stderr, "nvscope plan: give --target PATH\n");
		return NVS_EXIT_USAGE;
	}
	return GO_ON;
}

/* The plan of @path loaded onto the targets, the command line's
 * force-destroy and duration overrides applied.  GO_ON or NVS_EXIT_USAGE
 * (said). */
static int load_plan(struct plan_args *pa, const char *path)
{
	struct planrun *r = pa->r;
	struct spec base;
	char err[1024];

	spec_init(&base);
	for (unsigned i = 0; i < r->ntargets; i++)
		if (opt_set(&base, "target", r->targets[i], err, sizeof(err))) {
			fprintf(stderr, "nvscope plan: %s\n", err);
			return NVS_EXIT_USAGE;
		} else if (base.ntargets != i + 1 || strcmp(base.targets[i], r->targets[i])) {
			/* the path checked and confirmed is the path written, whole */
			fprintf(stderr,
				"nvscope plan: --target '%s': ':' and ',' separate targets; give "
				"each path its own --target\n",
				r->targets[i]);
			return NVS_EXIT_USAGE;
		}
	base.stripe = r->stripe;
	base.force_destroy = r->force;
	if (plan_load(path, &base, &r->plan, err, sizeof(err))) {
		fprintf(stderr, "nvscope plan: %s\n", err);
		return NVS_EXIT_USAGE;
	}
	/* the override is the command line's, never the plan file's */
	for (unsigned s = 0; s < r->plan->nsteps; s++)
		r->plan->steps[s].spec.force_destroy = r->force;
	if (pa->resume && r->plan_name[0])
		snprintf(r->plan->name, sizeof(r->plan->name), "%s", r->plan_name);
	for (unsigned i = 0; i < r->noverrides; i++)
		if (plan_override(r->plan, r->overrides[i][0], r->overrides[i][1], err,
				  sizeof(err))) {
			fprintf(stderr, "nvscope plan: --%s: %s\n", r->overrides[i][0], err);
			return NVS_EXIT_USAGE;
		}
	return GO_ON;
}

/* Where the run goes: a resumed run's directory (not busy, not finished)
 * or --results or the default one (in @dirbuf); *@started: now, the run's
 * start.  GO_ON or the exit status (said). */
static int choose_dir(struct plan_args *pa, char *dirbuf, size_t len, double *started)
{
	struct planrun *r = pa->r;

	if (pa->resume && planrun_busy(pa->results)) { /* at once: its targets are held */
		fprintf(stderr, "nvscope plan: %s: another nvscope plan is running there\n",
			pa->results);
		return NVS_EXIT_USAGE;
	}
	*started = (double)time(NULL);
	if (!pa->resume) {
		if (!pa->results) {
			planrun_default_dir(r->plan, dirbuf, len);
			pa->results = dirbuf;
		}
		return GO_ON;
	}
	if (r->st.step >= r->plan->nsteps) {
		printf("%s: the plan already finished\n", pa->results);
		return NVS_EXIT_OK;
	}
	printf("resuming %s at step %u/%u (%u done in it)\n", pa->results, r->st.step + 1,
	       r->plan->nsteps, r->st.sub);
	return GO_ON;
}

/* The targets pinned (*@pinned), then every workload step checked as it
 * will run on what was pinned, before the first step writes (docs/safety.md,
 * "every refusal before the first write", "pinned by identity").  GO_ON or
 * the exit status (said). */
static int pin_and_check(struct planrun *r, bool *pinned)
{
	char err[1024];
	int rc;

	if ((rc = planrun_pin(r, err, sizeof(err)))) {
		fprintf(stderr, "nvscope plan: %s\n", err);
		return cmd_exit_of(rc);
	}
	*pinned = true;
	for (unsigned s = 0; s < r->plan->nsteps; s++) {
		if (r->plan->steps[s].kind == STEP_PURGE ||
		    !runcheck_job(&r->plan->steps[s].spec, err, sizeof(err)))
			continue;
		fprintf(stderr, "nvscope plan: step %u (%s): %s\n", s + 1, r->plan->steps[s].name,
			err);
		return NVS_EXIT_USAGE;
	}
	return GO_ON;
}

/* The run itself, in the results directory: the same check for a fresh
 * start and a resume (docs/safety.md), the directory, its lock and
 * meta.json (the life cycle the console shares), the steps until the end
 * or a signal.  The exit status. */
static int run_plan(struct plan_args *pa, double started)
{
	struct planrun *r = pa->r;
	char err[1024];
	int lockfd = planrun_begin(r, pa->results, pa->resume, started, NULL, err, sizeof(err));

	if (lockfd < 0) {
		fprintf(stderr, "nvscope plan: %s\n", err);
		/* refused (exists, another user's, a symlink, locked ...): nothing touched */
		return cmd_exit_of(lockfd);
	}
	stopsig_catch(on_signal, false); /* SIGINT, SIGTERM, SIGHUP, SIGQUIT */
	r->stop = &stop_flag;
	int res = planrun_run(r);
	stopsig_default();
	planrun_end(r, lockfd, res, started, NULL);
	int rc = res ? cmd_exit_of(res) : NVS_EXIT_OK;
	if (rc == NVS_EXIT_OK)
		printf("plan %s done: results in %s (nvscope report %s)\n", r->plan->name, r->dir,
		       r->dir);
	else if (atomic_load(&stop_flag)) /* 129 HUP, 130 INT, 131 QUIT, 143 TERM */
		rc = 128 + atomic_load(&stop_flag);
	return rc;
}

static int exec_plan(const struct cmd_entry *self, struct cmd_args *a)
{
	static struct planrun r; /* large: targets and overrides */
	struct plan_args pa = {.r = &r};
	char path[1024], dirbuf[1024];
	bool pinned = false; /* planrun_pin held */
	int rc;

	memset(&r, 0, sizeof(r));
	for (int i = 0; i < 3; i++)
		r.st.sizes[i] = -1;
	if ((rc = parse_opts(&pa, a)) != GO_ON)
		return rc;
	if (pa.list)
		return list_plans();
	if ((rc = find_plan(self, &pa, a, path, sizeof(path))) != GO_ON)
		return rc;
	if ((rc = load_plan(&pa, path)) != GO_ON)
		goto out;
	if (pa.dry) {
		print_steps(r.plan);
		rc = NVS_EXIT_OK;
		goto out;
	}
	if (!r.confirm)
		r.confirm = "";
	double started = 0;
	if ((rc = choose_dir(&pa, dirbuf, sizeof(dirbuf), &started)) != GO_ON ||
	    (rc = pin_and_check(&r, &pinned)) != GO_ON)
		goto out;
	rc = run_plan(&pa, started);
out:
	if (pinned) /* planrun_begin's own pins are released by planrun_end */
		planrun_unpin(&r);
	plan_free(r.plan);
	free(r.st.values);
	return rc;
}

const struct cmd_entry cmd_plan_entry = {
    .name = "plan",
    .summary = "run a test plan (purge, fill, precondition, sweep)",
    .usage = "plan PLAN --target PATH [--target PATH ...] [options]\n"
	     "plan --resume DIR [--yes-destroy-data=LIST] [--force-destroy]\n"
	     "plan --list",
    .text = "PLAN is presets/plans/NAME.ini (by NAME) or a plan file; see docs/plans.md.\n"
	    "--runtime ... --slope override the durations of every step they concern.",
    .opts = opts,
    .notes = "exit status: 0 done, 1 a step failed, 2 bad input or refused (nothing\n"
	     "touched), 128 + the signal when stopped by one (129 SIGHUP, 130 SIGINT,\n"
	     "131 SIGQUIT, 143 SIGTERM).",
    .exec = exec_plan,
};

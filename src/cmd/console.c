/* console.c - `nvscope` (the full-screen console) and `nvscope replay DIR`:
 * command-line parsing; the console itself lives in src/ui/. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "nvscope.h"
#include "base/num.h"
#include "cmd/cmd.h"
#include "config/cli.h"
#include "dev/safety.h"
#include "ui/console.h"

/* The console builds DIR/name paths in buffers of ~512 bytes: a longer
 * directory name is refused here rather than cut short there. */
#define NVS_CONSOLE_DIR_MAX 400

static void usage(FILE *f, const char *prog)
{
	if (!strcmp(prog, "replay")) {
		fprintf(f,
			"usage: nvscope replay DIR [--theme NAME] [--ascii] [--showfloor] [--speed X]\n"
			"                      [--no-mouse] [--no-settings]\n"
			"                      [--round SECONDS] [--window N] [--range PCT] [--slope PCT]\n"
			"  plays a results directory written by the console (DIR/samples.csv), or\n"
			"  follows a plan's results directory (DIR/state.json: running or done)\n"
			"  keys: Space play/pause, [ ] speed, Home restart, End jump to the end\n");
		return;
	}
	fprintf(
	    f,
	    "usage: nvscope [--target PATH ...] [--preset NAME | --job FILE | workload options]\n"
	    "               [--theme NAME] [--ascii] [--demo] [--showfloor] [--results DIR]\n"
	    "               [--no-mouse] [--no-settings]\n"
	    "               [--round SECONDS] [--window N] [--range PCT] [--slope PCT]\n"
	    "       nvscope --plan NAME --target PATH [--yes-destroy-data=PATH] [--results DIR]\n"
	    "               [--runtime T] [--ramp-time T] [--iodepth LIST] [--round T]\n"
	    "               [--max-rounds N] [--fill PASSES] [--window N] [--range P] [--slope P]\n"
	    "  the full-screen console.  With --target and a preset (or workload options)\n"
	    "  the run starts at once.  --theme default|light|mono|showfloor (t cycles them),\n"
	    "  --ascii: no Unicode (serial lines), --demo: cycle the non-destructive presets.\n"
	    "  --showfloor: a trade-show booth: large figures, fat strips, destructive keys\n"
	    "  locked (quit and leaving it ask; b toggles it).\n"
	    "  --no-mouse: leave the mouse to the terminal (select and copy text).\n"
	    "  --no-settings: do not read or write ~/.config/nvscope/settings.ini.\n"
	    "  Each run writes DIR/samples.csv, summary.json, events.log (default\n"
	    "  results/<date>-<preset>/); nvscope replay DIR plays it back.\n"
	    "  Workload options are those of nvscope run (--rw= --bs= --iodepth= ...).\n"
	    "  Steady state (SNIA rule) of the IOPS in rounds of --round seconds (60; r\n"
	    "  cycles 10/30/60/300): window of --window rounds (5), --range PCT (20),\n"
	    "  --slope PCT (10).\n"
	    "  --plan runs a test plan (presets/plans/, nvscope plan --list) in the console;\n"
	    "  without --yes-destroy-data a destructive plan asks for the typed confirmation.\n"
	    "  Keys: ? or F1 in the console.\n");
}

/* Takes "--name VALUE" or "--name=VALUE"; returns the value or NULL. */
static const char *opt_val(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	const char *a = argv[*i];
	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] == '\0' && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/* A number, whole (@whole) or not, in [@lo, @hi]; seconds may end in s, m
 * or h (@secs). */
static int num_val(const char *opt, const char *v, double lo, double hi, bool whole, bool secs,
		   double *out)
{
	char buf[64];
	size_t n = strlen(v);
	double x = NAN, mul = 1;
	char last = n ? v[n - 1] : '\0';
	if (secs && n > 1 && (last == 's' || last == 'm' || last == 'h')) {
		mul = last == 's' ? 1 : last == 'm' ? 60 : 3600;
		n--;
	}
	if (n < sizeof(buf)) {
		memcpy(buf, v, n);
		buf[n] = '\0';
		if (num_parse_double(buf, -1e15, 1e15, &x))
			x = NAN;
		x *= mul;
	}
	if (!(x >= lo && x <= hi) || (whole && x != floor(x))) {
		fprintf(stderr, "nvscope: %s: '%s' is not a%s number in [%g, %g]%s\n", opt, v,
			whole ? " whole" : "", lo, hi, secs ? " (seconds, or with s/m/h)" : "");
		return -EINVAL;
	}
	*out = x;
	return 0;
}

/* 1: taken, 0: not ours, -1: bad value (message printed). */
static int parse_common(int argc, char **argv, int *i, struct console_opts *o)
{
	const char *a = argv[*i], *v;
	double x;
	if (!o->ss_given && !o->ss.window)
		steady_params_init(&o->ss);
	if (!strcmp(a, "--ascii")) {
		o->ascii = true;
	} else if (!strcmp(a, "--showfloor")) {
		o->showfloor = true;
	} else if (!strcmp(a, "--no-mouse")) {
		o->no_mouse = true;
	} else if (!strcmp(a, "--no-settings")) {
		o->no_settings = true;
	} else if ((v = opt_val(argc, argv, i, "--theme"))) {
		o->theme = v;
	} else if ((v = opt_val(argc, argv, i, "--round"))) {
		if (num_val("--round", v, 1, 86400, false, true, &x))
			return -1;
		o->round_s = x;
	} else if ((v = opt_val(argc, argv, i, "--window"))) {
		if (num_val("--window", v, 2, 1000, true, false, &x))
			return -1;
		o->ss.window = (unsigned)x;
		o->ss_given = true;
	} else if ((v = opt_val(argc, argv, i, "--range"))) {
		if (num_val("--range", v, 0, 1000, false, false, &x))
			return -1;
		o->ss.range_pct = x;
		o->ss_given = true;
	} else if ((v = opt_val(argc, argv, i, "--slope"))) {
		if (num_val("--slope", v, 0, 1000, false, false, &x))
			return -1;
		o->ss.slope_pct = x;
		o->ss_given = true;
	} else {
		return 0;
	}
	return 1;
}

/* The base spec: defaults plus the command line's workload options. */
static int build_base(const struct cli *c, struct spec *s, char *err, size_t len)
{
	spec_init(s);
	for (unsigned k = 0; k < c->nkv; k++) {
		char key[64];
		snprintf(key, sizeof(key), "%.*s", (int)c->kv[k].klen, c->kv[k].key);
		int ret = spec_set(s, key, c->kv[k].val, err, len);
		if (ret)
			return ret;
	}
	return 0;
}

/* --plan: the command line's durations become the plan's overrides (as
 * `nvscope plan` takes them); other workload options make no sense there.
 * 0, or -EINVAL with the message printed. */
/* --force-destroy is the write-safety override, not a workload option. */
static bool is_force(const struct cli *c, unsigned k)
{
	return c->kv[k].klen == 13 && (!strncmp(c->kv[k].key, "force_destroy", 13) ||
				       !strncmp(c->kv[k].key, "force-destroy", 13));
}

/* Workload options given (--rw, --bs, ...): a workload starts at once. */
static bool workload_kv(const struct cli *c)
{
	for (unsigned k = 0; k < c->nkv; k++)
		if (!is_force(c, k))
			return true;
	return false;
}

static int plan_opts(const struct cli *c, struct console_opts *o)
{
	static char nums[4][32];
	static const char *const keys[] = {"runtime", "ramp_time", "ramp-time", "iodepth"};
	if (!c->ntargets) {
		fprintf(stderr, "nvscope: --plan needs --target PATH\n");
		return -EINVAL;
	}
	if (c->preset || c->job) {
		fprintf(stderr, "nvscope: --plan and --preset/--job exclude each other\n");
		return -EINVAL;
	}
	for (unsigned k = 0; k < c->nkv; k++) {
		size_t i = 0;
		if (c->kv[k].klen == 13 && (!strncmp(c->kv[k].key, "force_destroy", 13) ||
					    !strncmp(c->kv[k].key, "force-destroy", 13)))
			continue; /* the override (in o->base), not a plan option */
		while (i < NVS_ARRAY_SIZE(keys) && (strlen(keys[i]) != c->kv[k].klen ||
						    strncmp(keys[i], c->kv[k].key, c->kv[k].klen)))
			i++;
		if (i == NVS_ARRAY_SIZE(keys)) {
			fprintf(stderr,
				"nvscope: --%.*s: with --plan only --runtime, --ramp-time, "
				"--iodepth, --round, --max-rounds, --fill, --window, --range, "
				"--slope apply\n",
				(int)c->kv[k].klen, c->kv[k].key);
			return -EINVAL;
		}
		if (o->nplan_ovr < NVS_ARRAY_SIZE(o->plan_ovr)) {
			o->plan_ovr[o->nplan_ovr][0] = i == 2 ? "ramp_time" : keys[i];
			o->plan_ovr[o->nplan_ovr++][1] = c->kv[k].val;
		}
	}
	if (o->nplan_ovr + 4 > NVS_ARRAY_SIZE(o->plan_ovr)) {
		fprintf(stderr, "nvscope: too many options for --plan\n");
		return -EINVAL;
	}
	/* the steady-state options are the plan's too */
	if (o->round_s > 0) {
		snprintf(nums[0], sizeof(nums[0]), "%gs", o->round_s);
		o->plan_ovr[o->nplan_ovr][0] = "round";
		o->plan_ovr[o->nplan_ovr++][1] = nums[0];
	}
	if (o->ss_given) {
		snprintf(nums[1], sizeof(nums[1]), "%u", o->ss.window);
		snprintf(nums[2], sizeof(nums[2]), "%g", o->ss.range_pct);
		snprintf(nums[3], sizeof(nums[3]), "%g", o->ss.slope_pct);
		static const char *const sk[] = {"window", "range", "slope"};
		for (int i = 0; i < 3; i++) {
			o->plan_ovr[o->nplan_ovr][0] = sk[i];
			o->plan_ovr[o->nplan_ovr++][1] = nums[1 + i];
		}
	}
	return 0;
}

int cmd_console(int argc, char **argv)
{
	static struct console_opts o; /* big (specs): not on the stack */
	static struct cli c;
	static char targets[NVS_MAX_TARGETS][256];
	char err[512] = "";
	memset(&o, 0, sizeof(o));
	memset(&c, 0, sizeof(c));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		int rc = cli_take(&c, argc, argv, &i, err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "nvscope: %s\n", err);
			return NVS_EXIT_USAGE;
		}
		if (rc > 0) {
			i--; /* cli_take moved past the option */
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout, "nvscope");
			return NVS_EXIT_OK;
		} else if ((rc = parse_common(argc, argv, &i, &o))) {
			if (rc < 0)
				return NVS_EXIT_USAGE;
			continue;
		} else if (!strcmp(a, "--demo")) {
			o.demo = true;
		} else if ((v = opt_val(argc, argv, &i, "--results"))) {
			if (strlen(v) > NVS_CONSOLE_DIR_MAX) {
				fprintf(stderr, "nvscope: --results: longer than %d bytes\n",
					NVS_CONSOLE_DIR_MAX);
				return NVS_EXIT_USAGE;
			}
			o.results = v;
		} else if ((v = opt_val(argc, argv, &i, "--plan"))) {
			o.plan = v;
		} else if ((v = opt_val(argc, argv, &i, "--yes-destroy-data"))) {
			o.confirm = v;
		} else if ((v = opt_val(argc, argv, &i, "--max-rounds")) ||
			   (v = opt_val(argc, argv, &i, "--fill"))) {
			if (o.nplan_ovr < NVS_ARRAY_SIZE(o.plan_ovr)) {
				o.plan_ovr[o.nplan_ovr][0] = strstr(a, "--fill") == a ? "fill"
											: "max_rounds";
				o.plan_ovr[o.nplan_ovr++][1] = v;
			}
		} else {
			fprintf(stderr, "nvscope: unknown option '%s' (see nvscope --help)\n", a);
			return NVS_EXIT_USAGE;
		}
	}
	/* targets: comma lists split into our own strings */
	for (unsigned t = 0; t < c.ntargets && o.ntargets < NVS_MAX_TARGETS; t++) {
		size_t n = strcspn(c.targets[t], ",");
		snprintf(targets[o.ntargets], sizeof(targets[0]), "%.*s", (int)n, c.targets[t]);
		o.targets[o.ntargets] = targets[o.ntargets];
		o.ntargets++;
	}
	if (build_base(&c, &o.base, err, sizeof(err))) {
		fprintf(stderr, "nvscope: %s\n", err);
		return NVS_EXIT_USAGE;
	}
	struct spec *jobs = NULL;
	unsigned njobs = 0;
	char name[64] = "custom";
	if (o.plan && plan_opts(&c, &o))
		return NVS_EXIT_USAGE;
	if (o.plan) {
		/* the plan runs in the console; no other workload */
	} else if (c.ntargets && (c.preset || c.job || workload_kv(&c))) {
		int ret = cli_jobs(&c, &jobs, &njobs, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "nvscope: %s\n", err);
			return NVS_EXIT_USAGE;
		}
		const char *src = c.preset ? c.preset : c.job;
		if (src) {
			const char *b = strrchr(src, '/');
			snprintf(name, sizeof(name), "%.*s", (int)strcspn(b ? b + 1 : src, "."),
				 b ? b + 1 : src);
		}
		o.jobs = jobs;
		o.njobs = njobs;
		o.run_name = name;
	} else if (c.preset || c.job) {
		fprintf(stderr, "nvscope: --preset/--job needs --target PATH to start at once\n");
		return NVS_EXIT_USAGE;
	}
	/* an existing --results directory must pass the output rule before the
	 * screen opens (docs/safety.md); a new one is created when a run starts */
	struct stat rs;
	if (o.results && !lstat(o.results, &rs)) {
		char msg[512];
		int dfd = safety_results_dir(o.results, false, msg, sizeof(msg));
		if (dfd < 0) {
			fprintf(stderr, "nvscope: --results: %s\n", msg);
			free(jobs);
			return NVS_EXIT_USAGE;
		}
		close(dfd);
	}
	int status = console_run(&o);
	free(jobs);
	return status;
}

int cmd_replay(int argc, char **argv)
{
	static struct console_opts o;
	memset(&o, 0, sizeof(o));
	spec_init(&o.base);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		int rc;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout, "replay");
			return NVS_EXIT_OK;
		} else if ((rc = parse_common(argc, argv, &i, &o))) {
			if (rc < 0)
				return NVS_EXIT_USAGE;
			continue;
		} else if ((v = opt_val(argc, argv, &i, "--speed"))) {
			if (num_parse_double(v, 0, 4096, &o.speed) || !(o.speed > 0)) {
				fprintf(
				    stderr,
				    "nvscope replay: --speed: '%s' is not a number in (0, 4096]\n",
				    v);
				return NVS_EXIT_USAGE;
			}
		} else if (a[0] != '-' && !o.replay_dir) {
			o.replay_dir = a;
		} else {
			fprintf(stderr, "nvscope replay: unexpected argument '%s' (see --help)\n",
				a);
			return NVS_EXIT_USAGE;
		}
	}
	if (!o.replay_dir) {
		usage(stderr, "replay");
		return NVS_EXIT_USAGE;
	}
	if (strlen(o.replay_dir) > NVS_CONSOLE_DIR_MAX) {
		fprintf(stderr, "nvscope replay: directory name longer than %d bytes\n",
			NVS_CONSOLE_DIR_MAX);
		return NVS_EXIT_USAGE;
	}
	return console_run(&o);
}

/* console.c - `nvscope` (the full-screen console) and `nvscope replay DIR`:
 * command-line parsing; the console itself lives in src/ui/. */
#include <errno.h>
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
#include "cmd/hostcmd.h"
#include "run/source.h"
#include "ui/console.h"

/* The console builds DIR/name paths in buffers of ~512 bytes: a longer
 * directory name is refused here rather than cut short there. */
#define NVS_CONSOLE_DIR_MAX 400

enum {
	O_ASCII = 256,
	O_THEME,
	O_ROUND,
	O_WINDOW,
	O_RANGE,
	O_SLOPE,
	O_DEMO,
	O_RESULTS,
	O_PLAN,
	O_CHECK,
	O_ALL_NVME,
	O_CONFIRM,
	O_MAX_ROUNDS,
	O_FILL,
	O_SPEED,
	O_NO_MOUSE,
	O_NO_SETTINGS,
	O_SHOWFLOOR
};

/* The options of both the console and replay. */
#define COMMON_OPTS                                                                                \
	{{"theme", required_argument, NULL, O_THEME},                                              \
	 0,                                                                                        \
	 "NAME",                                                                                   \
	 "default|light|mono|showfloor or themes/NAME.theme\n(t cycles them)"},                    \
	    {{"ascii", no_argument, NULL, O_ASCII}, 0, NULL, "no Unicode (serial lines)"},         \
	    {{"showfloor", no_argument, NULL, O_SHOWFLOOR},                                        \
	     0,                                                                                    \
	     NULL,                                                                                 \
	     "a trade-show booth: large figures, fat strips,\n"                                    \
	     "destructive keys locked (quit and leaving it ask;\n"                                 \
	     "b toggles it)"},                                                                     \
	    {{"no-mouse", no_argument, NULL, O_NO_MOUSE},                                          \
	     0,                                                                                    \
	     NULL,                                                                                 \
	     "leave the mouse to the terminal (select and copy text)"},                            \
	    {{"no-settings", no_argument, NULL, O_NO_SETTINGS},                                    \
	     0,                                                                                    \
	     NULL,                                                                                 \
	     "do not read or write ~/.config/nvscope/settings.ini"},                               \
	    {{"round", required_argument, NULL, O_ROUND},                                          \
	     0,                                                                                    \
	     "SECONDS",                                                                            \
	     "steady-state round (60; r cycles 10/30/60/300)"},                                    \
	    {{"window", required_argument, NULL, O_WINDOW},                                        \
	     0,                                                                                    \
	     "N",                                                                                  \
	     "steady-state window in rounds (5)"},                                                 \
	    {{"range", required_argument, NULL, O_RANGE},                                          \
	     0,                                                                                    \
	     "PCT",                                                                                \
	     "steady-state range limit (20)"},                                                     \
	{                                                                                          \
		{"slope", required_argument, NULL, O_SLOPE}, 0, "PCT",                             \
		    "steady-state slope limit (10)"                                                \
	}

/* --round's value: a duration of 1 s to 1 d ("60", "90s", "1.5m", "1h"),
 * read as every duration is (num_parse_time_ns), in seconds. */
static int round_val(const char *v, double *out)
{
	uint64_t ns;
	if (num_parse_time_ns(v, 1000000000ULL, &ns) || ns < 1000000000ULL ||
	    ns > 86400ULL * 1000000000ULL) {
		fprintf(stderr, "nvscope: --round: '%s' is not a duration from 1 s to 1 d\n", v);
		return -EINVAL;
	}
	*out = (double)ns / 1e9;
	return 0;
}

/* --range, --slope: a tolerance, 0 to 1000 % (stats/steady.h). */
static int pct_val(const char *opt, const char *v, double *out)
{
	if (steady_parse_tolerance(v, out)) {
		fprintf(stderr, "nvscope: %s: '%s' is not a percentage from 0 to 1000\n", opt, v);
		return -EINVAL;
	}
	return 0;
}

/* Option @id with value @v if it is one of both: 1 taken, 0 not ours, -1
 * bad value (message printed). */
static int parse_common(int id, const char *v, struct console_opts *o)
{
	if (!o->ss_given && !o->ss.window)
		steady_params_init(&o->ss);
	switch (id) {
	case O_ASCII:
		o->ascii = true;
		break;
	case O_SHOWFLOOR:
		o->showfloor = true;
		break;
	case O_NO_MOUSE:
		o->no_mouse = true;
		break;
	case O_NO_SETTINGS:
		o->no_settings = true;
		break;
	case O_THEME:
		o->theme = v;
		break;
	case O_ROUND:
		if (round_val(v, &o->round_s))
			return -1;
		break;
	case O_WINDOW:
		if (num_parse_uint(v, 2, 1000, &o->ss.window)) {
			fprintf(stderr,
				"nvscope: --window: '%s' is not a whole number from 2 to 1000\n",
				v);
			return -1;
		}
		o->ss_given = true;
		break;
	case O_RANGE:
		if (pct_val("--range", v, &o->ss.range_pct))
			return -1;
		o->ss_given = true;
		break;
	case O_SLOPE:
		if (pct_val("--slope", v, &o->ss.slope_pct))
			return -1;
		o->ss_given = true;
		break;
	default:
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
		int ret = opt_set(s, key, c->kv[k].val, err, len);
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

static const struct cmd_opt console_opts[] = {
    CMD_WORKLOAD_OPTS,
    COMMON_OPTS,
    {{"demo", no_argument, NULL, O_DEMO}, 0, NULL, "cycle the non-destructive presets"},
    {{"results", required_argument, NULL, O_RESULTS},
     0,
     "DIR",
     "where each run's, plan's or check's results go (default\nresults/<date>-<preset>/; later "
     "ones DIR-2, ...)"},
    {{"plan", required_argument, NULL, O_PLAN},
     0,
     "NAME",
     "run a test plan (presets/plans/, nvscope plan --list)"},
    {{"check", required_argument, NULL, O_CHECK},
     0,
     "PROFILE",
     "check the targets at once (a read-only\nprofile: quick, rma; docs/check.md)"},
    {{"all-nvme", no_argument, NULL, O_ALL_NVME},
     0,
     NULL,
     "every NVMe namespace is a target (with --check)"},
    {{"yes-destroy-data", required_argument, NULL, O_CONFIRM},
     0,
     "LIST",
     "a destructive plan's confirmation (else asked)"},
    {{"max-rounds", required_argument, NULL, O_MAX_ROUNDS},
     0,
     "N",
     "--plan: preconditioning rounds at the most"},
    {{"fill", required_argument, NULL, O_FILL}, 0, "PASSES", "--plan: passes of a fill step"},
    HOSTCMD_OPTS,
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

/* --host, --hosts: the other hosts the console shows (docs/hosts.md, "The
 * console"), into @o; a HOST:PATH target is refused (workloads over hosts
 * are `nvscope run`'s).  0, or an exit status. */
static int take_hosts(const struct cmd_entry *self, struct cmd_args *a, struct console_opts *o)
{
	struct hostcmd h;
	char err[512];
	int rc = 0;

	if (hostcmd_take(&h, self, a))
		return NVS_EXIT_USAGE;
	for (unsigned t = 0; t < o->ntargets && !rc; t++) {
		char *host = NULL, *path = NULL;
		if (hostcmd_split(o->targets[t], &host, &path) || (host && host[0])) {
			cmd_say(self,
				"%s: another host's drive is not a target of the console yet "
				"(nvscope run --target HOST:PATH; --host HOST shows its drives)",
				o->targets[t]);
			rc = NVS_EXIT_USAGE;
		}
		free(host);
		free(path);
	}
	size_t n = hostcmd_count(&h);
	if (!rc && n) {
		const char **d = calloc(n, sizeof(*d));
		for (size_t i = 0; d && i < n; i++)
			d[i] = hostcmd_host(&h, i);
		o->hosts = d ? source_hosts_new(d, n, &h.ro, err, sizeof(err)) : NULL;
		free(d);
		if (!o->hosts) {
			cmd_say(self, "%s", d ? err : "out of memory");
			rc = NVS_EXIT_IOERR;
		}
	}
	hostcmd_clear(&h);
	return rc;
}

/* The console's own options into @o (after the common ones).  0, or
 * NVS_EXIT_USAGE (said). */
static int console_options(const struct cmd_args *a, struct console_opts *o)
{
	for (unsigned i = 0; i < a->nopt; i++) {
		const char *v = a->opt[i].val;
		int id = a->opt[i].id, rc;
		if ((rc = parse_common(id, v, o))) {
			if (rc < 0)
				return NVS_EXIT_USAGE;
		} else if (id == O_DEMO) {
			o->demo = true;
		} else if (id == O_RESULTS) {
			if (strlen(v) > NVS_CONSOLE_DIR_MAX) {
				fprintf(stderr, "nvscope: --results: longer than %d bytes\n",
					NVS_CONSOLE_DIR_MAX);
				return NVS_EXIT_USAGE;
			}
			o->results = v;
		} else if (id == O_PLAN) {
			o->plan = v;
		} else if (id == O_CHECK) {
			o->check = v;
		} else if (id == O_ALL_NVME) {
			o->all_nvme = true;
		} else if (id == O_CONFIRM) {
			o->confirm = v;
		} else if ((id == O_MAX_ROUNDS || id == O_FILL) &&
			   o->nplan_ovr < NVS_ARRAY_SIZE(o->plan_ovr)) {
			o->plan_ovr[o->nplan_ovr][0] = id == O_FILL ? "fill" : "max_rounds";
			o->plan_ovr[o->nplan_ovr++][1] = v;
		}
	}
	return 0;
}

/* What goes with what: --all-nvme with --check, --check alone with its
 * targets.  0, or NVS_EXIT_USAGE (said). */
static int console_combos(const struct cli *c, const struct console_opts *o)
{
	if (o->all_nvme && !o->check) {
		fprintf(stderr, "nvscope: --all-nvme goes with --check PROFILE\n");
		return NVS_EXIT_USAGE;
	}
	if (o->check && (o->plan || c->preset || c->job || workload_kv(c))) {
		fprintf(stderr, "nvscope: --check runs a check profile: no --plan, --preset, --job "
				"or workload options with it\n");
		return NVS_EXIT_USAGE;
	}
	if (o->check && !o->ntargets && !o->all_nvme) {
		fprintf(stderr, "nvscope: --check needs --target PATH or --all-nvme\n");
		return NVS_EXIT_USAGE;
	}
	return 0;
}

/* The workload the command line starts at once (a preset, a job file or
 * workload options with --target), named after its file: *@jobs (the
 * caller frees).  0, or NVS_EXIT_USAGE (said). */
static int console_jobs(struct cli *c, struct console_opts *o, struct spec **jobs, char *name,
			size_t namelen)
{
	char err[512] = "";
	unsigned njobs = 0;

	if (o->plan && plan_opts(c, o))
		return NVS_EXIT_USAGE;
	if (o->plan)
		return 0; /* the plan runs in the console; no other workload */
	if (c->ntargets && (c->preset || c->job || workload_kv(c))) {
		if (cli_jobs(c, jobs, &njobs, err, sizeof(err))) {
			fprintf(stderr, "nvscope: %s\n", err);
			return NVS_EXIT_USAGE;
		}
		const char *src = c->preset ? c->preset : c->job;
		if (src) {
			const char *b = strrchr(src, '/');
			snprintf(name, namelen, "%.*s", (int)strcspn(b ? b + 1 : src, "."),
				 b ? b + 1 : src);
		}
		o->jobs = *jobs;
		o->njobs = njobs;
		o->run_name = name;
	} else if (c->preset || c->job) {
		fprintf(stderr, "nvscope: --preset/--job needs --target PATH to start at once\n");
		return NVS_EXIT_USAGE;
	}
	return 0;
}

/* An existing --results directory passes the output rule before the screen
 * opens (docs/safety.md); a new one is created when a run starts. */
static int results_ok(const char *dir)
{
	struct stat rs;
	char msg[512];

	if (!dir || lstat(dir, &rs))
		return 0;
	int dfd = safety_results_dir(dir, false, msg, sizeof(msg));
	if (dfd < 0) {
		fprintf(stderr, "nvscope: --results: %s\n", msg);
		return NVS_EXIT_USAGE;
	}
	close(dfd);
	return 0;
}

static int exec_console(const struct cmd_entry *self, struct cmd_args *a)
{
	static struct console_opts o; /* big (specs): not on the stack */
	static struct cli c;
	static char targets[NVS_MAX_TARGETS][256];
	char err[512] = "", name[64] = "custom";
	struct spec *jobs = NULL;
	int status;

	memset(&o, 0, sizeof(o));
	c = *a->cli;
	if (a->npos) {
		cmd_say(self, "unknown option '%s' (see nvscope --help)", a->pos[0]);
		return NVS_EXIT_USAGE;
	}
	if ((status = console_options(a, &o)))
		return status;
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
	if ((status = console_combos(&c, &o)) ||
	    (status = console_jobs(&c, &o, &jobs, name, sizeof(name))) ||
	    (status = results_ok(o.results)) || (status = take_hosts(self, a, &o))) {
		free(jobs);
		return status;
	}
	status = console_run(&o); /* it takes o.hosts */
	free(jobs);
	return status;
}

static const struct cmd_opt replay_opts[] = {
    COMMON_OPTS,
    {{"speed", required_argument, NULL, O_SPEED},
     0,
     "X",
     "playback speed (0, 4096]; [ ] change it"},
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

static int exec_replay(const struct cmd_entry *self, struct cmd_args *a)
{
	static struct console_opts o;
	memset(&o, 0, sizeof(o));
	spec_init(&o.base);
	for (unsigned i = 0; i < a->nopt; i++) {
		const char *v = a->opt[i].val;
		int rc = parse_common(a->opt[i].id, v, &o);
		if (rc < 0)
			return NVS_EXIT_USAGE;
		if (!rc && a->opt[i].id == O_SPEED &&
		    (num_parse_double(v, 0, 4096, &o.speed) || !(o.speed > 0))) {
			fprintf(stderr,
				"nvscope replay: --speed: '%s' is not a number in (0, 4096]\n", v);
			return NVS_EXIT_USAGE;
		}
	}
	if (a->npos > 1) {
		cmd_say(self, "unexpected argument '%s' (see --help)", a->pos[1]);
		return NVS_EXIT_USAGE;
	}
	o.show_dir = a->npos ? a->pos[0] : NULL;
	if (!o.show_dir) {
		cmd_help(stderr, self);
		return NVS_EXIT_USAGE;
	}
	if (strlen(o.show_dir) > NVS_CONSOLE_DIR_MAX) {
		fprintf(stderr, "nvscope replay: directory name longer than %d bytes\n",
			NVS_CONSOLE_DIR_MAX);
		return NVS_EXIT_USAGE;
	}
	return console_run(&o);
}

const struct cmd_entry cmd_console_entry = {
    .name = "console",
    .summary = "the full-screen console (the default without a command)",
    .usage = "[--target PATH ...] [--preset NAME | --job FILE | workload options]\n"
	     "        [--theme NAME] [--ascii] [--demo] [--showfloor] [--results DIR]\n"
	     "        [--no-mouse] [--no-settings]\n"
	     "        [--round SECONDS] [--window N] [--range PCT] [--slope PCT]\n"
	     "        [--host DEST ... | --hosts FILE] [--ssh CMD] [--remote-nvscope PATH]\n"
	     "        [--connect-timeout TIME]\n"
	     "--plan NAME --target PATH [--yes-destroy-data=PATH] [--results DIR]\n"
	     "        [--runtime T] [--ramp-time T] [--iodepth LIST] [--round T]\n"
	     "        [--max-rounds N] [--fill PASSES] [--window N] [--range P] [--slope P]\n"
	     "--check PROFILE (--target PATH ... | --all-nvme) [--results DIR]",
    .text = "The full-screen console.  With --target and a preset (or workload options)\n"
	    "the run starts at once.  Each run writes DIR/samples.csv, summary.json,\n"
	    "events.log; nvscope replay DIR plays it back.  Workload options are those\n"
	    "of nvscope run (--rw= --bs= --iodepth= ...).  Steady state (SNIA rule) of\n"
	    "the IOPS in rounds of --round seconds, over --window rounds.\n"
	    "--plan runs a test plan in the console; without --yes-destroy-data a\n"
	    "destructive plan asks for the typed confirmation.  --check starts a drive\n"
	    "check of the targets (--all-nvme: every NVMe namespace) in the check view,\n"
	    "as at a rack: serial, verdict and reasons of each drive.  --host and\n"
	    "--hosts also show other hosts' drives and health over ssh, grouped by\n"
	    "host, each host up or lost (docs/hosts.md).  Keys: ? or F1.",
    .opts = console_opts,
    .flags = CMD_WORKLOAD,
    .exec = exec_console,
};

const struct cmd_entry cmd_replay_entry = {
    .name = "replay",
    .summary = "replay a results directory in the console",
    .usage = "replay DIR [--theme NAME] [--ascii] [--showfloor] [--speed X]\n"
	     "       [--no-mouse] [--no-settings]\n"
	     "       [--round SECONDS] [--window N] [--range PCT] [--slope PCT]",
    .text = "Plays a results directory written by the console (DIR/samples.csv), or\n"
	    "follows a plan's results directory (DIR/state.json: running or done).\n"
	    "Keys: Space play/pause, [ ] speed, Home restart, End jump to the end.",
    .opts = replay_opts,
    .exec = exec_replay,
};

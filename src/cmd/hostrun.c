/* hostrun.c - `nvscope run` over hosts, the client (hostrun.h,
 * docs/hosts.md).  Each host gets its targets and the workload options as
 * strings (agentrun.c runs them as a local `nvscope run` there); every
 * host prepares and says "ready", then one GO goes to all of them (the
 * start skew is measured from the hosts' "running" answers); each host's
 * fio-layout JSON comes back in its reply and is gathered as fio's client
 * mode gathers its servers' ("client_stats" with "hostname" on each job,
 * "All clients" for the sum).  A host lost on the way is named, the
 * others' results are complete, exit 1. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "cmd/hostrun.h"
#include "cmd/stopsig.h"
#include "base/num.h"
#include "config/cli.h"
#include "config/hosts.h"
#include "io/core/pool.h"
#include "report/json.h"

/* ---- options ---- */

const char *hostrun_refused_key(const char *key, size_t klen)
{
	/* every workload option naming a file, directory or command */
	static const char *const bad[] = {
	    "read_iolog",
	    "write_iolog",
	    "replay_redirect",
	    "write_bw_log",
	    "write_lat_log",
	    "write_iops_log",
	    "write_hist_log",
	    "directory",
	    "opendir",
	    "filename_format",
	    "verify_dump",
	    "dp_scheme",
	    "exec_prerun",
	    "exec_postrun",
	    "trigger",
	    "trigger_file",
	    "trigger_cmd",
	    "lockfile",
	    "cgroup",
	    "verify_state_save",
	    "verify_state_load",
	    "include",
	    "job",
	    "iolog",
	};
	for (size_t i = 0; i < NVS_ARRAY_SIZE(bad); i++)
		if (strlen(bad[i]) == klen && !strncmp(bad[i], key, klen))
			return bad[i];
	return NULL;
}

/* Target @i of @c (a token of a comma list) into @buf. */
static void target_of(const struct cli *c, unsigned i, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(c->targets[i], ","), c->targets[i]);
}

static bool host_opt(int id)
{
	return id == HOSTCMD_O_SSH || id == HOSTCMD_O_REMOTE || id == HOSTCMD_O_TIMEOUT ||
	       id == HOSTRUN_O_CONFIRM || id == HOSTCMD_O_HOST || id == HOSTCMD_O_HOSTS;
}

bool hostrun_wanted(const struct cmd_entry *e, const struct cmd_args *a)
{
	(void)e;
	for (unsigned i = 0; a->cli && i < a->cli->ntargets; i++) {
		char t[4096], *dest = NULL, *path = NULL, err[256];
		target_of(a->cli, i, t, sizeof(t));
		int rc = hosts_split_target(t, &dest, &path, err, sizeof(err));
		free(dest);
		free(path);
		if (rc)
			return true; /* remote, or refused as one (said there) */
	}
	for (unsigned i = 0; i < a->nopt; i++)
		if (host_opt(a->opt[i].id))
			return true;
	return false;
}

static const char *opt_name(const struct cmd_entry *e, int id)
{
	for (const struct cmd_opt *o = e->opts; o && o->o.name; o++)
		if (o->o.val == id)
			return o->o.name;
	return "?";
}

struct hostrun {
	const struct cmd_entry *e;
	struct hostcmd h;
	bool json, quiet;
	const char *confirm;
	cJSON **params; /* per host: {"args", "confirm"} */
};

/* The run's own options: only the output format, -q and the host options
 * travel or apply over hosts.  0, or -EINVAL said. */
static int take_opts(struct hostrun *r, const struct cmd_args *a)
{
	for (unsigned i = 0; i < a->nopt; i++) {
		const char *n = opt_name(r->e, a->opt[i].id), *v = a->opt[i].val;
		if (!strcmp(n, "output-format")) {
			r->json = !strcmp(v, "json") || !strcmp(v, "json+");
			if (!r->json && strcmp(v, "normal")) {
				cmd_say(r->e, "--output-format: '%s' is not normal, json or json+",
					v);
				return -EINVAL;
			}
		} else if (!strcmp(n, "quiet")) {
			r->quiet = true;
		} else if (a->opt[i].id == HOSTRUN_O_CONFIRM) {
			r->confirm = v;
		} else if (!host_opt(a->opt[i].id)) {
			cmd_say(r->e,
				"--%s over hosts is not built yet (the JSON on stdout has every "
				"host's results)",
				n);
			return -EINVAL;
		}
	}
	if (a->npos || a->cli->job) {
		cmd_say(r->e, "job files over hosts are not built yet: give the options, or "
			      "--preset NAME (the hosts' own presets)");
		return -EINVAL;
	}
	if (a->cli->fileset) {
		cmd_say(r->e, "a file set (filename=a:b) over hosts is not built yet");
		return -EINVAL;
	}
	if (a->cli->preset && strchr(a->cli->preset, '/')) {
		cmd_say(r->e,
			"--preset %s: over hosts a preset is named, not a path (each host reads "
			"its own)",
			a->cli->preset);
		return -EINVAL;
	}
	for (unsigned k = 0; k < a->cli->nkv; k++) {
		const char *bad = hostrun_refused_key(a->cli->kv[k].key, a->cli->kv[k].klen);
		if (bad) {
			cmd_say(r->e,
				"refusing --%s over hosts: it names a file on the host (only the "
				"targets travel)",
				bad);
			return -EINVAL;
		}
	}
	return 0;
}

static void add_str(cJSON *arr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_str(cJSON *arr, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n >= 0)
		cJSON_AddItemToArray(arr, cJSON_CreateString(s));
	free(s);
}

/* Each host's request: the workload options as given, then its targets.
 * 0, or -EINVAL said (a local target beside remote ones). */
static int build_params(struct hostrun *r, const struct cli *c)
{
	size_t n = hostcmd_count(&r->h);

	if (!(r->params = calloc(n, sizeof(*r->params))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		cJSON *p = r->params[i] = cJSON_CreateObject();
		cJSON *args = cJSON_AddArrayToObject(p, "args");
		for (unsigned k = 0; k < c->nkv; k++) {
			if (c->kv[k].val)
				add_str(args, "--%.*s=%s", (int)c->kv[k].klen, c->kv[k].key,
					c->kv[k].val);
			else
				add_str(args, "--%.*s", (int)c->kv[k].klen, c->kv[k].key);
		}
		if (c->preset)
			add_str(args, "--preset=%s", c->preset);
		if (r->confirm)
			cJSON_AddStringToObject(p, "confirm", r->confirm);
	}
	for (unsigned t = 0; t < c->ntargets; t++) {
		char tg[4096], *dest, *path;
		target_of(c, t, tg, sizeof(tg));
		if (hostcmd_split(tg, &dest, &path))
			return -ENOMEM;
		bool local = !dest[0], every = local && r->h.nnamed;
		/* PATH with --host/--hosts: that path on every host they name
		 * (they come first in the list), as `health DEV` takes it */
		for (size_t i = 0; i < n && (every ? i < r->h.nnamed : !local); i++)
			if (every || !strcmp(dest, hostcmd_host(&r->h, i)))
				add_str(cJSON_GetObjectItemCaseSensitive(r->params[i], "args"),
					"--target=%s", path);
		free(dest);
		free(path);
		if (local && !every) {
			cmd_say(r->e,
				"%s: a local target beside HOST:PATH ones is not built yet "
				"(name this machine as a host too)",
				tg);
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- the run ---- */

static _Atomic int stop_sig;

static void on_signal(int sig)
{
	atomic_store_explicit(&stop_sig, sig, memory_order_relaxed);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NVS_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* One host through the run. */
struct hostst {
	struct remote *r;
	bool ready, running, logged;
	uint64_t t_run; /* when its "running" came (here) */
	int status;	/* its run's exit status; -1 could not run */
	cJSON *fio;	/* its fio JSON, or NULL */
	char error[768];
};

struct gather {
	struct hostrun *hr;
	struct hostst *hs;
	size_t n;
	bool cancelled; /* the hosts were told to stop (a host would not start, a signal) */
	unsigned nrun;	/* hosts whose start was acknowledged */
};

static void on_event(struct remote *rm, const struct proto_msg *m, void *arg)
{
	struct gather *g = arg;
	size_t i = 0;
	while (i + 1 < g->n && g->hs[i].r != rm)
		i++;
	const char *text = proto_get_str(m->body, "text", PROTO_MAX_STR);
	const char *ph = proto_get_str(m->body, "phase", 63);

	if (!strcmp(m->str, "log") && text) {
		cmd_say(g->hr->e, "%s: %s", remote_name(rm), hostcmd_log_text(text));
		g->hs[i].logged = true;
	} else if (!strcmp(m->str, "progress") && ph && !strcmp(ph, "ready")) {
		g->hs[i].ready = true;
	} else if (!strcmp(m->str, "progress") && ph && !strcmp(ph, "running")) {
		g->hs[i].running = true;
		g->hs[i].t_run = mono_ns();
	}
}

/* Ends the run's wait: 1 every host ready (GO them all), -1 a host will
 * not start (failed, or replied before it was ready: cancel the others),
 * 0 still preparing. */
static int start_state(const struct gather *g)
{
	bool all = true;
	for (size_t i = 0; i < g->n; i++) {
		enum remote_state s = g->hs[i].r ? remote_state(g->hs[i].r) : REMOTE_FAILED;
		if (s == REMOTE_FAILED || (s == REMOTE_DONE && !g->hs[i].ready))
			return -1;
		all &= g->hs[i].ready;
	}
	return all;
}

/* Runs the request on every host: prepare, one GO, until each replied or
 * failed.  *@skew_ns: the start skew (-1 not started on two hosts). */
static void drive(struct gather *g, int64_t *skew_ns, bool *started)
{
	size_t n = g->n;
	struct remote **rs = calloc(n, sizeof(*rs));
	bool cancelled = false, went = false;

	*started = false;
	*skew_ns = -1;
	if (!rs)
		return;
	for (size_t i = 0; i < n; i++) {
		rs[i] = g->hs[i].r;
		if (rs[i] && !remote_start(rs[i]))
			remote_request(rs[i], "run", g->hr->params[i]);
		else
			cJSON_Delete(g->hr->params[i]);
		g->hr->params[i] = NULL;
	}
	while (remote_poll(rs, n, 100, on_event, g)) {
		int st = went || cancelled ? 0 : start_state(g);
		if (st > 0) {
			for (size_t i = 0; i < n; i++)
				if (rs[i])
					remote_go(rs[i]);
			went = *started = true;
		}
		if ((st < 0 || atomic_load(&stop_sig)) && !cancelled) {
			for (size_t i = 0; i < n; i++)
				if (rs[i])
					remote_cancel(rs[i]);
			cancelled = g->cancelled = true;
		}
	}
	uint64_t lo = UINT64_MAX, hi = 0;
	unsigned nrun = 0;
	for (size_t i = 0; i < n; i++)
		if (g->hs[i].running) {
			nrun++;
			lo = g->hs[i].t_run < lo ? g->hs[i].t_run : lo;
			hi = g->hs[i].t_run > hi ? g->hs[i].t_run : hi;
		}
	if (nrun)
		*skew_ns = (int64_t)(hi - lo);
	g->nrun = nrun;
	free(rs);
}

/* Takes what each host answered. */
static void take(struct hostst *h)
{
	const struct proto_msg *m = h->r ? remote_reply(h->r) : NULL;
	cJSON *fio;

	if (!m) {
		h->status = -1;
		if (h->r && !h->error[0])
			snprintf(h->error, sizeof(h->error), "%s",
				 remote_state(h->r) == REMOTE_FAILED ? remote_error(h->r)
								     : "no reply");
		return;
	}
	h->status = m->status;
	if (m->str)
		snprintf(h->error, sizeof(h->error), "%s", hostcmd_log_text(m->str));
	fio = m->body ? cJSON_GetObjectItemCaseSensitive(m->body, "fio") : NULL;
	if (cJSON_IsObject(fio))
		h->fio = cJSON_DetachItemViaPointer(m->body, fio);
}

/* ---- the results ---- */

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* fio's client mode sums its servers' thread figures into "All clients":
 * here the counts, bytes, bandwidths and IOPS of every job summed, the
 * runtime the longest, latency min/max/mean (mean weighted by I/Os);
 * percentiles are not summable from the hosts' JSON and are left out. */
static void sum_dir(cJSON *agg, const cJSON *job, const char *dir)
{
	static const char *const sum[] = {"io_bytes", "io_kbytes", "bw_bytes",	"bw",
					  "iops",     "total_ios", "short_ios", "drop_ios"};
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(job, dir);
	cJSON *a = cJSON_GetObjectItemCaseSensitive(agg, dir);

	if (!cJSON_IsObject(d))
		return;
	if (!a) {
		a = cJSON_AddObjectToObject(agg, dir);
		for (size_t i = 0; i < NVS_ARRAY_SIZE(sum); i++)
			cJSON_AddNumberToObject(a, sum[i], 0);
		cJSON_AddNumberToObject(a, "runtime", 0);
		cJSON *l = cJSON_AddObjectToObject(a, "lat_ns");
		cJSON_AddNumberToObject(l, "min", 0);
		cJSON_AddNumberToObject(l, "max", 0);
		cJSON_AddNumberToObject(l, "mean", 0);
	}
	double n0 = num(a, "total_ios"), n1 = num(d, "total_ios");
	for (size_t i = 0; i < NVS_ARRAY_SIZE(sum); i++)
		cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(a, sum[i]),
				     num(a, sum[i]) + num(d, sum[i]));
	if (num(d, "runtime") > num(a, "runtime"))
		cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(a, "runtime"),
				     num(d, "runtime"));
	cJSON *al = cJSON_GetObjectItemCaseSensitive(a, "lat_ns");
	const cJSON *dl = cJSON_GetObjectItemCaseSensitive(d, "lat_ns");
	if (!n1 || !cJSON_IsObject(dl))
		return;
	double mn = num(dl, "min"), mx = num(dl, "max");
	if (!n0 || mn < num(al, "min"))
		cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(al, "min"), mn);
	if (mx > num(al, "max"))
		cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(al, "max"), mx);
	cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(al, "mean"),
			     (num(al, "mean") * n0 + num(dl, "mean") * n1) / (n0 + n1));
}

static unsigned port_of(const char *dest)
{
	struct hosts_dest d;
	char err[256];
	unsigned p = 0;
	if (!hosts_parse_dest(dest, &d, err, sizeof(err))) {
		p = d.port;
		hosts_dest_clear(&d);
	}
	return p;
}

/* nvscope's "hosts" entry of host @h. */
static cJSON *host_state(const struct hostst *h, const char *name)
{
	cJSON *st = cJSON_CreateObject();
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(h->fio, "nvscope");

	cJSON_AddStringToObject(st, "host", name);
	cJSON_AddBoolToObject(st, "complete", h->status == 0 && h->fio);
	if (h->status >= 0)
		cJSON_AddNumberToObject(st, "status", h->status);
	else
		cJSON_AddNullToObject(st, "status");
	if (h->error[0])
		cJSON_AddStringToObject(st, "error", h->error);
	else
		cJSON_AddNullToObject(st, "error");
	if (x)
		cJSON_AddItemToObject(st, "nvscope", cJSON_Duplicate(x, true));
	return st;
}

/* fio's client JSON: "client_stats" (every host's jobs, "hostname" and
 * "port" on each, then "All clients"), "disk_util" (each with
 * "hostname"); and nvscope's "hosts" (each host's state) and start skew. */
/* fio's head: its version (the hosts'), the time (here). */
static void add_head(cJSON *all, const struct gather *g)
{
	const char *v = NULL;
	struct timespec now;
	struct tm tm;
	char when[64] = "";

	for (size_t i = 0; i < g->n && !v; i++)
		v = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(g->hs[i].fio, "fio version"));
	cJSON_AddStringToObject(all, "fio version", v ? v : "nvscope-" NVS_VERSION);
	clock_gettime(CLOCK_REALTIME, &now);
	if (localtime_r(&now.tv_sec, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	cJSON_AddNumberToObject(all, "timestamp", (double)now.tv_sec);
	cJSON_AddNumberToObject(all, "timestamp_ms",
				(double)now.tv_sec * 1e3 + (double)(now.tv_nsec / 1000000));
	cJSON_AddStringToObject(all, "time", when);
}

static cJSON *gathered(const struct gather *g, int64_t skew_ns)
{
	cJSON *all = cJSON_CreateObject(), *cs, *du, *hosts, *agg = cJSON_CreateObject();
	unsigned members = 0;

	add_head(all, g);
	cs = cJSON_AddArrayToObject(all, "client_stats");
	du = cJSON_AddArrayToObject(all, "disk_util");
	hosts = cJSON_AddArrayToObject(all, "hosts");
	if (skew_ns >= 0)
		cJSON_AddNumberToObject(all, "start_skew_ms", (double)skew_ns / 1e6);
	else
		cJSON_AddNullToObject(all, "start_skew_ms");
	for (size_t i = 0; i < g->n; i++) {
		const struct hostst *h = &g->hs[i];
		const char *name = hostcmd_host(&g->hr->h, i);
		const cJSON *x;
		cJSON_AddItemToArray(hosts, host_state(h, name));
		cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(h->fio, "jobs"))
		{
			cJSON *j = cJSON_Duplicate(x, true);
			cJSON_AddStringToObject(j, "hostname", name);
			cJSON_AddStringToObject(j, "host", name);
			cJSON_AddNumberToObject(j, "port", port_of(name));
			cJSON_AddItemToArray(cs, j);
			sum_dir(agg, x, "read");
			sum_dir(agg, x, "write");
			sum_dir(agg, x, "trim");
			members++;
		}
		cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(h->fio, "disk_util"))
		{
			cJSON *d = cJSON_Duplicate(x, true);
			cJSON_AddStringToObject(d, "hostname", name);
			cJSON_AddItemToArray(du, d);
		}
	}
	cJSON_AddStringToObject(agg, "jobname", "All clients");
	cJSON_AddNumberToObject(agg, "groupid", 0);
	cJSON_AddNumberToObject(agg, "members", members);
	cJSON_AddStringToObject(agg, "hostname", "");
	cJSON_AddItemToArray(cs, agg);
	return all;
}

/* "62.1 k", as fio prints IOPS. */
static void si(double v, char *buf, size_t len)
{
	static const char *const u[] = {"", "k", "M", "G"};
	unsigned i = 0;
	while (v >= 1000 && i + 1 < NVS_ARRAY_SIZE(u)) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, i ? "%.1f%s" : "%.0f%s", v, u[i]);
}

static void text_dir(const char *who, const cJSON *job, const char *dir)
{
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(job, dir);
	char iops[32];

	if (!cJSON_IsObject(d) || !num(d, "total_ios"))
		return;
	si(num(d, "iops"), iops, sizeof(iops));
	printf("%s %5s: IOPS=%s, BW=%.1fMB/s, io=%.1fMB (%.0f ios) in %.0fms, lat mean %.1fus\n",
	       who, dir, iops, num(d, "bw_bytes") / 1e6, num(d, "io_bytes") / 1e6,
	       num(d, "total_ios"), num(d, "runtime"),
	       num(cJSON_GetObjectItemCaseSensitive(d, "lat_ns"), "mean") / 1e3);
}

/* One block per host (each job's lines), then "All clients". */
static void print_text(const cJSON *all)
{
	const cJSON *j;
	const char *last = NULL;

	cJSON_ArrayForEach(j, cJSON_GetObjectItemCaseSensitive(all, "client_stats"))
	{
		const char *h = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "host"));
		const char *jn =
		    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "jobname"));
		char who[512];
		if (h && (!last || strcmp(last, h)))
			printf("%s%s:\n", last ? "\n" : "", h);
		if (!h)
			printf("\n");
		last = h ? h : last;
		snprintf(who, sizeof(who), h ? "  [%s]" : "%s", jn ? jn : "?");
		text_dir(who, j, "read");
		text_dir(who, j, "write");
		text_dir(who, j, "trim");
	}
}

/* 1 a host lost, not run or failed (named here), 2 a host refused, else 0. */
static int status_of(const struct gather *g)
{
	bool one = false, two = false;

	for (size_t i = 0; i < g->n; i++) {
		const struct hostst *h = &g->hs[i];
		const char *name = hostcmd_host(&g->hr->h, i);
		if (h->status < 0)
			cmd_say(g->hr->e, "%s: %s", name, h->error);
		else if (h->status && !h->fio && !h->logged)
			cmd_say(g->hr->e, "%s: %s", name, h->error[0] ? h->error : "failed");
		/* 130, 143: stopped by the client's cancel (not a failure of its own) */
		one |= h->status < 0 || h->status == NVS_EXIT_IOERR ||
		       (h->status > 2 && !g->cancelled);
		two |= h->status == NVS_EXIT_USAGE;
	}
	return one ? NVS_EXIT_IOERR : two ? NVS_EXIT_USAGE : NVS_EXIT_OK;
}

static int report(struct gather *g, int64_t skew_ns, bool started)
{
	int rc = status_of(g);
	cJSON *all;

	if (!started) {
		cmd_say(g->hr->e, "the run did not start on any host (every host must be ready)");
		return rc ? rc : NVS_EXIT_IOERR;
	}
	if (!g->hr->quiet && skew_ns >= 0)
		fprintf(stderr,
			"run: start skew %.2f ms over %u host%s (go to each host's start, "
			"as seen here)\n",
			(double)skew_ns / 1e6, g->nrun, g->nrun == 1 ? "" : "s");
	all = gathered(g, skew_ns);
	if (g->hr->json) {
		int w = json_puts(all, stdout);
		if (w) {
			cmd_say(g->hr->e, "cannot print the JSON: %s", strerror(-w));
			rc = NVS_EXIT_IOERR;
		}
	} else {
		print_text(all);
	}
	cJSON_Delete(all);
	return rc;
}

int hostrun_exec(const struct cmd_entry *e, struct cmd_args *a)
{
	struct hostrun r = {.e = e};
	struct gather g = {.hr = &r};
	bool remote = false, started = false;
	int64_t skew = -1;
	int rc = NVS_EXIT_USAGE;
	char *tg[NVS_MAX_TARGETS] = {NULL};

	if (hostcmd_take(&r.h, e, a))
		return NVS_EXIT_USAGE;
	for (unsigned i = 0; i < a->cli->ntargets; i++)
		if (!(tg[i] = strndup(a->cli->targets[i], strcspn(a->cli->targets[i], ",")))) {
			rc = NVS_EXIT_IOERR;
			goto out;
		}
	if (take_opts(&r, a) ||
	    hostcmd_targets(&r.h, e, (const char *const *)tg, a->cli->ntargets, &remote))
		goto out;
	if (!remote) {
		cmd_say(e, "--ssh, --remote-nvscope, --connect-timeout and --yes-destroy-data are "
			   "for HOST:PATH targets");
		goto out;
	}
	if ((rc = build_params(&r, a->cli))) {
		rc = rc == -ENOMEM ? NVS_EXIT_IOERR : NVS_EXIT_USAGE;
		goto out;
	}
	g.n = hostcmd_count(&r.h);
	if (!(g.hs = calloc(g.n, sizeof(*g.hs)))) {
		rc = NVS_EXIT_IOERR;
		goto out;
	}
	for (size_t i = 0; i < g.n; i++)
		g.hs[i].r = remote_new(hostcmd_host(&r.h, i), &r.h.ro, g.hs[i].error,
				       sizeof(g.hs[i].error));
	stopsig_catch(on_signal, false);
	drive(&g, &skew, &started);
	stopsig_default();
	for (size_t i = 0; i < g.n; i++)
		take(&g.hs[i]);
	rc = report(&g, skew, started);
	if (atomic_load(&stop_sig)) {
		cmd_say(e, "interrupted; the hosts' results so far kept");
		rc = 128 + atomic_load(&stop_sig);
	}
out:
	for (unsigned i = 0; i < NVS_MAX_TARGETS; i++)
		free(tg[i]);
	for (size_t i = 0; g.hs && i < g.n; i++)
		cJSON_Delete(g.hs[i].fio);
	if (g.hs) {
		struct remote **rs = calloc(g.n, sizeof(*rs));
		for (size_t i = 0; rs && i < g.n; i++)
			rs[i] = g.hs[i].r;
		remote_close_all(rs, rs ? g.n : 0);
		free(rs);
	}
	for (size_t i = 0; r.params && i < hostcmd_count(&r.h); i++)
		cJSON_Delete(r.params[i]);
	free(r.params);
	free(g.hs);
	hostcmd_clear(&r.h);
	return rc;
}

/* ---- the far end's gate (in the `nvscope run` an agent started) ---- */

static int gate_fd = -1;

static void gate(void *arg)
{
	char c = 'r';
	ssize_t n;

	(void)arg;
	if (write(gate_fd, &c, 1) == 1) {
		while ((n = read(gate_fd, &c, 1)) < 0 && errno == EINTR)
			;
		if (n == 1 && c == 'g')
			return;
	}
	raise(SIGTERM); /* cancelled, or the agent is gone: the run stops at once */
}

void hostrun_gate_init(void)
{
	const char *v = getenv("NVSCOPE_RUN_GATE_FD");
	unsigned fd;

	if (!v || num_parse_uint(v, 3, 1023, &fd) || fcntl((int)fd, F_GETFD) < 0)
		return;
	fcntl((int)fd, F_SETFD, FD_CLOEXEC);
	gate_fd = (int)fd;
	unsetenv("NVSCOPE_RUN_GATE_FD");
	pool_set_gate(gate, NULL);
}

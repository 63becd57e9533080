/* actions.c - what the console does on the user's behalf: the device
 * rows and their marks, launching presets and the custom form (through the
 * write-safety check and its typed confirmation, the destroy dialog). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "dev/safety.h"
#include "ui/app.h"

/* ---- devices ---- */

/* ---- other hosts (--host) ---- */

/* Host @h's line: "up · 3 drives · clock +0.4 ms (rtt 1.1 ms)". */
static int host_status(const struct source_host *h, char *buf, size_t len)
{
	size_t drives = 0;
	for (size_t c = 0; h->devs && c < h->devs->nr_ctrls; c++)
		drives += h->devs->ctrls[c].nr_namespaces;
	for (size_t b = 0; h->devs && b < h->devs->nr_blocks; b++)
		drives++;
	size_t crit = 0; /* controllers with a critical warning: said even folded */
	for (size_t c = 0; h->devs && c < h->devs->nr_ctrls; c++)
		crit += h->devs->ctrls[c].health && h->devs->ctrls[c].health->critical_warning;
	char nd[96] = "";
	if (h->devs)
		snprintf(nd, sizeof(nd), ", %zu drive%s%s", drives, drives == 1 ? "" : "s",
			 crit ? ", CRITICAL warning" : "");
	switch (h->state) {
	case SOURCE_HOST_UP:
		if (h->clock_valid)
			snprintf(buf, len, "up%s, clock %+.1f ms (rtt %.1f ms)", nd,
				 h->offset_s * 1e3, h->rtt_s * 1e3);
		else
			snprintf(buf, len, "up%s", nd);
		return DEVROWS_HOST_UP;
	case SOURCE_HOST_LOST:
		snprintf(buf, len, "LOST %.0f s: %s", h->since, h->why);
		return DEVROWS_HOST_LOST;
	default:
		snprintf(buf, len, "connecting...");
		return DEVROWS_HOST_WAIT;
	}
}

/* Each host's group after the local rows (with a line of their own). */
static void add_hosts(struct app *a)
{
	size_t nh = source_hosts_count(a->dev.hosts);
	if (!nh)
		return;
	int n = devrows_add_host(&a->dev.drows, a->dev.ndrows, "this host", "local", 0, NULL);
	if (n > 0) { /* its line goes first */
		struct devrow line = a->dev.drows[n - 1];
		memmove(&a->dev.drows[1], &a->dev.drows[0], (size_t)(n - 1) * sizeof(line));
		a->dev.drows[0] = line;
		a->dev.ndrows = n;
	}
	for (size_t i = 0; i < nh && n >= 0; i++) {
		struct source_host h;
		char st[192];
		source_hosts_get(a->dev.hosts, i, &h);
		int tone = host_status(&h, st, sizeof(st));
		const struct dev_list *l = a->dev.hosts_folded ? NULL : h.devs;
		if ((n = devrows_add_host(&a->dev.drows, a->dev.ndrows, h.name, st, tone, l)) > 0)
			a->dev.ndrows = n;
	}
	if (n < 0)
		app_message(a, ROLE_ERROR, "out of memory: not every host is shown");
}

/* What the hosts' lines show, hashed: the rows are rebuilt when it moves. */
static unsigned long hosts_sig(struct app *a)
{
	unsigned long sig = 5381;
	for (size_t i = 0; i < source_hosts_count(a->dev.hosts); i++) {
		struct source_host h;
		char st[192];
		source_hosts_get(a->dev.hosts, i, &h);
		host_status(&h, st, sizeof(st));
		sig = sig * 33 + (unsigned long)(uintptr_t)h.devs;
		for (const char *p = st; *p; p++)
			sig = sig * 33 + (unsigned char)*p;
	}
	return sig;
}

static void rebuild_rows(struct app *a, char marked[][256], int nmarked, char extra[][256],
			 int nextra)
{
	/* the cursor stays on its device, not on its index: a rescan may add
	 * or remove rows above it (another program's loop device), and P or
	 * Space must not land on a neighbour */
	char at[sizeof(a->dev.drows[0].path)] = "";
	if (a->dev.drows && a->dev.dev_cur >= 0 && a->dev.dev_cur < a->dev.ndrows)
		snprintf(at, sizeof(at), "%s", a->dev.drows[a->dev.dev_cur].path);
	free(a->dev.drows);
	a->dev.drows = NULL;
	int n = devrows_build(a->dev.devs, &a->dev.drows);
	a->dev.ndrows = n > 0 ? n : 0;
	add_hosts(a);
	for (int i = 0; i < nextra; i++) {
		if (devrows_find(a->dev.drows, a->dev.ndrows, extra[i]) >= 0)
			continue;
		struct devrow *r = realloc(a->dev.drows, (size_t)(a->dev.ndrows + 1) * sizeof(*r));
		if (!r)
			break;
		a->dev.drows = r;
		r = memset(&a->dev.drows[a->dev.ndrows++], 0, sizeof(*r));
		r->selectable = true;
		snprintf(r->path, sizeof(r->path), "%s", extra[i]);
		const char *b = strrchr(extra[i], '/');
		snprintf(r->name, sizeof(r->name), "%.63s", b ? b + 1 : extra[i]);
		snprintf(r->model, sizeof(r->model), "file");
		snprintf(r->usage, sizeof(r->usage), "-");
		/* before the devices are listed, a path that is not a regular
		 * file may be one of them, its probe not answered: in use */
		struct stat st;
		if (!a->dev.devs && (stat(extra[i], &st) || !S_ISREG(st.st_mode))) {
			r->probing = r->in_use = true;
			snprintf(r->usage, sizeof(r->usage), "probing...");
		}
	}
	for (int i = 0; i < nmarked; i++) {
		int k = devrows_find(a->dev.drows, a->dev.ndrows, marked[i]);
		if (k >= 0)
			a->dev.drows[k].marked = true;
	}
	int at_row = at[0] ? devrows_find(a->dev.drows, a->dev.ndrows, at) : -1;
	if (at_row < 0 && at[0]) /* a host's line or drive */
		at_row = devrows_find_exact(a->dev.drows, a->dev.ndrows, at);
	if (at_row >= 0)
		a->dev.dev_cur = at_row;
	else if (a->dev.dev_cur >= a->dev.ndrows)
		a->dev.dev_cur = a->dev.ndrows ? a->dev.ndrows - 1 : 0;
	a->scr.dirty[PANE_DEVICES] = a->scr.dirty[PANE_FORM] = true;
}

/* Paths of the marked rows and of the added files, to survive a rebuild. */
static int collect_paths(struct app *a, char out[][256], int max, bool marked_only)
{
	int n = 0;
	for (int i = 0; i < a->dev.ndrows && n < max; i++) {
		const struct devrow *r = &a->dev.drows[i];
		if (r->remote || r->host_hdr)
			continue;
		if (marked_only ? r->marked : !strcmp(r->model, "file"))
			snprintf(out[n++], 256, "%s", r->path);
	}
	return n;
}

/* The marked rows' and the added files' paths across a rebuild of the rows
 * (heap: 256 KiB, no static state). */
struct kept_paths {
	char marked[NVS_MAX_TARGETS][256], extra[NVS_MAX_TARGETS][256];
	int nm, ne;
};

static struct kept_paths *keep_paths(struct app *a)
{
	struct kept_paths *k = malloc(sizeof(*k));
	if (!k) {
		app_message(a, ROLE_ERROR, "out of memory");
		return NULL;
	}
	k->nm = collect_paths(a, k->marked, NVS_MAX_TARGETS, true);
	k->ne = collect_paths(a, k->extra, NVS_MAX_TARGETS, false);
	return k;
}

void app_scan(struct app *a, bool progressive)
{
	if (a->dev.scan) {
		a->dev.scan_again = true;
		return;
	}
	a->dev.scan = devscan_start(APP_PROBE_MS, progressive);
	if (!a->dev.scan) {
		app_message(a, ROLE_ERROR, "device scan: no thread could be started (r retries)");
		a->dev.scan_say = false;
	}
	a->dev.scanning = a->dev.scan && (progressive || a->dev.scanning);
	a->scr.dirty[PANE_DEVICES] = true;
}

void app_rescan(struct app *a)
{
	app_scan(a, false);
}

/* The scan's newest list replaces the one shown; rows and marks kept. */
static void take_list(struct app *a, struct dev_list *l, bool probed)
{
	struct kept_paths *k = keep_paths(a);
	if (!k) {
		dev_list_free(l);
		return;
	}
	dev_list_free(a->dev.devs);
	a->dev.devs = l;
	if (probed)
		a->dev.scanning = false;
	rebuild_rows(a, k->marked, k->nm, k->extra, k->ne);
	free(k);
}

void app_scan_poll(struct app *a)
{
	bool probed;
	char err[128];
	if (!a->dev.scan)
		return;
	struct dev_list *l = devscan_take(a->dev.scan, &probed);
	if (l)
		take_list(a, l, probed);
	if (!devscan_over(a->dev.scan, err, sizeof(err)))
		return;
	devscan_free(a->dev.scan);
	a->dev.scan = NULL;
	a->dev.scanning = false;
	a->scr.dirty[PANE_DEVICES] = true;
	if (err[0])
		app_message(a, ROLE_ERROR, "device scan failed: %s", err);
	if (a->dev.scan_again) { /* `r` is answered at the end of this one */
		a->dev.scan_again = false;
		app_scan(a, false);
		if (a->dev.scan)
			return;
	}
	if (!err[0] && a->dev.scan_say)
		app_message(a, ROLE_OK, "rescanned: %d devices", a->dev.ndrows);
	a->dev.scan_say = false;
}

void app_hosts_poll(struct app *a)
{
	struct source_host_event ev;
	if (!a->dev.hosts)
		return;
	source_hosts_poll(a->dev.hosts);
	while (source_hosts_event(a->dev.hosts, &ev))
		app_event(a, ev.bad ? ROLE_ERROR : ROLE_OK, "%s", ev.text);
	unsigned long sig = hosts_sig(a);
	if (sig != a->dev.hosts_sig) {
		a->dev.hosts_sig = sig;
		struct kept_paths *k = keep_paths(a);
		if (k)
			rebuild_rows(a, k->marked, k->nm, k->extra, k->ne);
		free(k);
	}
}

void app_hosts_fold(struct app *a)
{
	if (!a->dev.hosts) {
		app_message(a, ROLE_WARN, "no other hosts (nvscope --host DEST shows them)");
		return;
	}
	a->dev.hosts_folded = !a->dev.hosts_folded;
	a->dev.hosts_sig = 0; /* rebuilt at the next poll */
	app_message(a, ROLE_OK,
		    a->dev.hosts_folded ? "hosts folded: one line each (o unfolds)"
					: "hosts unfolded: their drives shown");
}

bool app_remote_row(struct app *a, const struct devrow *r, const char *what)
{
	if (!r->host_hdr && !r->remote)
		return false;
	bool health = !strcmp(what, "the health view");
	app_message(a, ROLE_WARN, "%s: %s of another host's drives is not in the console yet%s",
		    r->host_hdr ? r->name : r->path, what,
		    health ? " (nvscope health HOST:PATH)" : "");
	return true;
}

bool app_probing(struct app *a, const char *path, const char *what)
{
	int k = devrows_find(a->dev.drows, a->dev.ndrows, path);
	if (k >= 0 ? !a->dev.drows[k].probing : a->dev.devs != NULL)
		return false;
	app_message(a, ROLE_WARN,
		    "%s: %s is still being probed (its use is not known yet): "
		    "wait for the scan",
		    what, path);
	return true;
}

/* A workload that writes waits for its targets' probes (app_probing). */
static bool writes_wait(struct app *a, const struct spec *jobs, unsigned n, const char *name)
{
	bool writes = false;
	for (unsigned j = 0; j < n; j++)
		writes |= spec_writes(&jobs[j]);
	for (unsigned t = 0; writes && t < jobs[0].ntargets; t++)
		if (app_probing(a, jobs[0].targets[t], name))
			return true;
	return false;
}

/* Is @path among the first @n of @list? */
static bool listed(char list[][256], int n, const char *path)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i], path))
			return true;
	return false;
}

int app_add_targets(struct app *a, const char *const *paths, unsigned n)
{
	int err = 0;
	unsigned good = 0;
	for (unsigned t = 0; t < n; t++) {
		int e = !*paths[t] ? -EINVAL : strlen(paths[t]) >= 256 ? -ENAMETOOLONG : 0;
		err = err ? err : e; /* a path is used whole or not at all */
		good += !e;
	}
	if (!good)
		return err;
	struct kept_paths *k = keep_paths(a);
	if (!k)
		return -ENOMEM;
	const char *last = NULL;
	for (unsigned t = 0; t < n; t++) {
		const char *p = paths[t];
		if (!*p || strlen(p) >= 256)
			continue;
		if (devrows_find(a->dev.drows, a->dev.ndrows, p) < 0 &&
		    !listed(k->extra, k->ne, p) && k->ne < NVS_MAX_TARGETS)
			snprintf(k->extra[k->ne++], 256, "%s", p);
		if (k->nm < NVS_MAX_TARGETS)
			snprintf(k->marked[k->nm++], 256, "%s", p);
		last = p;
	}
	rebuild_rows(a, k->marked, k->nm, k->extra, k->ne); /* once: each row is stat()ed */
	free(k);
	int i = last ? devrows_find(a->dev.drows, a->dev.ndrows, last) : -1;
	if (i >= 0)
		a->dev.dev_cur = i;
	return err;
}

int app_add_target(struct app *a, const char *path)
{
	return app_add_targets(a, &path, 1);
}

/* ---- launching ---- */

int app_marked_targets(struct app *a, struct spec *s, bool cursor)
{
	s->ntargets = 0;
	for (int i = 0; i < a->dev.ndrows && s->ntargets < NVS_MAX_TARGETS; i++)
		if (a->dev.drows[i].marked)
			snprintf(s->targets[s->ntargets++], sizeof(s->targets[0]), "%s",
				 a->dev.drows[i].path);
	if (cursor && !s->ntargets && a->dev.dev_cur < a->dev.ndrows &&
	    a->dev.drows[a->dev.dev_cur].selectable)
		snprintf(s->targets[s->ntargets++], sizeof(s->targets[0]), "%s",
			 a->dev.drows[a->dev.dev_cur].path);
	if (!s->ntargets) {
		app_message(a, ROLE_WARN, "mark a target first (Devices pane: Space)");
		return -EINVAL;
	}
	return 0;
}

/* Health readers for the controller of every NVMe target of the run (each
 * controller once): a warning on any target reaches the screen and the
 * event list, not the first target's only. */
static void watch_health(struct app *a, const struct spec *jobs, unsigned n)
{
	const char *ctrl[HEALTHSET_MAX];
	unsigned nc = 0;
	a->hl.health_path[0] = '\0';
	healthset_free(a->hl.hset);
	a->hl.hset = NULL;
	for (unsigned j = 0; j < n; j++)
		for (unsigned t = 0; t < jobs[j].ntargets && nc < HEALTHSET_MAX; t++) {
			int k = devrows_find(a->dev.drows, a->dev.ndrows, jobs[j].targets[t]);
			if (k >= 0 && a->dev.drows[k].nvme && a->dev.drows[k].ctrl[0])
				ctrl[nc++] = a->dev.drows[k].ctrl;
		}
	if (!nc)
		return;
	snprintf(a->hl.health_path, sizeof(a->hl.health_path), "%s", ctrl[0]);
	a->hl.hset = healthset_new(ctrl, nc, 5.0);
}

bool app_results_dir(const struct app *a, char *dir, size_t len)
{
	const char *r = a->run.results_dir;
	int w = !r[0]		    ? -1
		: a->run.nruns == 0 ? snprintf(dir, len, "%s", r)
				    : snprintf(dir, len, "%s-%u", r, a->run.nruns + 1);
	return w >= 0 && (size_t)w < len;
}

static void start_jobs(struct app *a, struct spec *jobs, unsigned n, const char *name)
{
	char dir[600], err[256] = "";
	if (!app_results_dir(a, dir, sizeof(dir)))
		source_default_dir(name, dir, sizeof(dir));
	if (!app_can(a, SOURCE_CAN_START)) { /* a plan shown before gives way */
		struct source live;
		if (source_live(&live)) {
			app_message(a, ROLE_ERROR, "out of memory");
			return;
		}
		app_show_source(a, live);
	}
	snprintf(a->run.run_name, sizeof(a->run.run_name), "%s", name);
	if (a->src.ops->start(a->src.ctx, jobs, n, dir, err, sizeof(err))) {
		app_unpin(a);
		app_message(a, ROLE_ERROR, "%s", err);
		return;
	}
	a->run.nruns++;
	a->run.run_writes = false;
	for (unsigned i = 0; i < n; i++)
		a->run.run_writes |= spec_writes(&jobs[i]);
	app_show_source(a, a->src); /* the same source: what was derived starts over */
	a->scr.screen = SCREEN_LIVE;
	a->hl.thm_base_valid = false;
	watch_health(a, jobs, n);
	app_message(a, ROLE_OK, "started %s on %s (results in %s)", name, jobs[0].targets[0], dir);
	app_dirty_all(a);
}

int app_write_check(struct app *a, const char *t, char *msg, size_t len, char *log, size_t loglen)
{
	/* never forced here: whether --force-destroy was needed is logged */
	int r = safety_check_write(t, false, msg, len);
	if (r == -EEXIST && a->run.base.force_destroy) {
		size_t n = strlen(log);
		if (n + 1 < loglen)
			snprintf(log + n, loglen - n, "override: --force-destroy: %s\n", msg);
		return 0;
	}
	if (r == -EEXIST) {
		char *cut = strstr(msg, " (use --force-destroy");
		size_t n = cut ? (size_t)(cut - msg) : strlen(msg);
		snprintf(msg + n, len - n,
			 ": the typed confirmation does not override that, start nvscope with "
			 "--force-destroy");
	}
	return r;
}

bool app_needs_token(const char *t)
{
	char need[256];
	struct stat st;
	/* block devices and NVMe nodes (the serial); regular files do not */
	if (stat(t, &st))
		return false;
	return S_ISBLK(st.st_mode) ||
	       (S_ISCHR(st.st_mode) && !safety_confirm_token(t, need, sizeof(need)) &&
		strcmp(need, t));
}

void app_ask_token(struct app *a, const char *what, const char *target, app_answer_fn answer)
{
	char need[256] = "";
	safety_confirm_token(target, need, sizeof(need));
	if (!need[0])
		snprintf(need, sizeof(need), "%s", target);
	snprintf(a->run.pending_path, sizeof(a->run.pending_path), "%s", need);
	snprintf(a->pr.prompt_text, sizeof(a->pr.prompt_text),
		 "Type %.60s to DESTROY the data on %.60s (Esc cancels): ", need, target);
	snprintf(a->pr.confirm, sizeof(a->pr.confirm), "%.80s %.100s: everything on it is lost.%s",
		 what, target, strcmp(need, target) ? " Type the NVMe controller's serial." : "");
	a->pr.confirm_head = NULL;
	a->pr.answer = answer;
	a->pr.prompt = PROMPT_DESTROY;
	a->pr.edit[0] = '\0';
	a->pr.edit_len = 0;
	a->scr.dirty[PANE_STATUS] = true;
	app_dirty_all(a);
}

static void jobs_answer(struct app *a, bool ok);

/* Asks for the next target's typed token, or starts the pending jobs. */
static void continue_launch(struct app *a)
{
	struct spec *jobs = a->run.pending;
	for (unsigned t = a->run.pending_next; t < jobs[0].ntargets; t++)
		if (app_needs_token(jobs[0].targets[t])) {
			a->run.pending_next = t;
			char what[96];
			snprintf(what, sizeof(what), "%.60s writes", a->run.pending_name);
			app_ask_token(a, what, jobs[0].targets[t], jobs_answer);
			return;
		}
	a->run.pending = NULL;
	start_jobs(a, jobs, a->run.npending, a->run.pending_name);
	if (app_running(a))
		for (char *l = a->run.pending_log, *e; *l; l = e + 1) {
			e = strchr(l, '\n');
			if (!e)
				break;
			*e = '\0';
			a->src.ops->note(a->src.ctx, l);
		}
	a->run.pending_log[0] = '\0';
	free(jobs);
}

/* Safety first (docs/safety.md): refuses writes to targets in use or
 * holding data (unless the console was started with --force-destroy: the
 * typed token is no override), then asks for the typed token of every
 * block device written.  Takes ownership of @jobs. */
void app_unpin(struct app *a)
{
	for (unsigned i = 0; i < a->run.npinned; i++)
		safety_pin_release(a->run.pinned[i]);
	a->run.npinned = 0;
}

/* Pins every target of @job (each once) before anything about them is
 * checked (docs/safety.md: the object written is the object checked and
 * confirmed); held until the run ends.  0, or -errno with @msg (none held
 * then). */
static int pin_targets(struct app *a, const struct spec *job, char *msg, size_t len)
{
	app_unpin(a);
	for (unsigned t = 0; t < job->ntargets && t < NVS_MAX_TARGETS; t++) {
		bool seen = false;
		for (unsigned k = 0; k < t && !seen; k++)
			seen = !strcmp(job->targets[k], job->targets[t]);
		if (seen)
			continue;
		int r = safety_pin_hold(job->targets[t], msg, len);
		if (r) {
			app_unpin(a);
			return r;
		}
		snprintf(a->run.pinned[a->run.npinned++], sizeof(a->run.pinned[0]), "%s",
			 job->targets[t]);
	}
	return 0;
}

void app_launch_jobs(struct app *a, struct spec *jobs, unsigned n, const char *name)
{
	bool writes = false;
	if (purgeui_busy(a)) {
		app_message(a, ROLE_WARN, "a purge runs: %s not started", name);
		free(jobs);
		return;
	}
	for (unsigned j = 0; j < n; j++) {
		writes |= spec_writes(&jobs[j]);
		/* the override is the command line's, never a preset's */
		jobs[j].force_destroy = a->run.base.force_destroy;
	}
	if (writes && a->fl.demo) {
		app_message(a, ROLE_WARN, "demo mode: %s writes, not started", name);
		free(jobs);
		return;
	}
	a->run.pending_log[0] = '\0';
	char msg[1024] = "";
	int r = pin_targets(a, &jobs[0], msg, sizeof(msg));
	for (unsigned t = 0; !r && writes && t < jobs[0].ntargets; t++)
		r = app_write_check(a, jobs[0].targets[t], msg, sizeof(msg), a->run.pending_log,
				    sizeof(a->run.pending_log));
	if (r) {
		app_unpin(a);
		app_message(a, ROLE_ERROR, "refused: %s", msg[0] ? msg : strerror(-r));
		free(jobs);
		return;
	}
	free(a->run.pending);
	a->run.pending = jobs;
	a->run.npending = n;
	snprintf(a->run.pending_name, sizeof(a->run.pending_name), "%s", name);
	a->run.pending_next = writes ? 0 : jobs[0].ntargets;
	continue_launch(a);
}

void app_confirm_destroy(struct app *a, bool ok)
{
	app_answer_fn answer = a->pr.answer;
	a->pr.answer = NULL;
	if (answer)
		answer(a, ok);
}

/* The typed token of the pending jobs' next target: logged, and the next
 * one asked for, or the jobs started. */
static void jobs_answer(struct app *a, bool ok)
{
	struct spec *jobs = a->run.pending;
	if (!jobs)
		return;
	if (!ok) {
		a->run.pending = NULL;
		app_unpin(a);
		app_event(a, ROLE_WARN, "not confirmed: nothing written");
		free(jobs);
		return;
	}
	size_t l = strlen(a->run.pending_log);
	if (l + 1 < sizeof(a->run.pending_log))
		snprintf(a->run.pending_log + l, sizeof(a->run.pending_log) - l,
			 "override: typed confirmation %.100s for %.200s\n", a->run.pending_path,
			 jobs[0].targets[a->run.pending_next]);
	app_event(a, ROLE_WARN, "confirmed by typing %s: %s will be written", a->run.pending_path,
		  jobs[0].targets[a->run.pending_next]);
	a->run.pending_next++;
	continue_launch(a);
}

void app_launch_preset(struct app *a, int idx)
{
	if (purgeui_busy(a)) {
		app_message(a, ROLE_WARN, "a purge runs: wait for its end");
		return;
	}
	if (app_running(a)) {
		app_message(a, ROLE_WARN, "a workload is running (s stops it)");
		return;
	}
	if (idx < 0 || (size_t)idx >= a->lp.npresets) {
		app_message(a, ROLE_WARN, "no preset selected");
		return;
	}
	struct spec base = a->run.base;
	if (app_marked_targets(a, &base, true))
		return;
	struct spec *jobs = NULL;
	unsigned n = 0;
	char err[256] = "";
	if (preset_load(a->lp.presets[idx].path, &base, &jobs, &n, err, sizeof(err))) {
		app_message(a, ROLE_ERROR, "%s", err);
		return;
	}
	for (unsigned j = 0; j < n; j++) { /* the console's choice of targets wins */
		jobs[j].ntargets = base.ntargets;
		memcpy(jobs[j].targets, base.targets, sizeof(base.targets));
	}
	if (writes_wait(a, jobs, n, a->lp.presets[idx].name)) {
		free(jobs);
		return;
	}
	app_launch_jobs(a, jobs, n, a->lp.presets[idx].name);
}

const char *form_key(const struct form_field *f)
{
	/* "4k/50:64k/50" in the bs field is a bssplit */
	if (!strcmp(f->key, "bs") && strpbrk(f->val, "/:"))
		return "bssplit";
	return f->key;
}

const char *form_value(const struct form_field *f)
{
	if (!strcmp(f->key, "ioengine") && !strcmp(f->val, "passthrough"))
		return "io_uring_cmd";
	return f->val;
}

/* The form's passthrough engine: each marked namespace becomes its
 * generic node (/dev/ngXnY, the row under it).  0, or -EINVAL with the
 * reason shown. */
static int passthrough_targets(struct app *a, struct spec *job)
{
	for (unsigned t = 0; t < job->ntargets; t++) {
		int i = devrows_find(a->dev.drows, a->dev.ndrows, job->targets[t]);
		if (i < 0) /* added by path: a generic node is listed as itself */
			for (int k = 0; k < a->dev.ndrows; k++)
				if (!strcmp(a->dev.drows[k].path, job->targets[t]))
					i = k;
		const char *ng = devrows_generic(a->dev.drows, a->dev.ndrows, i);
		if (!ng) {
			app_message(
			    a, ROLE_ERROR,
			    "engine passthrough: %.100s is not an NVMe namespace with a "
			    "generic device; mark an NVMe namespace, or set engine io_uring",
			    job->targets[t]);
			return -EINVAL;
		}
		snprintf(job->targets[t], sizeof(job->targets[t]), "%s", ng);
	}
	return 0;
}

void app_launch_form(struct app *a)
{
	if (a->fl.demo) {
		app_message(a, ROLE_WARN, "demo mode: custom workloads are disabled");
		return;
	}
	if (app_running(a)) {
		app_message(a, ROLE_WARN, "a workload is running (s stops it)");
		return;
	}
	struct spec *job = malloc(sizeof(*job));
	if (!job)
		return;
	*job = a->run.base;
	/* an explicit target: never the device under a cursor not on screen */
	if (app_marked_targets(a, job, false)) {
		free(job);
		return;
	}
	for (int i = 0; i < FORM_NFIELDS; i++) {
		char err[200] = "";
		if (!a->fm.form[i].val[0])
			continue;
		if (opt_set(job, form_key(&a->fm.form[i]), form_value(&a->fm.form[i]), err,
			    sizeof(err))) {
			app_message(a, ROLE_ERROR, "%s: %s", a->fm.form[i].label, err);
			free(job);
			return;
		}
	}
	if (job->ioengine == ENGINE_IO_URING_CMD && passthrough_targets(a, job)) {
		free(job);
		return;
	}
	/* the form's runtime is how long to run (fio's time_based) */
	if (job->runtime_ns)
		job->time_based = true;
	snprintf(job->name, sizeof(job->name), "custom");
	if (writes_wait(a, job, 1, "custom")) {
		free(job);
		return;
	}
	app_launch_jobs(a, job, 1, "custom");
}

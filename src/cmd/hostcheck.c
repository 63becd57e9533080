/* hostcheck.c - `nvscope check` over hosts (docs/hosts.md): each host
 * checks its drives with its own nvscope (`nvscope agent`: the same
 * checkcmd_run, safety module and results directory as a local check),
 * all hosts together; one row per host and drive.  A host that could not
 * be checked is never PASS: its targets are N/A rows with the reason, it is
 * named on stderr, and the exit status is 1. */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "cmd/checkcmd.h"
#include "cmd/hostcmd.h"
#include "cmd/stopsig.h"
#include "check/out.h"
#include "check/run.h"
#include "dev/safety.h"
#include "report/json.h"

static _Atomic int stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store_explicit(&stop_flag, 1, memory_order_relaxed);
}

struct hostprog {
	const struct cmd_entry *e;
	bool quiet;
	char (*phase)[64]; /* each host's last phase shown */
	bool *logged;	   /* a host's agent said something on stderr */
	const struct hostcmd *h;
};

/* The index of host @r in @pg. */
static size_t host_index(const struct hostprog *pg, const struct remote *r)
{
	size_t i = 0;
	while (i + 1 < hostcmd_count(pg->h) && strcmp(hostcmd_host(pg->h, i), remote_name(r)))
		i++;
	return i;
}

static void on_event(struct remote *r, const struct proto_msg *m, void *arg)
{
	struct hostprog *pg = arg;
	const char *text = proto_get_str(m->body, "text", PROTO_MAX_STR);
	const char *ph = proto_get_str(m->body, "phase", 63);
	uint64_t nd = 0;

	size_t i = host_index(pg, r);

	if (!strcmp(m->str, "log") && text) {
		cmd_say(pg->e, "%s: %s", remote_name(r), hostcmd_log_text(text));
		pg->logged[i] = true;
		return;
	}
	if (strcmp(m->str, "progress") || !ph || pg->quiet || !strcmp(ph, "done") ||
	    !strcmp(pg->phase[i], ph))
		return;
	snprintf(pg->phase[i], sizeof(pg->phase[i]), "%s", ph);
	proto_get_u64(m->body, "drives", 1u << 20, &nd);
	fprintf(stderr, "check: %s: %s on %llu drive%s\n", remote_name(r), ph,
		(unsigned long long)nd, nd == 1 ? "" : "s");
}

/* @dir with every %h replaced by @host (as a directory name). */
static char *host_dir(const char *dir, const char *host)
{
	char safe[256], *out;
	size_t n = 0;

	check_safe_name(host, safe, sizeof(safe));
	for (const char *p = dir; *p; p++)
		n += (p[0] == '%' && p[1] == 'h') ? strlen(safe) : 1;
	if (!(out = malloc(n + 1)))
		return NULL;
	n = 0;
	for (const char *p = dir; *p; p++) {
		if (p[0] == '%' && p[1] == 'h') {
			memcpy(out + n, safe, strlen(safe));
			n += strlen(safe);
			p++;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = '\0';
	return out;
}

/* The request of host @i: its targets (HOST:DEV of it, and DEV when it
 * was named by --host/--hosts), the profile and options. */
/* @key: directory @dir with %h replaced by @host's name. */
static void add_dir(cJSON *p, const char *key, const char *dir, const char *host)
{
	char *d = host_dir(dir, host);
	cJSON_AddStringToObject(p, key, d ? d : dir);
	free(d);
}

static cJSON *params_of(const struct hostcmd *h, size_t i, const struct checkcmd *o, int *ntargets)
{
	const char *host = hostcmd_host(h, i);
	cJSON *p = cJSON_CreateObject(), *t = cJSON_AddArrayToObject(p, "targets");

	*ntargets = 0;
	for (unsigned k = 0; k < o->ntargets; k++) {
		char *th, *path;
		if (hostcmd_split(o->targets[k], &th, &path))
			continue;
		if (th[0] ? !strcmp(th, host) : i < h->nnamed) {
			cJSON_AddItemToArray(t, cJSON_CreateString(path));
			(*ntargets)++;
		}
		free(th);
		free(path);
	}
	if (o->resume) { /* each host resumes its own DIR (%h: its name) */
		cJSON_DeleteItemFromObjectCaseSensitive(p, "targets");
		add_dir(p, "resume", o->resume, host);
		*ntargets = -1; /* the state's */
	} else {
		cJSON_AddStringToObject(p, "profile", o->profile);
		cJSON_AddBoolToObject(p, "all_nvme", o->all_nvme);
		if (o->model)
			cJSON_AddStringToObject(p, "model", o->model);
		if (o->dir)
			add_dir(p, "output", o->dir, host);
	}
	if (o->confirm)
		cJSON_AddStringToObject(p, "confirm", o->confirm);
	cJSON_AddBoolToObject(p, "force", o->force);
	return p;
}

/* The rows of a host that was not checked: one N/A row per target it was
 * asked for (none with --all-nvme: its drives are unknown). */
static void na_rows(cJSON *drives, const struct hostcall *c, const cJSON *targets)
{
	char why[900];
	const cJSON *t;

	snprintf(why, sizeof(why), "could not check: %s", c->error[0] ? c->error : "no reply");
	cJSON_ArrayForEach(t, targets)
	{
		cJSON *x = cJSON_CreateObject();
		cJSON_AddNullToObject(x, "serial");
		cJSON_AddStringToObject(x, "device", cJSON_GetStringValue(t));
		cJSON_AddStringToObject(x, "verdict", "N/A");
		cJSON_AddItemToArray(cJSON_AddArrayToObject(x, "reasons"), cJSON_CreateString(why));
		cJSON_AddStringToObject(x, "host", c->host);
		cJSON_AddItemToArray(drives, x);
	}
}

static void count(cJSON *counts, const char *verdict)
{
	const char *k = !strcmp(verdict, "PASS")   ? "pass"
			: !strcmp(verdict, "WARN") ? "warn"
			: !strcmp(verdict, "FAIL") ? "fail"
						   : "na";
	cJSON *v = cJSON_GetObjectItemCaseSensitive(counts, k);
	cJSON_SetNumberValue(v, v->valuedouble + 1);
}

/* One host's part of the merged batch: its state, its rows. */
static void merge_host(cJSON *all, const struct hostcall *c, const cJSON *targets)
{
	cJSON *hs = cJSON_GetObjectItemCaseSensitive(all, "hosts"), *st = cJSON_CreateObject();
	cJSON *drives = cJSON_GetObjectItemCaseSensitive(all, "drives");
	cJSON *batch = cJSON_GetObjectItemCaseSensitive(c->result, "batch"), *arr, *x;
	bool checked = cJSON_IsObject(batch);

	cJSON_AddStringToObject(st, "host", c->host);
	cJSON_AddBoolToObject(st, "checked", checked);
	if (c->status >= 0)
		cJSON_AddNumberToObject(st, "status", c->status);
	else
		cJSON_AddNullToObject(st, "status");
	if (c->error[0])
		cJSON_AddStringToObject(st, "error", c->error);
	else
		cJSON_AddNullToObject(st, "error");
	if (checked) {
		cJSON *rd = cJSON_GetObjectItemCaseSensitive(batch, "results_dir");
		cJSON_AddItemToObject(st, "results_dir",
				      rd ? cJSON_Duplicate(rd, true) : cJSON_CreateNull());
		if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(batch, "interrupted")))
			cJSON_ReplaceItemInObject(all, "interrupted", cJSON_CreateTrue());
	}
	cJSON_AddItemToArray(hs, st);
	if (!checked) {
		na_rows(drives, c, targets);
		return;
	}
	arr = cJSON_GetObjectItemCaseSensitive(batch, "drives");
	while (cJSON_IsArray(arr) && (x = cJSON_DetachItemFromArray(arr, 0))) {
		if (!cJSON_IsObject(x)) {
			cJSON_Delete(x);
			continue;
		}
		cJSON_DeleteItemFromObjectCaseSensitive(x, "host");
		cJSON_AddStringToObject(x, "host", c->host);
		cJSON_AddItemToArray(drives, x);
	}
}

static cJSON *merged_new(const struct checkcmd *o)
{
	cJSON *all = cJSON_CreateObject(), *cn;

	cJSON_AddStringToObject(all, "nvscope_version", NVS_VERSION);
	cJSON_AddStringToObject(all, "profile", o->profile);
	cJSON_AddArrayToObject(all, "hosts");
	cJSON_AddBoolToObject(all, "interrupted", false);
	cn = cJSON_AddObjectToObject(all, "counts");
	cJSON_AddNumberToObject(cn, "pass", 0);
	cJSON_AddNumberToObject(cn, "warn", 0);
	cJSON_AddNumberToObject(cn, "fail", 0);
	cJSON_AddNumberToObject(cn, "na", 0);
	cJSON_AddArrayToObject(all, "drives");
	return all;
}

static const char *str_of(const cJSON *x, const char *key)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, key));
	return s && s[0] ? s : "-";
}

/* As check/out.c's table: "67.1 MB". */
static void human_bytes(double v, char *buf, size_t len)
{
	static const char *const u[] = {"B", "kB", "MB", "GB", "TB", "PB"};
	unsigned i = 0;

	while (v >= 1000 && i + 1 < NVS_ARRAY_SIZE(u)) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, i ? "%.1f %s" : "%.0f %s", v, u[i]);
}

static void print_table(const cJSON *all)
{
	const cJSON *x, *cn = cJSON_GetObjectItemCaseSensitive(all, "counts");
	unsigned nd = 0, nh = 0;

	printf("%-16s %-20s %-24s %-10s %10s %-7s %s\n", "HOST", "SERIAL", "MODEL", "FIRMWARE",
	       "CAPACITY", "VERDICT", "REASONS");
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(all, "drives"))
	{
		const cJSON *cap = cJSON_GetObjectItemCaseSensitive(x, "capacity_bytes"), *r;
		char capb[32] = "-", why[1024] = "";
		size_t k = 0;
		if (cJSON_IsNumber(cap))
			human_bytes(cap->valuedouble, capb, sizeof(capb));
		cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(x, "reasons"))
		{
			const char *s = cJSON_GetStringValue(r);
			if (s && k < sizeof(why))
				k += (size_t)snprintf(why + k, sizeof(why) - k, "%s%s",
						      k ? "; " : "", s);
		}
		printf("%-16s %-20s %-24.24s %-10s %10s %-7s %s\n", str_of(x, "host"),
		       str_of(x, "serial"), str_of(x, "model"), str_of(x, "firmware"), capb,
		       str_of(x, "verdict"), why[0] ? why : "-");
		nd++;
	}
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(all, "hosts")) nh++;
	printf("%u drive%s on %u host%s: %d PASS, %d WARN, %d FAIL, %d N/A%s\n", nd,
	       nd == 1 ? "" : "s", nh, nh == 1 ? "" : "s",
	       cJSON_GetObjectItemCaseSensitive(cn, "pass")->valueint,
	       cJSON_GetObjectItemCaseSensitive(cn, "warn")->valueint,
	       cJSON_GetObjectItemCaseSensitive(cn, "fail")->valueint,
	       cJSON_GetObjectItemCaseSensitive(cn, "na")->valueint,
	       cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(all, "interrupted")) ? " (interrupted)"
										  : "");
}

/* The exit status: 1 when a host could not be checked (named here) or any
 * host's is 1 (a FAIL, N/A, interrupted); else 2 when a host refused; 0. */
static int status_of(const struct cmd_entry *e, const struct hostcall *c, size_t n,
		     const bool *logged)
{
	bool one = false, two = false;

	for (size_t i = 0; i < n; i++) {
		if (c[i].status < 0)
			cmd_say(e, "%s: could not check: %s", c[i].host, c[i].error);
		else if (c[i].status && !c[i].result && !logged[i]) /* refused, not said yet */
			cmd_say(e, "%s: %s", c[i].host, c[i].error);
		one |= c[i].status < 0 || c[i].status == NVS_EXIT_IOERR;
		two |= c[i].status > 0 && c[i].status != NVS_EXIT_IOERR;
	}
	return one ? NVS_EXIT_IOERR : two ? NVS_EXIT_USAGE : NVS_EXIT_OK;
}

/* A string member of @x as a CSV field ("" when absent). */
static void csv_field(FILE *f, const cJSON *x, const char *key)
{
	const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(x, key));
	check_csv_str(f, v ? v : "");
}

/* --csv over hosts: the local check's columns with the host first, one
 * row per host + drive (a host that could not be checked: its N/A rows). */
static void write_csv(FILE *f, const cJSON *all)
{
	const cJSON *x, *r;

	fprintf(f, "host,serial,model,firmware,capacity_bytes,device,profile,verdict,reasons\n");
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(all, "drives"))
	{
		const cJSON *cap = cJSON_GetObjectItemCaseSensitive(x, "capacity_bytes");
		static const char *const col[] = {"host", "serial", "model", "firmware"};
		for (size_t k = 0; k < NVS_ARRAY_SIZE(col); k++) {
			csv_field(f, x, col[k]);
			fputc(',', f);
		}
		if (cJSON_IsNumber(cap) && cap->valuedouble >= 0)
			fprintf(f, "%.0f", cap->valuedouble);
		fputc(',', f);
		csv_field(f, x, "device");
		fputc(',', f);
		csv_field(f, x, "profile");
		fprintf(f, ",%s,\"", str_of(x, "verdict"));
		bool first = true; /* the reasons joined as the local CSV joins them */
		cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(x, "reasons"))
		{
			const char *t = cJSON_GetStringValue(r);
			if (!t || !*t)
				continue;
			if (!first)
				fputs("; ", f);
			first = false;
			for (; *t; t++) {
				if (*t == '"')
					fputc('"', f);
				fputc(*t == '\n' ? ' ' : *t, f);
			}
		}
		fputs("\"\n", f);
	}
}

static int refuse_options(const struct cmd_entry *e, const struct hostcmd *h,
			  const struct checkcmd *o, cJSON **params)
{
	for (size_t i = 0; i < hostcmd_count(h); i++) {
		int nt;
		params[i] = params_of(h, i, o, &nt);
		if (!nt && !o->all_nvme) {
			cmd_say(e,
				"%s: nothing to check on it (give --target %s:DEV or --all-nvme)",
				hostcmd_host(h, i), hostcmd_host(h, i));
			return -EINVAL;
		}
	}
	return 0;
}

int hostcmd_check(const struct cmd_entry *e, struct hostcmd *h, const struct checkcmd *o)
{
	size_t n = hostcmd_count(h);
	struct hostcall *c = calloc(n, sizeof(*c));
	cJSON **params = calloc(n, sizeof(*params)), **targets = calloc(n, sizeof(*targets));
	char(*phase)[64] = calloc(n, sizeof(*phase));
	bool *logged = calloc(n, sizeof(*logged));
	cJSON *all = NULL;
	FILE *csv = NULL;
	char err[512];
	int rc = NVS_EXIT_USAGE;

	if (!c || !params || !targets || !phase || !logged) {
		rc = -ENOMEM;
		goto out;
	}
	if (refuse_options(e, h, o, params))
		goto out;
	/* --csv: refused by the output rule before any host is asked */
	if (o->csv && !(csv = safety_fopen_output(o->csv, SAFETY_OUT_TRUNC, err, sizeof(err)))) {
		cmd_say(e, "--csv %s", err);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		c[i].host = hostcmd_host(h, i);
		targets[i] =
		    cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(params[i], "targets"), true);
		c[i].params = params[i];
		params[i] = NULL;
	}
	struct hostprog pg = {.e = e, .quiet = o->quiet, .phase = phase, .logged = logged, .h = h};
	stopsig_catch(on_signal, false);
	rc = hostcmd_call(h, "check", c, n, on_event, &pg, &stop_flag);
	stopsig_default();
	if (rc)
		goto out;
	all = merged_new(o);
	for (size_t i = 0; i < n; i++)
		merge_host(all, &c[i], targets[i]);
	const cJSON *x;
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(all, "drives"))
	    count(cJSON_GetObjectItemCaseSensitive(all, "counts"), str_of(x, "verdict"));
	if (o->json) {
		if ((rc = json_puts(all, stdout)))
			cmd_say(e, "cannot print the JSON: %s", strerror(-rc));
	} else {
		print_table(all);
	}
	rc = status_of(e, c, n, logged);
	if (csv) {
		write_csv(csv, all);
		int bad = ferror(csv) | fclose(csv);
		csv = NULL;
		if (bad) {
			cmd_say(e, "--csv %s: %s", o->csv, strerror(errno ? errno : EIO));
			rc = NVS_EXIT_IOERR;
		}
	}
out:
	for (size_t i = 0; params && targets && i < n; i++) {
		cJSON_Delete(params[i]);
		cJSON_Delete(targets[i]);
	}
	free(params);
	free(targets);
	free(phase);
	free(logged);
	cJSON_Delete(all);
	hostcall_clear(c, n);
	if (csv)
		fclose(csv);
	return rc;
}

/* agentreq.c - the agent's requests (agent.h): the same code as `nvscope
 * list --json`, `nvscope health --json` and `nvscope check --json`, every
 * path a client names judged by the --allow list first. */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "cmd/agent.h"
#include "cmd/checkcmd.h"
#include "cmd/cmd.h"
#include "check/out.h"
#include "check/run.h"
#include "dev/devmodel.h"
#include "dev/purge.h"
#include "dev/probe.h"
#include "ring/spsc.h"
#include "run/allow.h"
#include "run/proto.h"

static int refuse(struct agent_job *j, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int refuse(struct agent_job *j, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(j->error, sizeof(j->error), fmt, ap);
	va_end(ap);
	j->status = status;
	return status;
}

/* What @fn prints to a memory stream, as a malloc'ed string. */
static char *text_of(void (*fn)(const void *x, const void *y, FILE *f), const void *x,
		     const void *y)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return NULL;
	fn(x, y, m);
	if (fclose(m)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void put_table(const void *l, const void *y, FILE *f)
{
	(void)y;
	dev_list_print_table(l, f);
}

static void put_tree(const void *l, const void *y, FILE *f)
{
	(void)y;
	dev_list_print_tree(l, f);
}

static void put_health(const void *h, const void *dev, FILE *f)
{
	dev_health_print(h, dev, f);
}

static bool allowed(const struct agent_job *j, const char *path)
{
	char err[512];
	return !allow_check(j->allow, path, err, sizeof(err));
}

/* --allow: only the allowed namespaces, controllers and block devices,
 * each probed (its usage) only once it is kept. */
static void filter_list(const struct agent_job *j, struct dev_list *l)
{
	size_t kc = 0, kb = 0;

	for (size_t c = 0; c < l->nr_ctrls; c++) {
		struct dev_ctrl *ct = &l->ctrls[c];
		size_t kn = 0;
		for (size_t i = 0; i < ct->nr_namespaces; i++) {
			struct dev_ns *ns = &ct->namespaces[i];
			if (allowed(j, ns->block_device) ||
			    (ns->generic_device[0] && allowed(j, ns->generic_device))) {
				probe_usage(ns->block_device, &ns->in_use);
				ct->namespaces[kn++] = *ns;
			}
		}
		ct->nr_namespaces = kn;
		if (kn || allowed(j, ct->path))
			l->ctrls[kc++] = *ct;
		else
			free(ct->namespaces);
	}
	l->nr_ctrls = kc;
	for (size_t b = 0; b < l->nr_blocks; b++)
		if (allowed(j, l->blocks[b].path)) {
			probe_usage(l->blocks[b].path, &l->blocks[b].in_use);
			l->blocks[kb++] = l->blocks[b];
		}
	l->nr_blocks = kb;
}

/* "health": true (a console watching the host): each controller's health
 * log in its "health" (null when it could not be read). */
static void add_health(const struct dev_list *l, cJSON *devs)
{
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(devs, "controllers");

	for (size_t i = 0; i < l->nr_ctrls; i++) {
		cJSON *c = cJSON_GetArrayItem(arr, (int)i);
		struct dev_health h;
		char err[256];
		int st;

		if (!c)
			return;
		if (!dev_health_read(l->ctrls[i].path, &h, &st, err, sizeof(err)))
			cJSON_AddItemToObject(c, "health", dev_health_to_json(&h, NULL));
		else
			cJSON_AddNullToObject(c, "health");
	}
}

static int do_list(struct agent_job *j)
{
	char err[512];
	const char *fmt = proto_get_str(j->params, "format", 16);
	const cJSON *files = cJSON_GetObjectItemCaseSensitive(j->params, "files"), *f;
	struct dev_list *l = j->allow ? dev_scan_ids(err, sizeof(err)) : dev_scan(err, sizeof(err));
	cJSON *res;

	if (!l)
		return refuse(j, NVS_EXIT_IOERR, "%s", err);
	if (j->allow)
		filter_list(j, l);
	cJSON_ArrayForEach(f, files)
	{
		const char *p = cJSON_GetStringValue(f);
		int rc = p ? allow_check(j->allow, p, err, sizeof(err)) : -EINVAL;
		if (!rc && (rc = dev_list_add_file(l, p)))
			snprintf(err, sizeof(err), "%s: cannot stat it", p);
		if (rc) {
			dev_list_free(l);
			return refuse(j, NVS_EXIT_USAGE, "%s",
				      p ? err : "a file that is not a string");
		}
	}
	res = cJSON_CreateObject();
	cJSON *devs = dev_list_to_json(l);
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j->params, "health")))
		add_health(l, devs);
	cJSON_AddItemToObject(res, "devices", devs);
	if (fmt && strcmp(fmt, "json")) {
		char *t = text_of(strcmp(fmt, "tree") ? put_table : put_tree, l, NULL);
		cJSON_AddStringToObject(res, "text", t ? t : "");
		free(t);
	}
	dev_list_free(l);
	j->result = res;
	return j->status = NVS_EXIT_OK;
}

/* One device's health into @arr (and its text into @text); its status. */
static int health_one(struct agent_job *j, const char *dev, cJSON *arr, FILE *text)
{
	struct dev_health h;
	char err[512];
	int st = 0, rc = allow_check(j->allow, dev, err, sizeof(err));
	cJSON *o;

	if (!rc)
		rc = dev_health_read(dev, &h, &st, err, sizeof(err));
	if (rc) {
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "device", dev);
		cJSON_AddStringToObject(o, "error", err);
		cJSON_AddItemToArray(arr, o);
		fprintf(text, "%s\n", err);
		if (!j->error[0])
			snprintf(j->error, sizeof(j->error), "%s", err);
		return cmd_exit_of(rc);
	}
	cJSON_AddItemToArray(arr, dev_health_to_json(&h, dev));
	char *t = text_of(put_health, &h, dev);
	fputs(t ? t : "", text);
	free(t);
	return 0;
}

static int do_health(struct agent_job *j)
{
	const cJSON *devs = cJSON_GetObjectItemCaseSensitive(j->params, "devices"), *d;
	cJSON *res = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(res, "health");
	char *buf = NULL;
	size_t len = 0;
	FILE *text = open_memstream(&buf, &len);
	int worst = 0;

	if (!text || !cJSON_IsArray(devs) || cJSON_GetArraySize(devs) > NVS_MAX_TARGETS) {
		if (text)
			fclose(text);
		free(buf);
		cJSON_Delete(res);
		return refuse(j, NVS_EXIT_USAGE, "health: give \"devices\" (at most %d)",
			      NVS_MAX_TARGETS);
	}
	cJSON_ArrayForEach(d, devs)
	{
		const char *p = cJSON_GetStringValue(d);
		int st = p ? health_one(j, p, arr, text) : NVS_EXIT_USAGE;
		worst = st > worst ? st : worst;
	}
	fclose(text);
	cJSON_AddStringToObject(res, "text", buf ? buf : "");
	free(buf);
	j->result = res;
	return j->status = worst;
}

/* ---- check ---- */

static int allow_fn(void *arg, const char *path, char *err, size_t errlen)
{
	const struct agent_job *j = arg;
	return allow_check(j->allow, path, err, errlen);
}

static void tick_fn(const struct check_batch *b, void *arg)
{
	struct agent_job *j = arg;
	struct agent_prog p = {.phase = atomic_load(&b->phase)};
	unsigned sum = 0;

	snprintf(p.name, sizeof(p.name), "%s", check_phase_name(b, p.phase));
	unsigned in = 0;
	for (size_t i = 0; i < b->n; i++)
		if (atomic_load(&b->d[i].phase) == p.phase) {
			in++;
			sum += (unsigned)atomic_load(&b->d[i].permille);
		}
	p.drives = (unsigned)b->n; /* as the local progress line says */
	p.permille = in ? sum / in : 0;
	spsc_push(j->prog, &p); /* full: this one dropped, the next says the same */
}

static void print_batch(const void *b, const void *y, FILE *f)
{
	(void)y;
	check_print_table(b, f);
}

static void out_fn(const struct check_batch *b, void *batch, const char *dir, void *arg)
{
	struct agent_job *j = arg;
	cJSON *res = cJSON_CreateObject();
	char *t = text_of(print_batch, b, NULL);

	(void)dir;
	cJSON_AddItemToObject(res, "batch", cJSON_Duplicate(batch, true));
	cJSON_AddStringToObject(res, "text", t ? t : "");
	free(t);
	j->result = res;
}

/* An output directory an agent with --allow may make: relative (under
 * its working directory), no "..". */
static bool tame_dir(const char *d)
{
	if (d[0] == '/')
		return false;
	for (const char *p = d; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 2 && !strncmp(p, "..", 2))
			return false;
		p += n + (p[n] == '/');
	}
	return true;
}

/* "resume": DIR (a check interrupted on this host): nothing else names
 * drives or a profile; with --allow, DIR as tame as -o's.  0, or the
 * status refused with. */
static int resume_params(struct agent_job *j, struct checkcmd *o, const cJSON *targets)
{
	if (targets || o->profile || o->model || o->dir || o->all_nvme)
		return refuse(j, NVS_EXIT_USAGE,
			      "check: resume takes the drives and profile from its directory");
	if (!o->resume[0])
		return refuse(j, NVS_EXIT_USAGE, "check: resume: give a directory");
	if (j->allow && !tame_dir(o->resume))
		return refuse(
		    j, NVS_EXIT_USAGE,
		    "refusing --resume %s: this agent runs with --allow and keeps results "
		    "only under its own directory (a relative path without ..)",
		    o->resume);
	return 0;
}

/* The request's params into @o; 0, or the status refused with. */
static int check_params(struct agent_job *j, struct checkcmd *o)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(j->params, "targets"), *x;

	o->profile = proto_get_str(j->params, "profile", 4095);
	o->model = proto_get_str(j->params, "model", 63);
	o->dir = proto_get_str(j->params, "output", 4095);
	o->confirm = proto_get_str(j->params, "confirm", 4095);
	o->resume = proto_get_str(j->params, "resume", 4095);
	o->all_nvme = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j->params, "all_nvme"));
	o->force = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j->params, "force"));
	if (o->resume) /* the drives and profile are the state's (check.c) */
		return resume_params(j, o, t);
	if (!o->profile)
		return refuse(j, NVS_EXIT_USAGE, "check: no profile");
	if (t && (!cJSON_IsArray(t) || cJSON_GetArraySize(t) > NVS_MAX_TARGETS))
		return refuse(j, NVS_EXIT_USAGE, "check: at most %d targets", NVS_MAX_TARGETS);
	cJSON_ArrayForEach(x, t)
	{
		char why[512];
		if (!cJSON_IsString(x) || !x->valuestring[0])
			return refuse(j, NVS_EXIT_USAGE, "check: a target that is not a path");
		/* --allow first: a target not allowed is refused before anything */
		if (allow_check(j->allow, x->valuestring, why, sizeof(why)))
			return refuse(j, NVS_EXIT_USAGE, "%s", why);
		o->targets[o->ntargets++] = x->valuestring;
	}
	if (!o->ntargets == !o->all_nvme)
		return refuse(j, NVS_EXIT_USAGE, "check: give targets or all_nvme");
	if (j->allow && strchr(o->profile, '/'))
		return refuse(j, NVS_EXIT_USAGE,
			      "refusing profile %s: this agent runs with --allow and takes only "
			      "the profiles installed on the host, by name",
			      o->profile);
	if (j->allow && o->dir && !tame_dir(o->dir))
		return refuse(j, NVS_EXIT_USAGE,
			      "refusing -o %s: this agent runs with --allow and writes results "
			      "only under its own directory (a relative path without ..)",
			      o->dir);
	return 0;
}

static int do_check(struct agent_job *j)
{
	struct checkcmd o = {.quiet = true,
			     .json = true,
			     .allow = j->allow ? allow_fn : NULL,
			     .allow_arg = j,
			     .tick = tick_fn,
			     .tick_arg = j,
			     .cancel = &j->cancel,
			     .out = out_fn,
			     .out_arg = j};

	if (check_params(j, &o))
		return j->status;
	return j->status = checkcmd_run(&o);
}

/* "purge" {"devices":[...],"method","ses","confirm","force"}: the options
 * as `nvscope purge` reads them (ses only with format); every device
 * allowed (--allow) before any is touched. */
static int purge_params(struct agent_job *j, struct purge_opts *o, const cJSON **devs)
{
	const char *method = proto_get_str(j->params, "method", 32);
	const cJSON *d;
	uint64_t ses = 0;

	*devs = cJSON_GetObjectItemCaseSensitive(j->params, "devices");
	o->confirm = proto_get_str(j->params, "confirm", 4095);
	o->force = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j->params, "force"));
	if (!cJSON_IsArray(*devs) || !cJSON_GetArraySize(*devs) ||
	    cJSON_GetArraySize(*devs) > NVS_MAX_TARGETS)
		return refuse(j, NVS_EXIT_USAGE, "purge: give \"devices\" (1 to %d)",
			      NVS_MAX_TARGETS);
	if (!method || purge_parse_method(method, &o->method))
		return refuse(j, NVS_EXIT_USAGE, "purge: unknown method '%s'",
			      method ? method : "");
	if (cJSON_GetObjectItemCaseSensitive(j->params, "ses") &&
	    proto_get_u64(j->params, "ses", 2, &ses))
		return refuse(j, NVS_EXIT_USAGE, "purge: ses must be 0, 1 or 2");
	if (ses && o->method != PURGE_FORMAT)
		return refuse(j, NVS_EXIT_USAGE, "purge: ses applies to the format method only");
	o->ses = (int)ses;
	cJSON_ArrayForEach(d, *devs)
	{
		char why[512];
		if (!cJSON_IsString(d) || !d->valuestring[0])
			return refuse(j, NVS_EXIT_USAGE, "purge: a device that is not a path");
		if (allow_check(j->allow, d->valuestring, why, sizeof(why)))
			return refuse(j, NVS_EXIT_USAGE, "%s", why);
	}
	return 0;
}

/* Each device purged in turn as `nvscope purge` purges it on this host
 * (purge_run: the confirmation, in-use and data rules are this host's);
 * its line and {"device","status","error"}; the worst status. */
static int do_purge(struct agent_job *j)
{
	struct purge_opts o = {0};
	const cJSON *devs, *d;
	char *buf = NULL;
	size_t len = 0;
	int worst = 0;

	if (purge_params(j, &o, &devs))
		return j->status;
	FILE *text = open_memstream(&buf, &len);
	cJSON *res = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(res, "purged");
	if (!text || !arr) {
		if (text)
			fclose(text);
		free(buf);
		cJSON_Delete(res);
		return refuse(j, NVS_EXIT_IOERR, "out of memory");
	}
	cJSON_ArrayForEach(d, devs)
	{
		char err[512] = "";
		int nst = 0, rc = atomic_load(&j->cancel) ? -ECANCELED : 0;
		if (rc)
			snprintf(err, sizeof(err), "%s: not purged: cancelled", d->valuestring);
		else
			rc = purge_run(d->valuestring, &o, &nst, err, sizeof(err));
		int st = rc ? cmd_exit_of(rc) : 0;
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "device", d->valuestring);
		cJSON_AddNumberToObject(x, "status", st);
		if (rc)
			cJSON_AddStringToObject(x, "error", err);
		else
			cJSON_AddNullToObject(x, "error");
		cJSON_AddItemToArray(arr, x);
		if (rc)
			fprintf(text, "%s\n", err);
		else
			fprintf(text, "purge: %s done on %s\n",
				proto_get_str(j->params, "method", 32), d->valuestring);
		worst = st > worst ? st : worst;
	}
	fclose(text);
	cJSON_AddStringToObject(res, "text", buf ? buf : "");
	free(buf);
	j->result = res;
	return j->status = worst;
}

void agent_job_run(struct agent_job *j)
{
	if (!strcmp(j->method, "list"))
		do_list(j);
	else if (!strcmp(j->method, "health"))
		do_health(j);
	else if (!strcmp(j->method, "check"))
		do_check(j);
	else if (!strcmp(j->method, "run"))
		agentrun_do(j);
	else if (!strcmp(j->method, "purge"))
		do_purge(j);
	else
		refuse(j, NVS_EXIT_USAGE, "unknown request '%s' (this agent is nvscope %s)",
		       j->method, NVS_VERSION);
}

/* hostlist.c - `nvscope list`, `nvscope health` and `nvscope purge` over hosts
 * (docs/hosts.md): one request per host, all together; the JSON is one
 * tree with "host" on every controller, block device and health log, and
 * each host's state under "hosts"; the text is grouped by host. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "cmd/hostcmd.h"
#include "report/json.h"

/* An agent's log line on stderr, named by its host. */
static void on_log(struct remote *r, const struct proto_msg *m, void *arg)
{
	const struct cmd_entry *e = arg;
	const char *text = proto_get_str(m->body, "text", PROTO_MAX_STR);

	if (!strcmp(m->str, "log") && text)
		cmd_say(e, "%s: %s", remote_name(r), hostcmd_log_text(text));
}

/* {"host":..., "reachable":bool, "status":N|null, "error":...} */
static cJSON *host_state(const struct hostcall *c)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "host", c->host);
	cJSON_AddBoolToObject(o, "reachable", c->status >= 0);
	if (c->status >= 0)
		cJSON_AddNumberToObject(o, "status", c->status);
	else
		cJSON_AddNullToObject(o, "status");
	if (c->error[0])
		cJSON_AddStringToObject(o, "error", c->error);
	else
		cJSON_AddNullToObject(o, "error");
	return o;
}

/* Moves every object of array @key of @from into @to, each with "host". */
static void move_tagged(cJSON *from, const char *key, cJSON *to, const char *host)
{
	cJSON *arr = cJSON_GetObjectItemCaseSensitive(from, key), *x;

	while (cJSON_IsArray(arr) && (x = cJSON_DetachItemFromArray(arr, 0))) {
		if (cJSON_IsObject(x)) {
			cJSON_DeleteItemFromObjectCaseSensitive(x, "host");
			cJSON_AddStringToObject(x, "host", host);
			cJSON_AddItemToArray(to, x);
		} else {
			cJSON_Delete(x);
		}
	}
}

/* The exit status over hosts: 1 when a host could not be asked or failed,
 * else the worst of the hosts' own; every failure named on stderr. */
static int worst(const struct cmd_entry *e, const struct hostcall *c, size_t n)
{
	int rc = 0;
	bool lost = false;

	for (size_t i = 0; i < n; i++) {
		if (c[i].error[0])
			cmd_say(e, "%s: %s", c[i].host, c[i].error);
		if (c[i].status < 0)
			lost = true;
		else if (c[i].status > rc)
			rc = c[i].status;
	}
	return lost ? NVS_EXIT_IOERR : rc;
}

static void print_text(const struct hostcall *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *t = proto_get_str(c[i].result, "text", PROTO_MAX_PAYLOAD);
		printf("%s%s:%s%s\n", i ? "\n" : "", c[i].host, c[i].status < 0 ? " " : "",
		       c[i].status < 0 ? c[i].error : "");
		if (t)
			fputs(t, stdout);
	}
}

/* The answer: the gathered tree @o as JSON (freed), or the hosts' text
 * when @o is NULL; then the exit of the worst host. */
static int emit(const struct cmd_entry *e, cJSON *o, const struct hostcall *c, size_t n)
{
	int rc = 0;
	if (o) {
		if ((rc = json_puts(o, stdout)))
			cmd_say(e, "cannot print the JSON: %s", strerror(-rc));
		cJSON_Delete(o);
	} else {
		print_text(c, n);
	}
	return rc ? rc : worst(e, c, n);
}

static struct hostcall *calls_new(const struct hostcmd *h)
{
	size_t n = hostcmd_count(h);
	struct hostcall *c = calloc(n ? n : 1, sizeof(*c));

	for (size_t i = 0; c && i < n; i++)
		c[i].host = hostcmd_host(h, i);
	return c;
}

int hostcmd_list(const struct cmd_entry *e, const struct hostcmd *h, const struct cmd_args *a,
		 bool json, bool tree)
{
	size_t n = hostcmd_count(h);
	struct hostcall *c = calls_new(h);
	int rc;

	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		cJSON *p = cJSON_CreateObject(), *files = cJSON_AddArrayToObject(p, "files");
		cJSON_AddStringToObject(p, "format", json ? "json" : tree ? "tree" : "table");
		for (unsigned k = 0; k < a->npos; k++)
			cJSON_AddItemToArray(files, cJSON_CreateString(a->pos[k]));
		c[i].params = p;
	}
	if ((rc = hostcmd_call(h, "list", c, n, on_log, (void *)e, NULL)))
		goto out;
	if (json) {
		cJSON *o = cJSON_CreateObject(), *hs = cJSON_AddArrayToObject(o, "hosts"),
		      *ctrl = cJSON_AddArrayToObject(o, "controllers"),
		      *blk = cJSON_AddArrayToObject(o, "block_devices");
		for (size_t i = 0; i < n; i++) {
			cJSON *dv = cJSON_GetObjectItemCaseSensitive(c[i].result, "devices");
			cJSON_AddItemToArray(hs, host_state(&c[i]));
			move_tagged(dv, "controllers", ctrl, c[i].host);
			move_tagged(dv, "block_devices", blk, c[i].host);
		}
		rc = emit(e, o, c, n);
	} else {
		rc = emit(e, NULL, c, n);
	}
out:
	hostcall_clear(c, n);
	return rc;
}

/* health and purge over hosts: DEV on every named host, HOST:DEV on its
 * host (@what: what a host without one was not given, "read" or "purge"). */
static int dev_params(const struct cmd_entry *e, const struct hostcmd *h, const struct cmd_args *a,
		      struct hostcall *c, const char *what)
{
	size_t n = hostcmd_count(h);
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		c[i].params = cJSON_CreateObject();
		cJSON_AddArrayToObject(c[i].params, "devices");
	}
	for (unsigned k = 0; k < a->npos && !rc; k++) {
		char *host, *path;
		if ((rc = hostcmd_split(a->pos[k], &host, &path)))
			break;
		for (size_t i = 0; i < n; i++)
			if (host[0] ? !strcmp(host, c[i].host) : i < h->nnamed)
				cJSON_AddItemToArray(
				    cJSON_GetObjectItemCaseSensitive(c[i].params, "devices"),
				    cJSON_CreateString(path));
		free(host);
		free(path);
	}
	for (size_t i = 0; i < n && !rc; i++)
		if (!cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(c[i].params, "devices"))) {
			cmd_say(e, "%s: no device to %s (give DEV or %s:DEV)", c[i].host, what,
				c[i].host);
			rc = -EINVAL;
		}
	return rc;
}

/* The hosts of the device arguments @a and each one's devices (@what:
 * "read", "purge" for the line of a host given none): *@c, or -errno. */
static int dev_calls(const struct cmd_entry *e, struct hostcmd *h, const struct cmd_args *a,
		     const char *what, struct hostcall **c)
{
	bool remote;
	int rc;

	*c = NULL;
	if ((rc = hostcmd_targets(h, e, (const char *const *)a->pos, a->npos, &remote)))
		return rc;
	if (!(*c = calls_new(h)))
		return -ENOMEM;
	if ((rc = dev_params(e, h, a, *c, what))) {
		hostcall_clear(*c, hostcmd_count(h));
		*c = NULL;
	}
	return rc;
}

int hostcmd_health(const struct cmd_entry *e, struct hostcmd *h, const struct cmd_args *a,
		   bool json)
{
	size_t n = 0;
	struct hostcall *c;
	int rc;

	if ((rc = dev_calls(e, h, a, "read", &c)))
		return rc;
	n = hostcmd_count(h);
	if ((rc = hostcmd_call(h, "health", c, n, on_log, (void *)e, NULL)))
		goto out;
	if (json) {
		cJSON *o = cJSON_CreateObject(), *hs = cJSON_AddArrayToObject(o, "hosts"),
		      *all = cJSON_AddArrayToObject(o, "health");
		for (size_t i = 0; i < n; i++) {
			cJSON_AddItemToArray(hs, host_state(&c[i]));
			move_tagged(c[i].result, "health", all, c[i].host);
		}
		rc = emit(e, o, c, n);
	} else {
		rc = emit(e, NULL, c, n);
	}
out:
	hostcall_clear(c, n);
	return rc;
}

int hostcmd_purge(const struct cmd_entry *e, struct hostcmd *h, const struct cmd_args *a,
		  const struct hostpurge *p)
{
	size_t n;
	struct hostcall *c;
	int rc;

	if ((rc = dev_calls(e, h, a, "purge", &c)))
		return rc;
	n = hostcmd_count(h);
	for (size_t i = 0; i < n; i++) {
		cJSON_AddStringToObject(c[i].params, "method", p->method);
		if (p->ses)
			cJSON_AddNumberToObject(c[i].params, "ses", p->ses);
		if (p->confirm)
			cJSON_AddStringToObject(c[i].params, "confirm", p->confirm);
		cJSON_AddBoolToObject(c[i].params, "force", p->force);
	}
	if (!(rc = hostcmd_call(h, "purge", c, n, on_log, (void *)e, NULL)))
		rc = emit(e, NULL, c, n);
	hostcall_clear(c, n);
	return rc;
}

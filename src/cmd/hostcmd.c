/* hostcmd.c - the host options, HOST:PATH targets and one request on many
 * hosts together (hostcmd.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "cmd/hostcmd.h"
#include "base/num.h"
#include "config/hosts.h"

int hostcmd_take(struct hostcmd *h, const struct cmd_entry *e, const struct cmd_args *a)
{
	char err[512];
	int rc = 0;
	const char *env = getenv("NVSCOPE_SSH");

	memset(h, 0, sizeof(*h));
	if (!(h->hosts = hosts_list_new())) {
		cmd_say(e, "out of memory");
		return -ENOMEM;
	}
	h->ro.ssh = env && *env ? env : NULL;
	for (unsigned i = 0; i < a->nopt && !rc; i++) {
		const char *v = a->opt[i].val;
		uint64_t ns;
		switch (a->opt[i].id) {
		case HOSTCMD_O_HOST:
			rc = hosts_list_add(h->hosts, v, err, sizeof(err));
			break;
		case HOSTCMD_O_HOSTS:
			rc = hosts_list_add_file(h->hosts, v, err, sizeof(err));
			break;
		case HOSTCMD_O_SSH:
			h->ro.ssh = v[0] ? v : NULL;
			break;
		case HOSTCMD_O_REMOTE:
			h->ro.nvscope = v;
			break;
		case HOSTCMD_O_TIMEOUT:
			if (num_parse_time_ns(v, NVS_NSEC_PER_SEC, &ns) || !ns ||
			    ns > 3600 * NVS_NSEC_PER_SEC) {
				snprintf(err, sizeof(err),
					 "--connect-timeout %s: give a time from 1ms to 1h", v);
				rc = -EINVAL;
			}
			h->ro.hello_ns = ns;
			break;
		}
	}
	if (!rc && h->ro.nvscope && !h->ro.nvscope[0]) {
		snprintf(err, sizeof(err), "--remote-nvscope: give a path");
		rc = -EINVAL;
	}
	if (rc) {
		cmd_say(e, "%s", err);
		hostcmd_clear(h);
		return rc;
	}
	h->nnamed = hosts_list_count(h->hosts);
	return 0;
}

void hostcmd_clear(struct hostcmd *h)
{
	hosts_list_free(h->hosts);
	h->hosts = NULL;
}

bool hostcmd_over(const struct hostcmd *h, const struct cmd_args *a)
{
	bool remote = h->nnamed > 0;

	for (unsigned i = 0; i < a->npos && !remote; i++) {
		char *host = NULL, *path = NULL;
		if (!hostcmd_split(a->pos[i], &host, &path))
			remote = host[0];
		free(host);
		free(path);
	}
	return remote;
}

size_t hostcmd_count(const struct hostcmd *h)
{
	return hosts_list_count(h->hosts);
}

const char *hostcmd_host(const struct hostcmd *h, size_t i)
{
	return hosts_list_get(h->hosts, i);
}

int hostcmd_split(const char *t, char **host, char **path)
{
	char err[256];
	int rc;

	*host = *path = NULL;
	rc = hosts_split_target(t, host, path, err, sizeof(err));
	if (rc < 0) {
		free(*host);
		free(*path);
		*host = *path = NULL;
	}

	if (rc == 0) {
		*host = strdup("");
		*path = strdup(t);
	}
	if (rc >= 0 && (!*host || !*path)) {
		free(*host);
		free(*path);
		return -ENOMEM;
	}
	return rc < 0 ? rc : 0;
}

static bool has_host(const struct hostcmd *h, const char *dest)
{
	for (size_t i = 0; i < hostcmd_count(h); i++)
		if (!strcmp(hostcmd_host(h, i), dest))
			return true;
	return false;
}

int hostcmd_targets(struct hostcmd *h, const struct cmd_entry *e, const char *const *t, size_t n,
		    bool *remote)
{
	char err[512];
	bool local = false;

	for (size_t i = 0; i < n; i++) {
		char *dest = NULL, *path = NULL;
		int rc = hosts_split_target(t[i], &dest, &path, err, sizeof(err));
		if (rc < 0) {
			cmd_say(e, "%s", err);
			return rc;
		}
		if (rc == 1 && !has_host(h, dest))
			rc = hosts_list_add(h->hosts, dest, err, sizeof(err)) ? -EINVAL : 1;
		local |= rc == 0;
		free(dest);
		free(path);
		if (rc < 0) {
			cmd_say(e, "%s", err);
			return rc;
		}
	}
	*remote = hostcmd_count(h) > 0;
	if (*remote && local && !h->nnamed) {
		cmd_say(e, "local and remote targets together are not built yet: name the local "
			   "machine as a host too (HOST:PATH)");
		return -EINVAL;
	}
	return 0;
}

const char *hostcmd_log_text(const char *text)
{
	if (!strncmp(text, "nvscope ", 8)) {
		const char *c = strstr(text, ": ");
		if (c && (size_t)(c - text) < 32 && !memchr(text + 8, ' ', (size_t)(c - text - 8)))
			return c + 2;
	}
	return text;
}

/* Takes the reply of @r into @c. */
static void take(struct remote *r, struct hostcall *c)
{
	const struct proto_msg *m = remote_reply(r);

	if (!m) {
		c->status = -1;
		snprintf(c->error, sizeof(c->error), "%s",
			 remote_state(r) == REMOTE_FAILED ? remote_error(r) : "no reply");
		return;
	}
	c->status = m->status;
	if (m->str)
		snprintf(c->error, sizeof(c->error), "%s", hostcmd_log_text(m->str));
	if (m->body)
		c->result = cJSON_DetachItemViaPointer(m->root, m->body);
}

int hostcmd_call(const struct hostcmd *h, const char *method, struct hostcall *c, size_t n,
		 remote_event_fn fn, void *arg, const _Atomic int *stop)
{
	struct remote **rs = calloc(n ? n : 1, sizeof(*rs));
	bool cancelled = false;

	if (!rs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		c[i].status = -1;
		rs[i] = remote_new(c[i].host, &h->ro, c[i].error, sizeof(c[i].error));
		if (!rs[i]) {
			cJSON_Delete(c[i].params);
		} else if (!remote_start(rs[i])) {
			remote_request(rs[i], method, c[i].params);
		} else {
			cJSON_Delete(c[i].params);
		}
		c[i].params = NULL;
	}
	while (remote_poll(rs, n, 200, fn, arg)) {
		if (stop && atomic_load(stop) && !cancelled) {
			for (size_t i = 0; i < n; i++)
				if (rs[i])
					remote_cancel(rs[i]);
			cancelled = true;
		}
	}
	for (size_t i = 0; i < n; i++)
		if (rs[i])
			take(rs[i], &c[i]);
	remote_close_all(rs, n);
	free(rs);
	return 0;
}

void hostcall_clear(struct hostcall *c, size_t n)
{
	for (size_t i = 0; c && i < n; i++) {
		cJSON_Delete(c[i].params);
		cJSON_Delete(c[i].result);
	}
	free(c);
}

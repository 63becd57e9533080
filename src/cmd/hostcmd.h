/* hostcmd.h - the headless commands over hosts (docs/hosts.md): the
 * options every such command takes (--host, --hosts, --ssh,
 * --remote-nvscope, --connect-timeout), HOST:PATH targets, and one request
 * run on many hosts together through run/remote (one poll loop, every
 * wait with a deadline).  list, health (hostlist.c) and check
 * (hostcheck.c) use it. */
#ifndef NVS_CMD_HOSTCMD_H
#define NVS_CMD_HOSTCMD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include "cmd/cmd.h"
#include "run/remote.h"

/* The option ids (beyond every command's own). */
enum {
	HOSTCMD_O_HOST = 1000,
	HOSTCMD_O_HOSTS,
	HOSTCMD_O_SSH,
	HOSTCMD_O_REMOTE,
	HOSTCMD_O_TIMEOUT,
};

/* clang-format off */
#define HOSTCMD_OPTS                                                                             \
	{{"host", required_argument, NULL, HOSTCMD_O_HOST}, 0, "DEST",                           \
	 "on host DEST over ssh ([user@]host[:port]; a range\n"                                  \
	 "rack3-n[01-16] for many); repeat for more"},                                            \
	{{"hosts", required_argument, NULL, HOSTCMD_O_HOSTS}, 0, "FILE",                          \
	 "on the hosts of FILE (one a line, # comments)"},                                        \
	{{"ssh", required_argument, NULL, HOSTCMD_O_SSH}, 0, "CMD",                               \
	 "the ssh command, run by sh -c (default $NVSCOPE_SSH,\n"                                \
	 "else ssh)"},                                                                             \
	{{"remote-nvscope", required_argument, NULL, HOSTCMD_O_REMOTE}, 0, "PATH",                \
	 "nvscope on the hosts (default nvscope)"},                                              \
	{{"connect-timeout", required_argument, NULL, HOSTCMD_O_TIMEOUT}, 0, "TIME",              \
	 "a host that has not answered within TIME fails\n"                                      \
	 "(default 10s)"}
/* clang-format on */

struct hosts_list;

struct hostcmd {
	struct hosts_list *hosts; /* --host, --hosts, then the hosts of HOST:PATH targets */
	size_t nnamed;		  /* how many of them --host and --hosts named */
	struct remote_opts ro;
};

/* Reads the host options of @a for command @e into @h (freed by
 * hostcmd_clear).  0, or -EINVAL / -ENOENT said (a bad destination,
 * range, hosts file or time). */
int hostcmd_take(struct hostcmd *h, const struct cmd_entry *e, const struct cmd_args *a);
void hostcmd_clear(struct hostcmd *h);
/* Splits targets @t[0..@n) (HOST:PATH or PATH) and adds the hosts they name
 * to @h.  *@remote: some host is named (by an option or a target).  0, or
 * -EINVAL said. */
int hostcmd_targets(struct hostcmd *h, const struct cmd_entry *e, const char *const *t, size_t n,
		    bool *remote);
/* The host of target @t ("" for a local PATH) into @host, its path into
 * @path (pointers into malloc'ed strings the caller frees). */
int hostcmd_split(const char *t, char **host, char **path);
/* Is a command of device arguments @a (DEV or HOST:DEV) one over hosts:
 * --host/--hosts named some, or an argument names its host? */
bool hostcmd_over(const struct hostcmd *h, const struct cmd_args *a);
size_t hostcmd_count(const struct hostcmd *h);
const char *hostcmd_host(const struct hostcmd *h, size_t i);

/* One host's request and what came of it. */
struct hostcall {
	const char *host;
	void *params;	 /* the request's params (cJSON *; taken by hostcmd_call) */
	int status;	 /* its exit status on the host; -1: could not be asked */
	void *result;	 /* the reply's result (cJSON *), or NULL */
	char error[768]; /* why it failed: the transport's line or the reply's error */
};

/* Runs @method on every host of @c[0..@n) together, events to @fn, until
 * every one replied or failed; @stop (may be NULL) non-zero: the running
 * requests are cancelled (they reply, interrupted).  0, or -ENOMEM. */
int hostcmd_call(const struct hostcmd *h, const char *method, struct hostcall *c, size_t n,
		 remote_event_fn fn, void *arg, const _Atomic int *stop);
void hostcall_clear(struct hostcall *c, size_t n);
/* An agent's log line for the user: @text without its "nvscope CMD: " start. */
const char *hostcmd_log_text(const char *text);

/* The commands over hosts (after their local options are read). */
int hostcmd_list(const struct cmd_entry *e, const struct hostcmd *h, const struct cmd_args *a,
		 bool json, bool tree);
int hostcmd_health(const struct cmd_entry *e, struct hostcmd *h, const struct cmd_args *a,
		   bool json);
/* purge over hosts: each host's agent purges its devices as `nvscope
 * purge` does there (its confirmation, in-use and data rules). */
struct hostpurge {
	const char *method;  /* format, sanitize-block, ... (checked by the agent) */
	int ses;	     /* format's secure erase */
	const char *confirm; /* --yes-destroy-data: a token per device, comma list */
	bool force;	     /* --force-destroy */
};
int hostcmd_purge(const struct cmd_entry *e, struct hostcmd *h, const struct cmd_args *a,
		  const struct hostpurge *p);
struct checkcmd;
int hostcmd_check(const struct cmd_entry *e, struct hostcmd *h, const struct checkcmd *o);

#endif

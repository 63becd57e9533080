/* remote.h - a host over ssh: `ssh DEST 'nvscope' 'agent'` as a child
 * process (posix_spawn), speaking run/proto.h on its stdin/stdout
 * (docs/hosts.md).
 *
 * The command is `ssh` or, as git's GIT_SSH_COMMAND, the user's command
 * line run by /bin/sh -c with the arguments appended; the arguments are
 * -T, -o BatchMode=yes (never a prompt), -p PORT when the destination has
 * one, --, the destination and the remote command (each word single-quoted
 * for the remote shell).  The child is a process group of its own, killed
 * as a group when the host fails.
 *
 * Many hosts are driven together from one thread: remote_poll() waits on
 * all of them at once and never longer than the nearest deadline: no hello
 * within hello_ns (timeout), no frame within lost_ns of a ping while a
 * request runs, or at any time with keepalive (lost).  A host that fails gets one line
 * (remote_error): unreachable, key refused, nvscope missing on the host, another protocol version,
 * timeout, lost - from ssh's exit status and the last lines of its stderr, with key paths taken
 * out. */
#ifndef NVS_RUN_REMOTE_H
#define NVS_RUN_REMOTE_H

#include <stdbool.h>
#include <stdint.h>
#include "run/proto.h"

struct remote_opts {
	const char *ssh;     /* the ssh command line (sh -c), NULL: ssh */
	const char *nvscope; /* the binary on the hosts, NULL: "nvscope" */
	uint64_t hello_ns;   /* no hello this long after the start: timeout (0: 10 s) */
	uint64_t lost_ns;    /* no frame this long after a ping: lost (0: 5 s) */
	uint64_t ping_ns;    /* a ping after this long without a frame (0: 1 s) */
	bool keepalive;	     /* pings and the lost deadline also between requests
			      * (a console watching the host), not only during one */
};

enum remote_state {
	REMOTE_NEW,	   /* made, not started */
	REMOTE_CONNECTING, /* ssh running, no hello yet */
	REMOTE_READY,	   /* hello exchanged, no request running */
	REMOTE_BUSY,	   /* a request running */
	REMOTE_DONE,	   /* its reply came (remote_reply) */
	REMOTE_FAILED,	   /* remote_error says why */
};

struct remote;

/* Called for each EVENT of the running request (@m: proto_msg, type
 * PROTO_EVENT), from remote_poll. */
typedef void (*remote_event_fn)(struct remote *r, const struct proto_msg *m, void *arg);

/* A host at ssh destination @dest ([user@]host[:port], [v6]:port).  NULL
 * with @err (a bad destination, one starting with '-', no memory). */
struct remote *remote_new(const char *dest, const struct remote_opts *o, char *err, size_t errlen);
/* Starts ssh and sends the hello.  0, or -errno (then FAILED with the
 * reason). */
int remote_start(struct remote *r);
/* Queues request @method with @params (a cJSON object, taken; NULL: none):
 * sent once the hello came.  0, -EBUSY (one at a time), -ENOMEM. */
int remote_request(struct remote *r, const char *method, void *params);
/* Asks the agent to stop the running request (it then replies). */
int remote_cancel(struct remote *r);
/* Tells the agent to start the running request (a "run" that said ready:
 * PROTO_GO).  0, or -errno (not busy: -EINVAL). */
int remote_go(struct remote *r);
/* Waits at most @wait_ms (-1: until something happens or a deadline) on
 * every host of @rs together, and handles what came: frames, stderr,
 * deadlines, ends.  Returns the number of hosts still CONNECTING or BUSY. */
unsigned remote_poll(struct remote **rs, size_t n, int wait_ms, remote_event_fn fn, void *arg);
/* Ends every host of @rs (bye, stdin closed) and reaps the children,
 * killing a group that has not ended within 2 s for all of them together;
 * then frees them.  NULL entries are skipped. */
void remote_close_all(struct remote **rs, size_t n);

enum remote_state remote_state(const struct remote *r);
/* The destination as given. */
const char *remote_name(const struct remote *r);
/* FAILED: one line saying why (no key path, no environment). */
const char *remote_error(const struct remote *r);
/* DONE: the reply (type PROTO_REPLY: status, body = result, str = error). */
const struct proto_msg *remote_reply(const struct remote *r);
/* The agent's hello (after CONNECTING): its nvscope version, restricted. */
const struct proto_msg *remote_hello(const struct remote *r);
/* The host's clock against ours, from the PING/PONG round trips as NTP
 * does: offset = t_host - (t_sent + t_back) / 2, taken from the pong with
 * the shortest round trip of the last REMOTE_CLOCK_WINDOW (the least
 * queueing, the truest).  false until REMOTE_CLOCK_MIN pongs with the
 * host's clock came (the first ones may wait behind the agent's first
 * request: 100 ms of round trip is 50 ms of error). */
#define REMOTE_CLOCK_WINDOW 8
#define REMOTE_CLOCK_MIN    4
bool remote_clock(const struct remote *r, double *offset_s, double *rtt_s);
/* Ends @r at once and frees it: its ssh's group killed (SIGKILL) and
 * reaped, no bye and no wait for a link that may be gone (a console's
 * lost host).  NULL-safe. */
void remote_abort(struct remote *r);

/* Pure, for tests: the one line for a host whose ssh ended (@exit: its
 * exit status, 128 + signal, or -1 unknown) with @tail (its last stderr
 * lines) before the hello (@hello false) or during a request (@busy).
 * @nvscope: the binary named on the host. */
void remote_explain(int exit, const char *tail, bool hello, bool busy, const char *nvscope,
		    char *out, size_t len);
/* The argument vector ssh gets for @dest (user, host, port parsed) and the
 * remote command of binary @nvscope: NULL-terminated, in @argv (at most
 * @max entries); the strings live in @buf.  The count, or -ENOSPC. */
int remote_argv(const char *user, const char *host, unsigned port, const char *nvscope,
		const char *ssh, char **argv, int max, char *buf, size_t buflen);

#endif

/* remote.c - a host over ssh (remote.h). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "run/remote.h"
#include "config/hosts.h"

extern char **environ;

#define TAIL_MAX    2048		   /* the last bytes of ssh's stderr kept */
#define END_WAIT_NS (2 * NVS_NSEC_PER_SEC) /* stdout ended: wait this long for the exit */

struct remote {
	char *name;
	struct hosts_dest dest;
	struct remote_opts o;
	enum remote_state st;
	pid_t pid;	  /* > 0 until reaped */
	int exit;	  /* its exit status (128 + signal), -1 unknown */
	int in, out, err; /* our ends of its stdin, stdout, stderr; -1 closed */
	struct proto_dec *dec;
	struct proto_out q;
	struct proto_msg hello, reply;
	bool have_hello;
	char tail[TAIL_MAX + 1];
	size_t ntail;
	char why[640];
	uint64_t t_start, t_rx, t_ping, t_end;
	bool ping_out, ended; /* a ping unanswered; stdout ended (not DONE) */
	uint64_t seq, id;
	double t_ping_wall; /* CLOCK_REALTIME of the ping out, unix seconds */
	struct {
		double offset, rtt;
	} clk[REMOTE_CLOCK_WINDOW]; /* the last pongs' estimates */
	unsigned nclk;		    /* estimates made (the newest at (nclk-1) % window) */
	char method[33];
	cJSON *params; /* the request waiting for the hello */
	remote_event_fn fn;
	void *arg;
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NVS_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the command line ---- */

/* Appends @s to @buf at *@off as one string; NULL when it does not fit. */
static char *put(char *buf, size_t len, size_t *off, const char *s)
{
	size_t n = strlen(s) + 1;
	if (n > len - *off)
		return NULL;
	char *p = buf + *off;
	memcpy(p, s, n);
	*off += n;
	return p;
}

/* @s single-quoted for a POSIX shell ('\'' for a quote) into @buf. */
static int quote(const char *s, char *buf, size_t len)
{
	size_t k = 0;
	if (len < 3)
		return -ENOSPC;
	buf[k++] = '\'';
	for (; *s; s++) {
		const char *piece = *s == '\'' ? "'\\''" : NULL;
		size_t m = piece ? 4 : 1;
		if (k + m + 2 > len)
			return -ENOSPC;
		if (piece)
			memcpy(buf + k, piece, m);
		else
			buf[k] = *s;
		k += m;
	}
	buf[k++] = '\'';
	buf[k] = '\0';
	return 0;
}

int remote_argv(const char *user, const char *host, unsigned port, const char *nvscope,
		const char *ssh, char **argv, int max, char *buf, size_t buflen)
{
	char tmp[4096 + 64], q[4096], port_s[16];
	size_t off = 0;
	int k = 0;
	const char *words[16];
	int nw = 0;

	if (ssh) {
		snprintf(tmp, sizeof(tmp), "%s \"$@\"", ssh);
		if (strlen(ssh) > 4000)
			return -ENOSPC;
		words[nw++] = "/bin/sh";
		words[nw++] = "-c";
		words[nw++] = NULL; /* tmp */
		words[nw++] = "nvscope-ssh";
	} else {
		words[nw++] = "ssh";
	}
	words[nw++] = "-T";
	words[nw++] = "-o";
	words[nw++] = "BatchMode=yes";
	if (port) {
		snprintf(port_s, sizeof(port_s), "%u", port);
		words[nw++] = "-p";
		words[nw++] = port_s;
	}
	words[nw++] = "--";
	if (nw + 3 > max)
		return -ENOSPC;
	for (int i = 0; i < nw; i++)
		if (!(argv[k++] = put(buf, buflen, &off, words[i] ? words[i] : tmp)))
			return -ENOSPC;
	if (user && user[0]) {
		if (snprintf(q, sizeof(q), "%s@%s", user, host) >= (int)sizeof(q))
			return -ENOSPC;
		argv[k] = put(buf, buflen, &off, q);
	} else {
		argv[k] = put(buf, buflen, &off, host);
	}
	if (!argv[k++])
		return -ENOSPC;
	/* the remote command: the remote user's shell reads it */
	if (quote(nvscope ? nvscope : "nvscope", q, sizeof(q) - 10))
		return -ENOSPC;
	strcat(q, " 'agent'");
	if (!(argv[k++] = put(buf, buflen, &off, q)))
		return -ENOSPC;
	argv[k] = NULL;
	return k;
}

/* ---- failures ---- */

/* Takes key paths out of @line: a word holding '/' that names a key or
 * ssh's own directory becomes "[path]". */
static void redact(char *line)
{
	char out[512];
	size_t k = 0;
	const char *p = line;

	while (*p && k + 8 < sizeof(out)) {
		size_t n = strcspn(p, " \t");
		char w[512];
		snprintf(w, sizeof(w), "%.*s", (int)(n < sizeof(w) - 1 ? n : sizeof(w) - 1), p);
		bool secret = strchr(w, '/') && (strstr(w, ".ssh") || strstr(w, "id_") ||
						 strstr(w, "key") || strstr(w, "identity"));
		const char *put_w = secret ? "[path]" : w;
		size_t m = strlen(put_w);
		if (k + m + 2 >= sizeof(out))
			break;
		memcpy(out + k, put_w, m);
		k += m;
		p += n;
		while (*p == ' ' || *p == '\t') {
			out[k++] = *p++;
			if (k + 2 >= sizeof(out))
				break;
		}
	}
	out[k] = '\0';
	snprintf(line, 512, "%s", out);
}

/* The last non-empty line of @tail holding @needle (NULL: any) into @out
 * (redacted); false when none. */
static bool tail_line(const char *tail, const char *needle, char *out, size_t len)
{
	const char *best = NULL;
	size_t bn = 0;

	for (const char *p = tail; *p;) {
		size_t n = strcspn(p, "\r\n");
		bool blank = true;
		for (size_t i = 0; i < n; i++)
			blank &= p[i] == ' ' || p[i] == '\t';
		if (n && !blank) {
			char tmp[512];
			snprintf(tmp, sizeof(tmp), "%.*s", (int)(n < 511 ? n : 511), p);
			if (!needle || strstr(tmp, needle)) {
				best = p;
				bn = n;
			}
		}
		p += n;
		while (*p == '\r' || *p == '\n')
			p++;
	}
	if (!best)
		return false;
	char line[512];
	snprintf(line, sizeof(line), "%.*s", (int)(bn < 511 ? bn : 511), best);
	redact(line);
	snprintf(out, len, "%s", line);
	return true;
}

static const char *const unreachable[] = {
    "Could not resolve hostname", "Connection refused",		 "No route to host",
    "Network is unreachable",	  "Connection timed out",	 "Connection closed by",
    "Connection reset",		  "kex_exchange_identification", "Operation timed out",
};

static void explain_early(int exit, const char *tail, const char *nv, char *out, size_t len)
{
	char line[512];

	if (exit == 127 || strstr(tail, "command not found") || strstr(tail, ": not found")) {
		snprintf(out, len,
			 "nvscope is not on the host as '%s' (exit 127): install it there or name "
			 "it with --remote-nvscope PATH",
			 nv);
		return;
	}
	if (exit == 126) {
		snprintf(out, len,
			 "'%s' cannot be run on the host (exit 126): name the binary with "
			 "--remote-nvscope PATH",
			 nv);
		return;
	}
	if (tail_line(tail, "Permission denied", line, sizeof(line))) {
		const char *p = strstr(line, "Permission denied");
		snprintf(out, len, "key refused: %s", p);
		return;
	}
	if (tail_line(tail, "Host key verification failed", line, sizeof(line))) {
		snprintf(out, len, "host key verification failed (known_hosts)");
		return;
	}
	for (size_t i = 0; i < NVS_ARRAY_SIZE(unreachable); i++)
		if (tail_line(tail, unreachable[i], line, sizeof(line))) {
			snprintf(out, len, "unreachable: %s", line);
			return;
		}
	bool have = tail_line(tail, NULL, line, sizeof(line));
	if (exit == 255)
		snprintf(out, len, "ssh failed (exit 255)%s%s", have ? ": " : "", have ? line : "");
	else if (exit >= 0)
		snprintf(out, len, "the agent ended before it answered (exit %d)%s%s", exit,
			 have ? ": " : "", have ? line : "");
	else
		snprintf(out, len, "the agent ended before it answered%s%s", have ? ": " : "",
			 have ? line : "");
}

void remote_explain(int exit, const char *tail, bool hello, bool busy, const char *nvscope,
		    char *out, size_t len)
{
	char line[512], ex[32] = "";
	bool have;

	if (!hello) {
		explain_early(exit, tail, nvscope ? nvscope : "nvscope", out, len);
		return;
	}
	have = tail_line(tail, NULL, line, sizeof(line));
	if (exit >= 0)
		snprintf(ex, sizeof(ex), " (exit %d)", exit);
	snprintf(out, len, "%s%s%s%s",
		 busy ? "lost: the connection ended during the request" : "the connection ended",
		 ex, have ? ": " : "", have ? line : "");
}

static void fail(struct remote *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* FAILED with a reason (the first one stays); its ssh told to end. */
static void fail(struct remote *r, const char *fmt, ...)
{
	va_list ap;

	if (r->st == REMOTE_FAILED)
		return;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	r->st = REMOTE_FAILED;
	if (r->pid > 0)
		kill(-r->pid, SIGTERM);
	for (int *fd = &r->in; fd <= &r->err; fd++)
		if (*fd >= 0) {
			close(*fd);
			*fd = -1;
		}
}

/* ---- making, starting ---- */

struct remote *remote_new(const char *dest, const struct remote_opts *o, char *err, size_t errlen)
{
	struct remote *r = calloc(1, sizeof(*r));

	if (!r || !(r->name = strdup(dest)) || !(r->dec = proto_dec_new(0))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (hosts_parse_dest(dest, &r->dest, err, errlen))
		goto fail;
	r->o = *o;
	if (!r->o.hello_ns)
		r->o.hello_ns = 10 * NVS_NSEC_PER_SEC;
	if (!r->o.lost_ns)
		r->o.lost_ns = 5 * NVS_NSEC_PER_SEC;
	if (!r->o.ping_ns)
		r->o.ping_ns = NVS_NSEC_PER_SEC;
	if (!r->o.nvscope)
		r->o.nvscope = "nvscope";
	r->in = r->out = r->err = -1;
	r->exit = -1;
	return r;
fail:
	if (r) {
		hosts_dest_clear(&r->dest);
		proto_dec_free(r->dec);
		free(r->name);
	}
	free(r);
	return NULL;
}

static int spawn(struct remote *r, char **argv)
{
	int pin[2] = {-1, -1}, pout[2] = {-1, -1}, perr[2] = {-1, -1}, rc;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, def;

	if (pipe2(pin, O_CLOEXEC) || pipe2(pout, O_CLOEXEC) || pipe2(perr, O_CLOEXEC)) {
		rc = errno;
		goto close;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
	posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
	posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	sigemptyset(&def);
	for (int s = 1; s < 32; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaddset(&def, s);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setpgroup(&at, 0); /* a group of its own: killed as one */
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
					  POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawnp(&r->pid, argv[0], &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	if (rc) {
		r->pid = 0;
		goto close;
	}
	r->in = pin[1];
	r->out = pout[0];
	r->err = perr[0];
	pin[1] = pout[0] = perr[0] = -1;
	for (int *fd = &r->in; fd <= &r->err; fd++)
		fcntl(*fd, F_SETFL, fcntl(*fd, F_GETFL) | O_NONBLOCK);
close:
	for (int i = 0; i < 2; i++) {
		if (pin[i] >= 0)
			close(pin[i]);
		if (pout[i] >= 0)
			close(pout[i]);
		if (perr[i] >= 0)
			close(perr[i]);
	}
	return -rc;
}

int remote_start(struct remote *r)
{
	char *argv[24], buf[16384];
	int rc;
	cJSON *h;

	rc = remote_argv(r->dest.user, r->dest.host, r->dest.port, r->o.nvscope, r->o.ssh, argv,
			 (int)NVS_ARRAY_SIZE(argv), buf, sizeof(buf));
	if (rc < 0) {
		fail(r, "the ssh command line is too long");
		return rc;
	}
	r->t_start = r->t_rx = now_ns();
	r->st = REMOTE_CONNECTING;
	if ((rc = spawn(r, argv))) {
		fail(r, "cannot run %s: %s", r->o.ssh ? "/bin/sh (NVSCOPE_SSH, --ssh)" : "ssh",
		     strerror(-rc));
		return rc;
	}
	h = proto_hello("client", NULL, false, PROTO_VERSION);
	rc = h ? proto_out_frame(&r->q, PROTO_HELLO, h) : -ENOMEM;
	cJSON_Delete(h);
	if (rc)
		fail(r, "out of memory");
	return rc;
}

/* ---- requests ---- */

static int send_request(struct remote *r)
{
	cJSON *o = cJSON_CreateObject();
	int rc = -ENOMEM;

	if (o && cJSON_AddNumberToObject(o, "id", (double)r->id) &&
	    cJSON_AddStringToObject(o, "method", r->method)) {
		if (r->params)
			cJSON_AddItemToObject(o, "params", r->params);
		r->params = NULL;
		rc = proto_out_frame(&r->q, PROTO_REQUEST, o);
	}
	cJSON_Delete(o);
	if (rc)
		fail(r, "cannot send the request: %s", strerror(-rc));
	else
		r->st = REMOTE_BUSY;
	r->t_rx = now_ns(); /* the wait for an answer starts now */
	r->ping_out = false;
	return rc;
}

int remote_request(struct remote *r, const char *method, void *params)
{
	if (r->id && r->st != REMOTE_DONE) {
		cJSON_Delete(params);
		return -EBUSY;
	}
	proto_msg_clear(&r->reply);
	r->id++;
	snprintf(r->method, sizeof(r->method), "%s", method);
	r->params = params;
	if (r->st == REMOTE_READY || r->st == REMOTE_DONE)
		return send_request(r);
	return 0;
}

/* A frame {"id"} of @type about the running request. */
static int send_id(struct remote *r, unsigned type)
{
	cJSON *o = cJSON_CreateObject();
	int rc = o && cJSON_AddNumberToObject(o, "id", (double)r->id)
		     ? proto_out_frame(&r->q, type, o)
		     : -ENOMEM;

	cJSON_Delete(o);
	return rc;
}

int remote_cancel(struct remote *r)
{
	return r->st == REMOTE_BUSY ? send_id(r, PROTO_CANCEL) : 0;
}

int remote_go(struct remote *r)
{
	return r->st == REMOTE_BUSY ? send_id(r, PROTO_GO) : -EINVAL;
}

/* ---- frames in ---- */

static int on_hello(struct remote *r, struct proto_msg *m)
{
	if (strcmp(m->role, "agent")) {
		fail(r, "protocol error: the other end is not an agent (%s)", m->role);
		return -EPROTO;
	}
	if (m->proto != PROTO_VERSION) {
		fail(r,
		     "nvscope %s speaks protocol %u, this nvscope %s speaks %u: install the same "
		     "version (--remote-nvscope PATH)",
		     m->str, m->proto, NVS_VERSION, PROTO_VERSION);
		return -EPROTO;
	}
	r->hello = *m;
	memset(m, 0, sizeof(*m));
	r->have_hello = true;
	r->st = REMOTE_READY;
	if (r->id)
		return send_request(r);
	return 0;
}

static int on_pong_ping(struct remote *r, struct proto_msg *m)
{
	if (m->type == PROTO_PING) {
		cJSON *o = cJSON_CreateObject();
		int rc = o && cJSON_AddNumberToObject(o, "seq", (double)m->seq)
			     ? proto_out_frame(&r->q, PROTO_PONG, o)
			     : -ENOMEM;
		cJSON_Delete(o);
		return rc;
	}
	/* a pong (any frame is an answer: t_rx); the one to our last ping
	 * with the host's clock gives an estimate of its offset */
	if (m->seq == r->seq && r->t_ping_wall > 0 && isfinite(m->t)) {
		double back = wall_s(), rtt = back - r->t_ping_wall;
		if (rtt >= 0) {
			unsigned k = r->nclk++ % REMOTE_CLOCK_WINDOW;
			r->clk[k].rtt = rtt;
			r->clk[k].offset = m->t - (r->t_ping_wall + back) / 2;
		}
		r->t_ping_wall = 0;
	}
	return 0;
}

static int on_frame_msg(struct remote *r, struct proto_msg *m)
{
	if (!r->have_hello && m->type != PROTO_HELLO && m->type != PROTO_ERROR) {
		fail(r, "protocol error: a %s frame before the hello", proto_type_name(m->type));
		return -EPROTO;
	}
	switch (m->type) {
	case PROTO_HELLO:
		if (r->have_hello)
			break;
		return on_hello(r, m);
	case PROTO_ERROR:
		fail(r, "%s", m->str);
		return -EPROTO;
	case PROTO_EVENT:
		if (r->st == REMOTE_BUSY && m->id == r->id && r->fn)
			r->fn(r, m, r->arg);
		return 0;
	case PROTO_REPLY:
		if (r->st != REMOTE_BUSY || m->id != r->id)
			break;
		r->reply = *m;
		memset(m, 0, sizeof(*m));
		r->st = REMOTE_DONE;
		return 0;
	case PROTO_PING:
	case PROTO_PONG:
		return on_pong_ping(r, m);
	case PROTO_BYE:
		return 0;
	default:
		break;
	}
	fail(r, "protocol error: an unexpected %s frame", proto_type_name(m->type));
	return -EPROTO;
}

static int on_frame(void *arg, unsigned type, const char *payload, size_t len)
{
	struct remote *r = arg;
	struct proto_msg m;
	char err[256];
	int rc;

	r->t_rx = now_ns();
	r->ping_out = false;
	if ((rc = proto_msg_parse(type, payload, len, &m, err, sizeof(err)))) {
		fail(r, "%s", err);
		return rc;
	}
	rc = on_frame_msg(r, &m);
	proto_msg_clear(&m);
	return rc;
}

/* ---- I/O ---- */

static void keep_tail(struct remote *r, const char *b, size_t n)
{
	if (n >= TAIL_MAX) {
		b += n - TAIL_MAX;
		n = TAIL_MAX;
	}
	if (r->ntail + n > TAIL_MAX) {
		size_t drop = r->ntail + n - TAIL_MAX;
		memmove(r->tail, r->tail + drop, r->ntail - drop);
		r->ntail -= drop;
	}
	memcpy(r->tail + r->ntail, b, n);
	r->ntail += n;
	r->tail[r->ntail] = '\0';
	/* a NUL from the far end must not cut what follows it */
	for (size_t i = 0; i < r->ntail; i++)
		if (!r->tail[i])
			r->tail[i] = ' ';
}

/* Reads what stream @fd holds (at most a few chunks: fairness between
 * hosts); true at its end. */
static bool drain(struct remote *r, int fd, bool frames)
{
	char buf[65536], err[256];

	for (int k = 0; k < 4; k++) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return false;
		if (n <= 0)
			return true;
		if (!frames) {
			keep_tail(r, buf, (size_t)n);
			continue;
		}
		int rc = proto_dec_feed(r->dec, buf, (size_t)n, on_frame, r, err, sizeof(err));
		if (rc && r->st != REMOTE_FAILED)
			fail(r, "%s", err);
		if (r->st == REMOTE_FAILED)
			return false;
	}
	return false;
}

static void reap(struct remote *r, bool block)
{
	int ws;
	pid_t p;

	if (r->pid <= 0)
		return;
	do
		p = waitpid(r->pid, &ws, block ? 0 : WNOHANG);
	while (p < 0 && errno == EINTR);
	if (p != r->pid)
		return;
	r->exit = WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : -1;
	r->pid = 0;
}

/* The stdout of @r ended (or failed): DONE stays; otherwise the reason is
 * made once ssh exited and its stderr ended (or END_WAIT_NS passed). */
static void ended(struct remote *r, uint64_t now)
{
	if (r->out >= 0) {
		close(r->out);
		r->out = -1;
	}
	if (r->st == REMOTE_DONE || r->st == REMOTE_FAILED)
		return;
	if (!r->ended) {
		r->ended = true;
		r->t_end = now;
	}
	reap(r, false);
	if ((r->pid > 0 || r->err >= 0) && now - r->t_end < END_WAIT_NS)
		return;
	char why[640];
	remote_explain(r->exit, r->tail, r->have_hello, r->st == REMOTE_BUSY, r->o.nvscope, why,
		       sizeof(why));
	fail(r, "%s", why);
}

static int send_ping(struct remote *r, uint64_t now)
{
	cJSON *o = cJSON_CreateObject();
	int rc = o && cJSON_AddNumberToObject(o, "seq", (double)++r->seq)
		     ? proto_out_frame(&r->q, PROTO_PING, o)
		     : -ENOMEM;
	cJSON_Delete(o);
	r->ping_out = true;
	r->t_ping = now;
	r->t_ping_wall = wall_s();
	return rc;
}

/* Deadlines of @r at @now; the time to its next one (ns, UINT64_MAX none). */
static uint64_t deadlines(struct remote *r, uint64_t now)
{
	if (r->ended) {
		ended(r, now);
		return r->st == REMOTE_FAILED ? UINT64_MAX : 20 * 1000000ull;
	}
	if (r->st == REMOTE_CONNECTING) {
		if (now - r->t_start >= r->o.hello_ns) {
			char line[512];
			bool have = tail_line(r->tail, NULL, line, sizeof(line));
			fail(r, "timeout: no answer from the agent within %.0f s%s%s",
			     (double)r->o.hello_ns / 1e9, have ? ": " : "", have ? line : "");
			return UINT64_MAX;
		}
		return r->t_start + r->o.hello_ns - now;
	}
	if (r->st != REMOTE_BUSY && !(r->o.keepalive && r->st != REMOTE_FAILED))
		return UINT64_MAX;
	if (r->ping_out && now - r->t_ping >= r->o.lost_ns) {
		fail(r, "lost: no answer for %.0f s%s (host down or link cut)",
		     (double)r->o.lost_ns / 1e9, r->st == REMOTE_BUSY ? " during the request" : "");
		return UINT64_MAX;
	}
	if (!r->ping_out && now - r->t_rx >= r->o.ping_ns && send_ping(r, now))
		fail(r, "out of memory");
	return r->ping_out ? r->t_ping + r->o.lost_ns - now : r->t_rx + r->o.ping_ns - now;
}

static void flush(struct remote *r)
{
	if (r->in < 0 || !proto_out_pending(&r->q))
		return;
	int rc = proto_out_flush(&r->q, r->in);
	if (rc < 0) /* its stdin is gone: its stdout will end too, and say why */
		r->q.len = r->q.off = 0;
}

static unsigned collect_fds(struct remote **rs, size_t n, struct pollfd *p, struct remote **who)
{
	unsigned k = 0;

	for (size_t i = 0; i < n; i++) {
		struct remote *r = rs[i];
		if (!r || r->st == REMOTE_FAILED || r->st == REMOTE_NEW)
			continue;
		if (r->out >= 0) {
			p[k] = (struct pollfd){.fd = r->out, .events = POLLIN};
			who[k++] = r;
		}
		if (r->err >= 0) {
			p[k] = (struct pollfd){.fd = r->err, .events = POLLIN};
			who[k++] = r;
		}
		if (r->in >= 0 && proto_out_pending(&r->q)) {
			p[k] = (struct pollfd){.fd = r->in, .events = POLLOUT};
			who[k++] = r;
		}
	}
	return k;
}

static void handle(struct remote *r, const struct pollfd *p, uint64_t now)
{
	if (!p->revents || r->st == REMOTE_FAILED)
		return;
	if (p->fd == r->out) {
		if (drain(r, r->out, true) && r->st != REMOTE_FAILED)
			ended(r, now);
	} else if (p->fd == r->err) {
		if (drain(r, r->err, false)) {
			close(r->err);
			r->err = -1;
		}
	} else if (p->fd == r->in) {
		flush(r);
	}
}

unsigned remote_poll(struct remote **rs, size_t n, int wait_ms, remote_event_fn fn, void *arg)
{
	struct pollfd *p = calloc(3 * n + 1, sizeof(*p));
	struct remote **who = calloc(3 * n + 1, sizeof(*who));
	uint64_t now = now_ns(), next = wait_ms < 0 ? UINT64_MAX : (uint64_t)wait_ms * 1000000;
	unsigned k, active = 0;

	for (size_t i = 0; i < n; i++)
		if (rs[i]) {
			rs[i]->fn = fn;
			rs[i]->arg = arg;
			flush(rs[i]);
			uint64_t d = deadlines(rs[i], now);
			next = d < next ? d : next;
		}
	if (!p || !who) { /* out of memory: a short sleep, the deadlines go on */
		free(p);
		free(who);
		struct timespec ts = {0, 50000000};
		nanosleep(&ts, NULL);
		return n ? 1 : 0;
	}
	k = collect_fds(rs, n, p, who);
	int ms = next == UINT64_MAX ? -1 : (int)((next + 999999) / 1000000);
	if (poll(p, k, ms) > 0) {
		now = now_ns();
		for (unsigned i = 0; i < k; i++)
			handle(who[i], &p[i], now);
	}
	now = now_ns();
	for (size_t i = 0; i < n; i++)
		if (rs[i]) {
			flush(rs[i]);
			deadlines(rs[i], now);
			if (rs[i]->st == REMOTE_CONNECTING || rs[i]->st == REMOTE_BUSY ||
			    (rs[i]->st == REMOTE_READY && rs[i]->id))
				active++;
		}
	free(p);
	free(who);
	return active;
}

/* ---- the end ---- */

static void say_bye(struct remote *r)
{
	if (r->in >= 0) {
		if (r->st != REMOTE_FAILED && !proto_out_frame(&r->q, PROTO_BYE, NULL))
			proto_out_flush(&r->q, r->in);
		close(r->in);
		r->in = -1;
	}
	for (int *fd = &r->out; fd <= &r->err; fd++)
		if (*fd >= 0) {
			close(*fd);
			*fd = -1;
		}
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
	nanosleep(&ts, NULL);
}

/* Waits until every child of @rs is reaped or @ns passed. */
static void reap_all(struct remote **rs, size_t n, uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	for (;;) {
		bool left = false;
		for (size_t i = 0; i < n; i++)
			if (rs[i]) {
				reap(rs[i], false);
				left |= rs[i]->pid > 0;
			}
		if (!left || now_ns() >= end)
			return;
		sleep_ms(10);
	}
}

static void free_one(struct remote *r)
{
	proto_dec_free(r->dec);
	proto_out_free(&r->q);
	proto_msg_clear(&r->hello);
	proto_msg_clear(&r->reply);
	cJSON_Delete(r->params);
	hosts_dest_clear(&r->dest);
	free(r->name);
	free(r);
}

void remote_abort(struct remote *r)
{
	if (!r)
		return;
	for (int *fd = &r->in; fd <= &r->err; fd++)
		if (*fd >= 0) {
			close(*fd);
			*fd = -1;
		}
	if (r->pid > 0) {
		kill(-r->pid, SIGKILL);
		reap(r, true); /* SIGKILL: it ends now */
	}
	free_one(r);
}

void remote_close_all(struct remote **rs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (rs[i])
			say_bye(rs[i]);
	reap_all(rs, n, END_WAIT_NS);
	for (size_t i = 0; i < n; i++)
		if (rs[i] && rs[i]->pid > 0)
			kill(-rs[i]->pid, SIGTERM);
	reap_all(rs, n, 200 * 1000000ull);
	for (size_t i = 0; i < n; i++) {
		struct remote *r = rs[i];
		if (!r)
			continue;
		if (r->pid > 0) {
			kill(-r->pid, SIGKILL);
			reap(r, true);
		}
		free_one(r);
		rs[i] = NULL;
	}
}

enum remote_state remote_state(const struct remote *r)
{
	return r->st;
}

const char *remote_name(const struct remote *r)
{
	return r->name;
}

const char *remote_error(const struct remote *r)
{
	return r->st == REMOTE_FAILED ? r->why : "";
}

const struct proto_msg *remote_reply(const struct remote *r)
{
	return r->st == REMOTE_DONE ? &r->reply : NULL;
}

const struct proto_msg *remote_hello(const struct remote *r)
{
	return r->have_hello ? &r->hello : NULL;
}

bool remote_clock(const struct remote *r, double *offset_s, double *rtt_s)
{
	unsigned n = r->nclk < REMOTE_CLOCK_WINDOW ? r->nclk : REMOTE_CLOCK_WINDOW, best = 0;

	if (r->nclk < REMOTE_CLOCK_MIN)
		return false;
	for (unsigned i = 1; i < n; i++)
		if (r->clk[i].rtt < r->clk[best].rtt)
			best = i;
	*offset_s = r->clk[best].offset;
	*rtt_s = r->clk[best].rtt;
	return true;
}

/* agent.c - `nvscope agent [--allow PATH,...]`: the far end of nvscope over
 * ssh (docs/hosts.md).  Speaks run/proto.h on stdin/stdout only: before
 * anything else the protocol moves to private descriptors and fds 0, 1 and
 * 2 are pointed elsewhere (0 at /dev/null, 1 and 2 at a pipe this loop
 * reads), so no stray print of any code it runs can corrupt the stream:
 * what the commands' code prints goes to the client as "log" events.
 *
 * One thread serves the protocol and never blocks (poll with non-blocking
 * descriptors): pings are answered at once, even during a check.  A
 * request runs in a worker thread (agentreq.c); its progress comes over an
 * SPSC ring, its end through an atomic flag and an eventfd.  The agent
 * ends when its stdin ends or a BYE comes (a running request cancelled
 * first, then waited for), or on SIGTERM/SIGHUP/SIGINT. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "cmd/agent.h"
#include "cmd/cmd.h"
#include "cmd/stopsig.h"
#include "base/num.h"
#include "ring/spsc.h"
#include "run/allow.h"
#include "run/proto.h"

enum { O_ALLOW = 'a' };

static const struct cmd_opt opts[] = {
    {{"allow", required_argument, NULL, O_ALLOW},
     0,
     "PATH,...",
     "list, read and test only these devices or files\n"
     "(compared as devices, not as names; repeatable)"},
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

static _Atomic int quit_sig;

static void on_signal(int sig)
{
	atomic_store_explicit(&quit_sig, sig, memory_order_relaxed);
}

struct agent {
	int in, out, cap, wake; /* protocol in/out, the captured fds 1 and 2, the worker's end */
	unsigned proto;		/* the version spoken (NVSCOPE_TEST_PROTO: tests only) */
	struct proto_dec *dec;
	struct proto_out q;
	struct allow *allow;
	bool hello, quit, in_eof;
	int exit;
	/* the request running */
	bool busy;
	pthread_t th;
	struct agent_job job;
	struct agent_prog last;
	uint64_t last_sent_ns;
	/* captured output: a partial line, the request's last line */
	char line[1024], lastlog[1024];
	size_t nline;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NVS_NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Queues a frame (out of memory: the agent ends). */
static void queue(struct agent *a, unsigned type, cJSON *o)
{
	if (proto_out_frame(&a->q, type, o))
		a->quit = true;
	cJSON_Delete(o);
}

static void send_error(struct agent *a, const char *msg)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "error", msg);
	queue(a, PROTO_ERROR, o);
	a->quit = true;
	a->exit = NVS_EXIT_USAGE;
}

static void send_event(struct agent *a, uint64_t id, const char *kind, cJSON *o)
{
	if (!o)
		o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "id", (double)id);
	cJSON_AddStringToObject(o, "kind", kind);
	queue(a, PROTO_EVENT, o);
}

/* ---- captured output: log events ---- */

static void log_line(struct agent *a)
{
	cJSON *o = cJSON_CreateObject();

	a->line[a->nline] = '\0';
	if (a->busy)
		memcpy(a->lastlog, a->line, a->nline + 1);
	cJSON_AddStringToObject(o, "text", a->line);
	send_event(a, a->busy ? a->job.id : 0, "log", o);
	a->nline = 0;
}

static void read_captured(struct agent *a)
{
	char buf[4096];
	ssize_t n;

	while ((n = read(a->cap, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n' || a->nline == sizeof(a->line) - 1)
				log_line(a);
			if (buf[i] != '\n')
				a->line[a->nline++] = buf[i];
		}
}

/* ---- requests ---- */

static void *worker(void *arg)
{
	struct agent *a = arg;
	uint64_t one = 1;

	agent_job_run(&a->job);
	fflush(stdout);
	fflush(stderr);
	atomic_store_explicit(&a->job.done, 1, memory_order_release);
	if (write(a->wake, &one, sizeof(one)) < 0) {
		/* the loop also looks at done every 200 ms */
	}
	return NULL;
}

static void reply(struct agent *a, uint64_t id, int status, cJSON *result, const char *error)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "id", (double)id);
	cJSON_AddNumberToObject(o, "status", status);
	if (result)
		cJSON_AddItemToObject(o, "result", result);
	if (error && error[0])
		cJSON_AddStringToObject(o, "error", error);
	queue(a, PROTO_REPLY, o);
}

static void start(struct agent *a, const struct proto_msg *m)
{
	char msg[256];
	int rc;

	if (a->busy) {
		snprintf(msg, sizeof(msg), "busy: request %llu is running",
			 (unsigned long long)a->job.id);
		reply(a, m->id, NVS_EXIT_USAGE, NULL, msg);
		return;
	}
	struct spsc *prog = a->job.prog;
	memset(&a->job, 0, sizeof(a->job));
	a->job.prog = prog;
	a->job.id = m->id;
	snprintf(a->job.method, sizeof(a->job.method), "%s", m->str);
	a->job.params = m->body ? cJSON_Duplicate(m->body, true) : cJSON_CreateObject();
	a->job.allow = a->allow;
	memset(&a->last, 0, sizeof(a->last));
	a->last.phase = -1;
	if ((rc = pthread_create(&a->th, NULL, worker, a))) {
		cJSON_Delete(a->job.params);
		snprintf(msg, sizeof(msg), "cannot start the request: %s", strerror(rc));
		reply(a, m->id, NVS_EXIT_IOERR, NULL, msg);
		return;
	}
	a->busy = true;
	a->lastlog[0] = '\0';
}

static void send_progress(struct agent *a, bool force)
{
	struct agent_prog p;
	bool any = false;

	while (!spsc_pop(a->job.prog, &p)) {
		any = true;
		if (p.phase != a->last.phase)
			force = true;
		a->last = p;
	}
	uint64_t now = mono_ns();
	if (!any || (!force && now - a->last_sent_ns < NVS_NSEC_PER_SEC))
		return;
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "phase", a->last.name);
	cJSON_AddNumberToObject(o, "drives", a->last.drives);
	cJSON_AddNumberToObject(o, "permille", a->last.permille);
	send_event(a, a->job.id, "progress", o);
	a->last_sent_ns = now;
}

/* The worker ended: its output, progress and reply go, in that order. */
static void finish(struct agent *a)
{
	struct agent_job *j = &a->job;

	pthread_join(a->th, NULL);
	read_captured(a);
	if (a->nline)
		log_line(a);
	send_progress(a, true);
	/* a refusal the command's code printed: its last line says why */
	if (j->status && !j->error[0] && !j->result)
		snprintf(j->error, sizeof(j->error), "%s",
			 a->lastlog[0] ? a->lastlog : "the request failed");
	reply(a, j->id, j->status, j->result, j->error);
	j->result = NULL;
	cJSON_Delete(j->params);
	j->params = NULL;
	a->busy = false;
}

/* ---- frames in ---- */

static void on_hello(struct agent *a, const struct proto_msg *m)
{
	char msg[256];

	if (strcmp(m->role, "client")) {
		send_error(a, "protocol error: the other end is not a client");
		return;
	}
	if (m->proto != a->proto) {
		snprintf(msg, sizeof(msg),
			 "this agent (nvscope %s) speaks protocol %u, the client (nvscope %s) "
			 "speaks %u: install the same version",
			 NVS_VERSION, a->proto, m->str, m->proto);
		send_error(a, msg);
		return;
	}
	a->hello = true;
}

static void on_msg(struct agent *a, const struct proto_msg *m)
{
	if (!a->hello && m->type != PROTO_HELLO) {
		send_error(a, "protocol error: a frame before the hello");
		return;
	}
	switch (m->type) {
	case PROTO_HELLO:
		if (a->hello)
			send_error(a, "protocol error: a second hello");
		else
			on_hello(a, m);
		return;
	case PROTO_REQUEST:
		start(a, m);
		return;
	case PROTO_PING: {
		cJSON *o = cJSON_CreateObject();
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		cJSON_AddNumberToObject(o, "seq", (double)m->seq);
		/* the host's clock, for the clock offsets of the next step */
		cJSON_AddNumberToObject(o, "t", (double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
		queue(a, PROTO_PONG, o);
		return;
	}
	case PROTO_CANCEL:
		if (a->busy && m->id == a->job.id)
			atomic_store(&a->job.cancel, 1);
		return;
	case PROTO_GO:
		if (a->busy && m->id == a->job.id)
			atomic_store(&a->job.go, 1);
		return;
	case PROTO_BYE:
		a->quit = true;
		return;
	case PROTO_PONG:
		return;
	default:
		send_error(a, "protocol error: a frame a client does not send");
	}
}

static int on_frame(void *arg, unsigned type, const char *payload, size_t len)
{
	struct agent *a = arg;
	struct proto_msg m;
	char err[256];
	int rc = proto_msg_parse(type, payload, len, &m, err, sizeof(err));

	if (rc) {
		send_error(a, err);
		return rc;
	}
	on_msg(a, &m);
	proto_msg_clear(&m);
	return a->quit ? -ECANCELED : 0;
}

static void read_in(struct agent *a)
{
	char buf[65536], err[256];
	ssize_t n = read(a->in, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		a->in_eof = true;
		return;
	}
	int rc = proto_dec_feed(a->dec, buf, (size_t)n, on_frame, a, err, sizeof(err));
	if (rc && rc != -ECANCELED && !a->quit)
		send_error(a, err);
}

/* ---- set-up ---- */

/* The protocol on private descriptors; 0 from /dev/null, 1 and 2 into the
 * capture pipe.  0 or -errno. */
static int take_fds(struct agent *a)
{
	int p[2], nul;

	a->in = fcntl(0, F_DUPFD_CLOEXEC, 3);
	a->out = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (a->in < 0 || a->out < 0 || pipe2(p, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (nul < 0 || dup2(nul, 0) < 0 || dup2(p[1], 1) < 0 || dup2(p[1], 2) < 0)
		return -errno;
	close(nul);
	close(p[1]);
	a->cap = p[0];
	fcntl(a->cap, F_SETFL, O_NONBLOCK);
	fcntl(a->in, F_SETFL, fcntl(a->in, F_GETFL) | O_NONBLOCK);
	fcntl(a->out, F_SETFL, fcntl(a->out, F_GETFL) | O_NONBLOCK);
	a->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	return a->wake < 0 ? -errno : 0;
}

static int setup(struct agent *a, struct cmd_args *args, char *err, size_t errlen)
{
	const char *tp = getenv("NVSCOPE_TEST_PROTO"); /* tests only: docs/hosts.md */
	char host[256] = "";
	int rc = 0;

	a->proto = PROTO_VERSION;
	if (!(a->dec = proto_dec_new(0)) ||
	    !(a->job.prog = spsc_new(sizeof(struct agent_prog), 64))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (tp && num_parse_uint(tp, 1, 65535, &a->proto)) {
		snprintf(err, errlen, "NVSCOPE_TEST_PROTO=%s: not a version", tp);
		rc = -EINVAL;
	}
	for (unsigned i = 0; !rc && i < args->nopt; i++)
		if (args->opt[i].id == O_ALLOW)
			rc = allow_add(&a->allow, args->opt[i].val, err, errlen);
	if (!rc && args->npos) {
		snprintf(err, errlen, "unexpected '%s' (see nvscope agent --help)", args->pos[0]);
		rc = -EINVAL;
	}
	/* the hello goes first, even when refusing: the client then names the
	 * error with the host */
	gethostname(host, sizeof(host) - 1);
	queue(a, PROTO_HELLO, proto_hello("agent", host, a->allow != NULL, a->proto));
	return rc;
}

/* ---- the loop ---- */

static void loop_once(struct agent *a)
{
	struct pollfd p[4];
	int k = 0;

	if (!a->in_eof && !a->quit)
		p[k++] = (struct pollfd){.fd = a->in, .events = POLLIN};
	p[k++] = (struct pollfd){.fd = a->cap, .events = POLLIN};
	p[k++] = (struct pollfd){.fd = a->wake, .events = POLLIN};
	if (proto_out_pending(&a->q))
		p[k++] = (struct pollfd){.fd = a->out, .events = POLLOUT};
	if (poll(p, (nfds_t)k, a->busy || proto_out_pending(&a->q) ? 200 : -1) < 0 &&
	    errno != EINTR)
		a->quit = true;
	if (p[0].fd == a->in && p[0].revents)
		read_in(a);
	read_captured(a);
	uint64_t v;
	if (read(a->wake, &v, sizeof(v)) < 0) {
		/* not woken: the poll's timeout or another descriptor */
	}
	if (a->busy) {
		send_progress(a, false);
		if (atomic_load_explicit(&a->job.done, memory_order_acquire))
			finish(a);
	}
	if (atomic_load(&quit_sig))
		a->quit = true;
	if ((a->quit || a->in_eof) && a->busy)
		atomic_store(&a->job.cancel, 1);  /* ends soon; waited for */
	if (proto_out_flush(&a->q, a->out) < 0) { /* the client is gone */
		a->q.len = a->q.off = 0;
		a->in_eof = true;
	}
}

/* What is still queued, for at most 2 s. */
static void drain_out(struct agent *a)
{
	uint64_t end = mono_ns() + 2 * NVS_NSEC_PER_SEC;

	while (proto_out_pending(&a->q) && mono_ns() < end) {
		struct pollfd p = {.fd = a->out, .events = POLLOUT};
		poll(&p, 1, 100);
		if (proto_out_flush(&a->q, a->out) < 0)
			break;
	}
}

static int exec_agent(const struct cmd_entry *self, struct cmd_args *args)
{
	struct agent a = {.in = -1, .out = -1, .cap = -1, .wake = -1};
	char err[512];
	int rc;

	if (isatty(STDOUT_FILENO)) {
		cmd_say(self, "speaks nvscope's protocol on stdin/stdout: nvscope starts it over "
			      "ssh (docs/hosts.md)");
		return NVS_EXIT_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);
	stopsig_catch(on_signal, false);
	if ((rc = take_fds(&a))) {
		cmd_say(self, "cannot set up its descriptors: %s", strerror(-rc));
		return NVS_EXIT_IOERR;
	}
	if ((rc = setup(&a, args, err, sizeof(err)))) {
		send_error(&a, err); /* after its hello */
		a.exit = NVS_EXIT_USAGE;
		a.quit = true;
	}
	while (a.busy || (!a.quit && !a.in_eof))
		loop_once(&a);
	drain_out(&a);
	stopsig_default();
	proto_out_free(&a.q);
	proto_dec_free(a.dec);
	spsc_free(a.job.prog);
	allow_free(a.allow);
	if (a.cap >= 0)
		close(a.cap);
	if (a.wake >= 0)
		close(a.wake);
	close(a.in);
	close(a.out);
	return a.exit;
}

const struct cmd_entry cmd_agent_entry = {
    .name = "agent",
    .summary = "the far end of nvscope over ssh (started by nvscope, not by hand)",
    .usage = "agent [--allow PATH,...]",
    .text = "Speaks nvscope's host protocol on stdin/stdout: `nvscope list|health|check\n"
	    "--host ...` starts it on each host over ssh (docs/hosts.md).  It lists, reads\n"
	    "and checks with the same code as the local commands.  As an OpenSSH forced\n"
	    "command (command=\"nvscope agent --allow /dev/nvme2n1\" in authorized_keys)\n"
	    "a key may only list and test the devices --allow names.",
    .opts = opts,
    .notes = "exit status: 0 the client said bye or closed the stream, 2 refused (a bad\n"
	     "--allow, another protocol version).",
    .exec = exec_agent,
};

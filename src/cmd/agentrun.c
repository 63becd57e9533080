/* agentrun.c - the agent's "run" request (agent.h, docs/hosts.md): the
 * client's workload options, read by the same parser as a local `nvscope
 * run` and judged here, where the drives are (--allow, the paths an option
 * would touch, the confirmation token of every target written); then
 * `nvscope run OPTIONS --output-format=json -q` as a child process of this
 * host (its JSON into a memory file, its stderr into the agent's log), held
 * at its start by a gate (NVSCOPE_RUN_GATE_FD, hostrun_gate_init) until the
 * client's GO: "ready" once every target is opened and judged and the
 * workers wait, "running" once released.  CANCEL stops it (SIGTERM before
 * the start, SIGINT after: it writes what it ran); the child dies with the
 * agent (PR_SET_PDEATHSIG). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "cmd/agent.h"
#include "cmd/cmd.h"
#include "cmd/hostrun.h"
#include "config/cli.h"
#include "dev/safety.h"
#include "ring/spsc.h"
#include "run/allow.h"
#include "run/proto.h"

#define GATE_FD	 3
#define MAX_ARGS 512

extern char **environ;

static int refuse(struct agent_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int refuse(struct agent_job *j, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(j->error, sizeof(j->error), fmt, ap);
	va_end(ap);
	return j->status = NVS_EXIT_USAGE;
}

/* The name of run option @id (cmd_run_entry's table). */
static const char *opt_name(int id)
{
	for (const struct cmd_opt *o = cmd_run_entry.opts; o && o->o.name; o++)
		if (o->o.val == id)
			return o->o.name;
	return "?";
}

/* Each target: a path the agent may test.  0, or refused. */
static int check_targets(struct agent_job *j, const struct cli *c)
{
	for (unsigned t = 0; t < c->ntargets; t++) {
		char path[4096], why[512];
		snprintf(path, sizeof(path), "%.*s", (int)strcspn(c->targets[t], ","),
			 c->targets[t]);
		if (allow_check(j->allow, path, why, sizeof(why)))
			return refuse(j, "%s", why);
	}
	return 0;
}

/* A run that writes: every target it writes confirmed by its token (the
 * check over hosts' rule: the operator does not see the drive). */
static int check_writes(struct agent_job *j, const struct cli *c, const char *confirm)
{
	struct spec *jobs = NULL;
	unsigned njobs = 0;
	char err[512];
	int rc = 0;

	if (cli_jobs(c, &jobs, &njobs, err, sizeof(err))) {
		free(jobs);
		return refuse(j, "%s", err);
	}
	for (unsigned k = 0; k < njobs && !rc; k++)
		for (unsigned t = 0; spec_writes(&jobs[k]) && t < jobs[k].ntargets && !rc; t++) {
			char token[256] = "";
			if (safety_confirmed(confirm, jobs[k].targets[t], NULL, 0))
				continue;
			safety_confirm_token(jobs[k].targets[t], token, sizeof(token));
			rc = refuse(j,
				    "refusing: the run writes to %s and destroys its data; confirm "
				    "with --yes-destroy-data=%s",
				    jobs[k].targets[t], token[0] ? token : jobs[k].targets[t]);
		}
	free(jobs);
	return rc;
}

/* The options as `nvscope run` reads them, judged.  0, or refused. */
static int check_args(struct agent_job *j, char **argv, int argc, const char *confirm)
{
	struct cmd_args ca;
	int rc = cmd_parse(&cmd_run_entry, argc, argv, &ca);

	if (rc) { /* cmd_parse said why (the log) */
		cmd_args_free(&ca);
		return refuse(j, "%s", rc == 1 ? "run: --help is not a run" : "");
	}
	const struct cli *c = ca.cli;
	if (ca.npos || c->job)
		rc = refuse(j, "run: job files over hosts are not built yet (give the options, or "
			       "--preset NAME of the host's presets)");
	else if (ca.nopt)
		rc = refuse(j, "run: --%s is the client's, not the host's", opt_name(ca.opt[0].id));
	else if (c->preset && strchr(c->preset, '/'))
		rc = refuse(j, "refusing preset %s: over hosts presets are taken by name only",
			    c->preset);
	else if (c->fileset)
		rc = refuse(j, "run: a file set (filename=a:b) over hosts is not built yet");
	else if (!c->ntargets)
		rc = refuse(j, "run: no target");
	for (unsigned k = 0; !rc && k < c->nkv; k++) {
		const char *bad = hostrun_refused_key(c->kv[k].key, c->kv[k].klen);
		if (bad)
			rc = refuse(j,
				    "refusing --%s over hosts: it names a file on the host (only "
				    "the targets travel)",
				    bad);
	}
	if (!rc)
		rc = check_targets(j, c);
	if (!rc)
		rc = check_writes(j, c, confirm);
	cmd_args_free(&ca);
	return rc;
}

/* The environment with NVSCOPE_RUN_GATE_FD=3 (malloc'ed array, borrowed
 * strings but the last). */
static char **child_env(char *gate)
{
	size_t n = 0, k = 0;
	while (environ[n])
		n++;
	char **env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "NVSCOPE_RUN_GATE_FD=", 20))
			env[k++] = environ[i];
	env[k++] = gate;
	env[k] = NULL;
	return env;
}

struct child {
	pid_t pid;
	int gate; /* our end of the gate socket */
	int json; /* its stdout: a memory file */
};

/* Starts `nvscope run ARGV... --output-format=json -q`.  0 or -errno. */
static int spawn(char **argv, struct child *ch)
{
	char gate[] = "NVSCOPE_RUN_GATE_FD=3";
	int sv[2];
	char **env = child_env(gate);
	pid_t parent = getpid();

	ch->pid = -1;
	ch->gate = ch->json = -1;
	if (!env)
		return -ENOMEM;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		free(env);
		return -errno;
	}
	ch->gate = sv[0];
	if ((ch->json = memfd_create("nvscope-run-json", MFD_CLOEXEC)) < 0 ||
	    (ch->pid = fork()) < 0) {
		int rc = -errno;
		close(sv[1]);
		free(env);
		return rc;
	}
	if (!ch->pid) { /* async-signal-safe calls only, up to the exec */
		sigset_t all;
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		if (dup2(ch->json, 1) < 0 || dup2(sv[1], GATE_FD) < 0 ||
		    fcntl(GATE_FD, F_SETFD, 0) < 0)
			_exit(127);
		execve("/proc/self/exe", argv, env);
		_exit(127);
	}
	close(sv[1]);
	free(env);
	return 0;
}

static void say_phase(struct agent_job *j, int phase, const char *name, unsigned n)
{
	struct agent_prog p = {.phase = phase, .drives = n};
	snprintf(p.name, sizeof(p.name), "%s", name);
	spsc_push(j->prog, &p);
}

/* The child's JSON (its whole stdout), parsed; NULL when none. */
static cJSON *read_json(int fd)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	cJSON *o = NULL;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return NULL;
	for (;;) {
		if (len + 65536 > cap) {
			char *nb = realloc(buf, cap = len + 65536 * 2);
			if (!nb)
				goto out;
			buf = nb;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	o = cJSON_Parse(buf);
out:
	free(buf);
	return o;
}

/* Serves the child's gate until it ends: "ready" out, GO in, CANCEL as a
 * signal.  Its exit status. */
static int serve(struct agent_job *j, struct child *ch, unsigned ntargets)
{
	bool ready = false, went = false, killed = false, open = true;
	int st = 0;

	for (;;) {
		struct pollfd p = {.fd = ch->gate, .events = POLLIN};
		bool cancel = atomic_load(&j->cancel);
		if (open && poll(&p, 1, ready && !went && !cancel ? 1 : 50) > 0) {
			char c = 0;
			ssize_t n = read(ch->gate, &c, 1);
			if (n == 1 && c == 'r' && !ready) {
				ready = true;
				if (!cancel)
					say_phase(j, 1, "ready", ntargets);
			} else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
				open = false;
			}
		}
		if (ready && !went && (cancel || atomic_load(&j->go))) {
			char c = cancel ? 'c' : 'g';
			went = true;
			if (write(ch->gate, &c, 1) == 1 && !cancel)
				say_phase(j, 2, "running", ntargets);
		}
		if (cancel && !killed) {
			kill(ch->pid, went && ready ? SIGINT : SIGTERM);
			killed = true;
		}
		pid_t w = waitpid(ch->pid, &st, open ? WNOHANG : 0);
		if (w == ch->pid)
			break;
		if (w < 0 && errno != EINTR)
			return NVS_EXIT_IOERR;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int agentrun_do(struct agent_job *j)
{
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(j->params, "args"), *x;
	const char *confirm = proto_get_str(j->params, "confirm", 4095);
	int n = cJSON_GetArraySize(args), k = 0;
	char **argv;
	struct child ch = {.pid = -1, .gate = -1, .json = -1};
	unsigned ntargets = 0;

	if (!cJSON_IsArray(args) || !n || n > MAX_ARGS)
		return refuse(j, "run: give \"args\" (1 to %d options)", MAX_ARGS);
	if (!(argv = calloc((size_t)n + 5, sizeof(*argv))))
		return refuse(j, "out of memory");
	argv[k++] = "nvscope";
	argv[k++] = "run";
	cJSON_ArrayForEach(x, args)
	{
		if (!cJSON_IsString(x) || strlen(x->valuestring) > PROTO_MAX_STR) {
			free(argv);
			return refuse(j, "run: an option that is not a string");
		}
		ntargets += !strncmp(x->valuestring, "--target", 8);
		argv[k++] = x->valuestring;
	}
	/* judged as `nvscope run` reads them (argv[1] is the command's name) */
	if (check_args(j, argv + 1, k - 1, confirm)) {
		free(argv);
		return j->status;
	}
	argv[k++] = "--output-format=json";
	argv[k++] = "-q";
	int rc = spawn(argv, &ch);
	free(argv);
	if (rc) {
		snprintf(j->error, sizeof(j->error), "cannot start the run: %s", strerror(-rc));
		j->status = NVS_EXIT_IOERR;
	} else {
		say_phase(j, 0, "prepare", ntargets);
		j->status = serve(j, &ch, ntargets);
		cJSON *fio = read_json(ch.json);
		if (fio) {
			j->result = cJSON_CreateObject();
			cJSON_AddItemToObject(j->result, "fio", fio);
		}
	}
	if (ch.gate >= 0)
		close(ch.gate);
	if (ch.json >= 0)
		close(ch.json);
	return j->status;
}

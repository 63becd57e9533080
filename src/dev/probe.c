/* probe.c - safety_usage() of devices that are not the target, each in a
 * helper process with a deadline (probe.h).  The helpers' parent is this
 * program started afresh (posix_spawn of /proc/self/exe with
 * PROBE_HELPER_ARG), never a fork of it: the console has threads. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "dev/devmodel.h"
#include "dev/probe.h"
#include "dev/safety.h"

#define NR_STUCK       64
#define PROBE_BATCH    64 /* helpers of one started parent (serve()) */
#define NOT_RESPONDING "not responding"
#define PENDING	       "probing: no answer yet"
/* A helper says "started" (one byte) before it touches the device: the
 * deadline counts from then, so a loaded machine that is slow to run the
 * helper at all does not make a device "not responding".  One that has
 * not even started after this long is given up too. */
#define START_GRACE_S 10.0

/* A helper that did not answer in time: its device and its pipe. */
struct stuck {
	char path[256];
	int fd;
	size_t got;   /* bytes of its answer read (its "started") */
	double since; /* monotonic s, when it was asked */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct stuck stuck[NR_STUCK];
static unsigned nstuck;

/* One probe of one call. */
struct ask {
	const char *path;
	struct dev_usage *u;
	int fd;	    /* read end of its pipe, or -1 */
	size_t got; /* bytes of the answer read */
	bool done;
	bool told;	/* its answer was reported (probe_usage_each's @answered) */
	bool behind;	/* given up: its helper may still be stuck */
	double since;	/* when it was asked */
	double started; /* when its helper said it started, 0 before */
	unsigned char raw[1 + sizeof(struct dev_usage)]; /* "started", then the answer */
};

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void not_responding(struct dev_usage *u, double secs)
{
	double tenths = floor(secs * 10 + 0.5);

	memset(u, 0, sizeof(*u));
	u->unknown = true;
	/* "2 s", "0.3 s": tenths only where they are not whole */
	snprintf(u->why, sizeof(u->why), NOT_RESPONDING " (no answer in %.*f s)",
		 fmod(tenths, 10) != 0 ? 1 : 0, tenths / 10);
}

/* No helper could be started (@err): unknown too, never probed here. */
static void unprobed(struct dev_usage *u, int err)
{
	memset(u, 0, sizeof(*u));
	u->unknown = true;
	snprintf(u->why, sizeof(u->why), "not probed: %s", strerror(err));
}

void probe_mark_pending(struct dev_usage *u)
{
	memset(u, 0, sizeof(*u));
	u->unknown = true;
	snprintf(u->why, sizeof(u->why), PENDING);
}

bool probe_is_pending(const struct dev_usage *u)
{
	return u->unknown && !strcmp(u->why, PENDING);
}

bool probe_not_responding(const struct dev_usage *u)
{
	return u->unknown && !strncmp(u->why, NOT_RESPONDING, strlen(NOT_RESPONDING));
}

/* ---- the helper ---- */

/* Closes every descriptor but @keep (the parent's claims, rings, terminal
 * and pipes are not held by a helper that may be stuck for long). */
static void close_all_but(int keep)
{
	if (keep > 0 && close_range(0, (unsigned)keep - 1, 0) == 0 &&
	    close_range((unsigned)keep + 1, ~0U, 0) == 0)
		return;
	long max = sysconf(_SC_OPEN_MAX);
	for (int fd = 0; fd < (max > 0 ? max : 1024); fd++)
		if (fd != keep)
			close(fd);
}

/* The signals a helper ignores (it is never ended by one meant for the
 * program; a late answer to a closed pipe is EPIPE, not SIGPIPE). */
static void helper_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGPIPE);
}

/* One helper (probe.h): the reading of @path into the pipe @fd, then
 * _exit.  A helper stuck on its device is never killed: it ends when its
 * read does (its answer then goes to a pipe nobody reads, or to a later
 * scan).  Killed, it would leave its read at once and exit, and its exit
 * can be the last close of the device, which waits for the reads still
 * pending there while holding the device's open mutex: every later open of
 * that device, a run's or a check's included, would then hang in the
 * kernel. */
static void helper(const char *path, int fd)
{
	struct dev_usage u;
	const char *p = (const char *)&u;
	size_t left = sizeof(u);
	char started = 'S';

	if (write(fd, &started, 1) != 1) /* the deadline runs from here */
		_exit(1);
	close_all_but(fd);
	memset(&u, 0, sizeof(u));
	safety_usage(path, &u);
	while (left) {
		ssize_t w = write(fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(1);
		p += w;
		left -= (size_t)w;
	}
	_exit(0);
}

/* The helpers' parent, started afresh by probe_usage_each() for @n paths
 * whose pipes are on PROBE_FD.. PROBE_FD + @n - 1: a process with one
 * thread, so it may fork (the console may not: see spawn_helpers()); one
 * helper per path, each left with its own pipe only (the parent closes its
 * copy at once: a helper that dies unanswered is seen at once).  It waits
 * for its helpers (they are its children: reaped here, whatever became of
 * the program that asked), then ends. */
static void serve(char **paths, int n)
{
	sigset_t sigs;

	/* it was started with these blocked (spawn_helpers()): ignored
	 * first, then unblocked, so none can end it in between; a process
	 * group of its own (Ctrl-C reaches the whole foreground group), the
	 * helpers' too */
	helper_signals(&sigs);
	for (int s = 1; s < NSIG; s++)
		if (sigismember(&sigs, s))
			signal(s, SIG_IGN);
	sigprocmask(SIG_UNBLOCK, &sigs, NULL);
	setpgid(0, 0);
	for (int i = 0; i < n; i++) {
		struct stat st;
		int fd = PROBE_FD + i;
		/* only ever the answer pipes of a probe: by hand, nothing */
		if (fstat(fd, &st) || !S_ISFIFO(st.st_mode))
			_exit(2);
		pid_t pid = fork(); /* failed: its pipe closes unanswered */
		if (pid == 0)
			helper(paths[i], fd);
		close(fd);
	}
	while (wait(NULL) > 0 || errno == EINTR)
		;
	_exit(0);
}

void probe_helper_main(int argc, char **argv)
{
	if (argc >= 3 && argc - 2 <= PROBE_BATCH && !strcmp(argv[1], PROBE_HELPER_ARG))
		serve(argv + 2, argc - 2);
}

/* ---- the helpers' parent, spawned ---- */

/* Started helpers' parents not reaped yet (a parent ends when its last
 * helper has; one whose helper is stuck lives on): reaped without waiting
 * at each call.  Called with the lock held. */
static pid_t servers[4 * NR_STUCK];
static unsigned nservers;

static void reap_servers(void)
{
	for (unsigned i = 0; i < nservers;) {
		pid_t r = waitpid(servers[i], NULL, WNOHANG);
		if (r == 0 || (r < 0 && errno == EINTR))
			i++;
		else
			servers[i] = servers[--nservers];
	}
}

/* The helpers' parent for @n asks (@wfd: their pipes' write ends, each
 * above PROBE_FD + @n, so that no dup2 overwrites one not yet moved): a
 * fresh program (this very binary, /proc/self/exe, whatever became of its
 * file), not a fork of this one: a fork of a threaded process copies locks
 * other threads held (an allocator's: a helper that deadlocked in malloc
 * under ASan).  Its descriptors: the pipes on PROBE_FD.., nothing else.
 * One program started per call, not per device: starting one costs tens
 * of ms of CPU (ASan: 100+), a fork of it one. */
static int spawn_helpers(struct ask *const *as, const int *wfd, int n, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t sigs;
	char *argv[PROBE_BATCH + 3] = {"nvscope-probe", PROBE_HELPER_ARG};
	int r;

	for (int i = 0; i < n; i++)
		argv[2 + i] = (char *)as[i]->path;
	argv[2 + n] = NULL;
	if ((r = posix_spawn_file_actions_init(&fa)))
		return r;
	if ((r = posix_spawnattr_init(&at))) {
		posix_spawn_file_actions_destroy(&fa);
		return r;
	}
	helper_signals(&sigs);
	for (int i = 0; i < n && !r; i++)
		r = posix_spawn_file_actions_adddup2(&fa, wfd[i], PROBE_FD + i);
	/* nothing else, 0-2 included (no /dev/null: /dev may be hidden,
	 * tests/integration/safety_unknown.sh), as the fork's before */
	for (int fd = 0; fd < PROBE_FD && !r; fd++)
		r = posix_spawn_file_actions_addclose(&fa, fd);
	if (!r && !(r = posix_spawn_file_actions_addclosefrom_np(&fa, PROBE_FD + n)) &&
	    !(r = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK)) &&
	    !(r = posix_spawnattr_setpgroup(&at, 0)) &&
	    !(r = posix_spawnattr_setsigmask(&at, &sigs)))
		r = posix_spawn(pid, "/proc/self/exe", &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	return r;
}

/* The helpers' parents of one call whose helpers all answered end at once:
 * reaped here (waiting at most 200 ms), so that a program that ends next
 * (`list`) leaves no orphan for init to reap.  Not when a helper was left
 * behind: its parent lives on (reaped by a later call, reap_servers()). */
static void settle(pid_t *mine, size_t n)
{
	for (int round = 0; round < 200; round++) {
		size_t left = 0;
		pthread_mutex_lock(&lock);
		for (size_t j = 0; j < n; j++) {
			if (!mine[j])
				continue;
			pid_t r = waitpid(mine[j], NULL, WNOHANG);
			if (r == 0 || (r < 0 && errno == EINTR)) {
				left++;
				continue;
			}
			for (unsigned i = 0; i < nservers; i++) /* reaped (or by another) */
				if (servers[i] == mine[j])
					servers[i--] = servers[--nservers];
			mine[j] = 0;
		}
		pthread_mutex_unlock(&lock);
		if (!left)
			return;
		nanosleep(&(struct timespec){0, 1000000}, NULL);
	}
}

/* Starts the helpers of @as[0..@n-1] (@n <= PROBE_BATCH); an ask that
 * cannot have one is answered "not probed: REASON" (done).  Returns their
 * parent's pid, 0 when none was started. */
static pid_t start(struct ask **as, int n)
{
	int wfd[PROBE_BATCH];
	int k = 0, err = 0;
	pid_t pid;

	for (int i = 0; i < n; i++) {
		int p[2];
		if (pipe2(p, O_CLOEXEC)) {
			err = errno;
			break;
		}
		wfd[k] = fcntl(p[1], F_DUPFD_CLOEXEC, PROBE_FD + n);
		err = errno;
		close(p[1]);
		if (wfd[k] < 0) {
			close(p[0]);
			break;
		}
		as[k++]->fd = p[0];
	}
	int r = k ? spawn_helpers(as, wfd, k, &pid) : 0;
	for (int i = 0; i < k; i++)
		close(wfd[i]);
	if (k && !r) {
		pthread_mutex_lock(&lock);
		reap_servers();
		if (nservers < sizeof(servers) / sizeof(servers[0]))
			servers[nservers++] = pid;
		pthread_mutex_unlock(&lock);
	}
	for (int i = 0; i < n; i++) {
		if (i < k && !r)
			continue;
		if (as[i]->fd >= 0)
			close(as[i]->fd);
		as[i]->fd = -1;
		unprobed(as[i]->u, i < k ? r : err ? err : EMFILE);
		as[i]->done = true;
	}
	return k && !r ? pid : 0;
}

/* Reads what helper @a has sent; true once the answer is whole or the
 * helper is gone (then marked done). */
static bool collect(struct ask *a)
{
	for (;;) {
		ssize_t r = read(a->fd, a->raw + a->got, sizeof(a->raw) - a->got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r > 0 && !a->started)
			a->started = mono_now();
		if (r < 0 && errno == EAGAIN)
			return false;
		if (r > 0) {
			a->got += (size_t)r;
			if (a->got < sizeof(a->raw))
				continue;
		}
		break;
	}
	if (a->got == sizeof(a->raw)) {
		memcpy(a->u, a->raw + 1, sizeof(*a->u));
	} else { /* it died without an answer: unknown */
		memset(a->u, 0, sizeof(*a->u));
		a->u->unknown = true;
		snprintf(a->u->why, sizeof(a->u->why), "probe failed");
	}
	close(a->fd); /* its parent reaps it (serve()) */
	a->fd = -1;
	a->done = true;
	return true;
}

/* ---- helpers still stuck from earlier calls ---- */

/* Called with the lock held: the entry of @path, or -1. */
static int stuck_find(const char *path)
{
	for (unsigned i = 0; i < nstuck; i++)
		if (!strcmp(stuck[i].path, path))
			return (int)i;
	return -1;
}

static void stuck_drop(unsigned i)
{
	stuck[i] = stuck[--nstuck];
}

/* An earlier helper of @a's path: still stuck (true: @a is answered "not
 * responding", no new helper), answered late (true: its answer is used),
 * or none (false). */
static bool from_earlier(struct ask *a)
{
	bool answered = false;

	pthread_mutex_lock(&lock);
	int i = stuck_find(a->path);
	if (i >= 0) {
		struct ask late = {.path = a->path,
				   .u = a->u,
				   .fd = stuck[i].fd,
				   .got = stuck[i].got,
				   .started = 1};
		fcntl(late.fd, F_SETFL, O_NONBLOCK);
		if (collect(&late)) {
			stuck_drop((unsigned)i);
			/* a helper killed unanswered tells nothing: ask again */
			answered = !late.u->unknown || strcmp(late.u->why, "probe failed");
		} else {
			stuck[i].got = late.got;
			not_responding(a->u, mono_now() - stuck[i].since);
			answered = true;
		}
	}
	pthread_mutex_unlock(&lock);
	if (answered)
		a->done = true;
	return answered;
}

/* Helper @a did not answer by the deadline: remembered (its answer may
 * come later), or, the table being full, ended and forgotten. */
static void leave_behind(struct ask *a, double deadline)
{
	a->behind = true;
	not_responding(a->u, deadline);
	pthread_mutex_lock(&lock);
	if (nstuck < NR_STUCK && strlen(a->path) < sizeof(stuck[0].path)) {
		struct stuck *s = &stuck[nstuck++];
		snprintf(s->path, sizeof(s->path), "%s", a->path);
		s->fd = a->fd;
		s->got = a->got;
		s->since = a->since;
		a->fd = -1;
	}
	pthread_mutex_unlock(&lock);
	if (a->fd >= 0) { /* forgotten, not killed (see helper()) */
		close(a->fd);
		a->fd = -1;
	}
	a->done = true;
}

unsigned probe_pending(void)
{
	pthread_mutex_lock(&lock);
	unsigned n = nstuck;
	pthread_mutex_unlock(&lock);
	return n;
}

/* ---- the call ---- */

/* When helper @a is given up: @d s after it started, or after it was
 * asked when it has not started yet (plus a grace). */
static double give_up_at(const struct ask *a, double d)
{
	return a->started ? a->started + d : a->since + START_GRACE_S + d;
}

/* Reports each answer of @as that is in and not yet reported. */
static void tell(struct ask *as, size_t n, probe_answered_fn answered, void *ctx)
{
	for (size_t i = 0; answered && i < n; i++)
		if (as[i].done && !as[i].told) {
			as[i].told = true;
			answered(ctx, i);
		}
}

/* Waits for the helpers of @as until each has answered or been given up
 * (@d s after it started: not responding), reporting each as it comes. */
static void wait_all(struct ask *as, size_t n, double d, probe_answered_fn answered, void *ctx)
{
	struct pollfd *pf = calloc(n, sizeof(*pf));
	size_t *who = calloc(n, sizeof(*who));

	for (;;) {
		double now = mono_now(), next = now + START_GRACE_S + d;
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			if (as[i].done || as[i].fd < 0)
				continue;
			if (now >= give_up_at(&as[i], d) || !pf || !who) {
				leave_behind(&as[i], d);
				continue;
			}
			next = fmin(next, give_up_at(&as[i], d));
			pf[k] = (struct pollfd){.fd = as[i].fd, .events = POLLIN};
			who[k++] = i;
		}
		tell(as, n, answered, ctx);
		if (!k)
			break;
		int r = poll(pf, k, (int)((next - now) * 1000) + 1);
		if (r < 0 && errno != EINTR)
			break;
		for (size_t j = 0; r > 0 && j < k; j++)
			if (pf[j].revents)
				collect(&as[who[j]]);
		tell(as, n, answered, ctx);
	}
	free(pf);
	free(who);
}

void probe_usage_each(const char *const *paths, struct dev_usage *const *u, size_t n,
		      unsigned deadline_ms, probe_answered_fn answered, void *ctx)
{
	struct ask *as = calloc(n, sizeof(*as));
	double d = deadline_ms / 1000.0;

	if (!as) { /* never probed here: it could hang the program */
		for (size_t i = 0; i < n; i++) {
			unprobed(u[i], ENOMEM);
			if (answered)
				answered(ctx, i);
		}
		return;
	}
	struct ask *batch[PROBE_BATCH];
	pid_t *mine = calloc(n / PROBE_BATCH + 1, sizeof(*mine));
	size_t nm = 0;
	int nb = 0;
	for (size_t i = 0; i < n; i++) {
		struct ask *a = &as[i];
		*a = (struct ask){.path = paths[i], .u = u[i], .fd = -1, .since = mono_now()};
		if (from_earlier(a))
			continue;
		batch[nb++] = a;
		if (nb == PROBE_BATCH || i + 1 == n) {
			pid_t pid = start(batch, nb);
			if (mine)
				mine[nm++] = pid;
			nb = 0;
		}
	}
	if (nb) {
		pid_t pid = start(batch, nb);
		if (mine)
			mine[nm++] = pid;
	}
	for (size_t i = 0; i < n; i++) /* answers are read as they come */
		if (as[i].fd >= 0)
			fcntl(as[i].fd, F_SETFL, O_NONBLOCK);
	wait_all(as, n, d, answered, ctx);
	for (size_t i = 0; i < n; i++) /* poll failed: given up */
		if (!as[i].done)
			leave_behind(&as[i], d);
	tell(as, n, answered, ctx);
	bool behind = false;
	for (size_t i = 0; i < n; i++)
		behind |= as[i].behind;
	if (mine && !behind)
		settle(mine, nm);
	free(mine);
	free(as);
}

void probe_usage_many(const char *const *paths, struct dev_usage *const *u, size_t n,
		      unsigned deadline_ms)
{
	probe_usage_each(paths, u, n, deadline_ms, NULL, NULL);
}

void probe_usage(const char *path, struct dev_usage *u)
{
	probe_usage_many(&path, &u, 1, PROBE_DEADLINE_MS);
}

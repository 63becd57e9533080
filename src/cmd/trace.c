/* trace.c - `nvscope trace record|show`: record a block device's I/O with
 * blktrace into a fio version 3 iolog (plus blktrace's raw per-CPU files),
 * and summarize a trace file.  Replay is `nvscope run --read_iolog`. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cmd/cmd.h"
#include "cmd/stopsig.h"
#include "dev/safety.h"
#include "io/opt/spec.h"
#include "io/trace/trace.h"
#include "io/trace/tracefs.h"

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
	stop_sig = sig;
}

static int exec_show(const struct cmd_entry *self, struct cmd_args *a)
{
	struct trace *t;
	char err[512];

	if (a->npos != 1) {
		cmd_help(stderr, self);
		return NVS_EXIT_USAGE;
	}
	const char *path = a->pos[0];
	int rc = trace_load(path, &t, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "nvscope trace: %s\n", err);
		return rc;
	}
	printf("%s: %s, %zu I/Os (%llu reads, %llu writes, %llu trims, %llu syncs), %s\n", path,
	       trace_fmt_name(t->fmt), t->n, (unsigned long long)t->nops[TRACE_READ],
	       (unsigned long long)t->nops[TRACE_WRITE], (unsigned long long)t->nops[TRACE_TRIM],
	       (unsigned long long)t->nops[TRACE_SYNC], t->timed ? "timed" : "untimed");
	printf("span %.6f s, extent %llu bytes, largest I/O %u bytes, %u file(s)/device(s)\n",
	       (double)t->io[t->n - 1].t_ns / 1e9, (unsigned long long)t->max_end, t->max_len,
	       t->nfiles);
	trace_free(t);
	return NVS_EXIT_OK;
}

/* debugfs at /sys/kernel/debug, mounted when absent (blktrace needs it). */
static int need_debugfs(void)
{
	struct stat st;
	if (!stat("/sys/kernel/debug/block", &st))
		return 0;
	if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) && errno != EBUSY)
		return -errno;
	return stat("/sys/kernel/debug/block", &st) ? -errno : 0;
}

/* The raw directory must be new or empty: blktrace creates its files there. */
static int raw_dir_ready(const char *dir, char *err, size_t errlen)
{
	int fd = safety_results_dir(dir, true, err, errlen);
	if (fd < 0)
		return fd;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(err, errlen,
				 "%s: not empty (it holds %.64s); give a new --raw directory", dir,
				 e->d_name);
			rc = -EEXIST;
			break;
		}
	closedir(d);
	return rc;
}

#define TRACEFS "/sys/kernel/tracing"

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Writes @val into the tracefs control file @dir/@file. */
static int ctl(const char *dir, const char *file, const char *val)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, val, strlen(val));
	int rc = n == (ssize_t)strlen(val) ? 0 : n < 0 ? -errno : -EIO;
	close(fd);
	return rc;
}

/* Appends what @fd has to *@buf (and to @raw). 0, or -errno. */
static int drain_pipe(int fd, char **buf, size_t *len, size_t *cap, int raw)
{
	for (;;) {
		if (*cap - *len < 65536) {
			size_t nc = *cap ? *cap * 2 : 1 << 20;
			char *p = realloc(*buf, nc);
			if (!p)
				return -ENOMEM;
			*buf = p;
			*cap = nc;
		}
		ssize_t n = read(fd, *buf + *len, *cap - *len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			return n < 0 ? -errno : 0;
		if (raw >= 0 && write(raw, *buf + *len, (size_t)n) != n)
			return -EIO;
		*len += (size_t)n;
	}
}

/* Where lockdown forbids blktrace (its relay files in debugfs), the same
 * issue events from tracefs: block:block_rq_issue of @devt, in an instance
 * of our own.  The text goes to @raw and into *@buf. */
static int ftrace_capture(dev_t devt, uint64_t dur_ns, int raw, char **buf, size_t *len, char *err,
			  size_t errlen)
{
	char inst[160], name[64], filt[64];
	size_t cap = 0;
	struct stat st;
	int rc, fd = -1;

	*buf = NULL;
	*len = 0;
	if (stat(TRACEFS "/instances", &st) && mount("tracefs", TRACEFS, "tracefs", 0, NULL) &&
	    errno != EBUSY) {
		snprintf(err, errlen, "cannot mount tracefs at " TRACEFS ": %s", strerror(errno));
		return -errno;
	}
	/* nvscope-PID-START: a later trace record removes it if we die with it */
	if ((rc = tracefs_instance_name(name, sizeof(name)))) {
		snprintf(err, errlen, "/proc/self/stat: %s", strerror(-rc));
		return rc;
	}
	snprintf(inst, sizeof(inst), TRACEFS "/instances/%s", name);
	if (mkdir(inst, 0700)) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", inst, strerror(-rc));
		return rc;
	}
	snprintf(filt, sizeof(filt), "dev == %u", (unsigned)((major(devt) << 20) | minor(devt)));
	rc = ctl(inst, "buffer_size_kb", "16384");
	if (!rc)
		rc = ctl(inst, "events/block/block_rq_issue/filter", filt);
	if (!rc)
		rc = ctl(inst, "events/block/block_rq_issue/enable", "1");
	if (rc) {
		snprintf(err, errlen, "%s: cannot enable block_rq_issue: %s", inst, strerror(-rc));
		goto out;
	}
	char pipe[192];
	snprintf(pipe, sizeof(pipe), "%s/trace_pipe", inst);
	fd = open(pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", pipe, strerror(-rc));
		goto out;
	}
	uint64_t end = now_ns() + dur_ns;
	while (!stop_sig && !rc) {
		uint64_t now = now_ns();
		if (now >= end)
			break;
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		uint64_t left = (end - now) / 1000000;
		poll(&pf, 1, left > 200 ? 200 : (int)left + 1);
		rc = drain_pipe(fd, buf, len, &cap, raw);
	}
	ctl(inst, "events/block/block_rq_issue/enable", "0");
	if (!rc)
		rc = drain_pipe(fd, buf, len, &cap, raw);
	if (rc)
		snprintf(err, errlen, "reading %s: %s", pipe, strerror(-rc));
out:
	if (fd >= 0)
		close(fd);
	ctl(inst, "events/block/block_rq_issue/enable", "0");
	rmdir(inst);
	if (rc) {
		free(*buf);
		*buf = NULL;
	}
	return rc;
}

/* May output @out be written?  Not input @in, not target @dev (by
 * identity), not a file in use (safety_fileset_check_output).  0 or -errno
 * with @err. */
static int out_allowed(const char *in, const char *dev, const char *out, char *err, size_t errlen)
{
	struct safety_fileset *fs = safety_fileset_new();
	int rc = fs ? 0 : -ENOMEM;

	if (!rc && in)
		rc = safety_fileset_add(fs, in, false, "the trace read");
	if (!rc && dev)
		rc = safety_fileset_add(fs, dev, true, "the device recorded");
	if (!rc)
		rc = safety_fileset_check_output(fs, out, err, errlen);
	else
		snprintf(err, errlen, "%s", strerror(-rc));
	safety_fileset_free(fs);
	return rc;
}

static void said_removed(const char *name, int err, void *arg)
{
	(void)arg;
	if (err)
		fprintf(stderr,
			"nvscope trace: cannot remove the stale tracefs instance %s (its "
			"process is gone): %s\n",
			name, strerror(-err));
	else
		fprintf(stderr,
			"nvscope trace: removed the stale tracefs instance %s (its process is "
			"gone)\n",
			name);
}

/* Instances left by trace records that died (SIGKILL) hold 16 MiB of kernel
 * buffers per CPU each and keep tracing: removed before a new one is made. */
static void sweep_instances(void)
{
	struct stat st;
	if (!stat(TRACEFS "/instances", &st))
		tracefs_sweep(TRACEFS "/instances", "/proc", said_removed, NULL);
}

/* blktrace -d @dev for @secs into @raw/@base.blktrace.N: 0 when it wrote
 * its files, 1 when it could not trace (lockdown: no files), -errno. */
static int run_blktrace(const char *dev, const char *secs, const char *raw, const char *base,
			const char *first)
{
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		stopsig_default();
		int nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (nul >= 0) {
			dup2(nul, STDOUT_FILENO); /* blktrace's per-CPU summary */
			dup2(nul, STDERR_FILENO); /* its complaints: we say what failed */
		}
		/* Debian's place, then /usr/bin: root does not search $PATH */
		execl("/usr/sbin/blktrace", "blktrace", "-d", dev, "-w", secs, "-D", raw, "-o",
		      base, (char *)NULL);
		execl("/usr/bin/blktrace", "blktrace", "-d", dev, "-w", secs, "-D", raw, "-o", base,
		      (char *)NULL);
		_exit(127);
	}
	int ws = 0;
	bool sent = false;
	while (waitpid(pid, &ws, 0) < 0) {
		if (errno != EINTR)
			break;
		if (stop_sig && !sent) {
			kill(pid, SIGINT); /* blktrace ends cleanly on SIGINT */
			sent = true;
		}
	}
	struct stat st;
	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
		return -ENOENT;
	return stat(first, &st) ? 1 : 0;
}

/* Where the kernel refuses blktrace (lockdown restricts its debugfs files):
 * device @rdev's issue events through tracefs for @dur_ns, kept raw in
 * @raw/@base.block_rq_issue.txt and parsed into *@t.  0 or -errno with
 * @err. */
static int record_tracefs(dev_t rdev, uint64_t dur_ns, const char *raw, const char *base,
			  struct trace **t, char *err, size_t errlen)
{
	char name[300];
	char *buf = NULL;
	size_t len = 0;

	snprintf(name, sizeof(name), "%s.block_rq_issue.txt", base);
	char why[1024] = ""; /* safety_out's messages are one line */
	int dfd = open(raw, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rfd =
	    dfd < 0 ? -errno : safety_openat_output(dfd, name, SAFETY_OUT_EXCL, why, sizeof(why));
	if (dfd >= 0)
		close(dfd);
	if (rfd < 0) {
		if (snprintf(err, errlen, "%s/%s: %s", raw, name, dfd < 0 ? strerror(-rfd) : why) >=
		    (int)errlen)
			snprintf(err, errlen, "%s: %s", name, dfd < 0 ? strerror(-rfd) : why);
		return rfd;
	}
	int rc = ftrace_capture(rdev, dur_ns, rfd, &buf, &len, err, errlen);
	if (close(rfd) && !rc)
		rc = -errno;
	if (!rc)
		rc = trace_parse_ftrace(
		    name, buf, len, (unsigned)((major(rdev) << 20) | minor(rdev)), t, err, errlen);
	free(buf);
	return rc;
}

/* The recording's file names: the raw directory (default OUT.blktrace)
 * and blktrace's first file in it.  0, or NVS_EXIT_USAGE (said). */
static int record_names(const char *out, const char **raw, char *rawbuf, size_t rawlen,
			const char *base, char *first, size_t firstlen)
{
	if (!*raw) {
		if ((size_t)snprintf(rawbuf, rawlen, "%s.blktrace", out) >= rawlen) {
			fprintf(stderr, "nvscope trace: %s: name too long\n", out);
			return NVS_EXIT_USAGE;
		}
		*raw = rawbuf;
	}
	if ((size_t)snprintf(first, firstlen, "%s/%s.blktrace.0", *raw, base) >= firstlen) {
		fprintf(stderr, "nvscope trace: %s: name too long\n", *raw);
		return NVS_EXIT_USAGE;
	}
	return 0;
}

/* The capture itself, once the outputs are open: blktrace, or tracefs
 * where the kernel refuses blktrace.  0 with *@t and *@via, or the exit
 * status (said). */
static int capture(const char *dev, const struct stat *st, uint64_t dur_ns, const char *raw,
		   const char *base, const char *first, struct trace **t, const char **via)
{
	char err[4400], secs[32];

	snprintf(secs, sizeof(secs), "%llu",
		 (unsigned long long)((dur_ns + 999999999ULL) / 1000000000ULL));
	/* SIGHUP and SIGQUIT too: each ends the recording early, its instance
	 * removed; no SA_RESTART, so the wait for blktrace sees the stop */
	stopsig_catch(on_signal, false);
	sweep_instances();
	*via = "blktrace";
	int rc = run_blktrace(dev, secs, raw, base, first);
	if (rc == -ENOENT) {
		fprintf(stderr,
			"nvscope trace: cannot run blktrace (Debian: apt install blktrace)\n");
		return NVS_EXIT_USAGE;
	}
	if (rc < 0) {
		fprintf(stderr, "nvscope trace: blktrace: %s\n", strerror(-rc));
		return NVS_EXIT_IOERR;
	}
	if (rc == 0) {
		rc = trace_load(first, t, err, sizeof(err));
	} else if (!stop_sig) { /* no files: the kernel refused blktrace */
		*via = "tracefs block_rq_issue (blktrace refused by the kernel)";
		rc = record_tracefs(st->st_rdev, dur_ns, raw, base, t, err, sizeof(err));
	} else {
		rc = -EINTR;
		snprintf(err, sizeof(err), "interrupted before anything was recorded");
	}
	if (rc) {
		fprintf(stderr, "nvscope trace: %s\n", err);
		return NVS_EXIT_IOERR;
	}
	return 0;
}

static int record(const char *dev, uint64_t dur_ns, const char *out, const char *raw)
{
	char err[4400], rawbuf[4096], first[4096];
	struct stat st;
	const char *base = strrchr(dev, '/'), *via;
	struct trace *t = NULL;
	base = base ? base + 1 : dev;

	if (stat(dev, &st) || !S_ISBLK(st.st_mode)) {
		fprintf(stderr, "nvscope trace: %s: not a block device\n", dev);
		return NVS_EXIT_USAGE;
	}
	if (record_names(out, &raw, rawbuf, sizeof(rawbuf), base, first, sizeof(first)))
		return NVS_EXIT_USAGE;
	/* outputs first: a refused output refuses the recording (never the
	 * device recorded, never a file in use) */
	FILE *f = NULL;
	err[0] = '\0';
	if (!out_allowed(NULL, dev, out, err, sizeof(err)))
		f = safety_fopen_output(out, SAFETY_OUT_TRUNC, err, sizeof(err));
	if (!f) {
		fprintf(stderr, "nvscope trace: %s: %s\n", out, err[0] ? err : strerror(errno));
		return NVS_EXIT_USAGE;
	}
	int rc = raw_dir_ready(raw, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "nvscope trace: %s\n", err);
	} else if ((rc = need_debugfs())) {
		fprintf(stderr,
			"nvscope trace: debugfs at /sys/kernel/debug: %s (blktrace needs it)\n",
			strerror(-rc));
	} else {
		rc = capture(dev, &st, dur_ns, raw, base, first, &t, &via);
	}
	if (rc) {
		fclose(f);
		unlink(out); /* ours: created or emptied above */
		return rc;
	}
	rc = trace_write_iolog3(f, t, dev);
	if (fclose(f) && !rc)
		rc = -errno;
	if (rc) {
		fprintf(stderr, "nvscope trace: cannot write %s: %s\n", out, strerror(-rc));
		trace_free(t);
		return NVS_EXIT_IOERR;
	}
	fprintf(stderr,
		"nvscope trace: %zu I/Os (%llu reads, %llu writes, %llu trims) in %s, via "
		"%s; raw files in %s\n",
		t->n, (unsigned long long)t->nops[TRACE_READ],
		(unsigned long long)t->nops[TRACE_WRITE], (unsigned long long)t->nops[TRACE_TRIM],
		out, via, raw);
	trace_free(t);
	return NVS_EXIT_OK;
}

/* Any trace nvscope reads, written as a fio version 3 iolog on file @name. */
static int convert(const char *in, const char *out, const char *name)
{
	char err[4400];
	struct trace *t;
	int rc = trace_load(in, &t, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "nvscope trace: %s\n", err);
		return cmd_exit_of(rc);
	}
	if (!*name || strpbrk(name, " \t\r\n")) {
		fprintf(stderr, "nvscope trace: --file '%s': a name without white space\n", name);
		trace_free(t);
		return NVS_EXIT_USAGE;
	}
	/* never onto the trace read, nor a file in use (a loop device's image) */
	FILE *f = NULL;
	err[0] = '\0';
	if (!out_allowed(in, NULL, out, err, sizeof(err)))
		f = safety_fopen_output(out, SAFETY_OUT_TRUNC, err, sizeof(err));
	if (!f) {
		fprintf(stderr, "nvscope trace: %s: %s\n", out, err[0] ? err : strerror(errno));
		trace_free(t);
		return NVS_EXIT_USAGE;
	}
	rc = trace_write_iolog3(f, t, name);
	if (fclose(f) && !rc)
		rc = -errno;
	if (rc) {
		fprintf(stderr, "nvscope trace: cannot write %s: %s\n", out, strerror(-rc));
		unlink(out);
	} else {
		fprintf(stderr, "nvscope trace: %zu I/Os of %s (%s) in %s\n", t->n, in,
			trace_fmt_name(t->fmt), out);
	}
	trace_free(t);
	return rc ? NVS_EXIT_IOERR : NVS_EXIT_OK;
}

enum { O_TARGET = 256, O_DURATION, O_RAW, O_OUTPUT = 'o' };

static const struct cmd_opt record_opts[] = {
    {{"target", required_argument, NULL, O_TARGET}, 0, "DEV", "the block device to trace"},
    {{"duration", required_argument, NULL, O_DURATION},
     0,
     "TIME",
     "how long (\"30s\", \"2m\"; Ctrl-C ends early)"},
    {{"output", required_argument, NULL, O_OUTPUT}, 'o', "FILE", "the fio version 3 iolog"},
    {{"raw", required_argument, NULL, O_RAW},
     0,
     "DIR",
     "blktrace's raw per-CPU files DEV.blktrace.N\n"
     "(default FILE.blktrace; new or empty)"},
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

static int exec_record(const struct cmd_entry *self, struct cmd_args *a)
{
	const char *dev = cmd_get(a, O_TARGET), *out = cmd_get(a, O_OUTPUT),
		   *raw = cmd_get(a, O_RAW), *dur = cmd_get(a, O_DURATION);
	uint64_t ns = 0;

	if (a->npos) {
		cmd_say(self, "unexpected '%s' (see --help)", a->pos[0]);
		return NVS_EXIT_USAGE;
	}
	if (!dev || !out || !dur) {
		cmd_say(self, "needs --target, --duration and -o");
		return NVS_EXIT_USAGE;
	}
	if (spec_parse_time(dur, &ns) || !ns || ns > 86400ULL * 1000000000ULL) {
		cmd_say(self, "--duration '%s': not a time from 1 s to 1 d", dur);
		return NVS_EXIT_USAGE;
	}
	return record(dev, ns, out, raw);
}

const struct cmd_entry cmd_trace_record_entry = {
    .name = "trace record",
    .summary = "record a block trace (blktrace) as a fio iolog",
    .usage = "trace record --target DEV --duration TIME -o FILE [--raw DIR]",
    .text = "Records blktrace's issue (D) events of block device DEV for TIME as a fio\n"
	    "version 3 iolog in FILE.  Needs root, blktrace and debugfs (mounted if\n"
	    "missing); where kernel lockdown refuses blktrace, the same events from\n"
	    "tracefs block:block_rq_issue.  Replay: nvscope run --read_iolog=FILE.",
    .opts = record_opts,
    .exec = exec_record,
};

static const struct cmd_opt show_opts[] = {{{NULL, 0, NULL, 0}, 0, NULL, NULL}};

const struct cmd_entry cmd_trace_show_entry = {
    .name = "trace show",
    .summary = "format, I/O counts, span and extent of a trace file",
    .usage = "trace show FILE",
    .text = "FILE: a fio iolog (v2/v3), a blktrace file or a SNIA/MSR CSV trace.",
    .opts = show_opts,
    .exec = exec_show,
};

enum { O_FILE = 300 };

static const struct cmd_opt convert_opts[] = {
    {{"output", required_argument, NULL, O_OUTPUT}, 'o', "OUT", "the fio version 3 iolog"},
    {{"file", required_argument, NULL, O_FILE},
     0,
     "NAME",
     "the file every I/O of OUT names (default trace.img)"},
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

static int exec_convert(const struct cmd_entry *self, struct cmd_args *a)
{
	const char *out = cmd_get(a, O_OUTPUT), *name = cmd_get(a, O_FILE);

	if (a->npos != 1 || !out) {
		cmd_help(stderr, self);
		return NVS_EXIT_USAGE;
	}
	return convert(a->pos[0], out, name ? name : "trace.img");
}

const struct cmd_entry cmd_trace_convert_entry = {
    .name = "trace convert",
    .summary = "any trace nvscope reads as a fio version 3 iolog",
    .usage = "trace convert FILE -o OUT [--file NAME]",
    .text = "Writes FILE (a fio iolog v2/v3, a blktrace file, a SNIA/MSR CSV trace or\n"
	    "tracefs block_rq_issue text) as a fio version 3 iolog in OUT, every I/O on\n"
	    "file NAME.",
    .opts = convert_opts,
    .exec = exec_convert,
};

/* xrun.c - fio's job-running options (see xrun.h).
 *
 * fio's meanings (options.c, backend.c, 3.33):
 * - nice=-20..19: the job's nice value (fio calls nice() in the job's
 *   process or thread); nvscope sets each worker thread's
 *   (setpriority(PRIO_PROCESS, tid), Linux's per-thread nice);
 * - thinktime_spin=TIME (bare: us): of each thinktime pause, this much is
 *   spent spinning on the CPU, the rest asleep; more than thinktime is
 *   refused (fio would sleep a negative time);
 * - thinktime_iotime=TIME (bare: seconds, fio's is_seconds): a pause is due
 *   after this much time of I/O as well; without thinktime_blocks the blocks
 *   do not count then (fio skips the check);
 * - iodepth_low=N: once the queue is full, no refill until N or fewer are in
 *   flight (fio's wait_for_completions); 0 or >= iodepth: refill at once;
 * - exitall_on_error: a job that ends in error stops the others as exitall
 *   does (exit_what; runjob.c);
 * - numa_cpu_nodes=LIST: the workers run on the CPUs of those nodes (fio's
 *   numa_run_on_node_mask, replacing cpus_allowed's set);
 * - numa_mem_policy=default|prefer:N|bind:LIST|interleave[:LIST]|local:
 *   set_mempolicy of the worker thread before its buffers are allocated
 *   (fio's numa_set_* calls do the same on the job's thread).
 * Nodes are read from /sys/devices/system/node (nodes 0..63); a node that
 * does not exist is refused when the option is read. */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "base/num.h"
#include "io/core/worker.h"
#include "io/feat/xrun.h"

#define MPOL_DEFAULT_	 0 /* linux/mempolicy.h */
#define MPOL_PREFERRED_	 1
#define MPOL_BIND_	 2
#define MPOL_INTERLEAVE_ 3
#define MPOL_LOCAL_	 4
#define NODE_DIR	 "/sys/devices/system/node"
#define MAX_NODES	 64

#define BAD(...)                                                                                   \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		return -EINVAL;                                                                    \
	} while (0)

static bool node_exists(unsigned n)
{
	char p[64];
	snprintf(p, sizeof(p), NODE_DIR "/node%u", n);
	return access(p, F_OK) == 0;
}

/* A node list "0", "0-1,3" or "all" (every node present) into @mask. */
static int parse_nodes(const char *key, const char *v, uint64_t *mask, char *err, size_t errlen)
{
	char buf[128], *save, *tok;
	uint64_t m = 0;

	if (!v || !*v || snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf))
		BAD("%s: '%s' is not a node list like 0 or 0-1,3", key, v ? v : "");
	if (!strcmp(buf, "all")) {
		for (unsigned n = 0; n < MAX_NODES; n++)
			if (node_exists(n))
				m |= 1ULL << n;
		*mask = m;
		return 0;
	}
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		unsigned a, b;
		if (dash)
			*dash = '\0';
		if (num_parse_uint(tok, 0, MAX_NODES - 1, &a) ||
		    num_parse_uint(dash ? dash + 1 : tok, 0, MAX_NODES - 1, &b) || b < a)
			BAD("%s: '%s' is not a node list like 0 or 0-1,3 (nodes 0..%d)", key, v,
			    MAX_NODES - 1);
		for (unsigned n = a; n <= b; n++) {
			if (!node_exists(n))
				BAD("%s: NUMA node %u does not exist on this machine (%s)", key, n,
				    NODE_DIR);
			m |= 1ULL << n;
		}
	}
	*mask = m;
	return 0;
}

static int set_mpol(struct spec_xrun *x, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = {"default", "prefer", "bind", "interleave", "local"};
	char mode[16];
	const char *list = v ? strchr(v, ':') : NULL;
	size_t len = list ? (size_t)(list - v) : (v ? strlen(v) : 0);
	int m = -1;

	if (v && len < sizeof(mode)) {
		memcpy(mode, v, len);
		mode[len] = '\0';
		for (int i = 0; i < 5; i++)
			if (!strcmp(mode, names[i]))
				m = i;
	}
	if (m < 0)
		BAD("numa_mem_policy: '%s' is not default, prefer:N, bind:LIST, interleave[:LIST] "
		    "or local",
		    v ? v : "");
	if (list)
		list++;
	uint64_t nodes = 0;
	if ((m == MPOL_DEFAULT_ || m == MPOL_LOCAL_) && list)
		BAD("numa_mem_policy: %s takes no node list (fio too)", names[m]);
	if ((m == MPOL_PREFERRED_ || m == MPOL_BIND_) && !list)
		BAD("numa_mem_policy: %s needs %s", names[m],
		    m == MPOL_BIND_ ? "a node list (bind:0-1)" : "one node (prefer:0)");
	if (list && parse_nodes("numa_mem_policy", list, &nodes, err, errlen))
		return -EINVAL;
	if (m == MPOL_PREFERRED_ && (nodes & (nodes - 1)))
		BAD("numa_mem_policy: prefer takes one node (fio too)");
	if (m == MPOL_INTERLEAVE_ && !list &&
	    parse_nodes("numa_mem_policy", "all", &nodes, err, errlen))
		return -EINVAL;
	x->mpol = (int8_t)m;
	x->mem_nodes = nodes;
	return 0;
}

static int set_nice(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	int64_t i;

	(void)key;
	if (!v || num_parse_i64(v, -20, 19, &i))
		BAD("nice: '%s' is not -20..19", v ? v : "");
	s->xrun.nice = (int8_t)i;
	s->xrun.nice_set = true;
	return 0;
}

/* fio: thinktime_spin's bare number is us, thinktime_iotime's seconds */
static int set_think(const char *key, const char *v, bool spin, uint64_t *out, char *err,
		     size_t errlen)
{
	uint64_t ns;

	if (!v || num_parse_time_ns(v, spin ? 1000 : 1000000000ULL, &ns) ||
	    ns > 3600 * 1000000000ULL)
		BAD("%s: '%s' is not a duration up to an hour (a bare number is %s, as in "
		    "fio)",
		    key, v ? v : "", spin ? "us" : "seconds");
	*out = ns;
	return 0;
}

static int set_spin(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	return set_think(key, v, true, &s->xrun.think_spin_ns, err, errlen);
}

static int set_iotime(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	return set_think(key, v, false, &s->xrun.think_iotime_ns, err, errlen);
}

static int set_cpu_nodes(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	return parse_nodes(key, v, &s->xrun.cpu_nodes, err, errlen);
}

static int set_mem_policy(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	(void)key;
	return set_mpol(&s->xrun, v, err, errlen);
}

/* The options this module sets: a row each (io/opt/opt.h). */
#define ROW(n, fn)                                                                                 \
	{                                                                                          \
		.name = n, .kind = OPT_CUSTOM, .set = fn                                           \
	}
/* A row a line (tests/integration/option_table.sh reads them). */
/* clang-format off */
const struct opt_row xrun_opts[XRUN_NOPTS] = {
    {.name = "exitall_on_error", .kind = OPT_BOOL01, OPT_FIELD(xrun.exitall_error),
     .what = "a boolean (0/1)"},
    {.name = "iodepth_low", .kind = OPT_UINT, OPT_FIELD(xrun.iodepth_low), .min = 0,
     .max = 1u << 16, .what = "a queue depth 0..65536"},
    ROW("nice", set_nice),
    ROW("numa_cpu_nodes", set_cpu_nodes),
    ROW("numa_mem_policy", set_mem_policy),
    ROW("thinktime_iotime", set_iotime),
    ROW("thinktime_spin", set_spin),
};
/* clang-format on */
#undef ROW

int xrun_spec_validate(const struct spec *s, char *err, size_t errlen)
{
	if (s->xrun.think_spin_ns > s->thinktime_ns)
		BAD("thinktime_spin is longer than thinktime (it is a part of each pause)");
	if (s->xrun.think_iotime_ns && !s->thinktime_ns)
		BAD("thinktime_iotime needs thinktime");
	return 0;
}

uint64_t xrun_spin(uint64_t now, uint64_t ns)
{
	uint64_t end = now + ns;

	while (now < end)
		now = worker_now_ns(); /* the worker's clock */
	return now;
}

/* The CPUs of the nodes in @mask (their sysfs cpulist). */
static int node_cpus(uint64_t mask, cpu_set_t *set, char *err, size_t errlen)
{
	CPU_ZERO(set);
	for (unsigned n = 0; n < MAX_NODES; n++) {
		if (!(mask >> n & 1))
			continue;
		char p[80], line[4096], *save, *tok;
		snprintf(p, sizeof(p), NODE_DIR "/node%u/cpulist", n);
		FILE *f = fopen(p, "re");
		bool got = f && fgets(line, sizeof(line), f);
		if (f)
			fclose(f);
		if (!got) {
			snprintf(err, errlen, "numa_cpu_nodes: cannot read %s", p);
			return -ENOENT;
		}
		line[strcspn(line, "\n")] = '\0';
		for (tok = strtok_r(line, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char *dash = strchr(tok, '-');
			unsigned a, b;
			if (dash)
				*dash = '\0';
			if (num_parse_uint(tok, 0, CPU_SETSIZE - 1, &a) ||
			    num_parse_uint(dash ? dash + 1 : tok, 0, CPU_SETSIZE - 1, &b))
				continue;
			for (unsigned c = a; c <= b; c++)
				CPU_SET(c, set);
		}
	}
	if (!CPU_COUNT(set)) {
		snprintf(err, errlen, "numa_cpu_nodes: the nodes have no CPUs");
		return -EINVAL;
	}
	return 0;
}

int xrun_apply_thread(const struct spec *s, char *err, size_t errlen)
{
	const struct spec_xrun *x = &s->xrun;

	if (x->nice_set && setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), x->nice)) {
		int e = errno;
		snprintf(err, errlen, "nice=%d: setpriority failed: %s", x->nice, strerror(e));
		return -e;
	}
	if (x->cpu_nodes) {
		cpu_set_t set;
		int rc = node_cpus(x->cpu_nodes, &set, err, errlen);
		if (rc)
			return rc;
		if (sched_setaffinity(0, sizeof(set), &set)) {
			int e = errno;
			snprintf(err, errlen, "numa_cpu_nodes: cannot run on those CPUs: %s",
				 strerror(e));
			return -e;
		}
	}
	if (x->mpol >= 0) {
		unsigned long mask = (unsigned long)x->mem_nodes;
		bool list = x->mpol != MPOL_DEFAULT_ && x->mpol != MPOL_LOCAL_;
		if (syscall(SYS_set_mempolicy, (int)x->mpol, list ? &mask : NULL,
			    list ? (unsigned long)MAX_NODES + 1 : 0UL)) {
			int e = errno;
			snprintf(err, errlen, "numa_mem_policy: set_mempolicy failed: %s",
				 strerror(e));
			return -e;
		}
	}
	return 0;
}

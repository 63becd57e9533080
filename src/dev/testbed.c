/* testbed.c - the machine, the command line and the targets of a run (see
 * testbed.h).  Sources: /proc/cpuinfo ("model name", the first one),
 * sysconf (online CPUs, physical memory), uname (kernel release),
 * /etc/os-release (PRETTY_NAME), the dev/ scan (NVMe identify: model,
 * serial, firmware; sysfs for other block devices: model, size, logical
 * block size; stat for files).  Each is read with a stated cap, never
 * through a fixed buffer that could cut it.  The PCIe link of an NVMe
 * controller: its PCI device's sysfs link attributes; the health before
 * and after: device-before.json / device-after.json (run/plandir.c).  The
 * CPUs' power policy: sysfs cpuidle (driver, governor, cpu0's idle
 * states), haltpoll's module parameter and cpu0's cpufreq governor. */
#include "dev/testbed.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "base/input.h"
#include "base/num.h"
#include "dev/devmodel.h"
#include "dev/safety.h"
#include "nvscope.h"

static int cmd_argc;
static char *const *cmd_argv;

void testbed_set_cmdline(int argc, char *const *argv)
{
	cmd_argc = argc;
	cmd_argv = argv;
}

static bool shell_safe(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "/._,=+:@%-",
			    *s))
			return false;
	return true;
}

/* @s for a shell: as is, or in single quotes with each ' as '\''. */
static void shell_quote(FILE *f, const char *s)
{
	if (shell_safe(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

char *testbed_cmdline(void)
{
	char *buf = NULL;
	size_t len = 0;
	if (!cmd_argv || cmd_argc < 1)
		return strdup("unknown");
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	for (int i = 0; i < cmd_argc && cmd_argv[i]; i++) {
		if (i)
			fputc(' ', f);
		shell_quote(f, cmd_argv[i]);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The value of the first line "@key<blanks>@sep<blanks>VALUE" of the small
 * text file @path (quotes around VALUE dropped), malloc'ed; NULL when
 * there is none. */
static char *file_value(const char *path, const char *key, char sep)
{
	char err[256], *text = NULL, *out = NULL;
	size_t len = 0, klen = strlen(key);
	if (input_read_all(path, 4 << 20, "system file", &text, &len, err, sizeof(err)))
		return NULL;
	for (char *l = text; l && l < text + len && !out; l = strchr(l, '\n'), l = l ? l + 1 : l) {
		if (strncmp(l, key, klen))
			continue;
		char *v = l + klen;
		v += strspn(v, " \t");
		if (*v != sep)
			continue;
		v++;
		v += strspn(v, " \t\"");
		size_t n = strcspn(v, "\n");
		while (n && (v[n - 1] == '"' || v[n - 1] == ' ' || v[n - 1] == '\t'))
			n--;
		if (n)
			out = strndup(v, n);
	}
	free(text);
	return out;
}

static void add_str(cJSON *o, const char *key, const char *v)
{
	cJSON_AddStringToObject(o, key, v && *v ? v : "unknown");
}

static void add_owned(cJSON *o, const char *key, char *v)
{
	add_str(o, key, v);
	free(v);
}

static void add_u64(cJSON *o, const char *key, bool known, unsigned long long v)
{
	if (known)
		cJSON_AddNumberToObject(o, key, (double)v);
	else
		cJSON_AddNullToObject(o, key);
}

/* The first line of sysfs file @rel (below the sysfs root in use),
 * malloc'ed; NULL when it cannot be read (-errno in *@rc). */
static char *sys_line(const char *rel, int *rc)
{
	char path[PATH_MAX], err[256], *text = NULL;
	size_t len = 0;
	int n = snprintf(path, sizeof(path), "%s/%s", safety_sysfs_root(), rel);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		*rc = -ENAMETOOLONG;
		return NULL;
	}
	*rc = input_read_all(path, 8192, "sysfs file", &text, &len, err, sizeof(err));
	if (*rc)
		return NULL;
	text[strcspn(text, "\n")] = '\0';
	return text;
}

/* A whole unsigned number from sysfs file @rel; false when unreadable. */
static bool sys_u64(const char *rel, uint64_t *v)
{
	int rc;
	char *t = sys_line(rel, &rc);
	bool ok = t && !num_parse_u64(t, 0, UINT64_MAX, v);
	free(t);
	return ok;
}

/* "deepest_idle_state", "deepest_idle_exit_us": the enabled idle state of
 * cpu0 with the longest exit latency (what a sleeping CPU may have to wake
 * from), "unknown" / null when cpu0 has no readable idle states. */
static void deepest_idle(cJSON *o)
{
	char rel[128], *best = NULL;
	uint64_t best_us = 0;
	for (unsigned i = 0; i < 64; i++) {
		uint64_t lat, off;
		int rc;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cpuidle/state%u/latency", i);
		if (!sys_u64(rel, &lat))
			break;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cpuidle/state%u/disable", i);
		if (sys_u64(rel, &off) && off)
			continue;
		if (best && lat < best_us)
			continue;
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu0/cpuidle/state%u/name", i);
		char *name = sys_line(rel, &rc);
		if (!name)
			continue;
		free(best);
		best = name;
		best_us = lat;
	}
	add_u64(o, "deepest_idle_exit_us", best != NULL, best_us);
	add_owned(o, "deepest_idle_state", best);
}

/* Sysfs file @rel's first line; "none" when it is unreadable because
 * directory @dir (the subsystem) does not exist; NULL (unknown) when the
 * subsystem is there but the file cannot be read. */
static char *sys_line_or_none(const char *rel, const char *dir)
{
	char path[PATH_MAX];
	struct stat sb;
	int rc, n;
	char *v = sys_line(rel, &rc);
	if (v)
		return v;
	n = snprintf(path, sizeof(path), "%s/%s", safety_sysfs_root(), dir);
	if (n > 0 && (size_t)n < sizeof(path) && stat(path, &sb) && errno == ENOENT)
		return strdup("none");
	return NULL;
}

/* "cpu_power": how an idle CPU answers a completion, which QD1 latency
 * depends on (docs/performance.md: a VM guest whose idle vCPU halts at
 * once pays its wake-up on every I/O that sleeps).  idle_driver and
 * idle_governor "none" without cpuidle; guest_halt_poll_ns only with the
 * haltpoll driver (a guest's poll before halting), else null;
 * freq_governor "none" where cpu0 has no cpufreq (a VM guest, often). */
static void cpu_power(cJSON *o)
{
	static const char idle[] = "devices/system/cpu/cpuidle";
	cJSON *p = cJSON_AddObjectToObject(o, "cpu_power");
	uint64_t poll = 0;
	if (!p)
		return;
	char *drv = sys_line_or_none("devices/system/cpu/cpuidle/current_driver", idle);
	bool haltpoll = drv && !strcmp(drv, "haltpoll");
	add_owned(p, "idle_driver", drv);
	add_owned(p, "idle_governor",
		  sys_line_or_none("devices/system/cpu/cpuidle/current_governor", idle));
	add_u64(p, "guest_halt_poll_ns",
		haltpoll && sys_u64("module/haltpoll/parameters/guest_halt_poll_ns", &poll), poll);
	deepest_idle(p);
	add_owned(p, "freq_governor",
		  sys_line_or_none("devices/system/cpu/cpu0/cpufreq/scaling_governor",
				   "devices/system/cpu/cpu0/cpufreq"));
}

static void machine(cJSON *o)
{
	struct utsname u;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN), pages = sysconf(_SC_PHYS_PAGES),
	     psz = sysconf(_SC_PAGESIZE);
	add_owned(o, "cpu_model", file_value("/proc/cpuinfo", "model name", ':'));
	add_u64(o, "cpus", cpus > 0, (unsigned long long)cpus);
	add_u64(o, "memory_bytes", pages > 0 && psz > 0,
		(unsigned long long)pages * (unsigned long long)psz);
	add_str(o, "kernel", uname(&u) ? NULL : u.release);
	add_owned(o, "os", file_value("/etc/os-release", "PRETTY_NAME", '='));
	cpu_power(o);
	cJSON_AddStringToObject(o, "nvscope_version", NVS_VERSION);
	add_owned(o, "command_line", testbed_cmdline());
	cJSON *a = cJSON_AddArrayToObject(o, "argv");
	for (int i = 0; a && cmd_argv && i < cmd_argc && cmd_argv[i]; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(cmd_argv[i]));
}

double testbed_parse_speed(const char *s)
{
	const char *end;
	double v;
	if (!s || num_scan_double(s, &end, &v) || !(v > 0) || v > 1e6)
		return NAN;
	end += strspn(end, " ");
	return strncmp(end, "GT/s", 4) ? NAN : v;
}

unsigned testbed_pcie_gen(double gts)
{
	static const double gen[] = {2.5, 5, 8, 16, 32, 64};
	for (unsigned i = 0; i < sizeof(gen) / sizeof(gen[0]); i++)
		if (fabs(gts - gen[i]) < 0.01)
			return i + 1;
	return 0;
}

/* The first line of sysfs attribute @attr of @ctrl's PCI device,
 * malloc'ed; NULL when it cannot be read (-errno in *@rc). */
static char *link_attr(const char *ctrl, const char *attr, int *rc)
{
	char rel[PATH_MAX];
	int n = snprintf(rel, sizeof(rel), "class/nvme/%s/device/%s", ctrl, attr);
	if (n < 0 || (size_t)n >= sizeof(rel)) {
		*rc = -ENAMETOOLONG;
		return NULL;
	}
	return sys_line(rel, rc);
}

/* Lanes of a link width attribute ("4"), 0 unknown (x0 is no link). */
static unsigned parse_width(const char *s)
{
	unsigned w;
	return s && !num_parse_uint(s, 1, 64, &w) ? w : 0;
}

int testbed_pcie_link(const char *ctrl, struct testbed_link *l)
{
	static const char *const attrs[] = {"current_link_speed", "current_link_width",
					    "max_link_speed", "max_link_width"};
	char *v[4];
	int rc, found = 0;
	*l = (struct testbed_link){.speed_gts = NAN, .max_speed_gts = NAN};
	if (!ctrl || !*ctrl || strchr(ctrl, '/') || !strcmp(ctrl, ".") || !strcmp(ctrl, ".."))
		return -EINVAL;
	for (unsigned i = 0; i < 4; i++) {
		v[i] = link_attr(ctrl, attrs[i], &rc);
		found += rc != -ENOENT;
	}
	l->speed_gts = testbed_parse_speed(v[0]);
	l->width = parse_width(v[1]);
	l->max_speed_gts = testbed_parse_speed(v[2]);
	l->max_width = parse_width(v[3]);
	for (unsigned i = 0; i < 4; i++)
		free(v[i]);
	return found ? 0 : -ENOENT;
}

static void add_num(cJSON *o, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

/* "pcie_link": the link of controller @c, null when it has none. */
static void add_link(cJSON *t, const struct dev_ctrl *c)
{
	struct testbed_link l;
	cJSON *o;
	if (!c || strcmp(c->transport, "pcie") || testbed_pcie_link(c->name, &l) ||
	    !(o = cJSON_AddObjectToObject(t, "pcie_link"))) {
		cJSON_AddNullToObject(t, "pcie_link");
		return;
	}
	add_num(o, "speed_gts", l.speed_gts);
	add_num(o, "width", l.width ? l.width : NAN);
	add_num(o, "max_speed_gts", l.max_speed_gts);
	add_num(o, "max_width", l.max_width ? l.max_width : NAN);
}

/* One target's identity: NVMe (identify), another block device (sysfs),
 * or a file (stat: no model, serial, firmware or logical block size). */
static cJSON *drive(const struct dev_list *l, const char *path)
{
	cJSON *t = cJSON_CreateObject();
	const struct dev_ns *ns = NULL;
	const struct dev_ctrl *c = l ? dev_list_find_nvme(l, path, &ns) : NULL;
	const struct dev_block *b = l && !c ? dev_list_find_block(l, path) : NULL;
	struct stat sb;
	cJSON_AddStringToObject(t, "path", path);
	if (c) {
		cJSON_AddStringToObject(t, "kind", "nvme");
		add_str(t, "model", c->model);
		add_str(t, "serial", c->serial);
		add_str(t, "firmware", c->firmware);
		add_u64(t, "capacity_bytes", ns != NULL, ns ? ns->size_bytes : 0);
		add_u64(t, "lba_size", ns != NULL, ns ? ns->lba_size : 0);
		add_link(t, c);
	} else if (b && b->kind == DEV_KIND_BLOCK) {
		cJSON_AddStringToObject(t, "kind", "block");
		add_str(t, "driver", b->driver);
		add_str(t, "model", b->model);
		add_str(t, "serial", NULL);
		add_str(t, "firmware", NULL);
		add_u64(t, "capacity_bytes", true, b->size_bytes);
		add_u64(t, "lba_size", b->lba_size > 0, b->lba_size);
		add_link(t, NULL);
	} else {
		bool known = !stat(path, &sb) && S_ISREG(sb.st_mode);
		cJSON_AddStringToObject(t, "kind", "file");
		add_str(t, "model", NULL);
		add_str(t, "serial", NULL);
		add_str(t, "firmware", NULL);
		add_u64(t, "capacity_bytes", known, known ? (unsigned long long)sb.st_size : 0);
		add_u64(t, "lba_size", false, 0); /* a file has none */
		add_link(t, NULL);
	}
	return t;
}

void *testbed_json(const char *const *targets, unsigned n)
{
	char err[256];
	cJSON *o = cJSON_CreateObject();
	if (!o)
		return NULL;
	machine(o);
	struct dev_list *l = n ? dev_scan_ids(err, sizeof(err)) : NULL;
	cJSON *a = cJSON_AddArrayToObject(o, "drives");
	for (unsigned i = 0; a && i < n; i++)
		cJSON_AddItemToArray(a, drive(l, targets[i]));
	if (l)
		dev_list_free(l);
	return o;
}

/* The "health" of target @path in device JSON @dev, or NULL. */
static const cJSON *health_of(const cJSON *dev, const char *path)
{
	const cJSON *t;
	cJSON_ArrayForEach(t, cJSON_GetObjectItem(dev, "targets"))
	{
		const cJSON *p = cJSON_GetObjectItem(t, "path");
		if (cJSON_IsString(p) && path && !strcmp(p->valuestring, path))
			return cJSON_GetObjectItem(t, "health");
	}
	return NULL;
}

/* @key of @t: the reviewers' figures of health @h, or null. */
static void add_health(cJSON *t, const char *key, const cJSON *h)
{
	static const char *const keys[] = {"temperature_c",    "percentage_used",
					   "available_spare",  "media_errors",
					   "critical_warning", "data_units_written"};
	cJSON *o;
	if (!cJSON_IsObject(h) || !(o = cJSON_AddObjectToObject(t, key))) {
		cJSON_AddNullToObject(t, key);
		return;
	}
	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const cJSON *x = cJSON_GetObjectItem(h, keys[i]);
		add_num(o, keys[i], cJSON_IsNumber(x) ? x->valuedouble : NAN);
	}
}

void testbed_add_health(void *tbv, const void *before, const void *after)
{
	cJSON *d;
	cJSON_ArrayForEach(d, cJSON_GetObjectItem((cJSON *)tbv, "drives"))
	{
		const cJSON *p = cJSON_GetObjectItem(d, "path");
		const char *path = cJSON_IsString(p) ? p->valuestring : NULL;
		cJSON_DeleteItemFromObject(d, "health_before");
		cJSON_DeleteItemFromObject(d, "health_after");
		add_health(d, "health_before", health_of(before, path));
		add_health(d, "health_after", health_of(after, path));
	}
}

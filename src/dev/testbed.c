/* testbed.c - the machine, the command line and the targets of a run (see
 * testbed.h).  Sources: /proc/cpuinfo ("model name", the first one),
 * sysconf (online CPUs, physical memory), uname (kernel release),
 * /etc/os-release (PRETTY_NAME), the dev/ scan (NVMe identify: model,
 * serial, firmware; sysfs for other block devices: model, size, logical
 * block size; stat for files).  Each is read with a stated cap, never
 * through a fixed buffer that could cut it. */
#include "dev/testbed.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "base/input.h"
#include "dev/devmodel.h"
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
	cJSON_AddStringToObject(o, "nvscope_version", NVS_VERSION);
	add_owned(o, "command_line", testbed_cmdline());
	cJSON *a = cJSON_AddArrayToObject(o, "argv");
	for (int i = 0; a && cmd_argv && i < cmd_argc && cmd_argv[i]; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(cmd_argv[i]));
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
	} else if (b && b->kind == DEV_KIND_BLOCK) {
		cJSON_AddStringToObject(t, "kind", "block");
		add_str(t, "driver", b->driver);
		add_str(t, "model", b->model);
		add_str(t, "serial", NULL);
		add_str(t, "firmware", NULL);
		add_u64(t, "capacity_bytes", true, b->size_bytes);
		add_u64(t, "lba_size", b->lba_size > 0, b->lba_size);
	} else {
		bool known = !stat(path, &sb) && S_ISREG(sb.st_mode);
		cJSON_AddStringToObject(t, "kind", "file");
		add_str(t, "model", NULL);
		add_str(t, "serial", NULL);
		add_str(t, "firmware", NULL);
		add_u64(t, "capacity_bytes", known, known ? (unsigned long long)sb.st_size : 0);
		add_u64(t, "lba_size", false, 0); /* a file has none */
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

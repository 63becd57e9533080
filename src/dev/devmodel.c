/* devmodel.c - the device model: builders, lookup, the /sys/block scan and
 * the "in use" marks (from the safety module: safety_usage).  The NVMe part of
 * the scan is src/dev/nvme.c (the only libnvme user); JSON and the tables
 * are in devfmt.c, the health log in health.c. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "nvscope.h"
#include "dev/devmodel.h"
#include "dev/nvme.h"
#include "dev/probe.h"

char *dev_strtrim(char *dst, size_t len, const char *src, size_t srclen)
{
	size_t b = 0, e;

	if (!len)
		return dst;
	if (!src) {
		dst[0] = '\0';
		return dst;
	}
	e = strnlen(src, srclen);
	while (b < e && isspace((unsigned char)src[b]))
		b++;
	while (e > b && isspace((unsigned char)src[e - 1]))
		e--;
	if (e - b >= len)
		e = b + len - 1;
	memmove(dst, src + b, e - b); /* dst may be src */
	dst[e - b] = '\0';
	return dst;
}

#define TRIMCPY(dst, src) dev_strtrim((dst), sizeof(dst), (src), strlen(src))

/* Copies @src into @dst (size @len), truncating. */
static void scpy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ---- builders ---- */

struct dev_list *dev_list_new(void)
{
	return calloc(1, sizeof(struct dev_list));
}

struct dev_ctrl *dev_list_add_ctrl(struct dev_list *l)
{
	struct dev_ctrl *a = realloc(l->ctrls, (l->nr_ctrls + 1) * sizeof(*a));

	if (!a)
		return NULL;
	l->ctrls = a;
	memset(&a[l->nr_ctrls], 0, sizeof(*a));
	a[l->nr_ctrls].numa_node = -1;
	return &a[l->nr_ctrls++];
}

struct dev_ns *dev_ctrl_add_ns(struct dev_ctrl *c)
{
	struct dev_ns *a = realloc(c->namespaces, (c->nr_namespaces + 1) * sizeof(*a));

	if (!a)
		return NULL;
	c->namespaces = a;
	memset(&a[c->nr_namespaces], 0, sizeof(*a));
	return &a[c->nr_namespaces++];
}

struct dev_block *dev_list_add_block(struct dev_list *l)
{
	struct dev_block *a = realloc(l->blocks, (l->nr_blocks + 1) * sizeof(*a));

	if (!a)
		return NULL;
	l->blocks = a;
	memset(&a[l->nr_blocks], 0, sizeof(*a));
	return &a[l->nr_blocks++];
}

/* ---- the scope (NVSCOPE_DEVICES) ---- */

static char **scope;	/* NULL-terminated patterns; NULL: every device */
static char *scope_buf; /* the strings they point into */

int dev_scope_set(const char *list, char *err, size_t errlen)
{
	size_t n = 1;
	free(scope);
	free(scope_buf);
	scope = NULL;
	scope_buf = NULL;
	if (!list || !*list)
		return 0;
	for (const char *c = list; *c; c++)
		n += *c == ',';
	char **v = calloc(n + 1, sizeof(*v));
	char *copy = strdup(list);
	if (!v || !copy) {
		free(v);
		free(copy);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	size_t k = 0;
	for (char *save = NULL, *t = strtok_r(copy, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		const char *name = strncmp(t, "/dev/", 5) ? t : t + 5;
		if (!*name || strchr(name, '/')) {
			snprintf(err, errlen,
				 "NVSCOPE_DEVICES: \"%.200s\" is not a device name or /dev/NAME",
				 t);
			free(copy);
			free(v);
			return -EINVAL;
		}
		v[k++] = (char *)name; /* into copy */
	}
	if (!k) {
		snprintf(err, errlen, "NVSCOPE_DEVICES: no device named in \"%.200s\"", list);
		free(copy);
		free(v);
		return -EINVAL;
	}
	scope = v;
	scope_buf = copy;
	return 0;
}

bool dev_in_scope(const char *name)
{
	if (!scope)
		return true;
	for (char **p = scope; *p; p++)
		if (!fnmatch(*p, name, 0))
			return true;
	return false;
}

/* The NVMe namespaces outside the scope dropped, and each controller left
 * with none unless its own name is in scope. */
static void scope_ctrls(struct dev_list *l)
{
	size_t kept = 0;
	if (!scope)
		return;
	for (size_t i = 0; i < l->nr_ctrls; i++) {
		struct dev_ctrl *c = &l->ctrls[i];
		size_t k = 0;
		for (size_t j = 0; j < c->nr_namespaces; j++) {
			const char *bd = c->namespaces[j].block_device, *nm = strrchr(bd, '/');
			if (dev_in_scope(nm ? nm + 1 : bd))
				c->namespaces[k++] = c->namespaces[j];
		}
		c->nr_namespaces = k;
		if (!k && !dev_in_scope(c->name)) {
			free(c->namespaces);
			free(c->health);
			continue;
		}
		l->ctrls[kept++] = *c;
	}
	l->nr_ctrls = kept;
}

void dev_list_free(struct dev_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nr_ctrls; i++) {
		free(l->ctrls[i].namespaces);
		free(l->ctrls[i].health);
	}
	free(l->ctrls);
	free(l->blocks);
	free(l);
}

/* A copy of @bytes at @p; NULL for none (or when out of memory: the
 * caller compares). */
static void *dup_mem(const void *p, size_t bytes)
{
	void *c = bytes && p ? malloc(bytes) : NULL;

	if (c)
		memcpy(c, p, bytes);
	return c;
}

struct dev_list *dev_list_dup(const struct dev_list *l)
{
	struct dev_list *d = dev_list_new();

	if (!d)
		return NULL;
	*d = *l;
	d->nr_ctrls = 0;
	d->ctrls = dup_mem(l->ctrls, l->nr_ctrls * sizeof(*l->ctrls));
	d->blocks = dup_mem(l->blocks, l->nr_blocks * sizeof(*l->blocks));
	if ((l->nr_ctrls && !d->ctrls) || (l->nr_blocks && !d->blocks))
		goto fail;
	for (size_t i = 0; i < l->nr_ctrls; i++) {
		struct dev_ctrl *c = &d->ctrls[i];
		const struct dev_ctrl *o = &l->ctrls[i];
		c->namespaces = dup_mem(o->namespaces, o->nr_namespaces * sizeof(*o->namespaces));
		c->health = dup_mem(o->health, o->health ? sizeof(*o->health) : 0);
		d->nr_ctrls = i + 1; /* freed whole from here on */
		if ((o->nr_namespaces && !c->namespaces) || (o->health && !c->health))
			goto fail;
	}
	return d;

fail:
	dev_list_free(d);
	return NULL;
}

int dev_list_add_file(struct dev_list *l, const char *path)
{
	struct stat st;
	struct dev_block *b;
	const char *base;

	if (stat(path, &st))
		return -errno;
	b = dev_list_add_block(l);
	if (!b)
		return -ENOMEM;
	b->kind = DEV_KIND_FILE;
	base = strrchr(path, '/');
	TRIMCPY(b->name, base ? base + 1 : path);
	snprintf(b->path, sizeof(b->path), "%s", path);
	snprintf(b->driver, sizeof(b->driver), "file");
	b->size_bytes = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
	b->lba_size = 512;
	b->discard = S_ISREG(st.st_mode); /* hole punching */
	probe_usage(path, &b->in_use);	  /* an image file's marks, as a device's */
	return 0;
}

/* ---- lookup ---- */

/* "/dev/nvme0n1" -> "nvme0n1", resolving symlinks (/dev/disk/by-id/...). */
static const char *devname_of(const char *path, char *buf, size_t len)
{
	char rp[PATH_MAX];
	const char *p = path, *s;

	if (realpath(path, rp))
		p = rp;
	s = strrchr(p, '/');
	scpy(buf, len, s ? s + 1 : p);
	return buf;
}

static bool same_dev(const char *name, const char *path)
{
	const char *s;

	if (!path[0])
		return false;
	s = strrchr(path, '/');
	return !strcmp(name, s ? s + 1 : path);
}

const struct dev_ctrl *dev_list_find_nvme(const struct dev_list *l, const char *path,
					  const struct dev_ns **ns)
{
	char name[NAME_MAX + 1];

	if (ns)
		*ns = NULL;
	if (!l || !path)
		return NULL;
	devname_of(path, name, sizeof(name));
	for (size_t i = 0; i < l->nr_ctrls; i++) {
		const struct dev_ctrl *c = &l->ctrls[i];

		if (!strcmp(name, c->name))
			return c;
		for (size_t j = 0; j < c->nr_namespaces; j++) {
			const struct dev_ns *n = &c->namespaces[j];

			if (same_dev(name, n->block_device) || same_dev(name, n->generic_device)) {
				if (ns)
					*ns = n;
				return c;
			}
		}
	}
	return NULL;
}

const struct dev_block *dev_list_find_block(const struct dev_list *l, const char *path)
{
	char name[NAME_MAX + 1];

	if (!l || !path)
		return NULL;
	devname_of(path, name, sizeof(name));
	for (size_t i = 0; i < l->nr_blocks; i++) {
		const struct dev_block *b = &l->blocks[i];

		if (!strcmp(b->path, path) || (b->kind == DEV_KIND_BLOCK && !strcmp(b->name, name)))
			return b;
	}
	return NULL;
}

bool dev_ctrl_supports(const struct dev_ctrl *c, enum purge_method m, const char **why)
{
	const char *r = NULL;
	const struct dev_caps *k = &c->caps;

	if (!k->caps_valid)
		r = "Identify Controller could not be read";
	else if (m == PURGE_FORMAT && !k->format)
		r = "Format NVM not supported (OACS)";
	else if (m == PURGE_SANITIZE_BLOCK && !k->sanitize_block)
		r = "sanitize block erase not supported (SANICAP)";
	else if (m == PURGE_SANITIZE_CRYPTO && !k->sanitize_crypto)
		r = "sanitize crypto erase not supported (SANICAP)";
	else if (m == PURGE_SANITIZE_OVERWRITE && !k->sanitize_overwrite)
		r = "sanitize overwrite not supported (SANICAP)";
	else if (m == PURGE_TRIM && !k->dsm)
		r = "Dataset Management (deallocate) not supported (ONCS)";
	if (why)
		*why = r;
	return !r;
}

bool dev_block_supports(const struct dev_block *b, enum purge_method m, const char **why)
{
	const char *r = NULL;

	if (m != PURGE_TRIM)
		r = "format and sanitize need an NVMe device";
	else if (!b->discard)
		r = "the device does not support discard (TRIM)";
	if (why)
		*why = r;
	return !r;
}

/* ---- in use: mounts, swap, holders, partitions, signatures ---- */

bool dev_usage_in_use(const struct dev_usage *u)
{
	return u->mounted || u->swap || u->held || u->loop_backing || u->unknown;
}

bool dev_usage_has_data(const struct dev_usage *u)
{
	return u->partitioned || u->filesystem || u->ambivalent || u->found[0];
}

bool dev_usage_any(const struct dev_usage *u)
{
	return dev_usage_in_use(u) || dev_usage_has_data(u);
}

const char *dev_usage_str(const struct dev_usage *u, char *buf, size_t len)
{
	if (u->mounted)
		snprintf(buf, len, "mounted %s", u->mountpoint);
	else if (u->swap)
		snprintf(buf, len, "swap");
	else if (u->held)
		snprintf(buf, len, "held (dm/md)");
	else if (u->loop_backing)
		snprintf(buf, len, "backs %s", u->holder);
	else if (u->unknown)
		snprintf(buf, len, "unknown: %s", u->why);
	else if (u->partitioned)
		snprintf(buf, len, "partitioned");
	else if (u->ambivalent)
		snprintf(buf, len, "ambivalent");
	else if (u->filesystem)
		snprintf(buf, len, "%s", u->fstype[0] ? u->fstype : "signature");
	else
		snprintf(buf, len, "-");
	return buf;
}

/* Fills the marks of every namespace and block device of @l: the safety
 * module's own reading (safety_usage), so that the marks and the refusals
 * cannot disagree, each in a helper process, all side by side, waiting at
 * most @deadline_ms: a device that does not answer is "not responding"
 * (unknown, so in use), and the scan goes on (probe.h). */
struct probe_cb {
	void (*answered)(void *ctx);
	void *ctx;
};

static void probe_answered(void *ctx, size_t i)
{
	const struct probe_cb *cb = ctx;

	(void)i;
	cb->answered(cb->ctx);
}

int dev_list_probe(struct dev_list *l, unsigned deadline_ms, void (*answered)(void *ctx), void *ctx)
{
	size_t n = l->nr_blocks, k = 0;
	struct probe_cb cb = {answered, ctx};

	for (size_t i = 0; i < l->nr_ctrls; i++)
		n += l->ctrls[i].nr_namespaces;
	if (!n)
		return 0;
	const char **paths = calloc(n, sizeof(*paths));
	struct dev_usage **u = calloc(n, sizeof(*u));
	if (!paths || !u) {
		free(paths);
		free(u);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l->nr_ctrls; i++)
		for (size_t j = 0; j < l->ctrls[i].nr_namespaces; j++) {
			paths[k] = l->ctrls[i].namespaces[j].block_device;
			u[k++] = &l->ctrls[i].namespaces[j].in_use;
		}
	for (size_t i = 0; i < l->nr_blocks; i++) {
		paths[k] = l->blocks[i].path;
		u[k++] = &l->blocks[i].in_use;
	}
	probe_usage_each(paths, u, k, deadline_ms, answered ? probe_answered : NULL, &cb);
	free(paths);
	free(u);
	return 0;
}

/* ---- /sys/block ---- */

void dev_generic_fill(struct dev_ctrl *c, const char *sysclass, const char *devdir)
{
	unsigned ci, nsi;
	char n[96], p[DEV_PATH_LEN + 128];

	if (sscanf(c->name, "nvme%u", &ci) != 1)
		return;
	for (size_t j = 0; j < c->nr_namespaces; j++) {
		struct dev_ns *ns = &c->namespaces[j];
		unsigned x;

		if (ns->generic_device[0] || sscanf(ns->name, "nvme%un%u", &x, &nsi) != 2)
			continue;
		/* the kernel names it ng<controller instance>n<namespace head> */
		snprintf(n, sizeof(n), "ng%un%u", ci, nsi);
		snprintf(p, sizeof(p), "%s/%s", sysclass, n);
		if (access(p, F_OK))
			continue;
		int l = snprintf(p, sizeof(p), "%s/%s", devdir, n);
		if (l < 0 || l >= (int)sizeof(ns->generic_device) || access(p, F_OK))
			continue; /* a name that does not fit is left out, not cut */
		memcpy(ns->generic_device, p, (size_t)l + 1);
	}
}

int dev_sysfs_read(const char *dir, const char *file, char *buf, size_t len)
{
	char p[PATH_MAX];
	FILE *f;

	buf[0] = '\0';
	if (snprintf(p, sizeof(p), "%s/%s", dir, file) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	f = fopen(p, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	dev_strtrim(buf, len, buf, len);
	return 0;
}

static uint64_t read_sys_u64(const char *dir, const char *file)
{
	char b[64];

	if (dev_sysfs_read(dir, file, b, sizeof(b)))
		return 0;
	return strtoull(b, NULL, 10);
}

static const char *driver_of(const char *name, const char *dir, char *buf, size_t len)
{
	static const struct {
		const char *prefix, *drv;
	} known[] = {{"loop", "loop"},	{"vd", "virtio"}, {"sd", "scsi"},   {"sr", "scsi"},
		     {"dm-", "dm"},	{"md", "md"},	  {"nbd", "nbd"},   {"xvd", "xen"},
		     {"mmcblk", "mmc"}, {"nvme", "nvme"}, {"ublkb", "ublk"}};
	char p[PATH_MAX], l[PATH_MAX];
	ssize_t n;

	for (size_t i = 0; i < NVS_ARRAY_SIZE(known); i++)
		if (!strncmp(name, known[i].prefix, strlen(known[i].prefix))) {
			snprintf(buf, len, "%s", known[i].drv);
			return buf;
		}
	if (snprintf(p, sizeof(p), "%s/device/driver", dir) >= (int)sizeof(p))
		n = -1;
	else
		n = readlink(p, l, sizeof(l) - 1);
	if (n > 0) {
		l[n] = '\0';
		scpy(buf, len, strrchr(l, '/') ? strrchr(l, '/') + 1 : l);
	} else {
		snprintf(buf, len, "block");
	}
	return buf;
}

/* Is /dev/@name already listed as an NVMe namespace? */
static bool is_listed_ns(const struct dev_list *l, const char *name)
{
	for (size_t i = 0; i < l->nr_ctrls; i++)
		for (size_t j = 0; j < l->ctrls[i].nr_namespaces; j++)
			if (same_dev(name, l->ctrls[i].namespaces[j].block_device))
				return true;
	return false;
}

static int scan_sys_block(struct dev_list *l)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	char dir[PATH_MAX], v[256];

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		const char *n = e->d_name;
		struct dev_block *b;
		uint64_t sectors;

		if (n[0] == '.' || !strncmp(n, "ram", 3) || !strncmp(n, "zram", 4))
			continue;
		if (is_listed_ns(l, n) || !dev_in_scope(n))
			continue;
		snprintf(dir, sizeof(dir), "/sys/block/%s", n);
		if (!dev_sysfs_read(dir, "hidden", v, sizeof(v)) && !strcmp(v, "1"))
			continue; /* nvme multipath per-path device */
		sectors = read_sys_u64(dir, "size");
		if (!sectors)
			continue; /* unattached loop, empty drive */
		b = dev_list_add_block(l);
		if (!b) {
			closedir(d);
			return -ENOMEM;
		}
		b->kind = DEV_KIND_BLOCK;
		TRIMCPY(b->name, n);
		if (snprintf(b->path, sizeof(b->path), "/dev/%s", n) >= (int)sizeof(b->path)) {
			l->nr_blocks--; /* no such name in practice */
			continue;
		}
		driver_of(n, dir, b->driver, sizeof(b->driver));
		if (!dev_sysfs_read(dir, "device/model", v, sizeof(v)))
			TRIMCPY(b->model, v);
		else if (!dev_sysfs_read(dir, "loop/backing_file", v, sizeof(v)))
			TRIMCPY(b->model, v);
		b->size_bytes = sectors * 512;
		b->lba_size = (uint32_t)read_sys_u64(dir, "queue/logical_block_size");
		b->rotational = read_sys_u64(dir, "queue/rotational") != 0;
		b->read_only = read_sys_u64(dir, "ro") != 0;
		b->discard = read_sys_u64(dir, "queue/discard_max_bytes") != 0;
	}
	closedir(d);
	return 0;
}

static int cmp_ctrl(const void *a, const void *b)
{
	const struct dev_ctrl *x = a, *y = b;
	size_t lx = strlen(x->name), ly = strlen(y->name);

	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x->name, y->name);
}

static int cmp_ns(const void *a, const void *b)
{
	const struct dev_ns *x = a, *y = b;

	return x->nsid < y->nsid ? -1 : x->nsid > y->nsid;
}

static int cmp_block(const void *a, const void *b)
{
	const struct dev_block *x = a, *y = b;
	int k = strcmp(x->driver, y->driver);
	size_t lx = strlen(x->name), ly = strlen(y->name);

	if (k)
		return k;
	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x->name, y->name);
}

/* Marks nothing is known of: unknown (so in use, should anyone read them). */
static void usage_set(struct dev_list *l, const struct dev_usage *u)
{
	for (size_t i = 0; i < l->nr_ctrls; i++)
		for (size_t j = 0; j < l->ctrls[i].nr_namespaces; j++)
			l->ctrls[i].namespaces[j].in_use = *u;
	for (size_t i = 0; i < l->nr_blocks; i++)
		l->blocks[i].in_use = *u;
}

static void usage_unprobed(struct dev_list *l)
{
	struct dev_usage u = {.unknown = true};

	snprintf(u.why, sizeof(u.why), "not probed");
	usage_set(l, &u);
}

void dev_list_mark_pending(struct dev_list *l)
{
	struct dev_usage u;

	probe_mark_pending(&u);
	usage_set(l, &u);
}

static struct dev_list *scan(char *err, size_t errlen, bool marks, unsigned deadline_ms);

struct dev_list *dev_scan(char *err, size_t errlen)
{
	return scan(err, errlen, true, PROBE_DEADLINE_MS);
}

struct dev_list *dev_scan_ids(char *err, size_t errlen)
{
	return scan(err, errlen, false, 0);
}

static struct dev_list *scan(char *err, size_t errlen, bool marks, unsigned deadline_ms)
{
	struct dev_list *l = dev_list_new();
	int r;

	if (!l) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	r = nvs_nvme_scan(l, l->nvme_err, sizeof(l->nvme_err));
	l->nvme_ok = r == 0;
	if (r == -ENOMEM) {
		snprintf(err, errlen, "out of memory");
		goto free_list;
	}
	scope_ctrls(l);
	for (size_t i = 0; i < l->nr_ctrls; i++) {
		struct dev_ctrl *c = &l->ctrls[i];

		dev_generic_fill(c, "/sys/class/nvme-generic", "/dev");
		if (c->nr_namespaces) /* a controller may have none */
			qsort(c->namespaces, c->nr_namespaces, sizeof(*c->namespaces), cmp_ns);
	}
	if (l->nr_ctrls)
		qsort(l->ctrls, l->nr_ctrls, sizeof(*l->ctrls), cmp_ctrl);
	r = scan_sys_block(l);
	if (!marks)
		usage_unprobed(l);
	if (r == -ENOMEM || (marks && dev_list_probe(l, deadline_ms, NULL, NULL))) {
		snprintf(err, errlen, "out of memory");
		goto free_list;
	}
	if (l->nr_blocks)
		qsort(l->blocks, l->nr_blocks, sizeof(*l->blocks), cmp_block);
	return l;

free_list:
	dev_list_free(l);
	return NULL;
}

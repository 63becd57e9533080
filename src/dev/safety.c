/* safety.c - the write-safety rule (safety.h, docs/safety.md): what is on a
 * target (mounts, swap, holders, loop devices over an image file, libblkid
 * signatures), judged through a descriptor that is already held (O_EXCL for
 * a block device), and the one confirmation token. */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "dev/devmodel.h"
#include "dev/nvme.h"
#include "dev/safety.h"

/* ---- what is on it ---- */

/* ---- sysfs: /sys, or a tree of a unit test's own ---- */

static char sysfs_root[PATH_MAX] = "/sys";

int safety_set_sysfs_root(const char *root)
{
	if (!root)
		root = "/sys";
	if (strlen(root) >= sizeof(sysfs_root))
		return -ENAMETOOLONG;
	snprintf(sysfs_root, sizeof(sysfs_root), "%s", root);
	return 0;
}

const char *safety_sysfs_root(void)
{
	return sysfs_root;
}

/* @buf = the sysfs root followed by @fmt...; false (and @buf = "") when
 * it does not fit: a path cut short would name another file. */
static bool __attribute__((format(printf, 3, 4)))
sys_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(buf, len, "%s/", sysfs_root), m;

	if (n < 0 || (size_t)n >= len) {
		buf[0] = '\0';
		return false;
	}
	va_start(ap, fmt);
	m = vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= len - (size_t)n) {
		buf[0] = '\0';
		return false;
	}
	return true;
}

/* sysfs directory of block device number @dev ("/sys/dev/block/M:m"). */
static void sysfs_dir(dev_t dev, char *buf, size_t len)
{
	sys_path(buf, len, "dev/block/%u:%u", major(dev), minor(dev));
}

/* True when block device number @other is @dev or a partition of it. */
static bool same_disk(dev_t dev, dev_t other)
{
	char a[PATH_MAX], b[PATH_MAX], ra[PATH_MAX], rb[PATH_MAX];

	if (dev == other)
		return true;
	sysfs_dir(dev, a, sizeof(a));
	sysfs_dir(other, b, sizeof(b));
	if (!realpath(a, ra) || !realpath(b, rb))
		return false;
	size_t n = strlen(ra);
	return !strncmp(ra, rb, n) && rb[n] == '/'; /* other is a partition below dev */
}

static void copy(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* /proc/self/mountinfo: the device number of each mount (field 3) and its
 * source (after " - TYPE "), so a mount is found however its source is
 * spelled (/dev/root, /dev/mapper/x, by-uuid links). */
static bool mounted_on(dev_t dev, struct dev_usage *u)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	bool hit = false;

	if (!f)
		return false;
	while (!hit && getline(&line, &cap, f) > 0) {
		unsigned ma, mi;
		char mnt[PATH_MAX], *sep = strstr(line, " - ");
		struct stat st;

		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &ma, &mi, mnt) != 3)
			continue;
		if (!same_disk(dev, makedev(ma, mi))) {
			char type[64], src[PATH_MAX];
			if (!sep || sscanf(sep, " - %63s %4095s", type, src) != 2 ||
			    strncmp(src, "/dev/", 5) || stat(src, &st) || !S_ISBLK(st.st_mode) ||
			    !same_disk(dev, st.st_rdev))
				continue;
		}
		hit = true;
		copy(u->mountpoint, sizeof(u->mountpoint), mnt);
		if (sep && makedev(ma, mi) == dev)
			sscanf(sep, " - %31s", u->fstype);
	}
	free(line);
	fclose(f);
	return hit;
}

/* /proc/swaps: a swap partition on @st's disk, or @st itself as a swap file. */
static bool swap_on(const struct stat *st)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[PATH_MAX + 128], name[PATH_MAX];
	bool hit = false;

	if (!f)
		return false;
	while (!hit && fgets(line, sizeof(line), f)) {
		struct stat s;
		if (sscanf(line, "%4095s", name) != 1 || name[0] != '/' || stat(name, &s))
			continue;
		if (S_ISBLK(st->st_mode))
			hit = S_ISBLK(s.st_mode) && same_disk(st->st_rdev, s.st_rdev);
		else
			hit =
			    S_ISREG(s.st_mode) && s.st_dev == st->st_dev && s.st_ino == st->st_ino;
	}
	fclose(f);
	return hit;
}

/* First entry of directory @dir other than . and .. into @name. */
static bool first_entry(const char *dir, char *name, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool hit = false;

	if (!d)
		return false;
	while (!hit && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			copy(name, len, e->d_name);
			hit = true;
		}
	closedir(d);
	return hit;
}

/* Holders (device-mapper, md, LVM) of the disk or of one of its partitions,
 * and whether it has partitions at all. */
static void holders_and_parts(dev_t dev, struct dev_usage *u)
{
	char dir[PATH_MAX], rdir[PATH_MAX], sub[PATH_MAX + 300];
	DIR *d;
	struct dirent *e;

	sysfs_dir(dev, dir, sizeof(dir));
	snprintf(sub, sizeof(sub), "%s/holders", dir);
	if (first_entry(sub, u->holder, sizeof(u->holder)))
		u->held = true;
	if (!realpath(dir, rdir))
		return;
	d = opendir(rdir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		snprintf(sub, sizeof(sub), "%s/%s/partition", rdir, e->d_name);
		if (e->d_name[0] == '.' || access(sub, F_OK))
			continue;
		u->partitioned = true;
		snprintf(sub, sizeof(sub), "%s/%s/holders", rdir, e->d_name);
		if (!u->held && first_entry(sub, u->holder, sizeof(u->holder)))
			u->held = true;
	}
	closedir(d);
}

/* ---- loop devices: what the kernel says they map (issue 20, cause 1) ---- */

/* One attached loop device, as LOOP_GET_STATUS64 gives it: the identity of
 * what it maps (never the backing file's name, which sysfs shows as a
 * string: a newline in it, a deleted name or a rename would deceive) and
 * the byte range of it that it maps. */
struct loop_ent {
	char name[NAME_MAX + 1]; /* "loop3" */
	dev_t rdev;		 /* the loop device's own number */
	int err;		 /* 0, or why its status could not be read */
	dev_t back_dev;		 /* backing file: st_dev and st_ino */
	ino_t back_ino;
	dev_t back_rdev;   /* a backing block device's number, 0 for a file */
	uint64_t off, end; /* mapped bytes [off, end) of the backing file */
};

struct loop_tab {
	struct loop_ent *e;
	size_t n;
};

#define LOOP_DEPTH 8 /* loop devices stacked deeper are taken as in use */

/* The kernel's huge_encode_dev() form of a device number (loop_info64). */
static dev_t huge_decode(uint64_t x)
{
	return makedev((unsigned)((x >> 8) & 0xfff),
		       (unsigned)((x & 0xff) | ((x >> 12) & 0xfff00)));
}

/* "M:m" of sysfs file @p into @dev. */
static bool read_devnum(const char *p, dev_t *dev)
{
	FILE *f = fopen(p, "re");
	unsigned ma, mi;
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%u:%u", &ma, &mi) == 2;
	fclose(f);
	if (ok)
		*dev = makedev(ma, mi);
	return ok;
}

/* Is block device @name (a /sys/block entry) an attached loop device? */
static bool loop_attached(const char *name)
{
	char p[PATH_MAX];

	return sys_path(p, sizeof(p), "block/%s/loop", name) && !access(p, F_OK);
}

/* Opens the node of loop device @e (/dev/NAME, else /dev/block/M:m), only
 * when it is that device.  Read-only, non-blocking: nothing is claimed. */
static int loop_node(const struct loop_ent *e)
{
	char p[PATH_MAX];
	struct stat st;

	for (int i = 0; i < 2; i++) {
		if (i == 0)
			snprintf(p, sizeof(p), "/dev/%s", e->name);
		else
			snprintf(p, sizeof(p), "/dev/block/%u:%u", major(e->rdev), minor(e->rdev));
		int fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && S_ISBLK(st.st_mode) && st.st_rdev == e->rdev)
			return fd;
		close(fd);
	}
	return -ENODEV;
}

/* Reads loop device @e's status.  1 when it is not attached (any more). */
static int loop_status(struct loop_ent *e)
{
	struct loop_info64 li;
	uint64_t size = 0;
	int fd = loop_node(e), rc = 0;

	if (fd < 0)
		return loop_attached(e->name) ? fd : 1;
	memset(&li, 0, sizeof(li));
	if (ioctl(fd, LOOP_GET_STATUS64, &li))
		rc = errno == ENXIO ? 1 : -errno;
	else if (ioctl(fd, BLKGETSIZE64, &size))
		rc = -errno;
	close(fd);
	if (rc)
		return rc;
	e->back_dev = huge_decode(li.lo_device);
	e->back_ino = (ino_t)li.lo_inode;
	e->back_rdev = huge_decode(li.lo_rdevice);
	e->off = li.lo_offset;
	e->end = li.lo_offset + size < li.lo_offset ? UINT64_MAX : li.lo_offset + size;
	return 0;
}

static void loops_free(struct loop_tab *t)
{
	free(t->e);
	t->e = NULL;
	t->n = 0;
}

/* Adds loop device @name to @t when it is attached.  0 or -errno. */
static int loops_add(struct loop_tab *t, const char *name, size_t *cap)
{
	char p[PATH_MAX];
	struct loop_ent e = {0};
	int rc;

	if (!loop_attached(name))
		return 0;
	if (strlen(name) >= sizeof(e.name) || !sys_path(p, sizeof(p), "block/%s/dev", name))
		return -ENAMETOOLONG;
	copy(e.name, sizeof(e.name), name);
	if (!read_devnum(p, &e.rdev))
		return loop_attached(name) ? -EIO : 0;
	rc = loop_status(&e);
	if (rc == 1)
		return 0;
	e.err = rc;
	if (t->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		struct loop_ent *ne = realloc(t->e, nc * sizeof(*ne));
		if (!ne)
			return -ENOMEM;
		t->e = ne;
		*cap = nc;
	}
	t->e[t->n++] = e;
	return 0;
}

/* Every attached loop device ("block/loop*" with a loop/ directory).  One
 * whose status cannot be read is kept with err set: it may map anything,
 * and the rules below fail closed on it.  0 or -errno. */
static int loops_read(struct loop_tab *t)
{
	char p[PATH_MAX];
	size_t cap = 0;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	if (!sys_path(p, sizeof(p), "block"))
		return -ENAMETOOLONG;
	d = opendir(p);
	if (!d)
		return -errno;
	while (!rc && (de = readdir(d)))
		if (de->d_name[0] != '.')
			rc = loops_add(t, de->d_name, &cap);
	closedir(d);
	if (rc)
		loops_free(t);
	return rc;
}

static const struct loop_ent *loop_find(const struct loop_tab *t, dev_t rdev)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->e[i].rdev == rdev)
			return &t->e[i];
	return NULL;
}

/* Do loop devices @a and @b map the same file or device (a disk and one of
 * its partitions count as the same), in byte ranges that overlap?  For a
 * disk and a partition of it the ranges are not comparable: true. */
static bool loops_overlap(const struct loop_ent *a, const struct loop_ent *b)
{
	if (a->back_rdev || b->back_rdev) {
		if (!a->back_rdev || !b->back_rdev)
			return false;
		if (a->back_rdev != b->back_rdev)
			return same_disk(a->back_rdev, b->back_rdev) ||
			       same_disk(b->back_rdev, a->back_rdev);
	} else if (a->back_dev != b->back_dev || a->back_ino != b->back_ino) {
		return false;
	}
	return a->off < b->end && b->off < a->end;
}

static bool swap_on_dev(dev_t dev)
{
	struct stat st = {.st_mode = S_IFBLK, .st_rdev = dev};
	return swap_on(&st);
}

/* Is block device @dev in use by itself: mounted, swap, held, or backing
 * any loop device (it or a partition of it)?  @why says how.  A loop
 * device over it whose status cannot be read: -errno. */
static int dev_busy(const struct loop_tab *t, dev_t dev, char *why, size_t len)
{
	struct dev_usage u;

	memset(&u, 0, sizeof(u));
	if (mounted_on(dev, &u)) {
		snprintf(why, len, "mounted on %s", u.mountpoint);
		return 1;
	}
	if (swap_on_dev(dev)) {
		snprintf(why, len, "used as swap");
		return 1;
	}
	holders_and_parts(dev, &u);
	if (u.held) {
		snprintf(why, len, "held by %s", u.holder);
		return 1;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct loop_ent *e = &t->e[i];
		if (e->err)
			return e->err;
		if (e->back_rdev && same_disk(dev, e->back_rdev)) {
			snprintf(why, len, "the backing device of /dev/%s", e->name);
			return 1;
		}
	}
	return 0;
}

static void loop_found(struct dev_usage *u, const struct loop_ent *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void loop_found(struct dev_usage *u, const struct loop_ent *e, const char *fmt, ...)
{
	va_list ap;

	u->loop_backing = true;
	snprintf(u->holder, sizeof(u->holder), "/dev/%.58s", e->name);
	va_start(ap, fmt);
	vsnprintf(u->loop_rel, sizeof(u->loop_rel), fmt, ap);
	va_end(ap);
}

/* Regular file @st: in use when it backs any attached loop device (by
 * device and inode).  0, or -errno when a loop device's status could not
 * be read (it might map this file). */
static int loop_rules_file(const struct loop_tab *t, const struct stat *st, struct dev_usage *u)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct loop_ent *e = &t->e[i];
		if (e->err)
			return e->err;
		if (!e->back_rdev && e->back_dev == st->st_dev && e->back_ino == st->st_ino) {
			loop_found(u, e, "the backing file of /dev/%s", e->name);
			return 0;
		}
	}
	return 0;
}

/* Loop device @l (the target, or a loop device under it at @depth): in use
 * when another loop device mapping overlapping bytes of the same backing
 * is busy, or when what it maps is busy itself (a block device mounted,
 * swap or held; a swap file), through every loop device below it. */
static int loop_rules_under(const struct loop_tab *t, const struct loop_ent *l, int depth,
			    struct dev_usage *u)
{
	char why[PATH_MAX];
	int r;

	if (l->err)
		return l->err;
	if (depth >= LOOP_DEPTH) {
		loop_found(u, l, "loop devices stacked more than %d deep over it", LOOP_DEPTH);
		return 0;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct loop_ent *m = &t->e[i];
		if (m == l || (!m->err && !loops_overlap(l, m)))
			continue;
		if (m->err)
			return m->err;
		if ((r = dev_busy(t, m->rdev, why, sizeof(why))) < 0)
			return r;
		if (r) {
			loop_found(u, m, "/dev/%s maps the same bytes of %s and is %s", m->name,
				   depth ? "what lies under it" : "its backing file", why);
			return 0;
		}
	}
	if (!l->back_rdev) {
		struct stat st = {.st_mode = S_IFREG, .st_dev = l->back_dev, .st_ino = l->back_ino};
		if (swap_on(&st))
			loop_found(u, l, "the backing file of /dev/%s is used as swap", l->name);
		return 0;
	}
	struct dev_usage bu;
	memset(&bu, 0, sizeof(bu));
	bu.mounted = mounted_on(l->back_rdev, &bu);
	bu.swap = !bu.mounted && swap_on_dev(l->back_rdev);
	if (!bu.mounted && !bu.swap)
		holders_and_parts(l->back_rdev, &bu);
	if (bu.mounted || bu.swap || bu.held) {
		loop_found(u, l, "/dev/%s maps device %u:%u, which is %s", l->name,
			   major(l->back_rdev), minor(l->back_rdev),
			   bu.mounted ? "mounted"
			   : bu.swap  ? "used as swap"
				      : "held");
		return 0;
	}
	const struct loop_ent *below = loop_find(t, l->back_rdev);
	return below ? loop_rules_under(t, below, depth + 1, u) : 0;
}

/* Block device @dev: in use when a loop device over it (or over a
 * partition of it) is busy, or, for a loop device, by loop_rules_under. */
static int loop_rules_blk(const struct loop_tab *t, dev_t dev, struct dev_usage *u)
{
	char why[PATH_MAX];
	int r;

	for (size_t i = 0; i < t->n; i++) {
		const struct loop_ent *e = &t->e[i];
		if (e->err)
			return e->err;
		if (!e->back_rdev || !same_disk(dev, e->back_rdev))
			continue;
		if ((r = dev_busy(t, e->rdev, why, sizeof(why))) < 0)
			return r;
		if (r) {
			loop_found(u, e, "the backing device of /dev/%s, which is %s", e->name,
				   why);
			return 0;
		}
	}
	const struct loop_ent *l = loop_find(t, dev);
	return l ? loop_rules_under(t, l, 0, u) : 0;
}

/* The loop rules for @st (block device or regular file).  0 or -errno
 * (the loop devices could not all be read: nothing can be excluded). */
static int loop_rules(const struct stat *st, struct dev_usage *u)
{
	struct loop_tab t;
	int rc = loops_read(&t);

	if (rc)
		return rc;
	if (S_ISBLK(st->st_mode))
		rc = loop_rules_blk(&t, st->st_rdev, u);
	else if (S_ISREG(st->st_mode))
		rc = loop_rules_file(&t, st, u);
	for (size_t i = 0; rc && i < t.n; i++)
		if (t.e[i].err) {
			snprintf(u->why, sizeof(u->why), "status of /dev/%.20s unreadable: %s",
				 t.e[i].name, strerror(-t.e[i].err));
			break;
		}
	loops_free(&t);
	return rc;
}

/* Appends ", @s" (or "@s" first) to @buf. */
static void add_found(char *buf, size_t len, const char *s)
{
	size_t n = strlen(buf);

	if (n + 1 < len)
		snprintf(buf + n, len - n, "%s%s", n ? ", " : "", s);
}

/* Every signature libblkid sees on @fd (for an ambivalent result). */
static void list_signatures(int fd, struct dev_usage *u)
{
	blkid_probe pr = blkid_new_probe();
	const char *v;
	char names[128] = "";

	if (!pr || blkid_probe_set_device(pr, fd, 0, 0))
		goto free_probe;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	for (int i = 0; i < 16 && blkid_do_probe(pr) == 0; i++)
		if (!blkid_probe_lookup_value(pr, "TYPE", &v, NULL) ||
		    !blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL))
			add_found(names, sizeof(names), v);
free_probe:
	snprintf(u->found, sizeof(u->found), "ambivalent signatures (%s)",
		 names[0] ? names : "several");
	if (pr)
		blkid_free_probe(pr);
}

static const char *article(const char *word)
{
	return strchr("aeiouAEIOU", word[0]) && word[0] ? "an" : "a";
}

/* libblkid through the held descriptor: a partition table, a filesystem/
 * RAID/LVM signature, or several of them (ambivalent).  0 or -EIO. */
static int probe_fd(int fd, struct dev_usage *u)
{
	blkid_probe pr = blkid_new_probe();
	const char *v = NULL, *usage = NULL;
	int rc = 0, r;

	if (!pr)
		return -ENOMEM;
	if (blkid_probe_set_device(pr, fd, 0, 0)) {
		rc = -EIO;
		goto free_probe;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
						  BLKID_SUBLKS_BADCSUM);
	blkid_probe_enable_partitions(pr, 1);
	r = blkid_do_safeprobe(pr);
	if (r == -2) {
		u->ambivalent = true;
		list_signatures(fd, u);
	} else if (r < 0) {
		rc = -EIO;
	} else if (r == 0) {
		if (!blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL)) {
			u->partitioned = true;
			snprintf(u->found, sizeof(u->found), "%s %s partition table", article(v),
				 v);
		}
		if (!blkid_probe_lookup_value(pr, "TYPE", &v, NULL)) {
			u->filesystem = true;
			copy(u->fstype, sizeof(u->fstype), v);
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			snprintf(u->found, sizeof(u->found), "%s %s %s", article(v), v,
				 usage && strcmp(usage, "filesystem") ? "signature" : "filesystem");
		}
	}
free_probe:
	blkid_free_probe(pr);
	return rc;
}

/* Everything the rule looks at, for the held descriptor @fd.  0 or -EIO
 * (the probe failed: the caller refuses). */
static int inspect(int fd, struct dev_usage *u)
{
	struct stat st;

	int rc;

	memset(u, 0, sizeof(*u));
	if (fstat(fd, &st))
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		u->mounted = mounted_on(st.st_rdev, u);
		u->swap = swap_on(&st);
		holders_and_parts(st.st_rdev, u);
		if ((rc = loop_rules(&st, u)))
			return rc;
	} else if (S_ISREG(st.st_mode)) {
		if ((rc = loop_rules(&st, u)))
			return rc;
		u->swap = swap_on(&st);
		if (!st.st_size)
			return 0; /* nothing to probe */
	} else {
		return 0;
	}
	return probe_fd(fd, u);
}

/* ---- the verdict ---- */

static int judge(const char *path, const struct dev_usage *u, bool force, char *msg, size_t len)
{
	const char *never = "never overwritten, --force-destroy does not change that";

	if (u->mounted) {
		snprintf(msg, len, "%s is in use: mounted on %s (%s)", path, u->mountpoint, never);
		return -EBUSY;
	}
	if (u->swap) {
		snprintf(msg, len, "%s is in use: swap (%s)", path, never);
		return -EBUSY;
	}
	if (u->held) {
		snprintf(msg, len, "%s is in use: held by %s (device-mapper/md/LVM; %s)", path,
			 u->holder, never);
		return -EBUSY;
	}
	if (u->loop_backing) {
		if (u->loop_rel[0])
			snprintf(msg, len, "%s is in use: %s (%s)", path, u->loop_rel, never);
		else
			snprintf(msg, len, "%s is in use: the backing file of %s (%s)", path,
				 u->holder, never);
		return -EBUSY;
	}
	if (dev_usage_in_use(u)) {
		snprintf(msg, len, "%s is in use (%s)", path, never);
		return -EBUSY;
	}
	if (force)
		return 0;
	if (dev_usage_has_data(u)) {
		snprintf(msg, len, "%s holds %s (use --force-destroy to overwrite it)", path,
			 u->found[0] ? u->found : "partitions");
		return -EEXIST;
	}
	return 0;
}

/* Is character device @rdev of the kernel's class @cls (its sysfs
 * subsystem link: "mem", "nvme-generic")? */
static bool char_class_is(dev_t rdev, const char *cls)
{
	char link[PATH_MAX], to[512];
	ssize_t n;

	if (!sys_path(link, sizeof(link), "dev/char/%u:%u/subsystem", major(rdev), minor(rdev)))
		return false;
	n = readlink(link, to, sizeof(to) - 1);
	if (n <= 0)
		return false;
	to[n] = '\0';
	const char *base = strrchr(to, '/');
	return base && !strcmp(base + 1, cls);
}

/* May character device @rdev be written?  An NVMe generic device is
 * judged through its namespace's block device (safety_open); /dev/null and
 * /dev/zero (the kernel's "mem" class, minors 3 and 5) discard what is
 * written.  Anything else (SCSI generic, MTD, tty, /dev/mem ...) carries
 * data or effects no probe here can see: refused, whatever --force-destroy
 * says. */
static bool char_writable(dev_t rdev)
{
	if (safety_is_nvme_generic(rdev))
		return true;
	return major(rdev) == 1 && (minor(rdev) == 3 || minor(rdev) == 5) &&
	       char_class_is(rdev, "mem");
}

bool safety_char_writable(dev_t rdev)
{
	return char_writable(rdev);
}

int safety_check_fd(int fd, const char *path, bool force, char *msg, size_t len)
{
	struct dev_usage u;
	struct stat st;
	int rc = inspect(fd, &u);

	msg[0] = '\0';
	if (rc) { /* what cannot be judged is not written */
		snprintf(msg, len, "%s: cannot probe for data (%s): refusing to write", path,
			 u.why[0] ? u.why : strerror(-rc));
		return -EPERM;
	}
	if (fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && !char_writable(st.st_rdev)) {
		snprintf(msg, len,
			 "%s is a character device nvscope cannot judge (only NVMe generic "
			 "devices, /dev/null and /dev/zero are written): refusing to write",
			 path);
		return -EPERM;
	}
	return judge(path, &u, force, msg, len);
}

/* The device number of /dev/NAME from sysfs (/sys/class/block/NAME/dev),
 * for a node this process cannot see or stat. */
static bool sysfs_devnum(const char *path, dev_t *rdev)
{
	const char *name = strrchr(path, '/');
	char p[PATH_MAX];
	unsigned maj, min;
	bool ok = false;

	name = name ? name + 1 : path;
	if (!name[0] || strcmp(name, "..") == 0 ||
	    !sys_path(p, sizeof(p), "class/block/%s/dev", name))
		return false;
	FILE *f = fopen(p, "re");
	if (!f)
		return false;
	if (fscanf(f, "%u:%u", &maj, &min) == 2) {
		*rdev = makedev(maj, min);
		ok = true;
	}
	fclose(f);
	return ok;
}

/* What needs no open of @path: mounts, swap, holders, loop backing (by
 * stat, or by the device number sysfs gives for a node that cannot be
 * stat()ed). */
static void usage_without_open(const char *path, struct dev_usage *u)
{
	struct stat st;
	dev_t rdev;

	if (!stat(path, &st)) {
		if (S_ISBLK(st.st_mode)) {
			u->mounted = u->mounted || mounted_on(st.st_rdev, u);
			holders_and_parts(st.st_rdev, u);
		}
		if (!u->loop_backing)
			loop_rules(&st, u);
		u->swap = u->swap || swap_on(&st);
	} else if (strncmp(path, "/dev/", 5) == 0 && sysfs_devnum(path, &rdev)) {
		struct stat bs = {.st_mode = S_IFBLK, .st_rdev = rdev};
		u->mounted = u->mounted || mounted_on(rdev, u);
		holders_and_parts(rdev, u);
		if (!u->loop_backing)
			loop_rules(&bs, u);
	}
}

void safety_usage(const char *path, struct dev_usage *u)
{
	int fd, err;

	memset(u, 0, sizeof(*u));
	if (!path[0])
		return;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	if (fd >= 0) {
		int rc = inspect(fd, u);
		close(fd);
		if (!rc)
			return;
		err = -rc;
	}
	/* a file that does not exist yet holds nothing (a new image file) */
	if (err == ENOENT && access(path, F_OK) && strncmp(path, "/dev/", 5))
		return;
	/* what could not be read is unknown, and unknown counts as in use
	 * (the write path refuses what it cannot judge too); what needs no
	 * open is still said */
	usage_without_open(path, u);
	u->unknown = true;
	if (!u->why[0]) /* the loop rules may have said which device */
		snprintf(u->why, sizeof(u->why), "%s", strerror(err));
}

/* ---- opening ---- */

/* openat(2) of target @name in directory @dir (safety_target_at): a block
 * device with O_EXCL (compared with the device number first seen),
 * anything else but a regular file or a character device refused
 * (-EINVAL); never through a symlink (O_NOFOLLOW).  The descriptor or
 * -errno. */
static int open_in(int dir, const char *name, int flags, bool *blk)
{
	struct stat st;
	int fd = -1;

	/* a block device is only ever opened under an exclusive claim (no
	 * write-mode open without it, not even for a moment) */
	if (!fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISBLK(st.st_mode))
		goto claim;
	/* O_NONBLOCK: a FIFO planted under the name must not hang the open */
	fd = openat(dir, name, flags | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int e = errno;
		close(fd);
		return -e;
	}
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	if (S_ISBLK(st.st_mode)) { /* became one since the stat */
		close(fd);
		goto claim;
	}
	*blk = false;
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
		int e = errno;
		close(fd);
		return -e;
	}
	return fd;

claim:
	*blk = true;
	flags = (flags | O_EXCL | O_NOFOLLOW) & ~O_CREAT;
	fd = openat(dir, name, flags | O_CLOEXEC);
	/* a claim can outlive its owner briefly (io_uring tears rings down in
	 * a kernel worker after a process ends): wait up to 3 s */
	for (int i = 0; fd < 0 && errno == EBUSY && i < 60; i++) {
		struct timespec ts = {0, 50000000};
		nanosleep(&ts, NULL);
		fd = openat(dir, name, flags | O_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	struct stat st2;
	if (fstat(fd, &st2) || !S_ISBLK(st2.st_mode) || st2.st_rdev != st.st_rdev) {
		close(fd);
		return -EAGAIN; /* the path changed under us */
	}
	return fd;
}

/* Opens target @path (open_in) in the directory safety_target_at() allows
 * (no other user's symlink followed, no directory another user controls).
 * The descriptor or -errno; a refusal of the path is -EPERM with @msg set
 * (@msg is "" otherwise). */
static int open_claimed(const char *path, int flags, bool *blk, char *msg, size_t len)
{
	char *name = NULL;
	int dir, fd;

	msg[0] = '\0';
	dir = safety_target_at(path, &name, msg, len);
	if (dir < 0) {
		if (!msg[0])
			snprintf(msg, len, "%s: %s", path, strerror(-dir));
		return dir;
	}
	fd = open_in(dir, name, flags, blk);
	if (fd == -ELOOP) /* a symlink planted after the check */
		snprintf(msg, len, "%s became a symbolic link: not followed", path);
	close(dir);
	free(name);
	return fd;
}

/* The block device of the namespace behind NVMe generic device @path
 * (/dev/ngXnY), from the device model (multipath renames block devices
 * after the subsystem, so the names need not match).  0, or -ENOENT when
 * the namespace has no block device (then nothing can be mounted on it). */
static int generic_to_block(const char *path, char *blk, size_t len)
{
	char err[256];
	struct dev_list *l = dev_scan_ids(err, sizeof(err));
	const struct dev_ns *ns = NULL;
	int rc = -ENOENT;

	if (l && dev_list_find_nvme(l, path, &ns) && ns && ns->block_device[0]) {
		snprintf(blk, len, "%s", ns->block_device);
		rc = 0;
	}
	dev_list_free(l);
	return rc;
}

bool safety_is_nvme_generic(dev_t rdev)
{
	return char_class_is(rdev, "nvme-generic");
}

static bool is_generic(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && safety_is_nvme_generic(st->st_rdev);
}

static void open_error(const char *path, int rc, char *msg, size_t len)
{
	if (rc == -EBUSY)
		snprintf(msg, len,
			 "%s is in use: opened exclusively by another program (mounted, held, "
			 "or another writer)",
			 path);
	else if (rc == -EAGAIN)
		snprintf(msg, len, "%s changed while it was being opened", path);
	else if (rc == -EINVAL)
		snprintf(msg, len, "%s: not a file or a device", path);
	else
		snprintf(msg, len, "%s: %s", path, strerror(-rc));
}

int safety_open(const char *path, int flags, bool force, int *fd, int *guard, char *msg, size_t len)
{
	bool blk = false;
	int direct = flags & O_DIRECT, rc, g = -1;
	struct stat st;

	*fd = -1;
	if (guard)
		*guard = -1;
	msg[0] = '\0';
	/* the probe reads through the descriptor: write-only becomes read-write */
	if ((flags & O_ACCMODE) == O_WRONLY)
		flags = (flags & ~O_ACCMODE) | O_RDWR;
	rc = open_claimed(path, flags & ~O_DIRECT, &blk, msg, len);
	if (rc < 0) {
		if (!msg[0])
			open_error(path, rc, msg, len);
		return rc;
	}
	*fd = rc;
	if (fstat(*fd, &st)) {
		rc = -errno;
		snprintf(msg, len, "%s: %s", path, strerror(-rc));
		goto close_fd;
	}
	/* a target pinned when it was confirmed must still be that target */
	if ((rc = safety_pin_verify_fd(*fd, path, msg, len)))
		goto close_fd;
	if (is_generic(&st)) {
		/* passthrough writes bypass the block layer, not its data: claim
		 * and judge the namespace's block device, and keep the claim */
		char blkdev[DEV_PATH_LEN], what[512];
		bool b;
		int nb = generic_to_block(path, blkdev, sizeof(blkdev));
		if (nb && !force) {
			/* no block device to claim and probe: not known empty */
			snprintf(msg, len,
				 "%s: no block device found for this namespace: what it holds "
				 "cannot be checked (use --force-destroy to overwrite it)",
				 path);
			rc = -EEXIST;
			goto close_fd;
		} else if (!nb) {
			g = open_claimed(blkdev, O_RDONLY, &b, what, sizeof(what));
			if (g < 0) {
				rc = g;
				g = -1;
				if (!what[0])
					open_error(blkdev, rc, what, sizeof(what));
				snprintf(msg, len, "%s (the namespace of %s)", what, path);
				goto close_fd;
			}
			rc = safety_pin_verify_fd(g, blkdev, what, sizeof(what));
			if (!rc)
				rc = safety_check_fd(g, blkdev, force, what, sizeof(what));
			if (rc) {
				snprintf(msg, len, "%s (the namespace of %s)", what, path);
				goto close_fd;
			}
			/* a namespace the kernel shows as 0 bytes (a format it
			 * cannot read: extended LBAs, metadata without PI)
			 * has contents no probe can see: not known empty */
			uint64_t bsz = 0;
			if (!force && (ioctl(g, BLKGETSIZE64, &bsz) || !bsz)) {
				snprintf(
				    msg, len,
				    "%s (the namespace of %s) shows 0 bytes to the kernel (a "
				    "format it cannot read, e.g. extended LBAs): what it holds "
				    "cannot be checked (use --force-destroy to overwrite it)",
				    blkdev, path);
				rc = -EEXIST;
				goto close_fd;
			}
		}
	} else {
		rc = safety_check_fd(*fd, path, force, msg, len);
		if (rc)
			goto close_fd;
	}
	if (direct) {
		int fl = fcntl(*fd, F_GETFL);
		if (fl < 0 || fcntl(*fd, F_SETFL, fl | O_DIRECT)) {
			rc = -errno;
			snprintf(msg, len, "%s: %s%s", path, strerror(-rc),
				 rc == -EINVAL ? " (O_DIRECT not supported: use --direct=0)" : "");
			goto close_fd;
		}
	}
	if (guard)
		*guard = g;
	else if (g >= 0)
		close(g);
	return 0;

close_fd:
	if (g >= 0)
		close(g);
	close(*fd);
	*fd = -1;
	return rc;
}

int safety_check_write(const char *path, bool force, char *msg, size_t len)
{
	int fd, g, rc;

	msg[0] = '\0';
	if (access(path, F_OK) && errno == ENOENT)
		return 0; /* a file nvscope will create */
	rc = safety_open(path, O_RDONLY, force, &fd, &g, msg, len);
	if (rc)
		return rc;
	if (g >= 0)
		close(g);
	close(fd);
	return 0;
}

/* ---- the confirmation token ---- */

/* Is @path an NVMe node (controller, namespace, partition of one, generic
 * device)?  nvs_nvme_is_nvme(), asked of this module's sysfs root. */
static bool is_nvme_node(const char *path)
{
	struct stat st;
	char sys[PATH_MAX], rp[PATH_MAX];

	if (stat(path, &st) || !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) ||
	    !sys_path(sys, sizeof(sys), "dev/%s/%u:%u", S_ISCHR(st.st_mode) ? "char" : "block",
		      major(st.st_rdev), minor(st.st_rdev)) ||
	    !realpath(sys, rp))
		return false;
	return strstr(rp, "/nvme/") || strstr(rp, "/nvme-generic/") ||
	       strstr(rp, "/nvme-subsystem/");
}

bool safety_is_partition(const char *path)
{
	char p[PATH_MAX];
	struct stat st;

	return !stat(path, &st) && S_ISBLK(st.st_mode) &&
	       sys_path(p, sizeof(p), "dev/block/%u:%u/partition", major(st.st_rdev),
			minor(st.st_rdev)) &&
	       !access(p, F_OK);
}

int safety_confirm_token(const char *path, char *buf, size_t len)
{
	struct dev_list *l;
	const struct dev_ctrl *c;
	char err[128];

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	if (access(path, F_OK))
		return -errno;
	/* a partition is confirmed by its own path, never by the serial of the
	 * disk it is on (that confirms the whole disk, all partitions) */
	if (!is_nvme_node(path) || safety_is_partition(path)) {
		if (strlen(path) >= len)
			return -ENAMETOOLONG;
		copy(buf, len, path);
		return 0;
	}
	l = dev_scan_ids(err, sizeof(err));
	if (!l)
		return -ENOMEM;
	c = dev_list_find_nvme(l, path, NULL);
	if (c)
		copy(buf, len, c->serial);
	dev_list_free(l);
	return c && buf[0] ? 0 : -ENODEV;
}

/* Do paths @a and @b name the same device node or file? */
static bool same_node(const char *a, const char *b)
{
	struct stat x, y;

	if (!strcmp(a, b))
		return true;
	if (a[0] != '/' || stat(a, &x) || stat(b, &y) ||
	    (x.st_mode & S_IFMT) != (y.st_mode & S_IFMT))
		return false;
	if (S_ISBLK(x.st_mode) || S_ISCHR(x.st_mode))
		return x.st_rdev == y.st_rdev;
	return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

bool safety_confirmed(const char *confirm, const char *target, char *token, size_t len)
{
	char need[PATH_MAX];
	bool serial;

	if (!confirm || !confirm[0] || safety_confirm_token(target, need, sizeof(need)))
		return false;
	serial = strcmp(need, target) != 0;
	for (const char *p = confirm; *p;) {
		size_t n = strcspn(p, ",");
		char one[PATH_MAX];

		if (n && n < sizeof(one)) {
			memcpy(one, p, n);
			one[n] = '\0';
			if (serial ? !strcmp(one, need) : same_node(one, need)) {
				if (token)
					snprintf(token, len, "%s", need);
				return true;
			}
		}
		p += n;
		if (*p == ',')
			p++;
	}
	return false;
}

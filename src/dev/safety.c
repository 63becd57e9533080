/* safety.c - the write-safety rule (safety.h, docs/safety.md): what is on a
 * target (mounts, swap, holders, loop devices over an image file, libblkid
 * signatures), judged through a descriptor that is already held (O_EXCL for
 * a block device), and the one confirmation token. */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "dev/devmodel.h"
#include "dev/nvme.h"
#include "dev/safety.h"

/* ---- what is on it ---- */

/* sysfs directory of block device number @dev ("/sys/dev/block/M:m"). */
static void sysfs_dir(dev_t dev, char *buf, size_t len)
{
	snprintf(buf, len, "/sys/dev/block/%u:%u", major(dev), minor(dev));
}

/* True when block device number @other is @dev or a partition of it. */
static bool same_disk(dev_t dev, dev_t other)
{
	char a[64], b[64], ra[PATH_MAX], rb[PATH_MAX];

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
	char dir[64], rdir[PATH_MAX], sub[PATH_MAX + 300];
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

/* Is the regular file @st the backing file of an attached loop device?
 * (/sys/block/loopN/loop/backing_file, compared by device and inode, so a
 * hard link or another spelling of the path is found too.) */
static bool backs_loop(const struct stat *st, struct dev_usage *u)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	bool hit = false;

	if (!d)
		return false;
	while (!hit && (e = readdir(d))) {
		char p[PATH_MAX], name[PATH_MAX];
		struct stat s;
		FILE *f;

		if (strncmp(e->d_name, "loop", 4))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/loop/backing_file", e->d_name);
		f = fopen(p, "re");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f)) {
			name[strcspn(name, "\n")] = '\0';
			if (!stat(name, &s) && s.st_dev == st->st_dev && s.st_ino == st->st_ino) {
				snprintf(p, sizeof(p), "/dev/%s", e->d_name);
				copy(u->holder, sizeof(u->holder), p);
				hit = true;
			}
		}
		fclose(f);
	}
	closedir(d);
	return hit;
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

	memset(u, 0, sizeof(*u));
	if (fstat(fd, &st))
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		u->mounted = mounted_on(st.st_rdev, u);
		u->swap = swap_on(&st);
		holders_and_parts(st.st_rdev, u);
	} else if (S_ISREG(st.st_mode)) {
		u->loop_backing = backs_loop(&st, u);
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
		snprintf(msg, len, "%s is in use: the backing file of %s (%s)", path, u->holder,
			 never);
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

int safety_check_fd(int fd, const char *path, bool force, char *msg, size_t len)
{
	struct dev_usage u;
	int rc = inspect(fd, &u);

	msg[0] = '\0';
	if (rc) { /* what cannot be judged is not written */
		snprintf(msg, len, "%s: cannot probe for data (%s): refusing to write", path,
			 strerror(-rc));
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
	    snprintf(p, sizeof(p), "/sys/class/block/%s/dev", name) >= (int)sizeof(p))
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
		} else if (S_ISREG(st.st_mode)) {
			u->loop_backing = u->loop_backing || backs_loop(&st, u);
		}
		u->swap = u->swap || swap_on(&st);
	} else if (strncmp(path, "/dev/", 5) == 0 && sysfs_devnum(path, &rdev)) {
		u->mounted = u->mounted || mounted_on(rdev, u);
		holders_and_parts(rdev, u);
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
	snprintf(u->why, sizeof(u->why), "%s", strerror(err));
}

/* ---- opening ---- */

/* open(2) of a target: a block device with O_EXCL (compared with the
 * device number first seen), anything else but a regular file or a
 * character device refused (-EINVAL).  The descriptor or -errno. */
static int open_claimed(const char *path, int flags, bool *blk)
{
	struct stat st;
	int fd = -1;

	/* a block device is only ever opened under an exclusive claim (no
	 * write-mode open without it, not even for a moment) */
	if (!stat(path, &st) && S_ISBLK(st.st_mode))
		goto claim;
	/* O_NONBLOCK: a FIFO planted under the name must not hang the open */
	fd = open(path, flags | O_NONBLOCK | O_CLOEXEC, 0644);
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
	flags = (flags | O_EXCL) & ~O_CREAT;
	fd = open(path, flags | O_CLOEXEC);
	/* a claim can outlive its owner briefly (io_uring tears rings down in
	 * a kernel worker after a process ends): wait up to 3 s */
	for (int i = 0; fd < 0 && errno == EBUSY && i < 60; i++) {
		struct timespec ts = {0, 50000000};
		nanosleep(&ts, NULL);
		fd = open(path, flags | O_CLOEXEC);
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
	char link[64], to[512];
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/subsystem", major(rdev), minor(rdev));
	n = readlink(link, to, sizeof(to) - 1);
	if (n <= 0)
		return false;
	to[n] = '\0';
	const char *base = strrchr(to, '/');
	return base && !strcmp(base + 1, "nvme-generic");
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
	rc = open_claimed(path, flags & ~O_DIRECT, &blk);
	if (rc < 0) {
		open_error(path, rc, msg, len);
		return rc;
	}
	*fd = rc;
	if (fstat(*fd, &st)) {
		rc = -errno;
		snprintf(msg, len, "%s: %s", path, strerror(-rc));
		goto close_fd;
	}
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
			g = open_claimed(blkdev, O_RDONLY, &b);
			if (g < 0) {
				rc = g;
				g = -1;
				open_error(blkdev, rc, what, sizeof(what));
				snprintf(msg, len, "%s (the namespace of %s)", what, path);
				goto close_fd;
			}
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
	if (!nvs_nvme_is_nvme(path)) {
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

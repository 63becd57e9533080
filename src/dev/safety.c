/* safety.c - refuse to write where data lives: mounted filesystems, swap,
 * holders (device-mapper, md), and (unless forced) partition tables or
 * filesystem/RAID signatures that libblkid recognises. */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "dev/devmodel.h"
#include "dev/safety.h"

/* sysfs directory of block device number @dev ("/sys/dev/block/M:m"). */
static void sysfs_dir(dev_t dev, char *buf, size_t len)
{
	snprintf(buf, len, "/sys/dev/block/%u:%u", major(dev), minor(dev));
}

/* True when a device number in /proc/mounts or /proc/swaps is @dev or a
 * partition of it. */
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

/* Is @dev (or a partition of it) the first field of a line of @file?  For
 * /proc/self/mounts the second field is where it is mounted. */
static bool listed_in(const char *file, bool mounts, dev_t dev, char *what, size_t len,
		      const char *verb)
{
	FILE *f = fopen(file, "r");
	char line[4096];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *save, *tok = strtok_r(line, " \t", &save);
		char *dir = strtok_r(NULL, " \t", &save);
		struct stat st;
		if (!tok || tok[0] != '/' || stat(tok, &st) || !S_ISBLK(st.st_mode))
			continue;
		if (same_disk(dev, st.st_rdev)) {
			snprintf(what, len, "%s %s%s%s", tok, verb, mounts ? " on " : "",
				 mounts && dir ? dir : "");
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* Any entry in /sys/.../holders of the device or one of its partitions. */
static bool has_holders(dev_t dev, char *what, size_t len)
{
	char dir[PATH_MAX], path[PATH_MAX + 300];
	DIR *d;
	struct dirent *e;
	bool found = false;

	sysfs_dir(dev, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/holders", dir);
	d = opendir(path);
	if (d) {
		while (!found && (e = readdir(d)))
			if (e->d_name[0] != '.') {
				snprintf(what, len, "held by %s (device-mapper/md)", e->d_name);
				found = true;
			}
		closedir(d);
	}
	d = opendir(dir);
	if (!d)
		return found;
	while (!found && (e = readdir(d))) {
		char sub[PATH_MAX + 600];
		snprintf(sub, sizeof(sub), "%s/%s/partition", dir, e->d_name);
		if (e->d_name[0] == '.' || access(sub, F_OK))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/holders", dir, e->d_name);
		DIR *h = opendir(sub);
		struct dirent *he;
		while (h && !found && (he = readdir(h)))
			if (he->d_name[0] != '.') {
				snprintf(what, len, "partition %s held by %s", e->d_name,
					 he->d_name);
				found = true;
			}
		if (h)
			closedir(h);
	}
	closedir(d);
	return found;
}

bool safety_in_use(const char *path, char *what, size_t len)
{
	struct stat st;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return false;
	return listed_in("/proc/self/mounts", true, st.st_rdev, what, len, "is mounted") ||
	       listed_in("/proc/swaps", false, st.st_rdev, what, len, "is used as swap") ||
	       has_holders(st.st_rdev, what, len);
}

/* libblkid probe: a partition table, or a filesystem/RAID/LVM signature. */
static int probe_data(const char *path, char *what, size_t len)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *val = NULL;
	int rc = 0;

	if (!pr)
		return -errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_ENTRY_DETAILS);
	if (blkid_do_safeprobe(pr) == 0) {
		if (!blkid_probe_lookup_value(pr, "TYPE", &val, NULL)) {
			const char *usage = NULL;
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			snprintf(what, len, "a %s signature (%s)", val,
				 usage ? usage : "filesystem");
			rc = 1;
		} else if (!blkid_probe_lookup_value(pr, "PTTYPE", &val, NULL)) {
			snprintf(what, len, "a %s partition table", val);
			rc = 1;
		}
	}
	blkid_free_probe(pr);
	return rc;
}

/* The block device of the namespace behind NVMe generic device @path
 * (/dev/ngXnY), from the device model (multipath renames block devices
 * after the subsystem, so the names need not match).  0, or -ENOENT when
 * the namespace has no block device (then nothing can be mounted on it). */
static int generic_to_block(const char *path, char *blk, size_t len)
{
	char err[256];
	struct dev_list *l = dev_scan(err, sizeof(err));
	const struct dev_ns *ns = NULL;
	int rc = -ENOENT;

	if (l && dev_list_find_nvme(l, path, &ns) && ns && ns->block_device[0]) {
		snprintf(blk, len, "%s", ns->block_device);
		rc = 0;
	}
	dev_list_free(l);
	return rc;
}

int safety_check_write(const char *path, bool force, char *msg, size_t len)
{
	struct stat st;
	char what[512];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	msg[0] = '\0';
	if (!stat(path, &st) && S_ISCHR(st.st_mode) && !strncmp(base, "ng", 2)) {
		/* passthrough writes bypass the block layer, not its data: judge
		 * the namespace by its block device */
		char blk[256];
		if (generic_to_block(path, blk, sizeof(blk)))
			return 0;
		int rc = safety_check_write(blk, force, what, sizeof(what));
		if (rc)
			snprintf(msg, len, "%s (namespace of %s)", what, path);
		return rc;
	}
	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		return 0; /* files and other character devices: the filesystem guards them */
	if (safety_in_use(path, what, sizeof(what))) {
		snprintf(msg, len, "%s is in use: %s", path, what);
		return -EBUSY;
	}
	int rc = probe_data(path, what, sizeof(what));
	if (rc < 0) {
		snprintf(msg, len, "%s: cannot probe for data: %s", path, strerror(-rc));
		return rc;
	}
	if (rc > 0 && !force) {
		snprintf(msg, len, "%s holds %s (use --force-destroy to overwrite it)", path, what);
		return -EEXIST;
	}
	return 0;
}

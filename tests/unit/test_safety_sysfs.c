/* test_safety_sysfs.c - the write-safety rules this machine cannot show for
 * real (issue 20: no partition scanning, no SCSI generic or MTD nodes),
 * against a fake sysfs tree (safety_set_sysfs_root, tests only) and device
 * nodes made with mknod in a scratch directory:
 *  - holders of a disk and of its partition: in use (held), partitioned;
 *  - a partition's token is its own path, never its disk's; a disk and its
 *    partition do not confirm each other;
 *  - an attached loop device whose status cannot be read: a regular file
 *    cannot be shown not to back it, so it is unknown (in use), refused;
 *  - character devices: only NVMe generic, /dev/null and /dev/zero may be
 *    written; SCSI generic, MTD, /dev/mem and /dev/full are refused;
 *  - diskseq read from sysfs, malformed values refused; pins compared by
 *    diskseq, WWID+serial (NVMe), inode; a held pin refuses a replaced file. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "dev/devmodel.h"
#include "dev/safety.h"

static char dir[64], sys[128];

/* Writes @text to @dir/@rel, making its directories. */
static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		ck_assert(!mkdir(p, 0755) || errno == EEXIST);
		*s = '/';
	}
	if (text) {
		FILE *f = fopen(p, "w");
		ck_assert_ptr_nonnull(f);
		fputs(text, f);
		fclose(f);
	} else {
		ck_assert_int_eq(mkdir(p, 0755), 0);
	}
}

/* Symlink @dir/@rel -> @to. */
static void link_to(const char *rel, const char *to)
{
	char p[PATH_MAX];

	put(rel, "");
	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	ck_assert_int_eq(unlink(p), 0);
	ck_assert_int_eq(symlink(to, p), 0);
}

static void node(const char *name, mode_t kind, unsigned ma, unsigned mi, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, name);
	ck_assert_int_eq(mknod(path, kind | 0600, makedev(ma, mi)), 0);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/nvs-sysfs-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	/* a disk 4000:0 (no such driver here) "fdisk" with partition 4000:1 "fdisk1", held by dm-7
	 */
	put("sys/devices/virtual/nvme/nvme9/fdisk/dev", "4000:0\n");
	put("sys/devices/virtual/nvme/nvme9/fdisk/diskseq", "4711\n");
	put("sys/devices/virtual/nvme/nvme9/fdisk/holders/dm-7", "");
	put("sys/devices/virtual/nvme/nvme9/fdisk/fdisk1/dev", "4000:1\n");
	put("sys/devices/virtual/nvme/nvme9/fdisk/fdisk1/partition", "1\n");
	put("sys/devices/virtual/nvme/nvme9/fdisk/fdisk1/holders/.keep", "");
	put("sys/devices/virtual/block/plain/dev", "4000:2\n");
	put("sys/devices/virtual/block/plain/diskseq", "12x\n");
	link_to("sys/dev/block/4000:0", "../../devices/virtual/nvme/nvme9/fdisk");
	link_to("sys/dev/block/4000:1", "../../devices/virtual/nvme/nvme9/fdisk/fdisk1");
	link_to("sys/dev/block/4000:2", "../../devices/virtual/block/plain");
	link_to("sys/block/fdisk", "../devices/virtual/nvme/nvme9/fdisk");
	link_to("sys/block/plain", "../devices/virtual/block/plain");
	/* character devices and their classes */
	put("sys/class/mem/.keep", "");
	put("sys/class/scsi_generic/.keep", "");
	put("sys/class/mtd/.keep", "");
	put("sys/class/nvme-generic/.keep", "");
	link_to("sys/dev/char/1:1/subsystem", "../../../class/mem");
	link_to("sys/dev/char/1:3/subsystem", "../../../class/mem");
	link_to("sys/dev/char/1:5/subsystem", "../../../class/mem");
	link_to("sys/dev/char/21:0/subsystem", "../../../class/scsi_generic");
	link_to("sys/dev/char/90:0/subsystem", "../../../class/mtd");
	link_to("sys/dev/char/242:0/subsystem", "../../../class/nvme-generic");
	ck_assert_int_eq(safety_set_sysfs_root(sys), 0);
}

static void teardown(void)
{
	char cmd[128];

	safety_set_sysfs_root(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_root)
{
	ck_assert_str_eq(safety_sysfs_root(), sys);
	char big[PATH_MAX + 8];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ck_assert_int_eq(safety_set_sysfs_root(big), -ENAMETOOLONG);
	ck_assert_str_eq(safety_sysfs_root(), sys); /* unchanged */
}
END_TEST

START_TEST(test_holders_partitions)
{
	char disk[PATH_MAX], part[PATH_MAX];
	struct dev_usage u;

	node("disk", S_IFBLK, 4000, 0, disk, sizeof(disk));
	node("part", S_IFBLK, 4000, 1, part, sizeof(part));
	safety_usage(disk, &u);
	ck_assert(u.held);
	ck_assert_str_eq(u.holder, "dm-7");
	ck_assert(u.partitioned);
	ck_assert(dev_usage_in_use(&u));
	/* the partition: no holder of its own, but it is not free either (its
	 * node cannot be opened: unknown) */
	safety_usage(part, &u);
	ck_assert(!u.held);
	ck_assert(u.unknown);
	ck_assert(dev_usage_in_use(&u));
}
END_TEST

START_TEST(test_partition_token)
{
	char disk[PATH_MAX], part[PATH_MAX], tok[PATH_MAX];

	node("disk", S_IFBLK, 4000, 0, disk, sizeof(disk));
	node("part", S_IFBLK, 4000, 1, part, sizeof(part));
	ck_assert(safety_is_partition(part));
	ck_assert(!safety_is_partition(disk));
	/* on an NVMe namespace (below .../nvme/): the disk's token would be
	 * its controller's serial (no such controller here: none); the
	 * partition's is its own path */
	ck_assert_int_eq(safety_confirm_token(part, tok, sizeof(tok)), 0);
	ck_assert_str_eq(tok, part);
	ck_assert(safety_confirmed(part, part, NULL, 0));
	/* neither confirms the other */
	ck_assert(!safety_confirmed(disk, part, NULL, 0));
	ck_assert(!safety_confirmed(disk, disk, NULL, 0)); /* a path is no serial (scans) */
	ck_assert(!safety_confirmed(part, disk, NULL, 0));
}
END_TEST

/* An attached loop device (block/floop0/loop/) whose node does not exist:
 * its backing cannot be read, so no regular file is known not to back it. */
START_TEST(test_loop_unknown)
{
	char img[PATH_MAX], msg[512];
	struct dev_usage u;

	put("sys/devices/virtual/block/floop0/dev", "250:0\n");
	put("sys/devices/virtual/block/floop0/loop/offset", "0\n");
	put("sys/devices/virtual/block/floop0/loop/sizelimit", "0\n");
	put("sys/devices/virtual/block/floop0/loop/backing_file", "/nonexistent\n");
	link_to("sys/block/floop0", "../devices/virtual/block/floop0");
	snprintf(img, sizeof(img), "%s/img", dir);
	put("img", "data");
	safety_usage(img, &u);
	ck_assert(u.unknown);
	ck_assert(dev_usage_in_use(&u));
	ck_assert_ptr_nonnull(strstr(u.why, "floop0"));
	ck_assert_int_eq(safety_check_write(img, true, msg, sizeof(msg)), -EPERM);
	ck_assert_ptr_nonnull(strstr(msg, "floop0"));
	/* detached (no loop/ directory): the file is free again */
	char cmd[PATH_MAX + 32];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/devices/virtual/block/floop0/loop'", dir);
	ck_assert_int_eq(system(cmd), 0);
	safety_usage(img, &u);
	ck_assert(!u.unknown);
	ck_assert_int_eq(safety_check_write(img, false, msg, sizeof(msg)), 0);
}
END_TEST

START_TEST(test_char_devices)
{
	ck_assert(safety_char_writable(makedev(1, 3)));	  /* null */
	ck_assert(safety_char_writable(makedev(1, 5)));	  /* zero */
	ck_assert(safety_char_writable(makedev(242, 0))); /* nvme-generic */
	ck_assert(safety_is_nvme_generic(makedev(242, 0)));
	ck_assert(!safety_char_writable(makedev(1, 1)));  /* mem */
	ck_assert(!safety_char_writable(makedev(21, 0))); /* sg */
	ck_assert(!safety_char_writable(makedev(90, 0))); /* mtd */
	ck_assert(!safety_char_writable(makedev(7, 7)));  /* nothing in sysfs */
}
END_TEST

/* With the real sysfs: /dev/full is a character device nvscope cannot
 * judge (refused, --force-destroy or not), /dev/null is written. */
START_TEST(test_char_open)
{
	char msg[512];
	int fd, g;

	safety_set_sysfs_root(NULL);
	if (access("/dev/full", W_OK) || access("/dev/null", W_OK))
		return;
	ck_assert_int_eq(safety_open("/dev/full", O_WRONLY, true, &fd, &g, msg, sizeof(msg)),
			 -EPERM);
	ck_assert_int_eq(fd, -1);
	ck_assert_ptr_nonnull(strstr(msg, "character device nvscope cannot judge"));
	ck_assert_int_eq(safety_open("/dev/null", O_WRONLY, false, &fd, &g, msg, sizeof(msg)), 0);
	close(fd);
}
END_TEST

START_TEST(test_diskseq)
{
	uint64_t seq = 0;

	ck_assert_int_eq(safety_diskseq(makedev(4000, 0), &seq), 0);
	ck_assert_uint_eq(seq, 4711);
	ck_assert_int_eq(safety_diskseq(makedev(4000, 2), &seq), -EINVAL);
	ck_assert_int_eq(safety_diskseq(makedev(4000, 9), &seq), -ENOENT);
}
END_TEST

START_TEST(test_pin_same)
{
	struct safety_pin a = {.kind = S_IFBLK, .rdev = makedev(7, 3), .diskseq = 10}, b = a;
	char msg[512];

	ck_assert_int_eq(safety_pin_same(&a, &b, "/dev/loop3", msg, sizeof(msg)), 0);
	b.diskseq = 11; /* detached and attached again */
	ck_assert_int_eq(safety_pin_same(&a, &b, "/dev/loop3", msg, sizeof(msg)), -ESTALE);
	ck_assert_ptr_nonnull(strstr(msg, "/dev/loop3 is not the device that was confirmed"));
	b = a;
	b.rdev = makedev(7, 4);
	ck_assert_int_eq(safety_pin_same(&a, &b, "/dev/loop3", msg, sizeof(msg)), -ESTALE);
	/* an NVMe namespace: WWID and serial, whatever its number and diskseq */
	struct safety_pin n = {.kind = S_IFBLK, .rdev = makedev(4000, 0), .diskseq = 1};
	snprintf(n.wwid, sizeof(n.wwid), "eui.0025388b91b2c4a1");
	snprintf(n.serial, sizeof(n.serial), "S3X1");
	struct safety_pin m = n;
	m.rdev = makedev(4000, 5);
	m.diskseq = 9;
	ck_assert_int_eq(safety_pin_same(&n, &m, "/dev/nvme0n1", msg, sizeof(msg)), 0);
	snprintf(m.serial, sizeof(m.serial), "OTHER");
	ck_assert_int_eq(safety_pin_same(&n, &m, "/dev/nvme0n1", msg, sizeof(msg)), -ESTALE);
	/* a file by inode; pinned absent: its first open pins it */
	struct safety_pin f = {.kind = S_IFREG, .dev = 1, .ino = 2}, g = f;
	g.ino = 3;
	ck_assert_int_eq(safety_pin_same(&f, &g, "x.img", msg, sizeof(msg)), -ESTALE);
	struct safety_pin none = {0};
	ck_assert_int_eq(safety_pin_same(&none, &g, "x.img", msg, sizeof(msg)), 0);
	ck_assert_int_eq(safety_pin_same(&a, &g, "x", msg, sizeof(msg)), -ESTALE); /* kind */
}
END_TEST

/* A held pin: the file replaced under its name is refused, at a path check
 * and at an open; released, the name is free again. */
START_TEST(test_pin_held)
{
	char img[PATH_MAX], other[PATH_MAX], msg[512], absent[PATH_MAX];
	int fd, g;

	snprintf(img, sizeof(img), "%s/pinned.img", dir);
	snprintf(other, sizeof(other), "%s/other.img", dir);
	snprintf(absent, sizeof(absent), "%s/later.img", dir);
	put("pinned.img", "a");
	put("other.img", "b");
	ck_assert_int_eq(safety_pin_hold(img, msg, sizeof(msg)), 0);
	ck_assert_int_eq(safety_pin_hold(absent, msg, sizeof(msg)), 0);
	ck_assert_int_eq(safety_pin_verify(img, msg, sizeof(msg)), 0);
	ck_assert_int_eq(rename(other, img), 0);
	ck_assert_int_eq(safety_pin_verify(img, msg, sizeof(msg)), -ESTALE);
	ck_assert_ptr_nonnull(strstr(msg, "is not the file that was confirmed"));
	ck_assert_int_eq(safety_open(img, O_RDWR, true, &fd, &g, msg, sizeof(msg)), -ESTALE);
	/* created by the first open, then pinned: another file there is refused */
	ck_assert_int_eq(safety_open(absent, O_RDWR | O_CREAT, false, &fd, &g, msg, sizeof(msg)),
			 0);
	close(fd);
	ck_assert_int_eq(safety_pin_verify(absent, msg, sizeof(msg)), 0);
	put("other2.img", "c");
	snprintf(other, sizeof(other), "%s/other2.img", dir);
	ck_assert_int_eq(rename(other, absent), 0);
	ck_assert_int_eq(safety_pin_verify(absent, msg, sizeof(msg)), -ESTALE);
	safety_pin_release(img);
	safety_pin_release(absent);
	ck_assert_int_eq(safety_pin_verify(img, msg, sizeof(msg)), 0);
	ck_assert_int_eq(safety_open(img, O_RDWR, true, &fd, &g, msg, sizeof(msg)), 0);
	close(fd);
}
END_TEST

Suite *safety_sysfs_suite(void)
{
	Suite *s = suite_create("safety_sysfs");
	TCase *t = tcase_create("fake sysfs");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 30); /* a device scan (the disk's token) under load */
	tcase_add_test(t, test_root);
	tcase_add_test(t, test_holders_partitions);
	tcase_add_test(t, test_partition_token);
	tcase_add_test(t, test_loop_unknown);
	tcase_add_test(t, test_char_devices);
	tcase_add_test(t, test_char_open);
	tcase_add_test(t, test_diskseq);
	tcase_add_test(t, test_pin_same);
	tcase_add_test(t, test_pin_held);
	suite_add_tcase(s, t);
	return s;
}

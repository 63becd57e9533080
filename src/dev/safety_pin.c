/* safety_pin.c - a target is pinned by what it is when it is confirmed, and
 * every later open must find the same thing (issue 20, cause 2; safety.h,
 * docs/safety.md "Rule: a confirmed target is pinned by identity").  A name
 * is not an identity: a loop device detached and attached to another file,
 * or a disk pulled and another inserted, keeps its name (and often its
 * device number); the kernel's diskseq, an NVMe namespace's WWID and a
 * file's inode do not. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "dev/safety.h"

#ifndef BLKGETDISKSEQ
#define BLKGETDISKSEQ _IOR(0x12, 128, __u64)
#endif

/* First line of sysfs file (root-relative) @rel into @buf, without the
 * newline; false when missing or empty.  A value that does not fit is
 * false too (an identity cut short is no identity). */
static bool sys_line(const char *rel, char *buf, size_t len)
{
	char p[PATH_MAX];
	FILE *f;
	bool ok = false;

	if (snprintf(p, sizeof(p), "%s/%s", safety_sysfs_root(), rel) >= (int)sizeof(p))
		return false;
	if (!(f = fopen(p, "re")))
		return false;
	if (fgets(buf, (int)len, f)) {
		size_t n = strcspn(buf, "\n");
		ok = n > 0 && (buf[n] == '\n' || feof(f) || fgetc(f) == EOF);
		buf[n] = '\0';
	}
	fclose(f);
	return ok;
}

int safety_diskseq(dev_t rdev, uint64_t *seq)
{
	char rel[64], v[32], *end;

	snprintf(rel, sizeof(rel), "dev/block/%u:%u/diskseq", major(rdev), minor(rdev));
	if (!sys_line(rel, v, sizeof(v)))
		return -ENOENT;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno || *end || end == v || v[0] == '-')
		return -EINVAL;
	*seq = x;
	return 0;
}

/* The identity of block device @rdev beyond its number: diskseq (through
 * @fd when >= 0: the open device itself), an NVMe namespace's WWID and its
 * controller's (or subsystem's) serial. */
static void blk_identity(int fd, dev_t rdev, struct safety_pin *p)
{
	char rel[96];
	uint64_t seq = 0;

	if (fd >= 0 && !ioctl(fd, BLKGETDISKSEQ, &seq))
		p->diskseq = seq;
	else if (!safety_diskseq(rdev, &seq))
		p->diskseq = seq;
	snprintf(rel, sizeof(rel), "dev/block/%u:%u/wwid", major(rdev), minor(rdev));
	if (!sys_line(rel, p->wwid, sizeof(p->wwid)))
		p->wwid[0] = '\0';
	snprintf(rel, sizeof(rel), "dev/block/%u:%u/device/serial", major(rdev), minor(rdev));
	if (!sys_line(rel, p->serial, sizeof(p->serial)))
		p->serial[0] = '\0';
}

int safety_pin_fd(int fd, struct safety_pin *p)
{
	struct stat st;

	memset(p, 0, sizeof(*p));
	if (fstat(fd, &st))
		return -errno;
	p->kind = st.st_mode & S_IFMT;
	if (S_ISBLK(st.st_mode)) {
		p->rdev = st.st_rdev;
		blk_identity(fd, st.st_rdev, p);
	} else if (S_ISCHR(st.st_mode)) {
		p->rdev = st.st_rdev;
	} else {
		p->dev = st.st_dev;
		p->ino = st.st_ino;
	}
	return 0;
}

/* The pin of @path now, and in @st the stat it was read from (a block
 * device: its descriptor's, so size and kind are those of the identity
 * read); kind 0 when absent (@st undefined then). */
static int take(const char *path, struct stat *st, struct safety_pin *p)
{
	int fd, rc;

	memset(p, 0, sizeof(*p));
	if (stat(path, st)) /* absent: pinned at its first open */
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISBLK(st->st_mode)) { /* no open of a FIFO or a tty */
		p->kind = st->st_mode & S_IFMT;
		p->rdev = S_ISCHR(st->st_mode) ? st->st_rdev : 0;
		p->dev = S_ISCHR(st->st_mode) ? 0 : st->st_dev;
		p->ino = S_ISCHR(st->st_mode) ? 0 : st->st_ino;
		return 0;
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) { /* the number and what sysfs says of it */
		p->kind = S_IFBLK;
		p->rdev = st->st_rdev;
		blk_identity(-1, st->st_rdev, p);
		return 0;
	}
	rc = fstat(fd, st) ? -errno : safety_pin_fd(fd, p);
	close(fd);
	return rc;
}

int safety_pin_take(const char *path, struct safety_pin *p)
{
	struct stat st;

	return take(path, &st, p);
}

static const char *kind_name(unsigned kind)
{
	return kind == S_IFBLK	 ? "a block device"
	       : kind == S_IFCHR ? "a character device"
	       : kind == S_IFREG ? "a regular file"
	       : kind == 0	 ? "absent"
				 : "another kind of file";
}

int safety_pin_same(const struct safety_pin *was, const struct safety_pin *now, const char *path,
		    char *msg, size_t len)
{
	const char *head = "is not the device that was confirmed";

	if (!was->kind)
		return 0; /* pinned when it did not exist yet: nothing to compare */
	if (was->kind != now->kind) {
		snprintf(msg, len, "%s %s: it was %s, it is %s now", path, head,
			 kind_name(was->kind), kind_name(now->kind));
		return -ESTALE;
	}
	if (was->kind == S_IFREG) {
		if (was->dev == now->dev && was->ino == now->ino)
			return 0;
		snprintf(msg, len, "%s is not the file that was confirmed: inode %llu, now %llu",
			 path, (unsigned long long)was->ino, (unsigned long long)now->ino);
		return -ESTALE;
	}
	if (was->kind == S_IFBLK && was->wwid[0]) {
		/* an NVMe namespace: its WWID and controller serial (a format may
		 * re-create the block device, with a new number and diskseq) */
		if (!strcmp(was->wwid, now->wwid) && !strcmp(was->serial, now->serial))
			return 0;
		snprintf(msg, len, "%s %s: namespace %s of %s, now %s of %s", path, head, was->wwid,
			 was->serial, now->wwid[0] ? now->wwid : "none",
			 now->serial[0] ? now->serial : "none");
		return -ESTALE;
	}
	if (was->rdev != now->rdev) {
		snprintf(msg, len, "%s %s: device %u:%u, now %u:%u", path, head, major(was->rdev),
			 minor(was->rdev), major(now->rdev), minor(now->rdev));
		return -ESTALE;
	}
	if (was->kind == S_IFBLK && was->diskseq != now->diskseq) {
		snprintf(msg, len,
			 "%s %s: disk sequence number %llu, now %llu (detached, replaced or "
			 "re-attached in between)",
			 path, head, (unsigned long long)was->diskseq,
			 (unsigned long long)now->diskseq);
		return -ESTALE;
	}
	return 0;
}

/* ---- the pins this process holds ---- */

struct held {
	char *path;
	struct safety_pin pin;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct held *held;
static size_t nheld, capheld;

int safety_pin_hold(const char *path, char *msg, size_t len)
{
	struct safety_pin p;
	int rc = safety_pin_take(path, &p);
	char *copy;

	if (rc) {
		snprintf(msg, len, "%s: cannot read what it is: %s", path, strerror(-rc));
		return rc;
	}
	if (!(copy = strdup(path)))
		return -ENOMEM;
	pthread_mutex_lock(&lock);
	if (nheld == capheld) {
		size_t nc = capheld ? capheld * 2 : 8;
		struct held *nh = realloc(held, nc * sizeof(*nh));
		if (!nh) {
			pthread_mutex_unlock(&lock);
			free(copy);
			return -ENOMEM;
		}
		held = nh;
		capheld = nc;
	}
	held[nheld++] = (struct held){.path = copy, .pin = p};
	pthread_mutex_unlock(&lock);
	return 0;
}

void safety_pin_release(const char *path)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nheld; i++)
		if (!strcmp(held[i].path, path)) {
			free(held[i].path);
			held[i] = held[--nheld];
			break;
		}
	if (!nheld) {
		free(held);
		held = NULL;
		capheld = 0;
	}
	pthread_mutex_unlock(&lock);
}

/* Does held pin @h speak of @path / identity @now?  By the name it was
 * taken under, or by the device number (another name of the same node). */
static bool applies(const struct held *h, const char *path, const struct safety_pin *now)
{
	if (!strcmp(h->path, path))
		return true;
	return h->pin.kind && h->pin.kind == now->kind && now->kind != S_IFREG &&
	       h->pin.rdev == now->rdev;
}

/* Compares @now (the identity of @path) with every held pin it falls
 * under; an absent pin takes @now (its first open). */
static int verify(const char *path, const struct safety_pin *now, char *msg, size_t len)
{
	int rc = 0;

	pthread_mutex_lock(&lock);
	for (size_t i = 0; !rc && i < nheld; i++) {
		if (!applies(&held[i], path, now))
			continue;
		if (!held[i].pin.kind && !strcmp(held[i].path, path))
			held[i].pin = *now;
		else
			rc = safety_pin_same(&held[i].pin, now, path, msg, len);
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

/* No pin held (the common case: a plain run): nothing to compare. */
static bool no_pins(void)
{
	pthread_mutex_lock(&lock);
	bool none = !nheld;
	pthread_mutex_unlock(&lock);
	return none;
}

int safety_pin_verify_fd(int fd, const char *path, char *msg, size_t len)
{
	struct safety_pin now;
	int rc;

	if (no_pins())
		return 0;
	if ((rc = safety_pin_fd(fd, &now))) {
		snprintf(msg, len, "%s: %s", path, strerror(-rc));
		return rc;
	}
	return verify(path, &now, msg, len);
}

/* @path is absent now: -ESTALE when a pin of that name was taken of
 * something that existed (gone since: not what was confirmed either). */
static int gone(const char *path, char *msg, size_t len)
{
	int rc = 0;

	pthread_mutex_lock(&lock);
	for (size_t i = 0; !rc && i < nheld; i++)
		if (held[i].pin.kind && !strcmp(held[i].path, path)) {
			snprintf(msg, len, "%s is not the device that was confirmed: it is gone",
				 path);
			rc = -ESTALE;
		}
	pthread_mutex_unlock(&lock);
	return rc;
}

int safety_pin_verify(const char *path, char *msg, size_t len)
{
	struct safety_pin now;
	int rc;

	if (no_pins())
		return 0;
	if ((rc = safety_pin_take(path, &now))) {
		snprintf(msg, len, "%s: %s", path, strerror(-rc));
		return rc;
	}
	if (!now.kind)
		return gone(path, msg, len);
	return verify(path, &now, msg, len);
}

int safety_pin_stat(const char *path, struct stat *st, char *msg, size_t len)
{
	struct safety_pin now;
	int rc = take(path, st, &now);

	if (rc) {
		snprintf(msg, len, "%s: cannot read what it is: %s", path, strerror(-rc));
		return rc;
	}
	if (!now.kind)
		return (rc = gone(path, msg, len)) ? rc : -ENOENT;
	return no_pins() ? 0 : verify(path, &now, msg, len);
}

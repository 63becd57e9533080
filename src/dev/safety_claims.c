/* safety_claims.c - the claims of one run group (safety.h): every device the
 * group writes is claimed (O_EXCL), judged and opened once, by safety_open,
 * and each job writing it gets its own open of that judged descriptor's
 * file (reopened through /proc/self/fd, not by its path: nothing is looked
 * up again), so jobs of one group write one device together as fio runs
 * them, each with its own O_DIRECT and fadvise hint as fio's jobs have,
 * while no other program can claim, mount or format it until the group
 * ends. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dev/safety.h"

struct claim {
	mode_t type; /* S_IFBLK or S_IFCHR (an NVMe generic device) */
	dev_t rdev;  /* of the judged descriptor */
	int fd;	     /* the judged descriptor, held until safety_claims_free */
	int guard;   /* a generic device's namespace block device, or -1 */
	int direct;  /* O_DIRECT or 0: the held descriptor's */
	bool force;  /* judged with --force-destroy */
};

struct safety_claims {
	struct claim *c;
	unsigned n, cap;
};

struct safety_claims *safety_claims_new(void)
{
	return calloc(1, sizeof(struct safety_claims));
}

void safety_claims_free(struct safety_claims *cs)
{
	if (!cs)
		return;
	for (unsigned i = 0; i < cs->n; i++) {
		close(cs->c[i].fd);
		if (cs->c[i].guard >= 0)
			close(cs->c[i].guard);
	}
	free(cs->c);
	free(cs);
}

unsigned safety_claims_count(const struct safety_claims *cs)
{
	return cs ? cs->n : 0;
}

static struct claim *find(struct safety_claims *cs, const struct stat *st)
{
	for (unsigned i = 0; i < cs->n; i++)
		if (cs->c[i].type == (st->st_mode & S_IFMT) && cs->c[i].rdev == st->st_rdev)
			return &cs->c[i];
	return NULL;
}

/* The held file opened once more, with @flags' access mode and O_DIRECT:
 * /proc/self/fd/N is the file itself (the kernel follows no path), a new
 * open file description; -errno where /proc is not there. */
static int reopen(const struct claim *c, int flags)
{
	char p[32];

	snprintf(p, sizeof(p), "/proc/self/fd/%d", c->fd);
	int fd = open(p, (flags & (O_ACCMODE | O_DIRECT)) | O_CLOEXEC | O_NOCTTY);
	return fd < 0 ? -errno : fd;
}

/* One more writer of claim @c: its own open of the held file (else, with
 * no /proc, a duplicate of the held descriptor, whose O_DIRECT it must
 * share), judged again through the held descriptor when this writer is not
 * forced and the claim was. */
static int share(struct claim *c, const char *path, int flags, bool force, int *fd, char *msg,
		 size_t len)
{
	struct stat st;
	if (c->force && !force && (c->type == S_IFBLK || c->guard >= 0)) {
		/* judged as forced, asked unforced: judged again, unforced,
		 * through the held descriptor (libblkid reads without O_DIRECT;
		 * the set is only used while no writer of it runs) */
		int j = c->type == S_IFBLK ? c->fd : c->guard, fl = fcntl(j, F_GETFL), rc;
		if (fl < 0 || fcntl(j, F_SETFL, fl & ~O_DIRECT))
			return -errno;
		rc = safety_check_fd(j, path, false, msg, len);
		if (fcntl(j, F_SETFL, fl) && !rc)
			rc = -errno;
		if (rc)
			return rc;
	}
	*fd = reopen(c, flags);
	if (*fd == -ENOENT || *fd == -EACCES) { /* no /proc: a duplicate */
		if ((flags & O_DIRECT) != c->direct) {
			*fd = -1;
			snprintf(msg, len,
				 "%s: its writers in one run group differ in direct I/O (with no "
				 "/proc they share one descriptor)",
				 path);
			return -EINVAL;
		}
		*fd = fcntl(c->fd, F_DUPFD_CLOEXEC, 0);
		if (*fd < 0)
			*fd = -errno;
	}
	if (*fd < 0) {
		int e = -*fd;
		*fd = -1;
		snprintf(msg, len, "%s: %s", path, strerror(e));
		return -e;
	}
	if (fstat(*fd, &st) || (st.st_mode & S_IFMT) != c->type || st.st_rdev != c->rdev) {
		close(*fd); /* cannot happen: the held file is that device */
		*fd = -1;
		snprintf(msg, len, "%s changed while it was being opened", path);
		return -EAGAIN;
	}
	return 0;
}

int safety_claims_open(struct safety_claims *cs, const char *path, int flags, bool force, int *fd,
		       int *guard, char *msg, size_t len)
{
	struct stat st;
	struct claim *c;
	int rc, g = -1;

	*fd = -1;
	if (guard)
		*guard = -1;
	msg[0] = '\0';
	if (!cs)
		return safety_open(path, flags, force, fd, guard, msg, len);
	/* the path names a device this group holds: that judged descriptor */
	if (!stat(path, &st) && (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)) && (c = find(cs, &st)))
		return share(c, path, flags, force, fd, msg, len);
	if (cs->n == cs->cap) {
		unsigned cap = cs->cap ? cs->cap * 2 : 4;
		struct claim *nc = realloc(cs->c, cap * sizeof(*nc));
		if (!nc) {
			snprintf(msg, len, "out of memory");
			return -ENOMEM;
		}
		cs->c = nc;
		cs->cap = cap;
	}
	c = &cs->c[cs->n];
	memset(c, 0, sizeof(*c));
	/* claim, judge, open: the rule, once for the group */
	rc = safety_open(path, flags, force, &c->fd, &g, msg, len);
	if (rc)
		return rc;
	if (fstat(c->fd, &st)) {
		rc = -errno;
		snprintf(msg, len, "%s: %s", path, strerror(-rc));
		goto close_fd;
	}
	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode)) {
		/* a regular file has no exclusive claim: each writer opens and
		 * judges its own descriptor, as without a claim set */
		*fd = c->fd;
		if (guard)
			*guard = g;
		else if (g >= 0)
			close(g);
		return 0;
	}
	c->type = st.st_mode & S_IFMT;
	c->rdev = st.st_rdev;
	c->guard = g;
	c->direct = flags & O_DIRECT;
	c->force = force;
	cs->n++;
	/* the caller's copy; the set keeps the claim until it is freed */
	return share(c, path, flags, force, fd, msg, len);

close_fd:
	if (g >= 0)
		close(g);
	close(c->fd);
	return rc;
}

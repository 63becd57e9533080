/* safety_out.c - the one way nvscope writes a file that is not a target:
 * reports, JSON, CSV, logs and results directories.  Never a device, never
 * through a symlink as last component, never in a directory another user
 * controls, never into a file another user planted (see docs/safety.md,
 * "Output files and results directories").  Files in a directory are
 * opened with openat() on a checked directory descriptor, created with
 * O_EXCL|O_NOFOLLOW, and an existing file is checked through the opened
 * descriptor (same inode as the one checked by name) before it is emptied. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "dev/devmodel.h"
#include "dev/safety.h"

static int refuse(char *msg, size_t len, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int refuse(char *msg, size_t len, int err, const char *fmt, ...)
{
	if (msg && len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, len, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* May nvscope write into directory @fd (@what names it)?  A results
 * directory must be the effective user's; the directory of an output file
 * may also be root's (/tmp).  Never world-writable without the sticky bit,
 * never procfs, sysfs and the like. */
static const char *pseudo_fs(int fd);

static int dir_ok(int fd, const char *what, bool results, char *msg, size_t len)
{
	struct stat st;
	uid_t me = geteuid();
	const char *pfs;

	if (fstat(fd, &st))
		return refuse(msg, len, -errno, "%s: %s", what, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return refuse(msg, len, -ENOTDIR, "%s is not a directory", what);
	if ((pfs = pseudo_fs(fd)))
		return refuse(msg, len, -EPERM,
			      "%s is on %s, a kernel interface: refusing to write there", what,
			      pfs);
	if (st.st_uid != me && (results || st.st_uid != 0))
		return refuse(msg, len, -EPERM,
			      "%s belongs to uid %u, not to uid %u that nvscope runs as: refusing "
			      "to write there",
			      what, (unsigned)st.st_uid, (unsigned)me);
	if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
		return refuse(
		    msg, len, -EPERM,
		    "%s is writable by everyone (and not sticky): refusing to write there", what);
	return 0;
}

/* May existing file @st (@what names it) be written (@links: through its
 * inode, so only with one link) or replaced by a rename? */
static int file_ok(const struct stat *st, const char *what, bool links, char *msg, size_t len)
{
	const char *kind = S_ISLNK(st->st_mode)	   ? "a symbolic link (not followed)"
			   : S_ISBLK(st->st_mode)  ? "a block device"
			   : S_ISCHR(st->st_mode)  ? "a character device"
			   : S_ISFIFO(st->st_mode) ? "a FIFO"
			   : S_ISSOCK(st->st_mode) ? "a socket"
			   : S_ISDIR(st->st_mode)  ? "a directory"
			   : !S_ISREG(st->st_mode) ? "not a regular file"
						   : NULL;
	if (kind)
		return refuse(msg, len, S_ISDIR(st->st_mode) ? -EISDIR : -EPERM,
			      "%s is %s: refusing to write an output file there", what, kind);
	if (st->st_uid != geteuid())
		return refuse(msg, len, -EPERM,
			      "%s belongs to uid %u, not to uid %u that nvscope runs as: refusing "
			      "to overwrite it",
			      what, (unsigned)st->st_uid, (unsigned)geteuid());
	if (links && st->st_nlink > 1)
		return refuse(msg, len, -EPERM, "%s has %lu hard links: refusing to overwrite it",
			      what, (unsigned long)st->st_nlink);
	return 0;
}

/* Kernel interfaces that look like files: writing there is never a report. */
static const char *pseudo_fs(int fd)
{
	static const struct {
		unsigned long magic;
		const char *name;
	} fs[] = {
	    {PROC_SUPER_MAGIC, "procfs"},     {SYSFS_MAGIC, "sysfs"},
	    {DEBUGFS_MAGIC, "debugfs"},	      {TRACEFS_MAGIC, "tracefs"},
	    {SECURITYFS_MAGIC, "securityfs"}, {CGROUP_SUPER_MAGIC, "cgroupfs"},
	    {CGROUP2_SUPER_MAGIC, "cgroup2"}, {BPF_FS_MAGIC, "bpffs"},
	    {EFIVARFS_MAGIC, "efivarfs"},     {PSTOREFS_MAGIC, "pstore"},
	    {DEVPTS_SUPER_MAGIC, "devpts"},   {SELINUX_MAGIC, "selinuxfs"},
	    {BINFMTFS_MAGIC, "binfmt_misc"},  {0x62656570 /* CONFIGFS_MAGIC */, "configfs"},
	};
	struct statfs sf;
	if (fstatfs(fd, &sf))
		return NULL;
	for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++)
		if ((unsigned long)sf.f_type == fs[i].magic)
			return fs[i].name;
	return NULL;
}

/* Opens directory @path from @at (AT_FDCWD or a directory) one component at
 * a time, so that what is checked is what is used: a symlink on the way is
 * followed only when root or the effective user owns it (another user's
 * link, say /tmp/x -> /etc, is refused even where the kernel's
 * protected_symlinks is off), by reading it through a descriptor of the link
 * itself.  @create makes missing directories (0755).  Returns an O_PATH
 * descriptor or -errno. */
static int walk(int at, const char *path, bool create, int depth, char *msg, size_t len)
{
	int cur, rc = 0;
	char *copy = strdup(path), *save = NULL;

	if (!copy)
		return -ENOMEM;
	cur = openat(at, path[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cur < 0) {
		rc = refuse(msg, len, -errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	for (char *c = strtok_r(copy, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		struct stat st;
		int next;
		if (!strcmp(c, "."))
			continue;
		if (create && strcmp(c, "..") && mkdirat(cur, c, 0755) && errno != EEXIST) {
			rc = refuse(msg, len, -errno, "cannot create %s in %s: %s", c, path,
				    strerror(errno));
			break;
		}
		next = openat(cur, c, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 || fstat(next, &st)) {
			rc = refuse(msg, len, -errno, "%s: %s", path, strerror(errno));
			if (next >= 0)
				close(next);
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = -1;
			if (st.st_uid != 0 && st.st_uid != geteuid())
				rc = refuse(
				    msg, len, -EPERM,
				    "%s: the symbolic link %s belongs to uid %u: not followed",
				    path, c, (unsigned)st.st_uid);
			else if (depth >= 40)
				rc = refuse(msg, len, -ELOOP, "%s: too many symbolic links", path);
			else if ((n = readlinkat(next, "", target, sizeof(target))) < 0 ||
				 (size_t)n >= sizeof(target))
				rc = refuse(msg, len, n < 0 ? -errno : -ENAMETOOLONG, "%s: %s",
					    path, strerror(n < 0 ? errno : ENAMETOOLONG));
			close(next);
			if (rc)
				break;
			target[n] = '\0';
			next = walk(cur, target, false, depth + 1, msg, len);
			if (next < 0) {
				rc = next;
				break;
			}
		} else if (!S_ISDIR(st.st_mode)) {
			close(next);
			rc = refuse(msg, len, -ENOTDIR, "%s: %s is not a directory", path, c);
			break;
		}
		close(cur);
		cur = next;
	}
out:
	free(copy);
	if (rc && cur >= 0)
		close(cur);
	return rc ? rc : cur;
}

/* The directory @path, walked (walk()) and opened for reading, or -errno. */
static int open_dir(const char *path, bool create, char *msg, size_t len)
{
	int p = walk(AT_FDCWD, path, create, 0, msg, len);
	if (p < 0)
		return p;
	int fd = openat(p, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		fd = refuse(msg, len, -errno, "%s: %s", path, strerror(errno));
	close(p);
	return fd;
}

/* Splits @path into a malloc'ed directory part (*@dir) and its last
 * component (*@name, inside @path).  Trailing slashes are an error for a
 * file (@file), ignored for a directory (then *@name is a malloc'ed copy
 * too, in *@own). */
static int split(const char *path, bool file, char **dir, const char **name, char **own, char *msg,
		 size_t len)
{
	size_t n = path ? strlen(path) : 0;

	*dir = *own = NULL;
	if (!n)
		return refuse(msg, len, -EINVAL, "empty output path");
	if (path[n - 1] == '/') {
		if (file)
			return refuse(msg, len, -EISDIR, "%s is a directory", path);
		while (n > 1 && path[n - 1] == '/')
			n--;
		if (!(*own = strndup(path, n)))
			return -ENOMEM;
		path = *own;
	}
	const char *slash = strrchr(path, '/');
	*name = slash ? slash + 1 : path;
	if (!**name) /* "/" */
		*name = ".";
	if (file && (!strcmp(*name, ".") || !strcmp(*name, "..")))
		return refuse(msg, len, -EISDIR, "%s is a directory", path);
	*dir = !slash ? strdup(".") : slash == path ? strdup("/") : strndup(path, slash - path);
	return *dir ? 0 : -ENOMEM;
}

int safety_output_dir(const char *path, const char **name, char *msg, size_t len)
{
	char *dir, *own;
	int rc = split(path, true, &dir, name, &own, msg, len);
	if (rc)
		goto out;
	int fd = open_dir(dir, false, msg, len);
	if (fd < 0) {
		rc = fd;
		goto out;
	}
	rc = dir_ok(fd, dir, false, msg, len);
	if (rc)
		close(fd);
	else
		rc = fd;
out:
	free(dir);
	free(own);
	return rc;
}

int safety_openat_output(int dirfd, const char *name, enum safety_out_mode mode, char *msg,
			 size_t len)
{
	int acc = (mode == SAFETY_OUT_KEEP ? O_RDWR : O_WRONLY) |
		  (mode == SAFETY_OUT_APPEND ? O_APPEND : 0) | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC;

	if (!name || !*name || strchr(name, '/'))
		return refuse(msg, len, -EINVAL, "'%s' is not a file name", name ? name : "");
	/* a few rounds in case the name changes between the look and the open */
	for (int round = 0; round < 8; round++) {
		struct stat st, fst;
		int fd, rc;
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
			if (errno != ENOENT)
				return refuse(msg, len, -errno, "%s: %s", name, strerror(errno));
			fd = openat(dirfd, name, acc | O_CREAT | O_EXCL, 0644);
			if (fd >= 0)
				return fd;
			if (errno == EEXIST)
				continue;
			return refuse(msg, len, -errno, "%s: %s", name, strerror(errno));
		}
		if (mode == SAFETY_OUT_EXCL)
			return refuse(msg, len, -EEXIST, "%s exists", name);
		/* checked before it is opened: opening a device can do things */
		if ((rc = file_ok(&st, name, true, msg, len)))
			return rc;
		fd = openat(dirfd, name, acc | O_NONBLOCK);
		if (fd < 0) {
			if (errno == ENOENT)
				continue;
			if (errno == ELOOP)
				return refuse(msg, len, -EPERM,
					      "%s is a symbolic link (not followed): refusing to "
					      "write an output file there",
					      name);
			return refuse(msg, len, -errno, "%s: %s", name, strerror(errno));
		}
		if (fstat(fd, &fst) || fst.st_dev != st.st_dev || fst.st_ino != st.st_ino) {
			close(fd);
			continue;
		}
		if ((rc = file_ok(&fst, name, true, msg, len)) ||
		    (mode == SAFETY_OUT_TRUNC && ftruncate(fd, 0)) ||
		    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
			if (!rc)
				rc = refuse(msg, len, -errno, "%s: %s", name, strerror(errno));
			close(fd);
			return rc;
		}
		return fd;
	}
	return refuse(msg, len, -EAGAIN, "%s keeps changing: refusing to write it", name);
}

int safety_open_output(const char *path, enum safety_out_mode mode, char *msg, size_t len)
{
	const char *name;
	int dfd = safety_output_dir(path, &name, msg, len);
	if (dfd < 0)
		return dfd;
	int fd = safety_openat_output(dfd, name, mode, msg, len);
	close(dfd);
	if (fd < 0 && msg && len && strcmp(name, path)) {
		/* name the whole path in the message */
		char *m = strdup(msg);
		if (m) {
			const char *rest =
			    !strncmp(m, name, strlen(name)) ? m + strlen(name) : NULL;
			if (rest)
				snprintf(msg, len, "%s%s", path, rest);
			free(m);
		}
	}
	return fd;
}

static FILE *stream(int fd, enum safety_out_mode mode)
{
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	FILE *f = fdopen(fd, mode == SAFETY_OUT_APPEND ? "a"
			     : mode == SAFETY_OUT_KEEP ? "r+"
						       : "w");
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

FILE *safety_fopen_output(const char *path, enum safety_out_mode mode, char *msg, size_t len)
{
	return stream(safety_open_output(path, mode, msg, len), mode);
}

int safety_results_dir(const char *path, bool create, char *msg, size_t len)
{
	char *dir, *own;
	const char *name;
	int rc = split(path, false, &dir, &name, &own, msg, len), pfd = -1, fd;
	if (rc)
		goto out;
	pfd = open_dir(dir, create, msg, len);
	if (pfd < 0) {
		rc = pfd;
		pfd = -1;
		goto out;
	}
	if (create && mkdirat(pfd, name, 0755) && errno != EEXIST) {
		rc = refuse(msg, len, -errno, "cannot create %s: %s", path, strerror(errno));
		goto out;
	}
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		struct stat st;
		int e = errno;
		if (!fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
			rc = refuse(
			    msg, len, -EPERM,
			    "%s is a symbolic link (not followed): refusing to write results "
			    "there",
			    path);
		else
			rc = refuse(msg, len, -e, "%s: %s", path, strerror(e));
		goto out;
	}
	rc = dir_ok(fd, path, true, msg, len);
	if (rc)
		close(fd);
	else
		rc = fd;
out:
	if (pfd >= 0)
		close(pfd);
	free(dir);
	free(own);
	return rc;
}

FILE *safety_fopen_in(const char *dir, const char *name, enum safety_out_mode mode, char *msg,
		      size_t len)
{
	int dfd = safety_results_dir(dir, false, msg, len);
	if (dfd < 0) {
		errno = -dfd;
		return NULL;
	}
	int fd = safety_openat_output(dfd, name, mode, msg, len);
	close(dfd);
	return stream(fd, mode);
}

int safety_tmp_create(int dirfd, char tmp[32], char *msg, size_t len)
{
	static atomic_uint seq;

	for (int i = 0; i < 100; i++) {
		snprintf(tmp, 32, ".nvs-%ld-%u.tmp", (long)getpid() % 10000000,
			 atomic_fetch_add(&seq, 1) % 1000000000u);
		int fd =
		    openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return refuse(msg, len, -errno, "cannot create a temporary file: %s",
				      strerror(errno));
	}
	return refuse(msg, len, -EEXIST, "cannot create a temporary file: all names taken");
}

int safety_tmp_commit(int dirfd, int fd, const char *tmp, const char *name, char *msg, size_t len)
{
	struct stat st;
	int rc = 0;

	if (fsync(fd))
		rc = refuse(msg, len, -errno, "%s: %s", name, strerror(errno));
	/* replacing a name never writes through it, but it must not be a
	 * symlink, device node, directory or another user's file either */
	if (!rc && !fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		rc = file_ok(&st, name, false, msg, len);
	if (!rc && renameat(dirfd, tmp, dirfd, name))
		rc = refuse(msg, len, -errno, "%s: %s", name, strerror(errno));
	if (rc)
		unlinkat(dirfd, tmp, 0);
	return rc;
}

int safety_replace_in(const char *dir, const char *name, const void *data, size_t n, char *msg,
		      size_t len)
{
	char tmp[32];
	int dfd = safety_results_dir(dir, false, msg, len), fd, rc = 0;
	if (dfd < 0)
		return dfd;
	if (!name || !*name || strchr(name, '/')) {
		rc = refuse(msg, len, -EINVAL, "'%s' is not a file name", name ? name : "");
		goto out;
	}
	fd = safety_tmp_create(dfd, tmp, msg, len);
	if (fd < 0) {
		rc = fd;
		goto out;
	}
	for (size_t done = 0; done < n && !rc;) {
		ssize_t w = write(fd, (const char *)data + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			rc = refuse(msg, len, w < 0 ? -errno : -EIO, "%s: %s", name,
				    strerror(w < 0 ? errno : EIO));
		else
			done += (size_t)w;
	}
	if (rc)
		unlinkat(dfd, tmp, 0);
	else
		rc = safety_tmp_commit(dfd, fd, tmp, name, msg, len);
	close(fd);
out:
	close(dfd);
	return rc;
}

/* ---- targets (issue 20, cause 5) ---- */

/* One step of safety_target_at(): @p (relative to @at) split, its
 * directory walked and checked.  The directory (O_PATH) or -errno;
 * *@name is a malloc'ed copy of the last component. */
static int target_dir(int at, const char *p, char **name, char *msg, size_t len)
{
	char *dir, *own;
	const char *nm;
	int rc = split(p, true, &dir, &nm, &own, msg, len), fd = -1;

	if (rc)
		goto out;
	fd = walk(at, dir, false, 0, msg, len);
	if (fd < 0) {
		rc = fd;
		goto out;
	}
	if ((rc = dir_ok(fd, dir, false, msg, len)))
		goto out;
	if (!(*name = strdup(nm)))
		rc = -ENOMEM;
out:
	if (rc && fd >= 0)
		close(fd);
	free(dir);
	free(own);
	return rc ? rc : fd;
}

int safety_target_at(const char *path, char **name, char *msg, size_t len)
{
	char *p = strdup(path), *nm = NULL, target[PATH_MAX];
	int at = AT_FDCWD, fd = -ENOMEM;

	*name = NULL;
	for (int depth = 0; p; depth++) {
		struct stat st;
		ssize_t n = -1;

		fd = target_dir(at, p, &nm, msg, len);
		if (fd < 0)
			break;
		if (fstatat(fd, nm, &st, AT_SYMLINK_NOFOLLOW) || !S_ISLNK(st.st_mode)) {
			*name = nm; /* a missing name is created (or refused) by the open */
			nm = NULL;
			break;
		}
		/* a symlink as the last component: only root's or the user's own,
		 * in a directory that passed dir_ok (no one else can swap it) */
		int rc = 0;
		if (st.st_uid != 0 && st.st_uid != geteuid())
			rc = refuse(msg, len, -EPERM,
				    "%s: the symbolic link %s belongs to uid %u: not followed to a "
				    "target",
				    path, nm, (unsigned)st.st_uid);
		else if (depth >= 40)
			rc = refuse(msg, len, -ELOOP, "%s: too many symbolic links", path);
		else if ((n = readlinkat(fd, nm, target, sizeof(target))) < 0 ||
			 (size_t)n >= sizeof(target))
			rc = refuse(msg, len, n < 0 ? -errno : -ENAMETOOLONG, "%s: %s", path,
				    strerror(n < 0 ? errno : ENAMETOOLONG));
		if (rc) {
			close(fd);
			fd = rc;
			break;
		}
		target[n] = '\0';
		free(p);
		free(nm);
		nm = NULL;
		if (at != AT_FDCWD)
			close(at);
		at = fd; /* a relative link is read from its own directory */
		fd = -ENOMEM;
		p = strdup(target);
	}
	if (at != AT_FDCWD && at != fd)
		close(at);
	free(nm);
	free(p);
	return fd;
}

/* ---- the command's file set ---- */

/* One file of the command: its identity when it exists, else its
 * directory's identity and its last name. */
struct fs_entry {
	bool exists, target;
	dev_t dev;
	ino_t ino;
	dev_t ddev;
	ino_t dino;
	char *name; /* last component (missing files) */
	char *path, *what;
};

struct safety_fileset {
	struct fs_entry *e;
	size_t n, cap;
};

struct safety_fileset *safety_fileset_new(void)
{
	return calloc(1, sizeof(struct safety_fileset));
}

void safety_fileset_free(struct safety_fileset *fs)
{
	if (!fs)
		return;
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->e[i].name);
		free(fs->e[i].path);
		free(fs->e[i].what);
	}
	free(fs->e);
	free(fs);
}

/* The identity of @path's directory (followed as the kernel would) and a
 * copy of its last component in *@name.  0 or -errno. */
static int dir_identity(const char *path, dev_t *dev, ino_t *ino, char **name)
{
	char *dir, *own;
	const char *last;
	struct stat st;
	int rc = split(path, true, &dir, &last, &own, NULL, 0);

	if (!rc && stat(dir, &st))
		rc = -errno;
	if (!rc) {
		*dev = st.st_dev;
		*ino = st.st_ino;
		if (!(*name = strdup(last)))
			rc = -ENOMEM;
	}
	free(dir);
	free(own);
	return rc;
}

int safety_fileset_add(struct safety_fileset *fs, const char *path, bool target, const char *what)
{
	struct fs_entry e = {.target = target};
	struct stat st;

	if (!fs || !path || !*path)
		return 0;
	if (fs->n == fs->cap) {
		size_t cap = fs->cap ? fs->cap * 2 : 16;
		struct fs_entry *ne = realloc(fs->e, cap * sizeof(*ne));
		if (!ne)
			return -ENOMEM;
		fs->e = ne;
		fs->cap = cap;
	}
	if (!stat(path, &st)) {
		e.exists = true;
		e.dev = st.st_dev;
		e.ino = st.st_ino;
	} else if (dir_identity(path, &e.ddev, &e.dino, &e.name)) {
		return 0; /* no directory: nothing can be created there either */
	}
	e.path = strdup(path);
	e.what = strdup(what ? what : target ? "a target" : "an input");
	if (!e.path || !e.what) {
		free(e.path);
		free(e.what);
		free(e.name);
		return -ENOMEM;
	}
	fs->e[fs->n++] = e;
	return 0;
}

/* The file of @fs that output @path (in directory @dfd as @name, @st when it
 * exists) would write, or NULL. */
static const struct fs_entry *fs_match(const struct safety_fileset *fs, int dfd, const char *name,
				       const struct stat *st)
{
	struct stat ds;

	if (!fs || fstat(dfd, &ds))
		return NULL;
	for (size_t i = 0; i < fs->n; i++) {
		const struct fs_entry *e = &fs->e[i];
		if (st && e->exists && e->dev == st->st_dev && e->ino == st->st_ino)
			return e;
		if (!e->exists && e->ddev == ds.st_dev && e->dino == ds.st_ino &&
		    !strcmp(e->name, name))
			return e;
	}
	return NULL;
}

int safety_fileset_check_output(const struct safety_fileset *fs, const char *path, char *msg,
				size_t len)
{
	const char *name;
	struct stat st;
	const struct fs_entry *e;
	int rc = 0, dfd = safety_output_dir(path, &name, msg, len);

	if (dfd < 0)
		return dfd;
	bool exists = !fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW);
	if (!exists && errno != ENOENT) {
		rc = refuse(msg, len, -errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (exists && (rc = file_ok(&st, path, true, msg, len)))
		goto out;
	if ((e = fs_match(fs, dfd, name, exists ? &st : NULL))) {
		rc = refuse(msg, len, -EPERM,
			    "%s is %s of this command (%s): refusing to write an output file "
			    "there",
			    path, e->what, e->path);
		goto out;
	}
	if (!exists) {
		if (faccessat(dfd, ".", W_OK, AT_EACCESS))
			rc = refuse(msg, len, -errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	/* in use: the backing file of a loop device, a swap file (by inode) */
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		rc = refuse(msg, len, -errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	char self[64];
	struct dev_usage u;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	safety_usage(self, &u);
	close(fd);
	if (u.loop_backing || u.swap || u.mounted || u.held)
		rc = refuse(msg, len, -EBUSY,
			    "%s is in use (%s%s): refusing to write an output file there", path,
			    u.loop_backing ? "the backing file of "
			    : u.swap	   ? "swap"
					   : "mounted",
			    u.loop_backing ? (u.holder[0] ? u.holder : "a loop device") : "");
out:
	close(dfd);
	return rc;
}

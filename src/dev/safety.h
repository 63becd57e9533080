/* safety.h - may nvscope write to this target?  The one write-safety rule
 * of the program (docs/safety.md), used by every path that writes to a
 * device or an image file and by the Devices pane's marks:
 *  - in use: mounted (it or a partition), swap, held by device-mapper/md/
 *    LVM, a regular file backing an attached loop device, a device under a
 *    busy loop device or a loop device overlapping one (loop devices known
 *    by LOOP_GET_STATUS64, never by name), or opened exclusively by another
 *    program: always refused, no override;
 *  - data: a partition table, a filesystem/RAID/LVM signature, or an
 *    ambivalent libblkid probe (several signatures): refused unless forced
 *    (--force-destroy);
 *  - destructive actions also need the typed confirmation token: the
 *    controller's serial for NVMe, the path otherwise (safety_confirmed).
 * The order is always: open (O_EXCL for a block device), then judge through
 * the held descriptor, then write; no path is looked up twice. */
#ifndef NVS_SAFETY_H
#define NVS_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct dev_usage;
struct stat;

/* Opens @path for writing with @flags (O_RDWR or O_WRONLY, maybe O_CREAT
 * (mode 0644), O_DIRECT, ...; O_EXCL is added for a block device, waiting up
 * to 3 s for a dying claim) and judges the held descriptor
 * (safety_check_fd).  O_DIRECT is set only after the probe.  For an NVMe
 * generic device (/dev/ngXnY) the namespace's block device is opened
 * exclusively as well and judged; its descriptor goes to *@guard (-1 when
 * none; close it with the target).  On success *@fd >= 0 and 0; on refusal
 * nothing is open and -EBUSY (in use), -EEXIST (data, not forced) or
 * another -errno, with one line in @msg. */
int safety_open(const char *path, int flags, bool force, int *fd, int *guard, char *msg,
		size_t len);
/* Judges the held descriptor @fd of @path (a block device opened with
 * O_EXCL, or a regular file): 0, -EBUSY (in use: never allowed), -EEXIST
 * (data and @force false) or -EPERM (cannot probe: refused too); @msg names what was
 * found ("/dev/loop3 holds an ext4 filesystem: ...").  A character device
 * other than an NVMe generic device, /dev/null or /dev/zero: -EPERM (one
 * nvscope cannot judge).  Other kinds: 0. */
int safety_check_fd(int fd, const char *path, bool force, char *msg, size_t len);
/* The check alone, for prompts and pre-flight checks: opens @path as
 * safety_open would (read-only, not creating it: a missing file is 0),
 * judges it and closes it again. */
int safety_check_write(const char *path, bool force, char *msg, size_t len);
/* Fills @u for @path (block device or regular file) with the same code the
 * checks use, without claiming it: the Devices pane's marks. */
void safety_usage(const char *path, struct dev_usage *u);

/* Is character device @rdev an NVMe generic device (/dev/ngXnY)?  Asked of
 * sysfs (the nvme-generic class), not guessed from the name. */
bool safety_is_nvme_generic(dev_t rdev);
/* May character device @rdev be written at all?  Only an NVMe generic
 * device (judged through its namespace) and /dev/null or /dev/zero: any
 * other character device (SCSI generic, MTD, ...) is one nvscope cannot
 * judge, refused by safety_open whatever --force-destroy says. */
bool safety_char_writable(dev_t rdev);
/* Is @path a block device that is a partition (sysfs "partition")?  Its
 * confirmation token is its own path, never its disk's serial. */
bool safety_is_partition(const char *path);
/* The confirmation token of @path: the serial of the controller behind an
 * NVMe node, else @path itself.  For prompts ("type S3X... to destroy
 * /dev/nvme0n1"), never to fill in a confirmation for the user.  0, or
 * -errno with @buf = "". */
int safety_confirm_token(const char *path, char *buf, size_t len);
/* Does the comma list @confirm (--yes-destroy-data, the console prompt, a
 * plan's confirmation) name @target's token?  A serial must match exactly;
 * a path confirms when it is the same file or device node.  @token (may be
 * NULL) receives the token when true. */
bool safety_confirmed(const char *confirm, const char *target, char *token, size_t len);

/* ---- pins: a confirmed target is the same thing at every later open
 * (safety_pin.c; issue 20, cause 2) ---- */

/* What a target is: a block device by its number and diskseq (the kernel
 * gives each disk, and each loop attachment, a new one), an NVMe namespace
 * by its WWID and controller serial (sysfs), a character device by its
 * number, a regular file by device and inode.  kind 0: it did not exist
 * when pinned (a file nvscope creates): its first open pins it. */
struct safety_pin {
	unsigned kind; /* S_IFBLK, S_IFCHR, S_IFREG, ...; 0 absent */
	dev_t rdev;
	unsigned long long diskseq; /* 0 when the kernel has none (< 5.15) */
	char wwid[128];		    /* NVMe namespace identity, "" otherwise */
	char serial[64];
	dev_t dev;
	ino_t ino;
};
/* The pin of @path now (a block device opened read-only, non-blocking,
 * never claimed; other kinds by stat).  0 or -errno. */
int safety_pin_take(const char *path, struct safety_pin *p);
/* The pin of the open descriptor @fd.  0 or -errno. */
int safety_pin_fd(int fd, struct safety_pin *p);
/* Is @now (of @path) what @was pinned?  0, or -ESTALE with "@path is not
 * the device that was confirmed: ..." in @msg.  An NVMe namespace compares
 * WWID and serial only (a format may re-create its block device). */
int safety_pin_same(const struct safety_pin *was, const struct safety_pin *now, const char *path,
		    char *msg, size_t len);
/* Block device @rdev's diskseq from sysfs.  0 or -errno. */
int safety_diskseq(dev_t rdev, uint64_t *seq);
/* The process's pins: safety_pin_hold() pins @path for as long as a check
 * or plan runs (0 or -errno with @msg); every safety_open() and every
 * target open (src/io/core/target.c) then compares what it opened with the
 * held pins of that name or device number (safety_pin_verify_fd: -ESTALE
 * refuses); safety_pin_verify() compares what @path is now (between the
 * phases of a check).  safety_pin_release() drops one pin of @path.
 * Thread-safe. */
int safety_pin_hold(const char *path, char *msg, size_t len);
void safety_pin_release(const char *path);
int safety_pin_verify_fd(int fd, const char *path, char *msg, size_t len);
int safety_pin_verify(const char *path, char *msg, size_t len);
/* For a judgement by what a target is (kind, size, device number) rather
 * than by an open: @path's stat in @st, from the same look that read its
 * identity, compared with the held pins as safety_pin_verify() (-ESTALE
 * with its message: the check judges what was pinned, never what the
 * name shows later).  -ENOENT when absent (and not pinned as existing);
 * another -errno (with @msg) when it cannot be read. */
int safety_pin_stat(const char *path, struct stat *st, char *msg, size_t len);

/* ---- tests only ---- */
/* Reads sysfs below @root instead of /sys (NULL: /sys again), for unit
 * tests with a tree of their own.  0 or -ENAMETOOLONG. */
int safety_set_sysfs_root(const char *root);
/* The sysfs root in use ("/sys"). */
const char *safety_sysfs_root(void);
/* ---- end tests only ---- */

/* ---- the claims of a run group (safety_claims.c) ---- */

/* fio starts the jobs of a run group together, several of them may write
 * one device.  A claim set holds each device the group writes ONCE: the
 * first safety_claims_open() of a block device (or NVMe generic device) is
 * safety_open() (exclusive claim, judgement through the held descriptor,
 * -EBUSY/-EEXIST as there) and the set keeps that descriptor; every open
 * of the same device (by device number) gets its own open of that held
 * file, through /proc/self/fd (no path is looked up; its own O_DIRECT and
 * file state, as each fio job has), judged again through the held
 * descriptor only when this writer is not forced and the claim was.
 * Another program's O_EXCL open, a mount or mkfs fail until
 * safety_claims_free().  Where /proc is missing, a writer gets a duplicate
 * of the held descriptor instead, and one asking for the other O_DIRECT
 * setting than the claim's is -EINVAL.  A regular file is opened by safety_open()
 * for each writer, as without a set.  Set-up only, one thread (no lock);
 * @cs NULL is safety_open().  0 or -errno with one line in @msg. */
struct safety_claims;
struct safety_claims *safety_claims_new(void);
int safety_claims_open(struct safety_claims *cs, const char *path, int flags, bool force, int *fd,
		       int *guard, char *msg, size_t len);
/* Devices held (one per device, whatever the number of writers). */
unsigned safety_claims_count(const struct safety_claims *cs);
/* Closes the held descriptors: the claims end (free the set after the
 * writers are done).  NULL-safe. */
void safety_claims_free(struct safety_claims *cs);

/* ---- output files and results directories (safety_out.c) ---- */
#include <stdio.h>

/* What safety_open_output() does with an existing file (which must be a
 * regular file of ours, see below) or a missing one (created, mode 0644). */
enum safety_out_mode {
	SAFETY_OUT_TRUNC,  /* create, or empty the existing file */
	SAFETY_OUT_EXCL,   /* create; an existing name is -EEXIST */
	SAFETY_OUT_APPEND, /* create, or append to the existing file */
	SAFETY_OUT_KEEP,   /* create, or open the existing file as it is (read-write) */
};

/* Opens output file @path for writing: the one way nvscope writes a file
 * that is not a target (reports, JSON, CSV, logs, results).  Refused
 * (-EPERM, @msg says why): a last component that is a symlink (never
 * followed), a device, FIFO, socket or directory; a directory not owned by
 * the effective user or root, or world-writable without the sticky bit; an
 * existing file not owned by the effective user or with more than one
 * hard link.  Returns a descriptor (O_CLOEXEC) or -errno; @msg may be NULL. */
int safety_open_output(const char *path, enum safety_out_mode mode, char *msg, size_t len);
/* The same for @name (one path component) in the directory @dirfd. */
int safety_openat_output(int dirfd, const char *name, enum safety_out_mode mode, char *msg,
			 size_t len);
/* safety_open_output() as a stdio stream; NULL with errno set. */
FILE *safety_fopen_output(const char *path, enum safety_out_mode mode, char *msg, size_t len);
/* Opens and checks the directory that holds output @path (as
 * safety_open_output() does); *@name points to @path's last component.
 * Returns the directory's descriptor or -errno. */
int safety_output_dir(const char *path, const char **name, char *msg, size_t len);
/* Opens results directory @path, creating it (and missing parents, 0755)
 * when @create.  Refused (-EPERM): a symlink as last component, not a
 * directory, not owned by the effective user, world-writable without the
 * sticky bit.  Returns an O_DIRECTORY descriptor or -errno. */
int safety_results_dir(const char *path, bool create, char *msg, size_t len);
/* File @name in results directory @dir (which must exist and pass
 * safety_results_dir()), opened by safety_openat_output() as a stream. */
FILE *safety_fopen_in(const char *dir, const char *name, enum safety_out_mode mode, char *msg,
		      size_t len);
/* Atomic replacement of @name in @dirfd: safety_tmp_create() makes a fresh
 * temporary file (O_EXCL, never an existing name) whose name it puts in
 * @tmp (32 bytes); safety_tmp_commit() fsyncs @fd (the caller closes it)
 * and renames the file over @name (when @name exists it must be a regular
 * file of ours, not a symlink), or removes it on failure.  They return a
 * descriptor / 0, or -errno. */
int safety_tmp_create(int dirfd, char tmp[32], char *msg, size_t len);
int safety_tmp_commit(int dirfd, int fd, const char *tmp, const char *name, char *msg, size_t len);
/* Writes @n bytes @data as @dir/@name atomically (safety_tmp_*). 0 or -errno. */
int safety_replace_in(const char *dir, const char *name, const void *data, size_t n, char *msg,
		      size_t len);
/* A write target @path resolved as root may safely follow it (issue 20,
 * cause 5): its directory walked as an output's (a symlink on the way only
 * when root or the effective user owns it) and checked the same way (root's
 * or the effective user's, not writable by everyone without the sticky
 * bit, not a kernel interface); a symlink as last component is followed
 * only when root or the effective user owns it (it lies in a directory
 * that passed the check, so no one else could have planted it), and its
 * target is resolved by the same rule (/dev/disk/by-id/... works).
 * Returns the final directory (O_PATH) with *@name (malloc'ed, free it)
 * its last component, to be opened with openat(..., O_NOFOLLOW); or
 * -errno (-EPERM: refused) with one line in @msg. */
int safety_target_at(const char *path, char **name, char *msg, size_t len);
/* ---- end output files ---- */

/* ---- the command's file set (safety_out.c) ---- */

/* Every file a command reads (job files, traces, iologs, profiles, plans)
 * and every target it writes, so that no output of the command lands on one
 * of them: an output is compared by identity (st_dev/st_ino of an existing
 * file; the directory's identity and the last name for a file that does not
 * exist yet), not by its spelling.  Register first, then check every output
 * before anything is opened for writing. */
struct safety_fileset;
struct safety_fileset *safety_fileset_new(void);
void safety_fileset_free(struct safety_fileset *fs);
/* Registers @path read (@target false: @what names it, "the job file") or
 * written (@target true: "a target") by the command.  A missing path is
 * remembered by its directory and name.  0 or -ENOMEM. */
int safety_fileset_add(struct safety_fileset *fs, const char *path, bool target, const char *what);
/* May the command write output file @path?  Nothing is opened for writing
 * or created.  Refused (-EPERM, one line in @msg): what safety_open_output()
 * refuses (a device, FIFO, symlink, another user's file or directory, ...);
 * a file of @fs (an input or a target of the command, by identity); a file
 * in use (the backing file of an attached loop device, a swap file, or one
 * whose use cannot be checked).  @fs may be NULL (the in-use rule only). */
int safety_fileset_check_output(const struct safety_fileset *fs, const char *path, char *msg,
				size_t len);
/* ---- end file set ---- */

#endif

/* safety.h - may nvscope write to this path?  Mounted filesystems, swap,
 * device-mapper/md holders (always refused) and partition tables or
 * filesystem/RAID signatures found by libblkid (refused unless forced). */
#ifndef NVS_SAFETY_H
#define NVS_SAFETY_H

#include <stdbool.h>
#include <stddef.h>

/* Checks that writing to @path is allowed.  Regular files and character
 * devices always are, except NVMe generic devices (/dev/ngXnY), which are
 * judged by their namespace's block device.  Returns 0, -EBUSY (in use: never allowed), -EEXIST
 * (holds data and @force is false), or another -errno; @msg says what was
 * found ("/dev/loop3 holds an ext4 filesystem (use --force-destroy)"). */
int safety_check_write(const char *path, bool force, char *msg, size_t len);
/* True when @path (a block device) or one of its partitions is mounted,
 * used as swap or held by another device.  @what receives the reason. */
bool safety_in_use(const char *path, char *what, size_t len);

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
/* ---- end output files ---- */

#endif

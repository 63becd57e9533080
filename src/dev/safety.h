/* safety.h - may nvscope write to this target?  The one write-safety rule
 * of the program (docs/safety.md), used by every path that writes to a
 * device or an image file and by the Devices pane's marks:
 *  - in use: mounted (it or a partition), swap, held by device-mapper/md/
 *    LVM, a regular file backing an attached loop device, or opened
 *    exclusively by another program: always refused, no override;
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

struct dev_usage;

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
 * found ("/dev/loop3 holds an ext4 filesystem: ...").  Other kinds: 0. */
int safety_check_fd(int fd, const char *path, bool force, char *msg, size_t len);
/* The check alone, for prompts and pre-flight checks: opens @path as
 * safety_open would (read-only, not creating it: a missing file is 0),
 * judges it and closes it again. */
int safety_check_write(const char *path, bool force, char *msg, size_t len);
/* Fills @u for @path (block device or regular file) with the same code the
 * checks use, without claiming it: the Devices pane's marks. */
void safety_usage(const char *path, struct dev_usage *u);

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

#endif

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

#endif

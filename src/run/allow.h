/* allow.h - `nvscope agent --allow PATH,...`: the only devices and files an
 * agent lists, reads and tests (docs/hosts.md: a key in authorized_keys
 * with command="nvscope agent --allow /dev/nvme2n1,/dev/nvme3n1" may test
 * those drives and nothing else).
 *
 * Paths are compared as what they name, never as strings: a device node
 * by its type and st_rdev (so /dev/disk/by-id/... and a node of another
 * name for the same device are the same), anything else by st_dev and
 * st_ino; both sides are stat'ed (symlinks followed) at each question, so
 * the list means the paths as they are now. */
#ifndef NVS_RUN_ALLOW_H
#define NVS_RUN_ALLOW_H

#include <stdbool.h>
#include <stddef.h>

struct allow;

/* Adds the comma-separated absolute paths of @list to *@a (made on the
 * first call).  0, -EINVAL (an empty or relative entry: @err says which),
 * -ENOMEM. */
int allow_add(struct allow **a, const char *list, char *err, size_t errlen);
/* 0 when @path is one of the allowed (or @a is NULL: no list); -EPERM with
 * @err naming it ("not allowed on this host"), -ENOENT when @path does not
 * exist (named too). */
int allow_check(const struct allow *a, const char *path, char *err, size_t errlen);
/* The number of paths listed (0 for NULL). */
size_t allow_count(const struct allow *a);
void allow_free(struct allow *a);

#endif

/* state.h - a check batch's state.json: where to continue (the next step)
 * and what the finished steps found, so that `nvscope check --resume DIR`
 * runs only what is left.  Written atomically (safety_replace_in: a fresh
 * O_EXCL temporary file, fsync, renameat over state.json) after
 * every finished step.  The findings are stored as this build's in-memory
 * layout (hex), guarded by its sizes and the nvscope version: a state from
 * another build is refused rather than misread. */
#ifndef NVS_CHECK_STATE_H
#define NVS_CHECK_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include "check/run.h"

/* Writes @dir/state.json for @b (with the command's @confirm, may be NULL)
 * through the safety module.  0 or -errno with @err (-EPERM: refused). */
int check_state_save(const struct check_batch *b, const char *dir, const char *confirm, char *err,
		     size_t errlen);
/* Reads @dir/state.json: the drives into @d (at most @max; *@n set), the
 * next step into b->next_step, force; the confirmation into @confirm.
 * b->prof must be loaded (from @dir/profile.ini) already.  0, or -errno
 * with @err (-ENOENT no state, -EINVAL bad or foreign state). */
int check_state_load(struct check_batch *b, const char *dir, struct check_drive *d, size_t max,
		     size_t *n, char *confirm, size_t confirm_len, char *err, size_t errlen);
/* The profile name recorded in @dir/state.json into @buf.  0 or -errno. */
int check_state_profile(const char *dir, char *buf, size_t len);

#endif

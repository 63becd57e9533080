/* specdata.h - fio's options about what reaches the medium: sync=, fsync=,
 * fdatasync= and the checks that trims and syncs can be issued (spec.c
 * calls these; docs/cli.md's option table says how each matches fio). */
#ifndef NVS_SPECDATA_H
#define NVS_SPECDATA_H

#include <stddef.h>
#include "io/spec.h"

/* Sets @key (already normalised: '_' for '-') to @v.  0, -EINVAL with @err,
 * or -ENOENT when @key is not one of these options (nothing written). */
int specdata_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen);
/* Checks the options against the rest of the spec.  0 or -EINVAL, @err. */
int specdata_validate(const struct spec *s, char *err, size_t errlen);
/* True when @s issues trims (rw=trim, randtrim, trimwrite, randtrimwrite). */
bool specdata_trims(const struct spec *s);

#endif

/* specdata.h - fio's options about what reaches the medium: sync=, fsync=,
 * fdatasync= and the checks that trims and syncs can be issued (spec.c
 * calls these; docs/cli.md's option table says how each matches fio). */
#ifndef NVS_SPECDATA_H
#define NVS_SPECDATA_H

#include <stddef.h>
#include "io/opt/spec.h"
#include "io/opt/opt.h"

/* fio's create_serialize, dedupe_global, dedupe_mode, dedupe_working_set_percentage, do_verify,
 * end_fsync, error_dump, fdatasync, fill_device, fsync, fsync_on_close, sync, verify,
 * verify_backlog, verify_dump, verify_fatal, verify_interval, verify_only, verify_pattern (the
 * names in specdata_opts): a row each in io/opt/opt.c's one table. */
#define SPECDATA_NOPTS 19
extern const struct opt_row specdata_opts[SPECDATA_NOPTS];
/* Checks the options against the rest of the spec.  0 or -EINVAL, @err. */
int specdata_validate(const struct spec *s, char *err, size_t errlen);
/* True when @s issues trims (rw=trim, randtrim, trimwrite, randtrimwrite). */
bool specdata_trims(const struct spec *s);

#endif

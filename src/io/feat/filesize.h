/* filesize.h - fio's filesize=SIZE and filesize=LOW-HIGH for the files and
 * devices a job names (filename=), with fio's meaning (filesetup.c
 * setup_files): a target whose size is within [LOW, HIGH] is used whole;
 * one outside it is used as if it were SIZE bytes long (a range: a size
 * drawn per file in [LOW, HIGH), rounded down to the smallest block size),
 * and offset=, size= and size=N% then apply to that length.  A device
 * shorter than that is used whole (fio reads and writes no further either);
 * a regular file shorter than that is refused: fio would extend it, and
 * nvscope does not create or grow files (fio's nrfiles/directory file sets
 * stay refused for the same reason). */
#ifndef NVS_FILESIZE_H
#define NVS_FILESIZE_H

#include <stddef.h>
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "io/core/target.h"

/* filesize and allow_file_create: rows of io/opt's table. */
#define FILESIZE_NOPTS 2
extern const struct opt_row filesize_opts[FILESIZE_NOPTS];
/* fio's allow_file_create=0: -ENOENT with @err when @path does not exist
 * (the job may not create it); 0 otherwise (the safety rule still judges
 * what is opened). */
int filesize_may_create(const struct spec *s, const char *path, char *err, size_t errlen);
/* Consistency with the rest of @s.  0 or -EINVAL with @err. */
int filesize_validate(const struct spec *s, char *err, size_t errlen);
/* Applies filesize to the opened target @t, the @idx-th of the job:
 * t->size becomes the length fio would use.  0, or -EINVAL with @err (a
 * regular file fio would have to extend). */
int filesize_apply(const struct spec *s, struct target *t, unsigned idx, char *err, size_t errlen);

#endif

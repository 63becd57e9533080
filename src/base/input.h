/* input.h - the one way nvscope opens and reads a file from outside (job
 * files and their includes, plans, check profiles, traces, steady inputs,
 * CSV and rounds tables): docs/safety.md "Rule: hostile inputs".
 *
 *   - An input is a regular file.  It is opened O_NONBLOCK (a FIFO cannot
 *     block the open), then fstat'ed: a FIFO, a device, a directory or a
 *     socket is refused with a message naming the path and what it is;
 *     O_NONBLOCK is cleared afterwards.
 *   - Every input has a stated cap in bytes (the caller's, per kind): a
 *     larger file is refused naming the cap, before any of it is read; a
 *     file that grows past the cap while read is refused as well.
 *   - Lines are read whole up to a stated length: a longer line is refused
 *     with its line number, never cut into two records.
 *
 * Lowest layer: includes nothing from the rest of nvscope.  Returns 0 or
 * -errno with one line in @err (never empty on an error). */
#ifndef NVS_INPUT_H
#define NVS_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Opens @path read-only (close-on-exec, no controlling terminal): the fd,
 * or -errno: -ENOENT/-EACCES/... of open, -EINVAL for a file that is not
 * regular ("PATH: is a FIFO, not a regular file"), -EFBIG for one larger
 * than @cap bytes ("PATH: N bytes, larger than the CAP a WHAT may have").
 * @what names the kind of input in messages ("job file"). */
int input_open(const char *path, uint64_t cap, const char *what, char *err, size_t errlen);
/* The same as a stdio stream ("r"), or NULL with @err and errno set. */
FILE *input_fopen(const char *path, uint64_t cap, const char *what, char *err, size_t errlen);
/* All of @path, NUL-terminated (*@len excludes the NUL; the text may hold
 * NULs), malloc'ed, at most @cap bytes. */
int input_read_all(const char *path, size_t cap, const char *what, char **text, size_t *len,
		   char *err, size_t errlen);
/* The next line of @f into *@buf (grown as needed, like getline), without
 * its '\n'; *@lineno counts it.  Returns the line's length (it may hold
 * NULs), -1 at the end of the file, or -E2BIG for a line longer than
 * @max bytes (the rest of it is not read), -EIO for a read error, -ENOMEM;
 * input_line_err formats those. */
long input_getline(FILE *f, char **buf, size_t *cap, size_t max, unsigned *lineno);
/* "PATH:LINE: longer than MAX bytes" etc. for a negative input_getline. */
void input_line_err(long rc, const char *path, unsigned lineno, size_t max, char *err,
		    size_t errlen);
/* "4 MiB", "512 KiB", "100 bytes": @n for a message. */
const char *input_fmt_size(uint64_t n, char *buf, size_t len);

#endif

/* jobfile.h - the syntax of fio job files, read as fio reads them (fio's
 * init.c __parse_jobs_ini and parse.c strip_blank_end): sections, options,
 * comments, `include`, ${ENV} and $pagesize/$ncpus/$mb_memory.  What the
 * options mean is the caller's (preset.c); this module only hands over
 * (section, key, value, file, line) in file order and stops at the first
 * error, which names the file and line. */
#ifndef NVS_JOBFILE_H
#define NVS_JOBFILE_H

#include <stddef.h>

/* Caps (docs/safety.md "Rule: hostile inputs"): each a refusal naming it.
 * A section costs the caller a struct spec (about 24 KB): 1024 sections
 * hold about 24 MB; fio's own limit is 4096 jobs (FIO_MAX_JOBS). */
#define JOBFILE_MAX_BYTES    (4u << 20)	 /* one file (job file or include) */
#define JOBFILE_MAX_TOTAL    (16u << 20) /* all files read, includes too */
#define JOBFILE_MAX_INCLUDE  16		 /* include nesting */
#define JOBFILE_MAX_SECTIONS 1024	 /* [name] headers, [global] too */

struct jobfile_ops {
	/* A `[name]` line: every header, empty and repeated ones included. */
	int (*section)(void *user, const char *name, char *err, size_t errlen);
	/* An option of the current section: @val is NULL for a bare `flag`
	 * line.  Return 0, or -errno with "why" in @err (it is prefixed with
	 * "file:line: "). */
	int (*option)(void *user, const char *key, const char *val, char *err, size_t errlen);
	/* May be NULL: each file read, as it was opened, before its lines -
	 * the job file itself (@depth 0), then each `include` (@depth > 0) -
	 * so that the caller knows every input (no output may land on one).
	 * Return 0, or -errno with "why" in @err to stop. */
	int (*file)(void *user, const char *path, unsigned depth, char *err, size_t errlen);
};

/* Reads job file @path (a regular file, base/input.h; the caps above) and
 * calls @ops in file order.  Returns 0, -ENOENT or -EACCES (cannot open:
 * @err says so), -EFBIG over a cap, -EINVAL for a file that is not regular
 * (a FIFO, a device) or with
 * "file:line: why" in @err at the first bad line (NUL byte, invalid UTF-8,
 * option outside a section, malformed header, a callback's refusal), or
 * -ENOMEM. */
int jobfile_parse(const char *path, const struct jobfile_ops *ops, void *user, char *err,
		  size_t errlen);
/* The same for the @len bytes at @buf (may hold NULs), named @name in
 * messages.  No file is read: `include` is refused (for fuzzing). */
int jobfile_parse_mem(const char *name, const char *buf, size_t len, const struct jobfile_ops *ops,
		      void *user, char *err, size_t errlen);

#endif

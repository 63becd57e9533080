/* specerr.h - fio's ignore_error: per kind of error (read, write, verify)
 * the errnos that do not fail a job, and the check the worker makes. */
#ifndef NVS_SPECERR_H
#define NVS_SPECERR_H

#include <stdbool.h>
#include <stddef.h>

#define SPECERR_MAX 16 /* errnos per kind; more is refused */

enum specerr_kind { SPECERR_READ, SPECERR_WRITE, SPECERR_VERIFY, SPECERR_NKIND };

struct specerr {
	unsigned n[SPECERR_NKIND];	     /* 0: the kind has no list */
	int err[SPECERR_NKIND][SPECERR_MAX]; /* positive errnos */
};

/* Parses fio's ignore_error=READ_LIST,WRITE_LIST,VERIFY_LIST (each list
 * errnos by name, EIO, or number, 5 or 0x5, separated by ':'; an empty
 * list leaves its kind alone) into @e.  0, or -EINVAL with @err said. */
int specerr_parse(struct specerr *e, const char *val, char *err, size_t errlen);
/* The kind fio gives an error of an I/O (@is_read: a read): EILSEQ is a
 * verify error, else the reads' or (writes, trims, syncs) the writes'. */
enum specerr_kind specerr_kind_of(bool is_read, int errnum);
/* Whether errno @errnum (positive) of kind @k does not fail the job: with
 * a list for the kind, when it is in it; else when @cont (continue_on_error). */
bool specerr_ignored(const struct specerr *e, bool cont, enum specerr_kind k, int errnum);

#endif

/* specdata.c - fio's sync=, fsync=, fdatasync= (see specdata.h).
 *
 * fio's meanings (options.c, io_u.c get_rw_ddir): fsync=N issues an fsync
 * after every N writes (0: never), fdatasync=N an fdatasync, through the
 * engine's queue like any I/O (io_uring: IORING_OP_FSYNC, with
 * IORING_FSYNC_DATASYNC); sync=1|sync|dsync|0|none opens the file O_SYNC
 * or O_DSYNC.  nvscope sets the per-write equivalent (RWF_SYNC, RWF_DSYNC on
 * each write SQE: the kernel's same path), as the target is opened once by
 * the safety module. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "base/num.h"
#include "io/specdata.h"

bool specdata_trims(const struct spec *s)
{
	return s->rw == RW_TRIM || s->rw == RW_RANDTRIM || s->rw == RW_TRIMWRITE ||
	       s->rw == RW_RANDTRIMWRITE;
}

int specdata_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	if (!strcmp(key, "fsync") || !strcmp(key, "fdatasync")) {
		unsigned n;
		if (!v || num_parse_uint(v, 0, 1u << 30, &n)) {
			snprintf(err, errlen, "%s: '%s' is not a count of writes (0 = never)", key,
				 v ? v : "");
			return -EINVAL;
		}
		*(key[1] == 's' ? &s->fsync_blocks : &s->fdatasync_blocks) = n;
		return 0;
	}
	if (!strcmp(key, "sync")) {
		/* fio: a bare "sync" flag is sync=1 (O_SYNC) */
		if (!v || !*v || !strcmp(v, "1") || !strcmp(v, "sync"))
			s->sync = SYNC_SYNC;
		else if (!strcmp(v, "dsync"))
			s->sync = SYNC_DSYNC;
		else if (!strcmp(v, "0") || !strcmp(v, "none"))
			s->sync = SYNC_NONE;
		else {
			snprintf(err, errlen, "sync: '%s' is not none, 0, sync, 1 or dsync", v);
			return -EINVAL;
		}
		return 0;
	}
	return -ENOENT;
}

int specdata_validate(const struct spec *s, char *err, size_t errlen)
{
	bool syncs = s->fsync_blocks || s->fdatasync_blocks || s->sync;

	if (s->ioengine == ENGINE_IO_URING_CMD && (specdata_trims(s) || syncs)) {
		snprintf(err, errlen,
			 "%s with ioengine=io_uring_cmd: not implemented (NVMe Dataset "
			 "Management and Flush passthrough); use ioengine=io_uring on the block "
			 "device",
			 specdata_trims(s) ? "trims" : "sync/fsync/fdatasync");
		return -EINVAL;
	}
	return 0;
}

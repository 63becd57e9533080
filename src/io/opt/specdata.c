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
#include "io/opt/specval.h"
#include "io/feat/nvcmd.h"
#include "io/opt/specdata.h"
#include "io/feat/vhdr.h"

bool specdata_trims(const struct spec *s)
{
	return s->rw == RW_TRIM || s->rw == RW_RANDTRIM || s->rw == RW_TRIMWRITE ||
	       s->rw == RW_RANDTRIMWRITE;
}

/* fio's booleans (spec_parse_bool), said with the option's name */
static int boolean(const char *key, const char *v, bool *b, char *err, size_t errlen)
{
	if (spec_parse_bool(v, b)) {
		snprintf(err, errlen, "%s: '%s' is not a boolean (0/1)", key, v ? v : "");
		return -EINVAL;
	}
	return 0;
}

#define SETTER(fn)                                                                                 \
	static int fn(struct spec *s __attribute__((unused)),                                      \
		      const char *key __attribute__((unused)), const char *v, char *err,           \
		      size_t errlen)

SETTER(set_verify_backlog)
{
	if (!v || num_parse_uint(v, 0, 1u << 20, &s->verify_backlog)) {
		snprintf(err, errlen, "verify_backlog: '%s' is not a count of blocks 0..%u",
			 v ? v : "", 1u << 20);
		return -EINVAL;
	}
	return 0;
}

SETTER(set_verify_interval)
{
	uint64_t n;
	if (!v || spec_parse_size(v, &n) || n > 1u << 30) {
		snprintf(err, errlen, "verify_interval: '%s' is not a size in bytes (at most 1g)",
			 v ? v : "");
		return -EINVAL;
	}
	s->verify_interval = (uint32_t)n;
	return 0;
}

/* fsync, fdatasync: a sync after every N writes */
SETTER(set_fsync)
{
	unsigned n;
	if (!v || num_parse_uint(v, 0, 1u << 30, &n)) {
		snprintf(err, errlen, "%s: '%s' is not a count of writes (0 = never)", key,
			 v ? v : "");
		return -EINVAL;
	}
	*(key[1] == 's' ? &s->fsync_blocks : &s->fdatasync_blocks) = n;
	return 0;
}

SETTER(set_sync)
{
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

SETTER(set_verify)
{
	enum vhdr_type t;
	if (!v || vhdr_parse(v, &t)) {
		snprintf(err, errlen,
			 "verify: '%s' is not md5, crc64, crc32, crc32c, crc32c-intel, crc16, "
			 "crc7, sha1, sha256, sha512, sha3-224, sha3-256, sha3-384, sha3-512, "
			 "xxhash, meta, pattern, null or 0",
			 v ? v : "");
		return -EINVAL;
	}
	s->verify = (uint8_t)t;
	return 0;
}

/* create_serialize: fio's file layout order, no files are made here;
 * fill_device: fio's size without size= is "until ENOSPC", which on a
 * device (or an existing file, not extended here) is its end: nvscope's
 * default region already; with size= the size holds */
SETTER(set_no_effect)
{
	bool ignored;
	return boolean(key, v, &ignored, err, errlen);
}

SETTER(set_dedupe_mode)
{
	if (v && !strcmp(v, "repeat"))
		s->dedupe_ws = false;
	else if (v && !strcmp(v, "working_set"))
		s->dedupe_ws = true;
	else {
		snprintf(err, errlen, "dedupe_mode: '%s' is not repeat or working_set", v ? v : "");
		return -EINVAL;
	}
	return 0;
}

SETTER(set_dedupe_ws_pct)
{
	if (!v || num_parse_uint(v, 0, 100, &s->dedupe_ws_pct)) {
		snprintf(err, errlen,
			 "dedupe_working_set_percentage: '%s' is not a percentage 0..100",
			 v ? v : "");
		return -EINVAL;
	}
	return 0;
}

SETTER(set_verify_dump)
{
	if (!v || !*v || !strcmp(v, "1"))
		s->verify_dump = true;
	else if (!strcmp(v, "0"))
		s->verify_dump = false;
	else {
		snprintf(err, errlen, "verify_dump: '%s' is not a boolean (0/1)", v);
		return -EINVAL;
	}
	return 0;
}

SETTER(set_verify_pattern)
{
	int n = v && *v ? specval_pattern(v, s->vpattern, sizeof(s->vpattern)) : -1;
	if (n <= 0) {
		snprintf(
		    err, errlen,
		    "verify_pattern: '%s' is not 0xHEX, \"text\" or a number (at most %d bytes)",
		    v ? v : "", SPEC_MAX_PATTERN);
		return -EINVAL;
	}
	s->vpattern_len = (unsigned)n;
	if (!s->verify) /* fio: verify_pattern alone is a header + the pattern */
		s->verify = VHDR_PATTERN_HDR;
	return 0;
}

/* The options this module sets: a row each (io/opt/opt.h). */
#define ROW(n, fn)                                                                                 \
	{                                                                                          \
		.name = n, .kind = OPT_CUSTOM, .set = fn                                           \
	}
/* fio's booleans (fsync_on_close is end_fsync) */
#define FLAG(n, f)                                                                                 \
	{                                                                                          \
		.name = n, .kind = OPT_BOOL, OPT_FIELD(f), .what = "a boolean (0/1)"               \
	}
const struct opt_row specdata_opts[SPECDATA_NOPTS] = {
    ROW("create_serialize", set_no_effect),
    FLAG("dedupe_global", dedupe_global),
    ROW("dedupe_mode", set_dedupe_mode),
    ROW("dedupe_working_set_percentage", set_dedupe_ws_pct),
    FLAG("do_verify", do_verify),
    FLAG("end_fsync", end_fsync),
    FLAG("error_dump", error_dump),
    ROW("fdatasync", set_fsync),
    ROW("fill_device", set_no_effect),
    ROW("fsync", set_fsync),
    FLAG("fsync_on_close", end_fsync),
    ROW("sync", set_sync),
    ROW("verify", set_verify),
    ROW("verify_backlog", set_verify_backlog),
    ROW("verify_dump", set_verify_dump),
    FLAG("verify_fatal", verify_fatal),
    ROW("verify_interval", set_verify_interval),
    FLAG("verify_only", verify_only),
    ROW("verify_pattern", set_verify_pattern),
};
#undef ROW
#undef FLAG

int specdata_validate(const struct spec *s, char *err, size_t errlen)
{
	bool syncs = s->fsync_blocks || s->fdatasync_blocks || s->sync || s->end_fsync;

	if (s->ioengine == ENGINE_IO_URING_CMD && syncs) {
		snprintf(err, errlen,
			 "sync/fsync/fdatasync with ioengine=io_uring_cmd: not implemented (NVMe "
			 "Flush passthrough); use ioengine=io_uring on the block device");
		return -EINVAL;
	}
	if (s->fileset && (s->rw == RW_TRIMWRITE || s->rw == RW_RANDTRIMWRITE)) {
		snprintf(err, errlen,
			 "rw=%s over a file set (filename=a:b): not implemented "
			 "(the write must follow its trim on the same file)",
			 spec_rw_name(s->rw));
		return -EINVAL;
	}
	if (!s->verify && (s->verify_only || s->verify_backlog)) {
		snprintf(err, errlen, "%s needs verify= (the checksum to check)",
			 s->verify_only ? "verify_only" : "verify_backlog");
		return -EINVAL;
	}
	if (!s->verify)
		return 0;
	bool seq = s->rw == RW_READ || s->rw == RW_WRITE;
	const char *why = NULL;
	if (s->nbs != 1 || s->bsrange[0][1] || s->bsrange[1][1] ||
	    s->bs[0].weight != s->bs[0].wweight)
		why = "one block size (bssplit, bsrange and bs=R,W are not implemented with it)";
	else if (s->blockalign && s->blockalign != s->bs[0].bs)
		why = "offsets aligned to the block size (blockalign=bs)";
	else if (s->rw == RW_RW || s->rw == RW_RANDRW || specdata_trims(s))
		why = "rw=read, randread, write or randwrite (mixed and trim workloads are not "
		      "implemented with it)";
	else if (s->fileset)
		why = "one file (a file set, filename=a:b, is not implemented with it)";
	else if (s->replay.iolog[0])
		why = "a generated workload, not a trace replay";
	else if (s->verify_only && !seq &&
		 ((s->norandommap && !s->rand_lfsr) || s->dist != DIST_UNIFORM ||
		  s->pct_random[0] < 100 || s->pct_random[1] < 100 || s->time_based || s->io_size))
		why = "verify_only: a sequential job, or a random one that wrote every block of "
		      "its region once (the random map on, uniform, size-based, no io_size): "
		      "nvscope's random offsets cannot be replayed to find what another random "
		      "job wrote";
	else if (s->verify == VHDR_PATTERN && !s->vpattern_len)
		why = "verify=pattern: verify_pattern= (the bytes to check)";
	else if (s->seq_nr > 1 || (s->seq_add && (s->verify_only || s->seq_add % s->bs[0].bs)))
		why =
		    "plain rw, or rw=write:SIZE with SIZE a multiple of bs and without verify_only "
		    "(the holes are not read back)";
	else if (vhdr_interval(s->bs[0].bs, s->verify_interval) <=
		 vhdr_size((enum vhdr_type)s->verify))
		why = "a block (or verify_interval) larger than its header (fio: \"Blocksize too "
		      "small\")";
	if (why) {
		snprintf(err, errlen, "verify=%s needs %s", vhdr_name((enum vhdr_type)s->verify),
			 why);
		return -EINVAL;
	}
	return 0;
}

/* spec.h; here, with the data options it reads: whether a job changes
 * data (io_uring_cmd's write_mode and the trims included). */
bool spec_writes(const struct spec *s)
{
	/* a trace may write: every confirmation and check before the run
	 * assumes it does; the pool opens the target for writing only when the
	 * loaded trace holds writes (io/trace/replay.h) */
	if (s->replay.iolog[0])
		return true;
	if (s->verify_only) /* fio: reads back what the job wrote, writes nothing */
		return false;
	/* io_uring_cmd's write_mode=verify: the drive reads and checks the
	 * blocks, nothing is written (trims still deallocate) */
	if (!nvcmd_changes_data(s) && !specdata_trims(s))
		return false;
	switch (s->rw) {
	case RW_READ:
	case RW_RANDREAD:
		return false;
	case RW_RW:
	case RW_RANDRW:
		/* zonemode=zbd writes a mixed job's first I/Os while the zones
		 * are empty, whatever the mix (fio's zbd_adjust_ddir) */
		return s->rwmixread < 100 || s->zone_mode == SPEC_ZONE_ZBD;
	default:
		return true;
	}
}

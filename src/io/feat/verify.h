/* verify.h - a write pass of fresh data checked on read-back (the drive
 * check's verify-* jobs).
 *
 * Every 512-byte sector of the region gets its own content: its byte offset
 * and the run's 64-bit seed (drawn from getrandom for each run) in the
 * first 16 bytes, then xorshift output seeded by both, so that no two
 * sectors, and no two runs, carry the same data (incompressible, and a
 * sector written to the wrong place or not at all is caught).  The whole
 * region is written first (O_DIRECT, fsync at the end), then read back and
 * every sector regenerated and compared.
 *
 * Safety: the write goes through safety_check_write() (mounted, swap,
 * held: always refused; a signature: refused unless @force) and the device
 * is opened O_EXCL.  Confirmation (the typed serial) is the caller's. */
#ifndef NVS_VERIFY_H
#define NVS_VERIFY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct verify_result {
	uint64_t bytes;		/* region length written (and read back) */
	uint64_t written, read; /* bytes that completed in each pass */
	uint64_t mismatches;	/* sectors that read back different */
	uint64_t first_bad;	/* byte offset of the first, when any */
	uint64_t io_errors;	/* failed writes/reads (the pass stops at the first) */
	int first_errno;
	double write_s, read_s;
	bool cancelled; /* stopped by *cancel before the end */
	char msg[256];	/* the I/O error, when any */
};

/* The region: @offset/@size in bytes, or @offset_pct/@size_pct of the
 * device (when > 0); size 0 = to the end.  @bs: bytes per I/O (a multiple
 * of the device's logical block size). */
struct verify_region {
	uint64_t offset, size;
	double offset_pct, size_pct;
	uint32_t bs;
};

/* Writes then reads back the region of @path.  @progress (may be NULL) gets
 * 0..100 (the write is the first half).  Stops early when *@cancel.
 * Returns 0 with @out filled (I/O errors and mismatches are results, in
 * @out), or -EPERM (refused for safety), -EINVAL (bad region), -errno
 * (cannot open), with @err. */
int verify_run(const char *path, const struct verify_region *rg, bool force,
	       const _Atomic int *cancel, void (*progress)(double pct, void *arg), void *arg,
	       struct verify_result *out, char *err, size_t errlen);
/* Fills @len bytes (a multiple of 512) at device byte @offset with the
 * pattern of @seed; returns how many 512-byte sectors of @buf do not match
 * when @check is true (then @buf is compared, not written). */
uint64_t verify_pattern(void *buf, size_t len, uint64_t offset, uint64_t seed, bool check,
			uint64_t *first_bad);

#endif

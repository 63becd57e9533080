/* target.h - what an I/O target is (file, block device, character device,
 * NVMe generic device) and opening it with its size and logical block size. */
#ifndef NVS_TARGET_H
#define NVS_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "io/feat/pi.h"

enum target_kind { TARGET_FILE, TARGET_BLOCK, TARGET_CHAR, TARGET_NVME_GENERIC };

struct target {
	char path[256];
	enum target_kind kind;
	int fd;		    /* -1 when closed */
	uint64_t size;	    /* bytes usable for I/O */
	uint32_t lbs;	    /* logical block size (512 for files) */
	uint32_t lba_shift; /* log2(lbs), for passthrough commands */
	uint32_t nsid;	    /* NVMe namespace id (generic devices), else 0 */
	dev_t rdev;
	int guard_fd; /* exclusive claim on an NVMe generic device's namespace
		       * block device while writing, else -1 */
	/* NVMe generic devices: the namespace's format as Identify gives it
	 * (metadata size, extended or separate, PI type and place) and its
	 * size in LBAs; the passthrough backend's pi_setup makes lbs, size and
	 * fmt what its I/Os move (pi_act may strip the metadata) */
	struct pi_fmt fmt;
	uint64_t nlba;
	uint8_t sts; /* Identify NVM namespace ELBAF STS: storage tag bits (0 none);
		      * its PIF is fmt.pif */
	/* fio's fdp=1 (io/feat/fdp.h): the placement identifiers its writes carry
	 * (DSPEC, with DTYPE 2), chosen from the reclaim unit handle status */
	uint16_t fdp_n;
	uint16_t fdp_pid[128];
};

/* Opens @path for the workload: O_DIRECT when @direct (not for character
 * devices, which refuse it), read-write when @write.  Writing (or laying
 * out a file) goes through the safety module: exclusive claim, then the
 * probe through the held descriptor; a target in use, or holding data
 * without @force, is refused with -EPERM and "refusing to write: ..." in
 * @err (docs/safety.md).  A regular file is
 * created and extended to @want_size when shorter.  A character device other
 * than an NVMe generic device needs @want_size (it has no size).  On success
 * fills @t and returns 0; else -errno with one line in @err. */
int target_open(struct target *t, const char *path, bool write, bool force, bool direct,
		uint64_t want_size, char *err, size_t errlen);
/* target_open() through the claim set @cs of a run group (dev/safety.h,
 * safety_claims_open: a device the group writes is claimed and judged once,
 * each of its writers gets its own open of the judged file); @cs NULL
 * is target_open(). */
struct safety_claims;
int target_open_claims(struct target *t, struct safety_claims *cs, const char *path, bool write,
		       bool force, bool direct, uint64_t want_size, char *err, size_t errlen);
/* Closes the descriptor; safe on a closed target. */
void target_close(struct target *t);
/* "file", "block", "char", "nvme-generic". */
const char *target_kind_name(enum target_kind k);

#endif

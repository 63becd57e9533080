/* fdp.h - fio's NVMe Flexible Data Placement (fdp=1, dataplacement=fdp,
 * plids=/fdp_pli=, plid_select=/fdp_pli_select=) and atomic writes
 * (atomic=1), as fio master has them.
 *
 * FDP (fio's dataplacement.c): before any I/O, the namespace's reclaim unit
 * handle status (I/O Management Receive, through dev/nvme.h, which also
 * checks Identify Controller CTRATT.FDPS, Get Features FDP and the FDP
 * Configurations log) gives the placement identifiers; plids= picks some
 * of them by index (fio: "PID index must be smaller than" the count), none
 * given is all of them (at most 128).  Every write then carries DTYPE 2
 * (CDW12 bits 23:20) and DSPEC = the chosen identifier (CDW13 bits 31:16),
 * chosen round-robin per job or uniformly at random (its own stream);
 * reads carry none.  Only ioengine=io_uring_cmd (fio: the only engine with
 * fetch_ruhs here).  Not implemented: plid_select=scheme (dp_scheme=),
 * dataplacement=streams.
 *
 * atomic=1: every write with RWF_ATOMIC (Linux 6.11+) on io_uring (fio's
 * io_uring, libaio, pvsync2; psync/sync and io_uring_cmd are refused as
 * fio refuses them).  Before any I/O the block device's atomic write unit
 * (sysfs queue/atomic_write_unit_{min,max}_bytes) must hold every block
 * size: else refused, nothing written. */
#ifndef NVS_FDP_H
#define NVS_FDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/core/backend.h"
#include "io/opt/spec.h"
#include "io/core/target.h"
#include "io/opt/opt.h"

#define FDP_DTYPE 2u /* NVMe directive type: data placement */
#ifndef RWF_ATOMIC
#define NVS_RWF_ATOMIC 0x00000040 /* linux/fs.h since 6.11 */
#else
#define NVS_RWF_ATOMIC RWF_ATOMIC
#endif

/* fio's atomic, data_placement, dataplacement, dp_scheme, fdp, fdp_pli, fdp_pli_select,
 * plid_select, plids, verify_write_sequence (the names in fdp_opts): a row each in io/opt/opt.c's one
 * table. */
#define FDP_NOPTS 10
extern const struct opt_row fdp_opts[FDP_NOPTS];
/* fio's conflicts (engine, dataplacement=none, direct): 0 or -EINVAL. */
int fdp_spec_validate(const struct spec *s, char *err, size_t errlen);
/* After the target is open (through the safety module) and before any
 * I/O: FDP's placement identifiers into @t (fdp_n, fdp_pid), atomic=1's
 * check of the device's atomic write unit.  0, or -EINVAL/-EOPNOTSUPP/
 * -errno with @err naming @t and why ("nothing was written"). */
int fdp_target_setup(struct target *t, const struct spec *s, char *err, size_t errlen);
/* The atomic write unit of block device @rdev from sysfs: 0, or -ENOENT
 * (no such attribute: a kernel before 6.11) / -errno. */
int fdp_atomic_unit(dev_t rdev, uint32_t *min, uint32_t *max);

/* The placement identifier of a job's next write on @t: round-robin over
 * t->fdp_pid from *loc, or uniform from the job's own stream *rng. */
static inline uint16_t fdp_pick(const struct target *t, bool random, uint32_t *loc, uint64_t *rng)
{
	if (random) {
		*rng ^= *rng << 13; /* xorshift64 */
		*rng ^= *rng >> 7;
		*rng ^= *rng << 17;
		*loc = (uint32_t)((*rng >> 11) % t->fdp_n);
	} else if (++*loc >= t->fdp_n) {
		*loc = 0;
	}
	return t->fdp_pid[*loc];
}
/* A write's directive on @io->t (DTYPE 2, DSPEC), none for other I/Os. */
static inline void fdp_io(struct backend_io *io, bool random, uint32_t *loc, uint64_t *rng)
{
	io->dtype = io->dir == NVS_WRITE && io->t->fdp_n ? FDP_DTYPE : 0;
	io->dspec = io->dtype ? fdp_pick(io->t, random, loc, rng) : 0;
}

#endif

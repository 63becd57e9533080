/* nvcmd.h - fio's io_uring_cmd NVMe command options: write_mode (each write
 * sent as Write, Write Uncorrectable, Write Zeroes or Verify, or a mix of
 * them drawn per write), deac (Write Zeroes deallocates) and num_range (a
 * Dataset Management trim of N ranges), parsed into struct spec_nvcmd
 * (spec.h), checked against the rest of the spec and, before any I/O,
 * against what the controller says it supports (Identify Controller ONCS,
 * through dev/nvme.h).  The commands themselves are built by uring_cmd.c. */
#ifndef NVS_NVCMD_H
#define NVS_NVCMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dev/devmodel.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"

/* NVMe NVM command set opcodes (NVMe NVM Command Set spec, figure 17). */
#define NVCMD_OP_FLUSH	      0x00
#define NVCMD_OP_WRITE	      0x01
#define NVCMD_OP_READ	      0x02
#define NVCMD_OP_WRITE_UNCOR  0x04
#define NVCMD_OP_WRITE_ZEROES 0x08
#define NVCMD_OP_DSM	      0x09
#define NVCMD_OP_VERIFY	      0x0c
#define NVCMD_CDW12_DEAC      (1u << 25) /* Write Zeroes: deallocate */
#define NVCMD_DSM_AD	      (1u << 2)	 /* DSM CDW11: attribute deallocate */
#define NVCMD_MAX_RANGES      256	 /* fio's MAX_TRIM_RANGE (and NVMe's) */

/* write_mode, deac and num_range: rows of io/opt's table. */
#define NVCMD_NOPTS 3
extern const struct opt_row nvcmd_opts[NVCMD_NOPTS];
/* Checks them against the rest of @s (fio's conflicts and what is not
 * implemented here).  0 or -EINVAL. */
int nvcmd_spec_validate(const struct spec *s, char *err, size_t errlen);
/* True when write_mode sends some writes as other than Write commands. */
bool nvcmd_active(const struct spec *s);
/* False when write_mode makes every write a Verify (the drive reads and
 * checks, nothing is written); true otherwise (spec_writes). */
bool nvcmd_changes_data(const struct spec *s);
/* The ranges of one trim (1 when num_range is not set). */
static inline unsigned nvcmd_ranges(const struct spec *s)
{
	return s->nvcmd.num_range > 1 ? s->nvcmd.num_range : 1;
}
/* The mode (enum spec_wmode) of one write: the single mode, or a draw of
 * @rnd (the worker's PRNG) over the mix (fio: rand_between(0, 99) against
 * the cumulative percentages). */
static inline unsigned nvcmd_pick(const struct spec_nvcmd *n, uint64_t rnd)
{
	if (n->nmode <= 1)
		return n->nmode ? n->mode[0] : WMODE_WRITE;
	unsigned r = (unsigned)((rnd >> 32) % 100), cum = 0;
	for (unsigned i = 0; i < n->nmode; i++) {
		cum += n->pct[i];
		if (r < cum)
			return n->mode[i];
	}
	return n->mode[n->nmode - 1];
}
/* "write", "uncor", "zeroes", "verify". */
const char *nvcmd_mode_name(unsigned mode);
/* Whether the controller's capabilities @k allow what @s asks (write
 * modes, Dataset Management for trims): 0, or -EOPNOTSUPP with @err naming
 * the command and the Identify Controller bit for @path. */
int nvcmd_caps_check(const struct spec *s, const struct dev_caps *k, const char *path, char *err,
		     size_t errlen);
/* nvcmd_caps_check with the capabilities read from the controller behind
 * the generic device @path (Identify Controller), when @s needs any of
 * them on ioengine=io_uring_cmd; 0 when nothing is needed. */
int nvcmd_probe(const struct spec *s, const char *path, char *err, size_t errlen);

#endif

/* uring_cmd.c - the NVMe passthrough backend (fio's io_uring_cmd engine):
 * NVMe Read/Write commands sent to the generic char device /dev/ngXnY with
 * IORING_OP_URING_CMD / NVME_URING_CMD_IO, bypassing the block layer.
 *
 * How it works (kernel >= 5.19, Documentation in include/uapi/linux/
 * nvme_ioctl.h and fio's engines/io_uring.c): the ring is created with
 * 128-byte SQEs (IORING_SETUP_SQE128), whose last 80 bytes carry a struct
 * nvme_uring_cmd (opcode 02h read / 01h write, NSID, data pointer and
 * length, CDW10-11 = starting LBA, CDW12 bits 15:0 = number of LBAs - 1),
 * and 32-byte CQEs (IORING_SETUP_CQE32), whose res is 0 on success, a
 * positive NVMe status when the device failed the command, or -errno; the
 * extra CQE words carry the completion's DW0.  The NSID and the LBA shift
 * come from the target (target.c: NVME_IOCTL_ID + Identify Namespace).
 *
 * Writes may be sent as Write Uncorrectable, Write Zeroes or Verify (fio's
 * write_mode, io/feat/nvcmd.h: no data buffer), trims as Dataset Management
 * (attribute deallocate) of one range or of fio's num_range ranges.
 *
 * A passthrough completion has no byte count: success (res 0) means the
 * whole command's length moved, which the worker passes to result(). */
#include <endian.h>
#include <errno.h>
#include <liburing.h>
#include <linux/nvme_ioctl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "io/core/backend.h"
#include "io/feat/nvcmd.h"
#include "io/feat/pi.h"
#include "io/opt/spec.h"
#include "io/core/target.h"

#define NVME_CMD_WRITE	 0x01
#define NVME_CMD_READ	 0x02
#define NVME_CMD_INVALID 0x7f	/* reserved I/O opcode */
#define NVME_MAX_NLB	 65536u /* CDW12 NLB is 16 bits, zero based */

/* A Dataset Management range as the device reads it (little endian). */
struct nvcmd_dsm_range {
	uint32_t cattr;
	uint32_t nlb;
	uint64_t slba;
};
_Static_assert(sizeof(struct nvcmd_dsm_range) == sizeof(struct backend_range),
	       "a DSM range replaces a backend_range in place");

/* Does the running kernel know IORING_OP_URING_CMD?  (An unknown answer
 * counts as yes: the first I/O then fails with a clear errno.) */
static bool uring_cmd_supported(void)
{
	struct io_uring_probe *p = io_uring_get_probe();
	bool ok = true;

	if (p) {
		ok = io_uring_opcode_supported(p, IORING_OP_URING_CMD);
		io_uring_free_probe(p);
	}
	return ok;
}

int uring_cmd_may_drive(const char *path, bool generic, char *err, size_t errlen)
{
	if (!generic) {
		/* an NVMe namespace: name its generic node, when there is one */
		char ng[300] = "";
		const char *b = strrchr(path, '/');
		b = b ? b + 1 : path;
		if (!strncmp(b, "nvme", 4) && strchr(b + 4, 'n') &&
		    (size_t)snprintf(ng, sizeof(ng), "/dev/ng%s", b + 4) < sizeof(ng) &&
		    access(ng, F_OK))
			ng[0] = '\0';
		if (ng[0])
			snprintf(err, errlen,
				 "%s: passthrough (ioengine=io_uring_cmd) runs on the namespace's "
				 "generic device %s, not on its block device",
				 path, ng);
		else
			snprintf(err, errlen,
				 "%s: passthrough (ioengine=io_uring_cmd) needs an NVMe generic "
				 "device; this is not one, and no generic device was found for it "
				 "(nvscope list shows them under their namespace)",
				 path);
		return -EINVAL;
	}
	if (!uring_cmd_supported()) {
		snprintf(err, errlen,
			 "%s: this kernel has no io_uring passthrough (IORING_OP_URING_CMD, "
			 "Linux 5.19+): use --ioengine=io_uring on the block device",
			 path);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int cmd_check(const struct target *t, char *err, size_t errlen)
{
	int rc = uring_cmd_may_drive(t->path, t->kind == TARGET_NVME_GENERIC, err, errlen);

	if (!rc && (!t->nsid || t->lba_shift < 9 || t->lba_shift > 16)) {
		snprintf(err, errlen, "%s: NVMe namespace id or LBA size unknown", t->path);
		rc = -EINVAL;
	}
	return rc;
}

/* [@off, @off + @len) in whole LBAs of @t: an extended LBA (data +
 * metadata, no power of two) divides, else shifts.  False when not. */
static inline bool to_lbas(const struct target *t, uint64_t off, uint64_t len, uint64_t *slba,
			   uint32_t *nlb)
{
	uint32_t stride = t->fmt.ext ? t->fmt.stride : 1u << t->lba_shift;
	uint64_t n = t->fmt.ext ? len / stride : len >> t->lba_shift;

	*slba = t->fmt.ext ? off / stride : off >> t->lba_shift;
	*nlb = (uint32_t)n;
	return n && n <= UINT32_MAX && n * stride == len && *slba * stride == off;
}

/* A trim: one Dataset Management command, attribute deallocate, whose data
 * is the range list (16 bytes a range: context attributes, the number of
 * LBAs -- not zero based -- and the starting LBA), written into the I/O's
 * buffer: from [off, off + len), or in place over io->nranges struct
 * backend_range (fio's num_range).  False when a range is not whole LBAs. */
static bool dsm_prep(struct nvme_uring_cmd *c, const struct backend_io *io)
{
	const struct target *t = io->t;
	unsigned n = io->nranges ? io->nranges : 1;
	struct backend_range *in = io->buf;
	struct nvcmd_dsm_range *out = io->buf;

	if (n > NVCMD_MAX_RANGES)
		return false;
	for (unsigned i = 0; i < n; i++) {
		uint64_t off = io->nranges ? in[i].off : io->off;
		uint64_t len = io->nranges ? in[i].len : io->len;
		uint64_t slba;
		uint32_t nlb;
		if (!to_lbas(t, off, len, &slba, &nlb))
			return false;
		out[i].cattr = 0;
		out[i].nlb = htole32(nlb);
		out[i].slba = htole64(slba);
	}
	c->opcode = NVCMD_OP_DSM;
	c->addr = (uint64_t)(uintptr_t)io->buf;
	c->data_len = n * (uint32_t)sizeof(struct nvcmd_dsm_range);
	c->cdw10 = n - 1; /* NR, zero based */
	c->cdw11 = NVCMD_DSM_AD;
	return true;
}

static void cmd_prep(struct io_uring_sqe *sqe, const struct backend_io *io)
{
	const struct target *t = io->t;
	const struct pi_fmt *f = &t->fmt;
	struct nvme_uring_cmd *c;
	uint64_t slba;
	uint32_t nlb;
	static const uint8_t wop[] = {NVCMD_OP_WRITE, NVCMD_OP_WRITE_UNCOR, NVCMD_OP_WRITE_ZEROES,
				      NVCMD_OP_VERIFY};

	/* an SQE128 slot is 128 bytes: clear it all (the command lives in cmd[]) */
	memset(sqe, 0, 2 * sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = io->fd;
	sqe->cmd_op = NVME_URING_CMD_IO;
	if (io->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
	c = (struct nvme_uring_cmd *)sqe->cmd;
	c->nsid = t->nsid;
	/* not a whole number of LBAs (or too many), or metadata with no
	 * buffer for it (or more than md_per_io_size: a replayed trace's I/O
	 * larger than bs): send an opcode no device implements, so the worker
	 * reports an I/O error rather than the device acting on a range other
	 * than the I/O's */
	c->opcode = NVME_CMD_INVALID;
	if (io->dir == NVS_TRIM) {
		if (!dsm_prep(c, io))
			c->opcode = NVME_CMD_INVALID;
		return;
	}
	if (!to_lbas(t, io->off, io->len, &slba, &nlb) || nlb > NVME_MAX_NLB ||
	    io->wmode >= sizeof(wop))
		return;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw12 = nlb - 1; /* NLB, zero based; no FUA */
	if (io->dir == NVS_WRITE && io->wmode != WMODE_WRITE) {
		/* fio's write_mode: the same LBA range, no data buffer; Write
		 * Zeroes and Verify carry PRINFO (fio's pi_fill) */
		c->opcode = wop[io->wmode];
		if (io->wmode == WMODE_ZEROES && io->deac)
			c->cdw12 |= NVCMD_CDW12_DEAC;
		if (io->pi && f->type && io->wmode != WMODE_UNCOR)
			pi_cmd(f, io->pi->act, io->pi->chk, io->pi->apptag, io->pi->apptag_mask,
			       slba, &c->cdw3, &c->cdw12, &c->cdw14, &c->cdw15);
		return;
	}
	if (f->ms && !f->ext && (!io->md || !io->pi || (uint64_t)nlb * f->ms > io->pi->md_per_io))
		return;
	if (io->buf_index >= 0) {
		sqe->uring_cmd_flags = IORING_URING_CMD_FIXED;
		sqe->buf_index = (__u16)io->buf_index;
	}
	c->opcode = io->dir == NVS_READ ? NVME_CMD_READ : NVME_CMD_WRITE;
	if (io->dir == NVS_WRITE && io->dtype) { /* fio's fdp=1: DTYPE, DSPEC */
		c->cdw12 |= (uint32_t)io->dtype << 20;
		c->cdw13 = (uint32_t)io->dspec << 16;
	}
	c->addr = (uint64_t)(uintptr_t)io->buf;
	c->data_len = io->len;
	if (f->ms && !f->ext) { /* the separate metadata buffer */
		c->metadata = (uint64_t)(uintptr_t)io->md;
		c->metadata_len = nlb * f->ms;
	}
	if (io->pi && f->type) {
		const struct spec_pi *p = io->pi;
		pi_cmd(f, p->act, p->chk, p->apptag, p->apptag_mask, slba, &c->cdw3, &c->cdw12,
		       &c->cdw14, &c->cdw15);
		/* pi_act=0: the host writes the PI, as fio does */
		if (!p->act && io->dir == NVS_WRITE)
			pi_generate(f, p->chk, p->apptag, io->buf, io->md, slba, nlb);
	}
}

static int cmd_result(const struct io_uring_cqe *cqe, uint32_t len)
{
	if (cqe->res < 0)
		return cqe->res;
	if (cqe->res > 0)
		return -EIO; /* NVMe status from the device */
	return (int)len;
}

bool uring_cmd_pi_checks(const struct target *t, const struct spec *s)
{
	return t->kind == TARGET_NVME_GENERIC && t->fmt.type && !s->pi.act;
}

int uring_cmd_pi_setup(struct target *t, const struct spec *s, char *err, size_t errlen)
{
	struct pi_fmt *f = &t->fmt;
	uint32_t maxbs = 0;

	if (t->kind != TARGET_NVME_GENERIC)
		return 0;
	/* the guard formats fio implements (engines/nvme.c): 16-bit and
	 * 64-bit; fio refuses storage tags ("Storage tag not supported"), which
	 * the 32-bit guard needs */
	if (f->type && t->sts) {
		snprintf(err, errlen,
			 "%s: its protection information has a storage tag (%u bits), which is "
			 "not implemented (fio refuses it too: \"Storage tag not supported\")",
			 t->path, t->sts);
		return -EINVAL;
	}
	if (f->type && f->pif != PI_PIF_16 && f->pif != PI_PIF_64) {
		snprintf(err, errlen,
			 f->pif == PI_PIF_32
			     ? "%s: its protection information has the 32-bit guard (CRC-32C), "
			       "which needs a storage tag: not implemented (fio neither)"
			     : "%s: its protection information format (PIF 3, a qualified "
			       "format) is not implemented (fio neither)",
			 t->path);
		return -EINVAL;
	}
	if (f->type && f->ms < pi_tuple_size(f)) {
		snprintf(err, errlen,
			 "%s: its metadata (%u bytes a LBA) is smaller than its %u-byte protection "
			 "information: Identify Namespace makes no sense",
			 t->path, f->ms, pi_tuple_size(f));
		return -EINVAL;
	}
	/* fio: PRACT with a metadata of the PI alone (8 bytes, 16 with the
	 * 64-bit guard), the controller inserts and strips it: nothing moves
	 * with the data */
	if (s->pi.act && f->type && f->ms == pi_tuple_size(f)) {
		f->ms = 0;
		f->ext = false;
		f->stride = f->lba_data;
		t->lbs = f->lba_data;
		t->size = t->nlba * f->lba_data;
	}
	for (unsigned i = 0; i < s->nbs; i++)
		if (s->bs[i].bs > maxbs)
			maxbs = s->bs[i].bs;
	for (unsigned i = 0; i < s->nbs && f->ext; i++) {
		uint32_t bs = s->bs[i].bs;
		if (bs % f->stride) {
			snprintf(
			    err, errlen,
			    "%s: block size must be a multiple of %u (LBA data size + metadata "
			    "size)%s%.0u",
			    t->path, f->stride,
			    bs % f->lba_data ? "" : ": did you mean a block size of ",
			    bs % f->lba_data ? 0 : bs / f->lba_data * f->stride);
			return -EINVAL;
		}
	}
	if (f->ms && !f->ext && s->pi.md_per_io < (uint64_t)maxbs / f->lba_data * f->ms) {
		snprintf(err, errlen,
			 "%s: md_per_io_size should be at least %llu bytes (its LBAs carry %u "
			 "bytes of metadata in a separate buffer)",
			 t->path, (unsigned long long)maxbs / f->lba_data * f->ms, f->ms);
		return -EINVAL;
	}
	if (f->ext && f->type && s->verify) {
		snprintf(err, errlen,
			 "%s: for extended LBA, verify cannot be used when E2E data protection "
			 "is enabled (fio refuses it too)",
			 t->path);
		return -EINVAL;
	}
	return 0;
}

const struct backend_ops backend_uring_cmd = {
    .name = "io_uring_cmd",
    .setup_flags = IORING_SETUP_SQE128 | IORING_SETUP_CQE32,
    .check = cmd_check,
    .prep = cmd_prep,
    .result = cmd_result,
};

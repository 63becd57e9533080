/* io_uring.c - the block-layer / file backend: plain read and write SQEs
 * (fixed-buffer variants when the buffers are registered), and trims: on a
 * block device the io_uring block discard command (BLOCK_URING_CMD_DISCARD,
 * Linux 6.12+, what fio's io_uring engine issues), on a file a punched hole
 * (IORING_OP_FALLOCATE; fio's BLKDISCARD ioctl fails on files). */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <liburing.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "io/core/backend.h"
#include "io/core/target.h"
#include "io/core/uring_rw.h"

static int uring_check(const struct target *t, char *err, size_t errlen)
{
	if (t->kind == TARGET_NVME_GENERIC) {
		/* name the namespace's block device, not a pattern to fill in */
		char blk[300] = "";
		const char *b = strrchr(t->path, '/');
		b = b ? b + 1 : t->path;
		if (!strncmp(b, "ng", 2) &&
		    (size_t)snprintf(blk, sizeof(blk), "/dev/nvme%s", b + 2) < sizeof(blk) &&
		    access(blk, F_OK))
			blk[0] = '\0';
		snprintf(err, errlen,
			 "%s is an NVMe generic device: it takes passthrough I/O only "
			 "(ioengine=io_uring_cmd; in the console's form: engine passthrough)%s%s",
			 t->path, blk[0] ? "; its block device is " : "", blk);
		return -EINVAL;
	}
	return 0;
}

#ifndef BLOCK_URING_CMD_DISCARD
#define BLOCK_URING_CMD_DISCARD _IO(0x12, 0) /* linux/blkdev.h, 6.12 */
#endif

static void uring_prep(struct io_uring_sqe *sqe, const struct backend_io *io)
{
	if (nvs_likely(io->dir != NVS_TRIM)) {
		uring_prep_rw(sqe, io);
		return;
	}
	if (io->t->kind == TARGET_BLOCK) {
		io_uring_prep_rw(IORING_OP_URING_CMD, sqe, io->fd, NULL, 0, 0);
		sqe->cmd_op = BLOCK_URING_CMD_DISCARD;
		sqe->addr = io->off;
		sqe->addr3 = io->len;
	} else {
		io_uring_prep_fallocate(sqe, io->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					io->off, io->len);
	}
	if (io->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
}

static int uring_result(const struct io_uring_cqe *cqe, uint32_t len)
{
	(void)len;
	return cqe->res;
}

const struct backend_ops backend_io_uring = {
    .name = "io_uring",
    .setup_flags = 0,
    .check = uring_check,
    .prep = uring_prep,
    .result = uring_result,
};

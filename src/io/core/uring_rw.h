/* uring_rw.h - the io_uring backend's read and write SQE (io_uring.c), inline
 * so that the worker's plain loop (worker.c) prepares it without a call.
 * Only the engine includes liburing. */
#ifndef NVS_URING_RW_H
#define NVS_URING_RW_H

#include <liburing.h>
#include "io/core/backend.h"

/* A read or a write of @io (not a trim): fixed-buffer variants when the
 * buffers are registered; fio's sync= flags, the I/O priority and the
 * registered file as set. */
static inline void uring_prep_rw(struct io_uring_sqe *sqe, const struct backend_io *io)
{
	if (io->buf_index >= 0) {
		if (io->dir == NVS_READ)
			io_uring_prep_read_fixed(sqe, io->fd, io->buf, io->len, io->off,
						 io->buf_index);
		else
			io_uring_prep_write_fixed(sqe, io->fd, io->buf, io->len, io->off,
						  io->buf_index);
	} else if (io->dir == NVS_READ) {
		io_uring_prep_read(sqe, io->fd, io->buf, io->len, io->off);
	} else {
		io_uring_prep_write(sqe, io->fd, io->buf, io->len, io->off);
	}
	if (io->rw_flags)
		sqe->rw_flags = io->rw_flags;
	if (io->ioprio)
		sqe->ioprio = io->ioprio;
	if (io->fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
}

/* The next SQE, io_uring_get_sqe's without its tests: the caller counted
 * the room (io_uring_sq_space_left) and the ring has 64-byte SQEs (no
 * IORING_SETUP_SQE128). */
static inline struct io_uring_sqe *uring_sqe_next(struct io_uring *ring)
{
	struct io_uring_sq *sq = &ring->sq;
	return &sq->sqes[sq->sqe_tail++ & sq->ring_mask];
}

#endif

/* backend.h - how a worker turns one I/O into an io_uring SQE and a CQE back
 * into a result.  io_uring.c (block layer / files) and uring_cmd.c (NVMe
 * passthrough on /dev/ngXnY) implement it.  Engine-internal. */
#ifndef NVS_BACKEND_H
#define NVS_BACKEND_H

#include <stdbool.h>
#include <stdint.h>
#include "nvscope.h"

struct io_uring_sqe;
struct io_uring_cqe;
struct target;

struct backend_io {
	int fd;            /* descriptor, or registered index when fixed_file */
	bool fixed_file;
	void *buf;
	int buf_index;     /* registered buffer index, -1 when not registered */
	uint32_t len;
	uint64_t off;      /* bytes */
	enum nvs_dir dir;    /* NVS_TRIM: a discard of [off, off + len) */
	int rw_flags;        /* RWF_SYNC / RWF_DSYNC on writes (fio's sync=) */
	uint16_t ioprio;     /* sqe->ioprio (fio's prio/cmdprio, io/prio.h); 0 none */
	/* io_uring_cmd only (io/nvcmd.h): a write's command (enum spec_wmode,
	 * 0 = Write) and Write Zeroes' DEAC; a trim's ranges: 0 = the one range
	 * [off, off + len), else buf holds nranges struct backend_range (the
	 * backend turns them into the command's range list in place) */
	uint8_t wmode;
	bool deac;
	uint16_t nranges;
	const struct target *t;
};

/* One range of a trim of several (fio's num_range), in bytes: the same 16
 * bytes as an NVMe Dataset Management range, which replaces it in place. */
struct backend_range {
	uint64_t off;
	uint64_t len;
};

struct backend_ops {
	const char *name;
	unsigned setup_flags;     /* extra IORING_SETUP_* the ring needs */
	/* Checks that @t can be driven by this backend; 0 or -errno, @err set. */
	int (*check)(const struct target *t, char *err, size_t errlen);
	/* Fills @sqe for @io; the caller sets user_data afterwards. */
	void (*prep)(struct io_uring_sqe *sqe, const struct backend_io *io);
	/* Bytes transferred of an I/O of @len bytes, or -errno (an NVMe status
	 * maps to -EIO). */
	int (*result)(const struct io_uring_cqe *cqe, uint32_t len);
};

extern const struct backend_ops backend_io_uring;
extern const struct backend_ops backend_uring_cmd;

#endif

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
struct spec;
struct spec_pi;

struct backend_io {
	int fd; /* descriptor, or registered index when fixed_file */
	bool fixed_file;
	void *buf;
	int buf_index; /* registered buffer index, -1 when not registered */
	uint32_t len;
	uint64_t off;	  /* bytes */
	enum nvs_dir dir; /* NVS_TRIM: a discard of [off, off + len) */
	int rw_flags;	  /* RWF_SYNC / RWF_DSYNC on writes (fio's sync=) */
	uint16_t ioprio;  /* sqe->ioprio (fio's prio/cmdprio, io/feat/prio.h); 0 none */
	/* io_uring_cmd only (io/feat/nvcmd.h): a write's command (enum spec_wmode,
	 * 0 = Write) and Write Zeroes' DEAC; a trim's ranges: 0 = the one range
	 * [off, off + len), else buf holds nranges struct backend_range (the
	 * backend turns them into the command's range list in place) */
	uint8_t wmode;
	bool deac;
	uint8_t dtype;	/* a write's directive (fio's fdp=1, io/feat/fdp.h): type 2, */
	uint16_t dspec; /* ... and its placement identifier; 0, 0 none */
	uint16_t nranges;
	const struct target *t;
	/* passthrough: the I/O's metadata buffer (NULL none) and fio's PI
	 * options (NULL: none asked; io/feat/pi.h) */
	void *md;
	const struct spec_pi *pi;
};

/* One range of a trim of several (fio's num_range), in bytes: the same 16
 * bytes as an NVMe Dataset Management range, which replaces it in place. */
struct backend_range {
	uint64_t off;
	uint64_t len;
};

struct backend_ops {
	const char *name;
	unsigned setup_flags; /* extra IORING_SETUP_* the ring needs */
	/* Checks that @t can be driven by this backend; 0 or -errno, @err set. */
	int (*check)(const struct target *t, char *err, size_t errlen);
	/* Fills @sqe for @io; the caller sets user_data afterwards. */
	void (*prep)(struct io_uring_sqe *sqe, const struct backend_io *io);
	/* Bytes transferred of an I/O of @len bytes, or -errno (an NVMe status
	 * maps to -EIO). */
	int (*result)(const struct io_uring_cqe *cqe, uint32_t len);
};

/* Passthrough's first question, asked of a target before anything is
 * opened (cmd/runcheck.c: every run group's, before the first one runs)
 * and again by the backend's check() of the open target: only an NVMe
 * generic device (@generic: /dev/ngXnY) takes it, on a kernel that has
 * it.  0, -EINVAL (another kind of target: the message names its
 * generic node when there is one) or -EOPNOTSUPP, with @err. */
int uring_cmd_may_drive(const char *path, bool generic, char *err, size_t errlen);
/* The passthrough backend's set-up of @t for @s, after check(): the format
 * its I/Os move (pi_act=1 strips an 8-byte PI-only metadata, as fio), and
 * fio's refusals (block size not a multiple of an extended LBA, a separate
 * metadata buffer too small, guard formats other than 16-bit).  0 or
 * -EINVAL with @err. */
int uring_cmd_pi_setup(struct target *t, const struct spec *s, char *err, size_t errlen);
/* A passthrough read's PI check (pi_act=0 on a namespace with PI, as fio):
 * true when @s asks for it on @t. */
bool uring_cmd_pi_checks(const struct target *t, const struct spec *s);

extern const struct backend_ops backend_io_uring;
extern const struct backend_ops backend_uring_cmd;

#endif

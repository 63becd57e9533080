/* iolog.h - fio's write_iolog: the I/Os a job issued, written as a fio
 * version 3 iolog that `fio --read_iolog` (and nvscope) replays.
 *
 * Each worker pushes one record per issued I/O into its own SPSC ring (no
 * allocation, no lock, no system call on the submit path) and publishes its
 * loop clock in an atomic; the consumer (pool_drain, every ~100 ms) pops the
 * rings, merges the workers' records by issue time (stable: a worker's own
 * order is kept) and writes the ones no worker can still precede.  Memory
 * is bounded: IOLOG_RING records per worker in its ring and as many again
 * in the consumer's merge buffer (24 bytes each).  A record that finds its
 * ring full is dropped and counted; iolog_finish reports it as an error
 * (the log would not be true).  The file is opened through the safety
 * module's output rule (src/dev/safety_out.c) and must not be a target;
 * it is written in whole lines (O_APPEND), so jobs of one run may share it
 * (iolog_hold). */
#ifndef NVS_IOLOG_H
#define NVS_IOLOG_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "ring/spsc.h"

#define IOLOG_RING (1u << 16) /* records per worker ring */

struct iolog_rec {
	uint64_t t_ns; /* issue time, CLOCK_MONOTONIC (the worker's loop clock) */
	uint64_t off;  /* bytes, on file @file */
	uint32_t len;
	uint8_t dir;  /* enum nvs_dir; NVS_NDIR: an fsync/fdatasync */
	uint8_t file; /* index in the names given to iolog_new */
	uint16_t w;   /* worker (set by the consumer) */
};

struct iolog;

/* Opens @path (safety_open_output; refused when it is one of the @nfiles
 * open descriptors @fds, or a name holds white space) for @nworkers workers
 * and writes the version line and every file's add/open lines.  0, or
 * -errno with one line in @err (-EINVAL/-EPERM: bad input). */
int iolog_new(const char *path, const char *const *names, const int *fds, unsigned nfiles,
	      unsigned nworkers, struct iolog **out, char *err, size_t errlen);
/* Worker @w's ring and clock (producer side). */
struct spsc *iolog_ring(struct iolog *l, unsigned w);
_Atomic uint64_t *iolog_clock(struct iolog *l, unsigned w);
/* Producer: worker @w publishes that every record it pushes from now on is
 * at or after @now (UINT64_MAX: it has ended). */
static inline void iolog_publish(_Atomic uint64_t *clock, uint64_t now)
{
	atomic_store_explicit(clock, now, memory_order_release);
}
/* Consumer: pops the rings and writes what is in order; times are written in
 * microseconds after @t0 (the job's start).  0 or -EIO. */
int iolog_drain(struct iolog *l, uint64_t t0);
/* Consumer, after every worker has ended: writes the rest and the close
 * lines, closes the file.  0, -ENOBUFS when records were dropped, -EIO;
 * @err names the file. */
int iolog_finish(struct iolog *l, uint64_t t0, char *err, size_t errlen);
/* A run of several jobs (`nvscope run` with a job file) holds the table
 * of files logged: a job naming a file that a job before it in the run
 * wrote appends its own log (fio's: every job appends), the first empties
 * it.  Outside a hold every job empties its file.  Nests. */
void iolog_hold(void);
void iolog_release(void);
/* Records written so far; dropped ones. */
uint64_t iolog_written(const struct iolog *l);
void iolog_free(struct iolog *l);

#endif

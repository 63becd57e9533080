/* wverify.h - fio's verify inside a worker (verify=, do_verify,
 * verify_only, verify_fatal, verify_pattern; the block format is vhdr.h):
 * writes are stamped and remembered in a bitmap, reads are checked, and
 * after a write job's I/O the written blocks are read back and checked
 * (do_verify), or every verify_backlog blocks during the writes.  Engine-internal (worker.c). */
#ifndef NVS_WVERIFY_H
#define NVS_WVERIFY_H

#include "io/core/wstate.h"

/* Before the run: allocates the bitmap when the job writes and reads back.
 * 0 or -ENOMEM (reported). */
int wverify_setup(struct worker *w, struct wstate *st);
/* A write of @len bytes at logical byte offset @off into @buf, issued at
 * @now (ns): stamps it (submit path: no allocation, no lock). */
void wverify_stamp(struct worker *w, struct wstate *st, void *buf, uint32_t len, uint64_t off,
		   uint64_t now);
/* A write completed whole: its block is one to read back (a write
 * cancelled or failed is not: it may never have reached the medium). */
void wverify_written(struct worker *w, struct wstate *st, const struct slot *sl);
/* A read completed into @sl: checks it; a bad block is counted (and with
 * verify_fatal ends the job). */
void wverify_check(struct worker *w, struct wstate *st, const struct slot *sl);
/* After the job's I/O (nothing in flight): do_verify's read-back of every
 * block written, at the job's queue depth, until @deadline (ns: the job's
 * runtime ends it, as fio's runtime_exceeded does), unless the writes were
 * cut short (@cut: runtime or a stop; fio then skips do_verify).  The reads
 * are the job's reads, as in fio.  Then reports bad blocks as the job's
 * error. */
void wverify_pass(struct worker *w, struct wstate *st, uint64_t deadline, bool cut);
/* A time_based job's pass (fio's do_io ends after size bytes when
 * verifying, do_verify reads them back, and the job loops): reads back the
 * blocks of this pass until @deadline, then starts the next pass. */
void wverify_cycle(struct worker *w, struct wstate *st, uint64_t deadline);
/* When the next pass begins (the generator's keys now are its order). */
void wverify_pass_start(struct wstate *st);
/* fio's verify_backlog: once verify_backlog blocks are written and
 * complete (the worker stops writing and waits), reads them back and checks
 * them, then the writes go on.  The time is the job's (as in fio). */
void wverify_backlog(struct worker *w, struct wstate *st);
/* Frees the bitmap. */
void wverify_free(struct wstate *st);

#endif

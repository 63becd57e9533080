/* pagecache.h - fio's page-cache options of a job, applied where fio
 * applies them (ioengines.c td_io_open_file), before the job's first I/O:
 *
 * - invalidate (fio's default 1): drop the target's cached pages, so a
 *   buffered job reads the device, not pages an earlier job or run left in
 *   memory (filesetup.c __file_invalidate_cache: BLKFLSBUF on a block
 *   device, POSIX_FADV_DONTNEED on a file; nothing on a character device).
 *   A failure is not fatal, as in fio.
 * - fadvise_hint (fio's default 1): tell the kernel the access pattern:
 *   POSIX_FADV_RANDOM for a random job, POSIX_FADV_SEQUENTIAL otherwise
 *   (1), or the one named (random, sequential), or nothing (0).  Without
 *   FADV_RANDOM a buffered random read that misses pulls in a readahead
 *   window the job never asked for: on a loop device nvscope read 4.7x
 *   fio's IOPS for fio-rand-read.fio before this.
 *
 * fio opens the file again for each pass of a job (a time_based job whose
 * random map is full or whose sequential stream reached the end, each of
 * loops=): every open drops the cache again, so each pass of a buffered
 * job reads the device and its writes are written back (BLKFLSBUF syncs
 * the device first).  Measured with fio 3.33 on a 64 MiB loop device for
 * 2 s of buffered 4k I/O: randread and read reached the device with every
 * I/O, randwrite wrote every I/O; nvscope read or wrote the 64 MiB once.
 * The worker does the same at each pass end (wstate_pass_cache), for
 * buffered jobs only: with O_DIRECT nothing is cached.
 *
 * Both act on the open file (the hint is a flag of the open file
 * description), so they are applied to the descriptor the job's I/Os use.
 * With direct I/O they change nothing measurable, as in fio. */
#ifndef NVS_PAGECACHE_H
#define NVS_PAGECACHE_H

#include <stdbool.h>
#include <stddef.h>
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "io/core/target.h"

/* spec.fadvise_hint; 0 (PAGECACHE_HINT_PATTERN) is fio's default "1" */
enum pagecache_hint {
	PAGECACHE_HINT_PATTERN,
	PAGECACHE_HINT_NONE,
	PAGECACHE_HINT_RANDOM,
	PAGECACHE_HINT_SEQUENTIAL
};

/* invalidate= and fadvise_hint=: rows of io/opt's table. */
#define PAGECACHE_NOPTS 2
extern const struct opt_row pagecache_opts[PAGECACHE_NOPTS];
/* Applies @s's options to the open target @t (its descriptor).  0, or the
 * first -errno (the caller goes on: fio only warns). */
int pagecache_prepare(const struct spec *s, const struct target *t);
/* Drops @t's cached pages (the invalidate step alone).  0 or -errno. */
int pagecache_invalidate(const struct target *t);
/* true when @s's passes over @t each invalidate again (buffered, invalidate
 * on, a block device or file). */
bool pagecache_per_pass(const struct spec *s, const struct target *t);
/* The advice pagecache_prepare gives @s: POSIX_FADV_RANDOM,
 * POSIX_FADV_SEQUENTIAL, or -1 for none. */
int pagecache_advice(const struct spec *s);

#endif

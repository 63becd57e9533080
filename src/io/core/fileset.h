/* fileset.h - fio's file set inside one worker (filename=a:b, one job over
 * several files): which file the next I/O goes to (fio's get_next_file,
 * file_service_type) and its offset: the job's streams shared by the
 * files, each file with its own map and position (fio's td and fio_file
 * state).  Engine-internal (worker.c); no locks, no allocation once
 * running. */
#ifndef NVS_FILESET_H
#define NVS_FILESET_H

#include <stdbool.h>
#include <stdint.h>
#include "io/core/frand.h"
#include "io/core/offgen.h"

struct fileset {
	struct offgen *gen;	      /* [n]: one generator per file */
	const uint64_t *limit;	      /* [n]: bytes that finish a file (0 none) */
	unsigned n, cur, left, ndone; /* served file, I/Os left on it, files done */
	unsigned service, service_nr; /* file_service_type: 0 rr, 1 seq, 2 random; :N */
	uint64_t issued[NVS_MAX_TARGETS];
	bool done[NVS_MAX_TARGETS];
	struct frand fsel; /* random: fio's next_file_state (fileset_seed) */
	/* fio's per-job state the files share (td->random_state, bsrange_state,
	 * rwmix..., io_issues): lent to the served file's generator for each
	 * draw (fileset_next); each file keeps its map, position and lfsr */
	struct offgen_fio fr;
	unsigned mix_dir, seq_cnt;
	uint64_t mix_issues, issues[2];
};

/* Prepares @fs for the @n files of @s, file f over [@start[f], +@len[f])
 * and finished after @limit[f] bytes (kept by pointer).  0, -ENOMEM, or
 * -EINVAL with *@bad the file whose region is smaller than a block. */
int fileset_init(struct fileset *fs, const struct spec *s, unsigned n, const uint64_t *start,
		 const uint64_t *len, const uint64_t *limit, uint32_t align, uint64_t seed,
		 unsigned *bad);
/* Seeds the set as fio's job of thread @thread (1-based, as offgen_seed):
 * the files' streams, and next_file_state from the FIO_RAND_FILE_OFF seed
 * (fileset_init seeds as thread 1). */
void fileset_seed(struct fileset *fs, const struct spec *s, unsigned thread);
void fileset_free(struct fileset *fs);
/* The next I/O: its file in *@file, then that file's offset, length and
 * direction.  A file is done (fio's fio_file_set_done) after @passes
 * sequential passes or its limit; false when every file is done.  The
 * random file choice draws from fs->fsel, as fio's. */
bool fileset_next(struct fileset *fs, uint64_t passes, uint64_t *off, uint32_t *len,
		  enum nvs_dir *dir, unsigned *file);

#endif

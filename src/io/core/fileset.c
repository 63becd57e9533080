/* fileset.c - fio's file set inside one worker (fileset.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "io/core/fileset.h"

int fileset_init(struct fileset *fs, const struct spec *s, unsigned n, const uint64_t *start,
		 const uint64_t *len, const uint64_t *limit, uint32_t align, uint64_t seed,
		 unsigned *bad)
{
	memset(fs, 0, sizeof(*fs));
	fs->gen = calloc(n, sizeof(*fs->gen));
	if (!fs->gen)
		return -ENOMEM;
	fs->n = n;
	fs->limit = limit;
	fs->service = s->file_service;
	fs->service_nr = s->file_service_nr ? s->file_service_nr : 1;
	for (unsigned f = 0; f < n; f++) {
		int rc = offgen_init(&fs->gen[f], s, start[f], len[f], align,
				     seed + 0xd1b54a32d192ed03ULL * f);
		if (rc) {
			*bad = f;
			return rc;
		}
		/* fio: a file of the set is done when its next I/O cannot be
		 * made (its map full, its end reached), and the job's streams go
		 * on: no per-file pass end that would re-seed them (io_size's
		 * loops aside) */
		if (!s->io_size)
			fs->gen[f].pass_len = 0;
	}
	/* fio's next_file starts at 0: round robin steps there first */
	fs->cur = fs->service == 1 ? 0 : n - 1;
	fileset_seed(fs, s, 1);
	return 0;
}

void fileset_seed(struct fileset *fs, const struct spec *s, unsigned thread)
{
	uint64_t seeds[FRAND_NSEEDS];
	/* fio's td_fill_rand_seeds_internal: next_file_state from the
	 * FIO_RAND_FILE_OFF seed, 64-bit with tausworthe64 (randrepeat=0
	 * without randseed: the OS's seeds, here the spec's per-run seed) */
	uint64_t randseed = s->seed_given || s->randrepeat_off ? s->seed : FRAND_DEFAULT_SEED;

	frand_job_seeds(seeds, randseed, thread ? thread : 1);
	frand_init(&fs->fsel, seeds[FRAND_FILE], s->rand_taus64);
	for (unsigned f = 0; f < fs->n; f++)
		offgen_seed(&fs->gen[f], s, thread);
	/* the job's streams: as any file's, seeded alike */
	fs->fr = fs->gen[0].fr;
	fs->mix_dir = fs->gen[0].mix_dir;
	fs->seq_cnt = fs->gen[0].seq_cnt;
	fs->mix_issues = 0;
	fs->issues[0] = fs->issues[1] = 0;
}

void fileset_free(struct fileset *fs)
{
	for (unsigned f = 0; fs->gen && f < fs->n; f++)
		offgen_free(&fs->gen[f]);
	free(fs->gen);
	fs->gen = NULL;
}

bool fileset_next(struct fileset *fs, uint64_t passes, uint64_t *off, uint32_t *len,
		  enum nvs_dir *dir, unsigned *file)
{
	while (fs->ndone < fs->n) {
		unsigned f = fs->cur;
		if (fs->left && !fs->done[f]) {
			fs->left--; /* fio's file_service_left */
		} else if (fs->service != 1 || fs->done[f]) {
			/* sequential stays until the file is done */
			if (fs->service == 2) {
				/* fio's __get_next_fileno_rand: n * (r / (max + 1.0)),
				 * drawn again while the file is done */
				do
					f = (unsigned)frand_scale(&fs->fsel, frand_next(&fs->fsel),
								  fs->n);
				while (fs->done[f]);
			} else {
				do
					f = (f + 1) % fs->n;
				while (fs->done[f]);
			}
			fs->cur = f;
			fs->left = fs->service_nr - 1;
		}
		struct offgen *g = &fs->gen[f];
		/* the job's streams and rwmix count lent to this file's draw */
		g->fr = fs->fr;
		g->mix_dir = fs->mix_dir;
		g->mix_issues = fs->mix_issues;
		g->seq_cnt = fs->seq_cnt;
		g->issues[0] = fs->issues[0];
		g->issues[1] = fs->issues[1];
		offgen_next(g, off, len, dir);
		/* fio: a file is done when its next I/O cannot be made; random
		 * offsets without a map (norandommap, a distribution) always can
		 * be: such files take I/Os until the job's bytes are done */
		bool unmapped = g->random && !g->rmap && !g->lfsr_on;
		bool done = g->wraps >= passes ||
			    (!unmapped && fs->limit[f] && fs->issued[f] >= fs->limit[f]);
		/* fio's fill_io_u that fails for a done file drew its direction
		 * and (random) offset, but no size, and issued nothing */
		struct frand bs[2] = {fs->fr.bs[0], fs->fr.bs[1]};
		fs->fr = g->fr;
		fs->mix_dir = g->mix_dir;
		fs->mix_issues = g->mix_issues;
		fs->seq_cnt = g->seq_cnt;
		if (done) {
			fs->fr.bs[0] = bs[0];
			fs->fr.bs[1] = bs[1];
			fs->done[f] = true; /* fio: fio_file_set_done */
			fs->ndone++;
			fs->left = 0;
			continue;
		}
		fs->issues[0] = g->issues[0];
		fs->issues[1] = g->issues[1];
		fs->issued[f] += *len;
		*file = f;
		return true;
	}
	return false;
}

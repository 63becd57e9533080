/* replay.h - what `nvscope replay DIR` reads besides samples.csv: the
 * per-step rows of summary.json (fio layout) for the per-QD table. */
#ifndef NVS_UI_REPLAY_H
#define NVS_UI_REPLAY_H

#include <stddef.h>

/* One row of the per-QD table. */
struct qdrow {
	unsigned qd;
	double iops, bw;		/* both directions; bytes/s */
	double mean_us, p99_us, max_us; /* NAN when unknown */
	double cpu_pct;			/* worker CPU, % of the runtime; NAN unknown */
	double asked; /* a rate-curve point: the rate asked, IOPS (0: the max run) */
};

/* Reads DIR/summary.json: one row per job.  *@rows is malloc'ed (caller
 * frees).  Returns the count, or -errno (-ENOENT: no summary, -EINVAL: not
 * the expected JSON, with @err set). */
int replay_qd_rows(const char *dir, struct qdrow **rows, char *err, size_t errlen);

#endif

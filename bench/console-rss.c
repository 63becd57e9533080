/* console-rss.c - how much memory the console's history takes.
 *
 * Feeds NTARGETS targets x SECONDS simulated 1-s intervals of samples (one
 * worker per target, a few latency buckets per direction, as a worker emits
 * them) through the real consumer path: collect_sample() -> the collector's
 * rows -> the run's history series, as run/session.c does it: the collector
 * hands each row to a hook (collect_on_point) that pushes it onto the
 * target's history, so the history is the one copy (before issue 11's
 * change the collector kept its own series and the session copied it every
 * frame: run with --copy for that path).  No I/O, no
 * ncurses: only what grows with the length of a run.  Prints the size of a
 * history point, the process's peak RSS and the ratio to the goal (issue
 * 11: <= 64 MiB for 24 targets x 16,000 s).  Built and run by
 * bench/console-rss.sh; not a test (no timing, no assertion). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stats/collect.h"
#include "stats/series.h"

#define GOAL_MIB 64.0

static double status_mib(const char *key)
{
	char line[256];
	double kb = -1;
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			kb = strtod(line + strlen(key) + 1, NULL);
	fclose(f);
	return kb / 1024.0;
}

static struct series *hist;

/* run/session.c on_point: the row onto its target's history */
static size_t copies; /* interval rows copied into a history (series_push) */

static void keep(int t, const struct point *pt, void *arg)
{
	(void)arg;
	copies++;
	if (series_push(&hist[t + 1], pt))
		exit(1);
}

int main(int argc, char **argv)
{
	int copy = argc > 1 && !strcmp(argv[1], "--copy");
	argc -= copy;
	argv += copy;
	unsigned ntargets = argc > 1 ? (unsigned)atoi(argv[1]) : 24;
	unsigned seconds = argc > 2 ? (unsigned)atoi(argv[2]) : 16000;
	if (!ntargets || ntargets > NVS_MAX_TARGETS || !seconds) {
		fprintf(stderr, "usage: console-rss [TARGETS (1..%d)] [SECONDS]\n",
			NVS_MAX_TARGETS);
		return 2;
	}
	double base = status_mib("VmRSS:");
	unsigned *wt = calloc(ntargets, sizeof(*wt));
	struct sample *smp = calloc(1, sizeof(*smp));
	hist = calloc(ntargets + 1, sizeof(*hist));
	size_t *seen = calloc(ntargets + 1, sizeof(*seen));
	if (!wt || !smp || !hist || !seen)
		return 1;
	for (unsigned t = 0; t < ntargets; t++)
		wt[t] = t;
	struct collect *c = collect_new(ntargets, ntargets, wt, 1000000000ull);
	if (!c)
		return 1;
	if (!copy)
		collect_on_point(c, keep, NULL);
	for (unsigned s = 0; s < seconds; s++) {
		for (unsigned w = 0; w < ntargets; w++) {
			memset(smp, 0, sizeof(*smp));
			smp->worker = w;
			smp->target = w;
			smp->seq = s;
			smp->t_start_ns = (uint64_t)s * 1000000000ull;
			smp->t_end_ns = smp->t_start_ns + 1000000000ull;
			smp->flags = s + 1 == seconds ? SAMPLE_LAST : 0;
			smp->usr_ns = 1000000;
			for (int d = 0; d < NVS_NDIR; d++) {
				struct sample_dir *sd = &smp->dir[d];
				uint64_t lat = 20000 + 1000 * (uint64_t)((s + w + d) % 50);
				sd->ios = sd->lat_n = 100000 + s % 1000;
				sd->bytes = sd->ios * 4096;
				sd->lat_sum = sd->lat_n * lat;
				sd->lat_min = lat / 2;
				sd->lat_max = lat * 4;
				sd->lat_bucket[hist_index(lat / 2)] = (uint32_t)(sd->lat_n / 4);
				sd->lat_bucket[hist_index(lat)] = (uint32_t)(sd->lat_n / 2);
				sd->lat_bucket[hist_index(lat * 4)] =
				    (uint32_t)(sd->lat_n - sd->lat_n / 4 - sd->lat_n / 2);
			}
			collect_sample(smp, c);
		}
		/* --copy: the old frame, new rows copied onto the run's history */
		for (int t = -1; copy && t < (int)ntargets; t++) {
			const struct series *src = collect_series(c, t);
			for (; src && seen[t + 1] < src->n; seen[t + 1]++)
				if (copies++, series_push(&hist[t + 1], &src->pt[seen[t + 1]]))
					return 1;
		}
	}
	collect_flush(c);
	double rss = status_mib("VmRSS:"), hwm = status_mib("VmHWM:");
	size_t points = 0;
	for (unsigned t = 0; t <= ntargets; t++)
		points += hist[t].n;
	printf("%s: targets %u  seconds %u  points %zu  sizeof(struct point) %zu B\n",
	       copy ? "collector + copy" : "one copy", ntargets, seconds, points,
	       sizeof(struct point));
	/* the collector's own series (--copy) holds a copy of every row too */
	size_t own = 0;
	for (int t = -1; copy && t < (int)ntargets; t++) {
		const struct series *cs = collect_series(c, t);
		own += cs ? cs->n : 0;
	}
	printf("copies of each interval row into a history: %.2f (goal 1)\n",
	       points ? (double)(copies + own) / (double)points : 0);
	printf("rss start %.1f MiB  end %.1f MiB  peak %.1f MiB\n", base, rss, hwm);
	printf("peak %.1f MiB / goal %.0f MiB = %.2f\n", hwm, GOAL_MIB, hwm / GOAL_MIB);
	collect_free(c);
	for (unsigned t = 0; t <= ntargets; t++)
		series_release(&hist[t]);
	free(hist);
	free(seen);
	free(smp);
	free(wt);
	return 0;
}

/* runfold.c - fio's group_reporting: one result per report group. */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <stdio.h>
#include "run/runfold.h"
#include "stats/fioss.h"

/* Adds the intervals of @b into @a, point by point (fio sums the group's
 * bandwidth samples): rates add up, latencies are weighted by IOPS, maxima
 * stay maxima. */
static void merge_series(struct series *a, const struct series *b)
{
	size_t n = a->n < b->n ? a->n : b->n;

	for (size_t i = 0; i < n; i++) {
		struct point *p = &a->pt[i];
		const struct point *q = &b->pt[i];
		double wa = 0, wb = 0;
		for (int d = 0; d < NVS_NDIR; d++) {
			double ia = p->iops[d], ib = q->iops[d];
			if (ia + ib > 0)
				p->lat_mean_us[d] =
				    (float)((p->lat_mean_us[d] * ia + q->lat_mean_us[d] * ib) /
					    (ia + ib));
			if (ia + ib > 0)
				p->slat_mean_us[d] =
				    (float)((p->slat_mean_us[d] * ia + q->slat_mean_us[d] * ib) /
					    (ia + ib));
			if (q->lat_p99_us[d] > p->lat_p99_us[d])
				p->lat_p99_us[d] = q->lat_p99_us[d];
			if (q->lat_max_us[d] > p->lat_max_us[d])
				p->lat_max_us[d] = q->lat_max_us[d];
			p->bw[d] += q->bw[d];
			p->iops[d] += q->iops[d];
			wa += ia;
			wb += ib;
		}
		if (wa + wb > 0)
			p->lat_mean_all_us =
			    (float)((p->lat_mean_all_us * wa + q->lat_mean_all_us * wb) /
				    (wa + wb));
		if (q->lat_p99_all_us > p->lat_p99_all_us)
			p->lat_p99_all_us = q->lat_p99_all_us;
		p->errors += q->errors;
		p->cpu_pct += q->cpu_pct;
		p->workers += q->workers;
	}
}

/* Moves entry @i of every array to @m (m < i). */
static void move(struct runsteps *f, unsigned i, unsigned m)
{
	f->res[m] = f->res[i];
	memcpy(&f->tres[(size_t)m * f->ntargets], &f->tres[(size_t)i * f->ntargets],
	       f->ntargets * sizeof(*f->tres));
	f->ser[m] = f->ser[i];
	f->ser[i] = (struct series){0};
	f->info[m] = f->info[i];
	f->info[i].ss = NULL;
	f->gid[m] = f->gid[i];
	f->tjson[m] = f->tjson[i];
	f->tjson[i] = NULL;
	memcpy(&f->cores[(size_t)m * CPU_MAX], &f->cores[(size_t)i * CPU_MAX],
	       CPU_MAX * sizeof(*f->cores));
	f->ncores[m] = f->ncores[i];
	memcpy(&f->disks[(size_t)m * NVS_MAX_TARGETS], &f->disks[(size_t)i * NVS_MAX_TARGETS],
	       NVS_MAX_TARGETS * sizeof(*f->disks));
	f->ndisks[m] = f->ndisks[i];
	if (f->step)
		f->step[m] = f->step[i];
}

unsigned runfold_groups(struct runsteps *f, const bool *grouped)
{
	unsigned m = 0;

	for (unsigned i = 0; i < f->n; i++) {
		if (!m || !grouped[i] || f->gid[i] != f->gid[m - 1]) {
			if (i != m)
				move(f, i, m);
			m++;
			continue;
		}
		unsigned k = m - 1; /* fio: sum_thread_stats into the group's entry */
		result_merge(&f->res[k], &f->res[i]);
		for (unsigned t = 0; t < f->ntargets; t++)
			result_merge(&f->tres[(size_t)k * f->ntargets + t],
				     &f->tres[(size_t)i * f->ntargets + t]);
		merge_series(&f->ser[k], &f->ser[i]);
		series_release(&f->ser[i]);
		if (f->info[i].ss) { /* fio: the group's last job holds its steady state */
			fioss_free(f->info[k].ss);
			f->info[k].ss = f->info[i].ss;
			f->info[i].ss = NULL;
		}
		f->info[k].ctx += f->info[i].ctx;
		f->info[k].majf += f->info[i].majf;
		f->info[k].minf += f->info[i].minf;
		f->info[k].job_runtime_s += f->info[i].job_runtime_s; /* fio: summed */
		f->info[k].opt_spec = f->info[i].spec; /* fio: the last job's options */
		if (f->info[i].elapsed_s > f->info[k].elapsed_s)
			f->info[k].elapsed_s = f->info[i].elapsed_s;
		free(f->tjson[i]);
		f->tjson[i] = NULL;
	}
	f->n = m;
	return m;
}

/* fio's `fio a.fio b.fio`: the jobs of each later file follow, its first
 * job behind a stonewall (fio's __parse_jobs_ini stonewall_flag), so every
 * file is its own run group and report group; exitall is global. */
int runfold_more_files(struct cli *cli, const char *const *files, unsigned nfiles,
		       struct spec **jobs, unsigned *njobs, char *err, size_t errlen)
{
	const char *first = cli->job; /* the caller's: it names the first job file */
	bool exitall = false;

	for (unsigned f = 0; f < nfiles; f++) {
		struct spec *more = NULL, *all;
		unsigned n = 0, run = 0, rep = 0;
		cli->job = files[f];
		int rc = cli_jobs(cli, &more, &n, err, errlen);
		cli->job = first;
		if (rc)
			return -EINVAL;
		for (unsigned j = 0; j < *njobs; j++) {
			run = (*jobs)[j].run_group + 1;
			rep = (*jobs)[j].report_group + 1;
		}
		all = realloc(*jobs, (*njobs + n) * sizeof(*all));
		if (!all) {
			free(more);
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		for (unsigned j = 0; j < n; j++) {
			more[j].run_group += run;
			more[j].report_group += rep;
		}
		memcpy(all + *njobs, more, n * sizeof(*more));
		free(more);
		*jobs = all;
		*njobs += n;
	}
	for (unsigned j = 0; j < *njobs; j++)
		exitall |= (*jobs)[j].exitall;
	for (unsigned j = 0; j < *njobs; j++)
		(*jobs)[j].exitall = exitall;
	return 0;
}

void runfold_unstarted(struct runsteps *f, const struct spec *jobs, unsigned from, unsigned njobs,
		       bool sweep, unsigned *nstep)
{
	for (unsigned j = from; j < njobs; j++)
		for (unsigned q = 0; q < jobs[j].niodepth; q++, (*nstep)++) {
			const struct spec *s = &jobs[j];
			unsigned ncl = s->numjobs > 1 && !s->group_reporting ? s->numjobs : 1;
			for (unsigned c = 0; c < ncl; c++) {
				unsigned i = f->n++;
				struct result *r = &f->res[i];
				result_init(r);
				snprintf(r->name, sizeof(r->name), "%s", s->name);
				snprintf(r->target, sizeof(r->target), "%s",
					 s->ntargets ? s->targets[0] : "");
				r->iodepth = s->iodepth[q];
				r->numjobs = ncl > 1 ? 1 : s->numjobs;
				for (unsigned t = 0; t < f->ntargets; t++) {
					struct result *tr = &f->tres[(size_t)i * f->ntargets + t];
					result_init(tr);
					snprintf(tr->target, sizeof(tr->target), "%s",
						 t < s->ntargets ? s->targets[t] : "");
				}
				f->ser[i] = (struct series){0};
				f->info[i] = (struct json_job){.spec = s};
				f->gid[i] = sweep ? *nstep : s->report_group;
				f->tjson[i] = NULL;
				f->ncores[i] = 0;
				f->ndisks[i] = 0;
				if (f->step)
					f->step[i] = *nstep;
			}
		}
}

/* fio's exit_what=all: a job of the group that ran from @first to @last
 * ended with exitall, so no later job starts. */
bool runfold_exit_all(const struct spec *jobs, unsigned first, unsigned last)
{
	for (unsigned k = first; k <= last; k++)
		if (jobs[k].exitall && jobs[k].exit_what == 2)
			return true;
	return false;
}

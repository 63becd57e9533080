/* runsteps.c - a headless run's steps and the results they leave. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "run/runsteps.h"
#include "stats/fioss.h"

unsigned runsteps_size(const struct spec *jobs, unsigned njobs, unsigned *nsteps)
{
	unsigned cap = 0;

	*nsteps = 0;
	for (unsigned j = 0; j < njobs; j++) {
		*nsteps += jobs[j].niodepth;
		cap += jobs[j].niodepth * (jobs[j].numjobs > 1 ? jobs[j].numjobs : 1);
	}
	return cap;
}

int runsteps_alloc(struct runsteps *rs, unsigned cap, unsigned ntargets)
{
	memset(rs, 0, sizeof(*rs));
	rs->cap = cap;
	rs->ntargets = ntargets;
	rs->res = calloc(cap, sizeof(*rs->res));
	rs->tres = calloc((size_t)cap * ntargets, sizeof(*rs->tres));
	rs->ser = calloc(cap, sizeof(*rs->ser));
	rs->cores = calloc((size_t)cap * CPU_MAX, sizeof(*rs->cores));
	rs->ncores = calloc(cap, sizeof(*rs->ncores));
	rs->info = calloc(cap, sizeof(*rs->info));
	rs->disks = calloc((size_t)cap * NVS_MAX_TARGETS, sizeof(*rs->disks));
	rs->ndisks = calloc(cap, sizeof(*rs->ndisks));
	rs->tjson = calloc(cap, sizeof(*rs->tjson));
	rs->step = calloc(cap, sizeof(*rs->step));
	rs->gid = calloc(cap, sizeof(*rs->gid));
	if (!rs->res || !rs->tres || !rs->ser || !rs->cores || !rs->ncores || !rs->info ||
	    !rs->disks || !rs->ndisks || !rs->tjson || !rs->step || !rs->gid)
		return -ENOMEM;
	return 0;
}

void runsteps_release(struct runsteps *rs)
{
	for (unsigned i = 0; rs->ser && i < rs->n; i++)
		series_release(&rs->ser[i]);
	for (unsigned i = 0; rs->tjson && i < rs->cap; i++)
		free(rs->tjson[i]);
	for (unsigned i = 0; rs->info && i < rs->n; i++)
		fioss_free(rs->info[i].ss);
	free(rs->res);
	free(rs->tres);
	free(rs->ser);
	free(rs->cores);
	free(rs->ncores);
	free(rs->info);
	free(rs->disks);
	free(rs->ndisks);
	free(rs->tjson);
	free(rs->step);
	free(rs->gid);
	memset(rs, 0, sizeof(*rs));
}

void runsteps_meter_start(struct runsteps_meter *m, const struct spec *s)
{
	for (unsigned t = 0; t < s->ntargets && t < NVS_MAX_TARGETS; t++)
		m->have[t] = !diskstat_read(s->targets[t], &m->d0[t]);
	getrusage(RUSAGE_SELF, &m->ru0);
	clock_gettime(CLOCK_MONOTONIC, &m->t0);
}

void runsteps_meter_stop(struct runsteps_meter *m)
{
	clock_gettime(CLOCK_MONOTONIC, &m->t1);
	getrusage(RUSAGE_SELF, &m->ru1);
}

bool runsteps_apart(const struct spec *s, const struct runjob *rj)
{
	return rj->nclones && !s->group_reporting;
}

/* The process and disk figures of the step measured by @m, once, on its
 * first entry @first (group_reporting and the top-level disk_util sum
 * them). */
static void add_figures(struct runsteps *rs, unsigned first, const struct spec *s,
			const struct runsteps_meter *m)
{
	const struct rusage *ru0 = &m->ru0, *ru1 = &m->ru1;
	double ms = (double)(m->t1.tv_sec - m->t0.tv_sec) * 1e3 +
		    (double)(m->t1.tv_nsec - m->t0.tv_nsec) / 1e6;
	struct json_job *in = &rs->info[first];
	struct diskstat d1;

	in->ctx = (uint64_t)(ru1->ru_nvcsw - ru0->ru_nvcsw + ru1->ru_nivcsw - ru0->ru_nivcsw);
	in->majf = (uint64_t)(ru1->ru_majflt - ru0->ru_majflt);
	in->minf = (uint64_t)(ru1->ru_minflt - ru0->ru_minflt);
	for (unsigned t = 0; t < s->ntargets && t < NVS_MAX_TARGETS; t++)
		if (m->have[t] && !diskstat_read(s->targets[t], &d1))
			diskstat_delta(
			    &m->d0[t], &d1, ms,
			    &rs->disks[(size_t)first * NVS_MAX_TARGETS + rs->ndisks[first]++]);
}

unsigned runsteps_add(struct runsteps *rs, const struct spec *s, bool sweep, struct runjob *rj,
		      const struct runsteps_meter *m)
{
	bool split = runsteps_apart(s, rj);
	double jrt = 0;
	unsigned ncl = split ? rj->nclones : 1, first = rs->n, nt = rs->ntargets;

	for (unsigned c = 0; c < rj->nclones; c++)
		jrt += rj->clone[c].runtime_s;
	for (unsigned c = 0; c < ncl; c++, rs->n++) {
		const struct result *cr = split ? &rj->clone[c] : &rj->agg;
		unsigned i = rs->n;
		rs->gid[i] = !sweep ? s->report_group : rs->nstep;
		rs->step[i] = rs->nstep;
		rs->res[i] = *cr;
		if (rj->error && !rs->res[i].error)
			rs->res[i].error = -rj->error;
		rs->info[i] =
		    (struct json_job){.spec = s,
				      .elapsed_s = rj->elapsed_s,
				      .job_runtime_s = split || !jrt ? cr->runtime_s : jrt};
		for (unsigned t = 0; t < nt && t < rj->ntargets; t++)
			rs->tres[i * nt + t] = split
						   ? rj->clone_target[(size_t)c * rj->ntargets + t]
						   : rj->per_target[t];
		rs->ncores[i] = rj->ncores;
		memcpy(&rs->cores[(size_t)i * CPU_MAX], rj->cores, sizeof(rj->cores));
		if (split) {
			rs->ser[i] = rj->clone_series[c];
			rj->clone_series[c] = (struct series){0};
		}
	}
	add_figures(rs, first, s, m);
	rs->tjson[first] = rj->trace_json;
	rj->trace_json = NULL;
	if (!split) {
		rs->ser[first] = rj->series;
		rj->series = (struct series){0};
	}
	rs->info[first].ss = rj->ss; /* fio's steady state: freed with info */
	rj->ss = NULL;
	rs->nstep++;
	return first;
}

unsigned runsteps_merge_disks(const struct runsteps *rs, struct diskstat *out)
{
	unsigned m = 0;

	for (unsigned i = 0; i < rs->n; i++)
		for (unsigned t = 0; t < rs->ndisks[i]; t++) {
			const struct diskstat *x = &rs->disks[(size_t)i * NVS_MAX_TARGETS + t];
			unsigned k;
			for (k = 0; k < m && strcmp(out[k].name, x->name); k++)
				;
			if (k == m && m == NVS_MAX_TARGETS)
				continue;
			if (k == m)
				memset(&out[m++], 0, sizeof(*out));
			diskstat_add(&out[k], x);
		}
	return m;
}

int runsteps_group_run(struct runsteps_group *g, const struct spec *jobs,
		       const struct datagen_place *places, unsigned first, unsigned n,
		       const _Atomic int *cancel, runjob_tick_fn tick, char *err, size_t errlen)
{
	unsigned *qds = calloc(n, sizeof(*qds)); /* 0: each its depth */

	runsteps_group_release(g);
	g->first = first;
	g->n = n;
	g->r = calloc(n, sizeof(*g->r));
	g->rc = g->r && qds ? runjob_run_many(&jobs[first], places ? &places[first] : NULL, qds, n,
					      cancel, tick, NULL, g->r, err, errlen)
			    : -ENOMEM;
	free(qds);
	return g->rc;
}

bool runsteps_group_has(const struct runsteps_group *g, unsigned j)
{
	return g->r && j >= g->first && j < g->first + g->n;
}

int runsteps_group_take(struct runsteps_group *g, unsigned j, struct runjob *out)
{
	*out = g->r[j - g->first];
	memset(&g->r[j - g->first], 0, sizeof(*out)); /* now @out's to release */
	return g->rc;
}

void runsteps_group_release(struct runsteps_group *g)
{
	for (unsigned i = 0; g->r && i < g->n; i++)
		runjob_release(&g->r[i]);
	free(g->r);
	g->r = NULL;
}

/* @v's @n values into st[]: mean, min, max, sample standard deviation
 * (0 for one value). */
static void stats_of(const double *v, unsigned n, double *st)
{
	double sum = 0, sq = 0;
	st[RUNSTEPS_MIN] = st[RUNSTEPS_MAX] = n ? v[0] : NAN;
	for (unsigned i = 0; i < n; i++) {
		sum += v[i];
		st[RUNSTEPS_MIN] = fmin(st[RUNSTEPS_MIN], v[i]);
		st[RUNSTEPS_MAX] = fmax(st[RUNSTEPS_MAX], v[i]);
	}
	st[RUNSTEPS_MEAN] = n ? sum / n : NAN;
	for (unsigned i = 0; i < n; i++)
		sq += (v[i] - st[RUNSTEPS_MEAN]) * (v[i] - st[RUNSTEPS_MEAN]);
	st[RUNSTEPS_SD] = n > 1 ? sqrt(sq / (n - 1)) : 0;
}

/* Run @step's figures (its entries summed, their latency merged in @m). */
static void run_figures(const struct runsteps *rs, unsigned step, struct result *m, double *iops,
			double *mbps, double *mean, double *p99)
{
	struct lat_all la;
	*iops = *mbps = 0;
	result_init(m);
	for (unsigned i = 0; i < rs->n; i++) {
		if (rs->step[i] != step)
			continue;
		*iops += result_total_iops(&rs->res[i]);
		for (int d = 0; d < NVS_NDIR; d++)
			*mbps += result_bw(&rs->res[i], d) / 1e6;
		result_merge(m, &rs->res[i]);
	}
	result_lat_all(m, &la);
	*mean = la.mean_us;
	*p99 = la.p99_us;
}

/* Adds run @step to the summary of its job and depth in @out (new ones
 * appended; *@n of @max). */
static int add_run(const struct runsteps *rs, unsigned i, struct runsteps_rep *out, unsigned *n,
		   unsigned max, double (*v)[4], struct result *m)
{
	unsigned k = 0;
	while (k < *n && !(out[k].spec == rs->info[i].spec && out[k].iodepth == rs->res[i].iodepth))
		k++;
	if (k < *n && out[k].n >= 1000) /* --repeat's most */
		return 0;
	if (k == *n) {
		if (*n == max)
			return 0;
		out[k] =
		    (struct runsteps_rep){.spec = rs->info[i].spec, .iodepth = rs->res[i].iodepth};
		(*n)++;
	}
	unsigned r = out[k].n++;
	run_figures(rs, rs->step[i], m, &v[(size_t)k * 1000 + r][0], &v[(size_t)k * 1000 + r][1],
		    &v[(size_t)k * 1000 + r][2], &v[(size_t)k * 1000 + r][3]);
	return 0;
}

int runsteps_repeats(const struct runsteps *rs, struct runsteps_rep *out, unsigned max)
{
	unsigned n = 0;
	/* each step's runs' four figures: [step * 1000 + run][figure] */
	double(*v)[4] = calloc((size_t)max * 1000, sizeof(*v));
	struct result *m = malloc(sizeof(*m));
	double col[1000];

	if (!v || !m || !rs->step) {
		free(v);
		free(m);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < rs->n; i++)
		if ((i == 0 || rs->step[i] != rs->step[i - 1]) && rs->info[i].spec)
			add_run(rs, i, out, &n, max, v, m);
	for (unsigned k = 0; k < n; k++) {
		double *st[4] = {out[k].iops, out[k].mbps, out[k].mean_us, out[k].p99_us};
		for (unsigned f = 0; f < 4; f++) {
			unsigned nr = out[k].n < 1000 ? out[k].n : 1000;
			for (unsigned r = 0; r < nr; r++)
				col[r] = v[(size_t)k * 1000 + r][f];
			stats_of(col, nr, st[f]);
		}
	}
	free(v);
	free(m);
	return (int)n;
}

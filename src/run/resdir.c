/* resdir.c - the per-QD row of a results directory's tables: written from
 * a job's result, parsed back, one reader of a table (resdir.h). */
#include "run/resdir.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nvscope.h"
#include "base/input.h"
#include "base/num.h"
#include "config/plan.h"
#include "report/csv.h"
#include "stats/cpu.h"
#include "stats/result.h"

void resdir_row_of(const struct result *res, struct resdir_row *m)
{
	struct lat_all all;
	result_lat_all(res, &all);
	memset(m, 0, sizeof(*m));
	m->riops = result_iops(res, NVS_READ);
	m->wiops = result_iops(res, NVS_WRITE);
	m->iops = m->riops + m->wiops;
	m->bw = result_bw(res, NVS_READ) + result_bw(res, NVS_WRITE);
	m->mean_us = all.mean_us;
	m->p99_us = all.p99_us;
	m->max_us = all.max_us;
	m->cpu_pct = res->runtime_s > 0 ? (res->usr_s + res->sys_s) / res->runtime_s * 100.0 : 0;
	m->sys_cpu_pct = NAN;
}

void resdir_row_machine(struct resdir_row *m, const struct cpu_util *total)
{
	double busy = 100 - total->idle - total->iowait;
	m->sys_cpu_pct = !isfinite(busy) ? NAN : busy < 0 ? 0 : busy > 100 ? 100 : busy;
}

void resdir_row_write(FILE *f, const struct resdir_row *m)
{
	fprintf(f, "%.1f,%.1f,%.1f,%.3f,%.2f,%.2f,%.2f,%.1f,", m->iops, m->riops, m->wiops,
		m->bw / 1e6, m->mean_us, m->p99_us, m->max_us, m->cpu_pct);
	if (isfinite(m->sys_cpu_pct))
		fprintf(f, "%.1f\n", m->sys_cpu_pct);
	else
		fputs("n/a\n", f);
}

int resdir_row_parse(const char *line, enum resdir_table t, struct resdir_row *q)
{
	/* key column(s), then RESDIR_METRIC_HDR's 8, and sys_cpu_pct where
	 * known (a table written before it has 8) */
	double v[2 + 9];
	int cols_before = t == RESDIR_TABLE_QD ? 1 : 2;
	int want = cols_before + 8, n = 0;
	const char *s = line;
	if (t == RESDIR_TABLE_RATE && !strncmp(s, "max,", 4)) { /* the measured maximum */
		v[n++] = 0;
		s += 4;
	}
	n += csv_parse_numbers(s, v + n, want + 1 - n, NULL);
	if (n < want)
		return -EINVAL;
	memset(q, 0, sizeof(*q));
	double qd = t == RESDIR_TABLE_GRID ? v[0] * v[1] : v[0];
	uint64_t qd64;
	q->qd = num_to_u64(qd, 1000000000, &qd64) ? 0 : (unsigned)qd64;
	const double *m = v + cols_before;
	q->iops = m[0];
	q->riops = m[1];
	q->wiops = m[2];
	q->bw = m[3] * 1e6;
	q->mean_us = m[4];
	q->p99_us = m[5];
	q->max_us = m[6];
	q->cpu_pct = m[7];
	q->sys_cpu_pct = n > want ? m[8] : NAN;
	q->asked = t == RESDIR_TABLE_RATE ? v[1] : NAN;
	return 0;
}

int resdir_table_read(const char *path, enum resdir_table t, struct resdir_row **out)
{
	char msg[256], *line = NULL;
	size_t lcap = 0;
	unsigned lineno = 0;
	int n = 0, cap = 0;
	long got;
	struct resdir_row *rows = NULL;
	/* docs/safety.md "Rule: hostile inputs": a regular file, lines whole */
	FILE *f = input_fopen(path, RESDIR_TABLE_MAX_BYTES, "results table", msg, sizeof(msg));

	*out = NULL;
	if (!f)
		return -errno;
	while ((got = input_getline(f, &line, &lcap, RESDIR_TABLE_MAX_LINE, &lineno)) >= 0) {
		struct resdir_row q;
		/* a last line without its '\n' is still being written: skipped */
		if (feof(f) || resdir_row_parse(line, t, &q))
			continue;
		if (n == cap) {
			int nc = cap ? cap * 2 : 16;
			struct resdir_row *r = realloc(rows, (size_t)nc * sizeof(*r));
			if (!r) {
				got = -ENOMEM;
				break;
			}
			rows = r;
			cap = nc;
		}
		rows[n++] = q;
	}
	free(line);
	fclose(f);
	if (got < -1) { /* a line longer than the cap: refused, never cut */
		free(rows);
		return (int)got;
	}
	*out = rows;
	return n;
}

static const char *const table_names[][2] = {
    [STEP_PURGE] = {NULL, NULL},
    [STEP_FILL] = {NULL, NULL},
    [STEP_PRECONDITION] = {RESDIR_ROUNDS, NULL},
    [STEP_MEASURE] = {RESDIR_QD, NULL},
    [STEP_RATE_CURVE] = {RESDIR_RATE, NULL},
    [STEP_GRID] = {RESDIR_GRID, NULL},
    [STEP_MATRIX] = {RESDIR_MATRIX, RESDIR_ROUNDS},
};

const char *resdir_step_table(int kind, int which)
{
	if (kind < 0 || kind >= (int)NVS_ARRAY_SIZE(table_names) || which < 1 || which > 2)
		return NULL;
	return table_names[kind][which - 1];
}

const char *resdir_step_header(int k, int which)
{
	switch (k) {
	case STEP_PRECONDITION:
		return "round,t_start_s,t_end_s,value," RESDIR_METRIC_HDR;
	case STEP_MEASURE:
		return "qd," RESDIR_METRIC_HDR;
	case STEP_RATE_CURVE:
		return "point,target_iops," RESDIR_METRIC_HDR;
	case STEP_GRID:
		return "threads,qd," RESDIR_METRIC_HDR;
	case STEP_MATRIX:
		return which == 1 ? "round,bs,read_pct," RESDIR_METRIC_HDR
				  : "round,t_start_s,t_end_s,value";
	default:
		return NULL;
	}
}

/* planview.c - following a plan through its results directory.
 *
 * The files are the boundary between the plan (its own thread or process)
 * and the console: the plan writes them (state.json atomically by rename,
 * CSVs appended and flushed at least at every checkpoint), the console reads
 * them.  A CSV line may be caught half-written: only lines ending in '\n'
 * are taken, and the read position goes back to the start of a partial one
 * to read it whole next time.  state.json is re-read when its mtime or size
 * changes; the table is re-read when its size changes (a few rows). */
#include "ui/planview.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>
#include "base/num.h"
#include "cmd/planrun.h"
#include "config/plan.h"
#include "report/csv.h"

#define PV_COLUMNS 14

struct planview {
	char dir[512];
	struct plan *plan;
	unsigned step, sub;
	bool finished;
	char name[64], target[256];
	struct timespec state_mtime;
	off_t state_size;
	/* the current step's files */
	unsigned open_step; /* step of the open files; UINT_MAX: none */
	char step_dir[1100];
	FILE *samples;
	struct series ser;
	off_t table_size;
	struct qdrow *rows;
	int nrows;
};

int planview_parse_row(const char *line, enum planview_table t, struct qdrow *q)
{
	/* key column(s), then iops,read_iops,write_iops,mbps,lat_mean_us,
	 * lat_p99_us,lat_max_us,cpu_pct */
	double v[2 + 8];
	int cols_before = t == PV_TABLE_QD ? 1 : 2;
	int want = cols_before + 8, n = 0;
	const char *s = line;
	if (t == PV_TABLE_RATE && !strncmp(s, "max,", 4)) { /* the measured maximum */
		v[n++] = 0;
		s += 4;
	}
	n += csv_parse_numbers(s, v + n, want - n, NULL);
	if (n != want)
		return -EINVAL;
	memset(q, 0, sizeof(*q));
	double qd = t == PV_TABLE_GRID ? v[0] * v[1] : v[0];
	uint64_t qd64;
	q->qd = num_to_u64(qd, 1000000000, &qd64) ? 0 : (unsigned)qd64;
	const double *m = v + cols_before;
	q->iops = m[0];
	q->bw = m[3] * 1e6;
	q->mean_us = m[4];
	q->p99_us = m[5];
	q->max_us = m[6];
	q->cpu_pct = m[7];
	return 0;
}

int planview_new(const char *dir, struct planview **out, char *err, size_t errlen)
{
	char path[700];
	*out = NULL;
	struct planview *v = calloc(1, sizeof(*v));
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(v->dir, sizeof(v->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/plan.ini", dir);
	int ret = plan_load(path, NULL, &v->plan, err, errlen);
	if (ret) {
		free(v);
		return ret;
	}
	v->open_step = (unsigned)-1;
	*out = v;
	return 0;
}

static void close_step(struct planview *v)
{
	if (v->samples)
		fclose(v->samples);
	v->samples = NULL;
	series_release(&v->ser);
	free(v->rows);
	v->rows = NULL;
	v->nrows = 0;
	v->table_size = -1;
	v->open_step = (unsigned)-1;
}

void planview_free(struct planview *v)
{
	if (!v)
		return;
	close_step(v);
	plan_free(v->plan);
	free(v);
}

/* Re-reads state.json when it changed.  True when it did. */
static bool read_state(struct planview *v)
{
	char path[700];
	struct stat sb;
	snprintf(path, sizeof(path), "%s/state.json", v->dir);
	if (stat(path, &sb))
		return false;
	if (sb.st_mtim.tv_sec == v->state_mtime.tv_sec &&
	    sb.st_mtim.tv_nsec == v->state_mtime.tv_nsec && sb.st_size == v->state_size)
		return false;
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char *buf = malloc((size_t)sb.st_size + 1);
	size_t n = buf ? fread(buf, 1, (size_t)sb.st_size, f) : 0;
	fclose(f);
	if (!buf)
		return false;
	buf[n] = '\0';
	cJSON *o = cJSON_Parse(buf);
	free(buf);
	if (!o)
		return false; /* caught mid-write by another writer: next time */
	const cJSON *step = cJSON_GetObjectItemCaseSensitive(o, "step");
	const cJSON *sub = cJSON_GetObjectItemCaseSensitive(o, "sub");
	const cJSON *fin = cJSON_GetObjectItemCaseSensitive(o, "finished");
	if (cJSON_IsNumber(step) && step->valuedouble >= 0 && step->valuedouble <= 1e6)
		v->step = (unsigned)step->valuedouble;
	if (cJSON_IsNumber(sub) && sub->valuedouble >= 0 && sub->valuedouble <= 1e9)
		v->sub = (unsigned)sub->valuedouble;
	v->finished = cJSON_IsTrue(fin);
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "plan");
	const cJSON *tg = cJSON_GetObjectItemCaseSensitive(o, "targets");
	if (cJSON_IsString(name))
		snprintf(v->name, sizeof(v->name), "%s", name->valuestring);
	if (cJSON_IsArray(tg) && cJSON_IsString(cJSON_GetArrayItem(tg, 0)))
		snprintf(v->target, sizeof(v->target), "%s",
			 cJSON_GetArrayItem(tg, 0)->valuestring);
	cJSON_Delete(o);
	v->state_mtime = sb.st_mtim;
	v->state_size = sb.st_size;
	return true;
}

/* Takes the complete new lines of samples.csv. */
static bool read_samples(struct planview *v)
{
	char line[1024];
	bool any = false;
	if (!v->samples) {
		char path[1200];
		snprintf(path, sizeof(path), "%s/samples.csv", v->step_dir);
		if (!(v->samples = fopen(path, "r")))
			return false;
	}
	for (;;) {
		long pos = ftell(v->samples);
		if (!fgets(line, sizeof(line), v->samples)) {
			clearerr(v->samples);
			break;
		}
		if (!strchr(line, '\n')) { /* partial: read it again when whole */
			fseek(v->samples, pos, SEEK_SET);
			break;
		}
		struct point p;
		double prev = v->ser.n ? v->ser.pt[v->ser.n - 1].t : -1;
		if (!csv_parse_point(line, prev, &p) && !series_push(&v->ser, &p))
			any = true;
	}
	return any;
}

static bool read_table(struct planview *v)
{
	const struct plan_step *st = &v->plan->steps[v->open_step];
	const char *name = st->kind == STEP_MEASURE	 ? "qd.csv"
			   : st->kind == STEP_RATE_CURVE ? "rate.csv"
			   : st->kind == STEP_GRID	 ? "grid.csv"
							 : NULL;
	enum planview_table tt = st->kind == STEP_MEASURE ? PV_TABLE_QD
				 : st->kind == STEP_GRID  ? PV_TABLE_GRID
							  : PV_TABLE_RATE;
	char path[1200], line[1024];
	struct stat sb;
	if (!name)
		return false;
	snprintf(path, sizeof(path), "%s/%s", v->step_dir, name);
	if (stat(path, &sb) || sb.st_size == v->table_size)
		return false;
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	int n = 0, cap = 0;
	struct qdrow *rows = NULL;
	while (fgets(line, sizeof(line), f)) {
		struct qdrow q;
		if (!strchr(line, '\n') || planview_parse_row(line, tt, &q))
			continue;
		if (n == cap) {
			int nc = cap ? cap * 2 : 16;
			struct qdrow *r = realloc(rows, (size_t)nc * sizeof(*r));
			if (!r)
				break;
			rows = r;
			cap = nc;
		}
		rows[n++] = q;
	}
	fclose(f);
	free(v->rows);
	v->rows = rows;
	v->nrows = n;
	v->table_size = sb.st_size;
	return true;
}

bool planview_poll(struct planview *v)
{
	bool changed = read_state(v);
	unsigned cur = planview_cur(v);
	if (cur != v->open_step) {
		close_step(v);
		v->open_step = cur;
		char sub[256];
		planrun_step_dir(v->plan, cur, sub, sizeof(sub));
		snprintf(v->step_dir, sizeof(v->step_dir), "%s/%s", v->dir, sub);
		changed = true;
	}
	changed |= read_samples(v);
	changed |= read_table(v);
	return changed;
}

const char *planview_name(const struct planview *v)
{
	return v->name[0] ? v->name : v->plan->name;
}

const char *planview_target(const struct planview *v)
{
	return v->target;
}

unsigned planview_nsteps(const struct planview *v)
{
	return v->plan->nsteps;
}

unsigned planview_cur(const struct planview *v)
{
	if (!v->plan->nsteps)
		return 0;
	return v->step < v->plan->nsteps ? v->step : v->plan->nsteps - 1;
}

bool planview_finished(const struct planview *v)
{
	return v->finished;
}

unsigned planview_sub(const struct planview *v)
{
	return v->sub;
}

const char *planview_step_name(const struct planview *v, unsigned i)
{
	return i < v->plan->nsteps ? v->plan->steps[i].name : "";
}

const char *planview_step_kind(const struct planview *v, unsigned i)
{
	return i < v->plan->nsteps ? plan_step_kind_name(v->plan->steps[i].kind) : "";
}

const struct steady_params *planview_step_rule(const struct planview *v, unsigned i)
{
	return i < v->plan->nsteps ? &v->plan->steps[i].ss : NULL;
}

const struct plan *planview_plan(const struct planview *v)
{
	return v->plan;
}

int planview_step_dir_of(const struct planview *v, unsigned i, char *buf, size_t len)
{
	char sub[256];
	if (i >= v->plan->nsteps)
		return -EINVAL;
	planrun_step_dir(v->plan, i, sub, sizeof(sub));
	if (snprintf(buf, len, "%s/%s", v->dir, sub) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

const char *planview_step_dir(const struct planview *v)
{
	return v->step_dir;
}

const struct series *planview_series(const struct planview *v)
{
	return &v->ser;
}

const struct qdrow *planview_rows(const struct planview *v, int *n)
{
	*n = v->nrows;
	return v->rows;
}

/* rtable.c - reading results tables and JSON back (see rtable.h).  The
 * tables are the plan's own simple CSV (no quoting: fields are numbers or
 * one word), so a line split on commas is enough. */
#include "base/input.h"
#include "base/num.h"
#include "report/json.h"
#include "report/rtable.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#define MAX_COLS RTAB_MAX_COLS

void rtab_free(struct rtab *t)
{
	free(t->v);
	free(t->first);
	memset(t, 0, sizeof(*t));
}

/* The header line into t->cols; -EINVAL without one. */
static int read_header(struct rtab *t, const char *line)
{
	char *copy = strdup(line);
	if (!copy)
		return -ENOMEM;
	for (char *save = NULL, *c = strtok_r(copy, ",\r", &save); c && t->ncols < MAX_COLS;
	     c = strtok_r(NULL, ",\r", &save))
		snprintf(t->cols[t->ncols++], sizeof(t->cols[0]), "%s", c);
	free(copy);
	/* no header: rows would be empty (and realloc(v, 0) frees v) */
	return t->ncols ? 0 : -EINVAL;
}

static void parse_row(struct rtab *t, char *p)
{
	double *row = t->v + t->nrows * t->ncols;
	for (unsigned c = 0; c < t->ncols; c++) {
		const char *end = p;
		if (num_scan_double(p, &end, &row[c]))
			end = p; /* not a finite number: no value */
		if (c == 0) {
			size_t n = strcspn(p, ",\r");
			snprintf(t->first[t->nrows], 16, "%.*s", (int)(n < 15 ? n : 15), p);
		}
		if (end == p)
			row[c] = NAN;
		p += strcspn(p, ",\r");
		if (*p == ',')
			p++;
	}
	t->nrows++;
}

int rtab_read(const char *path, struct rtab *t)
{
	char msg[256], *line = NULL;
	size_t cap = 0, lcap = 0;
	long got;
	int rc = 0;
	memset(t, 0, sizeof(*t));
	/* docs/safety.md "Rule: hostile inputs": a regular file, lines read whole */
	FILE *f = input_fopen(path, RTAB_MAX_BYTES, "results table", msg, sizeof(msg));
	if (!f)
		return -errno;
	got = input_getline(f, &line, &lcap, RTAB_MAX_LINE, &t->line);
	rc = got < 0 ? (got == -1 ? -EINVAL : (int)got) : read_header(t, line);
	while (!rc && (got = input_getline(f, &line, &lcap, RTAB_MAX_LINE, &t->line)) >= 0) {
		if (!got || line[0] == '\r' || line[0] == '#')
			continue;
		if (t->nrows == cap) {
			cap = cap ? cap * 2 : 64;
			double *nv = realloc(t->v, cap * t->ncols * sizeof(double));
			if (!nv) {
				rc = -ENOMEM;
				break;
			}
			t->v = nv;
			char(*nf)[16] = realloc(t->first, cap * sizeof(*nf));
			if (!nf) {
				rc = -ENOMEM;
				break;
			}
			t->first = nf;
		}
		parse_row(t, line);
	}
	if (!rc && got < -1)
		rc = (int)got; /* -E2BIG: a line longer than RTAB_MAX_LINE (t->line) */
	free(line);
	fclose(f);
	return rc;
}

int rtab_col(const struct rtab *t, const char *name)
{
	for (unsigned c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c], name))
			return (int)c;
	return -1;
}

double rtab_get(const struct rtab *t, size_t row, const char *name)
{
	int c = rtab_col(t, name);
	return c < 0 || row >= t->nrows ? NAN : t->v[row * t->ncols + (unsigned)c];
}

/* Column @name of every row (malloc'ed, caller frees). */
double *rtab_column(const struct rtab *t, const char *name)
{
	double *out = calloc(t->nrows ? t->nrows : 1, sizeof(double));
	for (size_t i = 0; out && i < t->nrows; i++)
		out[i] = rtab_get(t, i, name);
	return out;
}

void *rtab_json(const char *dir, const char *sub, const char *name)
{
	char path[2048];
	snprintf(path, sizeof(path), "%s/%s%s%s", dir, sub ? sub : "", sub ? "/" : "", name);
	return json_read_file(path);
}

size_t rtab_distinct(const struct rtab *t, const char *col, double *v, size_t max)
{
	size_t n = 0;
	for (size_t r = 0; r < t->nrows; r++) {
		double x = rtab_get(t, r, col);
		bool seen = !isfinite(x);
		for (size_t i = 0; i < n && i < max && !seen; i++)
			seen = v[i] == x;
		for (size_t r2 = 0; r2 < r && !seen && n >= max; r2++)
			seen = rtab_get(t, r2, col) == x; /* past @max: counted once */
		if (seen)
			continue;
		if (n < max)
			v[n] = x;
		n++;
	}
	return n;
}

size_t rtab_find2(const struct rtab *t, const char *c1, double v1, const char *c2, double v2)
{
	size_t r = 0;
	while (r < t->nrows && !(rtab_get(t, r, c1) == v1 && rtab_get(t, r, c2) == v2))
		r++;
	return r;
}

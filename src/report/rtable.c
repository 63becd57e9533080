/* rtable.c - reading results tables and JSON back (see rtable.h).  The
 * tables are the plan's own simple CSV (no quoting: fields are numbers or
 * one word), so a line split on commas is enough. */
#include "base/num.h"
#include "report/json.h"
#include "report/rtable.h"

#include <errno.h>
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

int rtab_read(const char *path, struct rtab *t)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	size_t cap = 0;
	memset(t, 0, sizeof(*t));
	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -EINVAL;
	}
	for (char *save = NULL, *c = strtok_r(line, ",\n", &save); c && t->ncols < MAX_COLS;
	     c = strtok_r(NULL, ",\n", &save))
		snprintf(t->cols[t->ncols++], sizeof(t->cols[0]), "%s", c);
	if (!t->ncols) { /* no header: rows would be empty (and realloc(v, 0) frees v) */
		fclose(f);
		return -EINVAL;
	}
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '\n' || line[0] == '#')
			continue;
		if (t->nrows == cap) {
			cap = cap ? cap * 2 : 64;
			double *nv = realloc(t->v, cap * t->ncols * sizeof(double));
			if (!nv)
				break;
			t->v = nv;
			char(*nf)[16] = realloc(t->first, cap * sizeof(*nf));
			if (!nf)
				break;
			t->first = nf;
		}
		double *row = t->v + t->nrows * t->ncols;
		char *p = line;
		for (unsigned c = 0; c < t->ncols; c++) {
			const char *end = p;
			if (num_scan_double(p, &end, &row[c]))
				end = p; /* not a finite number: no value */
			if (c == 0) {
				size_t n = strcspn(p, ",\n");
				snprintf(t->first[t->nrows], 16, "%.*s", (int)(n < 15 ? n : 15), p);
			}
			if (end == p)
				row[c] = NAN;
			p += strcspn(p, ",\n");
			if (*p == ',')
				p++;
		}
		t->nrows++;
	}
	fclose(f);
	return 0;
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

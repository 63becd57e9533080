/* rtable.h - reading back what `nvscope plan` writes into a results
 * directory: its small CSV tables (qd.csv, rate.csv, grid.csv, matrix.csv,
 * rounds.csv: a header line, then numbers) and its JSON files.  Used by the
 * HTML report. */
#ifndef NVS_RTABLE_H
#define NVS_RTABLE_H

#include <stddef.h>

#define RTAB_MAX_COLS 24

/* A table: nrows x ncols numbers (a cell that is not a number reads as
 * NAN), plus the first column's text (the rate curve's "max"). */
struct rtab {
	unsigned ncols;
	char cols[RTAB_MAX_COLS][32];
	size_t nrows;
	double *v;	   /* nrows x ncols */
	char (*first)[16]; /* first column as text */
	unsigned line;	   /* lines read (on an error: the bad one) */
};

#define RTAB_MAX_BYTES (256u << 20) /* a table file: a bigger one is refused */
#define RTAB_MAX_LINE  8192u	    /* a longer line is refused (-E2BIG), not cut */

/* Reads CSV @path into @t (caller frees with rtab_free).  0, -errno when
 * it cannot be opened or is no regular file (base/input.h), -EINVAL when
 * it has no header, -E2BIG for a line longer than RTAB_MAX_LINE (t->line). */
int rtab_read(const char *path, struct rtab *t);
/* Frees and zeroes @t (safe on a zeroed table). */
void rtab_free(struct rtab *t);
/* Index of column @name, -1 when absent. */
int rtab_col(const struct rtab *t, const char *name);
/* Cell of column @name in @row; NAN when either is absent. */
double rtab_get(const struct rtab *t, size_t row, const char *name);
/* The distinct finite values of column @col in order of appearance, the
 * first @max of them into @v.  Returns how many there are: more than @max
 * means @v holds only some (the caller says so, never draws a cut grid). */
size_t rtab_distinct(const struct rtab *t, const char *col, double *v, size_t max);
/* The first row whose column @c1 is @v1 and @c2 is @v2, t->nrows if none. */
size_t rtab_find2(const struct rtab *t, const char *c1, double v1, const char *c2, double v2);
/* Column @name of every row, malloc'ed (caller frees); NULL out of memory. */
double *rtab_column(const struct rtab *t, const char *name);
/* Parses JSON file @dir/@sub/@name (@sub may be NULL).  Returns a cJSON *
 * (as void *, so this header needs no cJSON) the caller frees with
 * cJSON_Delete, or NULL when missing or not JSON. */
void *rtab_json(const char *dir, const char *sub, const char *name);

#endif

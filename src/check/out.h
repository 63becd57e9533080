/* out.h - a checked batch as a table (one row per serial), JSON (the
 * batch, or one drive) and CSV; layouts in docs/check.md. */
#ifndef NVS_CHECK_OUT_H
#define NVS_CHECK_OUT_H

#include <stdio.h>
#include "check/run.h"

/* The verdict table: serial, model, firmware, capacity, verdict, reasons. */
void check_print_table(const struct check_batch *b, FILE *f);
/* JSON of drive @d (a cJSON *, declared void *; caller frees). */
void *check_drive_json(const struct check_batch *b, const struct check_drive *d);
/* JSON of the batch: profile, drives[], counts.  @dir may be NULL. */
void *check_batch_json(const struct check_batch *b, const char *dir);
/* CSV: a header and one row per drive (@d NULL: every drive of @b). */
void check_write_csv(const struct check_batch *b, const struct check_drive *d, FILE *f);
/* @s as one CSV field: quoted, inner quotes doubled, a newline a blank
 * (the check CSVs' fields; `check --csv` over hosts writes the same). */
void check_csv_str(FILE *f, const char *s);
/* Counts of verdicts: [JUDGE_NA..JUDGE_FAIL]. */
void check_counts(const struct check_batch *b, unsigned counts[4]);

#endif

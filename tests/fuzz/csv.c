/* csv.c - fuzzes the samples CSV and the results tables: the input as one
 * line (csv_parse_numbers, csv_parse_point, the plan view's table rows) and
 * as a whole file (csv_read_series, rtab_read). */
#include <stdlib.h>
#include "fuzz.h"
#include "report/csv.h"
#include "report/rtable.h"
#include "run/planview.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double v[32];
	const char *rest;
	struct point p;
	struct resdir_row q;
	char err[512];

	if (size > 1 << 16)
		return -1;
	char *text = fuzz_text(data, size);
	csv_parse_numbers(text, v, 32, &rest);
	csv_parse_numbers(text, v, 1, NULL);
	csv_parse_point(text, -1, &p);
	csv_parse_point(text, 0.5, &p);
	resdir_row_parse(text, RESDIR_TABLE_QD, &q);
	resdir_row_parse(text, RESDIR_TABLE_RATE, &q);
	resdir_row_parse(text, RESDIR_TABLE_GRID, &q);
	free(text);

	const char *path = fuzz_file(data, size);
	struct series s = {0};
	if (!csv_read_series(path, &s, err, sizeof(err)))
		series_release(&s);
	struct rtab t;
	if (!rtab_read(path, &t)) {
		free(rtab_column(&t, "iops"));
		rtab_get(&t, 0, "qd");
		rtab_free(&t);
	}
	return 0;
}

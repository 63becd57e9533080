/* resdir.h - a check's results directory: docs/check.md has the layout. */
#ifndef NVS_CHECK_RESDIR_H
#define NVS_CHECK_RESDIR_H

#include <stdbool.h>
#include <stddef.h>
#include "check/run.h"

/* "results/check-PROFILE-YYYYmmdd-HHMMSS" for a check starting now. */
void check_default_dir(const char *profile, char *buf, size_t len);
/* mkdir -p.  0 or -errno (-ENAMETOOLONG for a path over 4095 bytes). */
int check_mkdirs(const char *path);
/* True when @path is absent or an empty directory. */
bool check_dir_empty(const char *path);
/* @dir/@name gets @text. */
void check_write_text(const char *dir, const char *name, const char *text);
/* @dir/@name gets cJSON tree @json (a cJSON *), printed. */
void check_write_json(const char *dir, const char *name, void *json);
/* meta.json: profile, drives, @status ("running", "done", "interrupted",
 * "failed"), @started and (when not running) the end time. */
void check_write_meta(const struct check_batch *b, const char *dir, const char *status,
		      double started);
/* summary.json (@batch, a cJSON * of check_batch_json), summary.csv,
 * SERIAL/verdict.json and SERIAL/verdict.csv; and @csv when not NULL. */
void check_write_results(const struct check_batch *b, const char *dir, const char *csv,
			 void *batch);

#endif

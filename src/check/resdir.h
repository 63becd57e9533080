/* resdir.h - a check's results directory: docs/check.md has the layout. */
#ifndef NVS_CHECK_RESDIR_H
#define NVS_CHECK_RESDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "check/run.h"

/* "results/check-PROFILE-YYYYmmdd-HHMMSS" for a check starting now.  0, or
 * -ENAMETOOLONG when it does not fit @len (never truncated). */
int check_default_dir(const char *profile, char *buf, size_t len);
/* Results directory @path through the safety module (safety_results_dir):
 * created with missing parents when @create, refused when it is a symlink,
 * not a directory or not the effective user's.  0 or -errno with @err. */
int check_results_dir(const char *path, bool create, char *err, size_t errlen);
/* True when @path is absent, an empty directory, or one holding only what a
 * check writes before its first state.json (.lock, VERSION, profile.ini: a
 * batch that never began, its first state having met a full filesystem). */
bool check_dir_empty(const char *path);
/* Makes message @msg of the safety module about file @name of @dir name the
 * whole path (unchanged when it already names @dir). */
void check_msg_in(const char *dir, const char *name, char *msg, size_t len);
/* The writers below write inside results directory @dir (checked again by
 * the safety module each time) and return 0, or -errno with @err naming the
 * file and why (a refusal is -EPERM).  JSON files are replaced atomically. */
/* @dir/@name gets @text. */
int check_write_text(const char *dir, const char *name, const char *text, char *err, size_t errlen);
/* @dir/@name gets cJSON tree @json (a cJSON *), printed (json_print). */
int check_write_json(const char *dir, const char *name, void *json, char *err, size_t errlen);
/* meta.json: profile, drives, @status ("running", "done", "interrupted",
 * "failed"), @started and (when not running) the end time. */
int check_write_meta(const struct check_batch *b, const char *dir, const char *status,
		     double started, char *err, size_t errlen);
/* summary.json (@batch, a cJSON * of check_batch_json), summary.csv,
 * SERIAL/verdict.json and SERIAL/verdict.csv (SERIAL created by the safety
 * module); and the batch CSV to @csv (opened by the caller with
 * safety_fopen_output) when not NULL.  Writes every file it can and returns
 * the first error. */
int check_write_results(const struct check_batch *b, const char *dir, FILE *csv, void *batch,
			char *err, size_t errlen);

#endif

/* preset.c - fuzzes job/preset files: preset_load on the input as a file
 * (bytes as they are: NUL, long lines, invalid UTF-8), each job validated;
 * the same file as a fio job file (preset_load_fio, fio's defaults) where
 * that reader is linked in, and as a drive-check profile
 * (check_profile_load: [check], [thresholds] with its numbers and rounds,
 * the jobs and their roles). */
#include <stdlib.h>
#include "check/profile.h"
#include "config/preset.h"
#include "fuzz.h"

/* Weak: the fio job-file entry point is not in every tree. */
int preset_load_fio(const char *path, const struct spec *base, struct spec **jobs,
		    unsigned *njobs, char *err, size_t errlen) __attribute__((weak));

static void load(int (*fn)(const char *, const struct spec *, struct spec **, unsigned *, char *,
			   size_t),
		 const char *path)
{
	struct spec base, *jobs = NULL;
	unsigned njobs = 0;
	char err[512];

	spec_init(&base);
	if (fn(path, &base, &jobs, &njobs, err, sizeof(err)))
		return;
	for (unsigned i = 0; i < njobs; i++) {
		spec_validate(&jobs[i], err, sizeof(err));
		spec_writes(&jobs[i]);
	}
	free(jobs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return -1;
	/* a real file in a private directory: a relative `include` (fio job
	 * files) stays inside it, not in /proc/self/fd with its pipes */
	static char path[512];
	if (!path[0])
		snprintf(path, sizeof(path), "%s/job.fio", fuzz_dir());
	fuzz_put("job.fio", data, size);
	load(preset_load, path);
	if (preset_load_fio)
		load(preset_load_fio, path);
	struct check_profile *prof = NULL;
	char err[512];
	if (!check_profile_load(path, &prof, err, sizeof(err))) {
		if (prof->njobs > JUDGE_MAX_JOBS)
			abort();
		(void)check_profile_writes(prof);
		check_profile_free(prof);
	}
	return 0;
}

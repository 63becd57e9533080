/* preset.c - fuzzes job/preset files: preset_load on the input as a file
 * (bytes as they are: NUL, long lines, invalid UTF-8), each job validated. */
#include <stdlib.h>
#include "config/preset.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spec base, *jobs = NULL;
	unsigned njobs = 0;
	char err[512];

	if (size > 1 << 16)
		return -1;
	spec_init(&base);
	if (!preset_load(fuzz_file(data, size), &base, &jobs, &njobs, err, sizeof(err))) {
		for (unsigned i = 0; i < njobs; i++) {
			spec_validate(&jobs[i], err, sizeof(err));
			spec_writes(&jobs[i]);
		}
		free(jobs);
	}
	return 0;
}

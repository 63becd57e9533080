/* cli.c - fuzzes command-line workload options: the input is argv (one
 * argument per line), taken with cli_take as `run` does, then turned into
 * jobs with cli_jobs.  --preset/--job are dropped before cli_jobs (they name
 * files; job files have their own target, preset). */
#include <string.h>
#include "config/cli.h"
#include "fuzz.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cli c;
	char *argv[MAX_ARGS + 1], err[512];
	int argc = 0;

	if (size > 1 << 14)
		return -1;
	char *text = fuzz_text(data, size), *p = text;
	while (argc < MAX_ARGS && *p) {
		argv[argc++] = p;
		p += strcspn(p, "\n");
		if (*p)
			*p++ = '\0';
	}
	argv[argc] = NULL;
	memset(&c, 0, sizeof(c));
	int bad = 0;
	for (int i = 0; i < argc;) {
		int rc = cli_take(&c, argc, argv, &i, err, sizeof(err));
		if (rc < 0) {
			bad = 1;
			break;
		}
		if (rc == 0)
			i++;
	}
	if (!bad) {
		struct spec *jobs = NULL;
		unsigned njobs = 0;
		c.preset = c.job = NULL;
		if (!cli_jobs(&c, &jobs, &njobs, err, sizeof(err)))
			free(jobs);
	}
	free(text);
	return 0;
}

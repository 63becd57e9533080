/* spec.c - fuzzes the workload options as every front end gives them to
 * opt_set: the input is lines of `key=value` (or a bare `flag`) applied to
 * one spec in order, then spec_validate; the first line is also given to
 * the size and time parsers on their own. */
#include <string.h>
#include "fuzz.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct spec s;
	char err[512], buf[64];
	uint64_t u;

	if (size > 1 << 14)
		return -1;
	char *text = fuzz_text(data, size);
	char *nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	if (!spec_parse_size(text, &u))
		spec_fmt_size(u, buf, sizeof(buf));
	spec_parse_time(text, &u);
	if (nl)
		*nl = '\n';

	spec_init(&s);
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		if (eq)
			*eq = '\0';
		opt_set(&s, line, eq ? eq + 1 : NULL, err, sizeof(err));
	}
	if (!spec_validate(&s, err, sizeof(err))) {
		spec_writes(&s);
		spec_rw_name(s.rw);
	}
	free(text);
	return 0;
}

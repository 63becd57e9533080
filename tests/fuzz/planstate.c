/* planstate.c - fuzzes a plan's state.json as `nvscope plan --resume DIR`
 * reads it (planrun_load). */
#include <stdlib.h>
#include <string.h>
#include "run/planrun.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct planrun r;
	char err[512];

	if (size > 1 << 16)
		return -1;
	fuzz_put("state.json", data, size);
	memset(&r, 0, sizeof(r));
	planrun_load(&r, fuzz_dir(), err, sizeof(err));
	free(r.st.values);
	return 0;
}

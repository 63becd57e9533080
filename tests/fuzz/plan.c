/* plan.c - fuzzes plan files: plan_parse on the input, without and with a
 * target in the base spec (every workload then goes through spec_validate);
 * a parsed plan then takes each command-line override with the input's
 * first line as the value. */
#include <string.h>
#include "config/plan.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = {"runtime", "ramp_time", "round", "max_rounds", "fill",
					   "iodepth", "window",	   "range", "slope",	  "bogus"};
	struct plan *p = NULL;
	struct spec base;
	char err[512], val[128];

	if (size > 1 << 16)
		return -1;
	char *text = fuzz_text(data, size);
	snprintf(val, sizeof(val), "%.*s", (int)strcspn(text, "\n"), text);
	if (!plan_parse(text, "fuzz.ini", NULL, &p, err, sizeof(err))) {
		for (unsigned i = 0; i < p->nsteps; i++) {
			plan_step_kind_name(p->steps[i].kind);
			plan_track_name(p->steps[i].track);
		}
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			plan_override(p, keys[k], val, err, sizeof(err));
		plan_free(p);
		p = NULL;
		spec_init(&base);
		snprintf(base.targets[0], sizeof(base.targets[0]), "/dev/nvs-fuzz-target");
		base.ntargets = 1;
		if (!plan_parse(text, "fuzz.ini", &base, &p, err, sizeof(err)))
			plan_free(p);
	}
	free(text);
	return 0;
}

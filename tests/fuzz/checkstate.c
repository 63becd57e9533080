/* checkstate.c - fuzzes what `nvscope check --resume DIR` reads: the input
 * is DIR/state.json (check_state_load, check_state_profile) against a fixed
 * profile with every kind of step (health, self-test, read, write/verify,
 * performance).  The findings are raw memory layout in hex: whatever the
 * file holds, strings must end inside their buffers and nothing outside
 * the drive array may be touched. */
#include <stdlib.h>
#include <string.h>
#include "check/profile.h"
#include "check/state.h"
#include "fuzz.h"

static const char profile[] = "[check]\n"
			      "description=fuzz\n"
			      "selftest=short\n"
			      "error_log=1\n"
			      "[thresholds]\n"
			      "critical_warning=1\n"
			      "[global]\n"
			      "ioengine=io_uring\n"
			      "direct=1\n"
			      "[read-surface]\n"
			      "rw=read\n"
			      "bs=1m\n"
			      "[verify-surface]\n"
			      "rw=write\n"
			      "bs=1m\n"
			      "[perf-4k-randread]\n"
			      "rw=randread\n"
			      "bs=4k\n"
			      "runtime=1\n"
			      "time_based\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct check_profile *prof;
	static struct check_drive d[4];
	char err[512], confirm[256], name[64], path[512];
	struct check_batch b;
	size_t n = 0;

	if (size > 1 << 16)
		return -1;
	if (!prof) {
		fuzz_put("profile.ini", (const uint8_t *)profile, sizeof(profile) - 1);
		snprintf(path, sizeof(path), "%s/profile.ini", fuzz_dir());
		if (check_profile_load(path, &prof, err, sizeof(err)))
			abort();
	}
	fuzz_put("state.json", data, size);
	memset(&b, 0, sizeof(b));
	b.prof = prof;
	check_state_profile(fuzz_dir(), name, sizeof(name));
	if (!check_state_load(&b, fuzz_dir(), d, 4, &n, confirm, sizeof(confirm), err,
			      sizeof(err))) {
		if (n > 4 || strnlen(confirm, sizeof(confirm)) == sizeof(confirm))
			abort();
		for (size_t i = 0; i < n; i++)
			if (strnlen(d[i].serial, sizeof(d[i].serial)) == sizeof(d[i].serial) ||
			    strnlen(d[i].path, sizeof(d[i].path)) == sizeof(d[i].path))
				abort();
	}
	return 0;
}

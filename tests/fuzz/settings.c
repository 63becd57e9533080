/* settings.c - fuzzes the console's settings.ini reader: settings_parse on
 * the input as bytes (NUL, long lines, junk), then a parsed file written
 * back with settings_format and read again: what was read must survive its
 * own round trip unchanged (the writer never writes what the reader
 * refuses). */
#include <string.h>
#include "fuzz.h"
#include "config/settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct settings s, r;
	char err[256];
	static char buf[SETTINGS_FILE_MAX];

	if (size > SETTINGS_FILE_MAX)
		return -1;
	if (settings_parse((const char *)data, size, &s, err, sizeof(err)))
		return 0;
	int n = settings_format(&s, buf, sizeof(buf));
	if (n < 0)
		return 0;
	if (settings_parse(buf, (size_t)n, &r, err, sizeof(err)))
		abort(); /* our own output refused */
	if (r.ntargets != s.ntargets || r.nform != s.nform || strcmp(r.theme, s.theme) ||
	    r.log != s.log || r.mbps != s.mbps || r.steady != s.steady)
		abort();
	return 0;
}

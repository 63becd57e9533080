/* specparse.c - the spec module's value parsers and names, shared by
 * spec.c's option table and every feature module's setter: sizes, times,
 * booleans as fio writes them, the rw names.  They call nothing else of
 * io/ (so no module that parses a value calls back into spec.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "base/num.h"
#include "io/opt/spec.h"

static const char *const rw_names[] = {
    [RW_READ] = "read",
    [RW_WRITE] = "write",
    [RW_RANDREAD] = "randread",
    [RW_RANDWRITE] = "randwrite",
    [RW_RW] = "rw",
    [RW_RANDRW] = "randrw",
    [RW_TRIM] = "trim",
    [RW_RANDTRIM] = "randtrim",
    [RW_TRIMWRITE] = "trimwrite",
    [RW_RANDTRIMWRITE] = "randtrimwrite",
};

const char *spec_rw_name(enum spec_rw rw)
{
	return (unsigned)rw < NVS_ARRAY_SIZE(rw_names) ? rw_names[rw] : "?";
}

int spec_rw_parse(const char *name)
{
	for (unsigned i = 0; i < NVS_ARRAY_SIZE(rw_names); i++)
		if (!strcmp(name, rw_names[i]))
			return (int)i;
	return -1;
}

int spec_parse_size(const char *str, uint64_t *out)
{
	/* fio's units with its default kb_base=1024: "4k" = "4kB" = 4096 */
	return num_parse_size(str, out) ? -EINVAL : 0;
}

int spec_parse_time(const char *str, uint64_t *out_ns)
{
	uint64_t ns;

	/* a bare number is seconds, as in fio; at most ~31 years */
	if (num_parse_time_ns(str, NVS_NSEC_PER_SEC, &ns) || ns > 1000000000000000000ULL)
		return -EINVAL;
	*out_ns = ns;
	return 0;
}

const char *spec_fmt_size(uint64_t b, char *buf, size_t len)
{
	static const char units[] = "kmgtp";
	int u = -1;

	while (b >= 1024 && b % 1024 == 0 && u < 4) {
		b /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)b);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)b, units[u]);
	return buf;
}

int spec_parse_bool(const char *v, bool *out)
{
	if (!v || !*v || !strcmp(v, "1") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") ||
	    !strcasecmp(v, "on"))
		*out = true;
	else if (!strcmp(v, "0") || !strcasecmp(v, "false") || !strcasecmp(v, "no") ||
		 !strcasecmp(v, "off"))
		*out = false;
	else
		return -EINVAL;
	return 0;
}

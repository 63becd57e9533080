/* opt.c - options as rows walked by one parser (opt.h). */
#include "io/opt.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "base/num.h"
#include "io/filesize.h"
#include "io/flow.h"
#include "io/lattarget.h"
#include "io/nvcmd.h"
#include "io/pagecache.h"
#include "io/speclog.h"
#include "io/zones.h"

static const struct opt_list lists[] = {
    {pagecache_opts, PAGECACHE_NOPTS}, {flow_opts, FLOW_NOPTS},	      {nvcmd_opts, NVCMD_NOPTS},
    {lattarget_opts, LATTARGET_NOPTS}, {speclog_opts, SPECLOG_NOPTS}, {zones_opts, ZONES_NOPTS},
    {filesize_opts, FILESIZE_NOPTS},
};

size_t opt_lists(const struct opt_list **out)
{
	*out = lists;
	return sizeof(lists) / sizeof(lists[0]);
}

static void store(struct spec *s, const struct opt_row *r, uint64_t x)
{
	unsigned char *p = (unsigned char *)s + r->off;
	uint8_t u8 = (uint8_t)x;
	uint16_t u16 = (uint16_t)x;
	uint32_t u32 = (uint32_t)x;

	switch (r->size) {
	case 1:
		memcpy(p, &u8, 1);
		break;
	case 2:
		memcpy(p, &u16, 2);
		break;
	case 4:
		memcpy(p, &u32, 4);
		break;
	default:
		memcpy(p, &x, 8);
		break;
	}
}

/* The value as the row's kind reads it: 0 and @x, or -EINVAL. */
static int parse(const struct opt_row *r, const char *v, uint64_t *x)
{
	bool b;
	unsigned u;
	double d;

	switch (r->kind) {
	case OPT_IGNORED:
		return 1;
	case OPT_BOOL:
		if (spec_parse_bool(v, &b))
			return -EINVAL;
		*x = (r->flags & OPT_INVERT) ? !b : b;
		return 0;
	case OPT_UINT:
		if (!v || num_parse_uint(v, r->min, r->max, &u))
			return -EINVAL;
		*x = (uint64_t)u * (r->scale ? r->scale : 1);
		return 0;
	case OPT_BOOL01:
		if (v && *v && strcmp(v, "1") && strcmp(v, "0"))
			return -EINVAL;
		*x = !v || strcmp(v, "0");
		return 0;
	case OPT_TIME:
		if (!v || num_parse_time_ns(v, r->unit_ns, x) || *x > r->max_ns)
			return -EINVAL;
		return 0;
	case OPT_DOUBLE:
		if (!v || num_parse_double(v, r->dmin, r->dmax, &d))
			return -EINVAL;
		memcpy(x, &d, sizeof(d));
		return 0;
	case OPT_SIZE:
		if (!v || spec_parse_size(v, x))
			return -EINVAL;
		return *x > r->max_ns ? -ERANGE : 0;
	case OPT_CUSTOM:
		return 1;
	case OPT_ENUM:
		for (unsigned i = 0; v && r->values[i]; i++)
			if (!strcmp(v, r->values[i])) {
				*x = i;
				return 0;
			}
		return -EINVAL;
	}
	return -EINVAL;
}

static const struct opt_row *find(const char *key)
{
	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++)
		for (size_t i = 0; i < lists[l].n; i++)
			if (!strcmp(key, lists[l].rows[i].name))
				return &lists[l].rows[i];
	return NULL;
}

int opt_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	const struct opt_row *r = find(key);
	uint64_t x = 0;

	if (!r)
		return -ENOENT;
	if (r->kind == OPT_CUSTOM)
		return r->set(s, r->name, v, err, errlen);
	int rc = parse(r, v, &x);
	if (rc == -ERANGE) /* OPT_SIZE over its maximum: stored all the same */
		store(s, r, x);
	if (rc < 0) {
		snprintf(err, errlen, "%s: '%s' is not %s", r->name, v ? v : "", r->what);
		return -EINVAL;
	}
	if (rc == 0)
		store(s, r, x);
	return 0;
}

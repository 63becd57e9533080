/* opt.c - options as rows walked by one parser (opt.h). */
#include "io/opt/opt.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/num.h"
#include "io/feat/fdp.h"
#include "io/feat/filesize.h"
#include "io/feat/flow.h"
#include "io/feat/lattarget.h"
#include "io/feat/nvcmd.h"
#include "io/feat/pagecache.h"
#include "io/feat/pi.h"
#include "io/feat/prio.h"
#include "io/trace/replay.h"
#include "io/opt/specdata.h"
#include "io/opt/speclog.h"
#include "io/opt/specss.h"
#include "io/opt/specval.h"
#include "io/feat/sprandom.h"
#include "io/feat/xrun.h"
#include "io/feat/zbd.h"
#include "io/feat/zones.h"

/* Every module's rows: the core options first (io/opt/spec.c), then each
 * feature's, then the names accepted for nothing and the refused ones.  A
 * name is in one row only (test_optfix.c's test_rows). */
static const struct opt_list lists[] = {
    {spec_opts, SPEC_NOPTS},
    {pagecache_opts, PAGECACHE_NOPTS},
    {flow_opts, FLOW_NOPTS},
    {nvcmd_opts, NVCMD_NOPTS},
    {lattarget_opts, LATTARGET_NOPTS},
    {speclog_opts, SPECLOG_NOPTS},
    {zones_opts, ZONES_NOPTS},
    {filesize_opts, FILESIZE_NOPTS},
    {replay_opts, REPLAY_NOPTS},
    {specdata_opts, SPECDATA_NOPTS},
    {prio_opts, PRIO_NOPTS},
    {pi_opts, PI_NOPTS},
    {xrun_opts, XRUN_NOPTS},
    {specss_opts, SPECSS_NOPTS},
    {zbd_opts, ZBD_NOPTS},
    {sprandom_opts, SPRANDOM_NOPTS},
    {fdp_opts, FDP_NOPTS},
    {spec_ignored_opts, SPEC_NIGNORED},
    {specval_refused_opts, SPECVAL_NREFUSED},
};
#define NLISTS (sizeof(lists) / sizeof(lists[0]))

size_t opt_lists(const struct opt_list **out)
{
	*out = lists;
	return NLISTS;
}

/* ---- the one table: every row, sorted by name once, found by bsearch ---- */

static const struct opt_row **sorted;
static size_t nsorted;
static pthread_once_t sort_once = PTHREAD_ONCE_INIT;

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct opt_row *const *)a)->name,
		      (*(const struct opt_row *const *)b)->name);
}

static void sort_rows(void)
{
	size_t n = 0;
	for (size_t l = 0; l < NLISTS; l++)
		n += lists[l].n;
	if (!(sorted = malloc(n * sizeof(*sorted))))
		return; /* opt_find then finds nothing: every option "unknown" */
	for (size_t l = 0; l < NLISTS; l++)
		for (size_t i = 0; i < lists[l].n; i++)
			sorted[nsorted++] = &lists[l].rows[i];
	qsort(sorted, nsorted, sizeof(*sorted), by_name);
}

const struct opt_row *opt_find(const char *key)
{
	struct opt_row k = {.name = key};
	const struct opt_row *kp = &k, **r;

	pthread_once(&sort_once, sort_rows);
	if (!sorted)
		return NULL;
	r = bsearch(&kp, sorted, nsorted, sizeof(*sorted), by_name);
	return r ? *r : NULL;
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
	case OPT_REFUSED:
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

int opt_set(struct spec *s, const char *key_in, const char *v, char *err, size_t errlen)
{
	char key[64];
	uint64_t x = 0;

	err[0] = '\0';
	if (snprintf(key, sizeof(key), "%s", key_in) >= (int)sizeof(key)) {
		snprintf(err, errlen, "unknown option '%.60s...'", key_in);
		return -ENOENT;
	}
	for (char *p = key; *p; p++) /* fio: '-' and '_' are the same */
		if (*p == '-')
			*p = '_';
	const struct opt_row *r = opt_find(key);
	if (!r) {
		snprintf(err, errlen, "unknown option '%s'", key_in);
		return -ENOENT;
	}
	if (r->kind == OPT_REFUSED) {
		snprintf(err, errlen, "%s: refused: %s", key_in, r->why);
		return -EINVAL;
	}
	if (r->kind == OPT_CUSTOM)
		return r->seti ? r->seti(s, r->name, key_in, v, err, errlen)
			       : r->set(s, r->name, v, err, errlen);
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

/* zones.c - fio's zonemode/zonesize/zonerange/zoneskip options (zones.h);
 * the offsets themselves are io/core/offgen.h's (offgen_zone). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "io/feat/zones.h"

static int zonemode_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	(void)key;
	if (v && !strcmp(v, "none"))
		s->zone_mode = SPEC_ZONE_NONE;
	else if (v && !strcmp(v, "strided"))
		s->zone_mode = SPEC_ZONE_STRIDED;
	else if (v && !strcmp(v, "zbd"))
		s->zone_mode = SPEC_ZONE_ZBD; /* io/feat/zbd.h */
	else
		return snprintf(err, errlen, "zonemode: '%s' is not none, strided or zbd",
				v ? v : ""),
		       -EINVAL;
	return 0;
}

/* spec_parse_size refuses NaN, infinities, negatives and overflow; a zone
 * count ("2z", fio's zbd form) is not a size either. */
#define ZONE_SIZE(n, f)                                                                            \
	{                                                                                          \
		.name = n, .kind = OPT_SIZE, OPT_FIELD(f), .max_ns = 1ull << 60,                   \
		.what = "a size (0..2^60 bytes)"                                                   \
	}

const struct opt_row zones_opts[ZONES_NOPTS] = {
    {.name = "zonemode", .kind = OPT_CUSTOM, .set = zonemode_set},
    ZONE_SIZE("zonesize", zone_size),
    ZONE_SIZE("zonerange", zone_range),
    ZONE_SIZE("zoneskip", zone_skip),
};

int zones_spec_validate(const struct spec *s, char *err, size_t errlen)
{
	/* fio 3.33's zonemode defaults to none: a zonesize alone is refused */
	if (s->zone_mode != SPEC_ZONE_STRIDED && s->zone_mode != SPEC_ZONE_ZBD && s->zone_size)
		return snprintf(err, errlen,
				"zonesize needs zonemode=strided or zbd (zonemode is none by "
				"default; fio 3.33 refuses it too)"),
		       -EINVAL;
	/* fio turns strided zones off when a job has several files open */
	if (s->zone_mode == SPEC_ZONE_STRIDED && s->fileset)
		return snprintf(err, errlen,
				"zonemode=strided with filename=a:b (several files in one job): "
				"fio 3.33 drops the zones there; refused"),
		       -EINVAL;
	if (s->zone_mode == SPEC_ZONE_STRIDED && !s->zone_size)
		return snprintf(err, errlen, "zonemode=strided needs a zonesize"), -EINVAL;
	if (s->zone_mode == SPEC_ZONE_ZBD)
		return 0; /* io/feat/zbd.c checks the rest */
	if (s->zone_size && (s->zone_size % 512 || s->zone_range % 512 || s->zone_skip % 512))
		return snprintf(err, errlen,
				"zonesize, zonerange and zoneskip must be multiples of 512 bytes "
				"(offsets stay aligned)"),
		       -EINVAL;
	return 0;
}

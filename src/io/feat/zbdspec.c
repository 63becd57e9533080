/* zbdspec.c - fio's zonemode=zbd options and their checks (io/feat/zbd.h):
 * max_open_zones, job_max_open_zones, zone_reset_threshold/frequency,
 * read_beyond_wp, ignore_zone_limits, zonecapacity, the "Nz" zone counts,
 * fio's zbd_verify_bs / init_zone_info checks and the zone rounding of a
 * writer's region, and zbd_probe (a zoned device's zone size).  The zones
 * themselves: zbd.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "base/num.h"
#include "io/core/target.h"
#include "io/feat/zbd.h"
#include "io/feat/zbdev.h"

#define ZBD_MAX_OPEN 4096 /* fio's ZBD_MAX_OPEN_ZONES */

/* read_beyond_wp= and ignore_zone_limits= (fio: only the device's max open
 * zones is ignored): booleans whose message says "bool" */
static int set_bool(bool *dst, const char *key, const char *v, char *err, size_t errlen)
{
	return spec_parse_bool(v, dst)
		   ? (snprintf(err, errlen, "%s: '%s' is not a bool", key, v), -EINVAL)
		   : 0;
}

static int set_beyond_wp(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	return set_bool(&s->read_beyond_wp, key, v, err, errlen);
}

static int set_no_limits(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	return set_bool(&s->ignore_zone_limits, key, v, err, errlen);
}

/* The options this module sets: a row each (io/opt/opt.h). */
#define OPEN_ZONES(n, f)                                                                           \
	{                                                                                          \
		.name = n, .kind = OPT_UINT, OPT_FIELD(f), .min = 0, .max = ZBD_MAX_OPEN,          \
		.what = "0..4096"                                                                  \
	}
#define FRACTION(n, f)                                                                             \
	{                                                                                          \
		.name = n, .kind = OPT_DOUBLE, OPT_FIELD(f), .dmin = 0.0, .dmax = 1.0,             \
		.what = "a fraction 0..1"                                                          \
	}
/* A row a line (tests/integration/option_table.sh reads them). */
/* clang-format off */
const struct opt_row zbd_opts[ZBD_NOPTS] = {
    {.name = "ignore_zone_limits", .kind = OPT_CUSTOM, .set = set_no_limits},
    OPEN_ZONES("job_max_open_zones", job_max_open_zones),
    OPEN_ZONES("max_open_zones", max_open_zones),
    {.name = "read_beyond_wp", .kind = OPT_CUSTOM, .set = set_beyond_wp},
    FRACTION("zone_reset_frequency", zone_reset_frequency),
    FRACTION("zone_reset_threshold", zone_reset_threshold),
    {.name = "zonecapacity", .kind = OPT_SIZE, OPT_FIELD(zone_capacity), .max_ns = 1ull << 60,
     .what = "a size"},
};
/* clang-format on */
#undef OPEN_ZONES
#undef FRACTION

bool zbd_spec_nz(const char *v, uint64_t *nz)
{
	size_t n = v ? strlen(v) : 0;
	char buf[32];

	if (n < 2 || n >= sizeof(buf) || (v[n - 1] != 'z' && v[n - 1] != 'Z'))
		return false;
	memcpy(buf, v, n - 1);
	buf[n - 1] = '\0';
	return !num_parse_u64(buf, 1, 1ull << 40, nz);
}

const char *zbd_spec_verify_why(const struct spec *s)
{
	if (s->zone_mode != SPEC_ZONE_ZBD || !s->verify)
		return NULL;
	if (s->verify_backlog)
		return "verify_backlog with zonemode=zbd is not implemented";
	if (s->loops > 1)
		return "verify with zonemode=zbd and loops is not implemented (fio reads back "
		       "and resets the zones after each loop)";
	if (s->time_based && s->zone_capacity && s->zone_capacity < s->zone_size)
		return "verify with zonemode=zbd, time_based and a zonecapacity below the "
		       "zonesize is not implemented (a pass never writes the whole region)";
	if (s->zone_reset_frequency > 0)
		return "verify with zone_reset_frequency: fio does not reset zones with "
		       "verify (it asserts)";
	if (s->verify_only && s->zone_capacity && s->zone_capacity < s->zone_size)
		return "verify_only with zonemode=zbd and a zonecapacity below the zonesize is "
		       "not implemented";
	return NULL;
}

int zbd_spec_validate(const struct spec *s, char *err, size_t errlen)
{
	bool nz = s->size_nz || s->offset_nz || s->io_size_nz;

	if (s->zone_mode != SPEC_ZONE_ZBD) {
		if (nz && !s->zone_size)
			return snprintf(err, errlen,
					"a size in zones (\"Nz\") needs zonemode and a zonesize"),
			       -EINVAL;
		if (s->max_open_zones || s->job_max_open_zones || s->zone_capacity ||
		    s->zone_reset_frequency > 0)
			return snprintf(err, errlen,
					"max_open_zones, job_max_open_zones, zonecapacity and "
					"zone_reset_* need zonemode=zbd"),
			       -EINVAL;
		return 0;
	}
	if (s->zone_skip)
		return snprintf(err, errlen, "zoneskip with zonemode=zbd is not implemented"),
		       -EINVAL;
	if (s->job_max_open_zones && !s->max_open_zones)
		return snprintf(err, errlen,
				"job_max_open_zones cannot be used without max_open_zones (as "
				"fio)"),
		       -EINVAL;
	if (s->fileset || s->stripe)
		return snprintf(err, errlen,
				"zonemode=zbd over several files (filename=a:b, stripe) is not "
				"implemented"),
		       -EINVAL;
	const char *vwhy = zbd_spec_verify_why(s);
	if (vwhy)
		return snprintf(err, errlen, "%s", vwhy), -EINVAL;
	if (s->replay.iolog[0])
		return snprintf(err, errlen,
				"read_iolog (trace replay) with zonemode=zbd is not implemented"),
		       -EINVAL;
	/* no zonesize: a zoned device gives it (zbd_probe validates again) */
	if (!s->zone_size)
		return s->zone_capacity
			   ? (snprintf(err, errlen, "zonecapacity needs a zonesize"), -EINVAL)
			   : 0;
	if (s->zone_size < 512 || s->zone_size % 512 || s->zone_capacity % 512)
		return snprintf(err, errlen,
				"zonesize and zonecapacity must be multiples of 512 bytes"),
		       -EINVAL;
	if (s->zone_capacity > s->zone_size)
		return snprintf(err, errlen, "zonecapacity %llu is larger than zonesize %llu",
				(unsigned long long)s->zone_capacity,
				(unsigned long long)s->zone_size),
		       -EINVAL;
	uint64_t cap = s->zone_capacity ? s->zone_capacity : s->zone_size;
	bool trims = s->rw == RW_TRIM || s->rw == RW_RANDTRIM || s->rw == RW_TRIMWRITE ||
		     s->rw == RW_RANDTRIMWRITE;
	for (unsigned i = 0; i < s->nbs; i++) {
		if (s->verify && s->zone_size % s->bs[i].bs) /* fio's zbd_verify_bs */
			return snprintf(err, errlen,
					"verify with zonemode=zbd: block size %u is not a divisor "
					"of the zone size %llu (as fio)",
					s->bs[i].bs, (unsigned long long)s->zone_size),
			       -EINVAL;
		if (s->bs[i].bs > s->zone_size)
			return snprintf(err, errlen, "block size %u exceeds the zone size %llu",
					s->bs[i].bs, (unsigned long long)s->zone_size),
			       -EINVAL;
		if (trims && (s->nbs > 1 || s->bs[i].bs != s->zone_size))
			return snprintf(err, errlen,
					"trims with zonemode=zbd reset zones: the block size "
					"must be the zonesize (as fio)"),
			       -EINVAL;
		if (s->bs[i].bs > cap)
			return snprintf(err, errlen, "block size %u exceeds the zone capacity %llu",
					s->bs[i].bs, (unsigned long long)cap),
			       -EINVAL;
	}
	if (trims && (s->bsrange[0][1] || s->bsrange[1][1]))
		return snprintf(err, errlen,
				"bsrange and bssplit are not allowed for trim with zonemode=zbd"),
		       -EINVAL;
	return 0;
}

void zbd_spec_resolve(struct spec *s)
{
	if (!s->zone_size)
		return;
	if (s->size_nz)
		s->size = s->size_nz * s->zone_size, s->size_pct = 0;
	if (s->offset_nz)
		s->offset = s->offset_nz * s->zone_size, s->offset_pct = 0;
	if (s->io_size_nz)
		s->io_size = s->io_size_nz * s->zone_size;
	s->size_nz = s->offset_nz = s->io_size_nz = 0;
}

int zbd_region(const struct spec *s, uint64_t *start, uint64_t *len, char *err, size_t errlen)
{
	uint64_t zs = s->zone_size, b = *start, e = *start + *len;

	if (s->zone_mode != SPEC_ZONE_ZBD || s->rw == RW_READ || s->rw == RW_RANDREAD)
		return 0;
	if (!zs) /* zbd_probe refuses it first */
		return snprintf(err, errlen, "zonemode=zbd needs a zonesize"), -EINVAL;
	b = (b + zs - 1) / zs * zs; /* fio: the offset up to a zone start */
	e = e / zs * zs;	    /* the end down to one */
	if (e <= b)
		return snprintf(err, errlen,
				"zonemode=zbd: the region holds no whole zone of %llu bytes (as "
				"fio: io_size must be at least one zone)",
				(unsigned long long)zs),
		       -EINVAL;
	*start = b;
	*len = e - b;
	return 0;
}

int zbd_probe(const struct target *t, struct spec *s, unsigned qd, char *err, size_t errlen)
{
	struct zbdev d;
	int rc = zbdev_probe(t, false, &d, err, errlen);

	if (rc)
		return rc;
	if (d.model == ZBDEV_NONE)
		return s->zone_size
			   ? 0
			   : (snprintf(err, errlen,
				       "%s: zonemode=zbd needs a zonesize on a device that is "
				       "not zoned (zones are emulated, as fio 3.33)",
				       t->path),
			      -EINVAL);
	/* fio: a zoned device's zones are its own (zonesize must match,
	 * zonecapacity is the device's) */
	if (s->zone_size && s->zone_size != d.zsize)
		return snprintf(err, errlen,
				"%s: zonesize %llu does not match the device's zone size %llu "
				"(as fio)",
				t->path, (unsigned long long)s->zone_size,
				(unsigned long long)d.zsize),
		       -EINVAL;
	if (s->verify && s->verify_only)
		return snprintf(err, errlen,
				"%s: verify_only with zonemode=zbd on a zoned device is not "
				"implemented (fio resets the zones first)",
				t->path),
		       -EINVAL;
	s->zone_size = d.zsize;
	s->zone_capacity = 0;
	/* fio holds a zone's lock from issue to completion: one write in
	 * flight per zone.  Here several may be, which the device (no I/O
	 * scheduler on passthrough; io_uring's batches on older kernels) can
	 * see out of order: refused rather than failed writes */
	if (spec_writes(s) && qd > 1)
		return snprintf(err, errlen,
				"%s: writes to a zoned device need iodepth=1 (fio allows one "
				"write in flight per zone; not implemented here%s)",
				t->path,
				d.kind == ZBDEV_NVME ? "; through io_uring_cmd no I/O scheduler "
						       "orders them either"
						     : ""),
		       -EINVAL;
	/* the same for several workers of one job: their claims in one zone
	 * could reach the device out of order */
	if (spec_writes(s) && s->numjobs > 1)
		return snprintf(err, errlen,
				"%s: writes to a zoned device from numjobs=%u workers at once are "
				"not implemented (fio serializes them with its zone locks)",
				t->path, s->numjobs),
		       -EINVAL;
	return zbd_spec_validate(s, err, errlen);
}

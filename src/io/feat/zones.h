/* zones.h - fio's zonemode=strided on a non-zoned target (fio's
 * setup_strided_zone_mode): the region is cut into zones of zonerange
 * bytes; a job does zonesize bytes of I/O in a zone (sequential or random
 * within [zone, zone + zonerange)), then moves zonerange + zoneskip on and
 * wraps to the region's start past its end.  zonemode=zbd: io/feat/zbd.h. */
#ifndef NVS_ZONES_H
#define NVS_ZONES_H

#include <stddef.h>
#include "io/opt/opt.h"
#include "io/opt/spec.h"

/* zonemode, zonesize, zonerange, zoneskip: rows of io/opt's table. */
#define ZONES_NOPTS 4
extern const struct opt_row zones_opts[ZONES_NOPTS];
/* fio's checks (init.c): zonesize without zonemode=strided, strided
 * without a zonesize;
 * sizes must keep offsets 512-aligned; strided with
 * filename=a:b is refused (fio drops the zones there).  0 or -EINVAL with @err. */
int zones_spec_validate(const struct spec *s, char *err, size_t errlen);

#endif

/* specss.h - fio's steady-state options (steadystate=/ss=,
 * steadystate_duration=/ss_dur=, steadystate_ramp_time=/ss_ramp=, fio
 * master's steadystate_check_interval=/ss_interval=) into the
 * spec; the detection itself is stats/fioss.c, run by run/runss.c. */
#ifndef NVS_SPECSS_H
#define NVS_SPECSS_H

#include <stddef.h>
#include "io/spec.h"

/* Sets @key (normalised: '_' for '-') to @v.  0, -EINVAL with @err, or
 * -ENOENT when @key is not one of these options (nothing written). */
int specss_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen);
/* fio master's rule for steadystate_check_interval: with a steady state
 * window, its length a multiple of the interval and longer than it.  0 or
 * -EINVAL with @err. */
int specss_validate(const struct spec *s, char *err, size_t errlen);

#endif

/* specss.h - fio's steady-state options (steadystate=/ss=,
 * steadystate_duration=/ss_dur=, steadystate_ramp_time=/ss_ramp=, fio
 * master's steadystate_check_interval=/ss_interval=) into the
 * spec; the detection itself is stats/fioss.c, run by run/runss.c. */
#ifndef NVS_SPECSS_H
#define NVS_SPECSS_H

#include <stddef.h>
#include "io/opt/spec.h"
#include "io/opt/opt.h"

/* fio's ss, ss_dur, ss_interval, ss_ramp, steadystate, steadystate_check_interval,
 * steadystate_duration, steadystate_ramp_time (the names in specss_opts): a row each in io/opt/opt.c's
 * one table. */
#define SPECSS_NOPTS 8
extern const struct opt_row specss_opts[SPECSS_NOPTS];
/* fio master's rule for steadystate_check_interval: with a steady state
 * window, its length a multiple of the interval and longer than it.  0 or
 * -EINVAL with @err. */
int specss_validate(const struct spec *s, char *err, size_t errlen);

#endif

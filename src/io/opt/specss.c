/* specss.c - fio's steady-state options, parsed as fio 3.33's options.c
 * does: steadystate=CRIT:LIMIT[%] (no default limit when the criterion is
 * given), durations in seconds by default, ss_dur truncated to whole
 * seconds (fio divides its microseconds by 10^6; 0 turns detection off);
 * fio master's lat / lat_slope criteria and steadystate_check_interval
 * (see stats/fioss.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "io/opt/specss.h"
#include "stats/fioss.h"

static int specss_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t ns;

	if (!strcmp(key, "steadystate") || !strcmp(key, "ss")) {
		if (fioss_parse(v, &s->ss_crit, &s->ss_limit)) {
			snprintf(
			    err, errlen,
			    "%s: '%s' is not iops, iops_slope, bw, bw_slope, lat or lat_slope, "
			    "':' and a limit (iops:2%%, iops_slope:0.1%%, bw:10m, lat:5%%)",
			    key, v ? v : "");
			return -EINVAL;
		}
		if ((s->ss_crit & FIOSS_LAT) && !(s->ss_crit & FIOSS_PCT)) {
			/* fio master compares the limit's microsecond count with a
			 * mean in ns (lat:100us stops at 100 ns): a latency limit
			 * taken as written would not be fio's, and fio's would not
			 * be what was written */
			snprintf(err, errlen,
				 "%s: '%s': refused: fio master reads an absolute latency limit's "
				 "microseconds as nanoseconds (lat:100us means 100 ns); give it in "
				 "percent (lat:5%%, lat_slope:0.1%%)",
				 key, v);
			return -EINVAL;
		}
		s->ss_given = true;
		return 0;
	}
	if (!strcmp(key, "steadystate_check_interval") || !strcmp(key, "ss_interval")) {
		/* fio master: a time in seconds by default, at least 1 s; nvscope
		 * bins whole seconds (fio's window count divides them too) */
		if (!v || spec_parse_time(v, &ns) || ns < 1000000000ULL || ns % 1000000000ULL ||
		    ns / 1000000000ULL > 100000000ULL) {
			snprintf(err, errlen,
				 "%s: '%s' is not a whole number of seconds >= 1 (10, 10s, 1m)",
				 key, v ? v : "");
			return -EINVAL;
		}
		s->ss_check_s = (unsigned)(ns / 1000000000ULL);
		return 0;
	}
	bool dur = !strcmp(key, "steadystate_duration") || !strcmp(key, "ss_dur");
	if (!dur && strcmp(key, "steadystate_ramp_time") && strcmp(key, "ss_ramp"))
		return -ENOENT;
	if (!v || spec_parse_time(v, &ns) || ns / 1000000000ULL > 100000000ULL) {
		snprintf(err, errlen, "%s: '%s' is not a duration (30, 30s, 1m)", key, v ? v : "");
		return -EINVAL;
	}
	if (dur)
		s->ss_dur_s = (unsigned)(ns / 1000000000ULL);
	else
		s->ss_ramp_ns = ns;
	return 0;
}

/* The options this module sets: a row each, the family's setter above
 * (io/opt/opt.h). */
const struct opt_row specss_opts[SPECSS_NOPTS] = {
    {.name = "ss", .kind = OPT_CUSTOM, .set = specss_set},
    {.name = "ss_dur", .kind = OPT_CUSTOM, .set = specss_set},
    {.name = "ss_interval", .kind = OPT_CUSTOM, .set = specss_set},
    {.name = "ss_ramp", .kind = OPT_CUSTOM, .set = specss_set},
    {.name = "steadystate", .kind = OPT_CUSTOM, .set = specss_set},
    {.name = "steadystate_check_interval", .kind = OPT_CUSTOM, .set = specss_set},
    {.name = "steadystate_duration", .kind = OPT_CUSTOM, .set = specss_set},
    {.name = "steadystate_ramp_time", .kind = OPT_CUSTOM, .set = specss_set},
};

int specss_validate(const struct spec *s, char *err, size_t errlen)
{
	if (s->ss_dur_s && s->ss_check_s > 1 &&
	    (s->ss_dur_s % s->ss_check_s || s->ss_dur_s <= s->ss_check_s)) {
		snprintf(err, errlen,
			 "steadystate_duration %us must be a multiple of "
			 "steadystate_check_interval %us, and longer (fio master refuses it too)",
			 s->ss_dur_s, s->ss_check_s);
		return -EINVAL;
	}
	return 0;
}

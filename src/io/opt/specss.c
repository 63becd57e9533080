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

/* steadystate=CRIT:LIMIT (ss=) */
static int set_crit(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	if (fioss_parse(v, &s->ss_crit, &s->ss_limit)) {
		snprintf(err, errlen,
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

/* steadystate_check_interval= (ss_interval=): fio master: a time in
 * seconds by default, at least 1 s; nvscope bins whole seconds (fio's
 * window count divides them too) */
static int set_interval(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t ns;

	if (!v || spec_parse_time(v, &ns) || ns < 1000000000ULL || ns % 1000000000ULL ||
	    ns / 1000000000ULL > 100000000ULL) {
		snprintf(err, errlen,
			 "%s: '%s' is not a whole number of seconds >= 1 (10, 10s, 1m)", key,
			 v ? v : "");
		return -EINVAL;
	}
	s->ss_check_s = (unsigned)(ns / 1000000000ULL);
	return 0;
}

/* A duration up to 10^8 s into @ns: 0, or -EINVAL worded. */
static int parse_dur(const char *key, const char *v, uint64_t *ns, char *err, size_t errlen)
{
	if (!v || spec_parse_time(v, ns) || *ns / 1000000000ULL > 100000000ULL) {
		snprintf(err, errlen, "%s: '%s' is not a duration (30, 30s, 1m)", key, v ? v : "");
		return -EINVAL;
	}
	return 0;
}

/* steadystate_duration= (ss_dur=): whole seconds */
static int set_dur(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t ns;
	int rc = parse_dur(key, v, &ns, err, errlen);

	if (!rc)
		s->ss_dur_s = (unsigned)(ns / 1000000000ULL);
	return rc;
}

/* steadystate_ramp_time= (ss_ramp=) */
static int set_ramp(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t ns;
	int rc = parse_dur(key, v, &ns, err, errlen);

	if (!rc)
		s->ss_ramp_ns = ns;
	return rc;
}

/* The options this module sets: a row each (io/opt/opt.h). */
#define ROW(n, fn)                                                                                 \
	{                                                                                          \
		.name = n, .kind = OPT_CUSTOM, .set = fn                                           \
	}
/* A row a line (tests/integration/option_table.sh reads them). */
/* clang-format off */
const struct opt_row specss_opts[SPECSS_NOPTS] = {
    ROW("ss", set_crit),
    ROW("ss_dur", set_dur),
    ROW("ss_interval", set_interval),
    ROW("ss_ramp", set_ramp),
    ROW("steadystate", set_crit),
    ROW("steadystate_check_interval", set_interval),
    ROW("steadystate_duration", set_dur),
    ROW("steadystate_ramp_time", set_ramp),
};
/* clang-format on */
#undef ROW

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

/* speclog.c - fio's log options (speclog.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "base/num.h"
#include "io/opt/speclog.h"

/* write_*_log=NAME: the log's name (a bare flag or 1: the job's name,
 * following a later name=; 0: no log) */
static int set_log(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	unsigned i = key[6] == 'i' ? 0 : key[6] == 'l' ? 1 : key[6] == 'b' ? 2 : 3;
	char *dst = i == 0 ? s->log_iops : i == 1 ? s->log_lat : i == 2 ? s->log_bw : s->log_hist;
	const char *name = v && *v ? v : s->name[0] ? s->name : "job";

	if (strlen(name) >= sizeof(s->log_iops)) {
		snprintf(err, errlen, "%s: name longer than %zu characters", key,
			 sizeof(s->log_iops) - 1);
		return -EINVAL;
	}
	if (!strcmp(name, "0") || !strcmp(name, "1")) { /* a bare flag set to a boolean */
		if (name[0] == '0') {
			dst[0] = '\0';
			return 0;
		}
		name = s->name[0] ? s->name : "job";
	}
	snprintf(dst, sizeof(s->log_iops), "%s", name);
	bool dflt = !(v && *v) || !strcmp(v, "1");
	s->log_jobname = (uint8_t)((s->log_jobname & ~(1u << i)) | (dflt ? 1u << i : 0));
	return 0;
}

/* name=: the logs named after the job follow it */
void speclog_rename(struct spec *s)
{
	char *log[] = {s->log_iops, s->log_lat, s->log_bw, s->log_hist};

	for (unsigned i = 0; i < 4; i++)
		if (s->log_jobname & (1u << i) && log[i][0])
			snprintf(log[i], sizeof(s->log_iops), "%s", s->name);
}

static int log_hist_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t u;

	(void)key;
	if (!v || num_parse_u64(v, 100, 60000, &u)) {
		snprintf(err, errlen, "log_hist_msec: '%s' is not 100..60000 ms", v ? v : "");
		return -EINVAL;
	}
	s->log_hist_ns = u * 1000000ULL;
	return 0;
}

/* fio 3.33: log_max_value=1 logs the window's maximum; 0 is its default. */
static int log_max_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	bool b;

	(void)s;
	if (spec_parse_bool(v, &b)) {
		snprintf(err, errlen, "%s: '%s' is not a boolean (0/1)", key, v ? v : "");
		return -EINVAL;
	}
	if (b) {
		snprintf(err, errlen,
			 "%s=1: refused: nvscope's log lines hold each interval's mean (no "
			 "per-interval maximum of slat, clat, IOPS or bandwidth is kept); 0, "
			 "fio's default, is accepted",
			 key);
		return -EINVAL;
	}
	return 0;
}

/* log_offset: windowed logs' offset column; fio writes 0 there
 * (report/fiolog.c). */
const struct opt_row speclog_opts[SPECLOG_NOPTS] = {
    {.name = "write_iops_log", .kind = OPT_CUSTOM, .set = set_log},
    {.name = "write_lat_log", .kind = OPT_CUSTOM, .set = set_log},
    {.name = "write_bw_log", .kind = OPT_CUSTOM, .set = set_log},
    {.name = "write_hist_log", .kind = OPT_CUSTOM, .set = set_log},
    {.name = "log_hist_msec", .kind = OPT_CUSTOM, .set = log_hist_set},
    {.name = "per_job_logs", .kind = OPT_BOOL, OPT_FIELD(per_job_logs), .what = "a boolean (0/1)"},
    {.name = "log_max_value", .kind = OPT_CUSTOM, .set = log_max_set},
    {.name = "log_offset", .kind = OPT_BOOL, OPT_FIELD(log_offset), .what = "a boolean (0/1)"},
};

/* speclog.c - fio's log options (speclog.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "base/num.h"
#include "io/speclog.h"

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

int speclog_spec_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t u;
	bool b;

	if (!strcmp(key, "write_iops_log") || !strcmp(key, "write_lat_log") ||
	    !strcmp(key, "write_bw_log") || !strcmp(key, "write_hist_log"))
		return set_log(s, key, v, err, errlen);
	if (!strcmp(key, "log_hist_msec")) {
		if (!v || num_parse_u64(v, 100, 60000, &u)) {
			snprintf(err, errlen, "log_hist_msec: '%s' is not 100..60000 ms",
				 v ? v : "");
			return -EINVAL;
		}
		s->log_hist_ns = u * 1000000ULL;
		return 0;
	}
	if (strcmp(key, "per_job_logs") && strcmp(key, "log_max_value") &&
	    strcmp(key, "log_offset"))
		return -ENOENT;
	if (spec_parse_bool(v, &b)) {
		snprintf(err, errlen, "%s: '%s' is not a boolean (0/1)", key, v ? v : "");
		return -EINVAL;
	}
	if (key[4] == 'j') {
		s->per_job_logs = b;
	} else if (key[4] == 'o') {
		/* windowed logs: fio writes 0 in the offset column (report/fiolog.c) */
		s->log_offset = b;
	} else if (b) { /* fio 3.33: log_max_value=1 logs the window's maximum */
		snprintf(err, errlen,
			 "%s=1: refused: nvscope's log lines hold each interval's mean (no "
			 "per-interval maximum of slat, clat, IOPS or bandwidth is kept); 0, "
			 "fio's default, is accepted",
			 key);
		return -EINVAL;
	}
	return 0;
}

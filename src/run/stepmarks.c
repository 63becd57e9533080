/* stepmarks.c - step markers for the strips (stepmarks.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/input.h"
#include "run/session.h"
#include "run/stepmarks.h"

int stepmarks_parse(const char *text, struct source_mark *m, int max)
{
	int n = 0, seen = 0;
	unsigned prev_qd = 0;
	for (const char *l = text; l && *l && n < max; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *st = strstr(l, " start step ");
		const char *nl = strchr(l, '\n');
		if (!st || (nl && st > nl))
			continue;
		char *end;
		double t = strtod(l, &end);
		if (end != st || !(t >= 0) || t > 1e9) /* NaN, negative, junk: no marker */
			continue;
		const char *q = strstr(st, " at QD ");
		unsigned long qd = 0;
		if (q && (!nl || q < nl)) {
			char *qe;
			errno = 0;
			qd = strtoul(q + 7, &qe, 10);
			if (errno || qe == q + 7 || qd > 65535)
				qd = 0;
		}
		if (seen++) {
			m[n].t = t;
			if (qd && qd != prev_qd)
				snprintf(m[n].label, sizeof(m[n].label), "QD%u",
					 (unsigned)qd % 100000);
			else
				snprintf(m[n].label, sizeof(m[n].label), "step %u",
					 (unsigned)seen % 100000);
			n++;
		}
		prev_qd = (unsigned)qd;
	}
	return n;
}

int stepmarks_read(const char *dir, struct source_mark *m, int max)
{
	char path[4200];
	if (snprintf(path, sizeof(path), "%s/" RESDIR_EVENTS, dir) >= (int)sizeof(path))
		return 0;
	/* a line per step and per note: 1 MiB is plenty; a regular file, a
	 * larger one is not read (docs/safety.md "Rule: hostile inputs") */
	char msg[256], *buf = NULL;
	size_t len;
	if (input_read_all(path, 1u << 20, "events log", &buf, &len, msg, sizeof(msg)))
		return 0;
	int n = stepmarks_parse(buf, m, max);
	free(buf);
	return n;
}

int stepmarks_ramps(const struct series *s, const struct resdir_row *rows, int nrows, bool pct,
		    struct source_mark *m, int max)
{
	int n = 0;
	for (size_t i = 1; i < s->n && n < max; i++) {
		if (!s->pt[i].ramp || s->pt[i - 1].ramp)
			continue;
		double t = s->pt[i].t - s->pt[i].dt;
		if (!(t >= 0) || t > 1e9)
			continue;
		m[n].t = t;
		int k = n + 1; /* the job this ramp begins (job 0 starts the step) */
		if (k < nrows && pct && rows[k].qd == 0)
			snprintf(m[n].label, sizeof(m[n].label), "max");
		else if (k < nrows)
			snprintf(m[n].label, sizeof(m[n].label), pct ? "%u%%" : "QD%u",
				 rows[k].qd % 100000);
		else
			snprintf(m[n].label, sizeof(m[n].label), "step %d", (k + 1) % 100000);
		n++;
	}
	return n;
}

int stepmarks_session(const struct session *s, struct source_mark *m, int max)
{
	int n = 0;
	unsigned ns = session_nsteps(s), cur = session_cur_step(s);
	for (unsigned i = 1; i < ns && i <= cur && n < max; i++) {
		const struct session_step *st = session_step(s, i);
		const struct session_step *pv = session_step(s, i - 1);
		if (!st || !pv || !(st->t0 > 0))
			continue;
		m[n].t = st->t0;
		if (st->iodepth != pv->iodepth || st->job == pv->job)
			snprintf(m[n].label, sizeof(m[n].label), "QD%u", st->iodepth % 100000);
		else
			snprintf(m[n].label, sizeof(m[n].label), "job %u", (st->job + 1) % 100000);
		n++;
	}
	return n;
}

/* dirread.c - health.csv, rounds.csv, steady.json and state.json read back
 * for the console's sources (dirread.h). */
#include "run/dirread.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/input.h"
#include "base/num.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/rtable.h"
#include "run/resdir.h"

static int push_health(struct source_health **pts, size_t *n, size_t *cap,
		       const struct source_health *p)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		struct source_health *np = realloc(*pts, nc * sizeof(*np));
		if (!np)
			return -ENOMEM;
		*pts = np;
		*cap = nc;
	}
	(*pts)[(*n)++] = *p;
	return 0;
}

/* One line "time_s,temp_c,throttle_events" (temp_c may be empty). */
static bool parse_health(const char *line, struct source_health *p)
{
	const char *end, *q = line;
	*p = (struct source_health){0, NAN, 0, 0};
	if (num_scan_double(q, &end, &p->t) || *end != ',')
		return false; /* the header, or a bad line */
	q = end + 1;
	if (*q != ',') {
		if (num_scan_double(q, &end, &p->temp_c))
			return false;
		q = end;
	}
	if (*q == ',' && num_scan_double(q + 1, &end, &p->throttle))
		p->throttle = 0;
	return true;
}

int dirread_health(const char *dir, struct source_health **pts, size_t *n)
{
	char path[4200], *line = NULL, msg[256];
	size_t lcap = 0, cap = 0;
	unsigned lineno = 0;
	int ret = 0;
	*pts = NULL;
	*n = 0;
	if (snprintf(path, sizeof(path), "%s/" RESDIR_HEALTH, dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	/* lines whole: a longer line ends the strip, never cut into two points */
	FILE *f = input_fopen(path, 64u << 20, "health CSV", msg, sizeof(msg));
	if (!f)
		return -ENOENT;
	while (!ret && input_getline(f, &line, &lcap, 256, &lineno) >= 0) {
		struct source_health p;
		if (parse_health(line, &p))
			ret = push_health(pts, n, &cap, &p);
	}
	free(line);
	fclose(f);
	return ret;
}

int dirread_rounds(const char *dir, struct rounds *out)
{
	char path[4200], msg[256], *line = NULL;
	size_t lcap = 0;
	unsigned lineno = 0;
	if (snprintf(path, sizeof(path), "%s/" RESDIR_ROUNDS, dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	/* a line over RTAB_MAX_LINE ends the rounds: never cut into a round */
	FILE *f = input_fopen(path, RTAB_MAX_BYTES, "rounds table", msg, sizeof(msg));
	if (!f)
		return -ENOENT;
	while (input_getline(f, &line, &lcap, RTAB_MAX_LINE, &lineno) >= 0) {
		double v[4];
		/* round,t_start_s,t_end_s,value,...; the header does not scan;
		 * finite numbers only (num_scan_double) */
		if (csv_parse_numbers(line, v, 4, NULL) == 4 && v[2] >= v[1])
			rounds_push(out, v[1], v[2], v[3]);
	}
	free(line);
	fclose(f);
	return 0;
}

bool dirread_rule(const char *dir, struct steady_params *p)
{
	char path[4200], msg[256], *buf = NULL;
	size_t n;
	bool ok = false;
	if (snprintf(path, sizeof(path), "%s/" RESDIR_STEADY, dir) >= (int)sizeof(path))
		return false;
	if (input_read_all(path, 64u << 10, "steady.json", &buf, &n, msg, sizeof(msg)))
		return false;
	cJSON *o = cJSON_Parse(buf);
	free(buf);
	const cJSON *rule = cJSON_GetObjectItemCaseSensitive(o, "rule");
	const cJSON *win = cJSON_GetObjectItemCaseSensitive(o, "window");
	const cJSON *rl = cJSON_GetObjectItemCaseSensitive(o, "range_limit_pct");
	const cJSON *sl = cJSON_GetObjectItemCaseSensitive(o, "slope_limit_pct");
	if (cJSON_IsString(rule) && !strcmp(rule->valuestring, "snia") && cJSON_IsNumber(win) &&
	    cJSON_IsNumber(rl) && cJSON_IsNumber(sl)) {
		struct steady_params q = *p;
		if (win->valuedouble >= 2 && win->valuedouble <= 1000)
			q.window = (unsigned)win->valuedouble;
		q.range_pct = rl->valuedouble;
		q.slope_pct = sl->valuedouble;
		if (!steady_params_check(&q)) {
			*p = q;
			ok = true;
		}
	}
	cJSON_Delete(o);
	return ok;
}

bool dirread_plan_finished(const char *dir)
{
	char path[4200], buf[4096], msg[256];
	if (snprintf(path, sizeof(path), "%s/" RESDIR_STATE, dir) >= (int)sizeof(path))
		return false;
	FILE *f = input_fopen(path, JSON_MAX_BYTES, "plan state", msg, sizeof(msg));
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	cJSON *o = cJSON_Parse(buf);
	bool fin = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "finished"));
	cJSON_Delete(o);
	return fin;
}

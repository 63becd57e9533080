/* steady.c - `nvscope steady FILE`: the SNIA steady-state rule (or a
 * fio-style criterion) applied to a saved series - nvscope's per-interval
 * CSV, a plan's rounds.csv, or a fio IOPS/BW log (write_iops_log: "msec,
 * value, ddir, bs[, off]").
 * Each value is one round, unless --round SECONDS averages the samples into
 * rounds of that length - cut by stats/rounds.c, the console's own cut.  Prints the verdict of
 * every window, or with
 * --json one object: {"attained", "round", "window_avg", "range_pct",
 * "slope_pct"} describing the first window that attains steady state (the
 * last window when none does; nulls when the series is too short). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nvscope.h"
#include "base/input.h"
#include "base/num.h"
#include "cmd/cmd.h"
#include "report/csv.h"
#include "report/rtable.h"
#include "stats/rounds.h"
#include "stats/steady.h"

enum metric { M_IOPS, M_READ_IOPS, M_WRITE_IOPS, M_BW };

/* docs/safety.md "Rule: hostile inputs": a fio log is a regular file of at
 * most STEADY_MAX_BYTES, its lines at most STEADY_MAX_LINE bytes (longer
 * ones are refused with their number, never cut into two samples). */
#define STEADY_MAX_BYTES (256u << 20)
#define STEADY_MAX_LINE	 4096u

struct raw {
	double *t, *dt, *v; /* sample end time (s), length (s) and value */
	size_t n, cap;
};

/* @dt < 0: not known (fio logs, rounds.csv): the spacing from the previous
 * sample's end (from 0 for the first). */
static int raw_push(struct raw *r, double t, double dt, double v)
{
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		double *nt = realloc(r->t, cap * sizeof(double));
		if (!nt)
			return -ENOMEM;
		r->t = nt;
		double *nd = realloc(r->dt, cap * sizeof(double));
		if (!nd)
			return -ENOMEM;
		r->dt = nd;
		double *nv = realloc(r->v, cap * sizeof(double));
		if (!nv)
			return -ENOMEM;
		r->v = nv;
		r->cap = cap;
	}
	if (dt < 0)
		dt = r->n ? t - r->t[r->n - 1] : t;
	r->t[r->n] = t;
	r->dt[r->n] = dt;
	r->v[r->n++] = v;
	return 0;
}

/* fio log: "msec, value, ddir, bs[, offset]"; lines of the same msec (one
 * per direction) are summed unless @ddir selects one. */
static int read_fio_log(const char *path, FILE *f, int ddir, struct raw *r, char *err,
			size_t errlen)
{
	char *line = NULL;
	size_t lcap = 0;
	unsigned ln = 0;
	double last_t = -1;
	long got;
	int rc = 0;
	while ((got = input_getline(f, &line, &lcap, STEADY_MAX_LINE, &ln)) >= 0) {
		if (strlen(line) != (size_t)got) {
			snprintf(err, errlen, "%s:%u: NUL byte (a fio log is text)", path, ln);
			rc = -EINVAL;
			goto out;
		}
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '\r' || *p == '#')
			continue;
		double ms, val;
		uint64_t dd = 0;
		const char *end;
		if (num_scan_double(p, &end, &ms) || *end != ',')
			goto bad;
		p = (char *)end + 1 + strspn(end + 1, " \t");
		if (num_scan_double(p, &end, &val) ||
		    (*end != ',' && *end != '\n' && *end != '\r' && *end != '\0'))
			goto bad;
		if (*end == ',') {
			p = (char *)end + 1 + strspn(end + 1, " \t");
			if (num_scan_u64(p, &end, &dd))
				goto bad;
		}
		if (ms < 0 || val < 0)
			goto bad;
		if (ddir >= 0 && dd != (uint64_t)ddir)
			continue;
		double t = ms / 1000.0;
		if (r->n && t == last_t) {
			r->v[r->n - 1] += val;
			continue;
		}
		if (raw_push(r, t, -1, val)) {
			snprintf(err, errlen, "%s: out of memory", path);
			rc = -ENOMEM;
			goto out;
		}
		last_t = t;
	}
	if (got != -1) {
		input_line_err(got, path, ln, STEADY_MAX_LINE, err, errlen);
		rc = got == -ENOMEM ? -ENOMEM : -EINVAL;
		goto out;
	}
	if (!r->n) {
		snprintf(err, errlen, "%s: no samples%s", path, ddir >= 0 ? " of that ddir" : "");
		rc = -EINVAL;
	}
	goto out;
bad:
	snprintf(err, errlen, "%s:%u: not a fio log line (msec, value, ddir, bs[, offset])", path,
		 ln);
	rc = -EINVAL;
out:
	free(line);
	return rc;
}

static int read_nvscope_csv(const char *path, enum metric m, struct raw *r, char *err,
			    size_t errlen)
{
	struct series s = {0};
	int rc = csv_read_series(path, &s, err, errlen);
	if (rc)
		return rc;
	for (size_t i = 0; i < s.n && !rc; i++) {
		const struct point *p = &s.pt[i];
		if (p->ramp)
			continue;
		double v = m == M_READ_IOPS    ? p->iops[NVS_READ]
			   : m == M_WRITE_IOPS ? p->iops[NVS_WRITE]
			   : m == M_BW	       ? point_bw(p) / 1e6
					       : point_iops(p);
		rc = raw_push(r, p->t, p->dt, v);
	}
	series_release(&s);
	if (rc) {
		snprintf(err, errlen, "%s: out of memory", path);
		return rc;
	}
	if (!r->n) {
		snprintf(err, errlen, "%s: no measured intervals", path);
		return -EINVAL;
	}
	return 0;
}

/* A plan's rounds.csv (precondition or matrix step): one round per row,
 * its tracked "value" column, time = the round's end. */
static int read_rounds(const char *path, struct raw *r, char *err, size_t errlen)
{
	struct rtab t;
	int rc = rtab_read(path, &t);
	if (rc == -E2BIG || rc == -ENOMEM) {
		input_line_err(rc, path, t.line, RTAB_MAX_LINE, err, errlen);
		rtab_free(&t);
		return -EINVAL;
	}
	if (rc || rtab_col(&t, "value") < 0 || !t.nrows) {
		snprintf(err, errlen, "%s: not a plan rounds.csv with a value column", path);
		rtab_free(&t);
		return -EINVAL;
	}
	for (size_t i = 0; i < t.nrows && !rc; i++) {
		double v = rtab_get(&t, i, "value"), te = rtab_get(&t, i, "t_end_s");
		if (!isfinite(v)) {
			snprintf(err, errlen, "%s:%zu: no value", path, i + 2);
			rc = -EINVAL;
			break;
		}
		rc = raw_push(r, isfinite(te) ? te : (double)(i + 1), -1, v);
	}
	rtab_free(&t);
	return rc;
}

/* Averages samples into rounds of @len seconds, the console's way
 * (stats/rounds.h: by interval midpoint, time-weighted, complete rounds
 * only).  The values go to *@out (malloc'd), their count to *@n. */
static int make_rounds(const struct raw *r, double len, double **out, size_t *n)
{
	struct rounds rd = {0};
	double tmax = r->t[r->n - 1];
	uint64_t nr64;
	/* a hostile series or --round must not make the count undefined or huge */
	if (num_to_u64(ceil(tmax / len - 1e-9), 100000000, &nr64))
		return -ERANGE;
	int ret = rounds_build_values(r->t, r->dt, r->v, r->n, 0, len, &rd);
	if (ret < 0) {
		rounds_release(&rd);
		return ret;
	}
	*out = rd.v;
	*n = rd.n;
	free(rd.t0);
	free(rd.t1);
	return 0;
}

static void json_num(const char *key, double v, bool valid, bool last)
{
	/* JSON has no NaN or infinity: a value that is not finite is null */
	if (valid && isfinite(v))
		printf("\"%s\": %.10g%s", key, v, last ? "" : ", ");
	else
		printf("\"%s\": null%s", key, last ? "" : ", ");
}

enum {
	O_WINDOW = 'w',
	O_RANGE = 'r',
	O_SLOPE = 's',
	O_ROUND = 'R',
	O_JSON = 'j',
	O_SS = 'S',
	O_METRIC = 'm',
	O_DDIR = 'd'
};

static const struct cmd_opt opts[] = {
    {{"window", required_argument, NULL, O_WINDOW}, 'w', "N", "rounds in the window (5)"},
    {{"range", required_argument, NULL, O_RANGE},
     'r',
     "PCT",
     "max-min of the window within PCT% of its average (20)"},
    {{"slope", required_argument, NULL, O_SLOPE},
     's',
     "PCT",
     "the least-squares line moves within PCT% of the\naverage across the window (10)"},
    {{"round", required_argument, NULL, O_ROUND},
     'R',
     "SECONDS",
     "average the samples into rounds of this length\n(the console's cut); default: one value a "
     "round"},
    {{"ss", required_argument, NULL, O_SS},
     'S',
     "iops:X%|iops_slope:X%",
     "fio's steady-state criterion instead (also bw:, bw_slope:)"},
    {{"metric", required_argument, NULL, O_METRIC},
     'm',
     "iops|read_iops|write_iops|bw",
     "the value of nvscope's CSV that is judged (iops)"},
    {{"ddir", required_argument, NULL, O_DDIR},
     'd',
     "0|1|2",
     "a fio log's direction (read, write, trim); default: their sum"},
    {{"json", no_argument, NULL, O_JSON},
     'j',
     NULL,
     "one object: {\"attained\", \"round\", \"window_avg\",\n"
     "\"range_pct\", \"slope_pct\"} of the first steady window"},
    {{NULL, 0, NULL, 0}, 0, NULL, NULL},
};

/* What the command line asks: the rule, the rounds, the output, which
 * value of the file. */
struct steady_args {
	struct steady_params p;
	double round_s; /* --round: rounds of this length; 0: one per value */
	bool json;
	enum metric metric;
	int ddir; /* a fio log's direction, -1: their sum */
};

/* --metric @v into *@m.  0 or -EINVAL (said). */
static int parse_metric(const char *v, enum metric *m)
{
	if (!strcmp(v, "iops"))
		*m = M_IOPS;
	else if (!strcmp(v, "read_iops"))
		*m = M_READ_IOPS;
	else if (!strcmp(v, "write_iops"))
		*m = M_WRITE_IOPS;
	else if (!strcmp(v, "bw"))
		*m = M_BW;
	else {
		fprintf(stderr,
			"nvscope steady: --metric: '%s' is not iops, "
			"read_iops, write_iops or bw\n",
			v);
		return -EINVAL;
	}
	return 0;
}

/* --ddir @v into *@ddir.  0 or -EINVAL (said). */
static int parse_ddir(const char *v, int *ddir)
{
	if (!strcmp(v, "0") || !strcmp(v, "read"))
		*ddir = 0;
	else if (!strcmp(v, "1") || !strcmp(v, "write"))
		*ddir = 1;
	else if (!strcmp(v, "2") || !strcmp(v, "trim"))
		*ddir = 2;
	else {
		fprintf(stderr, "nvscope steady: --ddir: '%s' is not 0, 1 or 2\n", v);
		return -EINVAL;
	}
	return 0;
}

/* The options into @sa.  0 or -EINVAL (said). */
static int parse_opts(struct steady_args *sa, const struct cmd_args *a)
{
	for (unsigned i = 0; i < a->nopt; i++) {
		const char *v = a->opt[i].val;
		int c = a->opt[i].id;
		double d;
		switch (c) {
		case O_WINDOW:
			if (num_parse_uint(v, 2, 100000, &sa->p.window)) {
				fprintf(stderr,
					"nvscope steady: --window: '%s' is not a count >= 2\n", v);
				return -EINVAL;
			}
			break;
		case O_RANGE:
		case O_SLOPE:
			if (steady_parse_tolerance(v, &d)) {
				fprintf(stderr, "nvscope steady: --%s: '%s' is not a percentage\n",
					c == O_RANGE ? "range" : "slope", v);
				return -EINVAL;
			}
			*(c == O_RANGE ? &sa->p.range_pct : &sa->p.slope_pct) = d;
			break;
		case O_ROUND: {
			uint64_t ns;
			if (num_parse_time_ns(v, 1000000000ULL, &ns) || !ns ||
			    ns > 1000000000ULL * 1000000000ULL) {
				fprintf(stderr,
					"nvscope steady: --round: '%s' is not a duration > 0\n", v);
				return -EINVAL;
			}
			sa->round_s = (double)ns / 1e9;
			break;
		}
		case O_JSON:
			sa->json = true;
			break;
		case O_SS:
			if (steady_parse_fio(v, &sa->p)) {
				fprintf(stderr,
					"nvscope steady: --ss: '%s' is not iops:X[%%], "
					"iops_slope:X[%%], "
					"bw:X[%%] or bw_slope:X[%%]\n",
					v);
				return -EINVAL;
			}
			if (sa->p.metric == STEADY_BW)
				sa->metric = M_BW;
			break;
		case O_METRIC:
			if (parse_metric(v, &sa->metric))
				return -EINVAL;
			break;
		case O_DDIR:
			if (parse_ddir(v, &sa->ddir))
				return -EINVAL;
			break;
		}
	}
	return 0;
}

/* The series of file @path into @raw, in the format its first line that
 * is not blank or a comment tells: nvscope's CSV, a plan's rounds.csv or a
 * fio log.  0 or -errno with @err. */
static int read_series(const char *path, const struct steady_args *sa, struct raw *raw, char *err,
		       size_t errlen)
{
	FILE *f = input_fopen(path, STEADY_MAX_BYTES, "steady input", err, errlen);
	char *first = NULL;
	size_t fcap = 0;
	unsigned fln = 0;
	long got;
	int r;

	if (!f)
		return -EINVAL;
	while ((got = input_getline(f, &first, &fcap, STEADY_MAX_LINE, &fln)) >= 0 &&
	       (!got || first[0] == '#'))
		;
	if (got < -1) {
		input_line_err(got, path, fln, STEADY_MAX_LINE, err, errlen);
		fclose(f);
		r = -EINVAL;
	} else if (got >= 0 && !strncmp(first, "time_s", 6)) {
		fclose(f);
		r = read_nvscope_csv(path, sa->metric, raw, err, errlen);
	} else if (got >= 0 && !strncmp(first, "round,", 6)) {
		fclose(f);
		r = read_rounds(path, raw, err, errlen);
	} else {
		rewind(f);
		r = read_fio_log(path, f, sa->ddir, raw, err, errlen);
		fclose(f);
	}
	free(first);
	return r;
}

/* --json: the first window that attains steady state (at, 1-based), or
 * the last (@shown). */
static void print_json(const struct steady_params *p, size_t at, const struct steady_verdict *shown)
{
	printf("{\"attained\": %s, ", at ? "true" : "false");
	if (at)
		printf("\"round\": %zu, ", at);
	else
		printf("\"round\": null, ");
	json_num("window_avg", shown->avg, shown->valid, false);
	json_num("range_pct", shown->range_pct,
		 shown->valid && shown->pct_valid && p->rule != STEADY_FIO_SLOPE, false);
	json_num("slope_pct", shown->slope_pct,
		 shown->valid && shown->pct_valid && p->rule != STEADY_FIO_DEV, true);
	printf("}\n");
}

/* The verdict of every window of rounds @vals[@nv], the first steady one
 * (@at, 1-based, 0: none) marked, and a closing line. */
static void print_table(const struct steady_args *sa, const double *vals, size_t nv, size_t at)
{
	const struct steady_params *p = &sa->p;
	const char *rule = p->rule == STEADY_SNIA      ? "SNIA PTS"
			   : p->rule == STEADY_FIO_DEV ? "fio deviation"
						       : "fio slope";

	printf("%s rule, window %u rounds, %zu rounds%s", rule, p->window, nv,
	       sa->round_s > 0 ? "" : " (one per value)\n");
	if (sa->round_s > 0)
		printf(" of %g s\n", sa->round_s);
	printf("%6s %14s %9s %9s  %s\n", "round", "window_avg", "range_%", "slope_%", "verdict");
	for (size_t k = p->window; k <= nv; k++) {
		struct steady_verdict v;
		steady_eval(vals, k, p, &v);
		char rp[32] = "-", sp[32] = "-";
		if (v.pct_valid) {
			snprintf(rp, sizeof(rp), "%.2f", v.range_pct);
			snprintf(sp, sizeof(sp), "%.2f", v.slope_pct);
		}
		printf("%6zu %14.1f %9s %9s  %s%s%s\n", k, v.avg, rp, sp,
		       v.attained ? "steady" : "not steady",
		       v.attained ? ""
				  : (!v.range_ok && !v.slope_ok ? " (range, slope)"
				     : !v.range_ok		? " (range)"
								: " (slope)"),
		       k == at ? "  <- first" : "");
	}
	if (at && sa->round_s > 0)
		printf("steady state attained at round %zu (%.0f s)\n", at,
		       (double)at * sa->round_s);
	else if (at)
		printf("steady state attained at round %zu\n", at);
	else if (nv < p->window)
		printf("not attained: %zu rounds, the window needs %u\n", nv, p->window);
	else
		printf("not attained in %zu rounds\n", nv);
}

static int exec_steady(const struct cmd_entry *self, struct cmd_args *a)
{
	struct steady_args sa = {.metric = M_IOPS, .ddir = -1};
	char err[512];
	struct raw raw = {0};
	double *vals = NULL;
	size_t nv = 0;
	int rc = NVS_EXIT_USAGE;

	steady_params_init(&sa.p);
	if (parse_opts(&sa, a))
		return NVS_EXIT_USAGE;
	if (a->npos != 1) {
		cmd_help(stderr, self);
		return NVS_EXIT_USAGE;
	}
	if (read_series(a->pos[0], &sa, &raw, err, sizeof(err))) {
		fprintf(stderr, "nvscope steady: %s\n", err);
		goto out_raw;
	}
	if (sa.round_s > 0) {
		int e = make_rounds(&raw, sa.round_s, &vals, &nv);
		if (e) {
			fprintf(stderr, "nvscope steady: %s\n",
				e == -ERANGE ? "--round: more than 100 million rounds"
					     : "out of memory");
			goto out_raw;
		}
	} else {
		vals = raw.v;
		nv = raw.n;
		raw.v = NULL;
	}
	struct steady_verdict firstv, lastv;
	size_t at = steady_scan(vals, nv, &sa.p, &firstv, &lastv);
	if (sa.json)
		print_json(&sa.p, at, at ? &firstv : &lastv);
	else
		print_table(&sa, vals, nv, at);
	rc = NVS_EXIT_OK;
	free(vals);
out_raw:
	free(raw.t);
	free(raw.dt);
	free(raw.v);
	return rc;
}

const struct cmd_entry cmd_steady_entry = {
    .name = "steady",
    .summary = "apply the SNIA steady-state rule to a saved series",
    .usage = "steady FILE [--window N] [--range PCT] [--slope PCT]\n"
	     "      [--round SECONDS] [--ss iops:X%|iops_slope:X%]\n"
	     "      [--metric iops|read_iops|write_iops|bw] [--ddir 0|1|2] [--json]",
    .text = "FILE is nvscope's per-interval CSV (--csv, samples.csv), a plan's rounds.csv\n"
	    "or a fio write_iops_log/write_bw_log file.  SNIA rule: steady when over the\n"
	    "last N rounds max-min <= PCT% of the average and the least-squares line\n"
	    "moves <= PCT% of the average across the window.",
    .opts = opts,
    .exec = exec_steady,
};

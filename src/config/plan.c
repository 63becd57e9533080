/* plan.c - parsing test plans (see plan.h and docs/plans.md).
 *
 * inih does the INI syntax.  It is driven through ini_parse_stream() with our
 * own line reader over the plan text, so that (1) every key knows its line
 * number for "file:line:" messages, (2) sections with no keys ("[purge]"
 * alone is a valid step) are seen, in file order, and (3) over-long lines
 * are refused rather than silently split.  Parsing is two-phase: collect the
 * sections and their key/value pairs, then build the steps in order with the
 * documented precedence. */
#include "config/datadir.h"
#include "config/plan.h"
#include "base/num.h"

#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct kv {
	char *key, *val;
	unsigned line;
};

struct section {
	char name[64];
	unsigned line;
	struct kv *kv;
	unsigned nkv, cap;
};

struct parse {
	const char *fname;
	const char *pos; /* reader position in the text */
	unsigned line;	 /* line last handed to inih */
	bool too_long;
	unsigned too_long_line;
	struct section *sec;
	unsigned nsec, cap;
	int err_line; /* first handler error (0 none) */
	char err[256];
};

static const char *const kind_names[] = {
    [STEP_PURGE] = "purge",
    [STEP_FILL] = "fill",
    [STEP_PRECONDITION] = "precondition",
    [STEP_MEASURE] = "measure",
    [STEP_RATE_CURVE] = "rate-curve",
    [STEP_GRID] = "grid",
    [STEP_MATRIX] = "matrix",
};

static const char *const track_names[] = {
    [TRACK_IOPS] = "iops",
    [TRACK_READ_IOPS] = "read_iops",
    [TRACK_WRITE_IOPS] = "write_iops",
    [TRACK_BW] = "bw",
};

const char *plan_step_kind_name(enum plan_step_kind k)
{
	return (unsigned)k < sizeof(kind_names) / sizeof(kind_names[0]) ? kind_names[k] : "?";
}

const char *plan_track_name(enum plan_track t)
{
	return (unsigned)t < sizeof(track_names) / sizeof(track_names[0]) ? track_names[t] : "?";
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		s[--n] = '\0';
	return s;
}

/* Records a section header seen by the reader (inih sees it right after). */
static int add_section(struct parse *ps, const char *line)
{
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", line);
	char *s = trim(buf);
	if (*s != '[')
		return 0;
	char *end = strchr(s, ']');
	if (!end)
		return 0; /* inih reports the syntax error */
	*end = '\0';
	s = trim(s + 1);
	if (ps->nsec >= PLAN_MAX_STEPS + 2) { /* steps, [global] and [plan]: stop reading */
		if (!ps->err_line) {
			ps->err_line = (int)ps->line;
			snprintf(ps->err, sizeof(ps->err),
				 "more than %d sections (a plan has at most %d steps)",
				 PLAN_MAX_STEPS + 2, PLAN_MAX_STEPS);
		}
		return -E2BIG;
	}
	if (ps->nsec == ps->cap) {
		unsigned cap = ps->cap ? ps->cap * 2 : 16;
		struct section *n = realloc(ps->sec, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		ps->sec = n;
		ps->cap = cap;
	}
	struct section *sec = &ps->sec[ps->nsec++];
	memset(sec, 0, sizeof(*sec));
	if (strlen(s) >= sizeof(sec->name) && !ps->err_line) {
		/* the name is the step's results directory: never cut short */
		ps->err_line = (int)ps->line;
		snprintf(ps->err, sizeof(ps->err), "section name longer than %zu characters",
			 sizeof(sec->name) - 1);
	}
	snprintf(sec->name, sizeof(sec->name), "%s", s);
	sec->line = ps->line;
	return 0;
}

/* fgets-like reader over the text; counts lines, notes section headers. */
static char *reader(char *str, int num, void *stream)
{
	struct parse *ps = stream;
	if (!*ps->pos)
		return NULL;
	const char *nl = strchr(ps->pos, '\n');
	size_t len = nl ? (size_t)(nl - ps->pos) + 1 : strlen(ps->pos);
	ps->line++;
	if (len > (size_t)num - 1) {
		if (!ps->too_long) {
			ps->too_long = true;
			ps->too_long_line = ps->line;
		}
		len = (size_t)num - 1;
		memcpy(str, ps->pos, len);
		str[len] = '\0';
		ps->pos = nl ? nl + 1 : ps->pos + strlen(ps->pos);
		return str;
	}
	memcpy(str, ps->pos, len);
	str[len] = '\0';
	ps->pos += len;
	if (add_section(ps, str))
		return NULL;
	return str;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse *ps = user;
	(void)section;
	if (!ps->nsec) {
		if (!ps->err_line) {
			ps->err_line = (int)ps->line;
			snprintf(ps->err, sizeof(ps->err), "'%s' is outside any [section]", name);
		}
		return 0;
	}
	struct section *sec = &ps->sec[ps->nsec - 1];
	if (sec->nkv == sec->cap) {
		unsigned cap = sec->cap ? sec->cap * 2 : 8;
		struct kv *n = realloc(sec->kv, cap * sizeof(*n));
		if (!n)
			return 0;
		sec->kv = n;
		sec->cap = cap;
	}
	struct kv *kv = &sec->kv[sec->nkv];
	kv->key = strdup(name);
	kv->val = strdup(value ? value : "");
	kv->line = ps->line;
	if (!kv->key || !kv->val) {
		free(kv->key);
		free(kv->val);
		return 0;
	}
	for (char *p = kv->key; *p; p++)
		if (*p == '-')
			*p = '_';
	sec->nkv++;
	return 1;
}

static void parse_release(struct parse *ps)
{
	for (unsigned i = 0; i < ps->nsec; i++) {
		for (unsigned j = 0; j < ps->sec[i].nkv; j++) {
			free(ps->sec[i].kv[j].key);
			free(ps->sec[i].kv[j].val);
		}
		free(ps->sec[i].kv);
	}
	free(ps->sec);
}

/* A list "a,b c": @one(token, its index, @ctx) for each, at most
 * PLAN_MAX_LIST and at least one; the count into *@n.  0 or -EINVAL. */
static int parse_list(const char *v, unsigned *n, int (*one)(char *t, unsigned i, void *ctx),
		      void *ctx)
{
	char buf[512], *save = NULL;
	if (snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf))
		return -EINVAL;
	*n = 0;
	for (char *t = strtok_r(buf, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
		if (*n >= PLAN_MAX_LIST || one(t, *n, ctx))
			return -EINVAL;
		(*n)++;
	}
	return *n ? 0 : -EINVAL;
}

/* "10,50,70" into doubles in (0, 1000]. */
static int one_double(char *t, unsigned i, void *out)
{
	double d;
	size_t l = strlen(t);
	if (l && t[l - 1] == '%')
		t[l - 1] = '\0';
	if (num_parse_double(t, 0, 1000, &d) || !(d > 0))
		return -EINVAL;
	((double *)out)[i] = d;
	return 0;
}

/* "1,2,4" into unsigned counts in [lo, hi]. */
struct counts {
	unsigned *out, lo, hi;
};

static int one_count(char *t, unsigned i, void *ctx)
{
	struct counts *c = ctx;
	return num_parse_uint(t, c->lo, c->hi, &c->out[i]) ? -EINVAL : 0;
}

static int parse_counts(const char *v, unsigned *out, unsigned *n, unsigned lo, unsigned hi)
{
	struct counts c = {out, lo, hi};
	return parse_list(v, n, one_count, &c);
}

/* "4k,128k" into block sizes: multiples of 512 up to 64 MiB. */
static int one_size(char *t, unsigned i, void *out)
{
	uint64_t b;
	if (spec_parse_size(t, &b) || !b || b % 512 || b > (64u << 20))
		return -EINVAL;
	((uint32_t *)out)[i] = (uint32_t)b;
	return 0;
}

static int parse_uint(const char *v, unsigned lo, unsigned hi, unsigned *out)
{
	return num_parse_uint(v, lo, hi, out) ? -EINVAL : 0;
}


static bool is_workload(const struct plan_step *st)
{
	return st->kind != STEP_PURGE;
}

#define BADV(...)                                                                                  \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		return -EINVAL;                                                                    \
	} while (0)

/* A parameter that may come from [plan], the step itself or the command
 * line.  Returns 0 (applied, or not this step's concern), -ENOENT (not a
 * parameter), -EINVAL (bad value). */
static int apply_param(struct plan_step *st, const char *key, const char *v, char *err,
		       size_t errlen)
{
	bool rounds = st->kind == STEP_PRECONDITION || st->kind == STEP_MATRIX;
	bool timed = st->kind == STEP_MEASURE || st->kind == STEP_RATE_CURVE ||
		     st->kind == STEP_GRID || st->kind == STEP_MATRIX;
	uint64_t ns;

	if (!strcmp(key, "runtime")) {
		if (spec_parse_time(v, &ns) || !ns)
			BADV("runtime: '%s' is not a duration", v);
		if (timed)
			st->spec.runtime_ns = ns;
	} else if (!strcmp(key, "ramp_time")) {
		if (spec_parse_time(v, &ns))
			BADV("ramp_time: '%s' is not a duration", v);
		if (is_workload(st) && st->kind != STEP_FILL)
			st->spec.ramp_ns = ns;
	} else if (!strcmp(key, "round")) {
		if (spec_parse_time(v, &ns) || ns < 100000000ULL)
			BADV("round: '%s' is not a duration of at least 100ms", v);
		if (st->kind == STEP_PRECONDITION)
			st->round_ns = ns;
	} else if (!strcmp(key, "max_rounds")) {
		unsigned u;
		if (parse_uint(v, 1, 100000, &u))
			BADV("max_rounds: '%s' is not a count >= 1", v);
		if (rounds)
			st->max_rounds = u;
	} else if (!strcmp(key, "fill") || !strcmp(key, "passes")) {
		double d;
		if (num_parse_double(v, 0, 100, &d) || !(d > 0))
			BADV("%s: '%s' is not a number of passes (0 < x <= 100)", key, v);
		if (st->kind == STEP_FILL)
			st->fill_passes = d;
	} else if (!strcmp(key, "window")) {
		unsigned u;
		if (parse_uint(v, 2, 10000, &u))
			BADV("window: '%s' is not a count of rounds >= 2", v);
		if (rounds)
			st->ss.window = u;
	} else if (!strcmp(key, "range") || !strcmp(key, "slope")) {
		double d;
		if (steady_parse_tolerance(v, &d))
			BADV("%s: '%s' is not a percentage", key, v);
		if (rounds) {
			st->ss.rule = STEADY_SNIA;
			*(key[0] == 'r' ? &st->ss.range_pct : &st->ss.slope_pct) = d;
		}
	} else if (!strcmp(key, "steady") || !strcmp(key, "ss")) {
		struct steady_params p = st->ss;
		if (!strcasecmp(v, "snia"))
			p.rule = STEADY_SNIA;
		else if (steady_parse_fio(v, &p))
			BADV("%s: '%s' is not snia, iops:X%%, iops_slope:X%%, bw:X or bw_slope:X",
			     key, v);
		if (rounds)
			st->ss = p;
	} else if (!strcmp(key, "iodepth")) {
		if (st->kind == STEP_MEASURE || st->kind == STEP_GRID)
			return opt_set(&st->spec, key, v, err, errlen);
	} else {
		return -ENOENT;
	}
	return 0;
}

/* Keys only one kind of step knows.  Same return convention. */
static int apply_step_key(struct plan_step *st, const char *key, const char *v, char *err,
			  size_t errlen)
{
	if (st->kind == STEP_PURGE) {
		if (!strcmp(key, "method")) {
			if (purge_parse_method(v, &st->purge_method))
				BADV("method: '%s' is not format, sanitize-block, sanitize-crypto, "
				     "sanitize-overwrite or trim",
				     v);
			return 0;
		}
		if (!strcmp(key, "ses")) {
			unsigned u;
			if (parse_uint(v, 0, 2, &u))
				BADV("ses: '%s' is not 0, 1 or 2", v);
			st->purge_ses = (int)u;
			return 0;
		}
		snprintf(err, errlen, "unknown purge option '%s' (method, ses)", key);
		return -ENOENT;
	}
	if (!strcmp(key, "track") && (st->kind == STEP_PRECONDITION || st->kind == STEP_MATRIX)) {
		for (unsigned i = 0; i < sizeof(track_names) / sizeof(track_names[0]); i++)
			if (!strcmp(v, track_names[i])) {
				st->track = (enum plan_track)i;
				return 0;
			}
		BADV("track: '%s' is not iops, read_iops, write_iops or bw", v);
	}
	if (!strcmp(key, "points") && st->kind == STEP_RATE_CURVE) {
		if (parse_list(v, &st->npoints, one_double, st->points))
			BADV("points: '%s' is not a list of percentages (10,50,100,110)", v);
		return 0;
	}
	if (!strcmp(key, "threads") && st->kind == STEP_GRID) {
		if (parse_counts(v, st->threads, &st->nthreads, 1, NVS_MAX_WORKERS))
			BADV("threads: '%s' is not a list of counts 1..%d", v, NVS_MAX_WORKERS);
		return 0;
	}
	if (st->kind == STEP_MATRIX) {
		if (!strcmp(key, "bs_list")) {
			if (parse_list(v, &st->nmbs, one_size, st->mbs))
				BADV("bs_list: '%s' is not a list of block sizes (512,4k,8k)", v);
			return 0;
		}
		if (!strcmp(key, "mixes")) {
			if (parse_counts(v, st->mixes, &st->nmixes, 0, 100))
				BADV("mixes: '%s' is not a list of read %% (100,65,0)", v);
			return 0;
		}
		if (!strcmp(key, "track_cell")) {
			char buf[64], *slash;
			uint64_t b;
			unsigned m;
			if (snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf))
				BADV("track_cell: '%.60s...' is not BS/READ%% (4k/0)", v);
			slash = strchr(buf, '/');
			if (!slash)
				BADV("track_cell: '%s' is not BS/READ%% (4k/0)", v);
			*slash = '\0';
			if (spec_parse_size(buf, &b) || !b || b > (64u << 20) ||
			    parse_uint(slash + 1, 0, 100, &m))
				BADV("track_cell: '%s' is not BS/READ%% (4k/0)", v);
			st->track_bs = (uint32_t)b;
			st->track_mix = m;
			return 0;
		}
	}
	return -ENOENT;
}

/* The kind's defaults, applied over [global]. */
static void kind_defaults(struct plan_step *st)
{
	struct spec *s = &st->spec;
	char e[128];
	steady_params_init(&st->ss);
	st->max_rounds = 25;
	st->round_ns = 60 * NVS_NSEC_PER_SEC;
	switch (st->kind) {
	case STEP_PURGE:
		st->purge_method = PURGE_TRIM;
		break;
	case STEP_FILL:
		st->fill_passes = 2;
		opt_set(s, "bs", "128k", e, sizeof(e));
		opt_set(s, "iodepth", "32", e, sizeof(e));
		opt_set(s, "numjobs", "1", e, sizeof(e));
		break;
	case STEP_PRECONDITION:
		break;
	case STEP_MEASURE:
	case STEP_GRID:
	case STEP_RATE_CURVE:
		if (!s->runtime_ns)
			s->runtime_ns = 60 * NVS_NSEC_PER_SEC;
		if (st->kind == STEP_GRID) {
			static const unsigned t[] = {1, 2, 4, 8, 16};
			memcpy(st->threads, t, sizeof(t));
			st->nthreads = 5;
			opt_set(s, "iodepth", "1,2,4,8,16", e, sizeof(e));
		}
		if (st->kind == STEP_RATE_CURVE) {
			static const double pts[] = {10, 50, 70, 80, 90, 100, 110, 120};
			memcpy(st->points, pts, sizeof(pts));
			st->npoints = 8;
		}
		break;
	case STEP_MATRIX:
		st->max_rounds = 1;
		if (!s->runtime_ns)
			s->runtime_ns = 60 * NVS_NSEC_PER_SEC;
		st->track_bs = 4096;
		st->track_mix = 0;
		break;
	}
}

/* The settings each kind imposes after everything else. */
static int kind_finish(struct plan_step *st, char *err, size_t errlen)
{
	struct spec *s = &st->spec;
	switch (st->kind) {
	case STEP_PURGE:
		return 0;
	case STEP_FILL:
		if (s->rw != RW_WRITE)
			BADV("a fill is a sequential write (rw=write), not %s",
			     spec_rw_name(s->rw));
		s->time_based = false;
		s->runtime_ns = 0;
		s->ramp_ns = 0;
		s->niodepth = 1;
		break;
	case STEP_PRECONDITION:
		if (!spec_writes(s))
			BADV("preconditioning must write (rw=%s reads only)", spec_rw_name(s->rw));
		s->time_based = true;
		s->runtime_ns = st->round_ns;
		if (s->niodepth > 1)
			BADV("precondition runs at one queue depth (the maximum), not a list");
		break;
	case STEP_MEASURE:
	case STEP_RATE_CURVE:
	case STEP_GRID:
	case STEP_MATRIX:
		s->time_based = true;
		if (st->kind == STEP_RATE_CURVE && s->niodepth > 1)
			BADV("rate-curve runs at one queue depth, not a list");
		if (st->kind == STEP_MATRIX) {
			if (!st->nmbs || !st->nmixes)
				BADV("matrix needs bs_list= and mixes=");
			bool found = false;
			for (unsigned i = 0; i < st->nmbs; i++)
				for (unsigned j = 0; j < st->nmixes; j++)
					found |= st->mbs[i] == st->track_bs &&
						 st->mixes[j] == st->track_mix;
			if (!found && st->max_rounds > 1)
				BADV("track_cell %u/%u is not a cell of the matrix", st->track_bs,
				     st->track_mix);
		}
		break;
	}
	if (steady_params_check(&st->ss))
		BADV("bad steady-state parameters");
	return 0;
}

static int kind_parse(const char *name, enum plan_step_kind *k, char *label, size_t len)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", name);
	char *sp = strpbrk(buf, " \t");
	const char *lab = "";
	if (sp) {
		*sp = '\0';
		lab = trim(sp + 1);
	}
	for (unsigned i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (!strcasecmp(buf, kind_names[i])) {
			*k = (enum plan_step_kind)i;
			snprintf(label, len, "%s", *lab ? lab : kind_names[i]);
			return 0;
		}
	if (!strcasecmp(buf, "trace")) {
		/* [trace NAME]: a measure step replaying presets/traces/NAME.log */
		*k = STEP_MEASURE;
		snprintf(label, len, "%s", *lab ? lab : "trace");
		return 1;
	}
	if (!strcasecmp(buf, "ratecurve") || !strcasecmp(buf, "rate_curve")) {
		*k = STEP_RATE_CURVE;
		snprintf(label, len, "%s", *lab ? lab : "rate-curve");
		return 0;
	}
	return -ENOENT;
}

/* Builds one step from its section.  Error text without the file:line. */
static int build_step(struct plan_step *st, const struct section *sec, const struct section *glob,
		      const struct section *planp, const struct spec *base, unsigned *line,
		      char *err, size_t errlen)
{
	char e[200];
	int rc;
	memset(st, 0, sizeof(*st));
	*line = sec->line;
	int kind = kind_parse(sec->name, &st->kind, st->label, sizeof(st->label));
	char tname[64] = "";
	if (kind < 0)
		BADV("unknown step [%s] (purge, fill, precondition, measure, rate-curve, grid, "
		     "matrix, trace, or [plan] / [global])",
		     sec->name);
	snprintf(st->name, sizeof(st->name), "%s", sec->name);
	st->line = sec->line;
	if (base)
		spec_copy(&st->spec, base);
	else
		spec_init(&st->spec);
	snprintf(st->spec.name, sizeof(st->spec.name), "%s", st->label);
	if (st->kind == STEP_FILL)
		opt_set(&st->spec, "rw", "write", e, sizeof(e));
	for (unsigned i = 0; glob && is_workload(st) && i < glob->nkv; i++) {
		*line = glob->kv[i].line;
		rc = opt_set(&st->spec, glob->kv[i].key, glob->kv[i].val, e, sizeof(e));
		if (rc == -ENOENT)
			BADV("unknown option '%s'", glob->kv[i].key);
		if (rc)
			BADV("%s", e);
	}
	kind_defaults(st);
	for (unsigned i = 0; planp && i < planp->nkv; i++) {
		*line = planp->kv[i].line;
		if (!strcmp(planp->kv[i].key, "name") || !strcmp(planp->kv[i].key, "description"))
			continue;
		rc = apply_param(st, planp->kv[i].key, planp->kv[i].val, e, sizeof(e));
		if (rc)
			BADV("%s", e);
	}
	for (unsigned i = 0; i < sec->nkv; i++) {
		const struct kv *kv = &sec->kv[i];
		*line = kv->line;
		if (!strcmp(kv->key, "filename") || !strcmp(kv->key, "target"))
			BADV("'%s' is not set in a plan: give --target on the command line",
			     kv->key);
		if (kind == 1 && !strcmp(kv->key, "trace")) {
			/* [trace LABEL] trace=NAME: presets/traces/NAME.log */
			if (strlen(kv->val) >= sizeof(tname) || strchr(kv->val, '/'))
				BADV("trace: '%s' is not a trace name (presets/traces/NAME.log)",
				     kv->val);
			snprintf(tname, sizeof(tname), "%s", kv->val);
			continue;
		}
		bool plain = !strcmp(kv->key, "iodepth") || !strcmp(kv->key, "runtime") ||
			     !strcmp(kv->key, "ramp_time");
		rc = apply_step_key(st, kv->key, kv->val, e, sizeof(e));
		if (rc == -ENOENT && st->kind != STEP_PURGE && !plain)
			rc = apply_param(st, kv->key, kv->val, e, sizeof(e));
		if (rc == -ENOENT && st->kind != STEP_PURGE) {
			rc = opt_set(&st->spec, kv->key, kv->val, e, sizeof(e));
			if (rc == -ENOENT)
				BADV("unknown option '%s' in [%s]", kv->key, sec->name);
		}
		if (rc)
			BADV("%s", e);
	}
	*line = sec->line;
	if (kind == 1 && !st->spec.replay.iolog[0]) {
		char path[PATH_MAX];
		const char *tn = tname[0] ? tname : st->label;
		if (datadir_find("presets/traces", "NVSCOPE_PRESETS", "traces", tn, ".log", path,
				 sizeof(path)))
			BADV("[%s]: no trace presets/traces/%s.log (or give read_iolog=FILE)",
			     sec->name, tn);
		if (opt_set(&st->spec, "read_iolog", path, e, sizeof(e)))
			BADV("[%s]: %s", sec->name, e);
	}
	if (kind_finish(st, e, sizeof(e)))
		BADV("[%s]: %s", sec->name, e);
	if (is_workload(st) && st->spec.ntargets && spec_validate(&st->spec, e, sizeof(e)))
		BADV("[%s]: %s", sec->name, e);
	return 0;
}

static int plan_params(struct plan *p, const struct section *sec, unsigned *line, char *err,
		       size_t errlen)
{
	struct plan_step probe;
	char e[200];
	for (unsigned i = 0; i < sec->nkv; i++) {
		const struct kv *kv = &sec->kv[i];
		*line = kv->line;
		if (!strcmp(kv->key, "name")) {
			if (strlen(kv->val) >= sizeof(p->name))
				BADV("name: longer than %zu characters", sizeof(p->name) - 1);
			snprintf(p->name, sizeof(p->name), "%s", kv->val);
			continue;
		}
		if (!strcmp(kv->key, "description")) {
			snprintf(p->description, sizeof(p->description), "%s", kv->val);
			continue;
		}
		memset(&probe, 0, sizeof(probe));
		probe.kind = STEP_MEASURE;
		spec_init(&probe.spec);
		int rc = apply_param(&probe, kv->key, kv->val, e, sizeof(e));
		if (rc == -ENOENT)
			BADV("unknown [plan] key '%s' (name, description, runtime, ramp_time, "
			     "round, "
			     "max_rounds, fill, window, range, slope, steady, iodepth)",
			     kv->key);
		if (rc)
			BADV("%s", e);
	}
	return 0;
}

int plan_parse(const char *text, const char *fname, const struct spec *base, struct plan **out,
	       char *err, size_t errlen)
{
	struct parse ps = {.fname = fname, .pos = text};
	struct plan *p = NULL;
	const struct section *glob = NULL, *planp = NULL;
	unsigned line = 0;
	int rc = -EINVAL;

	*out = NULL;
	int r = ini_parse_stream(reader, &ps, handler, &ps);
	if (ps.too_long) {
		snprintf(err, errlen, "%s:%u: line too long", fname, ps.too_long_line);
		goto out_parse;
	}
	if (ps.err_line) {
		snprintf(err, errlen, "%s:%d: %s", fname, ps.err_line, ps.err);
		goto out_parse;
	}
	if (r) {
		if (r > 0)
			snprintf(err, errlen, "%s:%d: not a [section] or 'key = value' line", fname,
				 r);
		else
			snprintf(err, errlen, "%s: cannot parse (%d)", fname, r);
		rc = r == -2 ? -ENOMEM : -EINVAL;
		goto out_parse;
	}
	for (unsigned i = 0; i < ps.nsec; i++)
		for (unsigned j = 0; j < i; j++)
			if (!strcasecmp(ps.sec[i].name, ps.sec[j].name)) {
				snprintf(
				    err, errlen,
				    "%s:%u: [%s] again (first at line %u): give steps of the same "
				    "kind a label, e.g. [measure 4k-read]",
				    fname, ps.sec[i].line, ps.sec[i].name, ps.sec[j].line);
				goto out_parse;
			}
	rc = -ENOMEM;
	p = calloc(1, sizeof(*p));
	if (!p || !(p->text = strdup(text)) || !(p->steps = calloc(ps.nsec + 1, sizeof(*p->steps)))) {
		snprintf(err, errlen, "%s: out of memory", fname);
		goto out_plan;
	}
	rc = -EINVAL;
	for (unsigned i = 0; i < ps.nsec; i++) {
		if (!strcasecmp(ps.sec[i].name, "global"))
			glob = &ps.sec[i];
		else if (!strcasecmp(ps.sec[i].name, "plan"))
			planp = &ps.sec[i];
	}
	if (planp && plan_params(p, planp, &line, err, errlen))
		goto out_where;
	for (unsigned i = 0; i < ps.nsec; i++) {
		if (&ps.sec[i] == glob || &ps.sec[i] == planp)
			continue;
		if (p->nsteps >= PLAN_MAX_STEPS) {
			line = ps.sec[i].line;
			snprintf(err, errlen, "more than %d steps", PLAN_MAX_STEPS);
			goto out_where;
		}
		if (build_step(&p->steps[p->nsteps], &ps.sec[i], glob, planp, base, &line, err,
			       errlen))
			goto out_where;
		p->nsteps++;
	}
	if (!p->nsteps) {
		snprintf(err, errlen, "%s: the plan has no steps", fname);
		goto out_plan;
	}
	if (!p->name[0]) {
		const char *b = strrchr(fname, '/');
		snprintf(p->name, sizeof(p->name), "%s", b ? b + 1 : fname);
		char *dot = strrchr(p->name, '.');
		if (dot && dot != p->name)
			*dot = '\0';
	}
	parse_release(&ps);
	*out = p;
	return 0;

out_where : {
	char tmp[512];
	snprintf(tmp, sizeof(tmp), "%s:%u: %s", fname, line, err);
	snprintf(err, errlen, "%s", tmp);
}
out_plan:
	plan_free(p);
out_parse:
	parse_release(&ps);
	return rc;
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	free(p->text);
	free(p->steps);
	free(p);
}

int plan_override(struct plan *p, const char *key_in, const char *val, char *err, size_t errlen)
{
	char key[64];
	if (snprintf(key, sizeof(key), "%s", key_in) >= (int)sizeof(key)) {
		snprintf(err, errlen, "unknown plan parameter '%.60s...'", key_in);
		return -ENOENT;
	}
	for (char *c = key; *c; c++)
		if (*c == '-')
			*c = '_';
	for (unsigned i = 0; i < p->nsteps; i++) {
		struct plan_step *st = &p->steps[i];
		int rc = apply_param(st, key, val, err, errlen);
		if (rc == -ENOENT) {
			snprintf(err, errlen, "unknown plan parameter '%s'", key_in);
			return rc;
		}
		if (rc)
			return rc;
		if (st->kind == STEP_PRECONDITION)
			st->spec.runtime_ns = st->round_ns;
	}
	return 0;
}

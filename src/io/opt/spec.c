/* spec.c - workload options: defaults, one setter per fio option name, and
 * the one place that checks a whole spec. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "io/opt/opt.h"
#include "base/num.h"
#include "io/trace/replay.h"
#include "io/feat/pi.h"
#include "io/feat/prio.h"
#include "io/feat/xrun.h"
#include "io/opt/spec.h"
#include "io/feat/pagecache.h"
#include "io/opt/specdata.h"
#include "io/feat/lattarget.h"
#include "io/feat/filesize.h"
#include "io/opt/specss.h"
#include "io/feat/flow.h"
#include "io/feat/zones.h"
#include "io/opt/speclog.h"
#include "io/feat/zbd.h"
#include "io/feat/sprandom.h"
#include "io/feat/nvcmd.h"
#include "io/feat/fdp.h"
#include "io/opt/specval.h"

void spec_copy(struct spec *dst, const struct spec *src)
{
	if (dst != src)
		memcpy(dst, src, SPEC_USED_SIZE(src));
}

void spec_init(struct spec *s)
{
	/* all but the targets past the first (struct spec, SPEC_USED_SIZE) */
	memset(s, 0, offsetof(struct spec, targets) + sizeof(s->targets[0]));
	snprintf(s->name, sizeof(s->name), "job");
	s->rw = RW_RANDREAD;
	s->rwmixread = 50;
	s->bs[0] = (struct spec_bs){4096, 100, 100};
	s->seq_nr = 1;
	s->pct_random[0] = s->pct_random[1] = 100;
	s->dist_center = -1;
	s->thinktime_blocks = 1;
	s->nbs = 1;
	s->iodepth[0] = 1;
	s->niodepth = 1;
	s->numjobs = 1;
	s->loops = 1;
	s->direct = true;
	s->fixedbufs = true;
	s->registerfiles = true;
	s->interval_ns = NVS_NSEC_PER_SEC;
	s->seed = 0x6e7673636f7065ULL; /* "nvscope" */
	s->per_job_logs = true;
	s->ss_check_s = 1;
	s->scramble_buffers = s->refill_buffers = s->zero_buffers = -1;
	s->compress_chunk = 512;
	s->dedupe_ws_pct = 5; /* fio's default */
	s->do_verify = true;  /* fio's default; only matters with verify= */
	s->lat_pct = 100.0;
	replay_spec_init(&s->replay);
	s->prio.cls = s->prio.level = -1;
	s->xrun.mpol = -1;
	s->pi.act = true; /* fio's pi_act, apptag, apptag_mask defaults */
	s->pi.apptag = 0x1234;
	s->pi.apptag_mask = 0xffff;
}

static int parse_uint(const char *v, unsigned long long max, unsigned long long *out)
{
	uint64_t u;

	if (num_parse_u64(v, 0, max, &u))
		return -EINVAL;
	*out = u;
	return 0;
}

/* "50%" -> pct, else a size. */
static int parse_size_or_pct(const char *v, uint64_t *bytes, double *pct)
{
	size_t n = v ? strlen(v) : 0;

	if (n > 1 && v[n - 1] == '%') {
		double p;
		if (num_parse_pct(v, &p) || p <= 0)
			return -EINVAL;
		*pct = p;
		*bytes = 0;
		return 0;
	}
	*pct = 0;
	return spec_parse_size(v, bytes);
}

static int set_iodepth(struct spec *s, const char *v, char *err, size_t errlen)
{
	char buf[256], *save, *tok;
	unsigned n = 0;

	if (snprintf(buf, sizeof(buf), "%s", v ? v : "") >= (int)sizeof(buf)) {
		snprintf(err, errlen, "iodepth: longer than %zu characters", sizeof(buf) - 1);
		return -EINVAL;
	}
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long long d;
		if (n == NVS_MAX_QD_STEPS || parse_uint(tok, 65536, &d) || d == 0) {
			snprintf(err, errlen,
				 "iodepth: '%s' is not a depth 1..65536 (list of at most %d)", tok,
				 NVS_MAX_QD_STEPS);
			return -EINVAL;
		}
		s->iodepth[n++] = (unsigned)d;
	}
	if (!n) {
		snprintf(err, errlen, "iodepth: empty");
		return -EINVAL;
	}
	s->niodepth = n;
	return 0;
}

static int add_targets(struct spec *s, const char *v, char *err, size_t errlen)
{
	char buf[4096], *save, *tok;

	if (snprintf(buf, sizeof(buf), "%s", v ? v : "") >= (int)sizeof(buf)) {
		snprintf(err, errlen, "target list longer than %zu characters", sizeof(buf) - 1);
		return -EINVAL;
	}
	/* fio separates filenames with ':', nvscope's --target also with ',' */
	for (tok = strtok_r(buf, ":,", &save); tok; tok = strtok_r(NULL, ":,", &save)) {
		if (s->ntargets == NVS_MAX_TARGETS) {
			snprintf(err, errlen, "too many targets (max %d)", NVS_MAX_TARGETS);
			return -EINVAL;
		}
		if (strlen(tok) >= sizeof(s->targets[0])) {
			snprintf(err, errlen, "target path longer than %zu bytes: %.60s...",
				 sizeof(s->targets[0]) - 1, tok);
			return -EINVAL;
		}
		snprintf(s->targets[s->ntargets++], sizeof(s->targets[0]), "%s", tok);
	}
	return 0;
}

/* write_*_log=NAME: fio's default name is the job's; the name (a path
 * prefix) must fit, nothing is truncated. */
#define CPU_LIST_MAX 4095

/* "0-3,6": numbers 0..CPU_LIST_MAX, ranges low-high.  0 or -EINVAL. */
static int check_cpus(const char *v)
{
	char buf[128], *save, *tok;

	if (snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf))
		return -EINVAL;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		unsigned a, b;
		if (dash)
			*dash = '\0';
		if (num_parse_uint(tok, 0, CPU_LIST_MAX, &a) ||
		    num_parse_uint(dash ? dash + 1 : tok, a, CPU_LIST_MAX, &b))
			return -EINVAL;
	}
	return 0;
}

/* Options accepted for fio job-file compatibility that change nothing here
 * (group_reporting is a row of spec_opts: the command line's sets it). */
const struct opt_row spec_ignored_opts[SPEC_NIGNORED] = {
    {.name = "description", .kind = OPT_IGNORED},
    {.name = "thread", .kind = OPT_IGNORED},
    {.name = "stonewall", .kind = OPT_IGNORED},
    {.name = "wait_for_previous", .kind = OPT_IGNORED},
    {.name = "new_group", .kind = OPT_IGNORED},
    {.name = "lat_percentiles", .kind = OPT_IGNORED},
    {.name = "clat_percentiles", .kind = OPT_IGNORED},
    {.name = "unified_rw_reporting", .kind = OPT_IGNORED},
    {.name = "exitall", .kind = OPT_IGNORED},
    {.name = "disable_clat", .kind = OPT_IGNORED},
    {.name = "threads", .kind = OPT_IGNORED},
    /* threads: fio's tiobench profile option: fio accepts it, no effect on a job */
};

/* ---- the core options: one setter per option (or per family of options
 * sharing one parse), a row per name fio gives it, in the one table of
 * io/opt/opt.c with every feature module's (fio's options.c + parse.c: options
 * as data walked by one parser) ---- */

#define NEED_VALUE()                                                                               \
	do {                                                                                       \
		if (!v || !*v) {                                                                   \
			snprintf(err, errlen, "option '%s' needs a value", key_in);                \
			return -EINVAL;                                                            \
		}                                                                                  \
	} while (0)
#define BAD(fmt, ...)                                                                              \
	do {                                                                                       \
		snprintf(err, errlen, fmt, __VA_ARGS__);                                           \
		return -EINVAL;                                                                    \
	} while (0)

/* A boolean option's value was not one. */
static int bool_err(const char *key_in, const char *v, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: '%s' is not a boolean (0/1)", key_in, v ? v : "");
	return -EINVAL;
}

/* A setter: @key normalised (fio's '-' as '_'), @key_in as given (for
 * messages), value @v (NULL or "" when none was given).  0, or -EINVAL
 * with @err.  Each uses what it needs of the arguments. */
#define OPT(fn)                                                                                    \
	static int fn(                                                                             \
	    struct spec *s __attribute__((unused)), const char *key __attribute__((unused)),       \
	    const char *key_in __attribute__((unused)), const char *v __attribute__((unused)),     \
	    char *err __attribute__((unused)), size_t errlen __attribute__((unused)))

OPT(opt_name)
{
	NEED_VALUE();
	if (strlen(v) >= sizeof(s->name))
		BAD("name: longer than %zu characters", sizeof(s->name) - 1);
	snprintf(s->name, sizeof(s->name), "%s", v);
	speclog_rename(s);
	return 0;
}

OPT(opt_rw)
{
	NEED_VALUE();
	char rwb[32];
	const char *mod = strchr(v, ':');
	size_t nl = mod ? (size_t)(mod - v) : strlen(v);
	if (nl >= sizeof(rwb))
		BAD("rw: '%s' is not read, write, randread, randwrite, rw or randrw", v);
	snprintf(rwb, sizeof(rwb), "%.*s", (int)nl, v);
	const char *name = !strcmp(rwb, "readwrite") ? "rw" : rwb;
	int i = spec_rw_parse(name);
	if (i < 0)
		BAD("rw: '%s' is not read, write, randread, randwrite, rw, randrw, trim, "
		    "randtrim, trimwrite or randtrimwrite",
		    v);
	s->rw = (enum spec_rw)i;
	s->seq_nr = 1;
	s->seq_add = 0;
	s->seq_back = false;
	if (mod) {
		bool rnd = s->rw == RW_RANDREAD || s->rw == RW_RANDWRITE || s->rw == RW_RANDRW ||
			   s->rw == RW_RANDTRIM || s->rw == RW_RANDTRIMWRITE;
		unsigned nr;
		/* fio: random: a new random offset every N I/Os, sequential
		 * between; sequential: skip SIZE after each I/O */
		s->seq_back = !rnd && mod[1] == '-';
		if (rnd ? num_parse_uint(mod + 1, 1, 1u << 30, &nr)
			: spec_parse_size(mod + 1 + s->seq_back, &s->seq_add) ||
			      (s->seq_back && !s->seq_add))
			BAD("rw: '%s': after ':' %s", v,
			    rnd ? "a count of I/Os >= 1 (randread:8)"
				: "a size to skip (write:4k), or -SIZE to step back "
				  "(read:-8k)");
		if (rnd)
			s->seq_nr = nr;
	}
	return 0;
}

OPT(opt_rwmixread)
{
	unsigned long long u;
	NEED_VALUE();
	if (parse_uint(v, 100, &u))
		BAD("%s: '%s' is not a percentage 0..100", key_in, v);
	s->rwmixread = key[5] == 'r' ? (unsigned)u : 100 - (unsigned)u;
	return 0;
}

OPT(opt_bs)
{
	NEED_VALUE();
	return specval_bs(s, v, err, errlen);
}

OPT(opt_bsrange)
{
	NEED_VALUE();
	return specval_bsrange(s, v, err, errlen);
}

OPT(opt_blocksize_unaligned)
{
	int rc = 0;
	rc = spec_parse_bool(v, &s->bs_unaligned);
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_bssplit)
{
	NEED_VALUE();
	return specval_bssplit(s, v, err, errlen);
}

OPT(opt_iodepth)
{
	NEED_VALUE();
	return set_iodepth(s, v, err, errlen);
}

OPT(opt_numjobs)
{
	unsigned long long u;
	if (parse_uint(v, NVS_MAX_WORKERS, &u) || !u)
		BAD("numjobs: '%s' is not 1..%d", v ? v : "", NVS_MAX_WORKERS);
	s->numjobs = (unsigned)u;
	return 0;
}

OPT(opt_runtime)
{
	uint64_t sz;
	NEED_VALUE();
	if (spec_parse_time(v, &sz))
		BAD("%s: '%s' is not a duration (30, 30s, 500ms, 2m, 1h)", key_in, v);
	*(key[1] == 'a' ? &s->ramp_ns : &s->runtime_ns) = sz; /* timeout: fio's alias */
	return 0;
}

OPT(opt_time_based)
{
	int rc = 0;
	rc = spec_parse_bool(v, &s->time_based);
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_size)
{
	NEED_VALUE();
	s->size_nz = 0;
	if (zbd_spec_nz(v, &s->size_nz)) /* fio's zone count "Nz" (io/feat/zbd.h) */
		s->size = 0, s->size_pct = 0;
	else if (parse_size_or_pct(v, &s->size, &s->size_pct))
		BAD("size: '%s' is not a size or a percentage", v);
	return 0;
}

OPT(opt_offset)
{
	NEED_VALUE();
	s->offset_nz = 0;
	double p0 = -1; /* offset=0%: the start (uring-cmd-fdp.fio) */
	if (zbd_spec_nz(v, &s->offset_nz) ||
	    (v[0] && v[strlen(v) - 1] == '%' && !num_parse_pct(v, &p0) && p0 == 0))
		s->offset = 0, s->offset_pct = 0;
	else if (parse_size_or_pct(v, &s->offset, &s->offset_pct))
		BAD("offset: '%s' is not a size or a percentage", v);
	if (s->offset_pct >= 100)
		BAD("offset: '%s' leaves nothing", v);
	return 0;
}

OPT(opt_io_size)
{
	NEED_VALUE();
	s->io_size_nz = 0;
	if (zbd_spec_nz(v, &s->io_size_nz))
		s->io_size = 0;
	else if (spec_parse_size(v, &s->io_size))
		BAD("%s: '%s' is not a size", key_in, v);
	return 0;
}

OPT(opt_loops)
{
	unsigned long long u;
	if (parse_uint(v, 1000000, &u) || !u)
		BAD("loops: '%s' is not a count >= 1", v ? v : "");
	s->loops = (unsigned)u;
	return 0;
}

OPT(opt_rate_iops)
{
	NEED_VALUE();
	if (specval_rate(s->rate_iops_dir, v, false))
		BAD("rate_iops: '%s' is not IOPS per job and direction (N, or read,write "
		    "as in fio: 500,200 or ,200)",
		    v);
	return 0;
}

OPT(opt_rate)
{
	NEED_VALUE();
	if (specval_rate(s->rate_bw_dir, v, true))
		BAD("rate: '%s' is not bytes/s per job and direction (10m, or read,write "
		    "as in fio)",
		    v);
	return 0;
}

OPT(opt_rate_min)
{
	/* ratemin: fio's alias */
	NEED_VALUE();
	bool bw = strcmp(key, "rate_iops_min") != 0;
	if (specval_rate(bw ? s->rate_min_bw : s->rate_min_iops, v, bw))
		BAD("%s: '%s' is not a %s per job and direction (N, or read,write)", key_in, v,
		    bw ? "rate in bytes/s" : "rate in IOPS");
	return 0;
}

OPT(opt_rate_iops_total)
{
	unsigned long long u;
	if (parse_uint(v, 100000000, &u))
		BAD("rate_iops_total: '%s' is not a rate (IOPS per job, all directions)",
		    v ? v : "");
	s->rate_iops = u;
	return 0;
}

OPT(opt_rate_process)
{
	NEED_VALUE();
	if (!strcmp(v, "linear"))
		s->rate_process = PROCESS_EVEN;
	else if (!strcmp(v, "poisson"))
		s->rate_process = PROCESS_POISSON;
	else
		BAD("rate_process: '%s' is not linear or poisson", v);
	return 0;
}

OPT(opt_direct)
{
	int rc = 0;
	rc = spec_parse_bool(v, &s->direct);
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_buffered)
{
	int rc = 0;
	bool b;
	rc = spec_parse_bool(v, &b);
	if (!rc)
		s->direct = !b;
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_norandommap)
{
	int rc = 0;
	rc = spec_parse_bool(v, &s->norandommap);
	s->norandommap_set = true;
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_random_generator)
{
	/* fio's three: tausworthe (32-bit) and tausworthe64 are fio's own
	 * streams (io/core/frand.h); lfsr gives every block once without a map
	 * (nvscope walks a permutation: not fio's order, offgen.h) */
	NEED_VALUE();
	if (strcmp(v, "tausworthe") && strcmp(v, "tausworthe64") && strcmp(v, "lfsr"))
		BAD("random_generator: '%s' is not tausworthe, tausworthe64 or lfsr", v);
	s->rand_lfsr = !strcmp(v, "lfsr");
	s->rand_taus64 = !strcmp(v, "tausworthe64");
	s->rand_gen_set = true;
	return 0;
}

OPT(opt_blockalign)
{
	uint64_t sz;
	NEED_VALUE();
	if (spec_parse_size(v, &sz) || !sz || sz > (64u << 20))
		BAD("blockalign: '%s' is not a size", v);
	s->blockalign = (uint32_t)sz;
	return 0;
}

OPT(opt_ioengine)
{
	NEED_VALUE();
	if (!strcmp(v, "io_uring"))
		s->ioengine = ENGINE_IO_URING;
	else if (!strcmp(v, "io_uring_cmd"))
		s->ioengine = ENGINE_IO_URING_CMD;
	else
		BAD("ioengine: '%s' is not io_uring or io_uring_cmd", v);
	return 0;
}

OPT(opt_cmd_type)
{
	NEED_VALUE();
	if (strcmp(v, "nvme"))
		BAD("cmd_type: '%s': only nvme (io_uring_cmd's NVMe passthrough)", v);
	return 0;
}

OPT(opt_sqthread_poll)
{
	int rc = 0;
	rc = spec_parse_bool(v, &s->sqpoll);
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_hipri)
{
	int rc = 0;
	rc = spec_parse_bool(v, &s->hipri);
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_fixedbufs)
{
	int rc = 0;
	rc = spec_parse_bool(v, &s->fixedbufs);
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_registerfiles)
{
	int rc = 0;
	rc = spec_parse_bool(v, &s->registerfiles);
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

/* fio's disable_slat and gtod_reduce (which sets disable_slat, as fio's
 * str_gtod_reduce_cb: gtod_reduce=0 clears it), slat_percentiles: whether
 * slat is measured is spec_slat()'s */
OPT(opt_slat)
{
	bool b;
	if (spec_parse_bool(v, &b))
		return bool_err(key_in, v, err, errlen);
	if (key[0] == 's')
		s->slat_pct = b;
	else
		s->slat = b ? SPEC_SLAT_OFF : SPEC_SLAT_ON;
	return 0;
}

OPT(opt_iodepth_batch_submit)
{
	unsigned long long u;
	if (parse_uint(v, 65536, &u))
		BAD("%s: '%s' is not a count", key_in, v ? v : "");
	s->batch_submit = (unsigned)u;
	return 0;
}

OPT(opt_iodepth_batch_complete_max)
{
	unsigned long long u;
	if (parse_uint(v, 65536, &u))
		BAD("%s: '%s' is not a count", key_in, v ? v : "");
	s->batch_complete = (unsigned)u;
	return 0;
}

OPT(opt_iodepth_batch_complete_min)
{
	unsigned long long u;
	/* fio: iodepth_batch_complete is the _min, completions waited for */
	if (parse_uint(v, 65536, &u))
		BAD("%s: '%s' is not a count", key_in, v ? v : "");
	s->batch_complete_min = (unsigned)u;
	return 0;
}

OPT(opt_cpus_allowed)
{
	NEED_VALUE();
	if (strspn(v, "0123456789,-") != strlen(v) || strlen(v) >= sizeof(s->cpus_allowed) ||
	    check_cpus(v))
		BAD("cpus_allowed: '%s' is not a CPU list like 0-3,6 (CPUs 0..%d)", v,
		    CPU_LIST_MAX);
	snprintf(s->cpus_allowed, sizeof(s->cpus_allowed), "%s", v);
	return 0;
}

OPT(opt_percentage_random)
{
	NEED_VALUE();
	char pb[64], *pp[2];
	unsigned pr[2];
	if (specval_split_rw(v, pp, pb, sizeof(pb)) || num_parse_uint(pp[0], 0, 100, &pr[0]) ||
	    num_parse_uint(pp[1], 0, 100, &pr[1]))
		BAD("percentage_random: '%s' is not 0..100 (or read,write)", v);
	s->pct_random[0] = (uint8_t)pr[0];
	s->pct_random[1] = (uint8_t)pr[1];
	return 0;
}

OPT(opt_random_distribution)
{
	NEED_VALUE();
	/* fio: random | zipf[:theta[:center]] | pareto[:h[:center]] |
	 * normal|gauss[:dev%[:center]] (lib/zipf.c, lib/gauss.c) */
	char db[64], *c1, *c2;
	double val, center = -1;
	enum spec_dist dist;
	if (snprintf(db, sizeof(db), "%s", v) >= (int)sizeof(db))
		BAD("random_distribution: '%.60s...' is too long", v);
	c1 = strchr(db, ':');
	if (c1)
		*c1++ = '\0';
	c2 = c1 ? strchr(c1, ':') : NULL;
	if (c2)
		*c2++ = '\0';
	if (!strcmp(db, "random")) {
		dist = DIST_UNIFORM, val = 0;
	} else if (!strcmp(db, "zipf")) {
		dist = DIST_ZIPF, val = 1.1;
	} else if (!strcmp(db, "pareto")) {
		dist = DIST_PARETO, val = 0.2;
	} else if (!strcmp(db, "normal") || !strcmp(db, "gauss")) {
		dist = DIST_GAUSS, val = 0;
	} else if (!strcmp(db, "zoned")) {
		return specval_zoned(s, v, err, errlen);
	} else {
		BAD("random_distribution: '%s' is not random, zipf, pareto, normal or "
		    "zoned (zoned_abs is not implemented)",
		    v);
	}
	if ((c1 && num_parse_double(c1, 0, 100, &val)) ||
	    (c2 && num_parse_double(c2, 0, 1, &center)) ||
	    (dist == DIST_ZIPF && (val <= 0 || val == 1.0)) ||
	    (dist == DIST_PARETO && (val <= 0 || val >= 1)) || (dist == DIST_GAUSS && val >= 100))
		BAD("random_distribution: '%s': zipf:THETA (> 0, not 1), pareto:H (0 < H "
		    "< 1), normal:DEV%% (0 <= DEV < 100), then :CENTER (0..1)",
		    v);
	s->dist = dist;
	s->dist_val = val;
	s->dist_center = center;
	return 0;
}

OPT(opt_offset_align)
{
	NEED_VALUE();
	if (spec_parse_size(v, &s->offset_align) || s->offset_align > UINT32_MAX)
		BAD("offset_align: '%s' is not a size up to 4g (0 = the smallest block "
		    "size)",
		    v);
	return 0;
}

OPT(opt_serialize_overlap)
{
	int rc = 0;
	rc = spec_parse_bool(v, &s->serialize_overlap);
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_offset_increment)
{
	NEED_VALUE();
	if (spec_parse_size(v, &s->offset_increment))
		BAD("offset_increment: '%s' is not a size (percentages are not supported)", v);
	return 0;
}

OPT(opt_startdelay)
{
	NEED_VALUE();
	if (spec_parse_time(v, &s->startdelay_ns))
		BAD("startdelay: '%s' is not a duration (ranges are not supported)", v);
	return 0;
}

OPT(opt_thinktime)
{
	uint64_t sz;
	NEED_VALUE();
	/* fio: a bare number is microseconds */
	if (num_parse_time_ns(v, 1000, &sz) || sz > 3600 * NVS_NSEC_PER_SEC)
		BAD("thinktime: '%s' is not a duration (bare numbers are us, as in fio)", v);
	s->thinktime_ns = sz;
	return 0;
}

OPT(opt_number_ios)
{
	/* fio's: the job ends after N I/Os */
	unsigned long long u;
	if (parse_uint(v, 1ull << 40, &u))
		BAD("number_ios: '%s' is not a count 0..2^40 (0 = no limit)", v ? v : "");
	s->number_ios = u;
	return 0;
}

OPT(opt_thinktime_blocks)
{
	unsigned long long u;
	if (parse_uint(v, 1u << 30, &u) || !u)
		BAD("thinktime_blocks: '%s' is not a count >= 1", v ? v : "");
	s->thinktime_blocks = (unsigned)u;
	s->xrun.think_blocks_set = true;
	return 0;
}

OPT(opt_cpus_allowed_policy)
{
	NEED_VALUE();
	if (strcmp(v, "shared") && strcmp(v, "split"))
		BAD("cpus_allowed_policy: '%s' is not shared or split", v);
	s->cpus_split = v[1] == 'p';
	return 0;
}

OPT(opt_randrepeat)
{
	int rc = 0;
	bool b;
	rc = spec_parse_bool(v, &b);
	if (!rc) /* a bad value read an unset bool (UBSan, fuzz target spec) */
		s->randrepeat_off = !b;
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_percentile_list)
{
	NEED_VALUE();
	return specval_pct_list(s, v, err, errlen);
}

OPT(opt_ioscheduler)
{
	BAD("ioscheduler: refused: it switches the device's I/O scheduler for every "
	    "user of the device (fio writes /sys/block/DEV/queue/scheduler); set it "
	    "there yourself and leave it out of the job%s",
	    "");
}

OPT(opt_interval)
{
	unsigned long long u;
	uint64_t sz;
	NEED_VALUE();
	if (key[0] == 'l') {
		if (parse_uint(v, 60000, &u))
			BAD("log_avg_msec: '%s' is not milliseconds", v);
		sz = u * 1000000ULL;
	} else if (spec_parse_time(v, &sz)) {
		BAD("interval: '%s' is not a duration (1s, 100ms)", v);
	}
	if (sz < 100000000ULL || sz > 60 * NVS_NSEC_PER_SEC)
		BAD("%s: '%s' must be between 100ms and 60s", key_in, v);
	s->interval_ns = sz;
	return 0;
}

OPT(opt_continue_on_error)
{
	/* fio takes none|read|write|io|verify|all; anything but none continues */
	s->continue_on_error = v && *v && strcmp(v, "none") && strcmp(v, "0");
	return 0;
}

OPT(opt_ignore_error)
{
	NEED_VALUE();
	return specerr_parse(&s->ignore_error, v, err, errlen);
}

OPT(opt_force_destroy)
{
	int rc = 0;
	rc = spec_parse_bool(v, &s->force_destroy);
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_filename)
{
	NEED_VALUE();
	if (key[0] == 'f')
		return specval_filename(s, v, err, errlen);
	return add_targets(s, v, err, errlen);
}

OPT(opt_nonvectored)
{
	int rc = 0;
	bool b; /* io_uring's: nvscope always issues non-vectored read/write */
	rc = spec_parse_bool(v, &b);
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_sqthread_poll_cpu)
{
	unsigned long long u;
	if (parse_uint(v, 4095, &u))
		BAD("sqthread_poll_cpu: '%s' is not a CPU number", v ? v : "");
	s->sq_cpu = (unsigned)u + 1;
	return 0;
}

OPT(opt_io_submit_mode)
{
	/* fio's offload keeps a rate's issue times when completions are
	 * slow; nvscope's issue loop already submits at the rate's times
	 * (its waits end at the next issue time): the same workload */
	if (!v || (strcmp(v, "inline") && strcmp(v, "offload")))
		BAD("io_submit_mode: '%s' is not inline or offload", v ? v : "");
	return 0;
}

OPT(opt_file_service_type)
{
	NEED_VALUE();
	return specval_file_service(s, v, err, errlen);
}

OPT(opt_stripe)
{
	NEED_VALUE();
	if (spec_parse_size(v, &s->stripe) || s->stripe < 4096 || s->stripe > (1u << 20) ||
	    (s->stripe & (s->stripe - 1)))
		BAD("stripe: '%s' is not a power of two from 4k to 1m", v);
	return 0;
}

OPT(opt_scramble_buffers)
{
	int rc = 0;
	bool b;
	rc = spec_parse_bool(v, &b);
	if (!rc) /* a bad value leaves the option unset */
		*(key[0] == 's'	  ? &s->scramble_buffers
		  : key[0] == 'r' ? &s->refill_buffers
				  : &s->zero_buffers) = b;
	return rc ? bool_err(key_in, v, err, errlen) : 0;
}

OPT(opt_buffer_compress_percentage)
{
	unsigned long long u;
	if (parse_uint(v, 100, &u))
		BAD("%s: '%s' is not a percentage 0..100", key_in, v ? v : "");
	*(key[0] == 'b' ? &s->compress_pct : &s->dedupe_pct) = (unsigned)u;
	return 0;
}

OPT(opt_buffer_compress_chunk)
{
	uint64_t sz;
	NEED_VALUE();
	if (spec_parse_size(v, &sz) || sz > (64u << 20))
		BAD("buffer_compress_chunk: '%s' is not a size (0 = the block size)", v);
	s->compress_chunk = (uint32_t)sz;
	return 0;
}

OPT(opt_buffer_pattern)
{
	NEED_VALUE();
	int n = specval_pattern(v, s->pattern, sizeof(s->pattern));
	if (n <= 0)
		BAD("buffer_pattern: '%s' is not 0xHEX, \"text\" or a number (at most %d "
		    "bytes; files are not supported)",
		    v, SPEC_MAX_PATTERN);
	s->pattern_len = (unsigned)n;
	return 0;
}

OPT(opt_randseed)
{
	unsigned long long u;
	if (parse_uint(v, UINT64_MAX, &u))
		BAD("randseed: '%s' is not a number", v ? v : "");
	s->seed = u;
	s->seed_given = true;
	return 0;
}

OPT(opt_group_reporting)
{
	/* the command line's; job files: preset.c */
	if (v && *v && strcmp(v, "1") && strcmp(v, "0"))
		BAD("group_reporting: '%s' is not 0 or 1", v);
	s->group_reporting = !v || !*v || !strcmp(v, "1");
	return 0;
}

const struct opt_row spec_opts[SPEC_NOPTS] = {
    {.name = "name", .kind = OPT_CUSTOM, .seti = opt_name},
    {.name = "rw", .kind = OPT_CUSTOM, .seti = opt_rw},
    {.name = "readwrite", .kind = OPT_CUSTOM, .seti = opt_rw},
    {.name = "rwmixread", .kind = OPT_CUSTOM, .seti = opt_rwmixread},
    {.name = "rwmixwrite", .kind = OPT_CUSTOM, .seti = opt_rwmixread},
    {.name = "bs", .kind = OPT_CUSTOM, .seti = opt_bs},
    {.name = "blocksize", .kind = OPT_CUSTOM, .seti = opt_bs},
    {.name = "bsrange", .kind = OPT_CUSTOM, .seti = opt_bsrange},
    {.name = "blocksize_range", .kind = OPT_CUSTOM, .seti = opt_bsrange},
    {.name = "blocksize_unaligned", .kind = OPT_CUSTOM, .seti = opt_blocksize_unaligned},
    {.name = "bs_unaligned", .kind = OPT_CUSTOM, .seti = opt_blocksize_unaligned},
    {.name = "bssplit", .kind = OPT_CUSTOM, .seti = opt_bssplit},
    {.name = "iodepth", .kind = OPT_CUSTOM, .seti = opt_iodepth},
    {.name = "numjobs", .kind = OPT_CUSTOM, .seti = opt_numjobs},
    {.name = "runtime", .kind = OPT_CUSTOM, .seti = opt_runtime},
    {.name = "timeout", .kind = OPT_CUSTOM, .seti = opt_runtime},
    {.name = "ramp_time", .kind = OPT_CUSTOM, .seti = opt_runtime},
    {.name = "time_based", .kind = OPT_CUSTOM, .seti = opt_time_based},
    {.name = "size", .kind = OPT_CUSTOM, .seti = opt_size},
    {.name = "offset", .kind = OPT_CUSTOM, .seti = opt_offset},
    {.name = "io_size", .kind = OPT_CUSTOM, .seti = opt_io_size},
    {.name = "io_limit", .kind = OPT_CUSTOM, .seti = opt_io_size},
    {.name = "loops", .kind = OPT_CUSTOM, .seti = opt_loops},
    {.name = "rate_iops", .kind = OPT_CUSTOM, .seti = opt_rate_iops},
    {.name = "rate", .kind = OPT_CUSTOM, .seti = opt_rate},
    {.name = "rate_min", .kind = OPT_CUSTOM, .seti = opt_rate_min},
    {.name = "rate_iops_min", .kind = OPT_CUSTOM, .seti = opt_rate_min},
    {.name = "ratemin", .kind = OPT_CUSTOM, .seti = opt_rate_min},
    {.name = "rate_iops_total", .kind = OPT_CUSTOM, .seti = opt_rate_iops_total},
    {.name = "rate_process", .kind = OPT_CUSTOM, .seti = opt_rate_process},
    {.name = "direct", .kind = OPT_CUSTOM, .seti = opt_direct},
    {.name = "buffered", .kind = OPT_CUSTOM, .seti = opt_buffered},
    {.name = "norandommap", .kind = OPT_CUSTOM, .seti = opt_norandommap},
    {.name = "random_generator", .kind = OPT_CUSTOM, .seti = opt_random_generator},
    {.name = "blockalign", .kind = OPT_CUSTOM, .seti = opt_blockalign},
    {.name = "ba", .kind = OPT_CUSTOM, .seti = opt_blockalign},
    {.name = "ioengine", .kind = OPT_CUSTOM, .seti = opt_ioengine},
    {.name = "cmd_type", .kind = OPT_CUSTOM, .seti = opt_cmd_type},
    {.name = "sqthread_poll", .kind = OPT_CUSTOM, .seti = opt_sqthread_poll},
    {.name = "sqpoll", .kind = OPT_CUSTOM, .seti = opt_sqthread_poll},
    {.name = "hipri", .kind = OPT_CUSTOM, .seti = opt_hipri},
    {.name = "fixedbufs", .kind = OPT_CUSTOM, .seti = opt_fixedbufs},
    {.name = "registerfiles", .kind = OPT_CUSTOM, .seti = opt_registerfiles},
    {.name = "disable_slat", .kind = OPT_CUSTOM, .seti = opt_slat},
    {.name = "gtod_reduce", .kind = OPT_CUSTOM, .seti = opt_slat},
    {.name = "slat_percentiles", .kind = OPT_CUSTOM, .seti = opt_slat},
    {.name = "iodepth_batch_submit", .kind = OPT_CUSTOM, .seti = opt_iodepth_batch_submit},
    {.name = "iodepth_batch", .kind = OPT_CUSTOM, .seti = opt_iodepth_batch_submit},
    {.name = "iodepth_batch_complete_max",
     .kind = OPT_CUSTOM,
     .seti = opt_iodepth_batch_complete_max},
    {.name = "iodepth_batch_complete_min",
     .kind = OPT_CUSTOM,
     .seti = opt_iodepth_batch_complete_min},
    {.name = "iodepth_batch_complete", .kind = OPT_CUSTOM, .seti = opt_iodepth_batch_complete_min},
    {.name = "cpus_allowed", .kind = OPT_CUSTOM, .seti = opt_cpus_allowed},
    {.name = "percentage_random", .kind = OPT_CUSTOM, .seti = opt_percentage_random},
    {.name = "random_distribution", .kind = OPT_CUSTOM, .seti = opt_random_distribution},
    {.name = "offset_align", .kind = OPT_CUSTOM, .seti = opt_offset_align},
    {.name = "serialize_overlap", .kind = OPT_CUSTOM, .seti = opt_serialize_overlap},
    {.name = "offset_increment", .kind = OPT_CUSTOM, .seti = opt_offset_increment},
    {.name = "startdelay", .kind = OPT_CUSTOM, .seti = opt_startdelay},
    {.name = "thinktime", .kind = OPT_CUSTOM, .seti = opt_thinktime},
    {.name = "number_ios", .kind = OPT_CUSTOM, .seti = opt_number_ios},
    {.name = "thinktime_blocks", .kind = OPT_CUSTOM, .seti = opt_thinktime_blocks},
    {.name = "cpus_allowed_policy", .kind = OPT_CUSTOM, .seti = opt_cpus_allowed_policy},
    {.name = "randrepeat", .kind = OPT_CUSTOM, .seti = opt_randrepeat},
    {.name = "percentile_list", .kind = OPT_CUSTOM, .seti = opt_percentile_list},
    {.name = "ioscheduler", .kind = OPT_CUSTOM, .seti = opt_ioscheduler},
    {.name = "interval", .kind = OPT_CUSTOM, .seti = opt_interval},
    {.name = "log_avg_msec", .kind = OPT_CUSTOM, .seti = opt_interval},
    {.name = "continue_on_error", .kind = OPT_CUSTOM, .seti = opt_continue_on_error},
    {.name = "ignore_error", .kind = OPT_CUSTOM, .seti = opt_ignore_error},
    {.name = "force_destroy", .kind = OPT_CUSTOM, .seti = opt_force_destroy},
    {.name = "filename", .kind = OPT_CUSTOM, .seti = opt_filename},
    {.name = "target", .kind = OPT_CUSTOM, .seti = opt_filename},
    {.name = "nonvectored", .kind = OPT_CUSTOM, .seti = opt_nonvectored},
    {.name = "sqthread_poll_cpu", .kind = OPT_CUSTOM, .seti = opt_sqthread_poll_cpu},
    {.name = "io_submit_mode", .kind = OPT_CUSTOM, .seti = opt_io_submit_mode},
    {.name = "file_service_type", .kind = OPT_CUSTOM, .seti = opt_file_service_type},
    {.name = "stripe", .kind = OPT_CUSTOM, .seti = opt_stripe},
    {.name = "scramble_buffers", .kind = OPT_CUSTOM, .seti = opt_scramble_buffers},
    {.name = "refill_buffers", .kind = OPT_CUSTOM, .seti = opt_scramble_buffers},
    {.name = "zero_buffers", .kind = OPT_CUSTOM, .seti = opt_scramble_buffers},
    {.name = "buffer_compress_percentage",
     .kind = OPT_CUSTOM,
     .seti = opt_buffer_compress_percentage},
    {.name = "dedupe_percentage", .kind = OPT_CUSTOM, .seti = opt_buffer_compress_percentage},
    {.name = "buffer_compress_chunk", .kind = OPT_CUSTOM, .seti = opt_buffer_compress_chunk},
    {.name = "buffer_pattern", .kind = OPT_CUSTOM, .seti = opt_buffer_pattern},
    {.name = "randseed", .kind = OPT_CUSTOM, .seti = opt_randseed},
    {.name = "group_reporting", .kind = OPT_CUSTOM, .seti = opt_group_reporting},
};

#undef NEED_VALUE
#undef BAD
#undef OPT

unsigned spec_stripe_parts(const struct spec *s)
{
	uint32_t maxbs = 512;
	if (!s->stripe)
		return 1;
	for (unsigned i = 0; i < s->nbs; i++)
		if (s->bs[i].bs > maxbs)
			maxbs = s->bs[i].bs;
	/* len bytes from any 512-byte boundary touch at most
	 * ceil((len - 512) / stripe) + 1 chunks */
	return (unsigned)((maxbs - 512 + s->stripe - 1) / s->stripe) + 1;
}

const char *spec_bs_misfit(const struct spec *s)
{
	bool trims = s->rw == RW_TRIM || s->rw == RW_RANDTRIM;
	for (unsigned i = 0; i < s->nbs; i++)
		if (s->bs[i].bs > SPEC_MAX_BS) {
			if (!trims)
				return "a block size above 64m is only for rw=trim or randtrim (a "
				       "trim carries no data; read and write buffers are at most "
				       "64m)";
			if (s->nvcmd.num_range > 1) /* a command's ranges sum in 32 bits */
				return "a trim above 64m with num_range is not implemented";
		}
	return NULL;
}

/* io_uring's ring size limit (the kernel's IORING_MAX_ENTRIES) */
#define SPEC_RING_MAX 32768u

int spec_validate(const struct spec *s, char *err, size_t errlen)
{
	uint32_t maxbs = 0;

#define BAD(...)                                                                                   \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		return -EINVAL;                                                                    \
	} while (0)
	if (!s->ntargets)
		BAD("no target: give --target PATH (a file, block device or /dev/ngXnY)");
	if (!s->nbs || !s->niodepth || !s->numjobs)
		BAD("empty block size, queue depth or job list");
	/* the kernel's IORING_MAX_ENTRIES: a deeper ring is refused by
	 * io_uring_setup only once the job starts (after its file is laid
	 * out, after earlier groups wrote), so here */
	for (unsigned i = 0; i < s->niodepth; i++)
		if (s->iodepth[i] > SPEC_RING_MAX)
			BAD("iodepth %u is above io_uring's limit of %u entries", s->iodepth[i],
			    SPEC_RING_MAX);
	for (unsigned i = 0; i < s->nbs; i++) {
		/* io_uring_cmd: a multiple of the namespace's LBA, with its
		 * metadata when extended (checked once it is open, io/core/pool.c) */
		if (s->bs[i].bs % 512 && s->ioengine != ENGINE_IO_URING_CMD)
			BAD("block size %u is not a multiple of 512", s->bs[i].bs);
		if (s->bs[i].bs > maxbs)
			maxbs = s->bs[i].bs;
	}
	if (spec_bs_misfit(s))
		BAD("bs: %s", spec_bs_misfit(s));
	if (s->blockalign && s->blockalign % 512)
		BAD("blockalign %u is not a multiple of 512", s->blockalign);
	if (s->ntargets * s->numjobs > NVS_MAX_WORKERS)
		BAD("%u targets x %u jobs is more than %d workers", s->ntargets, s->numjobs,
		    NVS_MAX_WORKERS);
	if (s->stripe) {
		if (s->ntargets < 2)
			BAD("stripe needs at least two targets");
		/* an I/O over a chunk's end is split (io/core/worker.c issue_parts) */
		if (spec_stripe_parts(s) > SPEC_STRIPE_PARTS)
			BAD("stripe %llu: an I/O of %u bytes would be split into more than %u "
			    "parts (a larger stripe, or smaller blocks)",
			    (unsigned long long)s->stripe, maxbs, SPEC_STRIPE_PARTS);
		for (unsigned i = 0; s->verify && i < s->nbs; i++)
			if (s->stripe % s->bs[i].bs)
				BAD("stripe %llu is not a multiple of block size %u: with verify, "
				    "an I/O over two members is not split (the read-back is "
				    "not)",
				    (unsigned long long)s->stripe, s->bs[i].bs);
		if (s->ioengine == ENGINE_IO_URING_CMD && (s->pi.given || s->pi.md_per_io))
			BAD("stripe with protection information (md_per_io_size, pi_*): an I/O "
			    "split over two members would share one metadata buffer (not "
			    "implemented)");
	}
	if (s->fileset && s->stripe)
		BAD("filename=a:b (one job over the files) and stripe (a RAID 0 set) exclude "
		    "each other");
	if (s->time_based && !s->runtime_ns)
		BAD("time_based needs a runtime");
	if (s->sqpoll && s->hipri)
		BAD("sqthread_poll with hipri is not supported");
	for (int d = 0; d < 2; d++)
		if ((s->rate_iops_dir[d] && s->rate_min_iops[d] > s->rate_iops_dir[d]) ||
		    (s->rate_bw_dir[d] && s->rate_min_bw[d] > s->rate_bw_dir[d]))
			BAD("rate_min/rate_iops_min above rate/rate_iops (%s): it could never be "
			    "met (fio refuses it too)",
			    d ? "writes" : "reads");
	if (s->rate_iops && s->rate_iops < 1)
		BAD("rate_iops must be >= 1");
	if (s->size_pct && s->offset_pct && s->size_pct + s->offset_pct > 100.0001)
		BAD("offset %.4g%% + size %.4g%% is more than the target", s->offset_pct,
		    s->size_pct);
	if (s->log_hist[0] && s->log_hist_ns && s->log_hist_ns != s->interval_ns)
		BAD("log_hist_msec %llu differs from the sample interval %llu ms: nvscope logs "
		    "once per interval (set log_avg_msec or --interval to the same value)",
		    (unsigned long long)(s->log_hist_ns / 1000000),
		    (unsigned long long)(s->interval_ns / 1000000));
	if (specdata_validate(s, err, errlen) || lattarget_spec_validate(s, err, errlen) ||
	    filesize_validate(s, err, errlen))
		return -EINVAL;
	if (prio_spec_validate(s, err, errlen) || xrun_spec_validate(s, err, errlen) ||
	    zones_spec_validate(s, err, errlen) || zbd_spec_validate(s, err, errlen) ||
	    sprandom_spec_validate(s, err, errlen) || pi_spec_validate(s, err, errlen) ||
	    nvcmd_spec_validate(s, err, errlen) || fdp_spec_validate(s, err, errlen) ||
	    specss_validate(s, err, errlen))
		return -EINVAL;
	return replay_spec_validate(s, err, errlen);
#undef BAD
}

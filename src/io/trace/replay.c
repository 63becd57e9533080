/* replay.c - fio's replay options and the trace prepared for a run. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/num.h"
#include "io/trace/replay.h"
#include "io/opt/specval.h"

void replay_spec_init(struct spec_replay *r)
{
	memset(r, 0, sizeof(*r));
	r->time_scale = 100;
	r->scale = 1;
	r->copies = 1;
}

/* A strict decimal in [lo, hi] (base/num: no sign, no junk, no overflow). */
static int parse_num(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	return v && !num_parse_u64(v, lo, hi, out) ? 0 : -EINVAL;
}

static int bad(const char *key, const char *v, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: bad value '%s'", key, v ? v : "");
	return -EINVAL;
}

/* read_iolog= and write_iolog=: a file name */
static int set_iolog(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	struct spec_replay *r = &s->replay;
	char *dst = key[0] == 'r' ? r->iolog : r->write_iolog;

	if (!v || !*v || strlen(v) >= sizeof(r->iolog)) {
		snprintf(err, errlen, "%s: needs a file name of at most %zu bytes", key,
			 sizeof(r->iolog) - 1);
		return -EINVAL;
	}
	snprintf(dst, sizeof(r->iolog), "%s", v);
	return 0;
}

static int set_no_stall(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	if (!v || !*v || !strcmp(v, "1") || !strcmp(v, "true"))
		s->replay.no_stall = true;
	else if (!strcmp(v, "0") || !strcmp(v, "false"))
		s->replay.no_stall = false;
	else
		return bad(key, v, err, errlen);
	return 0;
}

static int set_time_scale(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (parse_num(v, 1, 1000000, &n))
		return bad(key, v, err, errlen);
	s->replay.time_scale = (unsigned)n;
	return 0;
}

/* replay_align=: a power of two up to 1 GiB */
static int set_align(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (spec_parse_size(v ? v : "", &n) || !n || (n & (n - 1)) || n > (1u << 30))
		return bad(key, v, err, errlen);
	s->replay.align = (uint32_t)n;
	return 0;
}

static int set_scale(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (parse_num(v, 1, UINT64_MAX, &n))
		return bad(key, v, err, errlen);
	s->replay.scale = n;
	return 0;
}

static int set_copies(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (parse_num(v, 1, NVS_MAX_WORKERS, &n))
		return bad(key, v, err, errlen);
	s->replay.copies = (unsigned)n;
	return 0;
}

static int set_stagger(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	uint64_t n;

	if (!v || spec_parse_time(v, &n))
		return bad(key, v, err, errlen);
	s->replay.stagger_ns = n;
	return 0;
}

/* fio: every replayed I/O goes to this device.  nvscope replays onto its
 * one target: replay_redirect names it (the target when none is given);
 * another target is refused by replay_spec_validate, whatever the order of
 * the options */
static int set_redirect(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	if (!v || !*v || strlen(v) >= sizeof(s->replay.redirect))
		return bad(key, v, err, errlen);
	if (s->ntargets && strcmp(s->targets[0], v)) {
		snprintf(err, errlen,
			 "replay_redirect=%s and target %s differ: a trace replays on one "
			 "target",
			 v, s->targets[0]);
		return -EINVAL;
	}
	snprintf(s->replay.redirect, sizeof(s->replay.redirect), "%s", v);
	if (!s->ntargets)
		return specval_filename(s, v, err, errlen);
	return 0;
}

/* The options this module sets: a row each (io/opt/opt.h). */
#define ROW(n, fn)                                                                                 \
	{                                                                                          \
		.name = n, .kind = OPT_CUSTOM, .set = fn                                           \
	}
/* A row a line (tests/integration/option_table.sh reads them). */
/* clang-format off */
const struct opt_row replay_opts[REPLAY_NOPTS] = {
    ROW("read_iolog", set_iolog),
    ROW("replay_align", set_align),
    ROW("replay_no_stall", set_no_stall),
    ROW("replay_redirect", set_redirect),
    ROW("replay_scale", set_scale),
    ROW("replay_time_scale", set_time_scale),
    ROW("trace_copies", set_copies),
    ROW("trace_stagger", set_stagger),
    ROW("write_iolog", set_iolog),
};
/* clang-format on */
#undef ROW

/* Do @a and @b name one file (the same spelling, or device and inode)? */
static bool same_file(const char *a, const char *b)
{
	struct stat x, y;

	if (!strcmp(a, b))
		return true;
	return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino &&
	       x.st_rdev == y.st_rdev;
}

int replay_spec_validate(const struct spec *s, char *err, size_t errlen)
{
	const struct spec_replay *r = &s->replay;

	if (r->write_iolog[0] && s->niodepth > 1) {
		snprintf(err, errlen,
			 "write_iolog: one log per job; an iodepth sweep would write it once per "
			 "step (run the depths as separate jobs)");
		return -EINVAL;
	}
	if (r->write_iolog[0] && r->iolog[0] && !strcmp(r->write_iolog, r->iolog)) {
		snprintf(err, errlen, "write_iolog and read_iolog name the same file (%s)",
			 r->iolog);
		return -EINVAL;
	}
	if (r->redirect[0] && (s->ntargets != 1 || !same_file(s->targets[0], r->redirect))) {
		snprintf(err, errlen,
			 "replay_redirect=%s and target %s differ: the trace would go to the "
			 "target, not where replay_redirect sends it (give one of them)",
			 r->redirect, s->ntargets ? s->targets[0] : "(none)");
		return -EINVAL;
	}
	if (!r->iolog[0]) {
		if (r->copies > 1 || r->stagger_ns) {
			snprintf(err, errlen, "trace_copies/trace_stagger need read_iolog");
			return -EINVAL;
		}
		return 0;
	}
	if (s->ntargets != 1 || s->stripe) {
		snprintf(err, errlen,
			 "read_iolog: a trace replays on exactly one target (%u given)",
			 s->ntargets);
		return -EINVAL;
	}
	if (s->rate_iops || s->rate_iops_dir[0] || s->rate_iops_dir[1] || s->rate_bw_dir[0] ||
	    s->rate_bw_dir[1]) {
		snprintf(err, errlen,
			 "read_iolog: rate_iops/rate do not apply, the trace sets the rate "
			 "(replay_time_scale, replay_no_stall)");
		return -EINVAL;
	}
	if (s->numjobs != 1) {
		snprintf(err, errlen,
			 "read_iolog: numjobs=%u; concurrent copies of a trace are trace_copies=N",
			 s->numjobs);
		return -EINVAL;
	}
	return 0;
}

int replay_prepare(const struct spec *s, struct trace **out, char *err, size_t errlen)
{
	const struct spec_replay *r = &s->replay;
	struct trace *t;
	int rc = trace_load(r->iolog, &t, err, errlen);

	*out = NULL;
	if (rc)
		return rc;
	trace_map(t, r->scale, r->align);
	if (r->time_scale != 100)
		for (size_t i = 0; i < t->n; i++) {
			unsigned __int128 x =
			    (unsigned __int128)t->io[i].t_ns * 100 / r->time_scale;
			t->io[i].t_ns = x > UINT64_MAX ? UINT64_MAX : (uint64_t)x;
		}
	*out = t;
	return 0;
}

bool replay_writes(const struct trace *t)
{
	return t && (t->nops[TRACE_WRITE] > 0 || t->nops[TRACE_TRIM] > 0); /* both destroy */
}

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

static int replay_spec_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	struct spec_replay *r = &s->replay;
	uint64_t n;

	if (!strcmp(key, "read_iolog") || !strcmp(key, "write_iolog")) {
		char *dst = key[0] == 'r' ? r->iolog : r->write_iolog;
		if (!v || !*v || strlen(v) >= sizeof(r->iolog)) {
			snprintf(err, errlen, "%s: needs a file name of at most %zu bytes", key,
				 sizeof(r->iolog) - 1);
			return -EINVAL;
		}
		snprintf(dst, sizeof(r->iolog), "%s", v);
	} else if (!strcmp(key, "replay_no_stall")) {
		if (!v || !*v || !strcmp(v, "1") || !strcmp(v, "true"))
			r->no_stall = true;
		else if (!strcmp(v, "0") || !strcmp(v, "false"))
			r->no_stall = false;
		else
			goto bad;
	} else if (!strcmp(key, "replay_time_scale")) {
		if (parse_num(v, 1, 1000000, &n))
			goto bad;
		r->time_scale = (unsigned)n;
	} else if (!strcmp(key, "replay_align")) {
		if (spec_parse_size(v ? v : "", &n) || !n || (n & (n - 1)) || n > (1u << 30))
			goto bad;
		r->align = (uint32_t)n;
	} else if (!strcmp(key, "replay_scale")) {
		if (parse_num(v, 1, UINT64_MAX, &n))
			goto bad;
		r->scale = n;
	} else if (!strcmp(key, "trace_copies")) {
		if (parse_num(v, 1, NVS_MAX_WORKERS, &n))
			goto bad;
		r->copies = (unsigned)n;
	} else if (!strcmp(key, "trace_stagger")) {
		if (!v || spec_parse_time(v, &n))
			goto bad;
		r->stagger_ns = n;
	} else if (!strcmp(key, "replay_redirect")) {
		/* fio: every replayed I/O goes to this device.  nvscope replays
		 * onto its one target: replay_redirect names it (the target when
		 * none is given); another target is refused by
		 * replay_spec_validate, whatever the order of the options */
		if (!v || !*v || strlen(v) >= sizeof(s->replay.redirect))
			goto bad;
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
	} else {
		return -ENOENT;
	}
	return 0;
bad:
	snprintf(err, errlen, "%s: bad value '%s'", key, v ? v : "");
	return -EINVAL;
}

/* The options this module sets: a row each, the family's setter above
 * (io/opt/opt.h). */
const struct opt_row replay_opts[REPLAY_NOPTS] = {
    {.name = "read_iolog", .kind = OPT_CUSTOM, .set = replay_spec_set},
    {.name = "replay_align", .kind = OPT_CUSTOM, .set = replay_spec_set},
    {.name = "replay_no_stall", .kind = OPT_CUSTOM, .set = replay_spec_set},
    {.name = "replay_redirect", .kind = OPT_CUSTOM, .set = replay_spec_set},
    {.name = "replay_scale", .kind = OPT_CUSTOM, .set = replay_spec_set},
    {.name = "replay_time_scale", .kind = OPT_CUSTOM, .set = replay_spec_set},
    {.name = "trace_copies", .kind = OPT_CUSTOM, .set = replay_spec_set},
    {.name = "trace_stagger", .kind = OPT_CUSTOM, .set = replay_spec_set},
    {.name = "write_iolog", .kind = OPT_CUSTOM, .set = replay_spec_set},
};

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

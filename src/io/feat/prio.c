/* prio.c - fio's I/O priority options (see prio.h).
 *
 * fio's meanings (options.c, engines/cmdprio.c, engines/io_uring.c, 3.33):
 * - prio=0..7 and prioclass=0..3 set the job's priority: ioprio_set() on the
 *   job and, on io_uring, sqe->ioprio = ioprio_value(class, level) on every
 *   read and write (class 0 is best effort: ioprio_value);
 * - cmdprio_percentage=r,w (0..100): that share of a direction's I/Os gets
 *   ioprio_value(cmdprio_class, cmdprio) instead, cmdprio_class (1..3)
 *   defaulting to RT (1) and cmdprio (0..7) to 0; the draw is
 *   rand_between(0, 99) < percentage, per I/O, from fio's prio_state
 *   stream (prio_seed, prio_pick);
 * - cmdprio_bssplit=bs/pct[/class/level]:...[,write list]: for an I/O of
 *   size bs, pct percent of them get that entry's priority (the entries of
 *   one size are taken in turn against one draw), an entry without
 *   class/level gets cmdprio_class/cmdprio's; zero-percent entries are
 *   dropped; a fifth field (newer fio's priority hint) is ignored, as fio
 *   3.33's sscanf does; more than 100% for one size is refused (fio too);
 * - cmdprio_percentage and cmdprio_bssplit exclude each other (fio too);
 * - log_prio=1: the logs' last column is the priority in hex (0x%04x); fio
 *   writes 0 there in windowed logs (log_avg_msec > 0), as nvscope's are.
 * Trims carry no priority (nvscope issues them as a block uring_cmd).
 * nvscope sets sqe->ioprio only: the workers do not call ioprio_set, and
 * io_uring_cmd (NVMe passthrough) takes no priority (refused). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/num.h"
#include "io/feat/prio.h"
#include "io/opt/specval.h"
#include "stats/result.h"

#define BAD(...)                                                                                   \
	do {                                                                                       \
		snprintf(err, errlen, __VA_ARGS__);                                                \
		return -EINVAL;                                                                    \
	} while (0)

/* "a" or "a,b" (fio's off1/off2 integers: one value for both directions,
 * an empty part keeps that direction's value) in [lo, hi]. */
static int set_pair(const char *key, const char *v, unsigned lo, unsigned hi, uint8_t out[2],
		    char *err, size_t errlen)
{
	char buf[64], *part[2];
	unsigned n[2] = {out[0], out[1]};

	if (!v || specval_split_rw(v, part, buf, sizeof(buf)))
		BAD("%s: '%s' is not a value %u..%u, or read,write values", key, v ? v : "", lo,
		    hi);
	for (int d = 0; d < 2; d++)
		if (*part[d] && num_parse_uint(part[d], lo, hi, &n[d]))
			BAD("%s: '%s' is not %u..%u", key, part[d], lo, hi);
	out[0] = (uint8_t)n[0];
	out[1] = (uint8_t)n[1];
	return 0;
}

static int cmp_split(const void *a, const void *b)
{
	const struct spec_prio_split *x = a, *y = b;
	return x->bs < y->bs ? -1 : x->bs > y->bs;
}

/* One direction's "bs/pct[/class/level[/hint]]:..." list. */
static int parse_split(struct spec_prio *p, int d, char *list, char *err, size_t errlen)
{
	char *save, *tok;
	unsigned n = 0;

	for (tok = strtok_r(list, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *f[6] = {0}, *fs;
		unsigned nf = 0, pct = 0, cls, lvl, hint;
		uint64_t bs;

		for (char *x = strtok_r(tok, "/", &fs); x; x = strtok_r(NULL, "/", &fs)) {
			if (nf == 5)
				BAD("cmdprio_bssplit: '%s...' has more than "
				    "bs/percent/class/level/hint",
				    f[0]);
			f[nf++] = x;
		}
		if (!nf || num_parse_size(f[0], &bs) || !bs || bs > (64u << 20))
			BAD("cmdprio_bssplit: '%s' is not a block size", f[0] ? f[0] : "");
		if (nf >= 2 && num_parse_uint(f[1], 0, 100, &pct))
			BAD("cmdprio_bssplit: '%s' (after %s/) is not a percentage 0..100", f[1],
			    f[0]);
		if (nf == 3)
			BAD("cmdprio_bssplit: %s/%s/%s: give both the class and the level", f[0],
			    f[1], f[2]);
		if (nf >= 4 &&
		    (num_parse_uint(f[2], 0, 3, &cls) || num_parse_uint(f[3], 0, 7, &lvl)))
			BAD("cmdprio_bssplit: %s/%s: class '%s' is not 0..3 or level '%s' not 0..7",
			    f[0], f[1], f[2], f[3]);
		if (nf == 5 && num_parse_uint(f[4], 0, 1023, &hint))
			BAD("cmdprio_bssplit: %s/%s: hint '%s' is not 0..1023", f[0], f[1], f[4]);
		if (!pct)
			continue; /* fio: zero entries say nothing */
		if (n == NVS_MAX_BSSPLIT)
			BAD("cmdprio_bssplit: more than %d entries with a percentage",
			    NVS_MAX_BSSPLIT);
		p->split[d][n] =
		    (struct spec_prio_split){.bs = (uint32_t)bs,
					     .pct = (uint8_t)pct,
					     .given = nf >= 4 ? (int32_t)prio_value(cls, lvl) : -1};
		n++;
	}
	qsort(p->split[d], n, sizeof(p->split[d][0]), cmp_split);
	for (unsigned i = 0, tot = 0; i < n; i++) {
		tot = i && p->split[d][i - 1].bs == p->split[d][i].bs ? tot + p->split[d][i].pct
								      : p->split[d][i].pct;
		if (tot > 100)
			BAD("cmdprio_bssplit: the percentages for %u bytes add up to more than 100",
			    p->split[d][i].bs);
	}
	p->nsplit[d] = (uint8_t)n;
	return 0;
}

static int set_bssplit(struct spec_prio *p, const char *v, char *err, size_t errlen)
{
	char buf[1024], *part[2];
	struct spec_prio tmp = *p;

	if (!v || specval_split_rw(v, part, buf, sizeof(buf)))
		BAD("cmdprio_bssplit: '%.40s...' is longer than %zu characters, or a trim list "
		    "that differs from the write list",
		    v ? v : "", sizeof(buf) - 1);
	if (part[1] == part[0]) { /* one list: both directions */
		if (parse_split(&tmp, 0, part[0], err, errlen))
			return -EINVAL;
		memcpy(tmp.split[1], tmp.split[0], sizeof(tmp.split[0]));
		tmp.nsplit[1] = tmp.nsplit[0];
	} else {
		if (parse_split(&tmp, 0, part[0], err, errlen) ||
		    parse_split(&tmp, 1, part[1], err, errlen))
			return -EINVAL;
	}
	tmp.split_given = *v != '\0';
	*p = tmp;
	return 0;
}

/* @v's index in direction @d's list, added when new (fio's
 * assign_clat_prio_index). */
static uint8_t val_idx(struct prio_plan *pl, int d, uint16_t v)
{
	for (unsigned i = 0; i < pl->nval[d]; i++)
		if (pl->val[d][i] == v)
			return (uint8_t)i;
	pl->val[d][pl->nval[d]] = v;
	return pl->nval[d]++;
}

void prio_resolve(const struct spec_prio *p, struct prio_plan *pl)
{
	memset(pl, 0, sizeof(*pl));
	pl->dflt = p->cls >= 0 || p->level >= 0 ? prio_value(p->cls > 0 ? (unsigned)p->cls : 0,
							     p->level > 0 ? (unsigned)p->level : 0)
						: 0;
	for (int d = 0; d < 2; d++) {
		unsigned c = p->cmd_cls[d] ? p->cmd_cls[d] : PRIO_CLASS_RT;
		pl->cmd[d] = prio_value(c, p->cmd_level[d]);
		pl->nval[d] = 1;
		pl->val[d][0] = pl->dflt;
		for (unsigned i = 0; i < p->nsplit[d] && p->split_given; i++) {
			const struct spec_prio_split *e = &p->split[d][i];
			pl->split_idx[d][i] =
			    val_idx(pl, d, e->given >= 0 ? (uint16_t)e->given : pl->cmd[d]);
		}
		pl->cmd_idx[d] = p->split_given ? 0 : val_idx(pl, d, pl->cmd[d]);
	}
	pl->cmd_mode = p->split_given		? PRIO_CMD_BSSPLIT
		       : p->pct[0] || p->pct[1] ? PRIO_CMD_PERC
						: PRIO_CMD_NONE;
}

/* cmdprio_percentage=, cmdprio_class=, cmdprio=: a value or read,write pair */
static int set_pct(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	return set_pair(key, v, 0, 100, s->prio.pct, err, errlen);
}

static int set_cmd_cls(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	return set_pair(key, v, 1, 3, s->prio.cmd_cls, err, errlen);
}

static int set_cmd_level(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	return set_pair(key, v, 0, 7, s->prio.cmd_level, err, errlen);
}

static int set_cmd_bssplit(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	(void)key;
	return set_bssplit(&s->prio, v, err, errlen);
}

/* The options this module sets: a row each (io/opt/opt.h).  prio and prioclass
 * store into an int8_t (-1: not given) the 0..7 / 0..3 they accept. */
/* clang-format off */
const struct opt_row prio_opts[PRIO_NOPTS] = {
    {.name = "cmdprio", .kind = OPT_CUSTOM, .set = set_cmd_level},
    {.name = "cmdprio_bssplit", .kind = OPT_CUSTOM, .set = set_cmd_bssplit},
    {.name = "cmdprio_class", .kind = OPT_CUSTOM, .set = set_cmd_cls},
    {.name = "cmdprio_percentage", .kind = OPT_CUSTOM, .set = set_pct},
    {.name = "log_prio", .kind = OPT_BOOL01, OPT_FIELD(prio.log), .what = "a boolean (0/1)"},
    {.name = "prio", .kind = OPT_UINT, OPT_FIELD(prio.level), .min = 0, .max = 7,
     .what = "0..7"},
    {.name = "prioclass", .kind = OPT_UINT, OPT_FIELD(prio.cls), .min = 0, .max = 3,
     .what = "a class 0..3"},
};
/* clang-format on */

int prio_spec_validate(const struct spec *s, char *err, size_t errlen)
{
	const struct spec_prio *p = &s->prio;
	struct prio_plan pl;

	prio_resolve(p, &pl);
	if (p->split_given && (p->pct[0] || p->pct[1]))
		BAD("cmdprio_percentage and cmdprio_bssplit exclude each other (fio refuses "
		    "both too)");
	for (int d = 0; d < 2; d++)
		if (pl.cmd_mode && pl.nval[d] > RESULT_MAX_PRIOS)
			BAD("cmdprio_bssplit: %u distinct priorities for %s (with the job's own); "
			    "nvscope reports at most %u per direction in fio's \"prios\" and "
			    "refuses more rather than leave some out",
			    pl.nval[d], d ? "writes" : "reads", RESULT_MAX_PRIOS);
	if (prio_active(s) && s->ioengine == ENGINE_IO_URING_CMD)
		BAD("prio, prioclass and cmdprio_* are not implemented on io_uring_cmd "
		    "(NVMe passthrough): use the block device");
	return 0;
}

void prio_seed(struct frand *f, const struct spec *s, unsigned thread)
{
	uint64_t seeds[FRAND_NSEEDS];
	/* fio's setup_random_seeds (randrepeat=0 without randseed: the OS's
	 * seeds, here the spec's per-run seed) and td_fill_rand_seeds'
	 * init_rand_seed(&td->prio_state, rand_seeds[FIO_RAND_PRIO_CMDS], 0) */
	uint64_t randseed = s->seed_given || s->randrepeat_off ? s->seed : FRAND_DEFAULT_SEED;

	frand_job_seeds(seeds, randseed, thread ? thread : 1);
	frand_init(f, seeds[FRAND_PRIO], false);
}

bool prio_active(const struct spec *s)
{
	struct prio_plan pl;
	prio_resolve(&s->prio, &pl);
	return pl.dflt || pl.cmd_mode != PRIO_CMD_NONE;
}

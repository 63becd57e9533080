/* prio.h - fio's I/O priorities: prio, prioclass (every I/O), cmdprio_percentage,
 * cmdprio_class, cmdprio, cmdprio_bssplit (a share of the I/Os) and log_prio,
 * parsed into struct spec_prio (spec.h) and picked per I/O on the submit path
 * (no lock, no allocation: a table lookup and one draw of fio's prio stream). */
#ifndef NVS_PRIO_H
#define NVS_PRIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/core/frand.h"
#include "io/opt/spec.h"
#include "io/opt/opt.h"

/* The kernel's ioprio encoding (linux/ioprio.h): class << 13 | level. */
#define PRIO_CLASS_SHIFT 13
#define PRIO_CLASS_RT	 1
#define PRIO_CLASS_BE	 2
#define PRIO_CLASS_IDLE	 3
/* fio's ioprio_value(): no class given is best effort. */
static inline uint16_t prio_value(unsigned cls, unsigned level)
{
	return (uint16_t)(((cls ? cls : PRIO_CLASS_BE) << PRIO_CLASS_SHIFT) | level);
}

/* fio's cmdprio, cmdprio_bssplit, cmdprio_class, cmdprio_percentage, log_prio, prio, prioclass (the
 * names in prio_opts): a row each in io/opt/opt.c's one table. */
#define PRIO_NOPTS 7
extern const struct opt_row prio_opts[PRIO_NOPTS];
/* Checks them against the rest of @s (fio's conflicts).  0 or -EINVAL. */
int prio_spec_validate(const struct spec *s, char *err, size_t errlen);
/* True when @s sets a priority on any I/O. */
bool prio_active(const struct spec *s);

/* What the submit path and the reports read, resolved once per job from
 * the options as given (struct spec_prio): the default priority (every
 * I/O: prioclass and prio's value, 0 = neither given: the kernel's
 * default), which cmdprio option decides a share of the I/Os, each
 * direction's distinct priorities in fio's order (its clat_prio index: 0
 * the default, then cmdprio's as met; JSON "prios") and the index of the
 * priority cmdprio's share (or each cmdprio_bssplit entry) takes. */
enum { PRIO_CMD_NONE, PRIO_CMD_PERC, PRIO_CMD_BSSPLIT };
struct prio_plan {
	uint16_t dflt;
	uint8_t cmd_mode; /* PRIO_CMD_* */
	uint16_t cmd[2];
	uint16_t val[2][SPEC_MAX_PRIOS];
	uint8_t nval[2];
	uint8_t cmd_idx[2];
	uint8_t split_idx[2][NVS_MAX_BSSPLIT]; /* each cmdprio_bssplit entry's */
};
/* Resolves @p into @out. */
void prio_resolve(const struct spec_prio *p, struct prio_plan *out);

/* A worker's own stream (xorshift64*; *@state never 0): nvcmd's draws. */
static inline uint64_t prio_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* The priority of one I/O of direction @dir and @len bytes, as its index
 * in @pl->val[dir] (0: the job's, prioclass/prio's or none); prio_ioprio()
 * gives the value.  fio's fio_cmdprio_set_ioprio (engines/cmdprio.c): an
 * I/O with a share (cmdprio_percentage's, or the total of its size's
 * cmdprio_bssplit entries) draws rand_between(0, 99) from @f (fio's
 * td->prio_state: prio_seed), below the share it takes the priority (a
 * bssplit size's entries in turn, as given); an I/O without a share draws
 * nothing. */
static inline unsigned prio_pick(const struct spec_prio *p, const struct prio_plan *pl,
				 unsigned dir, uint32_t len, struct frand *f)
{
	if (dir > 1 || !pl->cmd_mode)
		return 0;
	unsigned tot = 0;
	if (pl->cmd_mode == PRIO_CMD_PERC) {
		tot = p->pct[dir];
	} else {
		for (unsigned i = 0; i < p->nsplit[dir]; i++)
			if (p->split[dir][i].bs == len)
				tot += p->split[dir][i].pct;
	}
	if (!tot)
		return 0;
	unsigned r = (unsigned)frand_between(f, 0, 99);
	if (r >= tot)
		return 0;
	if (pl->cmd_mode == PRIO_CMD_PERC)
		return pl->cmd_idx[dir];
	unsigned cum = 0;
	for (unsigned i = 0; i < p->nsplit[dir]; i++) {
		const struct spec_prio_split *e = &p->split[dir][i];
		if (e->bs != len)
			continue;
		cum += e->pct;
		if (r < cum)
			return pl->split_idx[dir][i];
	}
	return 0;
}

/* fio's td->prio_state of thread @thread (1-based, as offgen_seed): a
 * 32-bit Tausworthe from fio's FIO_RAND_PRIO_CMDS seed slot. */
void prio_seed(struct frand *f, const struct spec *s, unsigned thread);

/* sqe->ioprio of priority @idx of @dir (trims: 0, none). */
static inline uint16_t prio_ioprio(const struct prio_plan *pl, unsigned dir, unsigned idx)
{
	return dir > 1 ? 0 : pl->val[dir][idx];
}

#endif

/* prio.h - fio's I/O priorities: prio, prioclass (every I/O), cmdprio_percentage,
 * cmdprio_class, cmdprio, cmdprio_bssplit (a share of the I/Os) and log_prio,
 * parsed into struct spec_prio (spec.h) and picked per I/O on the submit path
 * (no lock, no allocation: a table lookup and one draw of fio's prio stream). */
#ifndef NVS_PRIO_H
#define NVS_PRIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/frand.h"
#include "io/spec.h"
#include "io/opt.h"

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
 * names in prio_opts): a row each in io/opt.c's one table. */
#define PRIO_NOPTS 7
extern const struct opt_row prio_opts[PRIO_NOPTS];
/* Checks them against the rest of @s (fio's conflicts).  0 or -EINVAL. */
int prio_spec_validate(const struct spec *s, char *err, size_t errlen);
/* True when @s sets a priority on any I/O. */
bool prio_active(const struct spec *s);

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
 * in @p->val[dir] (0: the job's, prioclass/prio's or none); prio_ioprio()
 * gives the value.  fio's fio_cmdprio_set_ioprio (engines/cmdprio.c): an
 * I/O with a share (cmdprio_percentage's, or the total of its size's
 * cmdprio_bssplit entries) draws rand_between(0, 99) from @f (fio's
 * td->prio_state: prio_seed), below the share it takes the priority (a
 * bssplit size's entries in turn, as given); an I/O without a share draws
 * nothing. */
static inline unsigned prio_pick(const struct spec_prio *p, unsigned dir, uint32_t len,
				 struct frand *f)
{
	if (dir > 1 || !p->cmd_mode)
		return 0;
	unsigned tot = 0;
	if (p->cmd_mode == SPEC_CMDPRIO_PERC) {
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
	if (p->cmd_mode == SPEC_CMDPRIO_PERC)
		return p->cmd_idx[dir];
	unsigned cum = 0;
	for (unsigned i = 0; i < p->nsplit[dir]; i++) {
		const struct spec_prio_split *e = &p->split[dir][i];
		if (e->bs != len)
			continue;
		cum += e->pct;
		if (r < cum)
			return e->idx;
	}
	return 0;
}

/* fio's td->prio_state of thread @thread (1-based, as offgen_seed): a
 * 32-bit Tausworthe from fio's FIO_RAND_PRIO_CMDS seed slot. */
void prio_seed(struct frand *f, const struct spec *s, unsigned thread);

/* sqe->ioprio of priority @idx of @dir (trims: 0, none). */
static inline uint16_t prio_ioprio(const struct spec_prio *p, unsigned dir, unsigned idx)
{
	return dir > 1 ? 0 : p->val[dir][idx];
}

#endif

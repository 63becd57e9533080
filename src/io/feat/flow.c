/* flow.c - fio's flow control between jobs (flow.h). */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include "base/num.h"
#include "io/feat/flow.h"

struct flow {
	_Atomic unsigned id1;	  /* flow_id + 1; 0 = free slot (claimed once) */
	_Atomic uint64_t counter; /* 1 + the I/Os of its workers (fio starts at 1) */
	_Atomic uint64_t weight;  /* the weights of the workers in it */
};

static struct flow flows[FLOW_MAX_IDS];

struct flow *flow_join(unsigned id, unsigned weight)
{
	if (id >= UINT32_MAX)
		return NULL;
	/* every joiner scans in the same order and claims the first free slot
	 * with a compare-and-swap: two joiners of a new id meet in one slot */
	for (unsigned i = 0; i < FLOW_MAX_IDS; i++) {
		struct flow *f = &flows[i];
		unsigned v = atomic_load(&f->id1);
		if (v == 0) {
			unsigned zero = 0;
			if (atomic_compare_exchange_strong(&f->id1, &zero, id + 1)) {
				atomic_fetch_add(&f->counter, 1); /* fio's start: 1 */
				v = id + 1;
			} else {
				v = zero;
			}
		}
		if (v == id + 1) {
			/* a slot just claimed by another thread: its counter may
			 * still be 0 for a moment; the gate treats 0 as 1 */
			atomic_fetch_add(&f->weight, weight);
			return f;
		}
	}
	return NULL;
}

void flow_leave(struct flow *f, uint64_t count, unsigned weight)
{
	if (!f)
		return;
	atomic_fetch_sub(&f->counter, count);
	atomic_fetch_sub(&f->weight, weight);
}

bool flow_gate(struct flow *f, struct flow_state *fs, unsigned weight, uint64_t sleep_ns,
	       unsigned inflight, uint64_t now, uint64_t *wake_ns)
{
	if (fs->until) {
		if (now < fs->until) {
			*wake_ns = fs->until;
			return false;
		}
		fs->until = 0;
	}
	if (fs->quiesce) {
		if (inflight) {
			*wake_ns = 0;
			return false;
		}
		fs->quiesce = false; /* all in, now fio's usleep(flow_sleep) */
		fs->until = now + sleep_ns;
		*wake_ns = fs->until;
		return false;
	}
	uint64_t c = atomic_load_explicit(&f->counter, memory_order_relaxed);
	uint64_t tw = atomic_load_explicit(&f->weight, memory_order_relaxed);
	if (!c)
		c = 1;
	/* fio: held when n / counter > weight / total weight */
	if (tw && (unsigned __int128)fs->n * tw > (unsigned __int128)weight * c) {
		if ((sleep_ns || fs->zbd) && inflight) {
			fs->quiesce = true;
			*wake_ns = 0;
		} else {
			fs->until = now + (sleep_ns ? sleep_ns : FLOW_POLL_NS);
			*wake_ns = fs->until;
		}
		return false;
	}
	atomic_fetch_add_explicit(&f->counter, 1, memory_order_relaxed);
	fs->n++;
	return true;
}

/* fio's flow options; "flow_watermark" is FIO_OPT_SOFT_DEPRECATED there: no
 * effect.  flow_sleep is an int of microseconds. */
const struct opt_row flow_opts[FLOW_NOPTS] = {
    {.name = "flow_watermark", .kind = OPT_IGNORED},
    {.name = "flow",
     .kind = OPT_UINT,
     OPT_FIELD(flow),
     .max = FLOW_MAX_WEIGHT,
     .what = "a weight 0..1000 (0 = no flow control)"},
    {.name = "flow_id",
     .kind = OPT_UINT,
     OPT_FIELD(flow_id),
     .max = INT32_MAX,
     .what = "an id 0..2147483647"},
    {.name = "flow_sleep",
     .kind = OPT_UINT,
     OPT_FIELD(flow_sleep_ns),
     .max = INT32_MAX,
     .scale = 1000,
     .what = "microseconds 0..2147483647"},
};

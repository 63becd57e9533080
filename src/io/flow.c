/* flow.c - fio's flow control between jobs (flow.h). */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include "base/num.h"
#include "io/flow.h"

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

int flow_spec_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	unsigned u;

	if (!strcmp(key, "flow_watermark"))
		return 0; /* fio: FIO_OPT_SOFT_DEPRECATED, no effect */
	if (!strcmp(key, "flow")) {
		if (!v || num_parse_uint(v, 0, FLOW_MAX_WEIGHT, &u)) {
			snprintf(err, errlen,
				 "flow: '%s' is not a weight 0..%u (0 = no flow control)",
				 v ? v : "", FLOW_MAX_WEIGHT);
			return -EINVAL;
		}
		s->flow = u;
		return 0;
	}
	if (!strcmp(key, "flow_id")) {
		if (!v || num_parse_uint(v, 0, INT32_MAX, &u)) {
			snprintf(err, errlen, "flow_id: '%s' is not an id 0..%d", v ? v : "",
				 INT32_MAX);
			return -EINVAL;
		}
		s->flow_id = u;
		return 0;
	}
	if (!strcmp(key, "flow_sleep")) {
		/* fio: an int of microseconds */
		if (!v || num_parse_uint(v, 0, INT32_MAX, &u)) {
			snprintf(err, errlen, "flow_sleep: '%s' is not microseconds 0..%d",
				 v ? v : "", INT32_MAX);
			return -EINVAL;
		}
		s->flow_sleep_ns = (uint64_t)u * 1000;
		return 0;
	}
	return -ENOENT;
}

/* devscan.c - device discovery off the UI thread (see devscan.h).  The
 * scanner works on a list of its own and publishes copies of it; the UI
 * thread takes them.  Shared: the slot (an atomic pointer to the newest
 * snapshot), the stop and end flags, the reference count, and err (written
 * before the end flag is released, read after it is acquired). */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dev/devscan.h"
#include "dev/probe.h"

struct snap {
	struct dev_list *devs;
	bool probed;
};

struct devscan {
	unsigned deadline_ms;
	bool progressive;
	struct dev_list *work; /* the scanner's own list */
	_Atomic(struct snap *) slot;
	atomic_bool stop, ended;
	atomic_int refs; /* the UI's and the thread's */
	char err[128];
};

static void snap_free(struct snap *n)
{
	if (n) {
		dev_list_free(n->devs);
		free(n);
	}
}

/* Hands a copy of the scanner's list over (replacing one not taken yet).
 * Out of memory: this snapshot is skipped; false when it was the last. */
static bool publish(struct devscan *s, bool probed)
{
	struct snap *n = malloc(sizeof(*n));

	if (!n || !(n->devs = dev_list_dup(s->work))) {
		free(n);
		return false;
	}
	n->probed = probed;
	snap_free(atomic_exchange_explicit(&s->slot, n, memory_order_acq_rel));
	return true;
}

/* A mark is in (dev_list_probe): the newest state, when shown as it comes. */
static void answered(void *ctx)
{
	struct devscan *s = ctx;

	if (!atomic_load_explicit(&s->stop, memory_order_relaxed))
		publish(s, false);
}

/* Every controller's SMART / health log (an admin command each: it may wait
 * for the kernel's timeout on a wedged one, on this thread only). */
static void read_health(struct devscan *s)
{
	for (size_t i = 0; i < s->work->nr_ctrls; i++) {
		struct dev_ctrl *c = &s->work->ctrls[i];
		char err[128];
		if (atomic_load_explicit(&s->stop, memory_order_relaxed))
			return;
		free(c->health);
		c->health = malloc(sizeof(*c->health));
		if (c->health && dev_health_read(c->path, c->health, NULL, err, sizeof(err))) {
			free(c->health);
			c->health = NULL;
		}
	}
}

/* The scan: listed, probed, health read; a snapshot at each step when
 * progressive, the whole list at the end in any case. */
static void scan(struct devscan *s)
{
	s->work = dev_scan_ids(s->err, sizeof(s->err));
	if (!s->work)
		return;
	dev_list_mark_pending(s->work);
	if (s->progressive)
		publish(s, false);
	if (atomic_load_explicit(&s->stop, memory_order_relaxed))
		return;
	if (dev_list_probe(s->work, s->deadline_ms, s->progressive ? answered : NULL, s)) {
		snprintf(s->err, sizeof(s->err), "out of memory");
		return;
	}
	if (atomic_load_explicit(&s->stop, memory_order_relaxed))
		return;
	if (s->progressive)
		publish(s, true);
	read_health(s);
	if (!publish(s, true))
		snprintf(s->err, sizeof(s->err), "out of memory");
}

/* Drops one reference: the last one frees everything. */
static void unref(struct devscan *s)
{
	if (atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
		return;
	snap_free(atomic_exchange_explicit(&s->slot, NULL, memory_order_acq_rel));
	dev_list_free(s->work);
	free(s);
}

static void *scanner(void *arg)
{
	struct devscan *s = arg;

	scan(s);
	atomic_store_explicit(&s->ended, true, memory_order_release);
	unref(s);
	return NULL;
}

static struct devscan *devscan_new(unsigned deadline_ms, bool progressive)
{
	struct devscan *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->deadline_ms = deadline_ms;
	s->progressive = progressive;
	atomic_init(&s->slot, NULL);
	atomic_init(&s->stop, false);
	atomic_init(&s->ended, false);
	atomic_init(&s->refs, 2);
	return s;
}

struct devscan *devscan_start(unsigned deadline_ms, bool progressive)
{
	struct devscan *s = devscan_new(deadline_ms, progressive);
	pthread_attr_t at;
	pthread_t th;
	int r;

	if (!s)
		return NULL;
	if ((r = pthread_attr_init(&at))) {
		free(s);
		return NULL;
	}
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	r = pthread_create(&th, &at, scanner, s);
	pthread_attr_destroy(&at);
	if (r) {
		free(s);
		return NULL;
	}
	pthread_setname_np(th, "devscan");
	return s;
}

struct dev_list *devscan_take(struct devscan *s, bool *probed)
{
	struct snap *n = atomic_exchange_explicit(&s->slot, NULL, memory_order_acq_rel);
	struct dev_list *l = n ? n->devs : NULL;

	*probed = n && n->probed;
	free(n);
	return l;
}

bool devscan_over(struct devscan *s, char *err, size_t errlen)
{
	if (!atomic_load_explicit(&s->ended, memory_order_acquire) ||
	    atomic_load_explicit(&s->slot, memory_order_acquire))
		return false;
	snprintf(err, errlen, "%s", s->err);
	return true;
}

void devscan_free(struct devscan *s)
{
	if (!s)
		return;
	atomic_store_explicit(&s->stop, true, memory_order_relaxed);
	unref(s);
}

struct dev_list *devscan_run(unsigned deadline_ms, char *err, size_t errlen)
{
	struct devscan *s = devscan_new(deadline_ms, false);
	struct dev_list *l = NULL;
	bool probed;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	scan(s);
	atomic_store_explicit(&s->ended, true, memory_order_release);
	l = devscan_take(s, &probed);
	if (!l)
		snprintf(err, errlen, "%s", s->err[0] ? s->err : "out of memory");
	unref(s);
	unref(s);
	return l;
}

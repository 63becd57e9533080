/* healthmon.c - health log reads off the UI thread (see healthmon.h).
 * The reader owns the producer side of an SPSC ring, the UI thread the
 * consumer side; the only other shared datum is the atomic stop flag. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ring/spsc.h"
#include "dev/healthmon.h"

struct healthmon {
	char path[256];
	double period_s;
	struct spsc *ring;
	atomic_int stop;
	pthread_t thread;
};

static void *reader(void *arg)
{
	struct healthmon *m = arg;

	while (!atomic_load_explicit(&m->stop, memory_order_relaxed)) {
		struct healthmon_reading r;
		char err[128];
		memset(&r, 0, sizeof(r));
		r.ok = dev_health_read(m->path, &r.h, NULL, err, sizeof(err)) == 0;
		spsc_push(m->ring, &r); /* a UI that stopped polling loses old readings */
		/* sleep in short steps so that a stop is seen quickly */
		for (double slept = 0; slept < m->period_s &&
				       !atomic_load_explicit(&m->stop, memory_order_relaxed);
		     slept += 0.1) {
			struct timespec ts = {0, 100000000};
			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

struct healthmon *healthmon_new(const char *path, double period_s)
{
	struct healthmon *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	snprintf(m->path, sizeof(m->path), "%s", path);
	m->period_s = period_s > 0.1 ? period_s : 0.1;
	atomic_init(&m->stop, 0);
	m->ring = spsc_new(sizeof(struct healthmon_reading), 8);
	if (!m->ring)
		goto free_mon;
	if (pthread_create(&m->thread, NULL, reader, m))
		goto free_ring;
	pthread_setname_np(m->thread, "health");
	return m;

free_ring:
	spsc_free(m->ring);
free_mon:
	free(m);
	return NULL;
}

bool healthmon_poll(struct healthmon *m, struct healthmon_reading *out)
{
	return m && spsc_pop(m->ring, out) == 0;
}

void healthmon_free(struct healthmon *m)
{
	if (!m)
		return;
	atomic_store_explicit(&m->stop, 1, memory_order_relaxed);
	pthread_join(m->thread, NULL);
	spsc_free(m->ring);
	free(m);
}

int healthmon_cw_change(uint8_t was, uint8_t now, char *buf, size_t len)
{
	char txt[200];
	uint8_t added = now & (uint8_t)~was;
	if (now == was)
		return -1;
	if (added) {
		dev_cw_text(added, txt, sizeof(txt));
		snprintf(buf, len, "critical warning: %s", txt);
		return HEALTHMON_CW_WORSE;
	}
	if (!now) {
		snprintf(buf, len, "critical warning cleared");
		return HEALTHMON_CW_CLEARED;
	}
	dev_cw_text(now, txt, sizeof(txt));
	snprintf(buf, len, "critical warning now: %s", txt);
	return HEALTHMON_CW_FEWER;
}

/* healthmon.h - the console's health reader: a thread that reads the SMART /
 * health log of one NVMe controller every few seconds and hands each
 * reading to the UI thread through an SPSC ring, so a slow or wedged
 * controller (an admin command can wait for the kernel's timeout) never
 * stalls drawing or keys. */
#ifndef NVS_HEALTHMON_H
#define NVS_HEALTHMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dev/devmodel.h"

struct healthmon;

/* One reading: @ok false when the read failed (the device vanished...). */
struct healthmon_reading {
	bool ok;
	struct dev_health h;
};

/* Starts reading controller (or namespace) @path every @period_s seconds,
 * the first time at once.  NULL when out of memory or no thread. */
struct healthmon *healthmon_new(const char *path, double period_s);
/* Pops the oldest reading not yet taken into @out: true, or false when
 * none is waiting.  UI thread only. */
bool healthmon_poll(struct healthmon *m, struct healthmon_reading *out);
/* Stops the thread (after the read in progress, if any) and frees.
 * NULL-safe. */
void healthmon_free(struct healthmon *m);
/* A change of the critical-warning bits from @was to @now in words for the
 * event list ("critical warning: reliability degraded", "critical warning
 * cleared", "critical warning now: temperature") into @buf.  Returns
 * HEALTHMON_CW_WORSE when a bit appeared, HEALTHMON_CW_CLEARED when all
 * cleared, HEALTHMON_CW_FEWER when some cleared, or -1 (nothing written)
 * when nothing changed. */
enum { HEALTHMON_CW_CLEARED, HEALTHMON_CW_FEWER, HEALTHMON_CW_WORSE };
int healthmon_cw_change(uint8_t was, uint8_t now, char *buf, size_t len);

#endif

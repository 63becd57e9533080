/* healthset.h - the health of every NVMe controller a run uses: one
 * health reader (healthmon.h) per controller, and what changes between two
 * of a controller's readings in words, for the event list (a critical
 * warning appearing or clearing, media errors or error-log entries rising),
 * and a one-line summary of the warnings of all of them for the health
 * strip ("3 drives, 1 CRITICAL: nvme1 reliability degraded"), so a warning
 * on the second target reaches the screen as one on the first does. */
#ifndef NVS_HEALTHSET_H
#define NVS_HEALTHSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dev/healthmon.h"

#define HEALTHSET_MAX 64 /* controllers watched; NVS_MAX_TARGETS targets */

struct healthset;

/* Watches controllers @paths[0..@n) (duplicates once, at most
 * HEALTHSET_MAX; the rest are left out and counted by healthset_left_out),
 * each read every @period_s seconds on a thread of its own; @period_s <= 0
 * starts no reader (readings are then given with healthset_note: tests).
 * NULL when out of memory. */
struct healthset *healthset_new(const char *const *paths, unsigned n, double period_s);
unsigned healthset_count(const struct healthset *s);
unsigned healthset_left_out(const struct healthset *s);
const char *healthset_path(const struct healthset *s, unsigned i);
/* The next reading of any controller: true with its index in *@i, or false
 * when none waits.  UI thread only. */
bool healthset_poll(struct healthset *s, unsigned *i, struct healthmon_reading *out);

/* A change of controller @i's health, for the event list. */
struct healthset_event {
	int level; /* HEALTHMON_CW_* (WORSE: the alert style) */
	char text[320];
};
/* Takes reading @r of controller @i as its latest and writes into @ev (at
 * most @max) what changed since its previous good one: "nvme1: critical
 * warning: reliability degraded", "nvme1: media errors rose 0 -> 3",
 * "nvme1: error log entries rose 5 -> 7".  The first good reading is the
 * baseline (no event).  Returns the count. */
int healthset_note(struct healthset *s, unsigned i, const struct healthmon_reading *r,
		   struct healthset_event *ev, int max);
/* Controller @i's latest good reading (NULL before one). */
const struct dev_health *healthset_latest(const struct healthset *s, unsigned i);
/* The warnings of all the controllers in one line: "" when no controller
 * has a critical warning; else "CRITICAL: reliability degraded" for one
 * controller watched, and "2 drives, 1 CRITICAL: nvme1 reliability
 * degraded" for several (every warned controller named, the device name
 * without /dev/).  Returns the number of controllers with a warning. */
unsigned healthset_summary(const struct healthset *s, char *buf, size_t len);
void healthset_free(struct healthset *s);

#endif

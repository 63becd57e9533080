/* devscan.h - the console's device discovery, off the UI thread: a thread
 * that lists the devices (libnvme and /sys/block, dev_scan_ids), probes
 * their marks (dev_list_probe: each device in a helper process with a
 * deadline, probe.h) and reads each NVMe controller's health log, and
 * hands the list over as it fills in, so the console draws its first frame
 * before any of that and never waits for it (docs/console.md, "Devices").
 *
 * What crosses threads: whole snapshots of the list, one at a time through
 * an atomic pointer (release/acquire; a newer one replaces one not taken
 * yet, which the scanner frees), the scan's end and a reference count (C11
 * atomics).  The UI thread that lets go of a scan under way leaves it to
 * its thread, which ends after the probes' deadline and frees everything.
 * A snapshot taken before the probes answered has every mark "probing"
 * (probe_mark_pending: unknown, so in use) until its own answer is in. */
#ifndef NVS_DEV_DEVSCAN_H
#define NVS_DEV_DEVSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include "dev/devmodel.h"

struct devscan;

/* Starts a scan whose probes wait at most @deadline_ms.  @progressive:
 * a snapshot at each step (the devices listed, marks "probing"; then each
 * mark as it comes; then the health logs); else only the whole list at
 * the end (a rescan: the rows do not flash "probing").  NULL when out of
 * memory or no thread could be started. */
struct devscan *devscan_start(unsigned deadline_ms, bool progressive);
/* UI thread: the newest snapshot not taken yet, the caller's to free
 * (dev_list_free), or NULL.  *@probed: every mark in it is an answer (or
 * "not responding"); none is "probing" any more. */
struct dev_list *devscan_take(struct devscan *s, bool *probed);
/* UI thread: the scan has ended and its last snapshot was taken; a scan
 * that failed (out of memory) says why in @err ("" otherwise). */
bool devscan_over(struct devscan *s, char *err, size_t errlen);
/* UI thread: done with @s (a scan under way ends on its own thread and
 * frees itself).  NULL-safe. */
void devscan_free(struct devscan *s);
/* The whole scan on the calling thread, blocking: the list with every mark
 * and health log, or NULL with @err.  (`--check`, whose batch starts on the
 * drives found before the screen opens.) */
struct dev_list *devscan_run(unsigned deadline_ms, char *err, size_t errlen);

#endif

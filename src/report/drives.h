/* drives.h - the per-drive part of the HTML report (html.c) for a step that
 * ran on several targets at once (ServeTheHome's 24 drives): under the
 * step's table, for each row of it (a queue depth, a rate-curve point, a
 * grid cell), one row per drive in the order the targets were given - the
 * device, its model and serial where recorded, I/Os, IOPS, MB/s, mean, p99
 * and p99.9 latency, and its share of the aggregate - then the aggregate.
 * Read from the row's fio-layout JSON: jobs[0].nvscope.targets[] (each
 * target's read/write/trim objects with json+ bins), or for a stripe
 * jobs[0].nvscope.members[] (I/Os, bytes, mean latency; no histogram).
 * Also the drives table's cells of a directory with several targets ("24
 * drives", linked to its list) instead of every path in one cell. */
#ifndef NVS_DRIVES_H
#define NVS_DRIVES_H

#include <stdio.h>
#include "report/rtable.h"

/* The number of targets in meta.json's "targets" (@meta a cJSON *). */
unsigned drives_count(const void *meta);
/* The anchor of directory @d's list of drives ("drives-D"), for a link. */
void drives_anchor(FILE *f, unsigned d);
/* The "targets" cell's and the "device" cell's content of the drives table
 * for directory @d (@meta meta.json, @dev device-before.json): every path
 * and identity with one target or two, "N drives" linked to the list
 * beyond (drives_list). */
void drives_targets_cell(FILE *f, const void *meta, unsigned d);
void drives_device_cell(FILE *f, const void *meta, const void *dev, unsigned d);
/* The list of drives of a directory whose meta.json has no test bed drive
 * table (written before it): from device-before.json.  Nothing otherwise
 * (the test bed card lists them). */
void drives_list(FILE *f, const void *meta, const void *dev);
/* The anchor (id) of the per-drive block of step @sub of directory @d. */
void drives_step_anchor(FILE *f, const char *sub, unsigned d);
/* The per-drive tables of directory @d's step @sub (in @dir) of @kind
 * ("measure", "rate-curve", "grid"), rows of @t, under the heading
 * @label (the directory's name).  Writes nothing when no row ran on
 * several targets. */
void drives_step(FILE *f, const char *dir, const char *sub, const char *kind, const struct rtab *t,
		 const void *meta, const void *dev, const char *label, unsigned d);

#endif

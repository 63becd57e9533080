/* runtext.h - `nvscope run`'s text summary (runtext.c). */
#ifndef NVS_CMD_RUNTEXT_H
#define NVS_CMD_RUNTEXT_H

#include <stddef.h>
#include <stdio.h>
#include "run/runjob.h"
#include "run/runsteps.h"

struct spec;
struct result;

/* @v with a k/M/G suffix into @buf. */
const char *runtext_si(double v, char *buf, size_t len);
/* A job's summary, fio's layout: per direction, then per target. */
void runtext_result(FILE *f, const struct spec *s, const struct runjob *rj);
/* The per-QD table of a sweep's @n results. */
void runtext_qd_table(FILE *f, const struct result *res, unsigned n);
/* --repeat's table: each step's runs (of @asked), the mean IOPS with its
 * min - max and spread (standard deviation / mean), MB/s, mean and p99
 * latency (means of the runs). */
void runtext_repeat_table(FILE *f, const struct runsteps_rep *rep, unsigned n, unsigned asked);
/* The same as a JSON object (nvscope.repeat) into *@out (malloc'ed), or
 * NULL out of memory. */
char *runtext_repeat_json(const struct runsteps_rep *rep, unsigned n, unsigned asked);

#endif

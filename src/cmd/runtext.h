/* runtext.h - `nvscope run`'s text summary (runtext.c). */
#ifndef NVS_CMD_RUNTEXT_H
#define NVS_CMD_RUNTEXT_H

#include <stddef.h>
#include <stdio.h>
#include "run/runjob.h"

struct spec;
struct result;

/* @v with a k/M/G suffix into @buf. */
const char *runtext_si(double v, char *buf, size_t len);
/* A job's summary, fio's layout: per direction, then per target. */
void runtext_result(FILE *f, const struct spec *s, const struct runjob *rj);
/* The per-QD table of a sweep's @n results. */
void runtext_qd_table(FILE *f, const struct result *res, unsigned n);

#endif

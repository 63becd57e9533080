/* tracehtml.h - a trace replay's figures on the report (issue 23, the VDI
 * review's lag and late per phase): under a step that replayed a trace
 * (its row JSON's nvscope.trace, report/tracejson.c), per directory the
 * trace, its copies and stagger, the I/Os issued and not replayed, how far
 * the replay fell behind the trace's schedule (lag p50, p99, max) and the
 * share of I/Os late (lag past the threshold, 1 ms), then each copy's
 * figures (a VDI storm's desktops) in a table that opens. */
#ifndef NVS_TRACEHTML_H
#define NVS_TRACEHTML_H

#include <stdio.h>
#include "report/rtable.h"

struct tracehtml_dir {
	const char *path;  /* the results directory */
	const char *label; /* its name on the page */
};

/* The replay table of step @sub of @kind ("measure") over @nd directories
 * (@tabs: each one's step table); writes nothing when no row replayed a
 * trace. */
void tracehtml_step(FILE *f, const struct tracehtml_dir *dirs, const struct rtab *tabs, unsigned nd,
		    const char *sub, const char *kind);

#endif

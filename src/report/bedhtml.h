/* bedhtml.h - the test bed and the parameters as run in the HTML report
 * (html.c): meta.json's "testbed" (machine, nvscope version, command line,
 * each drive's identity), the command line's overrides next to the plan's
 * description, and under each step's heading the values the step ran with
 * (step.json: queue depths, block-size mix, runtime, ramp, fill passes,
 * round, rounds, stripe), each override marked as one.  The cJSON
 * arguments are void * so this header needs no cJSON; all of it is outside
 * data, escaped and range-checked. */
#ifndef NVS_BEDHTML_H
#define NVS_BEDHTML_H

#include <stdio.h>

/* "overridden: --runtime=30s ..." for meta.json @meta (nothing when none). */
void bedhtml_overrides(FILE *f, const void *meta);
/* The test bed of results directory @label: a machine table and a drive
 * table, or a line saying it was not recorded. */
void bedhtml_testbed(FILE *f, const void *meta, const char *label);
/* The "as run" line of step @step (its step.json) under meta.json @meta;
 * @label (may be NULL) prefixes it when several directories share the
 * step. */
void bedhtml_asrun(FILE *f, const void *step, const void *meta, const char *label);

#endif

/* testbed.h - the test bed a run ran on, for every results directory's
 * meta.json ("testbed") and the report: the machine (CPU model and count,
 * memory, kernel, distribution), nvscope's version, the exact command line
 * (argv, shell-quoted) and each target's identity (model, serial,
 * firmware, capacity, logical block size) as dev/ knows it.  What cannot
 * be known is "unknown" (text) or null (numbers), never a guess. */
#ifndef NVS_TESTBED_H
#define NVS_TESTBED_H

#include <stddef.h>

/* Keeps the process's command line (main's argv, which outlives every
 * results directory) for testbed_json.  Not thread-safe: call it once,
 * first thing in main. */
void testbed_set_cmdline(int argc, char *const *argv);
/* The command line as a shell would take it back (each argument quoted
 * where needed), malloc'ed; "unknown" before testbed_set_cmdline; NULL
 * out of memory. */
char *testbed_cmdline(void);
/* The "testbed" object for the @n targets @targets (cJSON *, as void * so
 * this header needs no cJSON; the caller owns it), NULL out of memory. */
void *testbed_json(const char *const *targets, unsigned n);

#endif

/* runcheck.h - `nvscope run`'s check of the whole command before its first
 * write (internal to run.c): every job of every run group and job file,
 * every target and every output, so that a refusal never comes after a
 * write (docs/safety.md, "every refusal before the first write"). */
#ifndef NVS_RUNCHECK_H
#define NVS_RUNCHECK_H

#include <stddef.h>
#include "io/opt/spec.h"

struct safety_fileset;

/* What the command reads and writes besides the jobs' own options. */
struct runcheck {
	const struct spec *jobs;
	unsigned njobs;
	const char *const *inputs; /* preset or job files and their includes */
	unsigned ninputs;
	const char *const *outputs; /* --output, the CSV files */
	unsigned noutputs;
	const char *output_dir; /* --output-dir (relative logs go there), or NULL */
};

/* Checks, touching nothing: each job's options (spec_validate, the ring's
 * depth limit, the engine and zone options against the kind of each
 * target), each written target by the write rule (safety_check_write: in
 * use, data), each output (--output, CSV, write_iolog, write_*_log) by the
 * output rule and against every input and target of the command by
 * identity (safety_fileset_check_output).  Call it with the targets pinned
 * (safety_pin_hold): every look at a target (safety_pin_stat, the write
 * rule's safety_open) is then compared with its pin, a target swapped in
 * since is refused, and every later open compares with the same pin: what
 * is written is what was checked.  0, or -errno with one line in @err. */
int runcheck_all(const struct runcheck *rc, char *err, size_t errlen);
/* One job with its targets set: its options, the kind of each target, the
 * write rule on what it writes or lays out (through the pins held, as
 * runcheck_all).  0 or -errno with @err ("[NAME] why"). */
int runcheck_job(const struct spec *s, char *err, size_t errlen);

/* ---- tests only ---- */
/* @fn(@arg) is called by runcheck_all() once the whole command has passed,
 * just before it returns: a unit test swaps a target there, in the window
 * between the check and the first write (tests/unit/test_runcheck.c).
 * Nothing in nvscope sets it: no option, file or variable reaches it. */
void runcheck_set_test_hook(void (*fn)(void *arg), void *arg);
/* ---- end tests only ---- */

#endif

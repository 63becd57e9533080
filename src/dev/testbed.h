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

/* The PCIe link of an NVMe controller, from sysfs (the controller's PCI
 * device: current_link_speed "16.0 GT/s PCIe", current_link_width "4",
 * max_link_speed, max_link_width).  Each figure NAN / 0 when its file is
 * unreadable or says "Unknown"; a figure never guessed. */
struct testbed_link {
	double speed_gts, max_speed_gts; /* GT/s, NAN unknown */
	unsigned width, max_width;	 /* lanes, 0 unknown */
};
/* Reads the link of controller @ctrl ("nvme0") below the sysfs root in
 * use (safety_sysfs_root(): a unit test's tree) into @l.  0; -ENOENT when
 * it has no PCIe link (none of the four files: not a PCI Express device,
 * or a fabrics controller), -EINVAL for a bad name. */
int testbed_pcie_link(const char *ctrl, struct testbed_link *l);
/* A link speed as sysfs writes it ("8.0 GT/s PCIe", "2.5 GT/s", "Unknown
 * speed"): GT/s, or NAN when it is not a finite positive "N GT/s". */
double testbed_parse_speed(const char *s);
/* The PCIe generation of @gts (2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5,
 * 64 -> 6), 0 for another or unknown speed. */
unsigned testbed_pcie_gen(double gts);

/* Adds to each drive of testbed @tb (testbed_json's) "health_before" and
 * "health_after": the figures reviewers quote (temperature_c,
 * percentage_used, available_spare, media_errors, critical_warning,
 * data_units_written) of its "health" in @before / @after (cJSON trees of
 * device-before.json / device-after.json: "targets"[] with "path"; either
 * may be NULL), null where there is none (not NVMe, not read, or the run
 * has not ended). */
void testbed_add_health(void *tb, const void *before, const void *after);

#endif

/* checkhtml.h - the drive check's part of the HTML report: a results
 * directory written by `nvscope check` (docs/check.md) rendered as one table
 * row per serial (device, model, firmware, capacity, verdict and the
 * reasons in words), read back from its summary.json.  Everything read is
 * untrusted (serials and models come from drives): escaped, numbers range
 * checked. */
#ifndef NVS_CHECKHTML_H
#define NVS_CHECKHTML_H

#include <stdbool.h>
#include <stdio.h>

/* True when @meta (a parsed meta.json, cJSON * as void *) is a check's. */
bool checkhtml_is_check(const void *meta);
/* Writes the section of check results directory @dir titled @label to @f.
 * A missing, truncated or hostile summary.json gives a line saying so,
 * never a failure. */
void checkhtml_section(FILE *f, const char *dir, const char *label);

#endif

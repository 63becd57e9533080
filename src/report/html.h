/* html.h - the HTML report of one or more plan results directories: one
 * self-contained page (inline CSS and SVG, no script, no network) with the
 * charts reviews draw - preconditioning scatter (IOPS and latency per
 * interval on two axes, steady-state window marked), IOPS and latency vs
 * queue depth, the rate curve (latency vs IOPS), thread x QD and SNIA
 * matrix tables, latency QoS (p99.9 ... p99.9999 columns, exceedance curves
 * and histograms from the json+ bins: qoshtml.h), the test bed and each
 * step's parameters as run (bedhtml.h), and the numbers (docs/report.md).
 * Several directories (drives) appear side by side in every section.  A
 * drive check's results directory (meta.json "command": "check") gets a
 * verdict table instead (checkhtml.c); plan and check directories may be
 * mixed.  Any number of directories: each has a colour and a line style
 * (docs/report.md "Many runs").  With a chartpub (chartpub.h) every chart
 * is also written as files of its own and linked under its drawing. */
#ifndef NVS_HTML_H
#define NVS_HTML_H

#include <stddef.h>
#include <stdio.h>

/* Writes the report of the @ndirs results directories @dirs to @f.
 * Returns 0, or -errno with one line in @err (a directory that is not a
 * plan results directory: -ENOENT / -EINVAL naming the file). */
int html_write_report(FILE *f, const char *const *dirs, unsigned ndirs, char *err, size_t errlen);
/* The same with every chart also written as files by @pub (chartpub.h;
 * NULL: none) and linked from the page. */
struct chartpub;
int html_write_report_pub(FILE *f, const char *const *dirs, unsigned ndirs, struct chartpub *pub,
			  char *err, size_t errlen);

#endif

/* qoshtml.h - the latency QoS part of the HTML report (html.c): for each
 * row of a step table (a queue depth, a rate-curve point, a grid cell) the
 * full latency histogram rebuilt from the row's JSON (qos.h), the
 * p99.9 ... p99.9999 columns of the step's table ("n/a" where the I/Os do
 * not support a level), the exceedance chart (1 - CDF, log-log, p50 ...
 * p99.9999 marked with their exact values in data attributes), the
 * latency histogram, and a per-target table when the step ran on several
 * targets. */
#ifndef NVS_QOSHTML_H
#define NVS_QOSHTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "report/rtable.h"
#include "stats/hist.h"

/* The histograms of the rows of one drive's step table. */
struct qos_rows {
	size_t n;
	struct hist **h; /* [n]: NULL where the row has none (rc[i] says why) */
	int *rc;	 /* [n]: 0, or qos_job_hist's -errno (-ENOENT: no bins) */
};

/* Loads the histogram of every row of @t, step @kind ("measure",
 * "rate-curve", "grid") in @dir/@sub.  0 or -ENOMEM (then @q is empty). */
int qoshtml_load(const char *dir, const char *sub, const char *kind, const struct rtab *t,
		 struct qos_rows *q);
void qoshtml_free(struct qos_rows *q);
/* The header cells and row @r's cells of the columns p99.9 ... p99.9999. */
void qoshtml_head(FILE *f);
void qoshtml_cells(FILE *f, const struct qos_rows *q, size_t r);
/* The exceedance chart, the histogram chart and the per-target table of
 * one drive's rows (the caller writes the card around them). */
void qoshtml_charts(FILE *f, const char *dir, const char *sub, const char *kind,
		    const struct rtab *t, const struct qos_rows *q);

/* The JSON file of row @r of a @kind table (qdN.json, pctN.json, max.json,
 * tTqQ.json); false when the row names none.  Its label ("QD4", "50%",
 * "max", "T2Q4"), at most QOSHTML_LABEL_LEN bytes with the NUL. */
#define QOSHTML_LABEL_LEN 48
bool qoshtml_row_json(const char *kind, const struct rtab *t, size_t r, char *buf, size_t len);
void qoshtml_row_label(const char *kind, const struct rtab *t, size_t r, char *buf);

#endif

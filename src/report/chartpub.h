/* chartpub.h - every chart of the HTML report also as files of its own, to
 * paste into a review: in a folder beside the page (charts/), each chart as
 * NN-STEP-CHART.svg (a standalone SVG: the inline drawing with its own
 * style), .png (rasterised by rsvg-convert, Debian's librsvg2-bin, run as a
 * child process; skipped with one note when it is missing) and .csv (the
 * series the chart draws, a header naming columns and units), listed in
 * charts/index.csv.  The page links each chart to its files. */
#ifndef NVS_CHARTPUB_H
#define NVS_CHARTPUB_H

#include <stddef.h>
#include <stdio.h>
#include "report/svg.h"

enum { CHARTPUB_SVG = 1, CHARTPUB_PNG = 2, CHARTPUB_CSV = 4, CHARTPUB_ALL = 7 };

struct chartpub;

/* Parses "svg,png,csv" (any subset, in any order) or "none" into
 * CHARTPUB_* bits in @*kinds.  0, or -EINVAL for any other word. */
int chartpub_parse_kinds(const char *s, unsigned *kinds);
/* The folder @dir (made when missing, never through a symlink; @href: its
 * name relative to the page, e.g. "charts") for the files @kinds.  NULL
 * with one line in @err. */
struct chartpub *chartpub_new(const char *dir, const char *href, unsigned kinds, char *err,
			      size_t errlen);
/* The step whose charts follow: its number from 0 and name (NN-STEP). */
void chartpub_step(struct chartpub *p, unsigned i, const char *name);
/* The drive (a results directory's name) whose card's charts follow, until
 * the next step or part (NULL: none): NN-STEP-DRIVE-CHART, so two drives'
 * charts of a step are told apart by name, not by a -2. */
void chartpub_part(struct chartpub *p, const char *name);
/* Writes @c's files and a line of links to them to the page @f: the hook
 * svg_set_hook() takes (@ctx: the chartpub). */
void chartpub_chart(void *ctx, FILE *f, const struct svg_item *c);
/* Rasterises the PNGs and writes index.csv.  0, or the first -errno of
 * any file with one line in @err; @note gets a line for the reader ("PNGs
 * skipped: ...") or "". */
int chartpub_finish(struct chartpub *p, char *note, size_t notelen, char *err, size_t errlen);
/* The number of charts written. */
size_t chartpub_count(const struct chartpub *p);
void chartpub_free(struct chartpub *p);
/* @s as a file-name slug: lower-case letters, digits and '-' (no spaces,
 * slashes or dots), runs of others as one '-', at most @len - 1 bytes;
 * "x" when nothing is left.  Exposed for tests. */
void chartpub_slug(const char *s, char *out, size_t len);

#endif

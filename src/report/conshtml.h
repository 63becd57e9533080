/* conshtml.h - the IO consistency charts of the HTML report (html.c), as
 * AnandTech publishes them: for a long measurement at one queue depth, the
 * IOPS (or MB/s) of every interval over the whole run on a log scale (mean
 * latency on the right axis), then a zoom on the run's last part on a log
 * and on a linear scale.  The zoom starts where AnandTech's does, t = 1400 s,
 * when the run lasts at least as long as theirs (2000 s); a shorter run is
 * zoomed from the same fraction of it (70%).  The charts say where the zoom
 * starts. */
#ifndef NVS_CONSHTML_H
#define NVS_CONSHTML_H

#include <stdbool.h>
#include <stdio.h>

#define CONS_REVIEW_RUN_S  2000.0 /* AnandTech's run (just over 30 min) */
#define CONS_REVIEW_ZOOM_S 1400.0 /* ... and where its zoom starts */

/* Where the zoom of a run that ended at @end_s starts (seconds). */
double conshtml_zoom_start(double end_s);
/* The three charts of step @sub of results directory @dir (its
 * samples.csv); @mbps charts MB/s instead of IOPS (sequential). */
void conshtml_charts(FILE *f, const char *dir, const char *sub, bool mbps);

#endif

/* tracejson.h - a replay's own figures (nvscope.trace in the JSON, one line
 * for people): the trace, lag behind schedule, share issued late, per copy. */
#ifndef NVS_TRACEJSON_H
#define NVS_TRACEJSON_H

#include <stddef.h>
#include "io/trace/replay.h"
#include "io/opt/spec.h"
#include "stats/result.h"

/* JSON text of the "trace" object (malloc'ed, caller frees), or NULL when
 * out of memory.  @res[@n] and @ts[@n]: one per copy. */
char *tracejson_build(const struct spec *s, const struct trace *t, const struct result *res,
		      const struct replay_stats *const *ts, unsigned n);
/* One line: "trace: 1200 I/Os (3 skipped), lag p50 12 us p99 340 us, 0.4% late". */
void tracejson_line(const struct trace *t, const struct replay_stats *const *ts, unsigned n,
		    bool timed, char *buf, size_t len);

#endif

/* replay.h - trace replay: fio's replay options on the spec, the trace
 * prepared for a run (loaded, mapped, time-scaled: all before the clock
 * starts) and the per-copy timing figures a replaying worker keeps.  The
 * worker walks trace->io[] in order; see docs/traces.md. */
#ifndef NVS_REPLAY_H
#define NVS_REPLAY_H

#include <stdint.h>
#include "io/opt/spec.h"
#include "io/trace/trace.h"
#include "stats/hist.h"
#include "io/opt/opt.h"

/* An I/O issued more than this after its scheduled time counts as late. */
#define REPLAY_LATE_NS (1000000ULL)

/* Timing figures of one copy (written by its worker, read after the join). */
struct replay_stats {
	struct hist lag; /* issue time - scheduled time, ns (timed replays only) */
	uint64_t issued, late;
	uint64_t skipped; /* trims and syncs: not replayed */
};

void replay_spec_init(struct spec_replay *r);
/* fio's read_iolog, replay_align, replay_no_stall, replay_redirect, replay_scale,
 * replay_time_scale, trace_copies, trace_stagger, write_iolog (the names in replay_opts): a row
 * each in io/opt/opt.c's one table. */
#define REPLAY_NOPTS 9
extern const struct opt_row replay_opts[REPLAY_NOPTS];
/* spec_validate's part.  0 or -EINVAL. */
int replay_spec_validate(const struct spec *s, char *err, size_t errlen);
/* Loads s->replay.iolog and applies replay_scale, replay_align and
 * replay_time_scale.  0 with *@out owned by the caller, or -errno with @err. */
int replay_prepare(const struct spec *s, struct trace **out, char *err, size_t errlen);
/* True when the trace would write (writes are replayed; trims are not). */
bool replay_writes(const struct trace *t);

static inline void replay_note(struct replay_stats *rs, uint64_t lag_ns)
{
	hist_add(&rs->lag, lag_ns);
	if (lag_ns > REPLAY_LATE_NS)
		rs->late++;
}

#endif

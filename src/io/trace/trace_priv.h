/* trace_priv.h - what the trace readers (trace.c, trace_kernel.c) share.
 * Private to the trace module: no other file includes it. */
#ifndef NVS_TRACE_PRIV_H
#define NVS_TRACE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/trace/trace.h"

#define TRACE_MAX_LEN  (64u << 20)	 /* one I/O at most 64 MiB */
#define TRACE_MAX_TRIM (1u << 30)	 /* a replayed trim (a completion's result is an int) */
#define TRACE_MAX_FILE ((size_t)1 << 31) /* one input file at most 2 GiB */
/* the blktrace files of one trace hold at most TRACE_MAX_BLK bytes */
#define TRACE_MAX_BLK ((size_t)1 << 30)

struct tok {
	const char *p;
	size_t n;
};

/* tracefs text (trace_kernel.c): one line parsed and pushed (0, also for a
 * line that is no event of @devt; -errno), then the whole sorted by time. */
int trace_ftrace_line(struct trace *t, const char *name, unsigned line, const char *p,
		      const char *e, uint32_t devt, char *err, size_t errlen);
int trace_ftrace_finish(struct trace *t, uint32_t devt, char *err, size_t errlen);
/* -E2BIG (over TRACE_MAX_IOS) and -ENOMEM into a message; returns @rc. */
int trace_mem_err(int rc, const char *name, unsigned line, char *err, size_t errlen);

/* Formats @fmt into @err; returns -EINVAL. */
int trace_fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
struct trace *trace_alloc(const char *name, enum trace_fmt fmt);
/* Appends @io, counting it (-ENOMEM). */
int trace_push(struct trace *t, const struct trace_io *io);
/* Strict unsigned decimal of [s, s+n): digits only, no overflow. */
bool trace_num_u64(const char *s, size_t n, uint64_t *out);
bool trace_tok_is(const struct tok *t, const char *s);
/* Splits [s, e) at commas, or at runs of white space when @ws; up to @max
 * tokens, returns the count (max + 1 when more). */
unsigned trace_split(const char *s, const char *e, bool ws, struct tok *tk, unsigned max);

#endif

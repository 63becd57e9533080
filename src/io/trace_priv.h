/* trace_priv.h - what the trace readers (trace.c, trace_kernel.c) share.
 * Private to the trace module: no other file includes it. */
#ifndef NVS_TRACE_PRIV_H
#define NVS_TRACE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/trace.h"

#define TRACE_MAX_LEN  (64u << 20)	 /* one I/O at most 64 MiB */
#define TRACE_MAX_TRIM (1u << 30)	 /* a replayed trim (a completion's result is an int) */
#define TRACE_MAX_FILE ((size_t)1 << 31) /* one input file at most 2 GiB */
/* docs/safety.md "Rule: hostile inputs": a replay holds its trace in
 * memory, at most TRACE_MAX_IOS I/Os (256 MiB of struct trace_io); text
 * is streamed, a line at most TRACE_MAX_LINE bytes (refused, not cut);
 * the blktrace files of one trace hold at most TRACE_MAX_BLK bytes. */
#define TRACE_MAX_IOS  (1u << 23)
#define TRACE_MAX_LINE 4096u
#define TRACE_MAX_BLK  ((size_t)1 << 30)

struct tok {
	const char *p;
	size_t n;
};

/* Distinct names of a text trace (copies). */
struct trace_names {
	char **v;
	unsigned n;
};

/* A text trace read a chunk at a time (iolog v2/v3, MSR CSV, tracefs
 * text; the format by line 1): init, feed the chunks in order, finish. */
struct trace_text {
	const char *name; /* for messages */
	struct trace *t;  /* made at line 1 */
	struct trace_names nm;
	uint64_t clock, first;
	unsigned line;
	char *carry; /* a line cut by a chunk's end: [TRACE_MAX_LINE + 1] */
	size_t ncarry;
};
void trace_text_init(struct trace_text *st, const char *name);
/* 0, or -errno with "name:line: why" in @err (stop feeding then). */
int trace_text_feed(struct trace_text *st, const char *p, size_t n, char *err, size_t errlen);
/* Ends the text (@rc: the feeding's result), frees @st's parts: 0 with
 * *@out, or the first error. */
int trace_text_finish(struct trace_text *st, int rc, struct trace **out, char *err, size_t errlen);
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

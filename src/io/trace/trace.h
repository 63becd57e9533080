/* trace.h - block I/O traces loaded into memory before a replay: fio's iolog
 * (version 2 and 3 text), the SNIA IOTTA CSV of the MSR Cambridge traces and
 * blktrace's binary per-CPU files (issue, "D", events).  Pure: no I/O
 * engine, no allocation after trace_load returns; the replaying worker walks
 * trace->io[] in order. */
#ifndef NVS_TRACE_H
#define NVS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum trace_op { TRACE_READ, TRACE_WRITE, TRACE_TRIM, TRACE_SYNC };
enum trace_fmt { TRACE_IOLOG2, TRACE_IOLOG3, TRACE_MSR_CSV, TRACE_BLKTRACE, TRACE_FTRACE };

struct trace_io {
	uint64_t t_ns; /* arrival time relative to the trace's first I/O */
	uint64_t off;  /* bytes */
	uint32_t len;  /* bytes (0 for sync) */
	uint32_t line; /* line (text) or record (binary) number, for messages */
	uint8_t op;    /* enum trace_op */
};

struct trace {
	enum trace_fmt fmt;
	bool timed;	     /* carries arrival times (v3, CSV, blktrace; v2 with waits) */
	struct trace_io *io; /* [n], in replay order */
	size_t n, cap;
	uint64_t nops[4]; /* per enum trace_op */
	uint64_t max_end; /* highest off + len */
	uint32_t max_len;
	unsigned nfiles; /* distinct file names (iolog), disks (CSV), devices (blktrace) */
	char path[4096]; /* the first file read */
};

/* docs/safety.md "Rule: hostile inputs": a replay holds its trace in
 * memory, at most TRACE_MAX_IOS I/Os (256 MiB of struct trace_io); text
 * is streamed, a line at most TRACE_MAX_LINE bytes (refused, not cut). */
#define TRACE_MAX_IOS  (1u << 23)
#define TRACE_MAX_LINE 4096u

/* Reads @path, format by its content: "fio version 2 iolog" / "fio version 3
 * iolog" (v3 timestamps in microseconds, as fio writes them), blktrace's
 * binary (every sibling PREFIX.blktrace.N of a PREFIX.blktrace.M is read and
 * merged by time), else the MSR CSV
 * (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime; filetime,
 * 100 ns).  @path is a regular file of at most 2 GiB (base/input.h); a
 * text trace is streamed (trace_text_*: a bad line 1 is refused after its
 * first 64 KiB).  Returns 0 with *@out owned by the caller, -EINVAL with one
 * line in @err naming the file and line/record, -E2BIG past TRACE_MAX_IOS,
 * or -errno of the open/read. */
int trace_load(const char *path, struct trace **out, char *err, size_t errlen);

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

/* The same from a text buffer (tests, fuzzing): iolog or CSV, @name in messages. */
int trace_parse_text(const char *name, const char *buf, size_t len, struct trace **out, char *err,
		     size_t errlen);
/* Parses the text of tracefs's block:block_rq_issue events (trace_pipe
 * lines "comm-pid [cpu] flags SECS.USECS: block_rq_issue: MAJ,MIN RWBS BYTES
 * (CMD) SECTOR + NSECT ..."), keeping device @devt (MAJ << 20 | MIN; 0 any):
 * the same issue events blktrace's D are, where lockdown forbids blktrace. */
int trace_parse_ftrace(const char *name, const char *buf, size_t len, uint32_t devt,
		       struct trace **out, char *err, size_t errlen);
/* Parses blktrace records from the binary buffers @bufs[@nbuf] (one per CPU
 * file; @names for messages), merged by time. */
int trace_parse_blktrace(const char *const *names, const void *const *bufs, const size_t *lens,
			 unsigned nbuf, struct trace **out, char *err, size_t errlen);

/* fio's replay_scale (divide offsets by @scale, 0/1 none) then replay_align
 * (round offsets down to @align, a power of two, 0 none), in place. */
void trace_map(struct trace *t, uint64_t scale, uint32_t align);
/* Checks that every I/O fits a region of @region_len bytes and is a
 * multiple of @lbs in offset and length (when @lbs > 0).  0, or -EINVAL
 * naming the first line that does not. */
int trace_check_fit(const struct trace *t, uint64_t region_len, uint32_t lbs, char *err,
		    size_t errlen);
const char *trace_fmt_name(enum trace_fmt f);
/* Writes @t as a fio version 3 iolog (microsecond timestamps) on file name
 * @fname (no white space).  0, -EINVAL for such a name, -EIO. */
int trace_write_iolog3(FILE *f, const struct trace *t, const char *fname);
void trace_free(struct trace *t);

#endif

/* trace.c - fuzzes the block-trace readers (fio iolog v2/v3, MSR CSV,
 * tracefs block_rq_issue text, blktrace binary): the first byte picks the
 * reader, the rest is the trace; a parsed trace is then mapped, checked
 * against a region and written back as an iolog.  The readers exist from
 * the trace-replay work on; without io/trace/trace.h this target does nothing. */
#include <stdlib.h>
#include "fuzz.h"
#if __has_include("io/trace/trace.h")
#include "io/trace/trace.h"
#define HAVE_TRACE 1
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef HAVE_TRACE
	static FILE *null;
	struct trace *t = NULL;
	char err[512];
	int rc;

	if (size < 1 || size > 1 << 16)
		return -1;
	if (!null && !(null = fopen("/dev/null", "w")))
		abort();
	const char *buf = (const char *)data + 1;
	size_t len = size - 1;
	switch (data[0] % 3) {
	case 0:
		rc = trace_parse_text("fuzz.log", buf, len, &t, err, sizeof(err));
		break;
	case 1:
		rc = trace_parse_ftrace("fuzz.ftrace", buf, len, data[0] & 0x80 ? 0 : (259u << 20),
					&t, err, sizeof(err));
		break;
	default: { /* two per-CPU files: the input cut in the middle */
		const char *names[2] = {"fuzz.blktrace.0", "fuzz.blktrace.1"};
		const void *bufs[2] = {buf, buf + len / 2};
		size_t lens[2] = {len / 2, len - len / 2};
		rc = trace_parse_blktrace(names, bufs, lens, data[0] & 0x80 ? 2 : 1, &t, err,
					  sizeof(err));
		break;
	}
	}
	if (rc)
		return 0;
	trace_fmt_name(t->fmt);
	trace_check_fit(t, 1ull << 30, 512, err, sizeof(err));
	trace_map(t, 4, 4096);
	trace_write_iolog3(null, t, "/dev/fuzz");
	trace_free(t);
#else
	(void)data;
	(void)size;
#endif
	return 0;
}

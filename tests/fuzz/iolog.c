/* iolog.c - fuzzes the streamed text-trace reader (io/trace/trace.h trace_text_*:
 * fio iolog v2/v3, MSR CSV, tracefs text), the way trace_load reads a
 * --read_iolog file: the input (after its first two bytes) is fed in chunks
 * whose sizes the first two bytes pick (1 to 256 bytes, varying), and the
 * result must equal trace_parse_text's on the whole text - the same
 * return, the same message, the same I/Os - so a line cut by a chunk's end
 * is never read differently (docs/safety.md "Rule: hostile inputs").  The
 * input is also read as a file through trace_load (a memfd path: a regular
 * file), which must agree as well when it is not blktrace's binary. */
#include <stdbool.h>
#include <stdlib.h>
#include "fuzz.h"
#include "io/trace/trace.h"

static size_t next_chunk(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return 1 + ((*seed >> 16) & 0xff);
}

/* Member by member: struct trace_io's 7 bytes of padding are no part of a
 * trace, and a memcmp of the arrays would depend on how they were made. */
static bool same_io(const struct trace_io *x, const struct trace_io *y)
{
	return x->t_ns == y->t_ns && x->off == y->off && x->len == y->len && x->line == y->line &&
	       x->op == y->op;
}

static void same(int ra, const struct trace *a, const char *ea, int rb, const struct trace *b,
		 const char *eb)
{
	if (ra != rb || strcmp(ea, eb))
		abort();
	if (ra)
		return;
	if (a->n != b->n || a->nfiles != b->nfiles || a->fmt != b->fmt)
		abort();
	for (size_t i = 0; i < a->n; i++)
		if (!same_io(&a->io[i], &b->io[i]))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace *whole = NULL, *streamed = NULL, *loaded = NULL;
	char ew[512] = "", es[512] = "", el[512] = "";
	struct trace_text st;
	int rw, rs, rl;

	if (size < 2 || size > 1 << 16)
		return -1;
	uint32_t seed = (uint32_t)data[0] << 8 | data[1];
	const char *buf = (const char *)data + 2;
	size_t len = size - 2;

	rw = trace_parse_text("fuzz.log", buf, len, &whole, ew, sizeof(ew));
	trace_text_init(&st, "fuzz.log");
	rs = 0;
	for (size_t i = 0, c; i < len && !rs; i += c) {
		c = next_chunk(&seed);
		if (c > len - i)
			c = len - i;
		rs = trace_text_feed(&st, buf + i, c, es, sizeof(es));
	}
	rs = trace_text_finish(&st, rs, &streamed, es, sizeof(es));
	same(rw, whole, ew, rs, streamed, es);

	const char *path = fuzz_file((const uint8_t *)buf, len);
	uint32_t m = 0;
	if (len >= 4)
		memcpy(&m, buf, 4);
	bool blk =
	    (m & 0xffffff00u) == 0x65617400u || (__builtin_bswap32(m) & 0xffffff00u) == 0x65617400u;
	if (!blk) {
		rl = trace_load(path, &loaded, el, sizeof(el));
		/* messages name the file: compare the parts after the name */
		const char *a = strstr(ew, "fuzz.log"), *b = strstr(el, path);
		if (rl != rw || (!a) != (!b) ||
		    (a && b && strcmp(a + strlen("fuzz.log"), b + strlen(path))))
			abort();
		if (!rl)
			same(rw, whole, "", rl, loaded, "");
	}
	trace_free(whole);
	trace_free(streamed);
	trace_free(loaded);
	return 0;
}

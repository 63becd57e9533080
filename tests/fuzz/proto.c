/* proto.c - fuzzes the host protocol (run/proto.h): what a far host (or a
 * man in its login scripts) sends.  The input is fed to the incremental
 * decoder in pieces of a size taken from its first byte; each frame it
 * yields is parsed as its type says; every parsed message is encoded
 * again and must decode and parse to the same type (round trip).  The
 * input as a whole is also parsed as the payload of every message type.
 * A small payload limit (64 KiB) lets the fuzzer reach the refusals. */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "run/proto.h"
#include "fuzz.h"

static int again(void *arg, unsigned type, const char *payload, size_t len)
{
	struct proto_msg m;
	char err[256];
	unsigned *want = arg;

	if (type != *want || proto_msg_parse(type, payload, len, &m, err, sizeof(err)))
		abort(); /* what was encoded must decode and parse back */
	proto_msg_clear(&m);
	*want = 0;
	return 0;
}

static void check_msg(const struct proto_msg *m)
{
	if (m->str && strlen(m->str) > PROTO_MAX_STR)
		abort();
	if (m->type == PROTO_REPLY && (m->status < 0 || m->status > 255))
		abort();
	if ((m->type == PROTO_REQUEST || m->type == PROTO_CANCEL || m->type == PROTO_GO) && !m->id)
		abort();
	/* re-encoded, it decodes and parses again */
	struct proto_out o = {0};
	struct proto_dec *d = proto_dec_new(0);
	unsigned want = m->type;
	char err[256];
	if (!d || proto_out_frame(&o, m->type, m->root) ||
	    proto_dec_feed(d, o.buf, o.len, again, &want, err, sizeof(err)) || want)
		abort();
	proto_dec_free(d);
	proto_out_free(&o);
}

static int on_frame(void *arg, unsigned type, const char *payload, size_t len)
{
	struct proto_msg m;
	char err[256];

	(void)arg;
	if (type == 0 || type >= PROTO_NTYPES || strlen(payload) > len)
		abort();
	if (!proto_msg_parse(type, payload, len, &m, err, sizeof(err))) {
		check_msg(&m);
		proto_msg_clear(&m);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_dec *d;
	char err[256];
	size_t step;

	if (size > 1 << 18)
		return -1;
	d = proto_dec_new(1 << 16);
	if (!d)
		abort();
	step = size ? (size_t)(data[0] % 32) + 1 : 1;
	for (size_t off = size ? 1 : 0; off < size; off += step) {
		size_t n = size - off < step ? size - off : step;
		if (proto_dec_feed(d, data + off, n, on_frame, NULL, err, sizeof(err))) {
			if (!err[0])
				abort(); /* every refusal says why */
			break;
		}
	}
	if (proto_dec_pending(d) > PROTO_HDR + (1 << 16))
		abort();
	proto_dec_free(d);
	for (unsigned t = 1; t < PROTO_NTYPES; t++) {
		struct proto_msg m;
		if (!proto_msg_parse(t, (const char *)data, size, &m, err, sizeof(err))) {
			check_msg(&m);
			proto_msg_clear(&m);
		}
	}
	return 0;
}

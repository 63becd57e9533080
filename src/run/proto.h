/* proto.h - the protocol between nvscope and `nvscope agent` on another
 * host, over the stdin/stdout of an ssh child (docs/hosts.md).
 *
 * A stream of frames.  Each frame is an 8-byte header and a payload:
 *
 *   offset 0  'N' 'V'          magic (a stray line of text is caught here)
 *   offset 2  type             enum proto_type
 *   offset 3  0                reserved: must be zero (refused otherwise)
 *   offset 4  length           payload bytes, u32 big-endian, at most
 *                              PROTO_MAX_PAYLOAD (refused past it: never
 *                              allocated, never waited for)
 *   offset 8  payload          a JSON object (UTF-8)
 *
 * Both sides send HELLO first ({"proto":N,"nvscope":"VERSION","role":...});
 * a peer speaking another protocol version is refused, naming both.  Then
 * the client sends REQUESTs ({"id","method","params"}) and the agent
 * answers each with EVENTs ({"id","kind",...}: progress, log lines) and
 * one REPLY ({"id","status","result"|"error"}); PING/PONG ({"seq"}, the
 * PONG with the agent's clock "t") are answered at once at any time;
 * CANCEL ({"id"}) stops a request; GO ({"id"}) starts a "run" request whose
 * hosts all said "ready" (the run's one start); ERROR ({"error"}) ends a stream that
 * cannot go on; BYE ends it in order.  Samples (a run's) and fetches are
 * the next protocol steps: new frame types and methods under version 1's
 * framing.
 *
 * The decoder is incremental and never blocks: bytes in (any split),
 * frames out through a callback.  Every payload is outside input: the
 * parsers check every type and bound every string.  Pure: no I/O but
 * proto_out_flush's write(2). */
#ifndef NVS_RUN_PROTO_H
#define NVS_RUN_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROTO_VERSION	  1
#define PROTO_HDR	  8
#define PROTO_MAX_PAYLOAD (4u << 20) /* 4 MiB: a rack host's check reply is ~100 kB */

enum proto_type {
	PROTO_HELLO = 1,
	PROTO_REQUEST,
	PROTO_REPLY,
	PROTO_EVENT,
	PROTO_PING,
	PROTO_PONG,
	PROTO_ERROR,
	PROTO_BYE,
	PROTO_CANCEL,
	PROTO_GO, /* {"id"}: start the run request @id prepared (its "ready" event came) */
	PROTO_NTYPES
};

/* "hello", "request", ...; "?" for anything else. */
const char *proto_type_name(unsigned type);

/* Version rule for new frame types: a type that a peer receives only after
 * it has itself shown it knows it (GO goes only to an agent that sent a
 * run's "ready" event, which an older agent never does: it answers the
 * "run" request with "unknown request") is added under the same version;
 * any other change to a frame or message changes PROTO_VERSION. */

/* ---- decoding ---- */

struct proto_dec;

/* A decoder refusing payloads over @max bytes (0: PROTO_MAX_PAYLOAD).
 * NULL when out of memory. */
struct proto_dec *proto_dec_new(size_t max);
void proto_dec_free(struct proto_dec *d);
/* Called for each whole frame, in order; @payload (@len bytes, followed by
 * a NUL not counted in @len) lives until the callback returns.  A non-zero
 * return stops decoding and is returned by proto_dec_feed. */
typedef int (*proto_frame_fn)(void *arg, unsigned type, const char *payload, size_t len);
/* Takes the @n bytes at @data (the stream's next bytes, split anywhere) and
 * calls @fn for each frame they complete.  Returns 0; the callback's
 * non-zero value; -EPROTO (no magic: the first bytes are quoted, escaped;
 * an unknown type; reserved bits set), -EMSGSIZE (a length over the
 * limit), -ENOMEM - with @err.  After an error the decoder refuses
 * everything with the same error. */
int proto_dec_feed(struct proto_dec *d, const void *data, size_t n, proto_frame_fn fn, void *arg,
		   char *err, size_t errlen);
/* Bytes buffered of a frame not yet whole (0 between frames). */
size_t proto_dec_pending(const struct proto_dec *d);

/* ---- messages ---- */

/* A frame's payload, parsed and checked for its type.  The strings point
 * into @root (freed by proto_msg_clear). */
struct proto_msg {
	unsigned type;
	void *root;	  /* the cJSON object (a cJSON *) */
	uint64_t id;	  /* REQUEST, REPLY, EVENT, CANCEL, GO (>= 1) */
	uint64_t seq;	  /* PING, PONG */
	unsigned proto;	  /* HELLO */
	const char *str;  /* HELLO "nvscope", REQUEST "method", EVENT "kind", ERROR "error",
			     REPLY "error" (or NULL) */
	const char *role; /* HELLO: "client" or "agent" */
	const char *host; /* HELLO: the agent's host name, or NULL */
	bool restricted;  /* HELLO: the agent runs with --allow */
	int status;	  /* REPLY: the exit status the command has on that host (0..255) */
	void *body;	  /* REQUEST "params", REPLY "result", EVENT: the object (may be NULL) */
	double t;	  /* PONG: the sender's clock (unix seconds), NAN when absent */
};

#define PROTO_MAX_STR 4096 /* longest string field the parsers take */

/* Parses and checks the payload of a frame of @type.  0, -EPROTO (not
 * JSON, a field missing or of the wrong type or range: @err says which),
 * -ENOMEM.  On success @m is the caller's (proto_msg_clear). */
int proto_msg_parse(unsigned type, const char *payload, size_t len, struct proto_msg *m, char *err,
		    size_t errlen);
void proto_msg_clear(struct proto_msg *m);
/* A string member @key of object @obj (a cJSON *) of at most @max bytes,
 * or NULL (absent, not a string, too long). */
const char *proto_get_str(const void *obj, const char *key, size_t max);
/* An integer member in [0, @max]: 0, or -EPROTO (absent, not a number, a
 * fraction, out of range). */
int proto_get_u64(const void *obj, const char *key, uint64_t max, uint64_t *out);

/* ---- encoding ---- */

/* Frames waiting to be written (written by proto_out_flush). */
struct proto_out {
	char *buf;
	size_t len, off, cap;
};

/* Appends a frame of @type with JSON @payload (a cJSON *, not taken; NULL:
 * "{}").  0, -EMSGSIZE (over PROTO_MAX_PAYLOAD), -ENOMEM. */
int proto_out_frame(struct proto_out *o, unsigned type, const void *payload);
/* Writes what is waiting to @fd (non-blocking or not): 0 all written, 1
 * some left (wait for POLLOUT), -errno (EPIPE: the peer is gone). */
int proto_out_flush(struct proto_out *o, int fd);
/* Bytes waiting. */
size_t proto_out_pending(const struct proto_out *o);
void proto_out_free(struct proto_out *o);

/* Payload builders (cJSON * as void *; NULL when out of memory). */
void *proto_hello(const char *role, const char *host, bool restricted, unsigned proto);

#endif

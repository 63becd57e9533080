/* proto.c - frames and messages of the host protocol (proto.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "run/proto.h"
#include "base/num.h"
#include "base/termesc.h"

static const char *const type_names[PROTO_NTYPES] = {
    [PROTO_HELLO] = "hello", [PROTO_REQUEST] = "request", [PROTO_REPLY] = "reply",
    [PROTO_EVENT] = "event", [PROTO_PING] = "ping",	  [PROTO_PONG] = "pong",
    [PROTO_ERROR] = "error", [PROTO_BYE] = "bye",	  [PROTO_CANCEL] = "cancel",
    [PROTO_GO] = "go",
};

const char *proto_type_name(unsigned type)
{
	return type > 0 && type < PROTO_NTYPES ? type_names[type] : "?";
}

/* ---- decoding ---- */

struct proto_dec {
	char *buf;
	size_t len, cap, max;
	size_t plen; /* the frame's payload length, once its header is checked */
	bool hdr_ok; /* the header of the frame being read was checked */
	bool seen;   /* a whole frame came already */
	int err;     /* sticky error */
	char msg[256];
};

struct proto_dec *proto_dec_new(size_t max)
{
	struct proto_dec *d = calloc(1, sizeof(*d));

	if (d)
		d->max = max ? max : PROTO_MAX_PAYLOAD;
	return d;
}

void proto_dec_free(struct proto_dec *d)
{
	if (d)
		free(d->buf);
	free(d);
}

size_t proto_dec_pending(const struct proto_dec *d)
{
	return d->len;
}

static int dec_fail(struct proto_dec *d, int rc, char *err, size_t errlen)
{
	d->err = rc;
	snprintf(err, errlen, "%s", d->msg);
	return rc;
}

/* The magic is wrong: quote what came (the buffered bytes and up to 60 of
 * @rest), escaped, so a login script's banner on stdout is recognised. */
static int bad_magic(struct proto_dec *d, const char *rest, size_t nrest, char *err, size_t errlen)
{
	char raw[64], q[160];
	size_t n = d->len < sizeof(raw) ? d->len : sizeof(raw);

	memcpy(raw, d->buf, n);
	if (nrest > sizeof(raw) - n)
		nrest = sizeof(raw) - n;
	memcpy(raw + n, rest, nrest);
	termesc(q, sizeof(q), raw, n + nrest, 60, 0, NULL);
	if (d->seen)
		snprintf(d->msg, sizeof(d->msg),
			 "protocol error: a frame without the magic 'NV' (stream out of step): "
			 "\"%s\"",
			 q);
	else
		snprintf(d->msg, sizeof(d->msg),
			 "not an nvscope agent: it sent \"%s\" (a login script printing to "
			 "stdout?)",
			 q);
	return dec_fail(d, -EPROTO, err, errlen);
}

/* The header of the frame in d->buf: 0, or -EPROTO / -EMSGSIZE. */
static int check_hdr(struct proto_dec *d, char *err, size_t errlen)
{
	const unsigned char *h = (const unsigned char *)d->buf;
	uint32_t len = (uint32_t)h[4] << 24 | (uint32_t)h[5] << 16 | (uint32_t)h[6] << 8 | h[7];

	if (h[2] == 0 || h[2] >= PROTO_NTYPES) {
		snprintf(d->msg, sizeof(d->msg), "protocol error: unknown frame type %u", h[2]);
		return dec_fail(d, -EPROTO, err, errlen);
	}
	if (h[3]) {
		snprintf(d->msg, sizeof(d->msg),
			 "protocol error: a %s frame with reserved bits set (0x%02x)",
			 proto_type_name(h[2]), h[3]);
		return dec_fail(d, -EPROTO, err, errlen);
	}
	if (len > d->max) {
		snprintf(d->msg, sizeof(d->msg),
			 "protocol error: a %s frame of %u bytes, over the limit of %zu",
			 proto_type_name(h[2]), len, d->max);
		return dec_fail(d, -EMSGSIZE, err, errlen);
	}
	d->plen = len;
	d->hdr_ok = true;
	return 0;
}

/* Room for @more bytes and a NUL: grows with what came, never with what a
 * header claims. */
static int reserve(struct proto_dec *d, size_t more)
{
	size_t want = d->len + more + 1, cap = d->cap ? d->cap : 256;

	if (want <= d->cap)
		return 0;
	while (cap < want)
		cap *= 2;
	char *b = realloc(d->buf, cap);
	if (!b)
		return -ENOMEM;
	d->buf = b;
	d->cap = cap;
	return 0;
}

/* The frame in d->buf is whole: hands it over and starts the next. */
static int deliver(struct proto_dec *d, proto_frame_fn fn, void *arg)
{
	unsigned type = (unsigned char)d->buf[2];
	int rc;

	d->buf[d->len] = '\0';
	rc = fn(arg, type, d->buf + PROTO_HDR, d->plen);
	d->seen = true;
	d->len = 0;
	d->hdr_ok = false;
	if (d->cap > (256u << 10)) { /* a big frame's buffer is not kept */
		free(d->buf);
		d->buf = NULL;
		d->cap = 0;
	}
	return rc;
}

int proto_dec_feed(struct proto_dec *d, const void *data, size_t n, proto_frame_fn fn, void *arg,
		   char *err, size_t errlen)
{
	const char *p = data;

	if (d->err) {
		snprintf(err, errlen, "%s", d->msg);
		return d->err;
	}
	for (;;) {
		size_t need = d->hdr_ok ? PROTO_HDR + d->plen - d->len : PROTO_HDR - d->len;
		size_t take = n < need ? n : need;

		if (reserve(d, take)) {
			snprintf(d->msg, sizeof(d->msg), "out of memory");
			return dec_fail(d, -ENOMEM, err, errlen);
		}
		memcpy(d->buf + d->len, p, take);
		d->len += take;
		p += take;
		n -= take;
		if ((d->len >= 1 && d->buf[0] != 'N') || (d->len >= 2 && d->buf[1] != 'V'))
			return bad_magic(d, p, n, err, errlen);
		if (!d->hdr_ok && d->len == PROTO_HDR) {
			int rc = check_hdr(d, err, errlen);
			if (rc)
				return rc;
		}
		if (d->hdr_ok && d->len == PROTO_HDR + d->plen) {
			int rc = deliver(d, fn, arg);
			if (rc)
				return rc;
			continue;
		}
		if (!n)
			return 0;
	}
}

/* ---- messages ---- */

const char *proto_get_str(const void *obj, const char *key, size_t max)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsString(v) || !v->valuestring || strnlen(v->valuestring, max + 1) > max)
		return NULL;
	return v->valuestring;
}

int proto_get_u64(const void *obj, const char *key, uint64_t max, uint64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	uint64_t u;

	if (!cJSON_IsNumber(v) || num_to_u64(v->valuedouble, max, &u) ||
	    (double)u != v->valuedouble)
		return -EPROTO;
	*out = u;
	return 0;
}

#define ID_MAX (1ull << 53) /* exact in a JSON number */

static int bad(char *err, size_t errlen, unsigned type, const char *what)
{
	snprintf(err, errlen, "protocol error: a %s message %s", proto_type_name(type), what);
	return -EPROTO;
}

/* An optional string member: absent is fine, anything else must fit. */
static int opt_str(const cJSON *o, const char *key, size_t max, const char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	*out = NULL;
	if (!v || cJSON_IsNull(v))
		return 0;
	*out = proto_get_str(o, key, max);
	return *out ? 0 : -EPROTO;
}

static int parse_hello(cJSON *o, struct proto_msg *m, char *err, size_t errlen)
{
	uint64_t v;
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "restricted");

	if (proto_get_u64(o, "proto", 65535, &v) || !v)
		return bad(err, errlen, m->type,
			   "without a protocol version (\"proto\": 1..65535)");
	m->proto = (unsigned)v;
	if (!(m->str = proto_get_str(o, "nvscope", 64)))
		return bad(err, errlen, m->type, "without the nvscope version (\"nvscope\")");
	m->role = proto_get_str(o, "role", 16);
	if (!m->role || (strcmp(m->role, "client") && strcmp(m->role, "agent")))
		return bad(err, errlen, m->type, "without a role (\"client\" or \"agent\")");
	if (opt_str(o, "host", 255, &m->host))
		return bad(err, errlen, m->type, "with a bad \"host\"");
	if (r && !cJSON_IsBool(r))
		return bad(err, errlen, m->type, "with a bad \"restricted\"");
	m->restricted = cJSON_IsTrue(r);
	return 0;
}

/* "params"/"result" or an event's object: absent, null, or an object. */
static int opt_obj(cJSON *o, const char *key, struct proto_msg *m)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	m->body = NULL;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsObject(v))
		return -EPROTO;
	m->body = v;
	return 0;
}

static int parse_fields(cJSON *o, struct proto_msg *m, char *err, size_t errlen)
{
	uint64_t v;

	switch (m->type) {
	case PROTO_HELLO:
		return parse_hello(o, m, err, errlen);
	case PROTO_REQUEST:
		if (proto_get_u64(o, "id", ID_MAX, &m->id) || !m->id)
			return bad(err, errlen, m->type, "without an id (1..2^53)");
		if (!(m->str = proto_get_str(o, "method", 32)) || !m->str[0])
			return bad(err, errlen, m->type, "without a method");
		if (opt_obj(o, "params", m))
			return bad(err, errlen, m->type, "whose params are not an object");
		return 0;
	case PROTO_REPLY:
		if (proto_get_u64(o, "id", ID_MAX, &m->id) || !m->id)
			return bad(err, errlen, m->type, "without an id (1..2^53)");
		if (proto_get_u64(o, "status", 255, &v))
			return bad(err, errlen, m->type, "without a status (0..255)");
		m->status = (int)v;
		if (opt_str(o, "error", PROTO_MAX_STR, &m->str))
			return bad(err, errlen, m->type, "with a bad \"error\"");
		if (opt_obj(o, "result", m))
			return bad(err, errlen, m->type, "whose result is not an object");
		return 0;
	case PROTO_EVENT:
		if (proto_get_u64(o, "id", ID_MAX, &m->id))
			return bad(err, errlen, m->type, "without an id (0..2^53)");
		if (!(m->str = proto_get_str(o, "kind", 32)) || !m->str[0])
			return bad(err, errlen, m->type, "without a kind");
		m->body = o;
		return 0;
	case PROTO_PING:
	case PROTO_PONG:
		if (proto_get_u64(o, "seq", ID_MAX, &m->seq))
			return bad(err, errlen, m->type, "without a seq (0..2^53)");
		if (m->type == PROTO_PONG) {
			const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "t");
			if (t && (!cJSON_IsNumber(t) || !isfinite(t->valuedouble)))
				return bad(err, errlen, m->type, "with a bad clock \"t\"");
			if (t)
				m->t = t->valuedouble;
		}
		return 0;
	case PROTO_ERROR:
		if (!(m->str = proto_get_str(o, "error", PROTO_MAX_STR)))
			return bad(err, errlen, m->type, "without an \"error\" text");
		return 0;
	case PROTO_CANCEL:
	case PROTO_GO:
		if (proto_get_u64(o, "id", ID_MAX, &m->id) || !m->id)
			return bad(err, errlen, m->type, "without an id (1..2^53)");
		return 0;
	case PROTO_BYE:
		return 0;
	default:
		snprintf(err, errlen, "protocol error: unknown message type %u", m->type);
		return -EPROTO;
	}
}

int proto_msg_parse(unsigned type, const char *payload, size_t len, struct proto_msg *m, char *err,
		    size_t errlen)
{
	const char *end = NULL;
	cJSON *o;
	int rc;

	memset(m, 0, sizeof(*m));
	m->type = type;
	m->t = NAN;
	o = cJSON_ParseWithLengthOpts(payload, len, &end, false);
	if (!o)
		return bad(err, errlen, type, "is not JSON");
	while (end && end < payload + len && strchr(" \t\r\n", *end) && *end)
		end++;
	if (!cJSON_IsObject(o) || !end || end != payload + len) {
		cJSON_Delete(o);
		return bad(err, errlen, type, "is not one JSON object");
	}
	m->root = o;
	if ((rc = parse_fields(o, m, err, errlen)))
		proto_msg_clear(m);
	return rc;
}

void proto_msg_clear(struct proto_msg *m)
{
	cJSON_Delete(m->root);
	memset(m, 0, sizeof(*m));
}

/* ---- encoding ---- */

int proto_out_frame(struct proto_out *o, unsigned type, const void *payload)
{
	char *s = payload ? cJSON_PrintUnformatted(payload) : strdup("{}");
	size_t n, need;

	if (!s)
		return -ENOMEM;
	n = strlen(s);
	if (n > PROTO_MAX_PAYLOAD) {
		free(s);
		return -EMSGSIZE;
	}
	if (o->off) { /* the written part goes */
		memmove(o->buf, o->buf + o->off, o->len - o->off);
		o->len -= o->off;
		o->off = 0;
	}
	need = o->len + PROTO_HDR + n;
	if (need > o->cap) {
		size_t cap = o->cap ? o->cap : 1024;
		while (cap < need)
			cap *= 2;
		char *b = realloc(o->buf, cap);
		if (!b) {
			free(s);
			return -ENOMEM;
		}
		o->buf = b;
		o->cap = cap;
	}
	unsigned char *h = (unsigned char *)o->buf + o->len;
	h[0] = 'N';
	h[1] = 'V';
	h[2] = (unsigned char)type;
	h[3] = 0;
	h[4] = (unsigned char)(n >> 24);
	h[5] = (unsigned char)(n >> 16);
	h[6] = (unsigned char)(n >> 8);
	h[7] = (unsigned char)n;
	memcpy(o->buf + o->len + PROTO_HDR, s, n);
	o->len += PROTO_HDR + n;
	free(s);
	return 0;
}

int proto_out_flush(struct proto_out *o, int fd)
{
	while (o->off < o->len) {
		ssize_t w = write(fd, o->buf + o->off, o->len - o->off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 1;
		if (w < 0)
			return -errno;
		o->off += (size_t)w;
	}
	o->off = o->len = 0;
	return 0;
}

size_t proto_out_pending(const struct proto_out *o)
{
	return o->len - o->off;
}

void proto_out_free(struct proto_out *o)
{
	free(o->buf);
	memset(o, 0, sizeof(*o));
}

void *proto_hello(const char *role, const char *host, bool restricted, unsigned proto)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || !cJSON_AddNumberToObject(o, "proto", proto) ||
	    !cJSON_AddStringToObject(o, "nvscope", NVS_VERSION) ||
	    !cJSON_AddStringToObject(o, "role", role) ||
	    (host && !cJSON_AddStringToObject(o, "host", host)) ||
	    !cJSON_AddBoolToObject(o, "restricted", restricted)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

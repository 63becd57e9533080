/* vhdr.c - verified blocks (see vhdr.h). */
#include <errno.h>
#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "io/vhdr.h"

struct hdr {
	uint16_t magic, type;
	uint32_t len;
	uint64_t offset;
	uint64_t seq;
	uint32_t hcrc; /* CRC32C of the first 24 bytes */
	uint32_t pad;
	uint8_t sum[32];
};
_Static_assert(sizeof(struct hdr) == VHDR_SIZE, "verify header is 64 bytes");

static const struct {
	const char *name;
	enum vhdr_type t;
} names[] = {
    {"md5", VHDR_MD5},	       {"crc32c", VHDR_CRC32C}, {"crc32c-intel", VHDR_CRC32C},
    {"sha1", VHDR_SHA1},       {"sha256", VHDR_SHA256}, {"meta", VHDR_META},
    {"pattern", VHDR_PATTERN}, {"0", VHDR_NONE},	{"none", VHDR_NONE},
};

int vhdr_parse(const char *name, enum vhdr_type *out)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i].name)) {
			*out = names[i].t;
			return 0;
		}
	return -EINVAL;
}

const char *vhdr_name(enum vhdr_type t)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].t == t)
			return names[i].name;
	return "?";
}

static uint32_t crc_table[256];
static int crc_hw_ok; /* the CPU has SSE4.2's crc32 */
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void)
{
#if defined(__x86_64__)
	__builtin_cpu_init();
	crc_hw_ok = __builtin_cpu_supports("sse4.2");
#endif
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
		crc_table[i] = c;
	}
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) static uint32_t crc_hw(uint32_t c, const uint8_t *p, size_t n)
{
	uint64_t c64 = c;
	for (; n >= 8; n -= 8, p += 8) {
		uint64_t v;
		memcpy(&v, p, 8);
		c64 = __builtin_ia32_crc32di(c64, v);
	}
	c = (uint32_t)c64;
	for (; n; n--, p++)
		c = __builtin_ia32_crc32qi(c, *p);
	return c;
}
#endif

uint32_t vhdr_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t c = ~crc;

	pthread_once(&crc_once, crc_init);
#if defined(__x86_64__)
	if (crc_hw_ok)
		return ~crc_hw(c, p, len);
#endif
	for (size_t i = 0; i < len; i++)
		c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

static void sum(enum vhdr_type t, const uint8_t *p, size_t n, uint8_t out[32])
{
	memset(out, 0, 32);
	switch (t) {
	case VHDR_MD5: {
		struct md5_ctx c;
		md5_init(&c);
		md5_update(&c, n, p);
		md5_digest(&c, MD5_DIGEST_SIZE, out);
		break;
	}
	case VHDR_SHA1: {
		struct sha1_ctx c;
		sha1_init(&c);
		sha1_update(&c, n, p);
		sha1_digest(&c, SHA1_DIGEST_SIZE, out);
		break;
	}
	case VHDR_SHA256: {
		struct sha256_ctx c;
		sha256_init(&c);
		sha256_update(&c, n, p);
		sha256_digest(&c, SHA256_DIGEST_SIZE, out);
		break;
	}
	case VHDR_CRC32C: {
		uint32_t c = vhdr_crc32c(0, p, n);
		memcpy(out, &c, 4);
		break;
	}
	default:
		break;
	}
}

static void fill_pattern(uint8_t *p, size_t n, const uint8_t *pat, unsigned plen)
{
	for (size_t i = 0; i < n; i += plen)
		memcpy(p + i, pat, n - i < plen ? n - i : plen);
}

void vhdr_stamp(void *buf, uint32_t len, uint64_t off, enum vhdr_type t, uint64_t seq,
		const uint8_t *pat, unsigned plen)
{
	uint8_t *b = buf;
	struct hdr h;

	if (t == VHDR_PATTERN) {
		fill_pattern(b, len, pat, plen);
		return;
	}
	if (plen)
		fill_pattern(b + VHDR_SIZE, len - VHDR_SIZE, pat, plen);
	memset(&h, 0, sizeof(h));
	h.magic = VHDR_MAGIC;
	h.type = (uint16_t)t;
	h.len = len;
	h.offset = off;
	h.seq = seq;
	h.hcrc = vhdr_crc32c(0, &h, 24);
	sum(t, b + VHDR_SIZE, len - VHDR_SIZE, h.sum);
	memcpy(b, &h, sizeof(h));
}

int vhdr_check(const void *buf, uint32_t len, uint64_t off, enum vhdr_type t, const uint8_t *pat,
	       unsigned plen, char *why, size_t whylen)
{
	const uint8_t *b = buf;
	struct hdr h;
	uint8_t s[32];

	if (t == VHDR_PATTERN) {
		for (size_t i = 0; i < len; i++)
			if (b[i] != pat[i % plen]) {
				snprintf(why, whylen, "pattern differs at byte %zu", i);
				return -EILSEQ;
			}
		return 0;
	}
	memcpy(&h, b, sizeof(h));
	uint32_t want = h.hcrc;
	h.hcrc = 0;
	h.pad = 0;
	if (h.magic != VHDR_MAGIC || vhdr_crc32c(0, &h, 24) != want) {
		snprintf(why, whylen, "no intact verify header (magic %#x)", h.magic);
		return -EILSEQ;
	}
	if (h.type != t || h.len != len || h.offset != off) {
		snprintf(why, whylen,
			 "header of another block: type %s, %u bytes at offset %llu (read %u at "
			 "%llu)",
			 vhdr_name((enum vhdr_type)h.type), h.len, (unsigned long long)h.offset,
			 len, (unsigned long long)off);
		return -EILSEQ;
	}
	if (t == VHDR_META)
		return 0;
	sum(t, b + VHDR_SIZE, len - VHDR_SIZE, s);
	if (memcmp(s, h.sum, 32)) {
		snprintf(why, whylen, "%s checksum of the data differs", vhdr_name(t));
		return -EILSEQ;
	}
	if (plen)
		for (size_t i = VHDR_SIZE; i < len; i++)
			if (b[i] != pat[(i - VHDR_SIZE) % plen]) {
				snprintf(why, whylen, "verify_pattern differs at byte %zu", i);
				return -EILSEQ;
			}
	return 0;
}

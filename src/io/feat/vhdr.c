/* vhdr.c - verified blocks in fio's format (see vhdr.h). */
#include <errno.h>
#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>
#include <nettle/sha3.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <xxhash.h>
#include "io/core/datagen.h"
#include "io/feat/vhdr.h"
#include "io/feat/vsum.h"

/* fio's struct verify_header, in host order as fio writes it */
struct hdr {
	uint16_t magic, type;
	uint32_t len;
	uint64_t rand_seed;
	uint64_t offset;
	uint32_t time_sec, time_nsec;
	uint16_t thread, numberio;
	uint32_t crc32; /* fio's CRC32C of the 36 bytes before it */
};
_Static_assert(sizeof(struct hdr) == VHDR_HDR_SIZE, "fio's verify header is 40 bytes");
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "fio's header and digests are in host order: written and read on little-endian");
#define HCRC_LEN 36u

static const struct {
	const char *name;
	enum vhdr_type t;
	unsigned dlen; /* the digest's bytes after the header */
} names[] = {
    {"md5", VHDR_MD5, 16},
    {"crc32c", VHDR_CRC32C, 4},
    {"crc32c-intel", VHDR_CRC32C_INTEL, 4},
    {"sha1", VHDR_SHA1, 20},
    {"sha256", VHDR_SHA256, 64},
    {"crc64", VHDR_CRC64, 8},
    {"crc32", VHDR_CRC32, 4},
    {"crc16", VHDR_CRC16, 2},
    {"crc7", VHDR_CRC7, 1},
    {"sha512", VHDR_SHA512, 128},
    {"sha3-224", VHDR_SHA3_224, 28},
    {"sha3-256", VHDR_SHA3_256, 32},
    {"sha3-384", VHDR_SHA3_384, 48},
    {"sha3-512", VHDR_SHA3_512, 64},
    {"xxhash", VHDR_XXHASH, 4},
    {"meta", VHDR_META, 0},
    {"pattern", VHDR_PATTERN, 0},
    {"pattern-hdr", VHDR_PATTERN_HDR, 0},
    {"null", VHDR_NULL, 0},
    {"0", VHDR_NONE, 0},
    {"none", VHDR_NONE, 0},
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

int vhdr_parse(const char *name, enum vhdr_type *out)
{
	for (size_t i = 0; i < NNAMES; i++)
		if (!strcmp(name, names[i].name) && names[i].t != VHDR_PATTERN_HDR) {
			*out = names[i].t;
			return 0;
		}
	return -EINVAL;
}

const char *vhdr_name(enum vhdr_type t)
{
	for (size_t i = 0; i < NNAMES; i++)
		if (names[i].t == t)
			return names[i].name;
	return "?";
}

unsigned vhdr_size(enum vhdr_type t)
{
	if (t == VHDR_PATTERN || t == VHDR_NONE || t == VHDR_NULL)
		return 0;
	for (size_t i = 0; i < NNAMES; i++)
		if (names[i].t == t)
			return VHDR_HDR_SIZE + names[i].dlen;
	return VHDR_HDR_SIZE;
}

uint32_t vhdr_interval(uint32_t len, uint32_t interval)
{
	return interval && interval <= len && len % interval == 0 ? interval : len;
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

/* fio's fio_crc32c(): the register without the final inversion */
static uint32_t fio_crc32c(const void *p, size_t n)
{
	return ~vhdr_crc32c(0, p, n);
}

void vhdr_fio_sha256(const uint8_t *p, size_t n, uint8_t out[64])
{
	/* fio 3.33's crc/sha256.c: the SHA-256 compression, but the bit count
	 * (of a 32-bit byte count) appended little-endian, and the digest
	 * field doubling as the block buffer: it ends as the last padded block
	 * with bytes 0..7 replaced by the low byte of each state word */
	struct sha256_ctx c;
	uint8_t blk[128];
	size_t full = n / 64 * 64, r = n - full, total = r < 56 ? 64 : 128;
	uint64_t bits = (uint64_t)(uint32_t)n << 3;

	sha256_init(&c);
	sha256_update(&c, full, p); /* whole blocks: compressed, nothing kept */
	memset(blk, 0, sizeof(blk));
	memcpy(blk, p + full, r);
	blk[r] = 0x80;
	memcpy(blk + total - 8, &bits, 8);
	sha256_update(&c, total, blk);
	memcpy(out, blk + total - 64, 64);
	for (int i = 0; i < 8; i++)
		out[i] = (uint8_t)c.state[i];
}

#define SHA3(bits)                                                                                 \
	{                                                                                          \
		struct sha3_##bits##_ctx c;                                                        \
		sha3_##bits##_init(&c);                                                            \
		sha3_##bits##_update(&c, n, p);                                                    \
		sha3_##bits##_digest(&c, SHA3_##bits##_DIGEST_SIZE, out);                          \
		return SHA3_##bits##_DIGEST_SIZE;                                                  \
	}

/* The type's digest of @n bytes as fio stores it (host order); its length
 * (what to compare). */
static unsigned digest(enum vhdr_type t, const uint8_t *p, size_t n, uint8_t out[128])
{
	switch (t) {
	case VHDR_CRC64: {
		uint64_t c = vsum_crc64(p, n);
		memcpy(out, &c, 8);
		return 8;
	}
	case VHDR_CRC32: {
		uint32_t c = vsum_crc32(p, n);
		memcpy(out, &c, 4);
		return 4;
	}
	case VHDR_CRC16: {
		uint16_t c = vsum_crc16(p, n);
		memcpy(out, &c, 2);
		return 2;
	}
	case VHDR_CRC7:
		out[0] = vsum_crc7(p, n);
		return 1;
	case VHDR_XXHASH: {
		uint32_t h = XXH32(p, n, 1); /* fio: XXH32_init(1) */
		memcpy(out, &h, 4);
		return 4;
	}
	case VHDR_SHA512:
		vsum_fio_sha512(p, n, out);
		return n < 128 ? (unsigned)n : 128;
	case VHDR_SHA3_224:
		SHA3(224)
	case VHDR_SHA3_256:
		SHA3(256)
	case VHDR_SHA3_384:
		SHA3(384)
	case VHDR_SHA3_512:
		SHA3(512)
	case VHDR_MD5: {
		struct md5_ctx c;
		md5_init(&c);
		md5_update(&c, n, p);
		md5_digest(&c, MD5_DIGEST_SIZE, out);
		return 16;
	}
	case VHDR_SHA1: {
		struct sha1_ctx c;
		sha1_init(&c);
		sha1_update(&c, n, p);
		sha1_digest(&c, SHA1_DIGEST_SIZE, out);
		for (int i = 0; i < 20; i += 4) { /* fio keeps the words in host order */
			uint8_t a = out[i], b = out[i + 1];
			out[i] = out[i + 3];
			out[i + 1] = out[i + 2];
			out[i + 2] = b;
			out[i + 3] = a;
		}
		return 20;
	}
	case VHDR_SHA256:
		vhdr_fio_sha256(p, n, out);
		return 64;
	case VHDR_CRC32C:
	case VHDR_CRC32C_INTEL: {
		uint32_t c = fio_crc32c(p, n);
		memcpy(out, &c, 4);
		return 4;
	}
	default:
		return 0;
	}
}

void vhdr_stamp(void *buf, uint32_t len, uint32_t interval, uint64_t off, enum vhdr_type t,
		const struct vhdr_io *io, const uint8_t *pat, unsigned plen)
{
	uint8_t *b = buf;
	unsigned hs = vhdr_size(t);

	if (t == VHDR_NULL)
		return; /* fio's pretend verify: the data as it is */
	if (plen)
		datagen_fill_pattern(b, len, pat, plen);
	if (t == VHDR_PATTERN)
		return;
	interval = vhdr_interval(len, interval);
	for (uint32_t k = 0; k + interval <= len; k += interval) {
		struct hdr h = {
		    .magic = VHDR_MAGIC,
		    .type = (uint16_t)t,
		    .len = interval,
		    .rand_seed = io->rand_seed,
		    .offset = off + k,
		    .time_sec = (uint32_t)(io->t_ns / 1000000000u),
		    .time_nsec = (uint32_t)(io->t_ns % 1000000000u),
		    .thread = io->thread,
		    .numberio = io->numberio,
		};
		h.crc32 = fio_crc32c(&h, HCRC_LEN);
		memcpy(b + k, &h, sizeof(h));
		digest(t, b + k + hs, interval - hs, b + k + VHDR_HDR_SIZE);
	}
}

/* Checks one interval at buffer position @k (block offset @off). */
static int check_one(const uint8_t *b, uint32_t k, uint32_t interval, uint64_t off,
		     enum vhdr_type t, const uint8_t *pat, unsigned plen, char *why, size_t whylen)
{
	unsigned hs = vhdr_size(t);
	uint8_t s[128];
	struct hdr h;

	if (t != VHDR_PATTERN) {
		memcpy(&h, b + k, sizeof(h));
		if (h.magic != VHDR_MAGIC) {
			snprintf(why, whylen, "bad magic header %x, wanted %x", h.magic,
				 VHDR_MAGIC);
			return -EILSEQ;
		}
		if (h.len != interval) {
			snprintf(why, whylen, "bad header length %u, wanted %u", h.len, interval);
			return -EILSEQ;
		}
		if (h.offset != off + k) {
			snprintf(why, whylen,
				 "bad header offset %llu, wanted %llu (a block of another place)",
				 (unsigned long long)h.offset, (unsigned long long)(off + k));
			return -EILSEQ;
		}
		if (fio_crc32c(&h, HCRC_LEN) != h.crc32) {
			snprintf(why, whylen, "bad header crc %x, calculated %x", h.crc32,
				 fio_crc32c(&h, HCRC_LEN));
			return -EILSEQ;
		}
		bool crcs = (t == VHDR_CRC32C || t == VHDR_CRC32C_INTEL) &&
			    (h.type == VHDR_CRC32C || h.type == VHDR_CRC32C_INTEL);
		if (h.type != t && !crcs) {
			snprintf(why, whylen, "verify type mismatch (%u media, %u given)", h.type,
				 (unsigned)t);
			return -EILSEQ;
		}
		unsigned dl = digest(t, b + k + hs, interval - hs, s);
		if (dl && memcmp(s, b + k + VHDR_HDR_SIZE, dl)) {
			snprintf(why, whylen, "%s checksum of the data differs", vhdr_name(t));
			return -EILSEQ;
		}
	}
	if (plen)
		for (size_t i = k + hs; i < k + interval; i++)
			if (b[i] != pat[i % plen]) {
				snprintf(why, whylen, "pattern differs at byte %zu", i - k);
				return -EILSEQ;
			}
	return 0;
}

int vhdr_check(const void *buf, uint32_t len, uint32_t interval, uint64_t off, enum vhdr_type t,
	       const uint8_t *pat, unsigned plen, uint64_t *bad, char *why, size_t whylen)
{
	if (t == VHDR_NULL)
		return 0; /* fio's pretend verify: read back, not checked */
	interval = t == VHDR_PATTERN ? len : vhdr_interval(len, interval);
	for (uint32_t k = 0; k + interval <= len; k += interval) {
		int rc = check_one(buf, k, interval, off, t, pat, plen, why, whylen);
		if (rc) {
			*bad = off + k;
			return rc;
		}
	}
	return 0;
}

int vhdr_seed(const void *buf, uint32_t len, uint32_t interval, uint64_t off, enum vhdr_type t,
	      uint64_t seed, uint64_t *bad, char *why, size_t whylen)
{
	const uint8_t *b = buf;

	if (t == VHDR_PATTERN || t == VHDR_NULL)
		return 0; /* no header */
	interval = vhdr_interval(len, interval);
	for (uint32_t k = 0; k + interval <= len; k += interval) {
		struct hdr h;
		memcpy(&h, b + k, sizeof(h));
		if (h.rand_seed != seed) {
			snprintf(why, whylen,
				 "bad header rand_seed %llu, wanted %llu: a block this job did not "
				 "write (an earlier write's: the write was lost)",
				 (unsigned long long)h.rand_seed, (unsigned long long)seed);
			*bad = off + k;
			return -EILSEQ;
		}
	}
	return 0;
}

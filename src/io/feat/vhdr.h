/* vhdr.h - fio's workload verification (verify=, verify_pattern=,
 * verify_interval=): what a verified block carries and how it is checked,
 * in fio's on-disk format (fio 3.33's verify.h), so that fio reads what
 * nvscope wrote and nvscope reads what fio wrote.
 *
 * Every verify_interval bytes of a written block (the whole block by
 * default) start with fio's struct verify_header (40 bytes, little-endian:
 * magic 0xacca, verify_type in fio's numbering, len = the interval, the
 * data's rand_seed, the interval's byte offset, the time, the thread, the
 * write's 16-bit number, and fio's CRC32C of the 36 bytes before it)
 * followed by the type's digest of the rest of the interval: md5 16 bytes,
 * crc64 8, crc32/crc32c 4, crc16 2, crc7 1, sha1 20, sha256 64, sha512
 * 128, sha3-224/256/384/512 28/32/48/64, xxhash 4, meta (and pattern with
 * a header) none.
 * The digests are fio's own values, which differ from the textbook ones
 * where fio's implementation does: crc32c without the final inversion,
 * sha1's words in host (little-endian) order, and fio's sha256 (length
 * appended little-endian, the digest field the low byte of each state word
 * then the last padded block's bytes 8..63), fio's sha512 (no hash at all:
 * 128 bytes of the data, see vsum.h) and fio's CRCs (io/feat/vsum.h); xxhash is
 * XXH32 with seed 1 and the sha3s are the standard ones, in host order.  The rest of the interval
 * is the block's fresh data, or verify_pattern (pattern[i % len] over the whole block, the headers
 * on top of it).  verify=pattern (fio's VERIFY_PATTERN_NO_HDR) has no header: the block is the
 * pattern.  A read block is good when each header is intact (magic, CRC32C), names this interval's
 * length and offset, and the digest (meta: the pattern, when given) matches.  Not checked, as fio's
 * verify_only does not check them: rand_seed, numberio, time, thread.  nvscope writes a random
 * nonce per job as rand_seed (its data is not regenerated from a seed, and fio's verify_only of a
 * write job takes the header's) and its own read-back checks it (vhdr_seed): a block of an earlier
 * run, a lost write, is caught though its header and digest are intact.  md5, sha1 and sha3 from
 * nettle, XXH32 from libxxhash (no allocation). */
#ifndef NVS_VHDR_H
#define NVS_VHDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* fio's numbering (verify.h's enum), stored as verify_type on disk */
enum vhdr_type {
	VHDR_NONE = 0,
	VHDR_META = 1, /* fio's VERIFY_HDR_ONLY */
	VHDR_MD5 = 2,
	VHDR_CRC64 = 3,
	VHDR_CRC32 = 4,
	VHDR_CRC32C = 5,
	VHDR_CRC32C_INTEL = 6,
	VHDR_CRC16 = 7,
	VHDR_CRC7 = 8,
	VHDR_SHA256 = 9,
	VHDR_SHA512 = 10,
	VHDR_SHA3_224 = 11,
	VHDR_SHA3_256 = 12,
	VHDR_SHA3_384 = 13,
	VHDR_SHA3_512 = 14,
	VHDR_XXHASH = 15,
	VHDR_SHA1 = 16,
	VHDR_PATTERN_HDR = 17, /* fio's VERIFY_PATTERN: verify_pattern without verify= */
	VHDR_PATTERN = 18,     /* fio's VERIFY_PATTERN_NO_HDR: verify=pattern */
	VHDR_NULL = 19,	       /* fio's VERIFY_NULL: pretend (no header, nothing checked) */
};

#define VHDR_MAGIC    0xacca /* fio's */
#define VHDR_HDR_SIZE 40u    /* fio's struct verify_header */

/* What one write's headers carry besides the block's place. */
struct vhdr_io {
	uint64_t rand_seed, t_ns;
	uint16_t thread, numberio;
};

/* fio's verify= name to a type: 0 or -EINVAL. */
int vhdr_parse(const char *name, enum vhdr_type *out);
const char *vhdr_name(enum vhdr_type t);
/* Bytes of header + digest at the start of each interval (0 for
 * VHDR_PATTERN and VHDR_NULL). */
unsigned vhdr_size(enum vhdr_type t);
/* The interval fio uses for a block of @len bytes: @interval when it is
 * set, at most @len and divides it, else @len. */
uint32_t vhdr_interval(uint32_t len, uint32_t interval);
/* Makes @buf (@len bytes) a verified block for byte offset @off: fills it
 * with @pat when @plen > 0 (else keeps the data there), then writes a
 * header every @interval bytes (0 = one).  VHDR_NULL: leaves @buf alone
 * (fio's populate_verify_io_u returns at once). */
void vhdr_stamp(void *buf, uint32_t len, uint32_t interval, uint64_t off, enum vhdr_type t,
		const struct vhdr_io *io, const uint8_t *pat, unsigned plen);
/* Checks a block read at @off.  0 when good; -EILSEQ with @bad (the byte
 * offset of the first bad interval, as fio names it) and @why (one line:
 * what differs) when not.  VHDR_NULL: always 0 (fio's verify_io_u). */
int vhdr_check(const void *buf, uint32_t len, uint32_t interval, uint64_t off, enum vhdr_type t,
	       const uint8_t *pat, unsigned plen, uint64_t *bad, char *why, size_t whylen);
/* After vhdr_check() passed: 0 when every header of the block carries
 * rand_seed @seed, else -EILSEQ with @bad and @why (a stale block). */
int vhdr_seed(const void *buf, uint32_t len, uint32_t interval, uint64_t off, enum vhdr_type t,
	      uint64_t seed, uint64_t *bad, char *why, size_t whylen);
/* CRC32C (Castagnoli) of @len bytes, starting from @crc (0 for a new one):
 * the textbook value ("123456789": 0xe3069283).  fio's fio_crc32c() is its
 * complement. */
uint32_t vhdr_crc32c(uint32_t crc, const void *buf, size_t len);
/* fio's sha256 of @n bytes into its 64-byte digest field. */
void vhdr_fio_sha256(const uint8_t *p, size_t n, uint8_t out[64]);

#endif

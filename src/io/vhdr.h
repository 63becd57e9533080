/* vhdr.h - fio's workload verification (verify=, verify_pattern=): what a
 * verified block carries and how it is checked.
 *
 * As fio's verify.c: every written block starts with a header (magic, the
 * checksum type, the block's length and byte offset, the writer's sequence
 * number, a CRC32C of the header) followed by the checksum of the rest of
 * the block; the rest is fresh data (or verify_pattern when given).  A read
 * block is good when its header is intact, names this offset and length,
 * and the checksum matches.  verify=pattern carries no header: the whole
 * block is verify_pattern.  verify=meta checks the header only.  The layout
 * is nvscope's own (fio's tools do not read it), 64 bytes.  Checksums:
 * md5, sha1, sha256 from nettle (no allocation); crc32c in software or with
 * the SSE4.2 instruction (crc32c-intel), the same values. */
#ifndef NVS_VHDR_H
#define NVS_VHDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum vhdr_type {
	VHDR_NONE,
	VHDR_MD5,
	VHDR_CRC32C,
	VHDR_SHA1,
	VHDR_SHA256,
	VHDR_META,
	VHDR_PATTERN,
};

#define VHDR_SIZE  64u
#define VHDR_MAGIC 0xacca /* fio's */

/* fio's verify= name to a type: 0 or -EINVAL ("crc32c-intel" is crc32c). */
int vhdr_parse(const char *name, enum vhdr_type *out);
const char *vhdr_name(enum vhdr_type t);
/* Makes @buf (@len bytes, >= VHDR_SIZE unless VHDR_PATTERN) a verified
 * block for byte offset @off: for VHDR_PATTERN fills it with @pat, else
 * fills the payload with @pat when @plen > 0 (else keeps what is there)
 * and writes the header. */
void vhdr_stamp(void *buf, uint32_t len, uint64_t off, enum vhdr_type t, uint64_t seq,
		const uint8_t *pat, unsigned plen);
/* Checks a block read at @off.  0 when good; -EILSEQ with @why (one line:
 * what differs) when not. */
int vhdr_check(const void *buf, uint32_t len, uint64_t off, enum vhdr_type t, const uint8_t *pat,
	       unsigned plen, char *why, size_t whylen);
/* CRC32C (Castagnoli) of @len bytes, starting from @crc (0 for a new one). */
uint32_t vhdr_crc32c(uint32_t crc, const void *buf, size_t len);

#endif

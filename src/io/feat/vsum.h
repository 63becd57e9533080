/* vsum.h - fio 3.33's own checksums for verify= (its crc/ directory), the
 * ones no Debian library computes with fio's parameters, so that a block
 * nvscope stamps carries the bytes fio stores and checks.  Each is a
 * textbook CRC under its catalogue name, with fio's parameters:
 * - crc64: CRC-64/Jones (reflected polynomial 0x95ac9329ac4bc9b5, as
 *   Redis's), init 0, no final xor: "123456789" -> 0xe9c6d914c4b8d9ca
 *   (fio's comment says init ~0; its code starts from 0);
 * - crc32: polynomial 0x04c11db7 not reflected, init 0, no final xor (the
 *   POSIX cksum register without the length and inversion): 0x89a1897f;
 * - crc16: CRC-16/ARC (reflected 0x8005, init 0): 0xbb3d;
 * - crc7: CRC-7/MMC (0x09, init 0, the 7-bit value): 0x75.
 * And fio's sha512 field: fio 3.33 never finalizes its SHA-512 (verify.c's
 * fill_sha512 and verify_io_u_sha512 call only init and update), so the
 * 128 bytes it stores are its context's block buffer: the data's last
 * n % 128 bytes followed by bytes n % 128 .. 127 of its first block.  No
 * hash is involved: a block checked with verify=sha512 is checked on those
 * 128 bytes (and its header), in fio and so here.
 * xxhash (XXH32, seed 1), the sha3 family, md5 and sha1 come from Debian's
 * libxxhash and nettle (see vhdr.c). */
#ifndef NVS_VSUM_H
#define NVS_VSUM_H

#include <stddef.h>
#include <stdint.h>

uint64_t vsum_crc64(const void *buf, size_t len);
uint32_t vsum_crc32(const void *buf, size_t len);
uint16_t vsum_crc16(const void *buf, size_t len);
uint8_t vsum_crc7(const void *buf, size_t len);
/* fio's 128-byte sha512 field of @n bytes.  For @n < 128 fio's bytes past
 * @n are whatever its buffer held; here they are left as they are in @out
 * (vhdr compares only the first @n). */
void vsum_fio_sha512(const uint8_t *p, size_t n, uint8_t out[128]);

#endif

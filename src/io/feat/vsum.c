/* vsum.c - fio's own verify checksums (see vsum.h). */
#include <pthread.h>
#include <string.h>
#include "io/feat/vsum.h"

static uint64_t t64[256];
static uint32_t t32[256];
static uint16_t t16[256];
static uint8_t t7[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The byte tables fio's crc/ files spell out, from their polynomials. */
static void tables(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint64_t c64 = i;
		uint32_t c32 = i << 24;
		uint16_t c16 = (uint16_t)i;
		uint8_t c7 = (uint8_t)i;
		for (int k = 0; k < 8; k++) {
			c64 = c64 & 1 ? (c64 >> 1) ^ 0x95ac9329ac4bc9b5ull : c64 >> 1;
			c32 = c32 & 0x80000000u ? (c32 << 1) ^ 0x04c11db7u : c32 << 1;
			c16 = c16 & 1 ? (uint16_t)((c16 >> 1) ^ 0xa001u) : (uint16_t)(c16 >> 1);
			c7 = c7 & 0x80 ? (uint8_t)((c7 << 1) ^ (0x09 << 1)) : (uint8_t)(c7 << 1);
		}
		t64[i] = c64;
		t32[i] = c32;
		t16[i] = c16;
		t7[i] = (uint8_t)(c7 >> 1);
	}
}

uint64_t vsum_crc64(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t c = 0;

	pthread_once(&once, tables);
	for (size_t i = 0; i < len; i++)
		c = t64[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return c;
}

uint32_t vsum_crc32(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t c = 0;

	pthread_once(&once, tables);
	for (size_t i = 0; i < len; i++)
		c = (c << 8) ^ t32[((c >> 24) ^ p[i]) & 0xff];
	return c;
}

uint16_t vsum_crc16(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint16_t c = 0;

	pthread_once(&once, tables);
	for (size_t i = 0; i < len; i++)
		c = (uint16_t)((c >> 8) ^ t16[(c ^ p[i]) & 0xff]);
	return c;
}

uint8_t vsum_crc7(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint8_t c = 0;

	pthread_once(&once, tables);
	for (size_t i = 0; i < len; i++)
		c = t7[((c << 1) ^ p[i]) & 0xff];
	return c;
}

void vsum_fio_sha512(const uint8_t *p, size_t n, uint8_t out[128])
{
	/* fio_sha512_update() on an empty context: the first 128 bytes into
	 * the buffer, whole blocks compressed in place, the tail (n % 128
	 * bytes) copied over the buffer's start */
	if (n < 128) {
		memcpy(out, p, n);
		return;
	}
	size_t r = n % 128;
	memcpy(out, p, 128);
	memcpy(out, p + n - r, r);
}

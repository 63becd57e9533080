/* test_vsum.c - fio's remaining verify checksums (issue 13): crc64, crc32,
 * crc16, crc7 (io/feat/vsum.h) with their catalogue check values and fio's table
 * entries, fio's sha512 field, and vhdr's sha3-*, xxhash, crc* blocks:
 * header sizes, fio's type numbers, published digests stored after the
 * header, and a corrupted byte caught. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "io/feat/vhdr.h"
#include "io/feat/vsum.h"

START_TEST(test_crc_check_values)
{
	const char *s = "123456789";
	const uint8_t one = 1;

	ck_assert_uint_eq(vsum_crc64(s, 9), 0xe9c6d914c4b8d9caull); /* CRC-64/Jones, init 0 */
	ck_assert_uint_eq(vsum_crc32(s, 9), 0x89a1897fu);
	ck_assert_uint_eq(vsum_crc16(s, 9), 0xbb3du); /* CRC-16/ARC */
	ck_assert_uint_eq(vsum_crc7(s, 9), 0x75u);    /* CRC-7/MMC */
	/* a single 1 byte is entry 1 of fio's tables (crc/crc64.c ...) */
	ck_assert_uint_eq(vsum_crc64(&one, 1), 0x7ad870c830358979ull);
	ck_assert_uint_eq(vsum_crc32(&one, 1), 0x04c11db7u);
	ck_assert_uint_eq(vsum_crc16(&one, 1), 0xc0c1u);
	ck_assert_uint_eq(vsum_crc7(&one, 1), 0x09u);
	ck_assert_uint_eq(vsum_crc64(s, 0), 0);
}
END_TEST

START_TEST(test_fio_sha512_field)
{
	uint8_t d[300], out[128];

	for (size_t i = 0; i < sizeof(d); i++)
		d[i] = (uint8_t)(i * 7 + 1);
	/* 300 bytes: the last 44 (300 % 128) over bytes 44..127 of the first */
	vsum_fio_sha512(d, 300, out);
	ck_assert_mem_eq(out, d + 256, 44);
	ck_assert_mem_eq(out + 44, d + 44, 84);
	vsum_fio_sha512(d, 256, out); /* whole blocks: the first block */
	ck_assert_mem_eq(out, d, 128);
	memset(out, 0xee, sizeof(out));
	vsum_fio_sha512(d, 100, out); /* short: its bytes, the rest untouched */
	ck_assert_mem_eq(out, d, 100);
	ck_assert_uint_eq(out[100], 0xee);
}
END_TEST

static const struct {
	const char *name;
	enum vhdr_type t;
	unsigned hsize; /* fio's __hdr_size() */
	const char *abc; /* the digest of "abc" stored after the header, hex */
} types[] = {
    {"crc64", VHDR_CRC64, 48, NULL},
    {"crc32", VHDR_CRC32, 44, NULL},
    {"crc16", VHDR_CRC16, 42, NULL},
    {"crc7", VHDR_CRC7, 41, NULL},
    {"sha512", VHDR_SHA512, 168, NULL},
    {"xxhash", VHDR_XXHASH, 44, "ffa83daa"}, /* XXH32("abc", seed 1) 0xaa3da8ff, LE */
    {"sha3-224", VHDR_SHA3_224, 68, "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf"},
    {"sha3-256", VHDR_SHA3_256, 72,
     "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
    {"sha3-384", VHDR_SHA3_384, 88,
     "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf22837"
     "6d25"},
    {"sha3-512", VHDR_SHA3_512, 104,
     "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3"
     "934057340b4cf408d5a56592f8274eec53f0"},
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

static void unhex(const char *h, uint8_t *out)
{
	for (size_t i = 0; h[2 * i]; i++) {
		unsigned v;
		ck_assert_int_eq(sscanf(h + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
}

START_TEST(test_new_types)
{
	static uint8_t buf[4096];
	uint8_t want[64];
	const struct vhdr_io io = {.numberio = 3, .thread = 2};
	char why[160];
	uint64_t bad;

	for (size_t i = 0; i < NTYPES; i++) {
		enum vhdr_type t;
		ck_assert_int_eq(vhdr_parse(types[i].name, &t), 0);
		ck_assert_int_eq(t, types[i].t);
		ck_assert_str_eq(vhdr_name(t), types[i].name);
		ck_assert_uint_eq(vhdr_size(t), types[i].hsize);
		/* a block whose data is "abc": the published digest after the header */
		unsigned hs = types[i].hsize;
		memcpy(buf + hs, "abc", 3);
		vhdr_stamp(buf, hs + 3, 0, 0, t, &io, NULL, 0);
		ck_assert_uint_eq(buf[2], (unsigned)t); /* fio's type number */
		if (types[i].abc) {
			unhex(types[i].abc, want);
			ck_assert_mem_eq(buf + VHDR_HDR_SIZE, want, strlen(types[i].abc) / 2);
		}
		ck_assert_int_eq(vhdr_check(buf, hs + 3, 0, 0, t, NULL, 0, &bad, why, sizeof(why)),
				 0);
		/* a whole block, 4 intervals: its last byte changed is caught in the
		 * last interval (sha512 included: fio's field holds the tail) */
		for (size_t k = 0; k < sizeof(buf); k++)
			buf[k] = (uint8_t)(k * 131 + i);
		vhdr_stamp(buf, sizeof(buf), 1024, 8192, t, &io, NULL, 0);
		ck_assert_int_eq(vhdr_check(buf, sizeof(buf), 1024, 8192, t, NULL, 0, &bad, why,
					    sizeof(why)),
				 0);
		buf[4095] ^= 0x40;
		ck_assert_int_eq(vhdr_check(buf, sizeof(buf), 1024, 8192, t, NULL, 0, &bad, why,
					    sizeof(why)),
				 -EILSEQ);
		ck_assert_uint_eq(bad, 8192 + 3072);
		ck_assert_ptr_nonnull(strstr(why, types[i].name));
		buf[4095] ^= 0x40;
		buf[1024 + 600] ^= 1; /* the second interval's middle */
		int rc = vhdr_check(buf, sizeof(buf), 1024, 8192, t, NULL, 0, &bad, why,
				    sizeof(why));
		/* fio's sha512 field covers only the interval's last (n % 128) bytes
		 * and bytes n % 128..127 of its data: the middle is not checked */
		ck_assert_int_eq(rc, t == VHDR_SHA512 ? 0 : -EILSEQ);
		if (rc)
			ck_assert_uint_eq(bad, 8192 + 1024);
	}
	/* crc7's one byte, crc16's two: the header sizes fio reads them at */
	memset(buf, 0, 64);
	vhdr_stamp(buf, 64, 0, 0, VHDR_CRC16, &io, NULL, 0);
	ck_assert_uint_eq(buf[40] | buf[41] << 8, vsum_crc16(buf + 42, 22));
	vhdr_stamp(buf, 64, 0, 0, VHDR_CRC64, &io, NULL, 0);
	uint64_t c;
	memcpy(&c, buf + 40, 8);
	ck_assert_uint_eq(c, vsum_crc64(buf + 48, 16));
}
END_TEST

Suite *vsum_suite(void)
{
	Suite *s = suite_create("vsum");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_crc_check_values);
	tcase_add_test(tc, test_fio_sha512_field);
	tcase_add_test(tc, test_new_types);
	suite_add_tcase(s, tc);
	return s;
}

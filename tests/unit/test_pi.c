/* test_pi.c - NVMe protection information without a device: the T10-DIF
 * CRC16 and the CRC-64/NVMe against published values, the 8-byte and the
 * 16-byte (64-bit guard) tuples' layout (extended LBA and separate
 * metadata, PI first or last), the host's check catching each
 * field, the command fields (PRINFO, CDW14, CDW15, metadata pointer) of
 * the passthrough backend, fio's options and fio's set-up refusals.  (The
 * controller's side is tested by make check-vm on emulated NVMe.) */
#include <check.h>
#include <errno.h>
#include <liburing.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/core/backend.h"
#include "io/feat/pi.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "io/core/target.h"

/* The bitwise definition: MSB first, polynomial 0x8BB7, initial 0. */
static uint16_t crc_bitwise(const uint8_t *p, size_t n)
{
	uint16_t c = 0;
	for (size_t i = 0; i < n; i++) {
		c ^= (uint16_t)(p[i] << 8);
		for (int b = 0; b < 8; b++)
			c = (uint16_t)(c & 0x8000 ? (c << 1) ^ 0x8bb7 : c << 1);
	}
	return c;
}

START_TEST(test_crc16_vectors)
{
	uint8_t b[32];

	/* CRC-16/T10-DIF's check value (the CRC catalogue, "123456789") */
	ck_assert_uint_eq(pi_crc16(0, "123456789", 9), 0xd0db);
	/* SBC-3's CRC test cases: 32 bytes of 00h, FFh, 00h..1Fh, FFh..E0h */
	memset(b, 0, sizeof(b));
	ck_assert_uint_eq(pi_crc16(0, b, 32), 0x0000);
	memset(b, 0xff, sizeof(b));
	ck_assert_uint_eq(pi_crc16(0, b, 32), 0xa293);
	for (int i = 0; i < 32; i++)
		b[i] = (uint8_t)i;
	ck_assert_uint_eq(pi_crc16(0, b, 32), 0x0224);
	for (int i = 0; i < 32; i++)
		b[i] = (uint8_t)(0xff - i);
	ck_assert_uint_eq(pi_crc16(0, b, 32), 0xa0b7);
	/* chained equals one pass; the table equals the definition */
	ck_assert_uint_eq(pi_crc16(pi_crc16(0, b, 13), b + 13, 19), pi_crc16(0, b, 32));
	for (int i = 0; i < 256; i++) {
		uint8_t x = (uint8_t)i;
		ck_assert_uint_eq(pi_crc16(0, &x, 1), crc_bitwise(&x, 1));
	}
}
END_TEST

/* CRC-64/NVMe, bitwise: reflected polynomial 0x9A6C9329AC4BC9B5, initial
 * value and final XOR all ones. */
static uint64_t crc64_bitwise(const uint8_t *p, size_t n)
{
	uint64_t c = ~0ULL;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int b = 0; b < 8; b++)
			c = c & 1 ? (c >> 1) ^ 0x9a6c9329ac4bc9b5ULL : c >> 1;
	}
	return ~c;
}

START_TEST(test_crc64_vectors)
{
	static uint8_t b[4096];

	/* CRC-64/NVME's check value (the CRC catalogue, "123456789") */
	ck_assert_uint_eq(pi_crc64(0, "123456789", 9), 0xae8b14860a799888ULL);
	/* the NVM Command Set specification's 64b CRC test cases: 4 KiB of
	 * 00h, FFh, 00h..FFh repeated, FFh..00h repeated */
	memset(b, 0, sizeof(b));
	ck_assert_uint_eq(pi_crc64(0, b, 4096), 0x6482d367eb22b64eULL);
	memset(b, 0xff, sizeof(b));
	ck_assert_uint_eq(pi_crc64(0, b, 4096), 0xc0ddba7302eca3acULL);
	for (int i = 0; i < 4096; i++)
		b[i] = (uint8_t)i;
	ck_assert_uint_eq(pi_crc64(0, b, 4096), 0x3e729f5f6750449cULL);
	for (int i = 0; i < 4096; i++)
		b[i] = (uint8_t)(0xff - i);
	ck_assert_uint_eq(pi_crc64(0, b, 4096), 0x9a2df64b8e9e517eULL);
	/* chained equals one pass (fio's data, then metadata); the table
	 * equals the definition */
	ck_assert_uint_eq(pi_crc64(pi_crc64(0, b, 4000), b + 4000, 96), pi_crc64(0, b, 4096));
	ck_assert_uint_eq(pi_crc64(0, b, 0), 0);
	for (int i = 0; i < 256; i++) {
		uint8_t x[2] = {(uint8_t)i, (uint8_t)(i * 7)};
		ck_assert_uint_eq(pi_crc64(0, x, 2), crc64_bitwise(x, 2));
	}
}
END_TEST

static struct pi_fmt fmt(uint32_t lba, uint32_t ms, bool ext, uint8_t type, bool first)
{
	struct pi_fmt f = {lba, ms, ext ? lba + ms : lba, ext, type, first, PI_PIF_16};
	return f;
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed * 31 + i * 7 + (i >> 8));
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be_n(const uint8_t *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static struct pi_fmt fmt64(uint32_t lba, uint32_t ms, bool ext, uint8_t type, bool first)
{
	struct pi_fmt f = {lba, ms, ext ? lba + ms : lba, ext, type, first, PI_PIF_64};
	return f;
}

/* The 16-byte tuple (NVM Command Set 5.3.1.4, fio's nvme_64b_guard_pif):
 * 64-bit guard, 16-bit application tag, 48-bit reference tag, big endian. */
START_TEST(test_tuple64_layout)
{
	static uint8_t buf[4 * 4160], md[4 * 64];

	/* extended 4096+64, PI last: tuple at 4144 of each 4160; guard over
	 * the data and the 48 metadata bytes before it */
	struct pi_fmt f = fmt64(4096, 64, true, 1, false);
	ck_assert_uint_eq(pi_tuple_size(&f), 16);
	ck_assert_uint_eq(pi_tuple_off(&f), 4144);
	fill(buf, sizeof(buf), 21);
	pi_generate(&f, PI_PRCHK_ALL, 0x0888, buf, NULL, 0xabcd12345670ULL, 4);
	for (int i = 0; i < 4; i++) {
		const uint8_t *l = buf + i * 4160, *t = l + 4144;
		ck_assert_uint_eq(be_n(t, 8), crc64_bitwise(l, 4144));
		ck_assert_uint_eq(be_n(t + 8, 2), 0x0888);
		ck_assert_uint_eq(be_n(t + 10, 6), 0xabcd12345670ULL + (unsigned)i);
	}
	/* the reference tag is the LBA's low 48 bits */
	pi_generate(&f, PI_PRCHK_REF, 0, buf, NULL, (1ULL << 48) - 1, 2);
	ck_assert_uint_eq(be_n(buf + 4144 + 10, 6), 0xffffffffffffULL);
	ck_assert_uint_eq(be_n(buf + 4160 + 4144 + 10, 6), 0);
	/* separate 16-byte metadata, PI first = the whole metadata: guard over
	 * the data alone */
	f = fmt64(512, 16, false, 2, true);
	ck_assert_uint_eq(pi_tuple_off(&f), 0);
	fill(buf, 2 * 512, 22);
	pi_generate(&f, PI_PRCHK_ALL, 0xbeef, buf, md, 0x123456789aULL, 2);
	ck_assert_uint_eq(be_n(md + 16, 8), crc64_bitwise(buf + 512, 512));
	ck_assert_uint_eq(be_n(md + 16 + 8, 2), 0xbeef);
	ck_assert_uint_eq(be_n(md + 16 + 10, 6), 0x123456789bULL);
	/* separate 64 bytes, PI last: tuple at md + 48, guard over the data
	 * then md[0..48) */
	f = fmt64(4096, 64, false, 1, false);
	ck_assert_uint_eq(pi_tuple_off(&f), 48);
	fill(buf, 2 * 4096, 23);
	fill(md, sizeof(md), 24);
	uint8_t keep[2];
	memcpy(keep, md + 64 + 56, 2);
	pi_generate(&f, PI_PRCHK_GUARD | PI_PRCHK_REF, 0x1234, buf, md, 7, 2);
	ck_assert_uint_eq(be_n(md + 64 + 48, 8),
			  pi_crc64(pi_crc64(0, buf + 4096, 4096), md + 64, 48));
	ck_assert_uint_eq(be_n(md + 64 + 58, 6), 8);
	ck_assert_mem_ne(md + 64 + 56, "\x12\x34", 2); /* apptag not asked: kept */
	ck_assert_mem_eq(md + 64 + 56, keep, 2);
	/* type 3: no reference tag written */
	f = fmt64(512, 16, false, 3, true);
	memset(md, 0xab, 16);
	pi_generate(&f, PI_PRCHK_REF, 0, buf, md, 5, 1);
	ck_assert_uint_eq(be_n(md + 10, 6), 0xababababababULL);
}
END_TEST

START_TEST(test_verify64_catches)
{
	static uint8_t buf[2 * 4160];
	char err[200];
	struct pi_fmt f = fmt64(4096, 64, true, 1, false);

	fill(buf, sizeof(buf), 29);
	pi_generate(&f, PI_PRCHK_ALL, 0x0888, buf, NULL, 50, 2);
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_ALL, 0x0888, 0xffff, buf, NULL, 50, 2, err, sizeof(err)), 0);
	/* a 16-bit check of a 64-bit tuple fails: the format decides */
	struct pi_fmt f16 = fmt(4096, 64, true, 1, false);
	ck_assert_int_eq(
	    pi_verify(&f16, PI_PRCHK_GUARD, 0, 0xffff, buf, NULL, 50, 2, err, sizeof(err)), -EIO);
	/* one data bit of the second LBA */
	buf[4160 + 100] ^= 1;
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_ALL, 0x0888, 0xffff, buf, NULL, 50, 2, err, sizeof(err)), -EIO);
	ck_assert_msg(strstr(err, "Guard compare error: LBA: 51 Expected="), "%s", err);
	char want[80];
	snprintf(want, sizeof(want), "Actual=%llx", (unsigned long long)be_n(buf + 4160 + 4144, 8));
	ck_assert_msg(strstr(err, want), "%s", err);
	buf[4160 + 100] ^= 1;
	/* one metadata bit before the tuple: covered by the guard too */
	buf[4096 + 3] ^= 1;
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_GUARD, 0, 0xffff, buf, NULL, 50, 2, err, sizeof(err)), -EIO);
	buf[4096 + 3] ^= 1;
	/* the application tag, under its mask */
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_APP, 0x0889, 0xffff, buf, NULL, 50, 2, err, sizeof(err)), -EIO);
	ck_assert_msg(strstr(err, "APPTAG compare error: LBA: 50 Expected=889, Actual=888"), "%s",
		      err);
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_APP, 0x0889, 0xfff0, buf, NULL, 50, 2, err, sizeof(err)), 0);
	/* the reference tag: read back at another LBA, and 2^32 LBAs away
	 * (a 32-bit tag would not see it) */
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_REF, 0x0888, 0xffff, buf, NULL, 60, 2, err, sizeof(err)), -EIO);
	ck_assert_msg(strstr(err, "REFTAG compare error: LBA: 60 Expected=3c, Actual=32"), "%s",
		      err);
	ck_assert_int_eq(pi_verify(&f, PI_PRCHK_REF, 0x0888, 0xffff, buf, NULL, 50 + (1ULL << 32),
				   2, err, sizeof(err)),
			 -EIO);
	ck_assert_int_eq(pi_verify(&f, PI_PRCHK_REF, 0x0888, 0xffff, buf, NULL, 50 + (1ULL << 48),
				   2, err, sizeof(err)),
			 0); /* 48 bits wrap */
	/* application tag FFFFh: the LBA is not checked (types 1, 2) */
	memset(buf + 4144, 0, 8);	 /* a bad guard ... */
	memset(buf + 4144 + 8, 0xff, 2); /* ... escaped */
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_GUARD, 0, 0xffff, buf, NULL, 50, 1, err, sizeof(err)), 0);
	/* type 3 needs all 48 reference tag bits set too */
	f.type = 3;
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_GUARD, 0, 0xffff, buf, NULL, 50, 1, err, sizeof(err)), -EIO);
	memset(buf + 4144 + 10, 0xff, 4);
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_GUARD, 0, 0xffff, buf, NULL, 50, 1, err, sizeof(err)), -EIO);
	memset(buf + 4144 + 10, 0xff, 6);
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_GUARD, 0, 0xffff, buf, NULL, 50, 1, err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_tuple_layout)
{
	static uint8_t buf[4 * 4160], md[4 * 64];
	char err[200];

	/* extended 4096+64, PI last: tuple at 4152 of each 4160; guard over
	 * the data and the 56 metadata bytes before it; reftag = LBA */
	struct pi_fmt f = fmt(4096, 64, true, 1, false);
	ck_assert_uint_eq(pi_tuple_off(&f), 4152);
	fill(buf, sizeof(buf), 1);
	pi_generate(&f, PI_PRCHK_ALL, 0x0888, buf, NULL, 1000, 4);
	for (int i = 0; i < 4; i++) {
		const uint8_t *l = buf + i * 4160, *t = l + 4152;
		ck_assert_uint_eq(be16(t), crc_bitwise(l, 4152));
		ck_assert_uint_eq(be16(t + 2), 0x0888);
		ck_assert_uint_eq(be32(t + 4), 1000u + (unsigned)i);
	}
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_ALL, 0x0888, 0xffff, buf, NULL, 1000, 4, err, sizeof(err)), 0);
	/* PI first in an extended LBA: right after the data, guard over the data */
	f = fmt(512, 16, true, 1, true);
	ck_assert_uint_eq(pi_tuple_off(&f), 512);
	fill(buf, 4 * 528, 2);
	pi_generate(&f, PI_PRCHK_GUARD, 0, buf, NULL, 0, 4);
	ck_assert_uint_eq(be16(buf + 528 + 512), crc_bitwise(buf + 528, 512));

	/* separate metadata of 64 per LBA, PI last: tuple at md + 56, guard
	 * over the data then md[0..56) */
	f = fmt(4096, 64, false, 1, false);
	ck_assert_uint_eq(pi_tuple_off(&f), 56);
	fill(buf, 2 * 4096, 3);
	fill(md, sizeof(md), 4);
	pi_generate(&f, PI_PRCHK_GUARD | PI_PRCHK_REF, 0x1234, buf, md, 7, 2);
	ck_assert_uint_eq(be16(md + 64 + 56), pi_crc16(pi_crc16(0, buf + 4096, 4096), md + 64, 56));
	ck_assert_uint_eq(be32(md + 64 + 60), 8);
	/* the application tag is not asked: its bytes are left as they were */
	uint8_t keep[2];
	memcpy(keep, md + 58, 2);
	pi_generate(&f, PI_PRCHK_GUARD, 0x1234, buf, md, 7, 1);
	ck_assert_mem_eq(md + 58, keep, 2);
	/* separate 8-byte metadata, PI first = the whole metadata */
	f = fmt(512, 8, false, 1, true);
	ck_assert_uint_eq(pi_tuple_off(&f), 0);
	fill(buf, 512, 5);
	pi_generate(&f, PI_PRCHK_ALL, 0xbeef, buf, md, 0x123456789ULL, 1);
	ck_assert_uint_eq(be16(md), crc_bitwise(buf, 512));
	ck_assert_uint_eq(be16(md + 2), 0xbeef);
	ck_assert_uint_eq(be32(md + 4), 0x23456789u); /* the low 32 bits */
	/* type 3: no reference tag written */
	f = fmt(512, 8, false, 3, true);
	memset(md, 0xab, 8);
	pi_generate(&f, PI_PRCHK_REF, 0, buf, md, 5, 1);
	ck_assert_uint_eq(be32(md + 4), 0xabababab);
}
END_TEST

START_TEST(test_verify_catches)
{
	static uint8_t buf[2 * 4160];
	char err[200];
	struct pi_fmt f = fmt(4096, 64, true, 1, false);

	fill(buf, sizeof(buf), 9);
	pi_generate(&f, PI_PRCHK_ALL, 0x0888, buf, NULL, 50, 2);
	/* one data bit of the second LBA */
	buf[4160 + 100] ^= 1;
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_ALL, 0x0888, 0xffff, buf, NULL, 50, 2, err, sizeof(err)), -EIO);
	ck_assert_ptr_nonnull(strstr(err, "Guard compare error: LBA: 51"));
	/* not asked: not checked */
	ck_assert_int_eq(pi_verify(&f, PI_PRCHK_REF | PI_PRCHK_APP, 0x0888, 0xffff, buf, NULL, 50,
				   2, err, sizeof(err)),
			 0);
	buf[4160 + 100] ^= 1;
	/* the application tag, under its mask */
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_APP, 0x0889, 0xffff, buf, NULL, 50, 2, err, sizeof(err)), -EIO);
	ck_assert_ptr_nonnull(
	    strstr(err, "APPTAG compare error: LBA: 50 Expected=889, Actual=888"));
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_APP, 0x0889, 0xfff0, buf, NULL, 50, 2, err, sizeof(err)), 0);
	/* the reference tag: read back at another LBA */
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_REF, 0x0888, 0xffff, buf, NULL, 60, 2, err, sizeof(err)), -EIO);
	ck_assert_ptr_nonnull(strstr(err, "REFTAG compare error: LBA: 60 Expected=3c, Actual=32"));
	/* application tag FFFFh: the LBA is not checked (types 1, 2) */
	memset(buf + 4152, 0, 2);	 /* a bad guard ... */
	memset(buf + 4152 + 2, 0xff, 2); /* ... escaped */
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_GUARD, 0, 0xffff, buf, NULL, 50, 1, err, sizeof(err)), 0);
	/* type 3 needs the reference tag FFFFFFFFh too */
	f.type = 3;
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_GUARD, 0, 0xffff, buf, NULL, 50, 1, err, sizeof(err)), -EIO);
	memset(buf + 4152 + 4, 0xff, 4);
	ck_assert_int_eq(
	    pi_verify(&f, PI_PRCHK_GUARD, 0, 0xffff, buf, NULL, 50, 1, err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_cmd_fields)
{
	uint32_t c3 = 0, c12 = 7, c14 = 0, c15 = 0;
	struct pi_fmt f = fmt(512, 8, false, 1, false);

	pi_cmd(&f, true, PI_PRCHK_GUARD | PI_PRCHK_REF, 0x1234, 0xffff, 0x100000005ULL, &c3, &c12,
	       &c14, &c15);
	ck_assert_uint_eq(c3, 0); /* 16-bit guard: a 32-bit tag, CDW3 not used */
	ck_assert_uint_eq(c12, 7u | PI_PRACT | PI_PRCHK_GUARD | PI_PRCHK_REF);
	ck_assert_uint_eq(c12 >> 26, 0xd); /* PRINFO 29:26 = PRACT, GUARD, -, REF = 1101b */
	ck_assert_uint_eq(c14, 5);
	ck_assert_uint_eq(c15, 0); /* application tag not checked: not sent, as fio */
	c12 = 0;
	pi_cmd(&f, false, PI_PRCHK_APP, 0x0888, 0xff00, 9, &c3, &c12, &c14, &c15);
	ck_assert_uint_eq(c12, PI_PRCHK_APP);
	ck_assert_uint_eq(c15, 0xff000888u);
	/* type 3: no reference tag; no PI: nothing */
	c12 = c14 = c15 = 0;
	f.type = 3;
	pi_cmd(&f, true, PI_PRCHK_ALL, 1, 2, 9, &c3, &c12, &c14, &c15);
	ck_assert_uint_eq(c14, 0);
	ck_assert_uint_eq(c15, 2u << 16 | 1);
	c12 = c14 = c15 = 0;
	f.type = 0;
	pi_cmd(&f, true, PI_PRCHK_ALL, 1, 2, 9, &c3, &c12, &c14, &c15);
	ck_assert_uint_eq(c12 | c14 | c15, 0);
	/* 64-bit guard: the 48-bit initial reference tag, bits 47:32 in CDW3
	 * (fio's fio_nvme_pi_fill), as the LBA's low 48 bits */
	f = fmt64(4096, 16, false, 1, false);
	c3 = c12 = c14 = c15 = 0;
	pi_cmd(&f, false, PI_PRCHK_ALL, 0x0888, 0xffff, 0x7123456789abcULL, &c3, &c12, &c14, &c15);
	ck_assert_uint_eq(c12, PI_PRCHK_ALL);
	ck_assert_uint_eq(c14, 0x56789abcu);
	ck_assert_uint_eq(c3, 0x1234u); /* bits 51:48 (7) dropped */
	ck_assert_uint_eq(c15, 0xffff0888u);
	c3 = c14 = 0;
	pi_cmd(&f, false, PI_PRCHK_GUARD, 0, 0, 0x100000000ULL, &c3, &c12, &c14, &c15);
	ck_assert_uint_eq(c3 | c14, 0); /* REFTAG not asked: not sent */
	f.type = 3;
	pi_cmd(&f, false, PI_PRCHK_ALL, 0, 0, 0x100000000ULL, &c3, &c12, &c14, &c15);
	ck_assert_uint_eq(c3 | c14, 0);
}
END_TEST

static struct target pi_target(uint32_t lba, uint32_t ms, bool ext, uint8_t type)
{
	struct target t;

	memset(&t, 0, sizeof(t));
	snprintf(t.path, sizeof(t.path), "/dev/ng0n1");
	t.kind = TARGET_NVME_GENERIC;
	t.fd = 5;
	t.nsid = 1;
	t.lba_shift = lba == 512 ? 9 : 12;
	t.nlba = 1000;
	t.fmt = fmt(lba, ms, ext, type, false);
	t.lbs = t.fmt.stride;
	t.size = t.nlba * t.fmt.stride;
	return t;
}

static struct spec pi_spec(const char *const *kv)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "ioengine", "io_uring_cmd", err, sizeof(err)), 0);
	for (; kv && kv[0]; kv += 2)
		ck_assert_msg(opt_set(&s, kv[0], kv[1], err, sizeof(err)) == 0, "%s=%s: %s", kv[0],
			      kv[1], err);
	return s;
}

START_TEST(test_prep_pi)
{
	static uint8_t buf[2 * 4160], md[128];
	const char *kv[] = {"bs",     "8320",	"pi_act", "0", "pi_chk", "GUARD,REFTAG,APPTAG",
			    "apptag", "0x0888", NULL};
	struct spec s = pi_spec(kv);
	struct target t = pi_target(4096, 64, true, 1);
	struct io_uring_sqe sqe[2];
	char err[256];

	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), 0);
	/* an extended-LBA write at LBA 10 (offset 10 x 4160), 2 LBAs */
	struct backend_io io = {.fd = 5,
				.buf = buf,
				.buf_index = -1,
				.len = 8320,
				.off = 41600,
				.dir = NVS_WRITE,
				.t = &t,
				.pi = &s.pi};
	fill(buf, sizeof(buf), 11);
	memset(sqe, 0, sizeof(sqe));
	backend_uring_cmd.prep(sqe, &io);
	struct nvme_uring_cmd *c = (struct nvme_uring_cmd *)sqe->cmd;
	ck_assert_uint_eq(c->opcode, 0x01);
	ck_assert_uint_eq(c->cdw10, 10);
	ck_assert_uint_eq(c->cdw12, 1u | PI_PRCHK_ALL); /* NLB 1, PRACT 0 */
	ck_assert_uint_eq(c->cdw14, 10);
	ck_assert_uint_eq(c->cdw15, 0xffff0888u);
	ck_assert_uint_eq(c->data_len, 8320);
	ck_assert_uint_eq(c->metadata_len, 0); /* interleaved: no metadata pointer */
	/* the host wrote the PI */
	ck_assert_int_eq(
	    pi_verify(&t.fmt, PI_PRCHK_ALL, 0x0888, 0xffff, buf, NULL, 10, 2, err, sizeof(err)), 0);
	ck_assert_uint_eq(be32(buf + 4160 + 4156), 11);
	ck_assert(uring_cmd_pi_checks(&t, &s));

	/* separate 4096+64 metadata: the metadata pointer and its length */
	const char *kv2[] = {"bs", "8k", "md_per_io_size", "128", "pi_chk", "GUARD", NULL};
	s = pi_spec(kv2);
	t = pi_target(4096, 64, false, 1);
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), 0);
	io = (struct backend_io){.fd = 5,
				 .buf = buf,
				 .buf_index = -1,
				 .len = 8192,
				 .off = 8192,
				 .dir = NVS_READ,
				 .t = &t,
				 .md = md,
				 .pi = &s.pi};
	memset(sqe, 0, sizeof(sqe));
	backend_uring_cmd.prep(sqe, &io);
	ck_assert_uint_eq(c->opcode, 0x02);
	ck_assert_uint_eq(c->metadata, (uint64_t)(uintptr_t)md);
	ck_assert_uint_eq(c->metadata_len, 128);
	ck_assert_uint_eq(c->cdw12, 1u | PI_PRACT | PI_PRCHK_GUARD); /* fio's default pi_act=1 */
	ck_assert(!uring_cmd_pi_checks(&t, &s));
	/* more metadata than md_per_io_size holds: never sent */
	io.len = 16384;
	backend_uring_cmd.prep(sqe, &io);
	ck_assert_uint_ne(c->opcode, 0x02);
	io.len = 8192;
	/* ... and without the buffer the command never reaches the device */
	io.md = NULL;
	backend_uring_cmd.prep(sqe, &io);
	ck_assert_uint_ne(c->opcode, 0x02);
}
END_TEST

/* A 64-bit guard write through the backend: separate 512+16 metadata,
 * beyond LBA 2^32 (the reference tag's bits 47:32 in CDW3). */
START_TEST(test_prep_pi64)
{
	static uint8_t buf[4096], md[128];
	const char *kv[] = {"bs", "4k",	    "md_per_io_size",	   "128",    "pi_act",
			    "0",  "pi_chk", "GUARD,REFTAG,APPTAG", "apptag", "0x0888",
			    NULL};
	struct spec s = pi_spec(kv);
	struct target t = pi_target(512, 16, false, 1);
	struct io_uring_sqe sqe[2];
	char err[256];
	uint64_t slba = 0x100000003ULL;

	t.fmt.pif = PI_PIF_64;
	t.nlba = 1ULL << 40;
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), 0);
	struct backend_io io = {.fd = 5,
				.buf = buf,
				.buf_index = -1,
				.len = 4096,
				.off = slba << 9,
				.dir = NVS_WRITE,
				.t = &t,
				.md = md,
				.pi = &s.pi};
	fill(buf, sizeof(buf), 31);
	memset(md, 0, sizeof(md));
	memset(sqe, 0, sizeof(sqe));
	backend_uring_cmd.prep(sqe, &io);
	struct nvme_uring_cmd *c = (struct nvme_uring_cmd *)sqe->cmd;
	ck_assert_uint_eq(c->opcode, 0x01);
	ck_assert_uint_eq(c->cdw10, 3);
	ck_assert_uint_eq(c->cdw11, 1);
	ck_assert_uint_eq(c->cdw12, 7u | PI_PRCHK_ALL);
	ck_assert_uint_eq(c->cdw14, 3);
	ck_assert_uint_eq(c->cdw3, 1);
	ck_assert_uint_eq(c->cdw15, 0xffff0888u);
	ck_assert_uint_eq(c->metadata_len, 128);
	for (int i = 0; i < 8; i++) {
		ck_assert_uint_eq(be_n(md + 16 * i, 8), crc64_bitwise(buf + 512 * i, 512));
		ck_assert_uint_eq(be_n(md + 16 * i + 10, 6), slba + (unsigned)i);
	}
	ck_assert_int_eq(
	    pi_verify(&t.fmt, PI_PRCHK_ALL, 0x0888, 0xffff, buf, md, slba, 8, err, sizeof(err)), 0);
	/* a read carries the same fields, and writes nothing into the buffers */
	memset(md, 0x5a, sizeof(md));
	io.dir = NVS_READ;
	backend_uring_cmd.prep(sqe, &io);
	ck_assert_uint_eq(c->opcode, 0x02);
	ck_assert_uint_eq(c->cdw3, 1);
	ck_assert_uint_eq(md[0], 0x5a);
}
END_TEST

START_TEST(test_setup_rules)
{
	char err[256];
	struct spec s;
	struct target t;

	/* pi_act=1 with an 8-byte PI-only metadata: nothing moves with the data */
	s = pi_spec(NULL);
	t = pi_target(512, 8, true, 1);
	ck_assert_uint_eq(t.lbs, 520);
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), 0);
	ck_assert_uint_eq(t.lbs, 512);
	ck_assert_uint_eq(t.fmt.ms, 0);
	ck_assert_uint_eq(t.size, 512000);
	/* ... with pi_act=0 it does (and bs must count it) */
	const char *act0[] = {"pi_act", "0", NULL};
	s = pi_spec(act0);
	t = pi_target(512, 8, true, 1);
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "multiple of 520") && strstr(err, "4160"), "%s", err);
	/* separate metadata larger than the PI: md_per_io_size needed */
	const char *bs8[] = {"bs", "8k", "md_per_io_size", "64", NULL};
	s = pi_spec(bs8);
	t = pi_target(4096, 64, false, 1);
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "md_per_io_size should be at least 128 bytes"), "%s", err);
	/* 64-bit guard, pi_act=1 with a metadata of the 16-byte PI alone:
	 * nothing moves with the data (fio: ms == pi_size) */
	s = pi_spec(NULL);
	t = pi_target(512, 16, true, 1);
	t.fmt.pif = PI_PIF_64;
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), 0);
	ck_assert_uint_eq(t.fmt.ms, 0);
	ck_assert_uint_eq(t.lbs, 512);
	/* ... a 16-bit guard's 16 bytes of metadata still move (bs counts them) */
	ck_assert_uint_eq(t.fmt.stride, 512);
	t = pi_target(512, 16, true, 1);
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "multiple of 528"), "%s", err);
	const char *bs528[] = {"bs", "1056", NULL};
	s = pi_spec(bs528);
	t = pi_target(512, 16, true, 1);
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), 0);
	ck_assert_uint_eq(t.fmt.ms, 16);
	ck_assert_uint_eq(t.lbs, 528);
	/* a metadata smaller than its tuple (no such format: a bad Identify) */
	t = pi_target(512, 8, false, 1);
	t.fmt.pif = PI_PIF_64;
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "smaller than its 16-byte protection information"), "%s", err);
	/* storage tags, the 32-bit guard and PIF 3: refused by name, as fio
	 * refuses storage tags (the 32-bit guard needs one) */
	t = pi_target(4096, 16, false, 1);
	t.fmt.pif = PI_PIF_64;
	t.sts = 16;
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "storage tag") && strstr(err, "16 bits"), "%s", err);
	t = pi_target(4096, 16, false, 1);
	t.fmt.pif = PI_PIF_32;
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "32-bit guard"), "%s", err);
	t = pi_target(4096, 16, false, 1);
	t.fmt.pif = 3;
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "PIF 3"), "%s", err);
	/* without PI the guard format does not matter */
	s = pi_spec(NULL);
	t = pi_target(4096, 16, false, 0);
	t.fmt.pif = PI_PIF_32;
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, "md_per_io_size"), "%s", err);
	/* metadata without PI: the buffer is still needed, no PRINFO */
	s = pi_spec(NULL);
	t = pi_target(512, 8, false, 0);
	ck_assert_int_eq(uring_cmd_pi_setup(&t, &s, err, sizeof(err)), -EINVAL);
}
END_TEST

START_TEST(test_options)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert(s.pi.act);
	ck_assert_uint_eq(s.pi.apptag, 0x1234);
	ck_assert_uint_eq(s.pi.apptag_mask, 0xffff);
	ck_assert_uint_eq(s.pi.chk, 0);
	ck_assert_int_eq(opt_set(&s, "pi_chk", "GUARD,APPTAG,REFTAG", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.pi.chk, PI_PRCHK_ALL);
	ck_assert_int_eq(opt_set(&s, "pi_chk", "REFTAG", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.pi.chk, PI_PRCHK_REF);
	ck_assert_int_eq(opt_set(&s, "pi_chk", "guard", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "'guard'"));
	ck_assert_int_eq(opt_set(&s, "pi_chk", "GUARD,CRC", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "apptag", "0x0888", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.pi.apptag, 0x888);
	ck_assert_int_eq(opt_set(&s, "apptag_mask", "65280", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.pi.apptag_mask, 0xff00);
	ck_assert_int_eq(opt_set(&s, "apptag", "0x10000", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "apptag", "0x", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "apptag_mask", "-1", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "pi_act", "2", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "pi_act", "0", err, sizeof(err)), 0);
	ck_assert(!s.pi.act);
	ck_assert_int_eq(opt_set(&s, "md_per_io_size", "64", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.pi.md_per_io, 64);
	ck_assert_int_eq(opt_set(&s, "md_per_io_size", "1g", err, sizeof(err)), -EINVAL);
	/* io_uring_cmd only */
	opt_set(&s, "target", "/dev/ng0n1", err, sizeof(err));
	ck_assert_int_eq(pi_spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "io_uring_cmd"));
	s.ioengine = ENGINE_IO_URING_CMD;
	ck_assert_int_eq(pi_spec_validate(&s, err, sizeof(err)), 0);
	char n[40];
	ck_assert_str_eq(pi_chk_name(PI_PRCHK_ALL, n, sizeof(n)), "GUARD,REFTAG,APPTAG");
	ck_assert_str_eq(pi_chk_name(PI_PRCHK_APP, n, sizeof(n)), "APPTAG");
	ck_assert_str_eq(pi_status_name(0x4282), ": end-to-end guard check error");
}
END_TEST

Suite *pi_suite(void)
{
	Suite *s = suite_create("pi");
	TCase *t = tcase_create("pi");

	tcase_add_test(t, test_crc16_vectors);
	tcase_add_test(t, test_crc64_vectors);
	tcase_add_test(t, test_tuple64_layout);
	tcase_add_test(t, test_verify64_catches);
	tcase_add_test(t, test_prep_pi64);
	tcase_add_test(t, test_tuple_layout);
	tcase_add_test(t, test_verify_catches);
	tcase_add_test(t, test_cmd_fields);
	tcase_add_test(t, test_prep_pi);
	tcase_add_test(t, test_setup_rules);
	tcase_add_test(t, test_options);
	suite_add_tcase(s, t);
	return s;
}

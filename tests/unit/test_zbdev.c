/* test_zbdev.c - the zoned device's reports and commands (io/feat/zbdev.h):
 * NVMe Zone Management Receive / Send as built, NVMe zone reports and the
 * block layer's BLKREPORTZONE reports parsed, short and malformed ones
 * refused. */
#include <check.h>
#include <endian.h>
#include <errno.h>
#include <linux/blkzoned.h>
#include <stdlib.h>
#include <string.h>
#include "io/feat/zbdev.h"

#define MB (1024ull * 1024)

START_TEST(test_zns_cmds)
{
	struct nvme_passthru_cmd c;
	uint8_t buf[4096];

	zbdev_zns_recv_cmd(&c, 3, 0x123456789ull, buf, sizeof(buf));
	ck_assert_uint_eq(c.opcode, 0x7a);
	ck_assert_uint_eq(c.nsid, 3);
	ck_assert_uint_eq(c.cdw10, 0x23456789u);
	ck_assert_uint_eq(c.cdw11, 0x1u);
	ck_assert_uint_eq(c.cdw12, 4096 / 4 - 1); /* NUMD, zero based */
	ck_assert_uint_eq(c.cdw13, 1u << 16);	  /* report, all, partial */
	ck_assert_uint_eq(c.data_len, 4096);
	ck_assert_uint_eq(c.addr, (uint64_t)(uintptr_t)buf);
	zbdev_zns_send_cmd(&c, 1, 0x800, ZBDEV_ZSA_RESET);
	ck_assert_uint_eq(c.opcode, 0x79);
	ck_assert_uint_eq(c.nsid, 1);
	ck_assert_uint_eq(c.cdw10, 0x800);
	ck_assert_uint_eq(c.cdw11, 0);
	ck_assert_uint_eq(c.cdw13, 0x4); /* ZSA reset, select all clear */
	ck_assert_uint_eq(c.data_len, 0);
	ck_assert_uint_eq(c.addr, 0);
	zbdev_zns_send_cmd(&c, 1, 0, ZBDEV_ZSA_FINISH);
	ck_assert_uint_eq(c.cdw13, 0x2);
}
END_TEST

static void put64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

/* an NVMe report of @n zones of 2048 LBAs (512 B: 1 MiB), capacity 1536 */
static size_t zns_report(uint8_t *b, unsigned n, uint64_t nr)
{
	memset(b, 0, 64 + n * 64);
	put64(b, nr);
	for (unsigned i = 0; i < n; i++) {
		uint8_t *d = b + 64 + i * 64;
		d[0] = 0x2;		    /* sequential write required */
		d[1] = i ? 0x10 : 0x20;	    /* empty; zone 0 implicitly open */
		put64(d + 8, 1536);	    /* zcap */
		put64(d + 16, i * 2048ull); /* zslba */
		put64(d + 24, i * 2048ull + (i ? 0 : 100));
	}
	return 64 + n * 64;
}

START_TEST(test_zns_parse)
{
	uint8_t b[64 + 4 * 64];
	struct zbdev_zone z[4];
	uint32_t got = 99;
	size_t len = zns_report(b, 4, 4);

	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, MB, z, 4, &got), 0);
	ck_assert_uint_eq(got, 4);
	ck_assert_uint_eq(z[0].start, 0);
	ck_assert_uint_eq(z[0].wp, 100 * 512);
	ck_assert_uint_eq(z[0].cond, ZBDEV_COND_IMP_OPEN);
	ck_assert_uint_eq(z[1].start, MB);
	ck_assert_uint_eq(z[1].cap, 1536 * 512);
	ck_assert_uint_eq(z[1].len, MB);
	ck_assert_uint_eq(z[3].wp, 3 * MB);
	ck_assert(z[3].seq);
	/* at most @max */
	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, MB, z, 2, &got), 0);
	ck_assert_uint_eq(got, 2);
	/* a full zone's write pointer is its capacity's end, whatever the
	 * report says (ZNS: not valid; QEMU: all ones) */
	b[64 + 64 + 1] = 0xe0;
	put64(b + 64 + 64 + 24, UINT64_MAX);
	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, MB, z, 4, &got), 0);
	ck_assert_uint_eq(z[1].wp, MB + 1536 * 512);
}
END_TEST

START_TEST(test_zns_parse_bad)
{
	uint8_t b[64 + 4 * 64];
	struct zbdev_zone z[4];
	uint32_t got;
	size_t len = zns_report(b, 4, 4);

	/* short: no header; more zones than the buffer holds */
	ck_assert_int_eq(zbdev_parse_zns(b, 63, 9, MB, z, 4, &got), -EIO);
	ck_assert_int_eq(zbdev_parse_zns(NULL, len, 9, MB, z, 4, &got), -EIO);
	ck_assert_int_eq(zbdev_parse_zns(b, len - 1, 9, MB, z, 4, &got), -EIO);
	zns_report(b, 4, 5);
	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, MB, z, 4, &got), -EIO);
	zns_report(b, 4, UINT64_MAX);
	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, MB, z, 4, &got), -EIO);
	/* a write pointer past the capacity, before the zone */
	zns_report(b, 4, 4);
	put64(b + 64 + 64 + 24, 2048 + 1537);
	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, MB, z, 4, &got), -EIO);
	put64(b + 64 + 64 + 24, 2047);
	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, MB, z, 4, &got), -EIO);
	/* a gap between zones; a capacity over the zone size */
	zns_report(b, 4, 4);
	put64(b + 64 + 2 * 64 + 16, 3 * 2048);
	put64(b + 64 + 2 * 64 + 24, 3 * 2048);
	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, MB, z, 4, &got), -EIO);
	zns_report(b, 4, 4);
	put64(b + 64 + 8, 2049);
	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, MB, z, 4, &got), -EIO);
	/* unknown zone type, unknown state, an LBA that overflows bytes */
	zns_report(b, 4, 4);
	b[64] = 0x1;
	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, MB, z, 4, &got), -EIO);
	zns_report(b, 4, 4);
	b[64 + 1] = 0x70;
	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, MB, z, 4, &got), -EIO);
	zns_report(b, 4, 4);
	put64(b + 64 + 16, 1ull << 60);
	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, MB, z, 4, &got), -EIO);
	/* nonsense geometry */
	zns_report(b, 4, 4);
	ck_assert_int_eq(zbdev_parse_zns(b, len, 3, MB, z, 4, &got), -EIO);
	ck_assert_int_eq(zbdev_parse_zns(b, len, 9, 0, z, 4, &got), -EIO);
}
END_TEST

START_TEST(test_blk_parse)
{
	size_t len = sizeof(struct blk_zone_report) + 3 * sizeof(struct blk_zone);
	struct blk_zone_report *r = calloc(1, len);
	struct zbdev_zone z[3];
	uint32_t got;

	r->nr_zones = 3;
	r->flags = BLK_ZONE_REP_CAPACITY;
	for (unsigned i = 0; i < 3; i++) {
		r->zones[i].start = i * 2048ull;
		r->zones[i].len = 2048;
		r->zones[i].capacity = 1536;
		r->zones[i].wp = i * 2048ull + 8 * i;
		r->zones[i].type = BLK_ZONE_TYPE_SEQWRITE_REQ;
		r->zones[i].cond = i ? BLK_ZONE_COND_IMP_OPEN : BLK_ZONE_COND_EMPTY;
	}
	r->zones[0].type = BLK_ZONE_TYPE_CONVENTIONAL;
	r->zones[0].cond = BLK_ZONE_COND_NOT_WP;
	ck_assert_int_eq(zbdev_parse_blk(r, len, z, 3, &got), 0);
	ck_assert_uint_eq(got, 3);
	ck_assert(!z[0].seq);
	ck_assert_uint_eq(z[0].wp, 0);
	ck_assert_uint_eq(z[2].start, 2 * MB);
	ck_assert_uint_eq(z[2].wp, 2 * MB + 16 * 512);
	ck_assert_uint_eq(z[2].cap, 1536 * 512);
	/* without BLK_ZONE_REP_CAPACITY the capacity is the length */
	r->flags = 0;
	ck_assert_int_eq(zbdev_parse_blk(r, len, z, 3, &got), 0);
	ck_assert_uint_eq(z[1].cap, MB);
	r->flags = BLK_ZONE_REP_CAPACITY;
	/* short; a count past the buffer; a write pointer outside its zone */
	ck_assert_int_eq(zbdev_parse_blk(r, sizeof(*r) - 1, z, 3, &got), -EIO);
	ck_assert_int_eq(zbdev_parse_blk(r, len - 1, z, 3, &got), -EIO);
	r->nr_zones = 4;
	ck_assert_int_eq(zbdev_parse_blk(r, len, z, 3, &got), -EIO);
	r->nr_zones = 3;
	r->zones[1].wp = 2048 + 1537;
	ck_assert_int_eq(zbdev_parse_blk(r, len, z, 3, &got), -EIO);
	r->zones[1].wp = 2048;
	r->zones[1].len = 0;
	ck_assert_int_eq(zbdev_parse_blk(r, len, z, 3, &got), -EIO);
	r->zones[1].len = 2048;
	r->zones[2].type = 9;
	ck_assert_int_eq(zbdev_parse_blk(r, len, z, 3, &got), -EIO);
	free(r);
}
END_TEST

/* a zone reset or finish through a descriptor not opened for writing
 * through dev/safety.h sends nothing */
START_TEST(test_reset_needs_writer)
{
	struct zbdev d = {.model = ZBDEV_HOST_MANAGED,
			  .kind = ZBDEV_BLOCK,
			  .fd = 0,
			  .writable = false,
			  .zsize = MB,
			  .size = 16 * MB,
			  .lba_shift = 9};
	ck_assert_int_eq(zbdev_reset(&d, 0), -EPERM);
	ck_assert_int_eq(zbdev_finish(&d, 0), -EPERM);
	d.kind = ZBDEV_NVME;
	ck_assert_int_eq(zbdev_reset(&d, MB), -EPERM);
	d.writable = true;
	d.fd = -1;
	ck_assert_int_eq(zbdev_reset(&d, MB), -EPERM);
}
END_TEST

Suite *zbdev_suite(void)
{
	Suite *s = suite_create("zbdev");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_zns_cmds);
	tcase_add_test(tc, test_zns_parse);
	tcase_add_test(tc, test_zns_parse_bad);
	tcase_add_test(tc, test_blk_parse);
	tcase_add_test(tc, test_reset_needs_writer);
	suite_add_tcase(s, tc);
	return s;
}

/* test_fioeng.c - fio's trims and syncs (issue 13): rw=trim, randtrim,
 * trimwrite generate what fio generates; sync=, fsync=, fdatasync= parse
 * with fio's meaning, refused where the engine cannot issue them. */
#include <check.h>
#include <errno.h>
#include <string.h>
#include "io/core/offgen.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "io/feat/vhdr.h"

static int set(struct spec *s, const char *k, const char *v, char *err)
{
	return opt_set(s, k, v, err, 256);
}

START_TEST(test_trim_modes)
{
	struct spec s;
	struct offgen g;
	char err[256];
	uint64_t off, prev = 0;
	uint32_t len;
	enum nvs_dir d;

	spec_init(&s);
	ck_assert_int_eq(set(&s, "rw", "trim", err), 0);
	ck_assert(spec_writes(&s)); /* a trim destroys data: the write-safety rule */
	ck_assert_int_eq(set(&s, "bs", "64k", err), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	for (int i = 0; i < 20; i++) { /* sequential trims, wrapping at the end */
		offgen_next(&g, &off, &len, &d);
		ck_assert_int_eq(d, NVS_TRIM);
		ck_assert_uint_eq(len, 65536);
		ck_assert_uint_eq(off, (uint64_t)(i % 16) * 65536);
	}
	/* backwards (fio's trim:-64k): trims too */
	ck_assert_int_eq(set(&s, "rw", "trim:-64k", err), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	for (int i = 0; i < 4; i++) {
		offgen_next(&g, &off, &len, &d);
		ck_assert_int_eq(d, NVS_TRIM);
	}
	ck_assert_int_eq(set(&s, "rw", "randtrim", err), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	unsigned jumps = 0;
	for (int i = 0; i < 100; i++) {
		offgen_next(&g, &off, &len, &d);
		ck_assert_int_eq(d, NVS_TRIM);
		jumps += i && off != prev + len;
		prev = off;
	}
	ck_assert_uint_gt(jumps, 80);
	/* fio's trimwrite: each block trimmed, then written (same offset, size) */
	ck_assert_int_eq(set(&s, "rw", "trimwrite", err), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	for (int i = 0; i < 40; i++) {
		offgen_next(&g, &off, &len, &d);
		ck_assert_int_eq(d, i % 2 ? NVS_WRITE : NVS_TRIM);
		ck_assert_uint_eq(off, (uint64_t)((i / 2) % 16) * 65536);
	}
	ck_assert_int_eq(set(&s, "rw", "randtrimwrite", err), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 1 << 20, 4096, 1), 0);
	for (int i = 0; i < 40; i++) {
		offgen_next(&g, &off, &len, &d);
		ck_assert_int_eq(d, i % 2 ? NVS_WRITE : NVS_TRIM);
		if (i % 2)
			ck_assert_uint_eq(off, prev);
		prev = off;
	}
	ck_assert_str_eq(spec_rw_name(s.rw), "randtrimwrite");
	/* the passthrough engine trims with Dataset Management (io/feat/nvcmd.h);
	 * several ranges per trim are refused with trimwrite, as fio */
	ck_assert_int_eq(set(&s, "filename", "/dev/ng0n1", err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), 0);
	ck_assert_int_eq(set(&s, "ioengine", "io_uring_cmd", err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), 0);
	ck_assert_int_eq(set(&s, "num_range", "2", err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "trimwrite"));
}
END_TEST

/* trims take a block size above 64m (no buffer), reads and writes do not */
START_TEST(test_trim_big_bs)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert_int_eq(set(&s, "filename", "/dev/null", err), 0);
	ck_assert_int_eq(set(&s, "rw", "randtrim", err), 0);
	ck_assert_int_eq(set(&s, "bs", "256M", err), 0);
	ck_assert_uint_eq(s.bs[0].bs, 256u << 20);
	ck_assert_ptr_null(spec_bs_misfit(&s));
	ck_assert_int_eq(spec_validate(&s, err, 256), 0);
	ck_assert_int_eq(set(&s, "bs", "2g", err), 0);
	ck_assert_int_eq(set(&s, "bs", "2049m", err), -EINVAL);
	ck_assert_int_eq(set(&s, "bs", "-256M", err), -EINVAL);
	ck_assert_int_eq(set(&s, "bs", "nan", err), -EINVAL);
	ck_assert_int_eq(set(&s, "bssplit", "128m/100", err), -EINVAL); /* lists: 64m */
	ck_assert_int_eq(set(&s, "rw", "randwrite", err), 0);
	ck_assert_ptr_nonnull(spec_bs_misfit(&s));
	ck_assert_int_eq(spec_validate(&s, err, 256), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "above 64m"));
	ck_assert_int_eq(set(&s, "rw", "trimwrite", err), 0); /* it writes too */
	ck_assert_int_eq(spec_validate(&s, err, 256), -EINVAL);
	ck_assert_int_eq(set(&s, "rw", "trim", err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), 0);
	ck_assert_int_eq(set(&s, "bs", "64m", err), 0);
	ck_assert_int_eq(set(&s, "rw", "read", err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), 0); /* 64m: any direction */
}
END_TEST

START_TEST(test_sync_options)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert_int_eq(set(&s, "fsync", "8", err), 0);
	ck_assert_uint_eq(s.fsync_blocks, 8);
	ck_assert_int_eq(set(&s, "fdatasync", "0", err), 0);
	ck_assert_uint_eq(s.fdatasync_blocks, 0);
	ck_assert_int_eq(set(&s, "fdatasync", "-1", err), -EINVAL);
	ck_assert_int_eq(set(&s, "fsync", "nan", err), -EINVAL);
	ck_assert_int_eq(set(&s, "fsync", "99999999999999999999", err), -EINVAL);
	ck_assert_int_eq(set(&s, "sync", NULL, err), 0); /* a bare flag: O_SYNC */
	ck_assert_int_eq(s.sync, SYNC_SYNC);
	ck_assert_int_eq(set(&s, "sync", "dsync", err), 0);
	ck_assert_int_eq(s.sync, SYNC_DSYNC);
	ck_assert_int_eq(set(&s, "sync", "none", err), 0);
	ck_assert_int_eq(s.sync, SYNC_NONE);
	ck_assert_int_eq(set(&s, "sync", "1", err), 0);
	ck_assert_int_eq(s.sync, SYNC_SYNC);
	ck_assert_int_eq(set(&s, "sync", "fsync", err), -EINVAL);
	ck_assert_int_eq(set(&s, "filename", "/dev/ng0n1", err), 0);
	ck_assert_int_eq(set(&s, "rw", "randwrite", err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), 0);
	ck_assert_int_eq(set(&s, "ioengine", "io_uring_cmd", err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), -EINVAL);
}
END_TEST

START_TEST(test_verify_blocks)
{
	static const enum vhdr_type types[] = {VHDR_MD5,	VHDR_CRC32C, VHDR_SHA1,
					       VHDR_SHA256,	VHDR_META,   VHDR_PATTERN,
					       VHDR_PATTERN_HDR};
	static uint8_t buf[4096];
	const uint8_t pat[] = {0xde, 0xad, 0xbe};
	const struct vhdr_io io = {.numberio = 7, .thread = 1};
	char why[160];
	uint64_t bad;

	/* the CRC32C check value (RFC 3720 / iSCSI): "123456789" */
	ck_assert_uint_eq(vhdr_crc32c(0, "123456789", 9), 0xe3069283u);
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		enum vhdr_type t = types[i];
		unsigned plen = t == VHDR_PATTERN || t == VHDR_PATTERN_HDR ? sizeof(pat) : 0;
		for (uint32_t iv = 0; iv <= 1024; iv += 1024) { /* one header, then 4 */
			for (size_t k = 0; k < sizeof(buf); k++)
				buf[k] = (uint8_t)(k * 131 + i);
			vhdr_stamp(buf, sizeof(buf), iv, 1 << 20, t, &io, pat, plen);
			ck_assert_int_eq(vhdr_check(buf, sizeof(buf), iv, 1 << 20, t, pat, plen,
						    &bad, why, sizeof(why)),
					 0);
			/* the same block read at another offset: a misplaced write */
			if (t != VHDR_PATTERN)
				ck_assert_int_eq(vhdr_check(buf, sizeof(buf), iv, 2 << 20, t, pat,
							    plen, &bad, why, sizeof(why)),
						 -EILSEQ);
			buf[3000] ^= 1; /* one bit of the data */
			int rc = vhdr_check(buf, sizeof(buf), iv, 1 << 20, t, pat, plen, &bad, why,
					    sizeof(why));
			ck_assert_int_eq(rc, t == VHDR_META ? 0 : -EILSEQ); /* meta: header only */
			if (rc) /* named by its interval's offset, as fio does */
				ck_assert_uint_eq(bad, (1u << 20) +
							   (iv && t != VHDR_PATTERN ? 2048 : 0));
			buf[3000] ^= 1;
			buf[5] ^= 0x10; /* the (first) header */
			ck_assert_int_eq(vhdr_check(buf, sizeof(buf), iv, 1 << 20, t, pat, plen,
						    &bad, why, sizeof(why)),
					 -EILSEQ);
		}
	}
	/* verify_pattern with a checksum: the block is the pattern under the header */
	vhdr_stamp(buf, sizeof(buf), 0, 0, VHDR_CRC32C, &io, pat, sizeof(pat));
	ck_assert_uint_eq(buf[0], 0xca); /* fio's magic 0xacca, little-endian */
	ck_assert_uint_eq(buf[1], 0xac);
	ck_assert_uint_eq(buf[2], 5); /* fio's VERIFY_CRC32C */
	ck_assert_uint_eq(buf[44], pat[44 % 3]);
	ck_assert_int_eq(vhdr_check(buf, sizeof(buf), 0, 0, VHDR_CRC32C, pat, sizeof(pat), &bad,
				    why, sizeof(why)),
			 0);
	ck_assert_uint_eq(vhdr_size(VHDR_SHA256), 104);
	ck_assert_uint_eq(vhdr_size(VHDR_MD5), 56);
	/* the job's nonce as rand_seed: an earlier run's intact block (a lost
	 * write) passes vhdr_check but not vhdr_seed, at its second interval too */
	const struct vhdr_io run1 = {.rand_seed = 111}, run2 = {.rand_seed = 222};
	vhdr_stamp(buf, sizeof(buf), 1024, 4096, VHDR_MD5, &run2, NULL, 0);
	vhdr_stamp(buf + 1024, 1024, 0, 4096 + 1024, VHDR_MD5, &run1, NULL, 0);
	ck_assert_int_eq(
	    vhdr_check(buf, sizeof(buf), 1024, 4096, VHDR_MD5, NULL, 0, &bad, why, sizeof(why)), 0);
	ck_assert_int_eq(
	    vhdr_seed(buf, sizeof(buf), 1024, 4096, VHDR_MD5, 222, &bad, why, sizeof(why)),
	    -EILSEQ);
	ck_assert_uint_eq(bad, 4096 + 1024);
	vhdr_stamp(buf, sizeof(buf), 1024, 4096, VHDR_MD5, &run2, NULL, 0);
	ck_assert_int_eq(
	    vhdr_seed(buf, sizeof(buf), 1024, 4096, VHDR_MD5, 222, &bad, why, sizeof(why)), 0);
}
END_TEST

START_TEST(test_verify_options)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert(s.do_verify);
	ck_assert_int_eq(set(&s, "filename", "/dev/null", err), 0);
	ck_assert_int_eq(set(&s, "rw", "write", err), 0);
	ck_assert_int_eq(set(&s, "verify", "crc32c-intel", err), 0);
	ck_assert_int_eq(s.verify, VHDR_CRC32C_INTEL);
	ck_assert_int_eq(spec_validate(&s, err, 256), 0);
	/* fio's verify=null: pretend (no header written, nothing checked) */
	ck_assert_int_eq(set(&s, "verify", "null", err), 0);
	ck_assert_int_eq(s.verify, VHDR_NULL);
	ck_assert_int_eq(spec_validate(&s, err, 256), 0);
	{
		uint8_t b[4096], c[4096];
		uint64_t bad = 0;
		char why[64];
		struct vhdr_io io = {.rand_seed = 1};
		for (size_t i = 0; i < sizeof(b); i++)
			b[i] = c[i] = (uint8_t)(i * 7);
		vhdr_stamp(b, sizeof(b), 0, 0, VHDR_NULL, &io, NULL, 0);
		ck_assert_mem_eq(b, c, sizeof(b));
		ck_assert_uint_eq(vhdr_size(VHDR_NULL), 0);
		ck_assert_int_eq(
		    vhdr_check(b, sizeof(b), 0, 4096, VHDR_NULL, NULL, 0, &bad, why, sizeof(why)),
		    0);
		ck_assert_str_eq(vhdr_name(VHDR_NULL), "null");
	}
	ck_assert_int_eq(set(&s, "verify", "nul", err), -EINVAL);
	ck_assert_int_eq(set(&s, "verify", "crc32c-intel", err), 0);
	ck_assert_int_eq(set(&s, "verify_only", NULL, err), 0);
	ck_assert(!spec_writes(&s)); /* verify_only reads: no write access asked */
	ck_assert_int_eq(spec_validate(&s, err, 256), 0);
	ck_assert_int_eq(set(&s, "rw", "randwrite", err), 0);
	/* random verify_only: when the job wrote every block once (the map) */
	ck_assert_int_eq(spec_validate(&s, err, 256), 0);
	ck_assert_int_eq(set(&s, "norandommap", NULL, err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), -EINVAL);
	ck_assert_int_eq(set(&s, "norandommap", "0", err), 0);
	ck_assert_int_eq(set(&s, "time_based", NULL, err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), -EINVAL);
	ck_assert_int_eq(set(&s, "time_based", "0", err), 0);
	ck_assert_int_eq(set(&s, "verify_only", "0", err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), 0);
	ck_assert_int_eq(set(&s, "bssplit", "4k/50:8k/50", err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "one block size"));
	ck_assert_int_eq(set(&s, "bs", "4k", err), 0);
	ck_assert_int_eq(set(&s, "verify", "pattern", err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), -EINVAL); /* no verify_pattern */
	ck_assert_int_eq(set(&s, "verify_pattern", "0xdeadbeef", err), 0);
	ck_assert_uint_eq(s.vpattern_len, 4);
	ck_assert_int_eq(spec_validate(&s, err, 256), 0);
	ck_assert_int_eq(set(&s, "verify_pattern", "", err), -EINVAL);
	ck_assert_int_eq(set(&s, "verify_fatal", "2", err), -EINVAL);
	ck_assert_int_eq(set(&s, "verify_backlog", "64", err), 0);
	ck_assert_uint_eq(s.verify_backlog, 64);
	ck_assert_int_eq(set(&s, "verify_backlog", "-1", err), -EINVAL);
	ck_assert_int_eq(set(&s, "rw", "randrw", err), 0);
	ck_assert_int_eq(spec_validate(&s, err, 256), -EINVAL);
}
END_TEST

START_TEST(test_error_dump_option)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert(!s.error_dump); /* fio 3.33's default (options.c .def "0") */
	ck_assert_int_eq(set(&s, "error_dump", NULL, err), 0);
	ck_assert(s.error_dump);
	ck_assert_int_eq(set(&s, "error_dump", "0", err), 0);
	ck_assert(!s.error_dump);
	ck_assert_int_eq(set(&s, "error_dump", "yes please", err), -EINVAL);
	ck_assert_int_eq(set(&s, "fallocate", "none", err), 0);
	ck_assert_int_eq(set(&s, "fallocate", "posix", err), -EINVAL); /* lays out files */
	ck_assert_ptr_nonnull(strstr(err, "refused"));
	ck_assert_int_eq(set(&s, "verify", "sha3-384", err), 0);
	ck_assert_int_eq(s.verify, VHDR_SHA3_384);
}
END_TEST

Suite *fioeng_suite(void)
{
	Suite *s = suite_create("fioeng");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_trim_modes);
	tcase_add_test(tc, test_trim_big_bs);
	tcase_add_test(tc, test_sync_options);
	tcase_add_test(tc, test_verify_blocks);
	tcase_add_test(tc, test_verify_options);
	tcase_add_test(tc, test_error_dump_option);
	suite_add_tcase(s, tc);
	return s;
}

/* test_nvcmd.c - io_uring_cmd's write_mode, deac and num_range (io/feat/nvcmd.h):
 * parsing as fio's engines/io_uring.c, the conflicts refused, the safety
 * rule's view (zeroes/uncor write, verify does not), the ONCS check and the
 * per-write draw of a mix. */
#include <check.h>
#include <errno.h>
#include <string.h>
#include "io/core/backend.h"
#include "io/feat/nvcmd.h"
#include "io/core/offgen.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "io/core/wstate.h"

static struct spec base(const char *rw)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "target", "/dev/ng0n1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "ioengine", "io_uring_cmd", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "rw", rw, err, sizeof(err)), 0);
	return s;
}

START_TEST(test_parse)
{
	struct spec s = base("write");
	char err[256];

	ck_assert_int_eq(opt_set(&s, "write_mode", "zeroes", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.nvcmd.nmode, 1);
	ck_assert_uint_eq(s.nvcmd.mode[0], WMODE_ZEROES);
	ck_assert_uint_eq(s.nvcmd.pct[0], 100);
	ck_assert_int_eq(
	    opt_set(&s, "write_mode", "write/40:zeroes/30:uncor/20:verify/10", err, sizeof(err)),
	    0);
	ck_assert_uint_eq(s.nvcmd.nmode, 4);
	ck_assert_uint_eq(s.nvcmd.mode[2], WMODE_UNCOR);
	ck_assert_uint_eq(s.nvcmd.pct[0] + s.nvcmd.pct[1] + s.nvcmd.pct[2] + s.nvcmd.pct[3], 100);
	/* blanks share the rest (fio); the division's remainder goes to the last */
	ck_assert_int_eq(opt_set(&s, "write-mode", "write/50:zeroes/:uncor/", err, sizeof(err)),
			 0);
	ck_assert_uint_eq(s.nvcmd.pct[1], 25);
	ck_assert_uint_eq(s.nvcmd.pct[2], 25);
	ck_assert_int_eq(opt_set(&s, "write_mode", "zeroes/:uncor/:verify/", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.nvcmd.pct[0] + s.nvcmd.pct[1] + s.nvcmd.pct[2], 100);
	/* fio's refusals, and a bad value leaves the option as it was */
	static const char *const bad[] = {"",
					  "zero",
					  "write/50",
					  "write/60:zeroes/60",
					  "write/50:zeroes/40",
					  "write/-1:zeroes/101",
					  "write/x:zeroes/",
					  "write/50:zeroes/50:uncor/0:verify/0:write/0:write/0",
					  "zone_append",
					  "write/50:zeroes/50abc",
					  "write/1000000000000:zeroes/"};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(opt_set(&s, "write_mode", bad[i], err, sizeof(err)) == -EINVAL,
			      "accepted '%s'", bad[i]);
		ck_assert_ptr_nonnull(strstr(err, "write_mode"));
		ck_assert_uint_eq(s.nvcmd.nmode, 3);
	}
	ck_assert_int_eq(opt_set(&s, "write_mode", NULL, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "needs a value"));
	ck_assert_int_eq(opt_set(&s, "deac", NULL, err, sizeof(err)), 0);
	ck_assert(s.nvcmd.deac);
	ck_assert_int_eq(opt_set(&s, "deac", "0", err, sizeof(err)), 0);
	ck_assert(!s.nvcmd.deac);
	ck_assert_int_eq(opt_set(&s, "deac", "yes", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "num_range", "8", err, sizeof(err)), 0);
	ck_assert_uint_eq(nvcmd_ranges(&s), 8);
	ck_assert_int_eq(opt_set(&s, "num_range", "256", err, sizeof(err)), 0);
	static const char *const badn[] = {"0", "257", "-1", "nan", "8x", "", "1e3"};
	for (unsigned i = 0; i < sizeof(badn) / sizeof(badn[0]); i++)
		ck_assert_msg(opt_set(&s, "num_range", badn[i], err, sizeof(err)) == -EINVAL,
			      "num_range accepted '%s'", badn[i]);
	ck_assert_int_eq(opt_set(&s, "num_range", NULL, err, sizeof(err)), -EINVAL);
	ck_assert_uint_eq(nvcmd_ranges(&s), 256);
}
END_TEST

START_TEST(test_validate)
{
	char err[256];
	struct spec s = base("randwrite");

	ck_assert_int_eq(opt_set(&s, "write_mode", "uncor", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
	/* fio: a job without writes cannot have a write mode */
	s = base("randread");
	ck_assert_int_eq(opt_set(&s, "write_mode", "zeroes", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "has no writes"));
	s = base("randread"); /* write_mode=write is the default: fine anywhere */
	ck_assert_int_eq(opt_set(&s, "write_mode", "write", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
	/* NVMe commands: not on the block layer's engine */
	s = base("write");
	ck_assert_int_eq(opt_set(&s, "ioengine", "io_uring", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "write_mode", "zeroes", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "io_uring_cmd"));
	s = base("write");
	ck_assert_int_eq(opt_set(&s, "write_mode", "zeroes", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "verify", "crc32c", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	/* trims on io_uring_cmd (Dataset Management), several ranges */
	s = base("randtrim");
	ck_assert_int_eq(opt_set(&s, "num_range", "8", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
	s = base("trimwrite");
	ck_assert_int_eq(opt_set(&s, "num_range", "8", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "trimwrite"));
	s = base("trim");
	ck_assert_int_eq(opt_set(&s, "ioengine", "io_uring", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "num_range", "2", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "io_uring_cmd"));
	s = base("trim");
	ck_assert_int_eq(opt_set(&s, "num_range", "256", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bs", "8m", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	s = base("trim");
	ck_assert_int_eq(opt_set(&s, "num_range", "4", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "write_iolog", "/tmp/x.log", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
}
END_TEST

/* the safety rule's view: Write Zeroes and Write Uncorrectable destroy
 * data, Verify writes nothing; a trim always writes */
START_TEST(test_writes)
{
	char err[256];
	struct spec s = base("write");

	ck_assert(spec_writes(&s));
	ck_assert_int_eq(opt_set(&s, "write_mode", "zeroes", err, sizeof(err)), 0);
	ck_assert(spec_writes(&s));
	ck_assert_int_eq(opt_set(&s, "write_mode", "uncor", err, sizeof(err)), 0);
	ck_assert(spec_writes(&s));
	ck_assert_int_eq(opt_set(&s, "write_mode", "verify", err, sizeof(err)), 0);
	ck_assert(!spec_writes(&s));
	ck_assert_int_eq(opt_set(&s, "write_mode", "verify/99:zeroes/1", err, sizeof(err)), 0);
	ck_assert(spec_writes(&s));
	ck_assert_int_eq(opt_set(&s, "write_mode", "verify/100:zeroes/0", err, sizeof(err)), 0);
	ck_assert(!spec_writes(&s));
	/* verify on the block layer's engine is refused, and never read-only */
	ck_assert_int_eq(opt_set(&s, "ioengine", "io_uring", err, sizeof(err)), 0);
	ck_assert(spec_writes(&s));
	s = base("randtrimwrite");
	ck_assert_int_eq(opt_set(&s, "write_mode", "verify", err, sizeof(err)), 0);
	ck_assert(spec_writes(&s));
	s = base("randrw");
	ck_assert_int_eq(opt_set(&s, "write_mode", "verify", err, sizeof(err)), 0);
	ck_assert(!spec_writes(&s));
}
END_TEST

START_TEST(test_caps)
{
	char err[512];
	struct spec s = base("write");
	struct dev_caps k = {.caps_valid = true, .dsm = true, .write_zeroes = true, .verify = true};

	ck_assert_int_eq(nvcmd_caps_check(&s, &k, "/dev/ng0n1", err, sizeof(err)), 0);
	ck_assert_int_eq(
	    opt_set(&s, "write_mode", "write/50:zeroes/25:verify/25", err, sizeof(err)), 0);
	ck_assert_int_eq(nvcmd_caps_check(&s, &k, "/dev/ng0n1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "write_mode", "write/50:uncor/50", err, sizeof(err)), 0);
	ck_assert_int_eq(nvcmd_caps_check(&s, &k, "/dev/ng0n1", err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(err, "/dev/ng0n1: write_mode=uncor: refused"));
	ck_assert_ptr_nonnull(strstr(err, "Write Uncorrectable (Identify Controller ONCS bit 1)"));
	k.write_uncor = true;
	ck_assert_int_eq(nvcmd_caps_check(&s, &k, "/dev/ng0n1", err, sizeof(err)), 0);
	k.write_zeroes = false;
	ck_assert_int_eq(opt_set(&s, "write_mode", "zeroes", err, sizeof(err)), 0);
	ck_assert_int_eq(nvcmd_caps_check(&s, &k, "/dev/ng0n1", err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(err, "Write Zeroes (Identify Controller ONCS bit 3)"));
	k.verify = false;
	ck_assert_int_eq(opt_set(&s, "write_mode", "verify", err, sizeof(err)), 0);
	ck_assert_int_eq(nvcmd_caps_check(&s, &k, "/dev/ng0n1", err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(err, "ONCS bit 7"));
	/* a mode with 0% is never sent: not needed */
	ck_assert_int_eq(opt_set(&s, "write_mode", "write/100:verify/0", err, sizeof(err)), 0);
	ck_assert_int_eq(nvcmd_caps_check(&s, &k, "/dev/ng0n1", err, sizeof(err)), 0);
	/* unknown capabilities: refused, never assumed */
	struct dev_caps none = {0};
	ck_assert_int_eq(opt_set(&s, "write_mode", "zeroes", err, sizeof(err)), 0);
	ck_assert_int_eq(nvcmd_caps_check(&s, &none, "/dev/ng0n1", err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(err, "could not be read"));
	s = base("randtrim");
	ck_assert_int_eq(nvcmd_caps_check(&s, &k, "/dev/ng0n1", err, sizeof(err)), 0);
	k.dsm = false;
	ck_assert_int_eq(nvcmd_caps_check(&s, &k, "/dev/ng0n1", err, sizeof(err)), -EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(err, "Dataset Management (Identify Controller ONCS bit 2)"));
	/* nothing needed on the block layer's engine: no Identify at all */
	s = base("write");
	ck_assert_int_eq(opt_set(&s, "ioengine", "io_uring", err, sizeof(err)), 0);
	ck_assert_int_eq(nvcmd_probe(&s, "/nonexistent", err, sizeof(err)), 0);
	/* a path that is no NVMe device: refused, as unknown capabilities */
	s = base("write");
	ck_assert_int_eq(opt_set(&s, "write_mode", "zeroes", err, sizeof(err)), 0);
	ck_assert_int_eq(nvcmd_probe(&s, "/dev/null", err, sizeof(err)), -EOPNOTSUPP);
}
END_TEST

/* the mix: each write drawn in 0..99 against the cumulative percentages */
START_TEST(test_pick)
{
	char err[256];
	struct spec s = base("write");
	unsigned n[4] = {0};
	uint64_t x = 88172645463325252ULL;

	ck_assert_uint_eq(nvcmd_pick(&s.nvcmd, 0), WMODE_WRITE);
	ck_assert_int_eq(opt_set(&s, "write_mode", "verify", err, sizeof(err)), 0);
	ck_assert_uint_eq(nvcmd_pick(&s.nvcmd, ~0ULL), WMODE_VERIFY);
	ck_assert_int_eq(
	    opt_set(&s, "write_mode", "write/40:zeroes/30:uncor/20:verify/10", err, sizeof(err)),
	    0);
	for (int i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		n[nvcmd_pick(&s.nvcmd, x)]++;
	}
	ck_assert_uint_lt(n[WMODE_WRITE] - 39000u, 2000u);
	ck_assert_uint_lt(n[WMODE_ZEROES] - 29000u, 2000u);
	ck_assert_uint_lt(n[WMODE_UNCOR] - 19000u, 2000u);
	ck_assert_uint_lt(n[WMODE_VERIFY] - 9000u, 2000u);
	/* draw r: r < 40 write, < 70 zeroes, < 90 uncor, else verify */
	ck_assert_uint_eq(nvcmd_pick(&s.nvcmd, 39ULL << 32), WMODE_WRITE);
	ck_assert_uint_eq(nvcmd_pick(&s.nvcmd, 40ULL << 32), WMODE_ZEROES);
	ck_assert_uint_eq(nvcmd_pick(&s.nvcmd, 89ULL << 32), WMODE_UNCOR);
	ck_assert_uint_eq(nvcmd_pick(&s.nvcmd, 99ULL << 32), WMODE_VERIFY);
}
END_TEST

/* the worker's side of num_range: the first trim and the next ones of the
 * job's own offset stream, stopping at num_range, at the bytes left, or at
 * the end of a sequential pass (fio's fill_multi_range_io_u) */
START_TEST(test_trim_ranges)
{
	char err[256];
	struct spec s = base("trim");
	struct wstate st;
	struct backend_range r[NVCMD_MAX_RANGES];
	uint64_t off;
	uint32_t len, tot;
	enum nvs_dir d;
	uint16_t n;
	bool end = false;

	ck_assert_int_eq(opt_set(&s, "bs", "4k", err, sizeof(err)), 0);
	memset(&st, 0, sizeof(st));
	ck_assert_int_eq(offgen_init(&st.gen, &s, 0, 40 * 4096, 4096, 1), 0);
	st.nranges = 8;
	offgen_next(&st.gen, &off, &len, &d);
	ck_assert_int_eq(d, NVS_TRIM);
	tot = wstate_trim_ranges(&st, r, off, len, UINT64_MAX, 1, &n, &end);
	ck_assert_uint_eq(n, 8);
	ck_assert_uint_eq(tot, 8 * 4096);
	ck_assert(!end);
	for (unsigned i = 0; i < 8; i++) {
		ck_assert_uint_eq(r[i].off, i * 4096);
		ck_assert_uint_eq(r[i].len, 4096);
	}
	/* the bytes left end it early: 3 blocks */
	offgen_next(&st.gen, &off, &len, &d);
	tot = wstate_trim_ranges(&st, r, off, len, 3 * 4096, 1, &n, &end);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(r[2].off, 10 * 4096);
	ck_assert(!end);
	/* 40 blocks: after 8 + 3 + 3 x 8 = 35, the pass ends after 5 more */
	for (int i = 0; i < 3; i++) {
		offgen_next(&st.gen, &off, &len, &d);
		wstate_trim_ranges(&st, r, off, len, UINT64_MAX, 1, &n, &end);
		ck_assert_uint_eq(n, 8);
	}
	offgen_next(&st.gen, &off, &len, &d);
	tot = wstate_trim_ranges(&st, r, off, len, UINT64_MAX, 1, &n, &end);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(r[4].off, 39 * 4096);
	ck_assert(end);
	offgen_free(&st.gen);
	/* num_range=256 on the smallest block: the list fits one 4 KiB buffer */
	ck_assert_uint_eq(sizeof(struct backend_range) * NVCMD_MAX_RANGES, 4096);
}
END_TEST

Suite *nvcmd_suite(void)
{
	Suite *s = suite_create("nvcmd");
	TCase *t = tcase_create("nvcmd");

	tcase_add_test(t, test_parse);
	tcase_add_test(t, test_validate);
	tcase_add_test(t, test_writes);
	tcase_add_test(t, test_caps);
	tcase_add_test(t, test_pick);
	tcase_add_test(t, test_trim_ranges);
	suite_add_tcase(s, t);
	return s;
}

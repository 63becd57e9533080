/* test_fdp.c - fio's fdp=1 / plids / plid_select / dataplacement and
 * atomic=1 (io/feat/fdp.h): parsing as fio's options.c, the conflicts fio
 * refuses, the placement identifier each write carries (round-robin from
 * the first, random over the list only), the passthrough Write's DTYPE and
 * DSPEC (CDW12 bits 23:20, CDW13 bits 31:16) and reads without them.  (The
 * device side, nvme-cli's per-handle counters, is make check-vm's fdp
 * boot.) */
#include <check.h>
#include <errno.h>
#include <liburing.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <string.h>
#include "io/core/backend.h"
#include "io/feat/fdp.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "io/core/target.h"

static struct spec base(const char *engine, const char *rw)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "target", "/dev/ng0n1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "ioengine", engine, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "rw", rw, err, sizeof(err)), 0);
	return s;
}

START_TEST(test_parse)
{
	struct spec s = base("io_uring_cmd", "write");
	char err[256];

	ck_assert(!s.fdp.on && !s.fdp.random && !s.fdp.nids && !s.atomic);
	ck_assert_int_eq(opt_set(&s, "fdp", "1", err, sizeof(err)), 0);
	ck_assert(s.fdp.on);
	ck_assert_int_eq(opt_set(&s, "fdp_pli", "0,1,4-6", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.fdp.nids, 5);
	ck_assert_uint_eq(s.fdp.ids[2], 4);
	ck_assert_uint_eq(s.fdp.ids[4], 6);
	ck_assert_int_eq(opt_set(&s, "plids", "7", err, sizeof(err)), 0); /* fio's alias */
	ck_assert_uint_eq(s.fdp.nids, 1);
	ck_assert_uint_eq(s.fdp.ids[0], 7);
	ck_assert_int_eq(opt_set(&s, "plids", "0-127", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.fdp.nids, 128);
	ck_assert_int_eq(opt_set(&s, "plids", "0-128", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "only 128 IDs"));
	ck_assert_uint_eq(s.fdp.nids, 128); /* a bad value changes nothing */
	for (unsigned i = 0; i < 6; i++) {
		static const char *const bad[] = {"x", "3-1", "-1", "1-", "65536", "1,2x"};
		ck_assert_int_eq(opt_set(&s, "plids", bad[i], err, sizeof(err)), -EINVAL);
	}
	ck_assert_int_eq(opt_set(&s, "fdp_pli_select", "random", err, sizeof(err)), 0);
	ck_assert(s.fdp.random);
	ck_assert_int_eq(opt_set(&s, "plid_select", "roundrobin", err, sizeof(err)), 0);
	ck_assert(!s.fdp.random);
	ck_assert_int_eq(opt_set(&s, "plid_select", "scheme", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "not implemented"));
	ck_assert_int_eq(opt_set(&s, "dp_scheme", "/tmp/x", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "dataplacement", "streams", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "Streams"));
	ck_assert_int_eq(opt_set(&s, "data_placement", "fdp", err, sizeof(err)), 0);
	ck_assert(s.fdp.on);
	ck_assert_int_eq(opt_set(&s, "fdp", "2", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "atomic", "1", err, sizeof(err)), 0);
	ck_assert(s.atomic);
	ck_assert_int_eq(opt_set(&s, "verify_write_sequence", "0", err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_validate)
{
	char err[256];
	struct spec s = base("io_uring_cmd", "randwrite");

	ck_assert_int_eq(opt_set(&s, "fdp", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
	/* fio: fdp=1 with dataplacement=none */
	ck_assert_int_eq(opt_set(&s, "dataplacement", "none", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "fdp", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "dataplacement=none"));
	/* fio: only io_uring_cmd fetches the handles */
	s = base("io_uring", "randwrite");
	ck_assert_int_eq(opt_set(&s, "fdp", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "needs ioengine=io_uring_cmd"));
	/* atomic=1: io_uring with direct=1; not passthrough, not buffered */
	s = base("io_uring", "randwrite");
	ck_assert_int_eq(opt_set(&s, "atomic", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "direct", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "direct", "0", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "direct=1"));
	ck_assert_int_eq(opt_set(&s, "rw", "read", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0); /* fio: no writes, off */
	s = base("io_uring_cmd", "write");
	ck_assert_int_eq(opt_set(&s, "atomic", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "does not support atomic writes"));
	s = base("io_uring", "write");
	ck_assert_int_eq(opt_set(&s, "atomic", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "direct", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bssplit", "4k/50:8k/50", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	/* psync (a job file's default engine) has no atomic writes in fio */
	s = base("io_uring", "write");
	ck_assert_int_eq(opt_set(&s, "atomic", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "direct", "1", err, sizeof(err)), 0);
	snprintf(s.fio_engine, sizeof(s.fio_engine), "psync"); /* as preset.c sets it */
	s.fio_engine_default = true;
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "ioengine=psync"));
	snprintf(s.fio_engine, sizeof(s.fio_engine), "pvsync2");
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
}
END_TEST

static struct target gen_target(void)
{
	struct target t;

	memset(&t, 0, sizeof(t));
	snprintf(t.path, sizeof(t.path), "/dev/ng0n1");
	t.kind = TARGET_NVME_GENERIC;
	t.fd = 5;
	t.nsid = 1;
	t.lbs = 4096;
	t.lba_shift = 12;
	t.size = 1ULL << 30;
	return t;
}

START_TEST(test_pick_and_prep)
{
	struct target t = gen_target();
	uint32_t loc = UINT32_MAX;
	uint64_t rng = 42 | 1;
	unsigned seen[8] = {0};
	static char buf[4096];
	struct io_uring_sqe sqe[2];
	struct nvme_uring_cmd *c = (struct nvme_uring_cmd *)sqe[0].cmd;

	t.fdp_n = 3; /* plids=1,4,6 of a namespace whose handles are 10..17 */
	t.fdp_pid[0] = 11, t.fdp_pid[1] = 14, t.fdp_pid[2] = 16;
	for (unsigned i = 0; i < 7; i++) /* fio: the first write takes the first */
		ck_assert_uint_eq(fdp_pick(&t, false, &loc, &rng), t.fdp_pid[i % 3]);
	for (unsigned i = 0; i < 3000; i++) {
		uint16_t p = fdp_pick(&t, true, &loc, &rng);
		ck_assert(p == 11 || p == 14 || p == 16);
		seen[(p - 10) % 8]++;
	}
	ck_assert(seen[1] > 900 && seen[4] > 900 && seen[6] > 900); /* uniform */

	/* the Write carries DTYPE 2 and the identifier; a read neither */
	struct backend_io io = {.fd = t.fd,
				.buf = buf,
				.buf_index = -1,
				.len = 4096,
				.off = 8192,
				.dir = NVS_WRITE,
				.t = &t};
	loc = UINT32_MAX;
	fdp_io(&io, false, &loc, &rng);
	ck_assert_uint_eq(io.dtype, FDP_DTYPE);
	ck_assert_uint_eq(io.dspec, 11);
	memset(sqe, 0xaa, sizeof(sqe));
	backend_uring_cmd.prep(sqe, &io);
	ck_assert_uint_eq(c->opcode, 0x01);
	ck_assert_uint_eq(c->cdw10, 2);
	ck_assert_uint_eq(c->cdw12, (2u << 20) | 0); /* DTYPE, NLB 0 (one LBA) */
	ck_assert_uint_eq(c->cdw13, 11u << 16);	     /* DSPEC */
	io.dir = NVS_READ;
	fdp_io(&io, false, &loc, &rng);
	ck_assert_uint_eq(io.dtype, 0);
	memset(sqe, 0xaa, sizeof(sqe));
	backend_uring_cmd.prep(sqe, &io);
	ck_assert_uint_eq(c->opcode, 0x02);
	ck_assert_uint_eq(c->cdw12, 0);
	ck_assert_uint_eq(c->cdw13, 0);
	ck_assert_uint_eq(loc, 0); /* reads do not advance the round-robin */
	/* no handles (fdp off): writes carry nothing */
	t.fdp_n = 0;
	io.dir = NVS_WRITE;
	fdp_io(&io, false, &loc, &rng);
	ck_assert_uint_eq(io.dtype, 0);
	ck_assert_uint_eq(io.dspec, 0);
}
END_TEST

Suite *fdp_suite(void)
{
	Suite *s = suite_create("fdp");
	TCase *t = tcase_create("fdp");

	tcase_add_test(t, test_parse);
	tcase_add_test(t, test_validate);
	tcase_add_test(t, test_pick_and_prep);
	suite_add_tcase(s, t);
	return s;
}

/* test_uring_cmd.c - the NVMe passthrough backend without a device: the
 * SQE128 it builds (opcode, NSID, SLBA, NLB, buffer), its refusals, and the
 * CQE -> bytes mapping.  (The real
 * device path is tested by make check-vm on emulated NVMe.) */
#include <check.h>
#include <errno.h>
#include <liburing.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <string.h>
#include "io/core/backend.h"
#include "io/opt/spec.h"
#include "io/core/target.h"

static struct target gen_target(void)
{
	struct target t;

	memset(&t, 0, sizeof(t));
	snprintf(t.path, sizeof(t.path), "/dev/ng0n1");
	t.kind = TARGET_NVME_GENERIC;
	t.fd = 5;
	t.nsid = 3;
	t.lbs = 4096;
	t.lba_shift = 12;
	t.size = 1ULL << 44;
	return t;
}

START_TEST(test_check)
{
	struct target t = gen_target();
	char err[256];

	ck_assert_uint_eq(backend_uring_cmd.setup_flags & (IORING_SETUP_SQE128 | IORING_SETUP_CQE32),
			  IORING_SETUP_SQE128 | IORING_SETUP_CQE32);
	ck_assert_str_eq(backend_uring_cmd.name, "io_uring_cmd");
	ck_assert_int_eq(backend_uring_cmd.check(&t, err, sizeof(err)), 0);
	t.kind = TARGET_BLOCK;
	ck_assert_int_eq(backend_uring_cmd.check(&t, err, sizeof(err)), -EINVAL);
	/* plain words, no command-line pattern to fill in ("ngXnY") */
	ck_assert_ptr_nonnull(strstr(err, "generic device"));
	ck_assert_ptr_null(strstr(err, "XnY"));
	/* the block backend on a generic device: the same, no placeholder */
	t = gen_target();
	ck_assert_int_eq(backend_io_uring.check(&t, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "passthrough"));
	ck_assert_ptr_null(strstr(err, "XnY"));
	ck_assert_ptr_null(strstr(err, "--ioengine"));
	t = gen_target();
	t.nsid = 0;
	ck_assert_int_eq(backend_uring_cmd.check(&t, err, sizeof(err)), -EINVAL);
}
END_TEST

/* Preps one I/O into a poisoned 128-byte slot, as the worker does (it sets
 * user_data right after prep). */
static struct nvme_uring_cmd *prep(struct io_uring_sqe *sqe, const struct target *t,
				   enum nvs_dir dir, void *buf, uint32_t len, uint64_t off,
				   bool fixed, uint64_t user_data)
{
	struct backend_io io = { .fd = t->fd, .fixed_file = fixed, .buf = buf, .buf_index = -1,
				 .len = len, .off = off, .dir = dir, .t = t };

	memset(sqe, 0xaa, 2 * sizeof(*sqe));
	backend_uring_cmd.prep(sqe, &io);
	sqe->user_data = user_data;
	return (struct nvme_uring_cmd *)sqe->cmd;
}

START_TEST(test_prep_and_result)
{
	struct target t = gen_target();
	struct io_uring_sqe sqe[2 * 3];
	struct io_uring_cqe cqe[2];
	static char buf[16384];
	struct nvme_uring_cmd *c;

	/* 16 KiB read at 1 MiB: SLBA 256, 4 LBAs (NLB 3 zero based) */
	c = prep(&sqe[0], &t, NVS_READ, buf, 16384, 1 << 20, false, 7);
	ck_assert_uint_eq(sqe[0].opcode, IORING_OP_URING_CMD);
	ck_assert_uint_eq(sqe[0].cmd_op, NVME_URING_CMD_IO);
	ck_assert_int_eq(sqe[0].fd, 5);
	ck_assert_uint_eq(sqe[0].flags & IOSQE_FIXED_FILE, 0);
	ck_assert_uint_eq(c->opcode, 0x02);
	ck_assert_uint_eq(c->nsid, 3);
	ck_assert_uint_eq(c->addr, (uint64_t)(uintptr_t)buf);
	ck_assert_uint_eq(c->data_len, 16384);
	ck_assert_uint_eq(c->cdw10, 256);
	ck_assert_uint_eq(c->cdw11, 0);
	ck_assert_uint_eq(c->cdw12, 3);
	ck_assert_uint_eq(c->metadata_len, 0);
	ck_assert_uint_eq(c->cdw13, 0);

	/* 4 KiB write beyond 2^32 LBAs, fixed file */
	c = prep(&sqe[2], &t, NVS_WRITE, buf, 4096, (5ULL << 32) << 12, true, 9);
	ck_assert_uint_eq(c->opcode, 0x01);
	ck_assert_uint_eq(sqe[2].flags & IOSQE_FIXED_FILE, IOSQE_FIXED_FILE);
	ck_assert_uint_eq(c->cdw10, 0);
	ck_assert_uint_eq(c->cdw11, 5);
	ck_assert_uint_eq(c->cdw12, 0);

	/* a length that is not whole LBAs never reaches the device as such */
	c = prep(&sqe[4], &t, NVS_READ, buf, 1000, 0, false, 11);
	ck_assert_uint_ne(c->opcode, 0x02);
	ck_assert_uint_eq(c->data_len, 0);

	/* completions: res 0 is the whole command, an NVMe status is -EIO */
	memset(cqe, 0, sizeof(cqe));
	cqe[0].user_data = 9;
	ck_assert_int_eq(backend_uring_cmd.result(&cqe[0], 4096), 4096);
	cqe[0].res = 0x4002; /* NVMe status (DNR, Invalid Field) */
	ck_assert_int_eq(backend_uring_cmd.result(&cqe[0], 4096), -EIO);
	cqe[0].res = -EINTR;
	ck_assert_int_eq(backend_uring_cmd.result(&cqe[0], 4096), -EINTR);
}
END_TEST


/* fio's write_mode: the write becomes Write Uncorrectable (04h), Write
 * Zeroes (08h, DEAC bit 25 only with deac=1) or Verify (0Ch) over the same
 * SLBA/NLB, with no data buffer (fio's fio_nvme_uring_cmd_prep) */
START_TEST(test_write_modes)
{
	struct target t = gen_target();
	struct io_uring_sqe sqe[2];
	static char buf[65536];
	static const struct {
		uint8_t wmode, op;
		bool deac;
		uint32_t cdw12;
	} cases[] = {
	    {WMODE_WRITE, 0x01, true, 15},
	    {WMODE_UNCOR, 0x04, true, 15},
	    {WMODE_ZEROES, 0x08, false, 15},
	    {WMODE_ZEROES, 0x08, true, 15 | (1u << 25)},
	    {WMODE_VERIFY, 0x0c, true, 15},
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* 64 KiB at LBA 2^32 + 7: SLBA split over CDW10/11, NLB 15 */
		struct backend_io io = {.fd = t.fd, .buf = buf, .buf_index = 2, .len = 65536,
					.off = ((1ULL << 32) + 7) << 12, .dir = NVS_WRITE, .t = &t,
					.wmode = cases[i].wmode, .deac = cases[i].deac};
		memset(sqe, 0xaa, sizeof(sqe));
		backend_uring_cmd.prep(sqe, &io);
		struct nvme_uring_cmd *c = (struct nvme_uring_cmd *)sqe[0].cmd;
		ck_assert_uint_eq(c->opcode, cases[i].op);
		ck_assert_uint_eq(c->nsid, 3);
		ck_assert_uint_eq(c->cdw10, 7);
		ck_assert_uint_eq(c->cdw11, 1);
		ck_assert_uint_eq(c->cdw12, cases[i].cdw12);
		ck_assert_uint_eq(c->cdw13, 0);
		if (cases[i].wmode == WMODE_WRITE) {
			ck_assert_uint_eq(c->addr, (uint64_t)(uintptr_t)buf);
			ck_assert_uint_eq(c->data_len, 65536);
			ck_assert_uint_eq(sqe[0].uring_cmd_flags, IORING_URING_CMD_FIXED);
		} else { /* no data moves: no buffer, not a fixed-buffer command */
			ck_assert_uint_eq(c->addr, 0);
			ck_assert_uint_eq(c->data_len, 0);
			ck_assert_uint_eq(sqe[0].uring_cmd_flags, 0);
		}
	}
	/* reads never take a write mode */
	struct backend_io rd = {.fd = t.fd, .buf = buf, .buf_index = -1, .len = 4096, .off = 0,
				.dir = NVS_READ, .t = &t, .wmode = WMODE_ZEROES, .deac = true};
	backend_uring_cmd.prep(sqe, &rd);
	ck_assert_uint_eq(((struct nvme_uring_cmd *)sqe[0].cmd)->opcode, 0x02);
	ck_assert_uint_eq(((struct nvme_uring_cmd *)sqe[0].cmd)->cdw12, 0);
	/* an unknown mode is never sent as some other command */
	rd.dir = NVS_WRITE;
	rd.wmode = 9;
	backend_uring_cmd.prep(sqe, &rd);
	ck_assert_uint_eq(((struct nvme_uring_cmd *)sqe[0].cmd)->opcode, 0x7f);
}
END_TEST

/* trims: Dataset Management (09h), CDW10 = ranges - 1, CDW11 = AD (bit 2),
 * the range list in the buffer: 16 bytes each, context attributes 0, NLB
 * (not zero based), SLBA (fio's fio_nvme_uring_cmd_trim_prep) */
START_TEST(test_dsm)
{
	struct target t = gen_target();
	struct io_uring_sqe sqe[2];
	static uint64_t buf[512 * 2] __attribute__((aligned(4096)));
	uint32_t *w32 = (uint32_t *)buf;
	struct nvme_uring_cmd *c = (struct nvme_uring_cmd *)sqe[0].cmd;

	/* one range: [off, off + len) */
	memset(buf, 0xee, sizeof(buf));
	struct backend_io io = {.fd = t.fd, .buf = buf, .buf_index = 1, .len = 8192,
				.off = 40960, .dir = NVS_TRIM, .t = &t};
	memset(sqe, 0xaa, sizeof(sqe));
	backend_uring_cmd.prep(sqe, &io);
	ck_assert_uint_eq(c->opcode, 0x09);
	ck_assert_uint_eq(c->nsid, 3);
	ck_assert_uint_eq(c->cdw10, 0);
	ck_assert_uint_eq(c->cdw11, 1u << 2);
	ck_assert_uint_eq(c->cdw12, 0);
	ck_assert_uint_eq(c->addr, (uint64_t)(uintptr_t)buf);
	ck_assert_uint_eq(c->data_len, 16);
	ck_assert_uint_eq(sqe[0].uring_cmd_flags, 0);
	ck_assert_uint_eq(w32[0], 0); /* context attributes */
	ck_assert_uint_eq(w32[1], 2); /* NLB: 2 LBAs, not zero based */
	ck_assert_uint_eq(buf[1], 10); /* SLBA */

	/* num_range: three ranges (the worker's list) rewritten in place */
	struct backend_range *r = (struct backend_range *)buf;
	r[0] = (struct backend_range){4096, 4096};
	r[1] = (struct backend_range){(1ULL << 33) << 12, 65536};
	r[2] = (struct backend_range){0, 12288};
	io.nranges = 3;
	io.len = 4096 + 65536 + 12288;
	backend_uring_cmd.prep(sqe, &io);
	ck_assert_uint_eq(c->opcode, 0x09);
	ck_assert_uint_eq(c->cdw10, 2);
	ck_assert_uint_eq(c->cdw11, 1u << 2);
	ck_assert_uint_eq(c->data_len, 48);
	ck_assert_uint_eq(w32[0], 0);
	ck_assert_uint_eq(w32[1], 1);
	ck_assert_uint_eq(buf[1], 1);
	ck_assert_uint_eq(w32[4], 0);
	ck_assert_uint_eq(w32[5], 16);
	ck_assert_uint_eq(buf[3], 1ULL << 33);
	ck_assert_uint_eq(w32[9], 3);
	ck_assert_uint_eq(buf[5], 0);

	/* a range that is not whole LBAs is never sent as a trim */
	r[0] = (struct backend_range){4096, 4096};
	r[1] = (struct backend_range){512, 4096};
	backend_uring_cmd.prep(sqe, &io);
	ck_assert_uint_ne(c->opcode, 0x09);
	io.nranges = 0;
	io.off = 0;
	io.len = 1000;
	backend_uring_cmd.prep(sqe, &io);
	ck_assert_uint_ne(c->opcode, 0x09);
	/* more ranges than NVMe's 256 */
	io.nranges = 257;
	io.len = 4096;
	backend_uring_cmd.prep(sqe, &io);
	ck_assert_uint_ne(c->opcode, 0x09);
}
END_TEST

Suite *uring_cmd_suite(void)
{
	Suite *s = suite_create("uring_cmd");
	TCase *t = tcase_create("passthrough");

	tcase_add_test(t, test_check);
	tcase_add_test(t, test_prep_and_result);
	tcase_add_test(t, test_write_modes);
	tcase_add_test(t, test_dsm);
	suite_add_tcase(s, t);
	return s;
}

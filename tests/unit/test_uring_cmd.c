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
#include "io/backend.h"
#include "io/target.h"

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

Suite *uring_cmd_suite(void)
{
	Suite *s = suite_create("uring_cmd");
	TCase *t = tcase_create("passthrough");

	tcase_add_test(t, test_check);
	tcase_add_test(t, test_prep_and_result);
	suite_add_tcase(s, t);
	return s;
}

/* test_iolog.c - write_iolog's writer: fio's lines, two workers merged by
 * time (a worker's own order kept for equal times), nothing written before
 * a slower worker's clock allows it, dropped records reported. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io/trace/iolog.h"
#include "io/trace/trace.h"
#include "nvscope.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	static char buf[1 << 16];
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

static void push(struct iolog *l, unsigned w, uint64_t t, uint64_t off, int dir)
{
	struct iolog_rec r = {.t_ns = t, .off = off, .len = 4096, .dir = (uint8_t)dir};
	ck_assert_int_eq(spsc_push(iolog_ring(l, w), &r), 0);
}

START_TEST(test_iolog_merge)
{
	char path[] = "/tmp/nvscope-iolog-XXXXXX", err[256] = "";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	const char *names[] = {"/dev/x"};
	int fds[] = {-1};
	struct iolog *l = NULL;
	ck_assert_int_eq(iolog_new(path, names, fds, 1, 2, &l, err, sizeof(err)), 0);
	uint64_t t0 = 1000000;
	/* worker 0 ran ahead to t0+5ms; worker 1 is at t0+2ms */
	push(l, 0, t0 + 1000, 0, NVS_READ);
	push(l, 0, t0 + 1000, 4096, NVS_WRITE); /* same time: after the first */
	push(l, 0, t0 + 5000000, 8192, NVS_READ);
	push(l, 1, t0 + 2000, 12288, NVS_READ);
	iolog_publish(iolog_clock(l, 0), t0 + 5000000);
	iolog_publish(iolog_clock(l, 1), t0 + 2000000);
	ck_assert_int_eq(iolog_drain(l, t0), 0);
	ck_assert_uint_eq(iolog_written(l), 3); /* not the one at 5 ms yet */
	push(l, 1, t0 + 3000000, 16384, NVS_WRITE);
	iolog_publish(iolog_clock(l, 1), UINT64_MAX);
	iolog_publish(iolog_clock(l, 0), UINT64_MAX);
	ck_assert_int_eq(iolog_finish(l, t0, err, sizeof(err)), 0);
	ck_assert_str_eq(slurp(path), "fio version 3 iolog\n"
				      "0 /dev/x add\n"
				      "0 /dev/x open\n"
				      "1 /dev/x read 0 4096\n"
				      "1 /dev/x write 4096 4096\n"
				      "2 /dev/x read 12288 4096\n"
				      "3000 /dev/x write 16384 4096\n"
				      "5000 /dev/x read 8192 4096\n"
				      "5000 /dev/x close\n");
	/* what it wrote is a trace nvscope reads back */
	struct trace *t = NULL;
	ck_assert_int_eq(trace_load(path, &t, err, sizeof(err)), 0);
	ck_assert_uint_eq(t->n, 5);
	ck_assert_uint_eq(t->io[4].t_ns, 4999000); /* 5000 - 1 us after the first */
	trace_free(t);
	iolog_free(l);
	unlink(path);
}
END_TEST

START_TEST(test_iolog_dropped)
{
	char path[] = "/tmp/nvscope-iolog-XXXXXX", err[256] = "";
	int fd = mkstemp(path);
	close(fd);
	const char *names[] = {"/dev/x"};
	int fds[] = {-1};
	struct iolog *l = NULL;
	ck_assert_int_eq(iolog_new(path, names, fds, 1, 1, &l, err, sizeof(err)), 0);
	struct iolog_rec r = {.t_ns = 1, .len = 512};
	for (unsigned i = 0; i <= IOLOG_RING; i++)
		spsc_push(iolog_ring(l, 0), &r);
	ck_assert_int_eq(iolog_finish(l, 0, err, sizeof(err)), -ENOBUFS);
	ck_assert_msg(strstr(err, "1 I/Os not logged") && strstr(err, path), "%s", err);
	iolog_free(l);
	/* a name fio would split */
	const char *sp[] = {"/dev/a b"};
	ck_assert_int_eq(iolog_new(path, sp, fds, 1, 1, &l, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_null(l);
	unlink(path);
}
END_TEST

/* a run that holds the table: the second job naming the file appends its
 * own log (fio's fopen "a"); outside a hold the file is emptied */
static void one_log(const char *path, uint64_t off)
{
	const char *names[] = {"/dev/x"};
	int fds[] = {-1};
	char err[256] = "";
	struct iolog *l = NULL;
	ck_assert_int_eq(iolog_new(path, names, fds, 1, 1, &l, err, sizeof(err)), 0);
	push(l, 0, 1000, off, NVS_WRITE);
	iolog_publish(iolog_clock(l, 0), UINT64_MAX);
	ck_assert_int_eq(iolog_finish(l, 0, err, sizeof(err)), 0);
	iolog_free(l);
}

START_TEST(test_iolog_shared)
{
	char path[] = "/tmp/nvscope-iolog-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "old\n", 4), 4);
	close(fd);
	const char *one = "fio version 3 iolog\n0 /dev/x add\n0 /dev/x open\n"
			  "1 /dev/x write 0 4096\n1 /dev/x close\n";
	const char *two = "fio version 3 iolog\n0 /dev/x add\n0 /dev/x open\n"
			  "1 /dev/x write 8192 4096\n1 /dev/x close\n";
	char want[512];
	iolog_hold();
	one_log(path, 0);
	one_log(path, 8192);
	iolog_release();
	snprintf(want, sizeof(want), "%s%s", one, two);
	ck_assert_str_eq(slurp(path), want); /* "old" gone, both logs kept */
	one_log(path, 0);		     /* no hold: emptied first */
	ck_assert_str_eq(slurp(path), one);
	iolog_hold();
	one_log(path, 8192); /* a new run: emptied again */
	ck_assert_str_eq(slurp(path), two);
	iolog_release();
	unlink(path);
}
END_TEST

Suite *iolog_suite(void)
{
	Suite *s = suite_create("iolog");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_iolog_merge);
	tcase_add_test(tc, test_iolog_shared);
	tcase_add_test(tc, test_iolog_dropped);
	suite_add_tcase(s, tc);
	return s;
}

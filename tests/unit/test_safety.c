/* test_safety.c - the write-safety module on regular files (no device
 * needed): a signature is data (refused unless forced, named in the
 * message), through the held descriptor and through target_open; a FIFO
 * planted under a target's name is refused without hanging; the one
 * confirmation token and what confirms it. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dev/devmodel.h"
#include "dev/safety.h"
#include "io/target.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/nvs-safety-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A 1 MiB file; with a Linux swap signature when @swap (libblkid: TYPE=swap). */
static void make_file(const char *path, bool swap)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 1 << 20), 0);
	if (swap) {
		const unsigned char ver[8] = {1, 0, 0, 0, 0xff, 0, 0, 0};
		ck_assert_int_eq(pwrite(fd, ver, sizeof(ver), 1024), (ssize_t)sizeof(ver));
		ck_assert_int_eq(pwrite(fd, "SWAPSPACE2", 10, 4096 - 10), 10);
	}
	close(fd);
}

START_TEST(test_signature_file)
{
	char p[128], msg[1024];
	int fd;

	snprintf(p, sizeof(p), "%s/blank.img", dir);
	make_file(p, false);
	ck_assert_int_eq(safety_check_write(p, false, msg, sizeof(msg)), 0);
	snprintf(p, sizeof(p), "%s/swap.img", dir);
	make_file(p, true);
	ck_assert_int_eq(safety_check_write(p, false, msg, sizeof(msg)), -EEXIST);
	ck_assert_ptr_nonnull(strstr(msg, "swap"));
	ck_assert_ptr_nonnull(strstr(msg, "--force-destroy"));
	ck_assert_int_eq(safety_check_write(p, true, msg, sizeof(msg)), 0);
	/* through a descriptor the caller holds */
	fd = open(p, O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(safety_check_fd(fd, p, false, msg, sizeof(msg)), -EEXIST);
	close(fd);
	/* safety_open: nothing stays open on a refusal */
	fd = 12345;
	ck_assert_int_eq(safety_open(p, O_WRONLY, false, &fd, NULL, msg, sizeof(msg)), -EEXIST);
	ck_assert_int_eq(fd, -1);
	ck_assert_int_eq(safety_open(p, O_WRONLY, true, &fd, NULL, msg, sizeof(msg)), 0);
	ck_assert_int_ge(fd, 0);
	close(fd);
	/* a missing file (nvscope creates it) is fine */
	snprintf(p, sizeof(p), "%s/new.img", dir);
	ck_assert_int_eq(safety_check_write(p, false, msg, sizeof(msg)), 0);
}
END_TEST

START_TEST(test_target_open)
{
	char p[128], err[1024];
	struct target t;

	snprintf(p, sizeof(p), "%s/swap.img", dir);
	make_file(p, true);
	ck_assert_int_eq(target_open(&t, p, true, false, false, 0, err, sizeof(err)), -EPERM);
	ck_assert_ptr_nonnull(strstr(err, "refusing to write"));
	ck_assert_int_eq(t.fd, -1);
	/* reading is always allowed */
	ck_assert_int_eq(target_open(&t, p, false, false, false, 0, err, sizeof(err)), 0);
	target_close(&t);
	/* a read that would lay out (extend) the file is judged as a write */
	ck_assert_int_eq(target_open(&t, p, false, false, false, 2 << 20, err, sizeof(err)),
			 -EPERM);
	ck_assert_int_eq(target_open(&t, p, true, true, false, 0, err, sizeof(err)), 0);
	target_close(&t);
	/* a FIFO under the name: refused at once, no hang on open */
	snprintf(p, sizeof(p), "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	ck_assert_int_eq(safety_check_write(p, false, err, sizeof(err)), -EINVAL);
	ck_assert_int_ne(target_open(&t, p, true, false, false, 4096, err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_confirm)
{
	char p[128], q[128], l[128], list[512], tok[256];

	snprintf(p, sizeof(p), "%s/a.img", dir);
	snprintf(q, sizeof(q), "%s/b.img", dir);
	snprintf(l, sizeof(l), "%s/link", dir);
	make_file(p, false);
	make_file(q, false);
	ck_assert_int_eq(symlink(p, l), 0);
	ck_assert_int_eq(safety_confirm_token(p, tok, sizeof(tok)), 0);
	ck_assert_str_eq(tok, p);
	ck_assert(safety_confirmed(p, p, tok, sizeof(tok)));
	ck_assert_str_eq(tok, p);
	ck_assert(safety_confirmed(l, p, NULL, 0));  /* the same file */
	ck_assert(!safety_confirmed(q, p, NULL, 0)); /* another one */
	snprintf(list, sizeof(list), "%s,%s", q, p);
	ck_assert(safety_confirmed(list, p, NULL, 0));
	ck_assert(!safety_confirmed("", p, NULL, 0));
	ck_assert(!safety_confirmed(NULL, p, NULL, 0));
	ck_assert(!safety_confirmed(",,", p, NULL, 0));
	ck_assert(!safety_confirmed("a.img", p, NULL, 0)); /* relative: not a path token */
	ck_assert(!safety_confirmed(p, "/nonexistent/x", NULL, 0));
}
END_TEST

START_TEST(test_usage_marks)
{
	char p[128];
	struct dev_usage u;

	snprintf(p, sizeof(p), "%s/swap.img", dir);
	make_file(p, true);
	safety_usage(p, &u);
	ck_assert(dev_usage_has_data(&u));
	ck_assert(!dev_usage_in_use(&u));
	ck_assert_str_eq(u.fstype, "swap");
	/* an image file added to the device list gets the same marks */
	struct dev_list *l = dev_list_new();
	ck_assert_ptr_nonnull(l);
	ck_assert_int_eq(dev_list_add_file(l, p), 0);
	ck_assert(dev_usage_has_data(&l->blocks[0].in_use));
	dev_list_free(l);
	snprintf(p, sizeof(p), "%s/blank.img", dir);
	make_file(p, false);
	safety_usage(p, &u);
	ck_assert(!dev_usage_any(&u));
}
END_TEST

Suite *safety_suite(void)
{
	Suite *s = suite_create("safety");
	TCase *t = tcase_create("files");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_signature_file);
	tcase_add_test(t, test_target_open);
	tcase_add_test(t, test_confirm);
	tcase_add_test(t, test_usage_marks);
	suite_add_tcase(s, t);
	return s;
}

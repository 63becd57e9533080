/* test_safety.c - the write-safety module on regular files (no device
 * needed): a signature is data (refused unless forced, named in the
 * message), through the held descriptor and through target_open; a FIFO
 * planted under a target's name is refused without hanging; the one
 * confirmation token and what confirms it.  A run group's claim set
 * (safety_claims_*): on files (each writer judged alone) and, as root, on a
 * loop device this test makes (one claim, duplicates, still exclusive). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dev/devmodel.h"
#include "dev/safety.h"
#include "io/core/target.h"

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

START_TEST(test_claims_files)
{
	char p[128], q[128], msg[1024];
	struct safety_claims *cs = safety_claims_new();
	int a, b, g;

	ck_assert_ptr_nonnull(cs);
	snprintf(p, sizeof(p), "%s/blank.img", dir);
	make_file(p, false);
	snprintf(q, sizeof(q), "%s/swap.img", dir);
	make_file(q, true);
	/* a file has no exclusive claim: each writer its own descriptor */
	ck_assert_int_eq(safety_claims_open(cs, p, O_RDWR, false, &a, &g, msg, sizeof(msg)), 0);
	ck_assert_int_eq(g, -1);
	ck_assert_int_eq(safety_claims_open(cs, p, O_RDWR, false, &b, NULL, msg, sizeof(msg)), 0);
	ck_assert_int_ne(a, b);
	ck_assert_int_eq(safety_claims_count(cs), 0);
	close(a);
	close(b);
	/* each one judged: data refused unless forced, nothing left open */
	a = 12345;
	ck_assert_int_eq(safety_claims_open(cs, q, O_RDWR, false, &a, NULL, msg, sizeof(msg)),
			 -EEXIST);
	ck_assert_int_eq(a, -1);
	ck_assert_ptr_nonnull(strstr(msg, "swap"));
	ck_assert_int_eq(safety_claims_open(cs, q, O_RDWR, true, &a, NULL, msg, sizeof(msg)), 0);
	close(a);
	/* no set: safety_open */
	ck_assert_int_eq(safety_claims_open(NULL, q, O_RDWR, false, &a, NULL, msg, sizeof(msg)),
			 -EEXIST);
	safety_claims_free(cs);
	safety_claims_free(NULL);
}
END_TEST

/* A loop device over a new 4 MiB file in dir (removed when its last
 * descriptor closes: autoclear); its path in @dev, a descriptor that keeps
 * it returned (-1 when loop devices cannot be made: not root). */
static int make_loop(char *dev, size_t len)
{
	char img[128];
	int ctl, bfd, lfd = -1;

	if (geteuid())
		return -1;
	snprintf(img, sizeof(img), "%s/loop.img", dir);
	make_file(img, false);
	ck_assert_int_eq(truncate(img, 4 << 20), 0);
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		return -1;
	bfd = open(img, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(bfd, 0);
	for (int i = 0; i < 10 && lfd < 0; i++) { /* others take free devices too */
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);
		struct loop_config cfg = {.fd = (unsigned)bfd, .block_size = 512};
		if (n < 0)
			break;
		snprintf(dev, len, "/dev/loop%d", n);
		lfd = open(dev, O_RDWR | O_CLOEXEC);
		cfg.info.lo_flags = LO_FLAGS_AUTOCLEAR;
		if (lfd >= 0 && ioctl(lfd, LOOP_CONFIGURE, &cfg)) {
			close(lfd);
			lfd = -1;
		}
	}
	close(bfd);
	close(ctl);
	return lfd;
}

static int excl_open(const char *dev)
{
	int fd = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return -errno;
}

START_TEST(test_claims_loop)
{
	char dev[64], msg[1024];
	int keep = make_loop(dev, sizeof(dev)), a, b, c, g;
	struct stat sa, sb;

	if (keep < 0) {
		fprintf(stderr, "claims on a loop device: skipped (not root / no loop devices)\n");
		return;
	}
	struct safety_claims *cs = safety_claims_new();
	ck_assert_ptr_nonnull(cs);
	ck_assert_int_eq(excl_open(dev), 0); /* free before */
	/* one claim, judged once; the second writer gets its own open of it */
	ck_assert_int_eq(
	    safety_claims_open(cs, dev, O_RDWR | O_DIRECT, false, &a, &g, msg, sizeof(msg)), 0);
	ck_assert_int_eq(g, -1);
	ck_assert_int_eq(
	    safety_claims_open(cs, dev, O_RDWR | O_DIRECT, false, &b, NULL, msg, sizeof(msg)), 0);
	ck_assert_int_eq(safety_claims_count(cs), 1);
	ck_assert_int_ne(a, b);
	ck_assert_int_eq(fstat(a, &sa), 0);
	ck_assert_int_eq(fstat(b, &sb), 0);
	ck_assert(S_ISBLK(sb.st_mode) && sa.st_rdev == sb.st_rdev);
	ck_assert(fcntl(b, F_GETFL) & O_DIRECT);
	/* each writer its own open file (fio: each job opens the device), so
	 * one job's O_DIRECT or fadvise hint is not another's */
	ck_assert_int_eq(fcntl(a, F_SETFL, fcntl(a, F_GETFL) & ~O_DIRECT), 0);
	ck_assert(fcntl(b, F_GETFL) & O_DIRECT);
	ck_assert_int_eq(fcntl(a, F_SETFL, fcntl(a, F_GETFL) | O_DIRECT), 0);
	ck_assert_int_eq(lseek(a, 8192, SEEK_SET), 8192);
	ck_assert_int_eq(lseek(b, 0, SEEK_CUR), 0);
	/* a buffered writer of the same claim: its own descriptor, buffered */
	c = 12345;
	ck_assert_int_eq(safety_claims_open(cs, dev, O_RDWR, false, &c, NULL, msg, sizeof(msg)), 0);
	ck_assert(!(fcntl(c, F_GETFL) & O_DIRECT));
	ck_assert_int_eq(safety_claims_count(cs), 1);
	/* exclusive while the set holds the claim, whatever the writers do */
	ck_assert_int_eq(excl_open(dev), -EBUSY);
	close(a);
	close(c);
	ck_assert_int_eq(excl_open(dev), -EBUSY);
	safety_claims_free(cs);
	close(b);
	ck_assert_int_eq(excl_open(dev), 0);

	/* data on it: refused unless forced, nothing held on a refusal */
	const unsigned char ver[8] = {1, 0, 0, 0, 0xff, 0, 0, 0};
	ck_assert_int_eq(pwrite(keep, ver, sizeof(ver), 1024), (ssize_t)sizeof(ver));
	ck_assert_int_eq(pwrite(keep, "SWAPSPACE2", 10, 4096 - 10), 10);
	ck_assert_int_eq(fsync(keep), 0);
	cs = safety_claims_new();
	ck_assert_int_eq(safety_claims_open(cs, dev, O_RDWR, false, &a, NULL, msg, sizeof(msg)),
			 -EEXIST);
	ck_assert_ptr_nonnull(strstr(msg, "swap"));
	ck_assert_int_eq(safety_claims_count(cs), 0);
	ck_assert_int_eq(excl_open(dev), 0);
	ck_assert_int_eq(safety_claims_open(cs, dev, O_RDWR, true, &a, NULL, msg, sizeof(msg)), 0);
	/* claimed as forced; a writer not forced is judged again */
	ck_assert_int_eq(safety_claims_open(cs, dev, O_RDWR, false, &b, NULL, msg, sizeof(msg)),
			 -EEXIST);
	ck_assert_int_eq(safety_claims_open(cs, dev, O_RDWR, true, &b, NULL, msg, sizeof(msg)), 0);
	close(a);
	close(b);
	safety_claims_free(cs);

	/* another program's claim: refused (after the 3 s wait) */
	int other = open(dev, O_RDONLY | O_EXCL | O_CLOEXEC);
	ck_assert_int_ge(other, 0);
	cs = safety_claims_new();
	ck_assert_int_eq(safety_claims_open(cs, dev, O_RDWR, true, &a, NULL, msg, sizeof(msg)),
			 -EBUSY);
	ck_assert_int_eq(safety_claims_count(cs), 0);
	safety_claims_free(cs);
	close(other);
	close(keep);
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
	t = tcase_create("claims");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 30); /* a refused claim waits 3 s for it to go */
	tcase_add_test(t, test_claims_files);
	tcase_add_test(t, test_claims_loop);
	suite_add_tcase(s, t);
	return s;
}

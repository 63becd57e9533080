/* test_probe.c - probes of devices in helper processes (src/dev/probe.c):
 * the answer is safety_usage()'s own, field for field, for a file with a
 * signature, an empty file and a missing path, one at a time and side by
 * side; nothing is left pending; "not responding" is recognised only as
 * such; each answer is reported as it comes.  The helpers are this test
 * binary started afresh (runner.c hands their argument to
 * probe_helper_main).  (A device that does not answer: tests/integration/stall_others.sh.) */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dev/devmodel.h"
#include "dev/probe.h"
#include "dev/safety.h"

/* A file of 1 MiB holding an ext2 superblock magic (0xEF53 at 1024 + 56). */
static void make_ext2ish(const char *path)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
	unsigned char sb[1024] = {0};

	ck_assert_int_ge(fd, 0);
	sb[56] = 0x53;
	sb[57] = 0xef;
	sb[24] = 0; /* log block size: 1 KiB */
	sb[4] = 0x00;
	sb[5] = 0x04; /* blocks count 1024 */
	ck_assert_int_eq(pwrite(fd, sb, sizeof(sb), 1024), (int)sizeof(sb));
	ck_assert_int_eq(ftruncate(fd, 1 << 20), 0);
	close(fd);
}

START_TEST(test_same_as_safety_usage)
{
	char dir[] = "/tmp/nvscope-probe-XXXXXX", sig[64], empty[64], missing[64];
	const char *paths[3] = {sig, empty, missing};
	struct dev_usage got[3], want[3], one;
	struct dev_usage *u[3] = {&got[0], &got[1], &got[2]};

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sig, sizeof(sig), "%s/sig.img", dir);
	snprintf(empty, sizeof(empty), "%s/empty.img", dir);
	snprintf(missing, sizeof(missing), "%s/missing.img", dir);
	make_ext2ish(sig);
	close(open(empty, O_CREAT | O_WRONLY, 0600));
	for (int i = 0; i < 3; i++)
		safety_usage(paths[i], &want[i]);
	ck_assert_msg(dev_usage_has_data(&want[0]), "no signature seen: %s", want[0].found);
	memset(got, 0xa5, sizeof(got));
	probe_usage_many(paths, u, 3, PROBE_DEADLINE_MS);
	for (int i = 0; i < 3; i++) {
		ck_assert_msg(!memcmp(&got[i], &want[i], sizeof(want[i])), "%s differs", paths[i]);
		ck_assert(!probe_not_responding(&got[i]));
	}
	probe_usage(sig, &one);
	ck_assert(!memcmp(&one, &want[0], sizeof(one)));
	ck_assert_uint_eq(probe_pending(), 0);
	unlink(sig);
	unlink(empty);
	rmdir(dir);
}
END_TEST

/* probe_usage_each: every answer reported once, by its index, with the
 * reading already in place. */
struct told {
	int count[3];
	struct dev_usage *const *u;
};
static void on_answer(void *ctx, size_t i)
{
	struct told *t = ctx;
	ck_assert_uint_lt(i, 3);
	t->count[i]++;
	ck_assert(!probe_is_pending(t->u[i]));
}

START_TEST(test_each_answer_told)
{
	char dir[] = "/tmp/nvscope-probe-XXXXXX", a[64], b[64], missing[64];
	const char *paths[3] = {a, b, missing};
	struct dev_usage got[3];
	struct dev_usage *u[3] = {&got[0], &got[1], &got[2]};
	struct told t = {{0}, u};

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/a.img", dir);
	snprintf(b, sizeof(b), "%s/b.img", dir);
	snprintf(missing, sizeof(missing), "%s/missing.img", dir);
	make_ext2ish(a);
	close(open(b, O_CREAT | O_WRONLY, 0600));
	for (int i = 0; i < 3; i++)
		probe_mark_pending(&got[i]);
	probe_usage_each(paths, u, 3, PROBE_DEADLINE_MS, on_answer, &t);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(t.count[i], 1);
	ck_assert(dev_usage_has_data(&got[0]));
	ck_assert(!dev_usage_any(&got[1]));
	struct dev_usage want;
	safety_usage(missing, &want);
	ck_assert(!memcmp(&got[2], &want, sizeof(want)));
	unlink(a);
	unlink(b);
	rmdir(dir);
}
END_TEST

START_TEST(test_not_responding_is_in_use)
{
	struct dev_usage u = {.unknown = true};

	snprintf(u.why, sizeof(u.why), "not responding (no answer in 2 s)");
	ck_assert(probe_not_responding(&u));
	ck_assert(dev_usage_in_use(&u)); /* unknown: never free, never written */
	snprintf(u.why, sizeof(u.why), "Permission denied");
	ck_assert(!probe_not_responding(&u));
	u.unknown = false;
	snprintf(u.why, sizeof(u.why), "not responding");
	ck_assert(!probe_not_responding(&u));
}
END_TEST

Suite *probe_suite(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_same_as_safety_usage);
	tcase_add_test(tc, test_not_responding_is_in_use);
	tcase_add_test(tc, test_each_answer_told);
	suite_add_tcase(s, tc);
	return s;
}

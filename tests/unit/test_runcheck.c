/* test_runcheck.c - `nvscope run`'s check of the whole command
 * (cmd/runcheck.c).
 *
 * The object written is the object checked (issue 20, cause 2, the
 * residual gap): `nvscope run` pins its targets before it checks them, the
 * check judges what was pinned, and every later open compares with the
 * same pin.  On regular files (a file renamed over a target is the same
 * swap as a loop device re-attached: the pin tells both apart, by inode or
 * by diskseq):
 *  - safety_pin_stat: a pinned target's stat, refused once swapped or gone;
 *  - runcheck_job with the target pinned and then swapped: a writing job
 *    and a job that only reads are both refused at the check;
 *  - `nvscope run` itself (cmd_main) with a file renamed over its target
 *    just after the whole command was checked (runcheck_set_test_hook,
 *    tests only): the file swapped in is never written.  Before the fix
 *    the run pinned the swapped-in file after the check and wrote it.
 *
 * Inputs: every file the jobs are read from (an `include`, the first of
 * several job files) is one no output may land on.
 *
 * Refusals the pool made only at open (after earlier run groups ran),
 * now made by the check: passthrough (io_uring_cmd) on a device that is
 * not an NVMe generic device. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "nvscope.h"
#include "cmd/cmd.h"
#include "cmd/runcheck.h"
#include "dev/safety.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/nvs-runcheck-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	runcheck_set_test_hook(NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* @dir/@name, 1 MiB of byte @b; its path in @path. */
static void make(const char *name, int b, char *path, size_t len)
{
	static char buf[1 << 20];
	int fd;

	snprintf(path, len, "%s/%s", dir, name);
	memset(buf, b, sizeof(buf));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	ck_assert_int_eq(close(fd), 0);
}

/* Is every byte of @path @b (and is it 1 MiB)? */
static bool all_bytes(const char *path, int b)
{
	static char buf[1 << 20];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(buf, 1, sizeof(buf), f) : 0;

	if (f)
		fclose(f);
	for (size_t i = 0; i < n; i++)
		if (buf[i] != (char)b)
			return false;
	return n == sizeof(buf);
}

START_TEST(test_pin_stat)
{
	char t[PATH_MAX], o[PATH_MAX], none[PATH_MAX], msg[512];
	struct stat st, was;

	make("t.img", 0, t, sizeof(t));
	make("o.img", 0xab, o, sizeof(o));
	snprintf(none, sizeof(none), "%s/none.img", dir);
	ck_assert_int_eq(stat(t, &was), 0);
	/* no pin: what the name is */
	ck_assert_int_eq(safety_pin_stat(t, &st, msg, sizeof(msg)), 0);
	ck_assert_int_eq(st.st_ino, was.st_ino);
	ck_assert_int_eq(safety_pin_stat(none, &st, msg, sizeof(msg)), -ENOENT);
	/* pinned: the same file passes, another one under the name does not */
	ck_assert_int_eq(safety_pin_hold(t, msg, sizeof(msg)), 0);
	ck_assert_int_eq(safety_pin_stat(t, &st, msg, sizeof(msg)), 0);
	ck_assert_int_eq(st.st_ino, was.st_ino);
	ck_assert_int_eq(st.st_size, 1 << 20);
	ck_assert_int_eq(rename(o, t), 0);
	ck_assert_int_eq(safety_pin_stat(t, &st, msg, sizeof(msg)), -ESTALE);
	ck_assert_ptr_nonnull(strstr(msg, "is not the file that was confirmed"));
	/* gone since it was pinned: not absent, not what was pinned */
	ck_assert_int_eq(unlink(t), 0);
	ck_assert_int_eq(safety_pin_stat(t, &st, msg, sizeof(msg)), -ESTALE);
	ck_assert_ptr_nonnull(strstr(msg, "it is gone"));
	safety_pin_release(t);
	ck_assert_int_eq(safety_pin_stat(t, &st, msg, sizeof(msg)), -ENOENT);
}
END_TEST

/* A job on @path: rw=@rw, 64 KiB. */
static void job(struct spec *s, const char *path, const char *rw)
{
	char err[256];

	spec_init(s);
	ck_assert_int_eq(opt_set(s, "target", path, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(s, "rw", rw, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(s, "size", "64k", err, sizeof(err)), 0);
}

/* The check of a pinned target judges what was pinned: a file renamed
 * over it between the pin and the check is refused, for a job that
 * writes (the write rule's open) and for one that only reads (the look at
 * its kind and size, which took the name's word before). */
START_TEST(test_check_judges_pin)
{
	char t[PATH_MAX], o[PATH_MAX], msg[512], err[1024];
	struct spec w, r;

	make("t.img", 0, t, sizeof(t));
	make("o.img", 0xab, o, sizeof(o));
	job(&w, t, "write");
	job(&r, t, "read");
	ck_assert_int_eq(safety_pin_hold(t, msg, sizeof(msg)), 0);
	ck_assert_int_eq(runcheck_job(&w, err, sizeof(err)), 0);
	ck_assert_int_eq(runcheck_job(&r, err, sizeof(err)), 0);
	ck_assert_int_eq(rename(o, t), 0);
	ck_assert_int_eq(runcheck_job(&w, err, sizeof(err)), -ESTALE);
	ck_assert_ptr_nonnull(strstr(err, "refusing to write"));
	ck_assert_ptr_nonnull(strstr(err, "is not the file that was confirmed"));
	ck_assert_int_eq(runcheck_job(&r, err, sizeof(err)), -ESTALE);
	ck_assert_ptr_nonnull(strstr(err, "is not the file that was confirmed"));
	safety_pin_release(t);
	ck_assert_int_eq(runcheck_job(&w, err, sizeof(err)), 0);
	ck_assert(all_bytes(t, 0xab));
}
END_TEST

struct swap {
	const char *from, *to;
	int calls;
};

/* The hook: another file renamed over the target, once the whole
 * command has been checked and before anything is opened for writing. */
static void swap_target(void *arg)
{
	struct swap *sw = arg;

	sw->calls++;
	ck_assert_int_eq(rename(sw->from, sw->to), 0);
}

/* `nvscope run` with @argv (@argc, NULL-terminated); its stderr in @log. */
static int run_argv(int argc, char **argv, const char *log)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), save = dup(2), rc;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_ge(save, 0);
	fflush(stderr);
	ck_assert_int_eq(dup2(fd, 2), 2);
	rc = cmd_main(argc, argv);
	fflush(stderr);
	dup2(save, 2);
	close(save);
	close(fd);
	return rc;
}

/* `nvscope run` as the command line runs it; its stderr in @log. */
static int run_cmd(const char *target, const char *log)
{
	char tgt[PATH_MAX + 16];
	char *argv[] = {"nvscope", "run",	 "--target",   tgt,  "--rw=write",
			"--bs=4k", "--size=64k", "--direct=0", "-q", NULL};

	snprintf(tgt, sizeof(tgt), "%s", target);
	return run_argv(9, argv, log);
}

/* Does file @path contain @s? */
static bool file_has(const char *path, const char *s)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return strstr(buf, s) != NULL;
}

/* The window between the check and the first write: a file renamed over
 * the target there is not the file checked, and is not written. */
START_TEST(test_run_swap_after_check)
{
	char t[PATH_MAX], o[PATH_MAX], log[PATH_MAX];
	struct swap sw = {.from = o, .to = t};

	make("t.img", 0, t, sizeof(t));
	make("o.img", 0xab, o, sizeof(o));
	snprintf(log, sizeof(log), "%s/err.log", dir);
	/* without a swap the run writes its target (the test can pass) */
	ck_assert_int_eq(run_cmd(t, log), NVS_EXIT_OK);
	ck_assert(!all_bytes(t, 0));
	make("t.img", 0, t, sizeof(t));
	runcheck_set_test_hook(swap_target, &sw);
	int rc = run_cmd(t, log);
	runcheck_set_test_hook(NULL, NULL);
	ck_assert_int_eq(sw.calls, 1);
	ck_assert_msg(all_bytes(t, 0xab), "the file swapped in after the check was written");
	ck_assert_int_ne(rc, NVS_EXIT_OK);
	ck_assert_msg(file_has(log, "is not the file that was confirmed"), "no refusal in the log");
}
END_TEST

/* Writes @text to @dir/@name; its path in @path. */
static void put(const char *name, const char *text, char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* Every file the jobs are read from is an input no output may land on:
 * an `include` of the job file, and the first of several job files
 * (`nvscope run a.fio b.fio`: the loader's later files took its place). */
START_TEST(test_inputs_registered)
{
	char t[PATH_MAX], inc[PATH_MAX], a[PATH_MAX], b[PATH_MAX], log[PATH_MAX],
	    text[PATH_MAX + 64];
	char *argv[8] = {"nvscope", "run", a, "--output-format=json", "--output", inc, NULL};

	make("t.img", 0, t, sizeof(t));
	snprintf(log, sizeof(log), "%s/err.log", dir);
	snprintf(text, sizeof(text), "filename=%s\nrw=read\nbs=4k\nsize=64k\n", t);
	put("inc.fio", text, inc, sizeof(inc));
	snprintf(text, sizeof(text), "[a]\ninclude %s\n", inc);
	put("a.fio", text, a, sizeof(a));
	snprintf(text, sizeof(text), "[b]\ninclude %s\n", inc);
	put("b.fio", text, b, sizeof(b));
	/* --output over the include: refused, the include as it was */
	ck_assert_int_eq(run_argv(6, argv, log), NVS_EXIT_USAGE);
	ck_assert_msg(file_has(log, "of this command"), "no refusal in the log");
	snprintf(text, sizeof(text), "filename=%s\nrw=read\nbs=4k\nsize=64k\n", t);
	ck_assert(file_has(inc, text));
	/* --output over the first of two job files */
	argv[3] = b;
	argv[4] = "--output-format=json";
	argv[5] = "--output";
	argv[6] = a;
	argv[7] = NULL;
	ck_assert_int_eq(run_argv(7, argv, log), NVS_EXIT_USAGE);
	ck_assert_msg(file_has(log, "of this command"), "no refusal in the log");
	ck_assert(file_has(a, "[a]\ninclude "));
}
END_TEST

/* Passthrough on a character device that is not an NVMe generic one
 * (/dev/null here; a block device is refused the same way): the backend
 * refused it only when the pool opened it, after earlier run groups had
 * run; the check refuses it first, in the backend's words. */
START_TEST(test_passthrough_checked)
{
	char err[1024];
	struct spec s;

	job(&s, "/dev/null", "write");
	s.ioengine = ENGINE_IO_URING_CMD;
	ck_assert_int_eq(runcheck_job(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "needs an NVMe generic device; this is not one"));
	s.ioengine = ENGINE_IO_URING;
	ck_assert_int_eq(runcheck_job(&s, err, sizeof(err)), 0);
}
END_TEST

Suite *runcheck_suite(void)
{
	Suite *s = suite_create("runcheck");
	TCase *t = tcase_create("pin first");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_pin_stat);
	tcase_add_test(t, test_check_judges_pin);
	tcase_add_test(t, test_run_swap_after_check);
	suite_add_tcase(s, t);
	t = tcase_create("inputs");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, test_inputs_registered);
	suite_add_tcase(s, t);
	t = tcase_create("open-time refusals");
	tcase_add_test(t, test_passthrough_checked);
	suite_add_tcase(s, t);
	return s;
}

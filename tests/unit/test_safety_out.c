/* test_safety_out.c - output files and results directories (safety_out.c):
 * a planted symlink, hard link, device, FIFO or directory is never written;
 * an existing file of ours is emptied, appended to or kept as asked; a
 * results directory is created, a symlinked one refused; the atomic
 * replacement never writes through the name it replaces.  The checks on
 * other users' directories and files run as root only (chown). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dev/safety.h"

static char dir[64], victim[128], path[256], msg[512];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/nvs-safety-out-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	FILE *f = fopen(victim, "w");
	ck_assert_ptr_nonnull(f);
	fputs("precious\n", f);
	fclose(f);
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static const char *in(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void victim_untouched(void)
{
	char buf[64] = "";
	FILE *f = fopen(victim, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "precious\n");
}

static long size_of(const char *p)
{
	struct stat st;
	return stat(p, &st) ? -1 : (long)st.st_size;
}

START_TEST(plain_file_modes)
{
	int fd = safety_open_output(in("out.json"), SAFETY_OUT_TRUNC, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "abcdef", 6), 6);
	close(fd);
	/* append keeps, trunc empties, keep leaves as is, excl refuses */
	fd = safety_open_output(path, SAFETY_OUT_APPEND, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "gh", 2), 2);
	close(fd);
	ck_assert_int_eq(size_of(path), 8);
	fd = safety_open_output(path, SAFETY_OUT_KEEP, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(size_of(path), 8);
	ck_assert_int_eq(safety_open_output(path, SAFETY_OUT_EXCL, msg, sizeof(msg)), -EEXIST);
	fd = safety_open_output(path, SAFETY_OUT_TRUNC, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	ck_assert(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	ck_assert_int_eq(size_of(path), 0);
	FILE *f = safety_fopen_output(path, SAFETY_OUT_TRUNC, msg, sizeof(msg));
	ck_assert_ptr_nonnull(f);
	fputs("x\n", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(size_of(path), 2);
	/* a relative name: the current directory */
	char cwd[4096];
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	ck_assert_int_eq(chdir(dir), 0);
	fd = safety_open_output("rel.csv", SAFETY_OUT_TRUNC, msg, sizeof(msg));
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(size_of(in("rel.csv")), 0);
}
END_TEST

START_TEST(planted_links_refused)
{
	ck_assert_int_eq(symlink(victim, in("link.json")), 0);
	for (int m = SAFETY_OUT_TRUNC; m <= SAFETY_OUT_KEEP; m++) {
		int fd = safety_open_output(path, (enum safety_out_mode)m, msg, sizeof(msg));
		ck_assert_int_lt(fd, 0);
		if (m != SAFETY_OUT_EXCL) {
			ck_assert_int_eq(fd, -EPERM);
			ck_assert(strstr(msg, "symbolic link"));
			ck_assert(strstr(msg, path)); /* the message names the whole path */
		}
	}
	/* a dangling symlink is not followed to create its target either */
	char ghost[160];
	snprintf(ghost, sizeof(ghost), "%s/ghost", dir);
	ck_assert_int_eq(symlink(ghost, in("dangling")), 0);
	ck_assert_int_eq(safety_open_output(path, SAFETY_OUT_TRUNC, msg, sizeof(msg)), -EPERM);
	ck_assert_int_ne(access(ghost, F_OK), 0);
	/* a hard link to someone's file */
	ck_assert_int_eq(link(victim, in("hard.json")), 0);
	ck_assert_int_eq(safety_open_output(path, SAFETY_OUT_TRUNC, msg, sizeof(msg)), -EPERM);
	ck_assert(strstr(msg, "hard links"));
	victim_untouched();
}
END_TEST

START_TEST(special_files_refused)
{
	ck_assert_int_eq(safety_open_output("/dev/null", SAFETY_OUT_TRUNC, msg, sizeof(msg)),
			 -EPERM);
	ck_assert(strstr(msg, "character device"));
	ck_assert_int_eq(mkfifo(in("fifo"), 0600), 0);
	/* refused without opening it (which would block without a reader) */
	ck_assert_int_eq(safety_open_output(path, SAFETY_OUT_TRUNC, msg, sizeof(msg)), -EPERM);
	ck_assert(strstr(msg, "FIFO"));
	ck_assert_int_eq(safety_open_output(dir, SAFETY_OUT_TRUNC, msg, sizeof(msg)), -EISDIR);
	ck_assert_int_lt(safety_open_output(in("sub/"), SAFETY_OUT_TRUNC, msg, sizeof(msg)), 0);
	ck_assert_int_eq(safety_open_output("", SAFETY_OUT_TRUNC, msg, sizeof(msg)), -EINVAL);
	ck_assert_int_eq(safety_open_output(NULL, SAFETY_OUT_TRUNC, NULL, 0), -EINVAL);
	ck_assert_int_eq(
	    safety_open_output(in("nowhere/x.json"), SAFETY_OUT_TRUNC, msg, sizeof(msg)), -ENOENT);
	/* a block device, when the machine has one to look at (not opened) */
	struct stat st;
	if (!stat("/dev/loop0", &st) && S_ISBLK(st.st_mode)) {
		ck_assert_int_eq(
		    safety_open_output("/dev/loop0", SAFETY_OUT_TRUNC, msg, sizeof(msg)), -EPERM);
		ck_assert(strstr(msg, "block device"));
	}
	/* kernel interfaces that look like files, refused before the file is
	 * opened (writing comm would rename this process) */
	ck_assert_int_eq(safety_open_output("/proc/self/comm", SAFETY_OUT_TRUNC, msg, sizeof(msg)),
			 -EPERM);
	ck_assert(strstr(msg, "procfs"));
	if (!stat("/sys/kernel", &st)) {
		ck_assert_int_eq(
		    safety_open_output("/sys/kernel/x.json", SAFETY_OUT_TRUNC, msg, sizeof(msg)),
		    -EPERM);
		ck_assert(strstr(msg, "sysfs"));
	}
	/* a world-writable directory without the sticky bit */
	ck_assert_int_eq(mkdir(in("open"), 0777), 0);
	ck_assert_int_eq(chmod(path, 0777), 0);
	ck_assert_int_eq(safety_open_output(in("open/x.json"), SAFETY_OUT_TRUNC, msg, sizeof(msg)),
			 -EPERM);
	ck_assert(strstr(msg, "writable by everyone"));
	ck_assert_int_eq(chmod(in("open"), 01777), 0);
	int fd = safety_open_output(in("open/x.json"), SAFETY_OUT_TRUNC, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	close(fd);
}
END_TEST

START_TEST(other_users_refused)
{
	if (geteuid() != 0)
		return; /* needs chown */
	ck_assert_int_eq(mkdir(in("theirs"), 0755), 0);
	ck_assert_int_eq(chown(path, 65534, 65534), 0);
	ck_assert_int_eq(
	    safety_open_output(in("theirs/x.json"), SAFETY_OUT_TRUNC, msg, sizeof(msg)), -EPERM);
	ck_assert(strstr(msg, "belongs to uid 65534"));
	ck_assert_int_eq(safety_results_dir(in("theirs"), true, msg, sizeof(msg)), -EPERM);
	ck_assert_ptr_null(safety_fopen_in(path, "state.json", SAFETY_OUT_TRUNC, msg, sizeof(msg)));
	ck_assert_int_eq(errno, EPERM);
	ck_assert_int_eq(safety_replace_in(path, "state.json", "x", 1, msg, sizeof(msg)), -EPERM);
	ck_assert_int_ne(access(in("theirs/state.json"), F_OK), 0);
	/* a file of theirs in a directory of ours */
	FILE *f = fopen(in("their.json"), "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_int_eq(chown(path, 65534, 65534), 0);
	ck_assert_int_eq(safety_open_output(path, SAFETY_OUT_APPEND, msg, sizeof(msg)), -EPERM);
	ck_assert(strstr(msg, "belongs to uid 65534"));
	/* their symlink on the way (dir/evil -> dir/sub, say /tmp/x -> /etc):
	 * not followed, not even to create directories below it */
	char sub[160];
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	ck_assert_int_eq(symlink(sub, in("evil")), 0);
	ck_assert_int_eq(lchown(path, 65534, 65534), 0);
	ck_assert_int_eq(safety_open_output(in("evil/x.json"), SAFETY_OUT_TRUNC, msg, sizeof(msg)),
			 -EPERM);
	ck_assert(strstr(msg, "symbolic link evil belongs to uid 65534"));
	ck_assert_int_eq(safety_results_dir(in("evil/a/b"), true, msg, sizeof(msg)), -EPERM);
	ck_assert_int_ne(access(in("sub/x.json"), F_OK), 0);
	ck_assert_int_ne(access(in("sub/a"), F_OK), 0);
	/* ours (or root's) is followed */
	ck_assert_int_eq(lchown(in("evil"), 0, 0), 0);
	int fd = safety_open_output(in("evil/x.json"), SAFETY_OUT_TRUNC, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(access(in("sub/x.json"), F_OK), 0);
	fd = safety_results_dir(in("evil/a/b"), true, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(access(in("sub/a/b"), F_OK), 0);
}
END_TEST

START_TEST(results_dir)
{
	/* created with its parents, opened again, files inside it */
	int fd = safety_results_dir(in("a/b/c/"), true, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	close(fd);
	fd = safety_results_dir(in("a/b/c"), false, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	int f = safety_openat_output(fd, "samples.csv", SAFETY_OUT_EXCL, msg, sizeof(msg));
	ck_assert_int_ge(f, 0);
	close(f);
	ck_assert_int_eq(safety_openat_output(fd, "samples.csv", SAFETY_OUT_EXCL, msg, sizeof(msg)),
			 -EEXIST);
	ck_assert_int_eq(safety_openat_output(fd, "../escape", SAFETY_OUT_TRUNC, msg, sizeof(msg)),
			 -EINVAL);
	ck_assert_int_eq(safety_openat_output(fd, "", SAFETY_OUT_TRUNC, msg, sizeof(msg)), -EINVAL);
	close(fd);
	ck_assert_int_eq(safety_results_dir(in("missing"), false, msg, sizeof(msg)), -ENOENT);
	/* a symlink to a directory (ours, even) is not followed */
	char target[160];
	snprintf(target, sizeof(target), "%s/a", dir);
	ck_assert_int_eq(symlink(target, in("alias")), 0);
	ck_assert_int_eq(safety_results_dir(path, true, msg, sizeof(msg)), -EPERM);
	ck_assert(strstr(msg, "symbolic link"));
	ck_assert_int_eq(safety_results_dir(victim, false, msg, sizeof(msg)), -ENOTDIR);
	/* a planted symlink inside: never written through */
	ck_assert_int_eq(symlink(victim, in("a/b/c/events.log")), 0);
	ck_assert_ptr_null(
	    safety_fopen_in(in("a/b/c"), "events.log", SAFETY_OUT_TRUNC, msg, sizeof(msg)));
	victim_untouched();
}
END_TEST

START_TEST(atomic_replace)
{
	char data[] = "{\"step\": 1}\n";
	ck_assert_int_eq(safety_replace_in(dir, "state.json", data, strlen(data), msg, sizeof(msg)),
			 0);
	ck_assert_int_eq(size_of(in("state.json")), (long)strlen(data));
	/* the old fixed temporary name, planted: not used, not followed */
	ck_assert_int_eq(symlink(victim, in("state.json.tmp")), 0);
	ck_assert_int_eq(safety_replace_in(dir, "state.json", "{}\n", 3, msg, sizeof(msg)), 0);
	ck_assert_int_eq(size_of(in("state.json")), 3);
	victim_untouched();
	/* the name itself planted as a symlink: refused, link left alone */
	ck_assert_int_eq(symlink(victim, in("meta.json")), 0);
	ck_assert_int_eq(safety_replace_in(dir, "meta.json", "{}\n", 3, msg, sizeof(msg)), -EPERM);
	struct stat st;
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	victim_untouched();
	/* no temporary file is left behind, whatever happened */
	char cmd[200];
	snprintf(cmd, sizeof(cmd), "ls -A '%s' | grep -q '^\\.nvs-'", dir);
	ck_assert_int_ne(system(cmd), 0);
	/* tmp + commit by hand, over an existing regular file */
	int dfd = safety_results_dir(dir, false, msg, sizeof(msg));
	ck_assert_int_ge(dfd, 0);
	char tmp[32];
	int fd = safety_tmp_create(dfd, tmp, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "new\n", 4), 4);
	ck_assert_int_eq(safety_tmp_commit(dfd, fd, tmp, "state.json", msg, sizeof(msg)), 0);
	close(fd);
	ck_assert_int_eq(size_of(in("state.json")), 4);
	/* a directory in the way: refused, the temporary file removed */
	ck_assert_int_eq(mkdir(in("report.html"), 0755), 0);
	fd = safety_tmp_create(dfd, tmp, msg, sizeof(msg));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_lt(safety_tmp_commit(dfd, fd, tmp, "report.html", msg, sizeof(msg)), 0);
	close(fd);
	ck_assert_int_ne(faccessat(dfd, tmp, F_OK, 0), 0);
	close(dfd);
}
END_TEST

/* The command's file set: an output is compared with the command's inputs
 * and targets by identity, whatever its spelling, and a missing one by its
 * directory and name; nothing is created or emptied by the check. */
START_TEST(fileset_identity)
{
	char other[400], link[128], spelled[300], newt[300];
	struct safety_fileset *fs = safety_fileset_new();
	ck_assert_ptr_nonnull(fs);
	snprintf(newt, sizeof(newt), "%s/new.img", dir);
	ck_assert_int_eq(safety_fileset_add(fs, victim, false, "the job file"), 0);
	ck_assert_int_eq(safety_fileset_add(fs, newt, true, "a target"), 0);
	/* the input under its own name, another spelling, a root-owned
	 * symlinked directory: refused, the input untouched */
	ck_assert_int_eq(safety_fileset_check_output(fs, victim, msg, sizeof(msg)), -EPERM);
	ck_assert(strstr(msg, "the job file"));
	snprintf(spelled, sizeof(spelled), "%s/.//victim", dir);
	ck_assert_int_eq(safety_fileset_check_output(fs, spelled, msg, sizeof(msg)), -EPERM);
	snprintf(link, sizeof(link), "%s/dirlink", dir);
	ck_assert_int_eq(symlink(dir, link), 0);
	snprintf(other, sizeof(other), "%s/victim", link);
	ck_assert_int_eq(safety_fileset_check_output(fs, other, msg, sizeof(msg)), -EPERM);
	victim_untouched();
	/* a target that does not exist yet: the same directory and name */
	snprintf(other, sizeof(other), "%s/new.img", link);
	ck_assert_int_eq(safety_fileset_check_output(fs, other, msg, sizeof(msg)), -EPERM);
	ck_assert(strstr(msg, "a target"));
	ck_assert_int_ne(access(newt, F_OK), 0);
	/* an unrelated output passes and is not created; the output rule
	 * still holds (a symlink as last component) */
	ck_assert_int_eq(safety_fileset_check_output(fs, in("r.json"), msg, sizeof(msg)), 0);
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_int_eq(symlink(victim, in("l.json")), 0);
	ck_assert_int_eq(safety_fileset_check_output(fs, path, msg, sizeof(msg)), -EPERM);
	ck_assert_int_eq(safety_fileset_check_output(NULL, in("n.json"), msg, sizeof(msg)), 0);
	ck_assert_int_lt(safety_fileset_check_output(fs, in("nodir/x.json"), msg, sizeof(msg)), 0);
	safety_fileset_free(fs);
	victim_untouched();
}
END_TEST

Suite *safety_out_suite(void)
{
	Suite *s = suite_create("safety_out");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, plain_file_modes);
	tcase_add_test(tc, planted_links_refused);
	tcase_add_test(tc, special_files_refused);
	tcase_add_test(tc, other_users_refused);
	tcase_add_test(tc, results_dir);
	tcase_add_test(tc, atomic_replace);
	tcase_add_test(tc, fileset_identity);
	suite_add_tcase(s, tc);
	return s;
}

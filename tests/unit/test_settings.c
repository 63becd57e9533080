/* test_settings.c - the console's settings.ini: a round trip through the
 * writer and the reader, malformed and hostile files ignored whole, the
 * file written only as a regular file of ours (never through a symlink). */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "config/settings.h"

static char dir[64];

static void mkdir_tmp(void)
{
	snprintf(dir, sizeof(dir), "/tmp/nvs-settings-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void rm_tmp(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void fill(struct settings *s)
{
	settings_init(s);
	snprintf(s->theme, sizeof(s->theme), "mono");
	s->log = 1;
	s->mbps = 0;
	s->steady = 1;
	s->span = 120;
	s->round_s = 30;
	snprintf(s->targets[s->ntargets++], SETTINGS_PATH_MAX, "/dev/loop7");
	snprintf(s->targets[s->ntargets++], SETTINGS_PATH_MAX, "/tmp/a file.img");
	snprintf(s->form[0].key, sizeof(s->form[0].key), "bs");
	snprintf(s->form[0].val, sizeof(s->form[0].val), "4k/50:64k/50");
	snprintf(s->form[1].key, sizeof(s->form[1].key), "iodepth");
	snprintf(s->form[1].val, sizeof(s->form[1].val), "1,4,16");
	s->nform = 2;
}

START_TEST(round_trip)
{
	struct settings s, r;
	char err[256] = "";
	mkdir_tmp();
	fill(&s);
	char sub[128];
	snprintf(sub, sizeof(sub), "%s/cfg/nvscope", dir); /* created on save */
	ck_assert_msg(!settings_save(sub, &s, err, sizeof(err)), "%s", err);
	ck_assert_msg(!settings_load(sub, &r, err, sizeof(err)), "%s", err);
	ck_assert_str_eq(r.theme, "mono");
	ck_assert_int_eq(r.log, 1);
	ck_assert_int_eq(r.mbps, 0);
	ck_assert_int_eq(r.steady, 1);
	ck_assert_double_eq(r.span, 120);
	ck_assert_double_eq(r.round_s, 30);
	ck_assert_uint_eq(r.ntargets, 2);
	ck_assert_str_eq(r.targets[0], "/dev/loop7");
	ck_assert_str_eq(r.targets[1], "/tmp/a file.img");
	ck_assert_uint_eq(r.nform, 2);
	ck_assert_str_eq(r.form[0].val, "4k/50:64k/50");
	ck_assert_str_eq(r.form[1].key, "iodepth");
	/* nothing remembered: all unset */
	settings_init(&s);
	ck_assert(!settings_save(sub, &s, err, sizeof(err)));
	ck_assert(!settings_load(sub, &r, err, sizeof(err)));
	ck_assert_int_eq(r.log, -1);
	ck_assert(r.span < 0);
	ck_assert_uint_eq(r.ntargets, 0);
	/* a missing file is -ENOENT, not an error to show */
	snprintf(sub, sizeof(sub), "%s/none", dir);
	ck_assert_int_eq(settings_load(sub, &r, err, sizeof(err)), -ENOENT);
	rm_tmp();
}
END_TEST

/* Values the reader would not give back as written are not written. */
START_TEST(unwritable_values_dropped)
{
	struct settings s, r;
	char buf[4096], err[256];
	fill(&s);
	snprintf(s.targets[0], SETTINGS_PATH_MAX, "/tmp/x;y");	    /* inih comment */
	snprintf(s.targets[1], SETTINGS_PATH_MAX, "relative/path"); /* not absolute */
	snprintf(s.theme, sizeof(s.theme), "../../etc/x");
	snprintf(s.form[0].val, sizeof(s.form[0].val), "a\nforce_destroy = 1");
	int n = settings_format(&s, buf, sizeof(buf));
	ck_assert_int_gt(n, 0);
	ck_assert_ptr_null(strstr(buf, "force"));
	ck_assert_msg(!settings_parse(buf, (size_t)n, &r, err, sizeof(err)), "%s", err);
	ck_assert_uint_eq(r.ntargets, 0);
	ck_assert_str_eq(r.theme, "");
	ck_assert_uint_eq(r.nform, 1);
	ck_assert_int_eq(settings_format(&s, buf, 10), -ENOSPC);
}
END_TEST

START_TEST(malformed_ignored)
{
	static const char *const bad[] = {
	    "[view]\nlog = 2\n",
	    "[view]\nspan = nan\n",
	    "[view]\nspan = inf\n",
	    "[view]\nspan = 1e400\n",
	    "[view]\nspan = -5\n",
	    "[view]\nspan = 12abc\n",
	    "[view]\nround = 0\n",
	    "[view]\nyes_destroy_data = nvme0\n", /* no such key, ever */
	    "[view]\nforce_destroy = 1\n",
	    "[danger]\nx = 1\n",
	    "log = 1\n", /* no section */
	    "[targets]\ntarget = dev/sda\n",
	    "[targets]\nfile = /dev/sda\n",
	    "[form]\nBS = 4k\n",
	    "[form]\nbs = 4k\nbs = 8k\n",
	    "[view]\ntheme = ../x\n",
	    "[view\n",
	    "just text\n",
	    "[view]\nlog = 1\x01\n",
	};
	struct settings s;
	char err[256];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		int rc = settings_parse(bad[i], strlen(bad[i]), &s, err, sizeof(err));
		ck_assert_msg(rc == -EINVAL, "accepted: %s", bad[i]);
		ck_assert_msg(err[0], "no message for: %s", bad[i]);
		ck_assert_int_eq(s.log, -1); /* nothing half-taken */
		ck_assert_uint_eq(s.ntargets, 0);
	}
	/* a NUL byte, an overlong line, too many targets */
	static const char nul[] = "[view]\nlog = 1\0\nmbps = 1\n";
	ck_assert_int_eq(settings_parse(nul, sizeof(nul) - 1, &s, err, sizeof(err)), -EINVAL);
	char *big = malloc(5000);
	memset(big, 'a', 4999);
	memcpy(big, "[targets]\ntarget = /", 20);
	big[4999] = '\0';
	ck_assert_int_eq(settings_parse(big, strlen(big), &s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "too long"));
	size_t n = (size_t)sprintf(big, "[targets]\n");
	for (int i = 0; i < 17; i++)
		n += (size_t)sprintf(big + n, "target = /dev/loop%d\n", i);
	ck_assert_int_eq(settings_parse(big, n, &s, err, sizeof(err)), -EINVAL);
	free(big);
	/* comments and blank lines are fine */
	static const char ok[] = "# c\n\n[view]\n; c\nlog = 0\n";
	ck_assert(!settings_parse(ok, sizeof(ok) - 1, &s, err, sizeof(err)));
	ck_assert_int_eq(s.log, 0);
}
END_TEST

START_TEST(hostile_files)
{
	struct settings s;
	char err[256], path[128], target[128];
	mkdir_tmp();
	snprintf(path, sizeof(path), "%s/settings.ini", dir);
	snprintf(target, sizeof(target), "%s/elsewhere", dir);
	/* a symlink: neither read nor written through */
	FILE *f = fopen(target, "w");
	fputs("[view]\nlog = 1\n", f);
	fclose(f);
	ck_assert(!symlink(target, path));
	ck_assert_int_eq(settings_load(dir, &s, err, sizeof(err)), -EPERM);
	ck_assert_int_eq(s.log, -1);
	fill(&s);
	ck_assert_int_ne(settings_save(dir, &s, err, sizeof(err)), 0);
	struct stat st;
	ck_assert(!lstat(path, &st) && S_ISLNK(st.st_mode)); /* left alone */
	f = fopen(target, "r");
	char line[64] = "";
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	fclose(f);
	ck_assert_str_eq(line, "[view]\n"); /* not written through */
	unlink(path);
	/* a FIFO: ignored, never blocks */
	ck_assert(!mkfifo(path, 0644));
	ck_assert_int_eq(settings_load(dir, &s, err, sizeof(err)), -EPERM);
	ck_assert_int_ne(settings_save(dir, &s, err, sizeof(err)), 0);
	unlink(path);
	/* a directory in its place */
	ck_assert(!mkdir(path, 0755));
	ck_assert_int_ne(settings_load(dir, &s, err, sizeof(err)), 0);
	ck_assert_int_ne(settings_save(dir, &s, err, sizeof(err)), 0);
	rmdir(path);
	/* too large */
	f = fopen(path, "w");
	for (int i = 0; i < 10000; i++)
		fputs("# padding\n", f);
	fclose(f);
	ck_assert_int_eq(settings_load(dir, &s, err, sizeof(err)), -EFBIG);
	unlink(path);
	/* a world-writable settings directory: not written into */
	ck_assert(!chmod(dir, 0777));
	fill(&s);
	ck_assert_int_ne(settings_save(dir, &s, err, sizeof(err)), 0);
	ck_assert(access(path, F_OK) != 0);
	ck_assert(!chmod(dir, 0700));
	rm_tmp();
}
END_TEST

START_TEST(dir_from_environment)
{
	char buf[64];
	char *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");
	char *sx = x ? strdup(x) : NULL, *sh = h ? strdup(h) : NULL;
	setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
	ck_assert(!settings_dir(buf, sizeof(buf)));
	ck_assert_str_eq(buf, "/x/cfg/nvscope");
	setenv("XDG_CONFIG_HOME", "relative", 1); /* not absolute: ignored */
	setenv("HOME", "/home/u", 1);
	ck_assert(!settings_dir(buf, sizeof(buf)));
	ck_assert_str_eq(buf, "/home/u/.config/nvscope");
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("HOME");
	ck_assert_int_eq(settings_dir(buf, sizeof(buf)), -ENOENT);
	setenv("HOME", "/a-very-long-home-directory-name-that-does-not-fit-in-64-bytes", 1);
	ck_assert_int_eq(settings_dir(buf, sizeof(buf)), -ENAMETOOLONG);
	if (sx)
		setenv("XDG_CONFIG_HOME", sx, 1);
	if (sh)
		setenv("HOME", sh, 1);
	free(sx);
	free(sh);
}
END_TEST

Suite *settings_suite(void)
{
	Suite *s = suite_create("settings");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, unwritable_values_dropped);
	tcase_add_test(tc, malformed_ignored);
	tcase_add_test(tc, hostile_files);
	tcase_add_test(tc, dir_from_environment);
	suite_add_tcase(s, tc);
	return s;
}

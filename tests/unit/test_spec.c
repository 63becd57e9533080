/* test_spec.c - option parsing (opt_set, cli), presets and job files,
 * including malformed input with file:line errors. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/cli.h"
#include "config/preset.h"
#include "io/opt/opt.h"
#include "io/opt/spec.h"

START_TEST(test_sizes_and_times)
{
	uint64_t v;
	ck_assert_int_eq(spec_parse_size("4k", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(spec_parse_size("1MB", &v), 0);
	ck_assert_uint_eq(v, 1 << 20);
	ck_assert_int_eq(spec_parse_size("1MiB", &v), 0); /* fio's kb_base=1024 */
	ck_assert_uint_eq(v, 1000000);
	ck_assert_int_eq(spec_parse_size("2g", &v), 0);
	ck_assert_uint_eq(v, 2ULL << 30);
	ck_assert_int_eq(spec_parse_size("512", &v), 0);
	ck_assert_uint_eq(v, 512);
	ck_assert_int_eq(spec_parse_size("4x", &v), -EINVAL);
	ck_assert_int_eq(spec_parse_size("-4k", &v), -EINVAL);
	ck_assert_int_eq(spec_parse_size("", &v), -EINVAL);
	ck_assert_int_eq(spec_parse_time("30", &v), 0);
	ck_assert_uint_eq(v, 30000000000ULL);
	ck_assert_int_eq(spec_parse_time("500ms", &v), 0);
	ck_assert_uint_eq(v, 500000000ULL);
	ck_assert_int_eq(spec_parse_time("2m", &v), 0);
	ck_assert_uint_eq(v, 120000000000ULL);
	ck_assert_int_eq(spec_parse_time("1h", &v), 0);
	ck_assert_int_eq(spec_parse_time("soon", &v), -EINVAL);
}
END_TEST

START_TEST(test_spec_set)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", "randwrite", err, sizeof(err)), 0);
	ck_assert_int_eq(s.rw, RW_RANDWRITE);
	ck_assert_int_eq(opt_set(&s, "iodepth", "1,2,4,256", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.niodepth, 4);
	ck_assert_uint_eq(s.iodepth[3], 256);
	ck_assert_int_eq(opt_set(&s, "bssplit",
				  "512/22:1k/15:2k/8:4k/23:8k/15:16k/2:32k/6:64k/7:128k/1:512k/1",
				  err, sizeof(err)),
			 0);
	ck_assert_uint_eq(s.nbs, 10);
	ck_assert_int_eq(opt_set(&s, "bssplit", "4k/50:8k", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.bs[1].weight, 50);
	ck_assert_int_eq(opt_set(&s, "bssplit", "4k/50:8k/60", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "100"));
	ck_assert_int_eq(opt_set(&s, "size", "75%", err, sizeof(err)), 0);
	ck_assert_double_eq(s.size_pct, 75);
	ck_assert_int_eq(opt_set(&s, "rwmixwrite", "30", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.rwmixread, 70);
	ck_assert_int_eq(opt_set(&s, "time-based", NULL, err, sizeof(err)), 0);
	ck_assert(s.time_based);
	ck_assert_int_eq(opt_set(&s, "rw", "sideways", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "sideways"));
	ck_assert_int_eq(opt_set(&s, "bogus", "1", err, sizeof(err)), -ENOENT);
	ck_assert_int_eq(opt_set(&s, "iodepth", "0", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "interval", "10ms", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "stripe", "3k", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "direct", "maybe", err, sizeof(err)), -EINVAL);
	/* tests/fuzz/plan: a bad buffered= read an uninitialised bool into direct */
	for (int d = 0; d < 2; d++) {
		s.direct = d;
		ck_assert_int_eq(opt_set(&s, "buffered", "60s", err, sizeof(err)), -EINVAL);
		ck_assert_int_eq(s.direct, d);
	}
	/* tests/fuzz/spec: the same for the buffer flags (left unset: -1) */
	ck_assert_int_eq(opt_set(&s, "zero_buffers", "]", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(s.zero_buffers, -1);
	ck_assert_int_eq(opt_set(&s, "refill_buffers", "2", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(s.refill_buffers, -1);
}
END_TEST

START_TEST(test_validate)
{
	struct spec s;
	char err[256];

	spec_init(&s);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL); /* no target */
	ck_assert_int_eq(opt_set(&s, "target", "/tmp/a,/tmp/b", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.ntargets, 2);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "stripe", "4k", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bs", "8k", err, sizeof(err)), 0);
	/* an I/O over a chunk's end is split: 8k from a 512-byte boundary
	 * touches at most 3 chunks of 4k; 512k on a 4k stripe up to 129 */
	ck_assert_uint_eq(spec_stripe_parts(&s), 3);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bs", "512k", err, sizeof(err)), 0);
	ck_assert_uint_eq(spec_stripe_parts(&s), 129);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "more than 64 parts"));
	ck_assert_int_eq(opt_set(&s, "stripe", "128k", err, sizeof(err)), 0);
	ck_assert_uint_eq(spec_stripe_parts(&s), 5);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bs", "1000", err, sizeof(err)), 0);
	s.stripe = 0;
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
}
END_TEST

static char *write_tmp(const char *text)
{
	static char path[64];
	snprintf(path, sizeof(path), "/tmp/nvscope-unit-XXXXXX.ini");
	int fd = mkstemps(path, 4);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

START_TEST(test_jobfile)
{
	struct spec base, *jobs = NULL;
	unsigned n = 0;
	char err[512];
	char *path = write_tmp("; a fio job file\n[global]\ndescription=two jobs\nbs=8k\n"
			       "time_based\nruntime=5\n\n[reader]\nrw=randread\niodepth=32\n\n"
			       "[writer]\nrw=write\nbs=128k\n");

	spec_init(&base);
	ck_assert_int_eq(preset_load(path, &base, &jobs, &n, err, sizeof(err)), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(jobs[0].name, "reader");
	ck_assert_uint_eq(jobs[0].bs[0].bs, 8192);
	ck_assert_uint_eq(jobs[0].iodepth[0], 32);
	ck_assert(jobs[0].time_based);
	ck_assert_int_eq(jobs[1].rw, RW_WRITE);
	ck_assert_uint_eq(jobs[1].bs[0].bs, 131072);
	ck_assert_uint_eq(jobs[1].iodepth[0], 1);
	free(jobs);
	unlink(path);
}
END_TEST

START_TEST(test_jobfile_errors_name_line)
{
	struct spec base, *jobs = NULL;
	unsigned n = 0;
	char err[512], want[128];
	char *path = write_tmp("[global]\nbs=4k\n\n[j]\nrw=randread\nbz=4k\n");

	spec_init(&base);
	ck_assert_int_eq(preset_load(path, &base, &jobs, &n, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:6:", path);
	ck_assert_msg(strstr(err, want), "error '%s' lacks '%s'", err, want);
	ck_assert_ptr_nonnull(strstr(err, "bz"));
	unlink(path);

	path = write_tmp("[global]\nbs=4k\niodepth=lots\n");
	ck_assert_int_eq(preset_load(path, &base, &jobs, &n, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:3:", path);
	ck_assert_msg(strstr(err, want), "error '%s' lacks '%s'", err, want);
	unlink(path);

	path = write_tmp("[global\nbs=4k\n");
	ck_assert_int_eq(preset_load(path, &base, &jobs, &n, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:1:", path);
	ck_assert_msg(strstr(err, want), "error '%s' lacks '%s'", err, want);
	unlink(path);
	ck_assert_int_eq(preset_load("/nonexistent/x.ini", &base, &jobs, &n, err, sizeof(err)),
			 -ENOENT);
}
END_TEST

START_TEST(test_cli)
{
	char *argv[] = {"run", "--target",     "/tmp/x",      "--rw=randwrite",	      "--bs",
			"16k", "--time_based", "--runtime=3", "--output-format=json", NULL};
	int argc = 9, i = 1, taken = 0;
	struct cli c;
	char err[256];
	struct spec *jobs;
	unsigned n;

	memset(&c, 0, sizeof(c));
	while (i < argc) {
		int rc = cli_take(&c, argc, argv, &i, err, sizeof(err));
		ck_assert_int_ge(rc, 0);
		if (!rc) {
			ck_assert_str_eq(argv[i], "--output-format=json");
			i++;
		} else {
			taken++;
		}
	}
	ck_assert_int_eq(taken, 5);
	ck_assert_int_eq(cli_jobs(&c, &jobs, &n, err, sizeof(err)), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(jobs[0].targets[0], "/tmp/x");
	ck_assert_uint_eq(jobs[0].bs[0].bs, 16384);
	ck_assert(jobs[0].time_based);
	free(jobs);

	char *bad[] = {"run", "--bs=huge", NULL};
	i = 1;
	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(cli_take(&c, 2, bad, &i, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "huge"));
	char *missing[] = {"run", "--bs", NULL};
	i = 1;
	ck_assert_int_eq(cli_take(&c, 2, missing, &i, err, sizeof(err)), -EINVAL);
	memset(&c, 0, sizeof(c));
	c.preset = "no-such-preset";
	ck_assert_int_eq(cli_jobs(&c, &jobs, &n, err, sizeof(err)), -ENOENT);
}
END_TEST

Suite *spec_suite(void)
{
	Suite *s = suite_create("spec");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_sizes_and_times);
	tcase_add_test(tc, test_spec_set);
	tcase_add_test(tc, test_validate);
	tcase_add_test(tc, test_jobfile);
	tcase_add_test(tc, test_jobfile_errors_name_line);
	tcase_add_test(tc, test_cli);
	suite_add_tcase(s, tc);
	return s;
}

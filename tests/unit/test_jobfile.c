/* test_jobfile.c - fio job files read as fio reads them (jobfile.c) and
 * what they mean (preset.c): one test per rule.  Fixtures: tests/jobfiles/
 * (the runner's working directory is the repository). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/cli.h"
#include "config/preset.h"

static char tmp_path[64];

/* Writes @n bytes (may hold NULs) to a fresh temporary .fio file. */
static const char *write_n(const char *text, size_t n)
{
	snprintf(tmp_path, sizeof(tmp_path), "/tmp/nvscope-jobfile-XXXXXX.fio");
	int fd = mkstemps(tmp_path, 4);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, n), (ssize_t)n);
	close(fd);
	return tmp_path;
}

static const char *write_tmp(const char *text)
{
	return write_n(text, strlen(text));
}

struct loaded {
	int rc;
	struct spec *jobs;
	unsigned n;
	char err[1024];
};

static struct loaded load_as(const char *path, bool fio)
{
	struct loaded l = {0};
	struct spec base;

	spec_init(&base);
	l.rc =
	    (fio ? preset_load_fio : preset_load)(path, &base, &l.jobs, &l.n, l.err, sizeof(l.err));
	return l;
}

static struct loaded load_text(const char *text, bool fio)
{
	const char *p = write_tmp(text);
	struct loaded l = load_as(p, fio);
	unlink(p);
	return l;
}

/* The load failed with "FILE:LINE: " + @what in the message. */
static void assert_error_at(const struct loaded *l, unsigned line, const char *what)
{
	char want[128];

	ck_assert_int_eq(l->rc, -EINVAL);
	snprintf(want, sizeof(want), "%s:%u: ", tmp_path, line);
	ck_assert_msg(!strncmp(l->err, want, strlen(want)), "error '%s' does not start with '%s'",
		      l->err, want);
	ck_assert_msg(strstr(l->err, what), "error '%s' lacks '%s'", l->err, what);
}

/* Issue 8.7: a 1021+ character line without '=' overflowed a 1024-byte
 * stack buffer; long lines are read whole (no limit that truncates). */
START_TEST(test_long_lines)
{
	size_t n = 5000;
	char *text = malloc(n + 4096);
	ck_assert_ptr_nonnull(text);
	strcpy(text, "[j]\n; ");
	memset(text + 6, 'x', n);
	strcpy(text + 6 + n, "\nrw=write\ndescription=");
	size_t len = strlen(text);
	memset(text + len, 'd', 3000);
	strcpy(text + len + 3000, "\n");
	struct loaded l = load_text(text, true);
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.jobs[0].rw, RW_WRITE);
	free(l.jobs);

	/* the overflowing case: a long bare word is an unknown option, at its line */
	memset(text, 'a', 1500);
	text[1500] = '\0';
	char *t2 = malloc(1600);
	ck_assert_ptr_nonnull(t2);
	snprintf(t2, 1600, "[j]\n%s\n", text);
	l = load_text(t2, true);
	assert_error_at(&l, 2, "unknown option");
	free(t2);
	free(text);

	l = load_as("tests/jobfiles/long-bssplit.fio", true);
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_uint_eq(l.jobs[0].nbs, 16);
	ck_assert_uint_eq(l.jobs[0].bs[15].bs, 4u << 20);
	free(l.jobs);
}
END_TEST

/* Issue 8.8: a NUL byte swallowed the next line; NUL, invalid UTF-8 and
 * control characters are errors naming the line. */
START_TEST(test_nul_and_utf8)
{
	static const char nul[] = "[global]\nrw=randwrite\n[j]\nbs=4k\0junk\nrw=randread\n";
	const char *p = write_n(nul, sizeof(nul) - 1);
	struct loaded l = load_as(p, true);
	unlink(p);
	assert_error_at(&l, 4, "NUL");
	struct spec base, *jobs = NULL; /* the in-memory entry (fuzzing) reads the same */
	unsigned n = 0;
	char err[256];
	spec_init(&base);
	ck_assert_int_eq(preset_load_mem("mem.fio", nul, sizeof(nul) - 1, true, &base, &jobs, &n,
					 err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(!strncmp(err, "mem.fio:4: NUL", 14), "%s", err);
	ck_assert_int_eq(
	    preset_load_mem("mem.fio", nul, 23, true, &base, &jobs, &n, err, sizeof(err)),
	    -EINVAL); /* [global] only: fio runs nothing */
	ck_assert_int_eq(
	    preset_load_mem("mem.fio", nul, 26, true, &base, &jobs, &n, err, sizeof(err)), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(jobs[0].rw, RW_RANDWRITE);
	free(jobs);
	static const char inc[] = "[j]\ninclude /etc/passwd\n";
	ck_assert_int_eq(preset_load_mem("mem.fio", inc, sizeof(inc) - 1, true, &base, &jobs, &n,
					 err, sizeof(err)),
			 -EINVAL);
	ck_assert_msg(strstr(err, "mem.fio:2: include"), "%s", err);

	l = load_text("[j]\nrw=read\ndescription=caf\xc3\xa9\n", true); /* valid UTF-8 */
	ck_assert_msg(l.rc == 0, "%s", l.err);
	free(l.jobs);
	l = load_text("[j]\nrw=read\ndescription=caf\xe9\n", true);
	assert_error_at(&l, 3, "UTF-8");
	l = load_text("[j]\nrw=read\ndescription=\xed\xa0\x80\n", true); /* a surrogate */
	assert_error_at(&l, 3, "UTF-8");
	l = load_text("[j]\n\x1b[31mrw=read\n", true);
	assert_error_at(&l, 2, "control");
	l = load_text("\xef\xbb\xbf[j]\nrw=write\n", true);
	assert_error_at(&l, 1, "byte-order mark");
	l = load_as("/", true); /* a directory */
	ck_assert_int_eq(l.rc, -EISDIR);
	l = load_text("[j]\r\nrw=write\r\n", true); /* CRLF line ends are fine */
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_int_eq(l.jobs[0].rw, RW_WRITE);
	free(l.jobs);
}
END_TEST

/* fio: every section header is a job, empty and repeated ones too. */
START_TEST(test_sections_are_jobs)
{
	struct loaded l = load_text("[t0]\n[t1]\n[t2]\n", true);
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_uint_eq(l.n, 3);
	ck_assert_str_eq(l.jobs[2].name, "t2");
	free(l.jobs);

	l = load_text("[a]\nbs=8k\n[a]\nrw=write\n", true);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_uint_eq(l.jobs[0].bs[0].bs, 8192);
	ck_assert_int_eq(l.jobs[0].rw, RW_READ);
	ck_assert_uint_eq(l.jobs[1].bs[0].bs, 4096); /* not merged */
	ck_assert_int_eq(l.jobs[1].rw, RW_WRITE);
	free(l.jobs);

	/* [global] after a job changes only the jobs after it; global* is global */
	l = load_text("[a]\n[globalx]\nbs=16k\n[b]\n", true);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_uint_eq(l.jobs[0].bs[0].bs, 4096);
	ck_assert_uint_eq(l.jobs[1].bs[0].bs, 16384);
	free(l.jobs);
}
END_TEST

/* fio reads an indented line as an option (inih: a continuation). */
START_TEST(test_indented_options)
{
	struct loaded l = load_text("[j]\nrw=write\n  bs=8k\n\tiodepth=4\n", false);
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_int_eq(l.jobs[0].rw, RW_WRITE);
	ck_assert_uint_eq(l.jobs[0].bs[0].bs, 8192);
	ck_assert_uint_eq(l.jobs[0].iodepth[0], 4);
	free(l.jobs);
}
END_TEST

/* fio cuts every line at its first ';' then its first '#'. */
START_TEST(test_inline_comments)
{
	struct loaded l = load_text("[j]\ncontinue_on_error=none # x\nbs=8k ; eight\n"
				    "rw=write#c\n  # comment\n; comment\n",
				    true);
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert(!l.jobs[0].continue_on_error);
	ck_assert_uint_eq(l.jobs[0].bs[0].bs, 8192);
	ck_assert_int_eq(l.jobs[0].rw, RW_WRITE);
	free(l.jobs);

	l = load_text("[j] ; the job\nrw = write\n", true); /* blanks around '=' too */
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_str_eq(l.jobs[0].name, "j");
	ck_assert_int_eq(l.jobs[0].rw, RW_WRITE);
	free(l.jobs);
}
END_TEST

/* A job's filename= replaces [global]'s (fio: a string option). */
START_TEST(test_filename_replaces)
{
	struct loaded l = load_as("tests/jobfiles/fio-syntax.fio", true);
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_uint_eq(l.n, 4);
	ck_assert_str_eq(l.jobs[0].name, "t0");
	ck_assert_uint_eq(l.jobs[0].ntargets, 1);
	ck_assert_str_eq(l.jobs[0].targets[0], "/tmp/nvscope-global-target");
	ck_assert_int_eq(l.jobs[0].rw, RW_RANDWRITE);
	ck_assert_uint_eq(l.jobs[0].bs[0].bs, 8192);
	ck_assert(l.jobs[0].time_based);
	ck_assert_uint_eq(l.jobs[2].iodepth[0], 1); /* psync: QD1 whatever iodepth says */
	ck_assert_uint_eq(l.jobs[3].ntargets, 1);
	ck_assert_str_eq(l.jobs[3].targets[0], "/tmp/nvscope-own-target");
	ck_assert(!l.jobs[3].continue_on_error);
	free(l.jobs);
}
END_TEST

/* `include FILE` (beside the including file), ${ENV}, $keywords. */
START_TEST(test_include_and_vars)
{
	struct loaded l = load_as("tests/jobfiles/include-main.fio", true);
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_uint_eq(l.jobs[0].bs[0].bs, 16384);
	ck_assert_uint_eq(l.jobs[0].rwmixread, 70);
	ck_assert_int_eq(l.jobs[0].rw, RW_RANDWRITE);
	free(l.jobs);

	l = load_text("[j]\ninclude /nonexistent/part.fio\n", true);
	assert_error_at(&l, 2, "include");
	const char *part = write_tmp("bs=4k\n[sneaky]\n");
	char inc[128], text[256];
	snprintf(inc, sizeof(inc), "%s", part);
	snprintf(text, sizeof(text), "[j]\ninclude %s\n", inc);
	l = load_text(text, true);
	ck_assert_int_eq(l.rc, -EINVAL);
	ck_assert_msg(strstr(l.err, ":2: ") && strstr(l.err, "section"), "%s", l.err);
	unlink(inc);

	setenv("NVS_TEST_BS", "32k", 1);
	unsetenv("NVS_TEST_UNSET");
	l = load_text("[j]\nbs=${NVS_TEST_BS}\niodepth=$pagesize\n", true);
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_uint_eq(l.jobs[0].bs[0].bs, 32768);
	ck_assert_uint_eq(l.jobs[0].iodepth[0], 1); /* psync */
	free(l.jobs);
	l = load_text("[j]\nioengine=libaio\ndirect=1\niodepth=$pagesize\n", true);
	ck_assert_uint_eq(l.jobs[0].iodepth[0], (unsigned)sysconf(_SC_PAGESIZE));
	free(l.jobs);
	l = load_text("[j]\nbs=${NVS_TEST_UNSET}\n", true);
	assert_error_at(&l, 2, "bs");
	l = load_text("[j]\nnumjobs=$ncpus*2\n", true);
	assert_error_at(&l, 2, "arithmetic");
}
END_TEST

/* The first error stops the load and names its own option and line. */
START_TEST(test_first_error_stops)
{
	struct loaded l = load_text("[global]\nbs=4k\n[j]\nrw=randread\nbz=1\nqq=2\n", true);
	assert_error_at(&l, 5, "bz");
	ck_assert_msg(!strstr(l.err, "qq"), "%s", l.err);
	l = load_text("[j]\niodepth=lots\nbz=1\n", true);
	assert_error_at(&l, 2, "iodepth");
	l = load_text("bs=4k\n[j]\n", true);
	assert_error_at(&l, 1, "outside");
	l = load_text("[global\nbs=4k\n", true);
	assert_error_at(&l, 1, "section header");
	l = load_text("[]\n", true);
	assert_error_at(&l, 1, "empty section");
	l = load_text("[j]\n=4k\n", true);
	assert_error_at(&l, 2, "no option name");
}
END_TEST

/* fio's defaults for job files; nvscope's for presets; ioengine mapping. */
/* How a job's engine ran (config/preset.h), for the assertions below. */
static char note_[PRESET_NOTE_LEN];
#define NOTE(s) preset_engine_note((s), note_, sizeof(note_))

START_TEST(test_fio_defaults_and_engines)
{
	struct loaded l = load_text("[j]\niodepth=8\n", true);
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert(!l.jobs[0].direct);
	ck_assert_int_eq(l.jobs[0].rw, RW_READ);
	ck_assert_uint_eq(l.jobs[0].iodepth[0], 1);
	ck_assert_ptr_nonnull(strstr(NOTE(&l.jobs[0]), "psync (fio's default)"));
	free(l.jobs);

	l = load_text("[j]\niodepth=8\n", false); /* a preset: nvscope's defaults */
	ck_assert(l.jobs[0].direct);
	ck_assert_int_eq(l.jobs[0].rw, RW_RANDREAD);
	ck_assert_uint_eq(l.jobs[0].iodepth[0], 8);
	ck_assert_str_eq(NOTE(&l.jobs[0]), "");
	free(l.jobs);

	/* Linux runs these one I/O at a time: posixaio, buffered libaio */
	l = load_text("[a]\nioengine=libaio\niodepth=8\n[b]\nioengine=posixaio\niodepth=8\n"
		      "direct=1\n",
		      true);
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_uint_eq(l.jobs[0].iodepth[0], 1);
	ck_assert_ptr_nonnull(strstr(NOTE(&l.jobs[0]), "libaio without direct=1"));
	/* and why fio's iodepth_level shows the file's 8 there */
	ck_assert_ptr_nonnull(
	    strstr(NOTE(&l.jobs[0]), "fio's iodepth_level counts up to iodepth=8 there"));
	ck_assert_uint_eq(l.jobs[1].iodepth[0], 1);
	ck_assert_ptr_nonnull(strstr(NOTE(&l.jobs[1]), "glibc's POSIX AIO"));
	ck_assert_ptr_null(strstr(NOTE(&l.jobs[1]), "iodepth_level"));
	free(l.jobs);

	l = load_text("[global]\nioengine=libaio\ndirect=1\n[a]\niodepth=8\n[b]\nioengine=pvsync2\n"
		      "iodepth=8\n[c]\nioengine=io_uring\niodepth=16\n",
		      true);
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_uint_eq(l.jobs[0].iodepth[0], 8);
	ck_assert_int_eq(l.jobs[0].ioengine, ENGINE_IO_URING);
	ck_assert_ptr_nonnull(strstr(NOTE(&l.jobs[0]), "libaio runs as io_uring at iodepth 8"));
	ck_assert_uint_eq(l.jobs[1].iodepth[0], 1);
	ck_assert_ptr_nonnull(strstr(NOTE(&l.jobs[1]), "pvsync2"));
	ck_assert_uint_eq(l.jobs[2].iodepth[0], 16);
	ck_assert_str_eq(NOTE(&l.jobs[2]), "");
	free(l.jobs);

	l = load_text("[global]\nbs=4k\n[j]\nioengine=rdma\n", true);
	assert_error_at(&l, 4, "ioengine=rdma: network");
	l = load_text("[j]\nioengine=null\n", false);
	assert_error_at(&l, 2, "ioengine=null:");
	l = load_text("[j]\nioengine=frobio\n", true);
	assert_error_at(&l, 2, "ioengine=frobio: unknown engine");

	l = load_text("[global]\nbs=4k\n", true); /* fio runs nothing */
	ck_assert_int_eq(l.rc, -EINVAL);
	ck_assert_ptr_nonnull(strstr(l.err, "no job section"));
	l = load_text("[global]\nbs=8k\n", false); /* a preset: one job */
	ck_assert_uint_eq(l.n, 1);
	ck_assert_uint_eq(l.jobs[0].bs[0].bs, 8192);
	free(l.jobs);
}
END_TEST

/* fio's grouping (init.c add_job): stonewall/wait_for_previous start the
 * next run group and a reporting group, new_group only a reporting group. */
START_TEST(test_grouping)
{
	struct loaded l = load_as("tests/jobfiles/groups.fio", true);
	static const unsigned run[] = {0, 0, 1, 1, 2}, rep[] = {0, 0, 1, 2, 3};

	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_uint_eq(l.n, 5);
	for (unsigned j = 0; j < 5; j++) {
		ck_assert_uint_eq(l.jobs[j].run_group, run[j]);
		ck_assert_uint_eq(l.jobs[j].report_group, rep[j]);
		ck_assert(!l.jobs[j].group_reporting);
	}
	free(l.jobs);
	/* in [global]: every job is a stonewall (the first starts nothing new) */
	l = load_text("[global]\nstonewall\ngroup_reporting=1\n[a]\n[b]\n[c]\nstonewall=0\n", true);
	ck_assert_msg(l.rc == 0, "%s", l.err);
	ck_assert_uint_eq(l.jobs[0].run_group, 0);
	ck_assert_uint_eq(l.jobs[1].run_group, 1);
	ck_assert_uint_eq(l.jobs[2].run_group, 1);
	ck_assert(l.jobs[2].group_reporting);
	free(l.jobs);
	l = load_text("[a]\nstonewall=maybe\n", true);
	assert_error_at(&l, 2, "stonewall");
}
END_TEST

/* The console's preset list reads description= as the loader does. */
START_TEST(test_preset_description)
{
	char dir[] = "/tmp/nvscope-presets-XXXXXX", path[128], text[512];
	struct preset_info *list = NULL;
	size_t n = 0;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.ini", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("; x\n[global]\n  description = short one ; a comment\n[a]\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/b.ini", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	memset(text, 'd', 300);
	text[300] = '\0';
	fprintf(f, "[global]\ndescription=%s\n[b]\n", text);
	fclose(f);
	setenv("NVSCOPE_PRESETS", dir, 1);
	ck_assert_int_eq(preset_list(&list, &n), 0);
	unsetenv("NVSCOPE_PRESETS");
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(list[0].description, "short one");
	ck_assert_uint_eq(strlen(list[1].description), sizeof(list[1].description) - 1);
	ck_assert_str_eq(list[1].description + strlen(list[1].description) - 3, "...");
	free(list);
	unlink(path);
	snprintf(path, sizeof(path), "%s/a.ini", dir);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* Command line: a flag never takes the next argument as its value. */
START_TEST(test_cli_bare_flags)
{
	char *argv[] = {"run",
			"--refill_buffers",
			"--stonewall",
			"--time_based",
			"--group_reporting",
			"--runtime=3",
			"--bs",
			"16k",
			"--target",
			"/tmp/x",
			NULL};
	int argc = 10, i = 1, taken = 0;
	struct cli c;
	char err[256];
	struct spec *jobs;
	unsigned n;

	memset(&c, 0, sizeof(c));
	while (i < argc) {
		int rc = cli_take(&c, argc, argv, &i, err, sizeof(err));
		ck_assert_msg(rc == 1, "argv[%d] '%s': rc %d %s", i, argv[i], rc, err);
		taken++;
	}
	ck_assert_int_eq(taken, 7);
	ck_assert_int_eq(cli_jobs(&c, &jobs, &n, err, sizeof(err)), 0);
	ck_assert(jobs[0].time_based);
	ck_assert_uint_eq(jobs[0].bs[0].bs, 16384);
	free(jobs);

	/* --job FILE gets fio's defaults, --preset FILE nvscope's */
	memset(&c, 0, sizeof(c));
	c.job = "tests/jobfiles/include-main.fio";
	c.targets[0] = "/tmp/x";
	c.ntargets = 1;
	ck_assert_int_eq(cli_jobs(&c, &jobs, &n, err, sizeof(err)), 0);
	ck_assert(!jobs[0].direct);
	free(jobs);
	c.job = NULL;
	c.preset = "tests/jobfiles/include-main.fio";
	ck_assert_int_eq(cli_jobs(&c, &jobs, &n, err, sizeof(err)), 0);
	ck_assert(jobs[0].direct);
	free(jobs);
}
END_TEST

/* Issue 25: slat is measured when asked - a fio job file asks by default
 * (fio's disable_slat=0), nvscope's own jobs do not; disable_slat=1 and
 * gtod_reduce=1 turn it off, slat_percentiles=1 asks, disable_slat=1 wins
 * whatever the order, sqthread_poll turns it off (as fio's io_uring engine). */
START_TEST(test_slat_when_asked)
{
	static const struct {
		const char *text;
		bool fio, want[2]; /* job [a], job [b] */
	} c[] = {
	    {"[a]\n[b]\ndisable_slat=1\n", true, {true, false}},
	    {"[a]\n[b]\ndisable_slat=0\n", false, {false, true}},
	    {"[global]\ngtod_reduce=1\n[a]\n[b]\ngtod_reduce=0\n", true, {false, true}},
	    {"[a]\nslat_percentiles=1\n[b]\ndisable_slat=1\nslat_percentiles=1\n",
	     false,
	     {true, false}},
	    {"[a]\nslat_percentiles=1\ndisable_slat=1\n[b]\nsqthread_poll=1\n",
	     true,
	     {false, false}},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct loaded l = load_text(c[i].text, c[i].fio);
		ck_assert_msg(l.rc == 0, "%s", l.err);
		ck_assert_uint_eq(l.n, 2);
		for (unsigned j = 0; j < 2; j++)
			ck_assert_msg(spec_slat(&l.jobs[j]) == c[i].want[j], "case %zu job %u", i,
				      j);
		free(l.jobs);
	}
	struct spec s;
	char err[128];
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "disable-slat", "maybe", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "disable_slat", NULL, err, sizeof(err)), 0); /* a flag */
	ck_assert_int_eq(s.slat, SPEC_SLAT_OFF);
}
END_TEST

Suite *jobfile_suite(void)
{
	Suite *s = suite_create("jobfile");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_long_lines);
	tcase_add_test(tc, test_nul_and_utf8);
	tcase_add_test(tc, test_sections_are_jobs);
	tcase_add_test(tc, test_indented_options);
	tcase_add_test(tc, test_inline_comments);
	tcase_add_test(tc, test_filename_replaces);
	tcase_add_test(tc, test_include_and_vars);
	tcase_add_test(tc, test_first_error_stops);
	tcase_add_test(tc, test_fio_defaults_and_engines);
	tcase_add_test(tc, test_grouping);
	tcase_add_test(tc, test_preset_description);
	tcase_add_test(tc, test_cli_bare_flags);
	tcase_add_test(tc, test_slat_when_asked);
	suite_add_tcase(s, tc);
	return s;
}

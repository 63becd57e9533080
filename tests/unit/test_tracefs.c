/* test_tracefs.c - the sweep of stale nvscope tracefs instances against a
 * fake instances directory and a fake /proc: only nvscope-PID[-START] of a
 * dead process (or of a PID now another process's, by its start time) is
 * removed; everything else is kept. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/trace/tracefs.h"

static char root[64];

static void mk(const char *sub)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/%s", root, sub);
	ck_assert_int_eq(mkdir(p, 0700), 0);
}

static bool has(const char *sub)
{
	char p[256];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", root, sub);
	return !stat(p, &st);
}

/* a fake /proc/PID/stat whose start time (field 22) is @start; the name
 * holds ") " to show the parser goes by the last ')' */
static void proc(const char *pid, const char *start)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/proc/%s", root, pid);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	strcat(p, "/stat");
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "%s (a) b (c) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 %s 20 21\n", pid,
		start);
	fclose(f);
}

static int nrem;
static void count(const char *name, int err, void *arg)
{
	(void)name;
	(void)arg;
	if (!err)
		nrem++;
}

START_TEST(test_sweep)
{
	char inst[128], procd[128];
	snprintf(root, sizeof(root), "/tmp/nvs-tracefs.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	snprintf(inst, sizeof(inst), "%s/inst", root);
	snprintf(procd, sizeof(procd), "%s/proc", root);
	mk("inst");
	mk("proc");
	proc("100", "5000"); /* alive, started at 5000 */
	proc("200", "7000");
	const char *kept[] = {
	    "inst/nvscope-100-5000",  "inst/nvscope-100", "inst/nvscope-200", "inst/other",
	    "inst/nvscope-",	      "inst/nvscope-x1",  "inst/nvscope-01",  "inst/nvscope-100-",
	    "inst/nvscope-100-5000x", "inst/nvscope-0"};
	const char *gone[] = {"inst/nvscope-300", "inst/nvscope-300-5000", "inst/nvscope-100-4999",
			      "inst/nvscope-200-70000"};
	for (size_t i = 0; i < sizeof(kept) / sizeof(*kept); i++)
		mk(kept[i]);
	for (size_t i = 0; i < sizeof(gone) / sizeof(*gone); i++)
		mk(gone[i]);
	nrem = 0;
	ck_assert_int_eq(tracefs_sweep(inst, procd, count, NULL), 4);
	ck_assert_int_eq(nrem, 4);
	for (size_t i = 0; i < sizeof(kept) / sizeof(*kept); i++)
		ck_assert_msg(has(kept[i]), "%s removed", kept[i]);
	for (size_t i = 0; i < sizeof(gone) / sizeof(*gone); i++)
		ck_assert_msg(!has(gone[i]), "%s kept", gone[i]);
	ck_assert_int_eq(tracefs_sweep(inst, procd, NULL, NULL), 0);
	char cmd[160];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_lt(tracefs_sweep(inst, procd, NULL, NULL), 0);
}
END_TEST

START_TEST(test_own_name)
{
	char name[64], small[8];
	ck_assert_int_eq(tracefs_instance_name(name, sizeof(name)), 0);
	char want[32];
	snprintf(want, sizeof(want), "nvscope-%d-", (int)getpid());
	ck_assert_int_eq(strncmp(name, want, strlen(want)), 0);
	ck_assert(strlen(name) > strlen(want));
	ck_assert_int_lt(tracefs_instance_name(small, sizeof(small)), 0);
}
END_TEST

Suite *tracefs_suite(void)
{
	Suite *s = suite_create("tracefs");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_sweep);
	tcase_add_test(tc, test_own_name);
	suite_add_tcase(s, tc);
	return s;
}

/* test_checkstate.c - a check batch's state.json: what is saved is what is
 * loaded (next step, confirmation, each drive's findings); a state of
 * another build, a damaged one or a missing one is refused. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check/state.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/nvscope-state-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	char p[128];
	snprintf(p, sizeof(p), "%s/state.json", dir);
	unlink(p);
	rmdir(dir);
}

static void rewrite(const char *from, const char *to)
{
	char p[128], buf[1 << 17];
	snprintf(p, sizeof(p), "%s/state.json", dir);
	FILE *f = fopen(p, "r");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *at = strstr(buf, from);
	ck_assert_ptr_nonnull(at);
	f = fopen(p, "w");
	fprintf(f, "%.*s%s%s", (int)(at - buf), buf, to, at + strlen(from));
	fclose(f);
}

START_TEST(test_roundtrip)
{
	struct check_profile *p = NULL;
	char err[512] = "", confirm[256];
	ck_assert_msg(!check_profile_load("quick", &p, err, sizeof(err)), "%s", err);
	struct check_drive *d = calloc(2, sizeof(*d)), *e = calloc(4, sizeof(*e));
	struct check_batch b = {.prof = p, .d = d, .n = 2, .force = true, .next_step = 3};
	size_t n = 0;
	for (int i = 0; i < 2; i++) {
		snprintf(d[i].serial, sizeof(d[i].serial), "SER-%d", i);
		snprintf(d[i].path, sizeof(d[i].path), "/dev/nvme%dn1", i);
		d[i].in.njobs = p->njobs;
		d[i].in.health_valid = true;
		d[i].in.health.critical_warning = (uint8_t)(4 * i);
		d[i].in.jobs[1].figure = 12345.5 + i;
		snprintf(d[i].in.jobs[1].name, sizeof(d[i].in.jobs[1].name), "perf-4k-randread");
		d[i].res[1].iops = 777;
	}
	ck_assert_int_eq(check_state_save(&b, dir, "SER-0,SER-1", NULL, 0), 0);
	struct check_batch l = {.prof = p};
	ck_assert_msg(
	    !check_state_load(&l, dir, e, 4, &n, confirm, sizeof(confirm), err, sizeof(err)), "%s",
	    err);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(l.next_step, 3);
	ck_assert(l.force);
	ck_assert_str_eq(confirm, "SER-0,SER-1");
	for (int i = 0; i < 2; i++) {
		ck_assert_str_eq(e[i].serial, d[i].serial);
		ck_assert_str_eq(e[i].path, d[i].path);
		ck_assert(!memcmp(&e[i].in, &d[i].in, sizeof(d[i].in)));
		ck_assert(!memcmp(e[i].res, d[i].res, sizeof(d[i].res)));
	}
	char name[64];
	ck_assert_int_eq(check_state_profile(dir, name, sizeof(name)), 0);
	ck_assert_str_eq(name, "quick");
	/* more drives than room */
	ck_assert_int_eq(
	    check_state_load(&l, dir, e, 1, &n, confirm, sizeof(confirm), err, sizeof(err)),
	    -EINVAL);
	/* another build */
	rewrite("\"nvscope_version\":\t\"", "\"nvscope_version\":\t\"9.9.9-");
	ck_assert_int_eq(
	    check_state_load(&l, dir, e, 4, &n, confirm, sizeof(confirm), err, sizeof(err)),
	    -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "another nvscope build"));
	rewrite("\"nvscope_version\":\t\"9.9.9-", "\"nvscope_version\":\t\"");
	/* damaged findings, a step past the end */
	rewrite("\"findings\":\t\"", "\"findings\":\t\"zz");
	ck_assert_int_eq(
	    check_state_load(&l, dir, e, 4, &n, confirm, sizeof(confirm), err, sizeof(err)),
	    -EINVAL);
	ck_assert_int_eq(check_state_save(&b, dir, NULL, NULL, 0), 0);
	rewrite("\"next_step\":\t3", "\"next_step\":\t99");
	ck_assert_int_eq(
	    check_state_load(&l, dir, e, 4, &n, confirm, sizeof(confirm), err, sizeof(err)),
	    -EINVAL);
	free(d);
	free(e);
	check_profile_free(p);
}
END_TEST

/* issue 20, cause 9: the state saved before the first phase (the only one
 * when every later save met a full results filesystem) holds drives not yet
 * set up (no jobs): accepted at step 0, refused past it */
START_TEST(test_fresh)
{
	struct check_profile *p = NULL;
	char err[512] = "", confirm[64];
	ck_assert_msg(!check_profile_load("quick", &p, err, sizeof(err)), "%s", err);
	struct check_drive d = {.serial = "SER-0", .path = "/dev/nvme0n1"}, e;
	struct check_batch b = {.prof = p, .d = &d, .n = 1, .next_step = 0};
	size_t n = 0;
	ck_assert_int_eq(check_state_save(&b, dir, NULL, NULL, 0), 0);
	struct check_batch l = {.prof = p};
	ck_assert_msg(
	    !check_state_load(&l, dir, &e, 1, &n, confirm, sizeof(confirm), err, sizeof(err)),
	    "%s", err);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(l.next_step, 0);
	b.next_step = 1;
	ck_assert_int_eq(check_state_save(&b, dir, NULL, NULL, 0), 0);
	ck_assert_int_eq(
	    check_state_load(&l, dir, &e, 1, &n, confirm, sizeof(confirm), err, sizeof(err)),
	    -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "bad findings"));
	check_profile_free(p);
}
END_TEST

START_TEST(test_missing)
{
	struct check_profile *p = NULL;
	char err[512], confirm[64], name[64];
	struct check_drive e;
	size_t n;
	ck_assert_int_eq(check_profile_load("quick", &p, err, sizeof(err)), 0);
	struct check_batch l = {.prof = p};
	ck_assert_int_eq(
	    check_state_load(&l, dir, &e, 1, &n, confirm, sizeof(confirm), err, sizeof(err)),
	    -ENOENT);
	ck_assert_int_eq(check_state_profile(dir, name, sizeof(name)), -ENOENT);
	check_profile_free(p);
}
END_TEST

Suite *checkstate_suite(void)
{
	Suite *s = suite_create("checkstate");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_roundtrip);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_fresh);
	suite_add_tcase(s, tc);
	return s;
}

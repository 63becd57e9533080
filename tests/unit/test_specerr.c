/* test_specerr.c - fio's ignore_error (io/opt/specerr.c): its syntax (',' between
 * the read, write and verify lists, ':' between errnos, names or numbers),
 * refusals, and which errors then fail a job. */
#include <check.h>
#include <errno.h>
#include <string.h>
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "io/opt/specerr.h"

START_TEST(test_parse)
{
	struct spec s;
	char err[256] = "";

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "ignore_error", "EIO:0x1c,,EILSEQ", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.ignore_error.n[SPECERR_READ], 2);
	ck_assert_int_eq(s.ignore_error.err[SPECERR_READ][0], EIO);
	ck_assert_int_eq(s.ignore_error.err[SPECERR_READ][1], ENOSPC); /* 28 */
	ck_assert_uint_eq(s.ignore_error.n[SPECERR_WRITE], 0);
	ck_assert_uint_eq(s.ignore_error.n[SPECERR_VERIFY], 1);
	ck_assert_int_eq(s.ignore_error.err[SPECERR_VERIFY][0], EILSEQ);
	/* fio: numbers, negative ones as positive; an empty errno ends the list */
	ck_assert_int_eq(opt_set(&s, "ignore_error", ",-22:5::EIO", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.ignore_error.n[SPECERR_READ], 0);
	ck_assert_uint_eq(s.ignore_error.n[SPECERR_WRITE], 2);
	ck_assert_int_eq(s.ignore_error.err[SPECERR_WRITE][0], EINVAL);
	ck_assert_int_eq(s.ignore_error.err[SPECERR_WRITE][1], EIO);
	/* refused, naming the option */
	const char *bad[] = {"EBOGUS", "0", "abc", "5x", "EIO,EIO,EIO,EIO", "99999", NULL};
	for (int i = 0; bad[i]; i++) {
		err[0] = '\0';
		ck_assert_msg(opt_set(&s, "ignore_error", bad[i], err, sizeof(err)) == -EINVAL,
			      "'%s' accepted", bad[i]);
		ck_assert_msg(strstr(err, "ignore_error") != NULL, "'%s' does not name it", err);
	}
	ck_assert_int_ne(opt_set(&s, "ignore_error", NULL, err, sizeof(err)), 0);
	/* more than SPECERR_MAX errnos in a list is refused, never cut short */
	char many[512] = "";
	for (int i = 0; i <= SPECERR_MAX; i++)
		strcat(many, i ? ":5" : "5");
	ck_assert_int_eq(opt_set(&s, "ignore_error", many, err, sizeof(err)), -EINVAL);
}
END_TEST

START_TEST(test_ignored)
{
	struct specerr e;
	char err[256];

	ck_assert_int_eq(specerr_parse(&e, "EIO,ENOSPC:EINVAL", err, sizeof(err)), 0);
	ck_assert_int_eq(specerr_kind_of(true, EIO), SPECERR_READ);
	ck_assert_int_eq(specerr_kind_of(false, EIO), SPECERR_WRITE);
	ck_assert_int_eq(specerr_kind_of(true, EILSEQ), SPECERR_VERIFY);
	ck_assert(specerr_ignored(&e, false, SPECERR_READ, EIO));
	ck_assert(!specerr_ignored(&e, false, SPECERR_READ, EINVAL));
	ck_assert(!specerr_ignored(&e, true, SPECERR_READ, EINVAL)); /* the list decides */
	ck_assert(specerr_ignored(&e, false, SPECERR_WRITE, EINVAL));
	ck_assert(!specerr_ignored(&e, false, SPECERR_WRITE, EIO));
	/* no list for verify: continue_on_error decides */
	ck_assert(!specerr_ignored(&e, false, SPECERR_VERIFY, EILSEQ));
	ck_assert(specerr_ignored(&e, true, SPECERR_VERIFY, EILSEQ));
}
END_TEST

Suite *specerr_suite(void)
{
	Suite *s = suite_create("specerr");
	TCase *t = tcase_create("core");
	tcase_add_test(t, test_parse);
	tcase_add_test(t, test_ignored);
	suite_add_tcase(s, t);
	return s;
}

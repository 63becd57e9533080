/* test_optfix.c - what opt_set answers for every option name it knew
 * before the option table (opt_names.h), given a set of probe values: its
 * return code and its error line, recorded once from the chained setters
 * (opt_golden.h).  The one-table parser must answer the same, byte for byte.
 * NVS_OPTFIX_DUMP=FILE build/unit-tests writes FILE afresh from the code
 * (to re-record after a deliberate change; say why in the commit). */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "opt_names.h"

struct golden {
	const char *name;
	int probe;
	int rc;
	const char *err;
	uint64_t hash; /* of struct spec's bytes after the call */
};
#include "opt_golden.h"

/* NULL: the flag form (no '='); the rest probe every value syntax, and
 * NaN, infinity and overflow, which every numeric option must refuse. */
static const char *const probes[] = {NULL,
				     "",
				     "0",
				     "1",
				     "4k",
				     "abc",
				     "-1",
				     "nan",
				     "inf",
				     "1e999",
				     "99999999999999999999999",
				     "yes",
				     "off",
				     "random",
				     "0x10",
				     " 1",
				     "2048p",
				     "2h"};
#define NPROBES (sizeof(probes) / sizeof(probes[0]))
#define NNAMES	(sizeof(opt_names) / sizeof(opt_names[0]))

/* FNV-1a of @s's bytes: which fields an option sets, and to what.  Only
 * comparable while struct spec keeps its layout: golden_spec_size guards
 * it (a changed struct spec skips this part; re-record then, in a commit
 * that changes no option). */
static uint64_t spec_hash(const struct spec *s)
{
	const unsigned char *b = (const unsigned char *)s;
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < SPEC_USED_SIZE(s); i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

static int probe_hash(const char *name, size_t p, char *err, size_t errlen, uint64_t *hash)
{
	struct spec s;

	spec_init(&s);
	int rc = opt_set(&s, name, probes[p], err, errlen);
	if (hash)
		*hash = spec_hash(&s);
	return rc;
}

static int probe(const char *name, size_t p, char *err, size_t errlen)
{
	return probe_hash(name, p, err, errlen, NULL);
}

static void put_c_string(FILE *f, const char *str)
{
	fputc('"', f);
	for (const char *c = str; *c; c++) {
		if (*c == '"' || *c == '\\')
			fputc('\\', f);
		if (*c == '\n')
			fputs("\\n", f);
		else
			fputc(*c, f);
	}
	fputc('"', f);
}

static int dump(const char *path)
{
	FILE *f = fopen(path, "w");
	char err[512];

	if (!f)
		return -errno;
	fputs("/* opt_golden.h - written by test_optfix.c (NVS_OPTFIX_DUMP): opt_set's\n"
	      " * return code and error line per option name and probe value. */\n"
	      "static const size_t golden_spec_size = ",
	      f);
	fprintf(f, "%zu;\nstatic const struct golden golden[] = {\n", sizeof(struct spec));
	for (size_t i = 0; i < NNAMES; i++)
		for (size_t p = 0; p < NPROBES; p++) {
			uint64_t h;
			int rc = probe_hash(opt_names[i].name, p, err, sizeof(err), &h);
			fprintf(f, "    {\"%s\", %zu, %d, ", opt_names[i].name, p, rc);
			put_c_string(f, err);
			fprintf(f, ", 0x%016" PRIx64 "u},\n", h);
		}
	fputs("};\n", f);
	return fclose(f) ? -errno : 0;
}

/* Every name of the fixture is known: no probe value gets "unknown option". */
START_TEST(test_names_known)
{
	char err[512];

	for (size_t i = 0; i < NNAMES; i++)
		for (size_t p = 0; p < NPROBES; p++) {
			int rc = probe(opt_names[i].name, p, err, sizeof(err));
			ck_assert_msg(rc != -ENOENT && !strstr(err, "unknown option"),
				      "%s (%s) is unknown: %s", opt_names[i].name,
				      opt_names[i].from, err);
		}
	ck_assert_int_eq(probe("no_such_option", 3, err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "unknown option 'no_such_option'");
}
END_TEST

/* The same answers as recorded, and fio's '-' spelling answers as '_'. */
START_TEST(test_golden)
{
	const char *dump_to = getenv("NVS_OPTFIX_DUMP");
	char err[512];

	if (dump_to)
		ck_assert_int_eq(dump(dump_to), 0);
	ck_assert_uint_eq(sizeof(golden) / sizeof(golden[0]), NNAMES * NPROBES);
	for (size_t g = 0; g < sizeof(golden) / sizeof(golden[0]); g++) {
		const struct golden *w = &golden[g];
		uint64_t h;
		int rc = probe_hash(w->name, (size_t)w->probe, err, sizeof(err), &h);
		const char *val = probes[w->probe] ? probes[w->probe] : "(none)";
		ck_assert_msg(rc == w->rc && !strcmp(err, w->err),
			      "%s=%s: got %d '%s', recorded %d '%s'", w->name, val, rc, err, w->rc,
			      w->err);
		ck_assert_msg(golden_spec_size != sizeof(struct spec) || h == w->hash,
			      "%s=%s: sets struct spec otherwise than recorded", w->name, val);
	}
	for (size_t i = 0; i < NNAMES; i++) {
		char dashed[64], err2[512];
		snprintf(dashed, sizeof(dashed), "%s", opt_names[i].name);
		for (char *c = dashed; *c; c++)
			if (*c == '_')
				*c = '-';
		int a = probe(opt_names[i].name, 3, err, sizeof(err));
		int b = probe(dashed, 3, err2, sizeof(err2));
		ck_assert_msg(a == b, "%s: %d but %s: %d", opt_names[i].name, a, dashed, b);
	}
}
END_TEST

/* The rows io/opt walks: each name once across every list and one the old
 * code knew, every name the old code knew a row; each row with a kind and,
 * unless ignored, custom or refused, a field of struct spec of a size the
 * parser stores and an error text (a custom row its setter, a refused one
 * its reason). */
START_TEST(test_rows)
{
	const struct opt_list *lists;
	size_t nl = opt_lists(&lists), seen = 0;

	for (size_t l = 0; l < nl; l++)
		for (size_t i = 0; i < lists[l].n; i++) {
			const struct opt_row *r = &lists[l].rows[i];
			bool known = false;
			seen++;
			ck_assert_msg(r->name && *r->name, "list %zu row %zu has no name", l, i);
			for (size_t n = 0; n < NNAMES && !known; n++)
				known = !strcmp(r->name, opt_names[n].name);
			ck_assert_msg(known, "%s: not in opt_names.h", r->name);
			for (size_t m = 0; m < nl; m++)
				for (size_t j = 0; j < lists[m].n; j++)
					ck_assert_msg((m == l && j == i) ||
							  strcmp(r->name, lists[m].rows[j].name),
						      "%s: two rows", r->name);
			ck_assert_int_le(r->kind, OPT_REFUSED);
			if (r->kind == OPT_IGNORED)
				continue;
			if (r->kind == OPT_CUSTOM) {
				ck_assert_msg(r->set || r->seti, "%s: no setter", r->name);
				continue;
			}
			if (r->kind == OPT_REFUSED) {
				ck_assert_msg(r->why && *r->why, "%s: refused without why",
					      r->name);
				continue;
			}
			ck_assert_msg(r->size == 1 || r->size == 2 || r->size == 4 || r->size == 8,
				      "%s: field size %zu", r->name, r->size);
			ck_assert_msg(r->off + r->size <= sizeof(struct spec), "%s: off", r->name);
			ck_assert_msg(r->what && *r->what, "%s: no error text", r->name);
			ck_assert_msg(r->kind != OPT_ENUM || (r->values && r->values[0]),
				      "%s: no values", r->name);
			ck_assert_msg(r->kind != OPT_UINT || r->min <= r->max, "%s: range",
				      r->name);
			ck_assert_msg(r->kind != OPT_TIME || r->max_ns, "%s: no max", r->name);
			ck_assert_msg(r->kind != OPT_DOUBLE || r->dmin <= r->dmax, "%s: range",
				      r->name);
		}
	/* the one table: every name the old chains knew is a row, found by
	 * opt_find, and no row besides */
	ck_assert_uint_eq(seen, NNAMES);
	for (size_t n = 0; n < NNAMES; n++)
		ck_assert_msg(opt_find(opt_names[n].name) != NULL, "%s: no row", opt_names[n].name);
	ck_assert_ptr_null(opt_find("no_such_option"));
}
END_TEST

Suite *optfix_suite(void)
{
	Suite *s = suite_create("optfix");
	TCase *t = tcase_create("core");
	tcase_add_test(t, test_names_known);
	tcase_add_test(t, test_golden);
	tcase_add_test(t, test_rows);
	suite_add_tcase(s, t);
	return s;
}

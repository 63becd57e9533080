/* test_sprandom.c - fio master's sprandom: the model's numbers against fio
 * master's own (its --debug=sprandom plan, commit f5344384 of 2026-08-21,
 * on a 64 MiB device with bs=4k), the offset sequence's properties, and
 * the options and refusals. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "io/core/offgen.h"
#include "io/feat/sprandom.h"

/* fio master, --debug=sprandom, op=0.15, 100 regions: "Invalidation[r]"
 * prints invalid_pct[r-1] / 10000 */
START_TEST(test_model_fio_op15)
{
	double v[100];
	ck_assert_int_eq(sprandom_validity(100, 0.15, v), 0);
	const struct {
		unsigned r, pct;
	} want[] = {{0, 2479}, {1, 2458}, {2, 2436}, {49, 1340}, {98, 29}, {99, 0}};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_int_eq(lround((1.0 - v[want[i].r]) * SPRANDOM_PCT), want[i].pct);
	/* the GC block's validity: 1 - 1 / (0.5 / 0.15 + 0.7) */
	ck_assert(fabs(v[0] - (1.0 - 1.0 / (0.5 / 0.15 + 0.7))) < 1e-12);
	ck_assert(fabs(sprandom_waf(0.15) - 4.0333333333333) < 1e-9);
	for (unsigned i = 1; i < 100; i++)
		ck_assert(v[i] >= v[i - 1]); /* region 0 the least valid */
	/* fio's summary: physical_size 77172736, capacity 83 (166 with spr_cs) */
	ck_assert_uint_eq(sprandom_physical(0.15, 64ull << 20, 4096), 77172736);
	ck_assert_uint_eq(sprandom_capacity(188, v[0]), 83);
}
END_TEST

START_TEST(test_model_fio_op21)
{
	double *v = malloc(sizeof(double) * 400);
	ck_assert_int_eq(sprandom_validity(400, 0.21, v), 0);
	const struct {
		unsigned r, pct;
	} want[] = {{0, 3246}, {99, 2555}, {199, 1786}, {299, 937}, {398, 10}};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_int_eq(lround((1.0 - v[want[i].r]) * SPRANDOM_PCT), want[i].pct);
	ck_assert_uint_eq(sprandom_physical(0.21, 64ull << 20, 4096), 81199104);
	ck_assert_uint_eq(sprandom_capacity(49, v[0]), 36);
	free(v);
	ck_assert_int_eq(sprandom_validity(0, 0.15, NULL), -EINVAL);
	double one;
	ck_assert_int_eq(sprandom_validity(1, 0.15, &one), 0);
	ck_assert(fabs(one - 1.0) < 1e-12); /* fio: linspace(1.0, v_gc, 1) = {1.0} */
	ck_assert_int_eq(sprandom_validity(1, NAN, &one), -EINVAL);
	ck_assert_int_eq(sprandom_validity(1, 1.0, &one), -EINVAL);
}
END_TEST

START_TEST(test_plan)
{
	struct sprandom *sp;
	struct sprandom_plan p;
	char err[200];
	ck_assert_int_eq(sprandom_new(&sp, 64ull << 20, 4096, 0.15, 100, 0, 1, err, sizeof(err)),
			 0);
	sprandom_get_plan(sp, &p);
	/* fio: region_size 771727, region_write_count 188, 16384 lfsr blocks */
	ck_assert_uint_eq(p.physical, 77172736);
	ck_assert_uint_eq(p.region_bytes, 771727);
	ck_assert_uint_eq(p.region_writes, 188);
	ck_assert_uint_eq(p.nblocks, 16384);
	ck_assert_uint_eq(p.capacity, 83);
	sprandom_free(sp);
	ck_assert_int_eq(
	    sprandom_new(&sp, 64ull << 20, 4096, 0.15, 100, 256 << 10, 1, err, sizeof(err)), 0);
	sprandom_get_plan(sp, &p);
	ck_assert_uint_eq(p.capacity, 166);
	sprandom_free(sp);
	/* fio: "spr_cs [1048576] must be smaller than region_sz [48209] ..." */
	ck_assert_int_eq(
	    sprandom_new(&sp, 4ull << 20, 4096, 0.15, 100, 1 << 20, 1, err, sizeof(err)), -EDOM);
	ck_assert_ptr_nonnull(strstr(err, "must be smaller than region_sz [48209]"));
	/* fio master divides by zero here (SIGFPE); refused */
	ck_assert_int_eq(sprandom_new(&sp, 4ull << 20, 4096, 0.15, 2000, 0, 1, err, sizeof(err)),
			 -EDOM);
	ck_assert_ptr_null(sp);
}
END_TEST

/* The sequence: regions of region_writes writes; every fresh block once;
 * region r's rewrites come first in region r+1 (after one fresh write, as
 * fio's), at its end with spr_cs; each region keeps about its validity. */
static void check_sequence(uint64_t cache)
{
	struct sprandom *sp;
	struct sprandom_plan p;
	char err[200];
	ck_assert_int_eq(
	    sprandom_new(&sp, 64ull << 20, 4096, 0.15, 100, cache, 7, err, sizeof(err)), 0);
	sprandom_get_plan(sp, &p);
	size_t cap = p.physical / 4096 * 2, n = 0;
	uint64_t *seq = malloc(sizeof(uint64_t) * cap), b;
	while (n < cap && !sprandom_next(sp, &b))
		seq[n++] = b;
	ck_assert_int_eq(sprandom_next(sp, &b), 1); /* done stays done */
	/* at most 101 regions (fio's extra last one) */
	ck_assert_uint_le(n, 101 * p.region_writes);
	ck_assert_uint_gt(n, 16384);
	int64_t *last = malloc(sizeof(int64_t) * 16384), *prev = malloc(sizeof(int64_t) * n);
	for (size_t i = 0; i < 16384; i++)
		last[i] = -1;
	size_t fresh = 0;
	for (size_t i = 0; i < n; i++) {
		ck_assert_uint_lt(seq[i], 16384);
		prev[i] = last[seq[i]];
		fresh += prev[i] < 0;
		last[seq[i]] = (int64_t)i;
	}
	/* the fresh blocks ran out or 101 regions were written */
	ck_assert(fresh == 16384 || n == 101 * p.region_writes);
	size_t rw = p.region_writes, nreg = (n + rw - 1) / rw;
	for (size_t r = 1; r + 1 < nreg && r < 99; r++) {
		/* the rewrites of region r-1 in region r: contiguous */
		size_t first = SIZE_MAX, cnt = 0, lastpos = 0;
		size_t valid = 0;
		for (size_t i = r * rw; i < (r + 1) * rw; i++) {
			if (prev[i] >= 0 && (size_t)prev[i] / rw == r - 1) {
				if (first == SIZE_MAX)
					first = i - r * rw;
				cnt++;
				lastpos = i - r * rw;
			}
			valid += last[seq[i]] == (int64_t)i;
		}
		if (cnt) {
			ck_assert_uint_eq(lastpos - first + 1, cnt);
			if (cache)
				ck_assert_uint_eq(lastpos, rw - 1);
			else
				ck_assert_uint_eq(first, 1);
		}
		/* validity within 5 standard deviations of the model's */
		double vm = 1.0 - (p.invalid_pct[r] + 1.0) / (SPRANDOM_PCT + 1.0);
		double sd = sqrt(vm * (1.0 - vm) / (double)rw) + 1e-3;
		ck_assert_msg(fabs((double)valid / (double)rw - vm) < 5 * sd,
			      "region %zu: %zu/%zu vs %f", r, valid, rw, vm);
	}
	ck_assert_uint_eq(p.dropped, 0);
	free(seq);
	free(last);
	free(prev);
	sprandom_free(sp);
}

START_TEST(test_sequence)
{
	check_sequence(0);
	check_sequence(256 << 10);
}
END_TEST

START_TEST(test_options)
{
	struct spec s;
	char err[200];
	spec_init(&s);
	const char *bad_op[] = {"nan", "inf", "-0.1", "0", "1", "1.5", "", "x"};
	for (size_t i = 0; i < sizeof(bad_op) / sizeof(bad_op[0]); i++)
		ck_assert_int_eq(opt_set(&s, "spr_op", bad_op[i], err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "spr_num_regions", "0", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "spr_num_regions", "-1", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "spr_num_regions", "99999999999", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "spr_cs", "nan", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "sprandom", "maybe", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "spr_op", "0.21", err, sizeof(err)), 0);
	ck_assert(fabs(s.spr_op - 0.21) < 1e-12);
	ck_assert_int_eq(opt_set(&s, "spr_cs", "256k", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.spr_cs, 256 << 10);
	ck_assert_int_eq(opt_set(&s, "sprandom", NULL, err, sizeof(err)), 0);
	ck_assert(s.sprandom);
	ck_assert_int_eq(opt_set(&s, "target", "/dev/null", err, sizeof(err)), 0);
	/* fio's refusals, with fio's reasons */
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL); /* rw=randread */
	ck_assert_ptr_nonnull(strstr(err, "sprandom requires random write"));
	ck_assert_int_eq(opt_set(&s, "rw", "randwrite", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "random_generator", "tausworthe", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "requires random_generator=lfsr"));
	ck_assert_int_eq(opt_set(&s, "random_generator", "lfsr", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "norandommap", "0", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "requires norandommap=1"));
	ck_assert_int_eq(opt_set(&s, "norandommap", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "numjobs", "2", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "numjobs=1"));
	ck_assert_int_eq(opt_set(&s, "numjobs", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "target", "/dev/zero", err, sizeof(err)), 0);
	ck_assert_uint_eq(s.ntargets, 2);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "SPRandom supports only one file"));
}
END_TEST

/* offgen: writes come from the plan, aligned, and the end ends the pass */
START_TEST(test_offgen)
{
	struct spec s;
	struct offgen g;
	char err[200];
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", "randwrite", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "sprandom", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "spr_num_regions", "10", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 1 << 20, 4 << 20, 4096, 3), 0);
	ck_assert_ptr_nonnull(g.spr);
	uint64_t n = 0, off;
	uint32_t len;
	enum nvs_dir d;
	while (n < 100000) {
		offgen_next(&g, &off, &len, &d);
		if (g.wraps == UINT64_MAX)
			break;
		ck_assert_int_eq(d, NVS_WRITE);
		ck_assert_uint_eq(len, 4096);
		ck_assert_uint_eq(off % 4096, 0);
		ck_assert_uint_ge(off, 1 << 20);
		ck_assert_uint_lt(off, 5 << 20);
		n++;
	}
	ck_assert_uint_gt(n, 1024);
	ck_assert_uint_le(n, 11 * ((sprandom_physical(0.15, 4 << 20, 4096) / 10) / 4096));
	offgen_free(&g);
	ck_assert_ptr_null(g.spr);
	/* a plan with regions under a block: -EDOM (the worker says why) */
	ck_assert_int_eq(opt_set(&s, "spr_num_regions", "5000", err, sizeof(err)), 0);
	ck_assert_int_eq(offgen_init(&g, &s, 0, 4 << 20, 4096, 3), -EDOM);
	offgen_free(&g);
}
END_TEST

Suite *sprandom_suite(void)
{
	Suite *s = suite_create("sprandom");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_model_fio_op15);
	tcase_add_test(tc, test_model_fio_op21);
	tcase_add_test(tc, test_plan);
	tcase_add_test(tc, test_sequence);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_offgen);
	suite_add_tcase(s, tc);
	return s;
}

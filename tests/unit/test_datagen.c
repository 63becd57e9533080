/* test_datagen.c - write-buffer contents: fresh per write by default, fio's
 * compress/dedupe/zero/pattern options, fio's pattern syntax. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "io/core/datagen.h"
#include "io/opt/specval.h"

#define N  2000
#define BS 4096

static struct spec opts(const char *k1, const char *v1, const char *k2, const char *v2)
{
	struct spec s;
	char err[160];
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", "write", err, sizeof(err)), 0);
	if (k1)
		ck_assert_msg(opt_set(&s, k1, v1, err, sizeof(err)) == 0, "%s", err);
	if (k2)
		ck_assert_msg(opt_set(&s, k2, v2, err, sizeof(err)) == 0, "%s", err);
	return s;
}

/* Writes N blocks through one buffer (as a QD1 worker does) and counts
 * distinct contents (a 64-bit FNV hash) and zero bytes. */
static void run(const struct spec *s, unsigned *distinct, double *zero_frac)
{
	static uint8_t buf[BS];
	static uint64_t h[N];
	struct datagen g;
	uint64_t zeros = 0;

	datagen_init(&g, s, BS, 42);
	datagen_fill(&g, buf, BS);
	for (unsigned i = 0; i < N; i++) {
		uint64_t x = 1469598103934665603ULL;
		datagen_prepare_write(&g, buf, BS, (uint64_t)i * BS, 1000u + i, false);
		for (unsigned j = 0; j < BS; j++) {
			x = (x ^ buf[j]) * 1099511628211ULL;
			zeros += !buf[j];
		}
		h[i] = x;
	}
	unsigned d = 0;
	for (unsigned i = 0; i < N; i++) {
		unsigned j;
		for (j = 0; j < i && h[j] != h[i]; j++)
			;
		d += j == i;
	}
	*distinct = d;
	*zero_frac = (double)zeros / ((double)N * BS);
}

START_TEST(test_default_fresh)
{
	struct spec s = opts(NULL, NULL, NULL, NULL);
	unsigned d;
	double z;
	run(&s, &d, &z);
	ck_assert_uint_eq(d, N);
	ck_assert(z < 0.01); /* random: 1/256 of bytes are zero */
	/* scramble_buffers=0: fio reuses the buffer as it is */
	s = opts("scramble_buffers", "0", NULL, NULL);
	run(&s, &d, &z);
	ck_assert_uint_eq(d, 1);
}
END_TEST

START_TEST(test_compress_dedupe)
{
	struct spec s = opts("buffer_compress_percentage", "50", NULL, NULL);
	unsigned d;
	double z;
	run(&s, &d, &z);
	ck_assert_uint_eq(d, N); /* compression implies refill_buffers */
	ck_assert_msg(z > 0.49 && z < 0.52, "zero share %f", z);
	s = opts("buffer_compress_percentage", "25", "buffer_compress_chunk", "0");
	run(&s, &d, &z);
	ck_assert_msg(z > 0.24 && z < 0.27, "zero share %f", z);
	s = opts("dedupe_percentage", "30", NULL, NULL);
	run(&s, &d, &z);
	ck_assert_msg(d > N * 0.66 && d < N * 0.74, "distinct %u of %d", d, N);
	ck_assert(z < 0.01);
	s = opts("buffer_compress_percentage", "100", NULL, NULL);
	run(&s, &d, &z);
	ck_assert(z == 1.0 && d == 1);
}
END_TEST

START_TEST(test_zero_pattern_stale)
{
	struct spec s = opts("zero_buffers", "1", NULL, NULL);
	unsigned d;
	double z;
	run(&s, &d, &z);
	ck_assert(z == 1.0 && d == 1);
	/* asked for: fio stamps offset and time into zero buffers */
	s = opts("zero_buffers", "1", "scramble_buffers", "1");
	run(&s, &d, &z);
	ck_assert_uint_eq(d, N);
	ck_assert(z > 0.9);

	s = opts("buffer_pattern", "0xdeadbeef", NULL, NULL);
	struct datagen g;
	uint8_t buf[64];
	datagen_init(&g, &s, 4096, 1);
	memset(buf, 0x55, sizeof(buf)); /* as if a read had filled it */
	datagen_prepare_write(&g, buf, sizeof(buf), 0, 1, true);
	for (unsigned i = 0; i < sizeof(buf); i += 4)
		ck_assert_mem_eq(buf + i, "\xde\xad\xbe\xef", 4);
	/* a read's data is never written back */
	s = opts(NULL, NULL, NULL, NULL);
	datagen_init(&g, &s, 4096, 1);
	memset(buf, 0, sizeof(buf));
	datagen_prepare_write(&g, buf, sizeof(buf), 0, 1, true);
	unsigned zeros = 0;
	for (unsigned i = 0; i < sizeof(buf); i++)
		zeros += !buf[i];
	ck_assert_uint_lt(zeros, 8);
}
END_TEST

/* Hashes of @n blocks a worker of job @s (worker @w, its job at @pl in the
 * run) writes. */
static void hashes(const struct spec *s, const struct datagen_place *pl, unsigned w, uint64_t *h,
		   unsigned n)
{
	static uint8_t buf[BS];
	struct datagen g;

	datagen_init(&g, s, BS, datagen_seed(s, pl, w));
	datagen_working_set(&g, s, pl, (uint64_t)n * BS, BS, w);
	for (unsigned i = 0; i < n; i++) {
		uint64_t x = 1469598103934665603ULL;
		datagen_prepare_write(&g, buf, BS, (uint64_t)i * BS, 1000u + i, false);
		for (unsigned j = 0; j < BS; j++)
			x = (x ^ buf[j]) * 1099511628211ULL;
		h[i] = x;
	}
}

static unsigned shared(const uint64_t *a, const uint64_t *b, unsigned n)
{
	unsigned c = 0;
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < n; j++)
			if (a[i] == b[j]) {
				c++;
				break;
			}
	return c;
}

START_TEST(test_run_numbering)
{
	static uint64_t a[1000], b[1000];
	struct spec jobs[3];
	char err[160];

	for (int j = 0; j < 3; j++)
		jobs[j] = opts("dedupe_percentage", "50", "dedupe_mode", "working_set");
	ck_assert_int_eq(opt_set(&jobs[1], "numjobs", "2", err, sizeof(err)), 0);
	struct datagen_place pl[3];
	datagen_number_run(jobs, 3, pl); /* fio's threads: a 0, b 1-2, c 3 */
	ck_assert_uint_eq(pl[0].thread0, 0);
	ck_assert_uint_eq(pl[1].thread0, 1);
	ck_assert_uint_eq(pl[2].thread0, 3);
	ck_assert_uint_eq(pl[2].threads, 4);
	ck_assert_uint_eq(pl[0].seed, pl[2].seed);
	ck_assert_uint_ne(datagen_seed(&jobs[0], &pl[0], 1), datagen_seed(&jobs[1], &pl[1], 0));
	ck_assert_uint_ne(datagen_seed(&jobs[1], &pl[1], 1), datagen_seed(&jobs[2], &pl[2], 0));
	/* two jobs of a run, working sets their own: no block in common */
	hashes(&jobs[0], &pl[0], 0, a, 1000);
	hashes(&jobs[2], &pl[2], 0, b, 1000);
	ck_assert_uint_eq(shared(a, b, 1000), 0);
	/* dedupe_global: a 50% working set (500 pages) over the 4 threads, the
	 * first 125 unique pages of each; of a's ~500 copies ~125 are of c's
	 * first pages (c's unique blocks) and ~250 of threads 1 and 2's, which
	 * c copies too (~63% of them), and c copies ~79 of a's first pages:
	 * ~440 of a's blocks are also c's (none without dedupe_global) */
	for (int j = 0; j < 3; j++)
		ck_assert_int_eq(
		    opt_set(&jobs[j], "dedupe_working_set_percentage", "50", err, sizeof(err)), 0);
	for (int j = 0; j < 3; j++)
		ck_assert_int_eq(opt_set(&jobs[j], "dedupe_global", "1", err, sizeof(err)), 0);
	hashes(&jobs[0], &pl[0], 0, a, 1000);
	hashes(&jobs[2], &pl[2], 0, b, 1000);
	unsigned c = shared(a, b, 1000);
	ck_assert_msg(c > 360 && c < 520, "%u blocks shared", c);
	ck_assert_int_eq(opt_set(&jobs[0], "dedupe_global", "2", err, sizeof(err)), -EINVAL);
}
END_TEST

START_TEST(test_pattern_syntax)
{
	uint8_t out[16];
	ck_assert_int_eq(specval_pattern("0xdeadface", out, sizeof(out)), 4);
	ck_assert_mem_eq(out, "\xde\xad\xfa\xce", 4);
	ck_assert_int_eq(specval_pattern("0xabc", out, sizeof(out)), 2); /* 0a bc */
	ck_assert_mem_eq(out, "\x0a\xbc", 2);
	ck_assert_int_eq(specval_pattern("\"ab\"0xff-12", out, sizeof(out)), 7);
	ck_assert_mem_eq(out, "ab\xff\xf4\xff\xff\xff", 7);
	ck_assert_int_eq(specval_pattern("10x20", out, sizeof(out)), 2); /* 1, 0x20 */
	ck_assert_mem_eq(out, "\x01\x20", 2);
	ck_assert_int_eq(specval_pattern("0", out, sizeof(out)), 1);
	ck_assert_int_eq(specval_pattern("'/etc/passwd'", out, sizeof(out)), -EINVAL);
	ck_assert_int_eq(specval_pattern("\"unterminated", out, sizeof(out)), -EINVAL);
	ck_assert_int_eq(specval_pattern("", out, sizeof(out)), -EINVAL);
	ck_assert_int_eq(specval_pattern("4294967296", out, sizeof(out)), -EINVAL);
	ck_assert_int_eq(specval_pattern("0x", out, sizeof(out)), -EINVAL);
	ck_assert_int_eq(specval_pattern("0x0102", out, 1), -EINVAL); /* too long */
	ck_assert_int_eq(specval_pattern("\"abc\"", out, 2), -EINVAL);

	struct spec s;
	char err[160];
	spec_init(&s);
	ck_assert_int_eq(s.scramble_buffers, -1);
	ck_assert_uint_eq(s.compress_chunk, 512);
	ck_assert_int_eq(opt_set(&s, "buffer_compress_percentage", "101", err, sizeof(err)),
			 -EINVAL);
	ck_assert_int_eq(opt_set(&s, "dedupe_percentage", "-1", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "dedupe_percentage", "nan", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "refill_buffers", NULL, err, sizeof(err)), 0);
	ck_assert_int_eq(s.refill_buffers, 1);
	ck_assert_int_eq(opt_set(&s, "buffer_pattern", "0x", err, sizeof(err)), -EINVAL);
}
END_TEST

Suite *datagen_suite(void)
{
	Suite *s = suite_create("datagen");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_default_fresh);
	tcase_add_test(tc, test_compress_dedupe);
	tcase_add_test(tc, test_zero_pattern_stale);
	tcase_add_test(tc, test_pattern_syntax);
	tcase_add_test(tc, test_run_numbering);
	suite_add_tcase(s, tc);
	return s;
}

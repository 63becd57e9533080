/* test_replay.c - a results directory played back: at the end of the play
 * the whole run's p99 and p99.99 come from summary.json (fio's lat_ns
 * percentiles) where one job ran - of both directions only where one did
 * every I/O - and nowhere else (before the end, several jobs, a number
 * that is not finite). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run/source.h"

static const char samples[] =
    "time_s,read_iops,write_iops,read_mbps,write_mbps,read_lat_mean_us,write_lat_mean_us,"
    "read_lat_p99_us,write_lat_p99_us,read_lat_max_us,write_lat_max_us,errors,cpu_pct,ramp,"
    "trim_iops,trim_mbps,trim_lat_mean_us,trim_lat_p99_us,trim_lat_max_us\n"
    "1.000,1000.0,500.0,4.0,2.0,100.0,200.0,300.0,400.0,900.0,950.0,0,10.0,0,0,0,0,0,0\n"
    "2.000,1000.0,500.0,4.0,2.0,100.0,200.0,300.0,400.0,900.0,950.0,0,10.0,0,0,0,0,0,0\n"
    "3.000,1000.0,500.0,4.0,2.0,100.0,200.0,300.0,400.0,900.0,950.0,0,10.0,0,0,0,0,0,0\n";

/* one direction's object: @ios I/Os, p99 and p99.99 as given (ns, text) */
static void dir_json(char *buf, size_t len, unsigned ios, const char *p99, const char *p9999)
{
	snprintf(
	    buf, len,
	    "{\"total_ios\": %u, \"iops\": 1000, \"bw_bytes\": 4096000, \"lat_ns\": {\"min\": 1, "
	    "\"max\": 9, \"mean\": 5, \"N\": %u, \"percentile\": {\"50.000000\": 1000, "
	    "\"99.000000\": %s, \"99.990000\": %s}}}",
	    ios, ios, p99, p9999);
}

/* a directory with samples.csv and a summary.json of @njobs jobs, each
 * with read @r and write @w; the source opened on it */
static void open_dir(char *dir, int njobs, const char *r, const char *w, struct source *src)
{
	char path[600], err[256] = "";
	strcpy(dir, "/tmp/nvs-replay-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/samples.csv", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(samples, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "{\"jobs\": [");
	for (int j = 0; j < njobs; j++)
		fprintf(f,
			"%s{\"jobname\": \"j\", \"job options\": {\"iodepth\": \"%d\"}, "
			"\"read\": %s, \"write\": %s}",
			j ? ", " : "", j + 1, r, w);
	fprintf(f, "]}\n");
	fclose(f);
	ck_assert_msg(source_open(dir, src, err, sizeof(err)) == 0, "source_open: %s", err);
}

static void close_dir(const char *dir, struct source *src)
{
	char cmd[600];
	source_free(src);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static bool has_pct(const struct source *src)
{
	struct source_info in;
	src->ops->info(src->ctx, &in);
	return in.valid & SOURCE_HAS_RUN_PCT;
}

START_TEST(test_one_direction)
{
	char dir[64], r[512], w[512];
	struct source src;
	dir_json(r, sizeof(r), 3000, "569344", "3850240");
	dir_json(w, sizeof(w), 0, "0", "0");
	open_dir(dir, 1, r, w, &src);
	ck_assert_ptr_nonnull(src.ops->run_pct);
	src.ops->seek(src.ctx, 1e9); /* the end */
	ck_assert(has_pct(&src));
	ck_assert_double_eq_tol(src.ops->run_pct(src.ctx, -1, 99), 569.344, 1e-9);
	ck_assert_double_eq_tol(src.ops->run_pct(src.ctx, -1, 99.99), 3850.24, 1e-9);
	ck_assert_double_eq_tol(src.ops->run_pct(src.ctx, 0, 99), 569.344, 1e-9);
	ck_assert(isnan(src.ops->run_pct(src.ctx, 1, 99)));  /* no writes */
	ck_assert(isnan(src.ops->run_pct(src.ctx, -1, 50))); /* only p99, p99.99 */
	/* before the end the whole run's figures are not the play's */
	src.ops->seek(src.ctx, 1.5);
	ck_assert(!has_pct(&src));
	ck_assert(isnan(src.ops->run_pct(src.ctx, -1, 99)));
	close_dir(dir, &src);
}
END_TEST

START_TEST(test_mixed)
{
	char dir[64], r[512], w[512];
	struct source src;
	dir_json(r, sizeof(r), 3000, "300000", "800000");
	dir_json(w, sizeof(w), 1500, "400000", "900000");
	open_dir(dir, 1, r, w, &src);
	src.ops->seek(src.ctx, 1e9);
	ck_assert(has_pct(&src));
	ck_assert_double_eq_tol(src.ops->run_pct(src.ctx, 0, 99), 300, 1e-9);
	ck_assert_double_eq_tol(src.ops->run_pct(src.ctx, 1, 99), 400, 1e-9);
	ck_assert_double_eq_tol(src.ops->run_pct(src.ctx, 1, 99.99), 900, 1e-9);
	/* two directions' percentiles do not merge */
	ck_assert(isnan(src.ops->run_pct(src.ctx, -1, 99)));
	ck_assert(isnan(src.ops->run_pct(src.ctx, -1, 99.99)));
	close_dir(dir, &src);
}
END_TEST

START_TEST(test_none)
{
	char dir[64], r[512], w[512];
	struct source src;
	dir_json(r, sizeof(r), 3000, "300000", "800000");
	dir_json(w, sizeof(w), 0, "0", "0");
	/* a QD sweep: a job per depth, whose percentiles do not merge */
	open_dir(dir, 2, r, w, &src);
	src.ops->seek(src.ctx, 1e9);
	ck_assert(!has_pct(&src));
	ck_assert(isnan(src.ops->run_pct(src.ctx, 0, 99)));
	close_dir(dir, &src);
	/* numbers that are not finite, or not numbers: none */
	dir_json(r, sizeof(r), 3000, "1e400", "\"x\"");
	open_dir(dir, 1, r, w, &src);
	src.ops->seek(src.ctx, 1e9);
	ck_assert(!has_pct(&src));
	ck_assert(isnan(src.ops->run_pct(src.ctx, -1, 99)));
	close_dir(dir, &src);
}
END_TEST

Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_one_direction);
	tcase_add_test(tc, test_mixed);
	tcase_add_test(tc, test_none);
	suite_add_tcase(s, tc);
	return s;
}

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

/* One summary.json and what the play's end reads from it. */
struct pct_case {
	const char *what;
	int njobs;
	unsigned rios, wios;	   /* each direction's I/Os */
	const char *rp[2], *wp[2]; /* their p99, p99.99 in the file (ns) */
	double want[3][2];	   /* read, write, both x p99, p99.99 (us) */
};

static const struct pct_case cases[] = {
    {"reads only",
     1,
     3000,
     0,
     {"569344", "3850240"},
     {"0", "0"},
     {{569.344, 3850.24}, {NAN, NAN}, {569.344, 3850.24}}},
    /* two directions' percentiles do not merge */
    {"mixed",
     1,
     3000,
     1500,
     {"300000", "800000"},
     {"400000", "900000"},
     {{300, 800}, {400, 900}, {NAN, NAN}}},
    /* a QD sweep: a job per depth, whose percentiles do not merge */
    {"two jobs",
     2,
     3000,
     0,
     {"300000", "800000"},
     {"0", "0"},
     {{NAN, NAN}, {NAN, NAN}, {NAN, NAN}}},
    {"not finite, not a number",
     1,
     3000,
     0,
     {"1e400", "\"x\""},
     {"0", "0"},
     {{NAN, NAN}, {NAN, NAN}, {NAN, NAN}}},
};

START_TEST(test_at_end)
{
	const struct pct_case *c = &cases[_i];
	char dir[64], r[512], w[512];
	struct source src;
	bool any = false;
	dir_json(r, sizeof(r), c->rios, c->rp[0], c->rp[1]);
	dir_json(w, sizeof(w), c->wios, c->wp[0], c->wp[1]);
	open_dir(dir, c->njobs, r, w, &src);
	ck_assert_ptr_nonnull(src.ops->run_pct);
	src.ops->seek(src.ctx, 1e9); /* the end */
	for (int d = 0; d < 3; d++)
		for (int k = 0; k < 2; k++) {
			double got = src.ops->run_pct(src.ctx, d < 2 ? d : -1, k ? 99.99 : 99);
			double want = c->want[d][k];
			any |= !isnan(want);
			ck_assert_msg(isnan(want) ? isnan(got) : fabs(got - want) < 1e-9,
				      "%s: [%d][%d] %f, not %f", c->what, d, k, got, want);
		}
	ck_assert_msg(has_pct(&src) == any, "%s: the validity bit", c->what);
	ck_assert(isnan(src.ops->run_pct(src.ctx, -1, 50))); /* only p99, p99.99 */
	/* before the end the whole run's figures are not the play's */
	src.ops->seek(src.ctx, 1.5);
	ck_assert(!has_pct(&src));
	ck_assert(isnan(src.ops->run_pct(src.ctx, 0, 99)));
	close_dir(dir, &src);
}
END_TEST

Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("core");
	tcase_add_loop_test(tc, test_at_end, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	suite_add_tcase(s, tc);
	return s;
}

/* test_fioout.c - fio-compatible output: json+ bins keyed by fio's
 * plat_idx_to_val (fio's stat.c formula, re-written here), fio's number
 * types (integers without a fraction, floats with one), latency tables,
 * per-job options, /sys/block stat parsing and the log options. */
#include <check.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/opt/opt.h"
#include "io/opt/spec.h"
#include "report/fiolog.h"
#include "report/json.h"
#include "stats/diskstat.h"

/* fio stat.c: plat_idx_to_val with FIO_IO_U_PLAT_BITS 6 */
static unsigned long long fio_plat_idx_to_val(unsigned idx)
{
	if (idx < (64u << 1))
		return idx;
	unsigned error_bits = (idx >> 6) - 1;
	unsigned long long base = 1ULL << (error_bits + 6);
	unsigned long long k = idx % 64;
	return base + (unsigned long long)((k + 0.5) * (double)(1ULL << error_bits));
}

START_TEST(test_bins_are_fios)
{
	/* fio has 29 groups (FIO_IO_U_PLAT_NR 1856); nvscope's first 29 agree */
	for (unsigned i = 0; i < 29 * 64; i++)
		ck_assert_uint_eq(hist_bucket_value(i), fio_plat_idx_to_val(i));
	/* and every value lands in the bucket fio's index would pick */
	uint64_t vals[] = {0, 1, 127, 128, 129, 4096, 5000, 123456, 99999999, 1ULL << 33};
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		unsigned idx = hist_index(vals[i]);
		uint64_t mid = hist_bucket_value(idx);
		ck_assert(mid <= vals[i] + vals[i] / 64 + 1 && mid + mid / 64 + 1 >= vals[i]);
	}
}
END_TEST

static char *render(const struct json_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(json_write_run(f, run), 0);
	fclose(f);
	return buf;
}

/* fio 3.33 io_u.c, its switches as ranges: io_u_mark_depth buckets
 * td->cur_depth (1, 2..3, 4..7, 8..15, 16..31, 32..63, default: >= 64);
 * __io_u_mark_map buckets a submit or reap call's count (0, 1..4, 5..8,
 * 9..16, 17..32, 33..64, default: > 64). */
static unsigned fio_depth_idx(unsigned d)
{
	static const unsigned lo[] = {1, 2, 4, 8, 16, 32};
	static const unsigned hi[] = {1, 3, 7, 15, 31, 63};
	for (unsigned i = 0; i < 6; i++)
		if (d >= lo[i] && d <= hi[i])
			return i;
	return 6;
}
static unsigned fio_map_idx(unsigned n)
{
	static const unsigned lo[] = {0, 1, 5, 9, 17, 33};
	static const unsigned hi[] = {0, 4, 8, 16, 32, 64};
	for (unsigned i = 0; i < 6; i++)
		if (n >= lo[i] && n <= hi[i])
			return i;
	return 6;
}

START_TEST(test_depth_buckets_are_fios)
{
	/* depth 0 never reaches fio's switch (cur_depth >= 1 at a commit) */
	for (unsigned d = 1; d <= 4096; d++)
		ck_assert_uint_eq(result_depth_idx(d), fio_depth_idx(d));
	ck_assert_uint_eq(result_depth_idx(65535), 6);
	for (unsigned n = 0; n <= 4096; n++)
		ck_assert_uint_eq(result_batch_idx(n), fio_map_idx(n));
	/* the edges by hand: a level key is the largest power of 2 <= depth,
	 * a submit/complete key the smallest power of 2 >= n (from 4) */
	ck_assert_uint_eq(result_depth_idx(15), 3);
	ck_assert_uint_eq(result_depth_idx(16), 4);
	ck_assert_uint_eq(result_depth_idx(63), 5);
	ck_assert_uint_eq(result_depth_idx(64), 6);
	ck_assert_uint_eq(result_batch_idx(0), 0);
	ck_assert_uint_eq(result_batch_idx(4), 1);
	ck_assert_uint_eq(result_batch_idx(5), 2);
	ck_assert_uint_eq(result_batch_idx(16), 3);
	ck_assert_uint_eq(result_batch_idx(17), 4);
	ck_assert_uint_eq(result_batch_idx(64), 5);
	ck_assert_uint_eq(result_batch_idx(65), 6);
}
END_TEST

START_TEST(test_depth_pct_and_json)
{
	/* fio's stat_calc_dist: shares of the sum, a non-zero one under 0.1%
	 * shown as 0.1, nothing counted: all 0 */
	uint64_t map[7] = {1, 0, 0, 0, 9998, 0, 1};
	double pct[7];
	result_depth_pct(map, pct);
	ck_assert_double_eq_tol(pct[0], 0.1, 1e-12);
	ck_assert_double_eq_tol(pct[4], 99.98, 1e-9);
	ck_assert_double_eq_tol(pct[6], 0.1, 1e-12);
	ck_assert_double_eq(pct[1], 0);
	uint64_t none[7] = {0};
	result_depth_pct(none, pct);
	for (int i = 0; i < 7; i++)
		ck_assert_double_eq(pct[i], 0);
	uint64_t half[7] = {0, 0, 0, 3, 3, 0, 0};
	result_depth_pct(half, pct);
	ck_assert_double_eq_tol(pct[3], 50, 1e-12);

	/* the JSON: fio's three objects, its keys in its order, floats */
	struct spec s;
	struct result *r = calloc(1, sizeof(*r));
	char err[128];
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "filename", "/dev/x", err, sizeof(err)), 0);
	result_init(r);
	snprintf(r->name, sizeof(r->name), "d");
	r->iodepth = 16;
	r->numjobs = 1;
	r->runtime_s = 1;
	r->depth_map[0] = 3; /* 3 I/Os at depth 1, 1 at 16 */
	r->depth_map[4] = 1;
	r->submit_map[1] = 4;
	r->complete_map[2] = 1;
	r->complete_map[6] = 1;
	struct json_run run = {.spec = &s, .jobs = r, .njobs = 1};
	char *text = render(&run);
	cJSON *doc = cJSON_Parse(text);
	ck_assert_ptr_nonnull(doc);
	cJSON *j = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "jobs"), 0);
	static const char *const names[] = {"iodepth_level", "iodepth_submit", "iodepth_complete"};
	static const char *const keys[3][7] = {{"1", "2", "4", "8", "16", "32", ">=64"},
					       {"0", "4", "8", "16", "32", "64", ">=64"},
					       {"0", "4", "8", "16", "32", "64", ">=64"}};
	static const double want[3][7] = {
	    {75, 0, 0, 0, 25, 0, 0}, {0, 100, 0, 0, 0, 0, 0}, {0, 0, 50, 0, 0, 0, 50}};
	for (int t = 0; t < 3; t++) {
		cJSON *o = cJSON_GetObjectItem(j, names[t]), *e;
		ck_assert_ptr_nonnull(o);
		int i = 0;
		cJSON_ArrayForEach(e, o)
		{
			ck_assert_int_lt(i, 7);
			ck_assert_str_eq(e->string, keys[t][i]);
			ck_assert(cJSON_IsNumber(e));
			ck_assert_double_eq_tol(e->valuedouble, want[t][i], 1e-6);
			i++;
		}
		ck_assert_int_eq(i, 7);
	}
	/* fio writes them as floats: "0.000000", never a bare 0 */
	ck_assert_ptr_nonnull(strstr(text, "\"iodepth_level\":\t{\n\t\t\t\t\"1\":\t75.000000,"));
	ck_assert_ptr_nonnull(strstr(text, "\"32\":\t0.000000"));
	cJSON_Delete(doc);
	free(text);
	free(r);
}
END_TEST

START_TEST(test_json_types_and_bins)
{
	struct spec s[2];
	struct result *r = calloc(2, sizeof(*r));
	struct json_job info[2] = {{.spec = &s[0], .elapsed_s = 2.4, .ctx = 7},
				   {.spec = &s[1], .elapsed_s = 1}};
	char err[128];

	spec_init(&s[0]);
	spec_init(&s[1]);
	ck_assert_int_eq(opt_set(&s[0], "filename", "/dev/x", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s[1], "filename", "/dev/x", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s[1], "rw", "randwrite", err, sizeof(err)), 0);
	/* job 0 measures slat (asked), job 1 does not (nvscope's default) */
	ck_assert_int_eq(opt_set(&s[0], "disable_slat", "0", err, sizeof(err)), 0);
	for (int j = 0; j < 2; j++) {
		result_init(&r[j]);
		snprintf(r[j].name, sizeof(r[j].name), "j%d", j);
		r[j].iodepth = 4;
		r[j].numjobs = 1;
		r[j].runtime_s = 2.0;
	}
	/* 3 I/Os of 4k at 1500 ns, one at 3 ms */
	for (int i = 0; i < 3; i++) {
		hist_add(&r[0].dir[0].lat, 1500);
		hist_add(&r[0].dir[0].clat, 1000); /* + 500 ns of slat each */
		hist_add(&r[0].dir[0].slat, 500);
	}
	hist_add(&r[0].dir[0].lat, 3000000);
	hist_add(&r[0].dir[0].clat, 2999000);
	hist_add(&r[0].dir[0].slat, 1000);
	r[0].dir[0].ios = 4;
	r[0].dir[0].bytes = 4 * 4096;
	struct json_run run = {.spec = &s[0], .jobs = r, .njobs = 2, .info = info, .plus = true};
	char *text = render(&run);
	cJSON *doc = cJSON_Parse(text);
	ck_assert_ptr_nonnull(doc);
	cJSON *j0 = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "jobs"), 0);
	cJSON *j1 = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "jobs"), 1);
	cJSON *rd = cJSON_GetObjectItem(j0, "read");
	/* integers print without a fraction, floats with one (fio's types) */
	ck_assert_ptr_nonnull(strstr(text, "\"bw\":\t8,\n"));	    /* 16384 B / 2 s = 8 KiB/s */
	ck_assert_ptr_nonnull(strstr(text, "\"iops\":\t2.000000")); /* a float, as fio */
	ck_assert_ptr_nonnull(strstr(text, "\"runtime\":\t2000,\n"));
	ck_assert_ptr_nonnull(strstr(text, "\"timestamp_ms\""));
	ck_assert_int_eq(cJSON_GetObjectItem(j0, "elapsed")->valueint, 2);
	ck_assert_int_eq(cJSON_GetObjectItem(j0, "ctx")->valueint, 7);
	/* bins: keyed by fio's bin value, counts */
	cJSON *bins = cJSON_GetObjectItem(cJSON_GetObjectItem(rd, "clat_ns"), "bins");
	ck_assert_ptr_nonnull(bins);
	char key[32];
	snprintf(key, sizeof(key), "%llu", fio_plat_idx_to_val(hist_index(1000)));
	ck_assert_int_eq(cJSON_GetObjectItem(bins, key)->valueint, 3);
	ck_assert_int_eq(cJSON_GetArraySize(bins), 2);
	/* slat_ns: its own figures, fio's keys (no percentiles by default) */
	cJSON *sl = cJSON_GetObjectItem(rd, "slat_ns");
	ck_assert_int_eq(cJSON_GetObjectItem(sl, "N")->valueint, 4);
	ck_assert_int_eq(cJSON_GetObjectItem(sl, "max")->valueint, 1000);
	ck_assert_double_eq_tol(cJSON_GetObjectItem(sl, "mean")->valuedouble, 625, 1e-6);
	ck_assert_ptr_null(cJSON_GetObjectItem(sl, "percentile"));
	ck_assert_int_eq(cJSON_GetArraySize(sl), 5);
	/* not measured: listed, and slat_ns is fio's disable_slat=1 layout */
	cJSON *nm0 = cJSON_GetObjectItem(cJSON_GetObjectItem(j0, "nvscope"), "not_measured");
	cJSON *nm1 = cJSON_GetObjectItem(cJSON_GetObjectItem(j1, "nvscope"), "not_measured");
	ck_assert_int_eq(cJSON_GetArraySize(nm0), 0);
	ck_assert_int_eq(cJSON_GetArraySize(nm1), 1);
	ck_assert_str_eq(cJSON_GetArrayItem(nm1, 0)->valuestring, "slat");
	cJSON *sl1 = cJSON_GetObjectItem(cJSON_GetObjectItem(j1, "read"), "slat_ns");
	ck_assert_int_eq(cJSON_GetArraySize(sl1), 5);
	ck_assert_int_eq(cJSON_GetObjectItem(sl1, "N")->valueint, 0);
	/* fio's types as printed: min, max, N integers, mean, stddev floats */
	const char *t1 = strstr(strstr(text, "\"jobname\":\t\"j1\""), "\"slat_ns\"");
	const char *t1end = strstr(t1, "}");
	ck_assert_ptr_nonnull(t1end);
	char sl1txt[256];
	snprintf(sl1txt, sizeof(sl1txt), "%.*s", (int)(t1end - t1), t1);
	ck_assert_msg(strstr(sl1txt, "\"mean\":\t0.000000,") &&
			  strstr(sl1txt, "\"stddev\":\t0.000000,") &&
			  strstr(sl1txt, "\"min\":\t0,") && strstr(sl1txt, "\"N\":\t0"),
		      "%s", sl1txt);
	ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(rd, "clat_ns"), "max")->valueint,
			 2999000);
	ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(rd, "lat_ns"), "max")->valueint,
			 3000000);
	/* lat_ns has no bins (fio: only clat unless lat_percentiles) */
	ck_assert_ptr_null(cJSON_GetObjectItem(cJSON_GetObjectItem(rd, "lat_ns"), "bins"));
	/* latency tables: 3 of 4 in [1, 2) us, 1 in [2, 4) ms */
	ck_assert_double_eq_tol(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(j0, "latency_us"), "2")->valuedouble, 75, 1e-6);
	ck_assert_double_eq_tol(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(j0, "latency_ms"), "4")->valuedouble, 25, 1e-6);
	ck_assert_ptr_nonnull(cJSON_GetObjectItem(cJSON_GetObjectItem(j0, "latency_ms"), ">=2000"));
	/* each job its own rw; global options never contradict a job */
	ck_assert_str_eq(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(j0, "job options"), "rw")->valuestring,
	    "randread");
	ck_assert_str_eq(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(j1, "job options"), "rw")->valuestring,
	    "randwrite");
	cJSON *g = cJSON_GetObjectItem(doc, "global options");
	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_null(cJSON_GetObjectItem(g, "rw"));
	ck_assert_str_eq(cJSON_GetObjectItem(g, "bs")->valuestring, "4k");
	cJSON_Delete(doc);
	free(text);
	/* slat_percentiles=1: slat_ns gets fio's percentiles, and bins in json+ */
	ck_assert_int_eq(opt_set(&s[0], "slat_percentiles", "1", err, sizeof(err)), 0);
	text = render(&run);
	doc = cJSON_Parse(text);
	sl = cJSON_GetObjectItem(
	    cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "jobs"), 0), "read"),
	    "slat_ns");
	ck_assert_int_eq(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(sl, "percentile"), "50.000000")->valueint,
	    (int)hist_bucket_value(hist_index(500)));
	ck_assert_ptr_nonnull(cJSON_GetObjectItem(sl, "bins"));
	cJSON_Delete(doc);
	free(text);
	free(r);
}
END_TEST

START_TEST(test_diskstat_parse)
{
	struct diskstat a, b, d;
	const char *l0 = "  100 2 800 50 10 0 80 5 0 40 55 0 0 0 0\n";
	const char *l1 = "  300 2 2400 150 10 0 80 5 1 540 155 0 0 0 0\n";

	ck_assert_int_eq(diskstat_parse(l0, &a), 0);
	ck_assert_int_eq(diskstat_parse(l1, &b), 0);
	diskstat_delta(&a, &b, 1000, &d);
	ck_assert_uint_eq(d.ios[0], 200);
	ck_assert_uint_eq(d.ios[1], 0);
	ck_assert_uint_eq(d.ticks[0], 100);
	ck_assert_uint_eq(d.io_ticks, 500);
	ck_assert_double_eq_tol(diskstat_util(&d), 50, 1e-9);
	ck_assert_int_eq(diskstat_parse("1 2 3", &a), -EINVAL);
	ck_assert_int_eq(diskstat_read("/dev/null", &a), -ENOTBLK);
}
END_TEST

START_TEST(test_log_options)
{
	struct spec s;
	char err[256], longname[400];

	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "name", "myjob", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "write_iops_log", "pfx", err, sizeof(err)), 0);
	ck_assert_str_eq(s.log_iops, "pfx");
	ck_assert_int_eq(opt_set(&s, "write_lat_log", NULL, err, sizeof(err)), 0);
	ck_assert_str_eq(s.log_lat, "myjob"); /* fio: the job's name */
	/* a bare log in [global] follows the section's name (fio names it
	 * after each job); a given name stays */
	ck_assert_int_eq(opt_set(&s, "name", "second", err, sizeof(err)), 0);
	ck_assert_str_eq(s.log_lat, "second");
	ck_assert_str_eq(s.log_iops, "pfx");
	ck_assert_int_eq(opt_set(&s, "write_bw_log", "0", err, sizeof(err)), 0);
	ck_assert_str_eq(s.log_bw, "");
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	ck_assert_int_eq(opt_set(&s, "write_bw_log", longname, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "log_avg_msec", "0", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "log_max_value", "0", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "log_max_value", "1", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "mean"));
	ck_assert_int_eq(opt_set(&s, "log_max_value", "x", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "log_offset", "1", err, sizeof(err)), 0);
	ck_assert(s.log_offset);
	ck_assert_int_eq(opt_set(&s, "log_offset", "2", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "log_offset", "0", err, sizeof(err)), 0);
	ck_assert(!s.log_offset);
	ck_assert_int_eq(opt_set(&s, "filename", "/dev/x", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "write_hist_log", "h", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "log_hist_msec", "500", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), -EINVAL); /* interval is 1 s */
	ck_assert_int_eq(opt_set(&s, "log_avg_msec", "500", err, sizeof(err)), 0);
	ck_assert_int_eq(spec_validate(&s, err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_create_refuses_links_and_devices)
{
	char dir[] = "/tmp/nvs-fioout.XXXXXX", path[128], link[128];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.log", dir);
	snprintf(link, sizeof(link), "%s/l.log", dir);
	f = fiolog_create(path);
	ck_assert_ptr_nonnull(f);
	fputs("old contents\n", f);
	fclose(f);
	f = fiolog_create(path); /* truncates a regular file */
	ck_assert_ptr_nonnull(f);
	fclose(f);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_size, 0);
	ck_assert_int_eq(symlink(path, link), 0);
	errno = 0;
	ck_assert_ptr_null(fiolog_create(link));	/* a planted symlink */
	ck_assert_int_eq(errno, EPERM);			/* the safety module refuses it */
	ck_assert_ptr_null(fiolog_create("/dev/null")); /* not a regular file */
	ck_assert_int_eq(errno, EPERM);
	unlink(link);
	unlink(path);
	rmdir(dir);
}
END_TEST

/* write_lat_log's three files from synthetic rows: _lat holds lat, _slat
 * slat and _clat lat - slat; copies named by fio's thread_number, or one
 * file for per_job_logs=0 holding every copy's lines. */
static long long log_value(const char *path, unsigned line)
{
	char buf[128];
	long long t, v = -1;
	FILE *f = fopen(path, "r");

	for (unsigned i = 0; f && i <= line && fgets(buf, sizeof(buf), f); i++)
		if (i == line && sscanf(buf, "%lld, %lld", &t, &v) != 2)
			v = -1;
	if (f)
		fclose(f);
	return v;
}

static unsigned log_lines(const char *path)
{
	char buf[128];
	unsigned n = 0;
	FILE *f = fopen(path, "r");

	while (f && fgets(buf, sizeof(buf), f))
		n++;
	if (f)
		fclose(f);
	return n;
}

START_TEST(test_lat_logs)
{
	char dir[] = "/tmp/nvs-fiolog-XXXXXX", err[256], p[512];
	struct spec jobs[2];
	struct point pt[2] = {{.t = 1, .dt = 1}, {.t = 2, .dt = 1}};
	struct series a = {.pt = &pt[0], .n = 1}, b = {.pt = &pt[1], .n = 1};
	const struct series *ser[] = {&a, &b};

	ck_assert_ptr_nonnull(mkdtemp(dir));
	pt[0].iops[NVS_READ] = 100;
	pt[0].lat_mean_us[NVS_READ] = 50.0f;
	pt[0].slat_mean_us[NVS_READ] = 2.5f;
	pt[1].iops[NVS_READ] = 100;
	pt[1].lat_mean_us[NVS_READ] = 40.0f;
	pt[1].slat_mean_us[NVS_READ] = 4.0f;
	for (int j = 0; j < 2; j++) {
		spec_init(&jobs[j]);
		ck_assert_int_eq(opt_set(&jobs[j], "name", j ? "b" : "a", err, sizeof(err)), 0);
		ck_assert_int_eq(opt_set(&jobs[j], "write_lat_log", NULL, err, sizeof(err)), 0);
		ck_assert_int_eq(opt_set(&jobs[j], "numjobs", j ? "2" : "3", err, sizeof(err)), 0);
		/* slat measured (as a fio job file's): the _slat log too */
		ck_assert_int_eq(opt_set(&jobs[j], "disable_slat", "0", err, sizeof(err)), 0);
	}
	ck_assert_uint_eq(fiolog_thread(jobs, 0), 1);
	ck_assert_uint_eq(fiolog_thread(jobs, 1), 4); /* after a's three copies */
	ck_assert_int_eq(fiolog_write(&jobs[1], ser, 2, 4, dir, "", err, sizeof(err)), 0);
	snprintf(p, sizeof(p), "%s/b_lat.4.log", dir);
	ck_assert_int_eq(log_value(p, 0), 50000);
	snprintf(p, sizeof(p), "%s/b_slat.4.log", dir);
	ck_assert_int_eq(log_value(p, 0), 2500);
	snprintf(p, sizeof(p), "%s/b_clat.4.log", dir);
	ck_assert_int_eq(log_value(p, 0), 47500);
	snprintf(p, sizeof(p), "%s/b_clat.5.log", dir);
	ck_assert_int_eq(log_value(p, 0), 36000);
	ck_assert_uint_eq(log_lines(p), 1);
	ck_assert_int_eq(opt_set(&jobs[1], "per_job_logs", "0", err, sizeof(err)), 0);
	ck_assert_int_eq(fiolog_write(&jobs[1], ser, 2, 4, dir, "", err, sizeof(err)), 0);
	snprintf(p, sizeof(p), "%s/b_slat.log", dir);
	ck_assert_uint_eq(log_lines(p), 2); /* both copies, one after the other */
	ck_assert_int_eq(log_value(p, 1), 4000);
	/* slat not measured (nvscope's default): no _slat log, as fio's
	 * disable_slat=1; _clat is still lat less lat's part before clat */
	ck_assert_int_eq(opt_set(&jobs[1], "disable_slat", "1", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&jobs[1], "name", "c", err, sizeof(err)), 0);
	ck_assert_int_eq(fiolog_write(&jobs[1], ser, 2, 4, dir, "", err, sizeof(err)), 0);
	snprintf(p, sizeof(p), "%s/c_slat.log", dir);
	ck_assert_int_eq(access(p, F_OK), -1);
	snprintf(p, sizeof(p), "%s/c_clat.log", dir);
	ck_assert_int_eq(log_value(p, 1), 36000);
	const char *names[] = {"b_lat.4.log",  "b_slat.4.log", "b_clat.4.log", "b_lat.5.log",
			       "b_slat.5.log", "b_clat.5.log", "b_lat.log",    "b_slat.log",
			       "b_clat.log",   "c_lat.log",    "c_clat.log"};
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		ck_assert_int_eq(unlink(p), 0);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

Suite *fioout_suite(void)
{
	Suite *s = suite_create("fioout");
	TCase *tc = tcase_create("fioout");
	tcase_add_test(tc, test_bins_are_fios);
	tcase_add_test(tc, test_depth_buckets_are_fios);
	tcase_add_test(tc, test_depth_pct_and_json);
	tcase_add_test(tc, test_json_types_and_bins);
	tcase_add_test(tc, test_diskstat_parse);
	tcase_add_test(tc, test_log_options);
	tcase_add_test(tc, test_lat_logs);
	tcase_add_test(tc, test_create_refuses_links_and_devices);
	suite_add_tcase(s, tc);
	return s;
}

/* test_report.c - the SVG chart writer (nice ticks, log axes, series, band,
 * no-data frame, escaping, marks) and the HTML report on a constructed
 * results directory (sections by step kind, side-by-side drives, bad
 * input, the QoS columns and exceedance marks), and the QoS reader of json+
 * bins (qos.c: the percentiles of the rebuilt histogram are the recorded
 * one's; hostile bins refused), the per-drive tables (drives.c) on
 * constructed and hostile per-target JSON, and the IO consistency zoom's
 * start (conshtml.c). */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <inttypes.h>
#include <cjson/cJSON.h>
#include "report/chartpub.h"
#include "report/conshtml.h"
#include "report/drives.h"
#include "report/heat.h"
#include "report/html.h"
#include "report/qos.h"
#include "report/rtable.h"
#include "report/svg.h"

static char *render(const struct svg_chart *c, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	*rc = svg_chart(f, c);
	fclose(f);
	return buf;
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

START_TEST(test_nice_step)
{
	ck_assert_double_eq(svg_nice_step(100, 5), 20);
	ck_assert_double_eq(svg_nice_step(1, 5), 0.2);
	ck_assert_double_eq(svg_nice_step(73, 5), 10); /* 14.6 rounds to 10 */
	ck_assert_double_eq(svg_nice_step(80, 5), 20);
	ck_assert_double_eq(svg_nice_step(9000, 5), 2000);
	ck_assert_double_eq(svg_nice_step(0.03, 5), 0.005);
	ck_assert_double_eq(svg_nice_step(0, 5), 1);
	ck_assert_double_eq(svg_nice_step(NAN, 5), 1);
}
END_TEST

START_TEST(test_chart)
{
	double x[] = {1, 2, 4, 8}, y[] = {100, 200, 380, NAN}, y2[] = {1, 2, 3, 4};
	struct svg_series s[2] = {
	    {.name = "a<b", .x = x, .y = y, .n = 4, .color = "#123456"},
	    {.name = "lat",
	     .x = x,
	     .y = y2,
	     .n = 4,
	     .color = "#654321",
	     .right = true,
	     .dots = true},
	};
	struct svg_chart c = {.id = "t",
			      .title = "T & U",
			      .xlabel = "QD",
			      .ylabel = "IOPS",
			      .y2label = "ms",
			      .xlog = true,
			      .series = s,
			      .nseries = 2,
			      .band = true,
			      .band_x0 = 2,
			      .band_x1 = 4,
			      .band_label = "window"};
	int rc;
	char *out = render(&c, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert(strstr(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart chart-t\""));
	ck_assert(strstr(out, "T &amp; U"));
	ck_assert(strstr(out, "a&lt;b"));
	ck_assert(strstr(out, "class=\"band\""));
	ck_assert(strstr(out, ">window<"));
	ck_assert_uint_eq(count(out, "class=\"line\""), 1);
	ck_assert_uint_eq(count(out, "class=\"dots\""), 1);
	/* the NaN point is skipped: three circles on the line series */
	ck_assert_uint_eq(count(out, "<circle"), 3);
	/* log X axis ticks at 1 and 10 */
	ck_assert(strstr(out, ">1</text>") && strstr(out, ">10</text>"));
	ck_assert(strstr(out, "</svg>"));
	free(out);
}
END_TEST

START_TEST(test_no_data)
{
	double x[] = {NAN}, y[] = {1};
	struct svg_series s = {.x = x, .y = y, .n = 1};
	struct svg_chart c = {.series = &s, .nseries = 1};
	int rc;
	char *out = render(&c, &rc);
	ck_assert_int_eq(rc, -EINVAL);
	ck_assert(strstr(out, "no data"));
	ck_assert(strstr(out, "</svg>"));
	free(out);
}
END_TEST

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* A results directory with one measure step and one grid step. */
static void make_dir(const char *d, double scale)
{
	char sub[512], buf[1024];
	mkdir(d, 0755);
	put(d, "meta.json",
	    "{\"plan\":\"t\",\"description\":\"test\",\"targets\":[\"/dev/x\"],\"status\":\"done\","
	    "\"nvscope_version\":\"0\",\"steps\":[\"01-measure-r\",\"02-grid-g\"]}");
	put(d, "device-before.json",
	    "{\"targets\":[{\"path\":\"/dev/x\",\"kind\":\"block\","
	    "\"model\":\"Drive <X>\"}]}");
	snprintf(sub, sizeof(sub), "%s/01-measure-r", d);
	mkdir(sub, 0755);
	put(sub, "step.json",
	    "{\"kind\":\"measure\",\"rw\":\"randread\",\"bs\":\"4k\",\"numjobs\":1}");
	snprintf(buf, sizeof(buf),
		 "qd,iops,read_iops,write_iops,mbps,lat_mean_us,lat_p99_us,lat_max_us,cpu_pct\n"
		 "1,%g,0,0,1,10,20,30,5\n4,%g,0,0,4,12,25,40,9\n",
		 1000 * scale, 3500 * scale);
	put(sub, "qd.csv", buf);
	/* 150 I/Os: 100 at 10 us, 48 at 20 us, 2 at 1000 us (bucket values) */
	put(sub, "qd1.json",
	    "{\"jobs\":[{\"read\":{\"lat_ns\":{\"min\":10000,\"max\":1003520,\"N\":150,"
	    "\"bins\":{\"10048\":100,\"20096\":48,\"1003520\":2}}},"
	    "\"write\":{\"lat_ns\":{\"N\":0}}}]}");
	snprintf(sub, sizeof(sub), "%s/02-grid-g", d);
	mkdir(sub, 0755);
	put(sub, "step.json",
	    "{\"kind\":\"grid\",\"rw\":\"randread\",\"bs\":\"4k\",\"numjobs\":1}");
	put(sub, "grid.csv",
	    "threads,qd,iops,read_iops,write_iops,mbps,lat_mean_us,lat_p99_us,lat_max_us,cpu_pct\n"
	    "1,1,111,0,0,1,1,1,1,1\n1,2,122,0,0,1,1,1,1,1\n2,1,211,0,0,1,1,1,1,1\n"
	    "2,2,222,0,0,1,1,1,1,1\n");
}

START_TEST(test_html)
{
	char tmpl[] = "/tmp/nvs-report-XXXXXX", a[600], b[600], err[512];
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	snprintf(a, sizeof(a), "%s/a", tmpl);
	snprintf(b, sizeof(b), "%s/b", tmpl);
	make_dir(a, 1);
	make_dir(b, 2);
	const char *dirs[] = {a, b};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(html_write_report(f, dirs, 2, err, sizeof(err)), 0);
	fclose(f);
	ck_assert(strstr(buf, "<!DOCTYPE html>"));
	ck_assert(strstr(buf, "Drive &lt;X&gt;"));
	ck_assert_uint_eq(count(buf, "chart-qd-iops\""), 1);
	ck_assert_uint_eq(count(buf, "chart-qd-latency\""), 1);
	/* one series per drive on the overlaid QD chart */
	const char *qd = strstr(buf, "chart-qd-iops\"");
	const char *end = strstr(qd, "</svg>");
	unsigned lines = 0;
	for (const char *p = qd; (p = strstr(p, "class=\"line\"")) && p < end; p++)
		lines++;
	ck_assert_uint_eq(lines, 2);
	ck_assert(strstr(buf, "<td>3500</td>") && strstr(buf, "<td>7000</td>"));
	/* the grid as a threads x QD table, per drive */
	ck_assert_uint_eq(count(buf, "<table class=\"grid\""), 2);
	ck_assert(strstr(buf, "<th>T2</th><td>211</td><td>222</td>"));
	ck_assert(!strstr(buf, "<script"));
	/* QoS: QD1 has a histogram of 150 I/Os: p50 and p99 marked with
	 * their bucket values, p99.9 and beyond n/a; QD4 has none */
	ck_assert_uint_eq(count(buf, "chart-qos-exceedance\""), 2);
	ck_assert(strstr(buf, "data-series=\"QD1\" data-mark=\"p50\" data-value=\"10048\""));
	ck_assert(strstr(buf, "data-series=\"QD1\" data-mark=\"p99\" data-value=\"1003520\""));
	ck_assert(!strstr(buf, "data-mark=\"p99.9\""));
	ck_assert(strstr(buf, "title=\"150 I/Os; p99.9 needs 1000\">n/a</td>"));
	ck_assert(strstr(buf, "no latency histogram (json+ bins) for this row"));
	ck_assert_uint_eq(count(buf, "chart-qos-histogram\""), 2);
	free(buf);

	/* a directory that is not a results directory */
	const char *bad[] = {tmpl};
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(html_write_report(f, bad, 1, err, sizeof(err)), -ENOENT);
	fclose(f);
	free(buf);
	ck_assert(strstr(err, "meta.json"));
	ck_assert_int_eq(html_write_report(stdout, dirs, 0, err, sizeof(err)), -EINVAL);

	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The X coordinates of the path of class "line" with data-series @key in
 * the chart of class @chart of @page, in drawing order; their count. */
static unsigned path_xs(const char *page, const char *chart, const char *key, double *x,
			unsigned max)
{
	char want[160];
	const char *c = strstr(page, chart), *end = c ? strstr(c, "</svg>") : NULL, *p;
	snprintf(want, sizeof(want), "class=\"line\" data-series=\"%s\"", key);
	if (!c || !(p = strstr(c, want)) || p > end || !(p = strstr(p, " d=\"")))
		return 0;
	unsigned n = 0;
	for (p += 4; (*p == 'M' || *p == 'L') && n < max; n++) {
		char *e;
		x[n] = strtod(p + 1, &e);
		p = e + strspn(e, " ");
		strtod(p, &e);
		p = e;
	}
	return n;
}

/* A 64K 70/30 rate curve whose 75% point fell short (achieved 400 of 750
 * IOPS, less than the 50% point's 500): charted in MB/s, read and write
 * apart, the line in order of the achieved rate (no zig-zag), the dip a
 * point under the requested line of its own chart; the split table from
 * each row's JSON, p99 n/a under 100 I/Os. */
START_TEST(test_rate_mixed)
{
	char tmpl[] = "/tmp/nvs-report-XXXXXX", sub[600], err[512], name[64], js[512];
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	put(tmpl, "meta.json",
	    "{\"plan\":\"t\",\"description\":\"t\",\"targets\":[\"/dev/x\"],\"status\":\"done\","
	    "\"nvscope_version\":\"0\",\"steps\":[\"01-rate-curve-r\"]}");
	snprintf(sub, sizeof(sub), "%s/01-rate-curve-r", tmpl);
	mkdir(sub, 0755);
	put(sub, "step.json",
	    "{\"kind\":\"rate-curve\",\"rw\":\"randrw\",\"bs\":\"64k\",\"numjobs\":1}");
	put(sub, "rate.csv",
	    "point,target_iops,iops,read_iops,write_iops,mbps,lat_mean_us,lat_p99_us,lat_max_us,"
	    "cpu_pct\nmax,0,1000,700,300,65.5,50,90,99,1\n25,250,250,175,75,16.4,10,20,30,1\n"
	    "50,500,500,350,150,32.8,20,30,40,1\n75,750,400,280,120,26.2,40,60,80,1\n"
	    "100,1000,900,630,270,59.0,30,50,70,1\n");
	static const unsigned pcts[] = {25, 50, 75, 100};
	for (unsigned i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "pct%u.json", pcts[i]);
		snprintf(js, sizeof(js),
			 "{\"jobs\":[{\"read\":{\"iops\":%u,\"lat_ns\":{\"N\":150,\"mean\":%u,"
			 "\"percentile\":{\"99.000000\":%u}}},\"write\":{\"iops\":%u,\"lat_ns\":"
			 "{\"N\":50,\"mean\":%u,\"percentile\":{\"99.000000\":9}}}}]}",
			 100 + i, 1000 * (i + 1), 5000 * (i + 1), 10 + i, 7000 * (i + 1));
		put(sub, name, js);
	}
	const char *dirs[] = {tmpl};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(html_write_report(f, dirs, 1, err, sizeof(err)), 0);
	fclose(f);
	/* latency vs MB/s, read and write apart, in order of the achieved rate */
	char key[160];
	double x[16];
	ck_assert(strstr(buf, ">MB/s (achieved)<"));
	ck_assert(strstr(buf, "mean latency vs MB/s (read and write apart)"));
	/* the label is the directory's name (its target in parentheses) */
	const char *ds = strstr(strstr(buf, "chart-rate-curve\""), "data-series=\"");
	ck_assert_ptr_nonnull(ds);
	ds += strlen("data-series=\"");
	size_t kl = strcspn(ds, "\"");
	ck_assert(kl > 5 && kl < sizeof(key));
	memcpy(key, ds, kl);
	key[kl] = '\0';
	ck_assert(!strcmp(key + kl - 5, " read"));
	ck_assert_uint_eq(path_xs(buf, "chart-rate-curve\"", key, x, 16), 4); /* max: tables */
	for (unsigned i = 1; i < 4; i++)
		ck_assert_msg(x[i] > x[i - 1], "zig-zag at %u: %g after %g", i, x[i], x[i - 1]);
	strcpy(key + kl - 5, " write");
	ck_assert(strstr(buf, "stroke-dasharray=\"6 4\"")); /* write dashed */
	ck_assert_uint_eq(path_xs(buf, "chart-rate-curve\"", key, x, 16), 4);
	/* 50 writes per point support no p99: no point, never a guess */
	ck_assert_uint_eq(path_xs(buf, "chart-rate-curve-p99\"", key, x, 16), 0);
	/* achieved vs requested: in order of the request, the dip under the line */
	key[kl - 5] = '\0';
	ck_assert_uint_eq(path_xs(buf, "chart-rate-achieved\"", key, x, 16), 4);
	for (unsigned i = 1; i < 4; i++)
		ck_assert(x[i] > x[i - 1]);
	ck_assert_uint_eq(path_xs(buf, "chart-rate-achieved\"", "requested", x, 16), 2);
	/* the split table: each row's JSON, p99 n/a under 100 I/Os */
	ck_assert(strstr(buf, "<table class=\"rwsplit\">"));
	ck_assert(strstr(buf, "<td>75%</td><td>102</td><td>3.0</td><td>15.0</td><td>12</td>"
			      "<td>21.0</td><td class=\"na\">n/a</td></tr>"));
	ck_assert(strstr(buf, "<td>max</td><td class=\"na\">n/a</td>")); /* no max.json */
	free(buf);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* The test bed card of an NVMe drive whose link trained below its maximum,
 * with its health before and after, beside a loop device (no link, no
 * health log) and a drive of results written before nvscope recorded
 * either. */
START_TEST(test_testbed_page)
{
	char tmpl[] = "/tmp/nvs-report-XXXXXX", sub[600], err[512];
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	put(tmpl, "meta.json",
	    "{\"plan\":\"t\",\"description\":\"t\",\"targets\":[\"/dev/nvme0n1\"],"
	    "\"status\":\"done\",\"nvscope_version\":\"0\",\"steps\":[\"01-measure-r\"],"
	    "\"testbed\":{\"drives\":[{\"path\":\"/dev/nvme0n1\",\"kind\":\"nvme\","
	    "\"pcie_link\":{\"speed_gts\":8,\"width\":2,\"max_speed_gts\":16,\"max_width\":4},"
	    "\"health_before\":{\"temperature_c\":40,\"percentage_used\":3,"
	    "\"available_spare\":100,\"media_errors\":0,\"critical_warning\":0,"
	    "\"data_units_written\":1000000},\"health_after\":{\"temperature_c\":52,"
	    "\"percentage_used\":3,\"available_spare\":100,\"media_errors\":0,"
	    "\"critical_warning\":4,\"data_units_written\":null}},"
	    "{\"path\":\"/dev/nvme1n1\",\"kind\":\"nvme\",\"pcie_link\":{\"speed_gts\":16,"
	    "\"width\":4,\"max_speed_gts\":16,\"max_width\":4},\"health_before\":{},"
	    "\"health_after\":null},"
	    "{\"path\":\"/dev/loop7\",\"kind\":\"block\",\"pcie_link\":null,"
	    "\"health_before\":null,\"health_after\":null},{\"path\":\"/"
	    "old\",\"kind\":\"file\"}]}}");
	snprintf(sub, sizeof(sub), "%s/01-measure-r", tmpl);
	mkdir(sub, 0755);
	put(sub, "step.json", "{\"kind\":\"measure\",\"rw\":\"randread\",\"bs\":\"4k\"}");
	const char *dirs[] = {tmpl};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(html_write_report(f, dirs, 1, err, sizeof(err)), 0);
	fclose(f);
	ck_assert(strstr(buf, "<td class=\"l link warn\">PCIe 3.0 x2 (8 GT/s), below its max PCIe "
			      "4.0 x4</td>"));
	ck_assert(strstr(buf, "<td class=\"l link\">PCIe 4.0 x4 (16 GT/s)</td>"));
	ck_assert_uint_eq(count(buf, "<td class=\"l na\">not PCIe</td>"), 1);
	ck_assert_uint_eq(count(buf, "<td class=\"l na\">not recorded</td>"), 1);
	/* before -> after: temperature, % used, spare, errors, warning, TB */
	ck_assert(strstr(buf, "<td class=\"l\">/dev/nvme0n1</td><td>40 &rarr; 52</td><td>3 &rarr; "
			      "3</td><td>100 &rarr; 100</td><td>0 &rarr; 0</td><td>0x00 &rarr; "
			      "0x04</td><td>0.512 &rarr; <span class=\"na\">n/a</span></td></tr>"));
	ck_assert(strstr(buf, "<td><span class=\"na\">n/a</span> &rarr; <span class=\"na\" "
			      "title=\"read when a run ends well\">not read</span></td>"));
	ck_assert(strstr(buf, "<td class=\"l\">/dev/loop7</td><td class=\"l na\" "
			      "colspan=\"6\">not NVMe</td>"));
	ck_assert(strstr(buf, "<td class=\"l\">/old</td><td class=\"l na\" colspan=\"6\">not "
			      "recorded</td>"));
	free(buf);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static cJSON *bins_json(const struct hist *h, const char *dir)
{
	cJSON *job = cJSON_CreateObject(), *lat = cJSON_CreateObject(), *b;
	cJSON_AddItemToObject(cJSON_AddObjectToObject(job, dir), "lat_ns", lat);
	cJSON_AddNumberToObject(lat, "min", (double)h->min);
	cJSON_AddNumberToObject(lat, "max", (double)h->max);
	cJSON_AddNumberToObject(lat, "N", (double)h->n);
	b = cJSON_AddObjectToObject(lat, "bins");
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		char key[32];
		if (!h->bucket[i])
			continue;
		snprintf(key, sizeof(key), "%" PRIu64, hist_bucket_value(i));
		cJSON_AddNumberToObject(b, key, (double)h->bucket[i]);
	}
	return job;
}

START_TEST(test_qos)
{
	static struct hist ref, h;
	static double x[2 * HIST_NBUCKETS], y[2 * HIST_NBUCKETS];
	hist_init(&ref);
	for (uint64_t i = 0; i < 200000; i++)
		hist_add(&ref, 1000 + (i * 7919) % 90000 + (i % 5000 == 0 ? 3000000 : 0));
	cJSON *job = bins_json(&ref, "write");
	ck_assert_int_eq(qos_job_hist(job, &h), 0);
	ck_assert_uint_eq(h.n, ref.n);
	ck_assert_uint_eq(h.min, ref.min);
	ck_assert_uint_eq(h.max, ref.max);
	for (unsigned l = 0; l < QOS_NLEVELS; l++) {
		uint64_t ns = 0;
		bool ok = qos_value(&h, qos_levels[l].pct, qos_levels[l].min_ios, &ns);
		ck_assert(ok == (l < 5)); /* 200,000 I/Os: p99.9999 needs 10^6 */
		if (ok)
			ck_assert_uint_eq(ns, hist_percentile(&ref, qos_levels[l].pct));
	}
	size_t n = qos_exceedance(&h, x, y);
	ck_assert_uint_gt(n, 2);
	ck_assert_double_eq(y[0], 1);
	for (size_t i = 1; i < n; i++) {
		ck_assert(y[i] > 0 && y[i] <= y[i - 1]);
		ck_assert(x[i] >= x[i - 1] && x[i] <= (double)ref.max / 1000.0);
	}
	n = qos_histogram(&h, x, y);
	ck_assert_uint_le(n, QOS_HIST_MAX_POINTS);
	double sum = 0;
	for (size_t i = 1; i + 1 < n; i += 2)
		sum += y[i];
	ck_assert_double_eq_tol(sum, 100, 1e-9);

	/* hostile bins: refused, never half-read */
	cJSON *lat = cJSON_GetObjectItem(cJSON_GetObjectItem(job, "write"), "lat_ns");
	cJSON_ReplaceItemInObject(lat, "N", cJSON_CreateNumber((double)ref.n + 1));
	ck_assert_int_eq(qos_job_hist(job, &h), -EINVAL); /* not the full histogram */
	cJSON_ReplaceItemInObject(lat, "N", cJSON_CreateNumber(NAN));
	ck_assert_int_eq(qos_job_hist(job, &h), -EINVAL);
	cJSON_Delete(job);
	static const char *const bad[] = {
	    "{\"read\":{\"lat_ns\":{\"N\":1,\"bins\":{\"x\":1}}}}",
	    "{\"read\":{\"lat_ns\":{\"N\":1,\"bins\":{\"-5\":1}}}}",
	    "{\"read\":{\"lat_ns\":{\"N\":1,\"bins\":{\"5\":-1}}}}",
	    "{\"read\":{\"lat_ns\":{\"N\":1e300,\"bins\":{\"5\":1e300}}}}",
	    "{\"read\":{\"lat_ns\":{\"N\":1,\"bins\":{\"99999999999999999999\":1}}}}",
	    "{\"read\":{\"lat_ns\":{\"N\":1.5,\"bins\":{\"5\":1.5}}}}",
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		job = cJSON_Parse(bad[i]);
		ck_assert_ptr_nonnull(job);
		ck_assert_int_eq(qos_job_hist(job, &h), -EINVAL);
		cJSON_Delete(job);
	}
	job = cJSON_Parse("{\"read\":{\"lat_ns\":{\"N\":3,\"percentile\":{}}}}");
	ck_assert_int_eq(qos_job_hist(job, &h), -ENOENT); /* no bins: an older directory */
	cJSON_Delete(job);
	/* no exact min/max: no clamp, the bucket values themselves */
	job = cJSON_Parse("{\"read\":{\"lat_ns\":{\"N\":2,\"bins\":{\"5\":1,\"1003520\":1}}}}");
	ck_assert_int_eq(qos_job_hist(job, &h), 0);
	ck_assert_uint_eq(hist_percentile(&h, 100), 1003520);
	cJSON_Delete(job);
}
END_TEST

START_TEST(test_rtable)
{
	char path[] = "/tmp/nvs-rtab-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs("point,target_iops,iops\nmax,0,1000\n50,500,499.5\n\n100,1000,\n", f);
	fclose(f);
	struct rtab t;
	ck_assert_int_eq(rtab_read(path, &t), 0);
	ck_assert_uint_eq(t.ncols, 3);
	ck_assert_uint_eq(t.nrows, 3);
	ck_assert_str_eq(t.first[0], "max");
	ck_assert(isnan(rtab_get(&t, 0, "point")));
	ck_assert_double_eq(rtab_get(&t, 1, "iops"), 499.5);
	ck_assert(isnan(rtab_get(&t, 2, "iops"))); /* empty cell */
	ck_assert(isnan(rtab_get(&t, 1, "nope")));
	ck_assert(isnan(rtab_get(&t, 9, "iops")));
	ck_assert_int_eq(rtab_col(&t, "target_iops"), 1);
	double *c = rtab_column(&t, "target_iops");
	ck_assert_double_eq(c[2], 1000);
	free(c);
	rtab_free(&t);
	rtab_free(&t);
	unlink(path);
	ck_assert_int_eq(rtab_read("/nonexistent/x.csv", &t), -ENOENT);
	ck_assert_ptr_null(rtab_json("/nonexistent", NULL, "x.json"));
}
END_TEST

/* Found by tests/fuzz/csv.c: a header with no column names and more than
 * 64 rows grew the table with realloc(v, 0), which freed it, then freed it
 * again in rtab_free.  A table without columns is not a table. */
START_TEST(test_rtable_no_columns)
{
	char path[] = "/tmp/nvs-rtab-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs(",\n", f);
	for (int i = 0; i < 70; i++)
		fputs("1\n", f);
	fclose(f);
	struct rtab t;
	ck_assert_int_eq(rtab_read(path, &t), -EINVAL);
	ck_assert_uint_eq(t.nrows, 0);
	rtab_free(&t);
	f = fopen(path, "w");
	fputs("", f);
	fclose(f);
	ck_assert_int_eq(rtab_read(path, &t), -EINVAL); /* empty file */
	rtab_free(&t);
	unlink(path);
}
END_TEST

/* AnandTech zooms from t = 1400 s of a 2000 s run; a shorter run from 70%. */
START_TEST(test_zoom_start)
{
	ck_assert_double_eq(conshtml_zoom_start(2000), 1400);
	ck_assert_double_eq(conshtml_zoom_start(2400), 1400);
	ck_assert_double_eq_tol(conshtml_zoom_start(30), 21, 1e-9);
	ck_assert_double_eq_tol(conshtml_zoom_start(1999), 1399.3, 1e-9);
	ck_assert_double_eq(conshtml_zoom_start(0), 0);
	ck_assert_double_eq(conshtml_zoom_start(NAN), 0);
	ck_assert_double_eq(conshtml_zoom_start(-5), 0);
}
END_TEST

/* Per-drive rows: each target's share of the job's I/Os times the
 * aggregate, in the JSON's order, escaped; hostile entries neither crash
 * nor count as drives. */
START_TEST(test_drives)
{
	char tmpl[] = "/tmp/nvs-drives-XXXXXX", sub[600];
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	snprintf(sub, sizeof(sub), "%s/s", tmpl);
	mkdir(sub, 0755);
	put(sub, "qd.csv", "qd,iops\n1,300\n");
	put(sub, "qd1.json",
	    "{\"jobs\":[{\"read\":{\"iops\":300,\"bw_bytes\":1228800,\"total_ios\":300,"
	    "\"io_bytes\":1228800,\"lat_ns\":{\"N\":300,\"mean\":2000}},"
	    "\"nvscope\":{\"targets\":["
	    "{\"target\":\"/dev/a\",\"read\":{\"total_ios\":100,\"io_bytes\":409600,"
	    "\"lat_ns\":{\"N\":100,\"mean\":1000}}},"
	    "\"junk\",{\"target\":7,\"read\":{\"total_ios\":-5,\"io_bytes\":\"x\"}},"
	    "{\"target\":\"/dev/<b>\",\"read\":{\"total_ios\":200,\"io_bytes\":819200,"
	    "\"lat_ns\":{\"N\":200,\"mean\":2500}}}]}}]}");
	cJSON *meta = cJSON_Parse("{\"targets\":[\"/dev/a\",\"/dev/<b>\",\"/dev/c\"],"
				  "\"testbed\":{\"drives\":[{\"path\":\"/dev/a\","
				  "\"model\":\"M1\",\"serial\":\"S1\"}]}}");
	char path[700], *buf = NULL;
	size_t len = 0;
	struct rtab t;
	snprintf(path, sizeof(path), "%s/qd.csv", sub);
	ck_assert_int_eq(rtab_read(path, &t), 0);
	FILE *f = open_memstream(&buf, &len);
	drives_step(f, tmpl, "s", "measure", &t, meta, NULL, "d", 0);
	drives_targets_cell(f, meta, 0);
	fclose(f);
	ck_assert(strstr(buf, "<div class=\"per-drive\" id=\"per-drive-s-0\">"));
	ck_assert(strstr(buf, "QD1: 3 drives</summary>")); /* the junk string is none */
	ck_assert(strstr(buf, "<tr class=\"drive\"><td>1</td><td class=\"l\">/dev/a</td>"
			      "<td class=\"l\">M1</td><td class=\"l\">S1</td><td>100</td>"
			      "<td>100</td><td>0.4</td><td>1.0</td>"));
	ck_assert(strstr(buf, "<td>3</td><td class=\"l\">/dev/&lt;b&gt;</td>"));
	ck_assert(strstr(buf, "<td>200</td><td>200</td><td>0.8</td><td>2.5</td>"));
	ck_assert(strstr(buf, "66.7%</td></tr>") && strstr(buf, "33.3%</td></tr>"));
	ck_assert(strstr(buf, "<td>2</td><td class=\"l\">?</td>")); /* 0 I/Os, 0% */
	ck_assert(strstr(buf, "all 3 drives (aggregate)</td>"));
	ck_assert(strstr(buf, "<a href=\"#drives-0\">3 drives</a>"));
	ck_assert(!strstr(buf, "nan") && !strstr(buf, "<b>"));
	free(buf);
	rtab_free(&t);
	cJSON_Delete(meta);
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static char *heat_render(const struct heat_map *m, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	*rc = heat_svg(f, m);
	fclose(f);
	return buf;
}

/* The fill of the cell at threads @th, QD @q of @svg, into @out. */
static void heat_fill(const char *svg, const char *cell, char out[8])
{
	const char *p = strstr(svg, cell);
	ck_assert_msg(p, "no %s", cell);
	p = strstr(p, "fill=\"");
	ck_assert_ptr_nonnull(p);
	memcpy(out, p + 6, 7);
	out[7] = 0;
}

/* A built-up grid: 2 threads x 2 QDs with one missing cell (grey, hatched,
 * n/a), two equal cells (one colour), the best the bright end; a latency
 * map reversed; one cell alone; no cell with data. */
/* rtab_distinct counts every distinct value, also past what fits (the
 * grids refuse to draw a cut table); rtab_find2 finds a (threads, qd) row */
START_TEST(test_rtab_distinct)
{
	char path[] = "/tmp/nvs-rtab-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs("cell,threads,qd\na,1,1\nb,1,2\nc,2,1\nd,4,2\ne,2,2\nf,8,1\ng,,4\nh,8,2\n", f);
	fclose(f);
	struct rtab t;
	ck_assert_int_eq(rtab_read(path, &t), 0);
	unlink(path);
	double v[8];
	ck_assert_uint_eq(rtab_distinct(&t, "threads", v, 8), 4); /* the empty cell is no value */
	ck_assert(v[0] == 1 && v[1] == 2 && v[2] == 4 && v[3] == 8);
	ck_assert_uint_eq(rtab_distinct(&t, "threads", v, 2), 4); /* 2 kept, 4 counted */
	ck_assert(v[0] == 1 && v[1] == 2);
	ck_assert_uint_eq(rtab_distinct(&t, "qd", v, 1), 3);
	ck_assert_uint_eq(rtab_distinct(&t, "nope", v, 8), 0);
	ck_assert_uint_eq(rtab_find2(&t, "threads", 2, "qd", 2), 4);
	ck_assert_uint_eq(rtab_find2(&t, "threads", 4, "qd", 1), t.nrows);
	rtab_free(&t);
}
END_TEST

START_TEST(test_heat)
{
	char c[8], d[8];
	heat_color(0, c);
	ck_assert_str_eq(c, "#440154");
	heat_color(1, c);
	ck_assert_str_eq(c, "#fde725");
	heat_color(NAN, c);
	ck_assert_str_eq(c, "#440154");
	heat_color(7, c);
	ck_assert_str_eq(c, "#fde725");
	ck_assert_str_eq(heat_text_color("#440154"), "#fff");
	ck_assert_str_eq(heat_text_color("#fde725"), "#000");
	ck_assert_str_eq(heat_text_color("junk"), "#000");

	double th[] = {1, 2}, qd[] = {4, 32}, v[] = {100, NAN, 300, 300};
	struct heat_map m = {.id = "iops",
			     .title = "a <b>",
			     .what = "IOPS",
			     .rows = th,
			     .cols = qd,
			     .nrows = 2,
			     .ncols = 2,
			     .v = v,
			     .fmt = "%.0f"};
	int rc;
	char *out = heat_render(&m, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert(strstr(out, "a &lt;b&gt;"));
	ck_assert(strstr(out, "<g class=\"cell na\" data-threads=\"1\" data-qd=\"32\" "
			      "data-value=\"n/a\"><title>T1 Q32: no data</title><rect "));
	heat_fill(out, "data-threads=\"1\" data-qd=\"32\"", c);
	ck_assert_str_eq(c, "#e0e0e0");
	heat_fill(out, "data-threads=\"1\" data-qd=\"4\"", c);
	ck_assert_str_eq(c, "#440154");
	heat_fill(out, "data-threads=\"2\" data-qd=\"4\"", c);
	heat_fill(out, "data-threads=\"2\" data-qd=\"32\"", d);
	ck_assert_str_eq(c, "#fde725");
	ck_assert_str_eq(d, "#fde725");
	ck_assert(strstr(out, ">min 100</text>") && strstr(out, ">max 300</text>"));
	ck_assert(strstr(out, "IOPS: higher is better"));
	free(out);

	m.lower_better = true; /* latency: the lowest is the bright end */
	m.id = "read";
	out = heat_render(&m, &rc);
	heat_fill(out, "data-threads=\"1\" data-qd=\"4\"", c);
	ck_assert_str_eq(c, "#fde725");
	heat_fill(out, "data-threads=\"2\" data-qd=\"4\"", c);
	ck_assert_str_eq(c, "#440154");
	ck_assert(strstr(out, "class=\"heat heat-read\"") && strstr(out, "lower is better"));
	free(out);

	m.nrows = m.ncols = 1; /* one cell: the bright end, min = max */
	out = heat_render(&m, &rc);
	ck_assert_int_eq(rc, 0);
	heat_fill(out, "data-threads=\"1\" data-qd=\"4\"", c);
	ck_assert_str_eq(c, "#fde725");
	ck_assert(strstr(out, ">max 100</text>") && strstr(out, ">min 100</text>"));
	free(out);

	v[0] = 1e308; /* the widest figure: whole, never cut */
	out = heat_render(&m, &rc);
	char *dv = strstr(out, "data-value=\"");
	ck_assert_ptr_nonnull(dv);
	ck_assert_uint_eq(strcspn(dv + 12, "\""), 309);
	free(out);

	v[0] = INFINITY; /* no cell with data */
	out = heat_render(&m, &rc);
	ck_assert_int_eq(rc, -EINVAL);
	ck_assert(strstr(out, "class=\"cell na\"") && strstr(out, "no data") &&
		  strstr(out, "</svg>"));
	free(out);
}
END_TEST

/* Many series: the legend goes under the plot (the chart grows), two
 * columns of short names, one column of long names cut in the middle with
 * the whole name as a tooltip; a series' dash pattern in its path and
 * swatch. */
START_TEST(test_legend_many)
{
	double x[2] = {1, 2}, y[2] = {3, 4};
	struct svg_series se[12];
	char names[12][200];
	for (int i = 0; i < 12; i++) {
		snprintf(names[i], sizeof(names[i]), "r%02d", i);
		se[i] = (struct svg_series){
		    .name = names[i], .x = x, .y = y, .n = 2, .color = "#123456"};
	}
	se[11].dash = "2 3";
	struct svg_chart c = {.title = "t", .series = se, .nseries = 12};
	int rc;
	char *out = render(&c, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(out, "height=\"438\"")); /* 340 + 6 rows x 15 + 8 */
	ck_assert_ptr_nonnull(strstr(out, "stroke-dasharray=\"2 3\" fill=\"none\""));
	ck_assert_ptr_nonnull(strstr(out, "h12\" stroke=\"#123456\" stroke-width=\"2\" "
					  "stroke-dasharray=\"2 3\""));
	free(out);
	for (int i = 0; i < 12; i++)
		snprintf(names[i], sizeof(names[i]),
			 "a-very-long-results-directory-name-that-runs-on-and-on-and-on-well-past-"
			 "the-width-of-the-chart-%02d (/dev/nvme%dn1)",
			 i, i);
	out = render(&c, &rc);
	ck_assert_ptr_nonnull(strstr(out, "height=\"528\"")); /* one column: 12 rows */
	ck_assert_ptr_nonnull(
	    strstr(out, "<title>a-very-long-results-directory-name-that-runs-on-and-on-"
			"and-on-well-past-the-width-of-the-chart-07 (/dev/nvme7n1)"
			"</title>"));
	ck_assert_ptr_nonnull(strstr(out, "\xe2\x80\xa6"));
	ck_assert_ptr_nonnull(strstr(out, "-07 (/dev/nvme7n1)</text>")); /* the tail kept */
	free(out);
	c.nseries = 8; /* 8: inside the plot as before */
	out = render(&c, &rc);
	ck_assert_ptr_nonnull(strstr(out, "height=\"340\""));
	ck_assert_ptr_null(strstr(out, "<title>"));
	free(out);
}
END_TEST

/* chart file names: slugs with no space, slash or dot, bounded; --charts */
START_TEST(test_chartpub_names)
{
	char b[16], big[64];
	chartpub_slug("Latency QoS: exceedance (1 - CDF)", big, sizeof(big));
	ck_assert_str_eq(big, "latency-qos-exceedance-1-cdf");
	chartpub_slug("../a/b c..d\\e", big, sizeof(big));
	ck_assert_str_eq(big, "a-b-c-d-e");
	chartpub_slug("  ", big, sizeof(big));
	ck_assert_str_eq(big, "x");
	chartpub_slug(NULL, big, sizeof(big));
	ck_assert_str_eq(big, "x");
	chartpub_slug("read mean latency (\xc2\xb5s)", big, sizeof(big));
	ck_assert_str_eq(big, "read-mean-latency-s");
	chartpub_slug("abcdefgh ijklmnopqrstuvwxyz", b, sizeof(b));
	ck_assert_uint_eq(strlen(b), sizeof(b) - 1);
	ck_assert_str_eq(b, "abcdefgh-ijklmn");
	chartpub_slug("abcdefghijklmn op", b, sizeof(b));
	ck_assert_str_eq(b, "abcdefghijklmn"); /* no '-' at the end */
	unsigned k = 99;
	ck_assert_int_eq(chartpub_parse_kinds("svg,png,csv", &k), 0);
	ck_assert_uint_eq(k, CHARTPUB_ALL);
	ck_assert_int_eq(chartpub_parse_kinds("csv", &k), 0);
	ck_assert_uint_eq(k, CHARTPUB_CSV);
	ck_assert_int_eq(chartpub_parse_kinds("none", &k), 0);
	ck_assert_uint_eq(k, 0);
	ck_assert_int_eq(chartpub_parse_kinds("svg,", &k), -EINVAL);
	ck_assert_int_eq(chartpub_parse_kinds("svg,,png", &k), -EINVAL);
	ck_assert_int_eq(chartpub_parse_kinds("svgz", &k), -EINVAL);
	ck_assert_int_eq(chartpub_parse_kinds("", &k), -EINVAL);
	ck_assert_int_eq(chartpub_parse_kinds("none,svg", &k), -EINVAL);
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_nice_step);
	tcase_add_test(tc, test_chart);
	tcase_add_test(tc, test_no_data);
	tcase_add_test(tc, test_html);
	tcase_add_test(tc, test_rate_mixed);
	tcase_add_test(tc, test_testbed_page);
	tcase_add_test(tc, test_qos);
	tcase_add_test(tc, test_rtable);
	tcase_add_test(tc, test_rtable_no_columns);
	tcase_add_test(tc, test_zoom_start);
	tcase_add_test(tc, test_drives);
	tcase_add_test(tc, test_heat);
	tcase_add_test(tc, test_rtab_distinct);
	tcase_add_test(tc, test_chartpub_names);
	tcase_add_test(tc, test_legend_many);
	suite_add_tcase(s, tc);
	return s;
}

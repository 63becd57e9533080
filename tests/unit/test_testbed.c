/* test_testbed.c - the test bed's PCIe link (dev/testbed.c) against a fake
 * sysfs tree (safety_set_sysfs_root, as test_safety_sysfs.c): a Gen4 x4
 * controller, one trained below its maximum (Gen3 x2 of Gen4 x4), one
 * whose link says "Unknown" and has junk widths (unknown, never 0 or a
 * guess), one without the attributes (not PCIe: -ENOENT), a bad name;
 * the speed parser on the kernels' spellings and junk; and each drive's
 * health before and after from device-before/after.json, null where the
 * drive has none; the CPUs' power policy (cpu_power) of a haltpoll VM
 * guest, of a host with intel_idle, a disabled deep state and cpufreq,
 * and of a tree with none of it. */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "dev/safety.h"
#include "dev/testbed.h"

static char dir[64], sys[128];

/* Writes @text to @dir/@rel, making its directories. */
static void put(const char *rel, const char *text)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	for (char *s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		ck_assert(!mkdir(p, 0755) || errno == EEXIST);
		*s = '/';
	}
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

/* A PCI device @bdf with the four link attributes, and controller @ctrl's
 * "device" link to it (as /sys/class/nvme/nvme0/device). */
static void pci(const char *ctrl, const char *bdf, const char *speed, const char *width,
		const char *max_speed, const char *max_width)
{
	static const char *const attrs[] = {"current_link_speed", "current_link_width",
					    "max_link_speed", "max_link_width"};
	const char *v[] = {speed, width, max_speed, max_width};
	char rel[256], p[PATH_MAX], to[256];

	for (unsigned i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "sys/devices/pci0000:00/%s/%s", bdf, attrs[i]);
		put(rel, v[i]);
	}
	snprintf(rel, sizeof(rel), "sys/class/nvme/%s/dev", ctrl);
	put(rel, "259:0\n");
	snprintf(p, sizeof(p), "%s/sys/class/nvme/%s/device", dir, ctrl);
	snprintf(to, sizeof(to), "../../../devices/pci0000:00/%s", bdf);
	ck_assert_int_eq(symlink(to, p), 0);
}

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/nvs-testbed-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	pci("nvme0", "0000:00:04.0", "16.0 GT/s PCIe\n", "4\n", "16.0 GT/s PCIe\n", "4\n");
	pci("nvme1", "0000:00:05.0", "8.0 GT/s PCIe\n", "2\n", "16.0 GT/s PCIe\n", "4\n");
	pci("nvme2", "0000:00:06.0", "Unknown\n", "0\n", "2.5 GT/s\n", "x4\n");
	/* a controller whose device has no link attributes (fabrics, PCI) */
	put("sys/class/nvme/nvme3/device/vendor", "0x1b36\n");
	ck_assert_int_eq(safety_set_sysfs_root(sys), 0);
}

static void teardown(void)
{
	char cmd[128];

	safety_set_sysfs_root(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_link)
{
	struct testbed_link l;

	ck_assert_int_eq(testbed_pcie_link("nvme0", &l), 0);
	ck_assert(l.speed_gts == 16 && l.max_speed_gts == 16);
	ck_assert_uint_eq(l.width, 4);
	ck_assert_uint_eq(l.max_width, 4);
	ck_assert_uint_eq(testbed_pcie_gen(l.speed_gts), 4);
	/* trained below its maximum */
	ck_assert_int_eq(testbed_pcie_link("nvme1", &l), 0);
	ck_assert(l.speed_gts == 8 && l.max_speed_gts == 16);
	ck_assert_uint_eq(l.width, 2);
	ck_assert_uint_eq(l.max_width, 4);
	ck_assert_uint_eq(testbed_pcie_gen(l.speed_gts), 3);
	/* "Unknown", x0 and junk: unknown, never a figure */
	ck_assert_int_eq(testbed_pcie_link("nvme2", &l), 0);
	ck_assert(isnan(l.speed_gts));
	ck_assert(l.max_speed_gts == 2.5);
	ck_assert_uint_eq(testbed_pcie_gen(l.max_speed_gts), 1);
	ck_assert_uint_eq(l.width, 0);
	ck_assert_uint_eq(l.max_width, 0);
	/* no link attributes: not PCIe; no such controller; bad names */
	ck_assert_int_eq(testbed_pcie_link("nvme3", &l), -ENOENT);
	ck_assert(isnan(l.speed_gts) && l.width == 0);
	ck_assert_int_eq(testbed_pcie_link("nvme9", &l), -ENOENT);
	ck_assert_int_eq(testbed_pcie_link("../nvme0", &l), -EINVAL);
	ck_assert_int_eq(testbed_pcie_link("..", &l), -EINVAL);
	ck_assert_int_eq(testbed_pcie_link("", &l), -EINVAL);
}
END_TEST

START_TEST(test_speed)
{
	ck_assert(testbed_parse_speed("32.0 GT/s PCIe") == 32);
	ck_assert(testbed_parse_speed("2.5 GT/s") == 2.5);
	ck_assert(testbed_parse_speed("5 GT/s") == 5);
	ck_assert(testbed_parse_speed("64.0 GT/s PCIe") == 64);
	ck_assert_uint_eq(testbed_pcie_gen(64), 6);
	ck_assert_uint_eq(testbed_pcie_gen(20), 0);
	const char *bad[] = {"Unknown speed", "Unknown",    "",	      "nan GT/s",
			     "inf GT/s",      "-8 GT/s",    "0 GT/s", "8",
			     "8 MB/s",	      "1e400 GT/s", "GT/s"};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(isnan(testbed_parse_speed(bad[i])), "%s", bad[i]);
	ck_assert(isnan(testbed_parse_speed(NULL)));
}
END_TEST

START_TEST(test_health)
{
	cJSON *tb = cJSON_Parse("{\"drives\":[{\"path\":\"/dev/nvme0n1\",\"kind\":\"nvme\"},"
				"{\"path\":\"/dev/loop7\",\"kind\":\"block\"}]}");
	cJSON *before =
	    cJSON_Parse("{\"targets\":[{\"path\":\"/dev/nvme0n1\",\"health\":{\"temperature_c\":40,"
			"\"percentage_used\":3,\"available_spare\":100,\"media_errors\":0,"
			"\"critical_warning\":0,\"data_units_written\":1000,\"power_cycles\":9}},"
			"{\"path\":\"/dev/loop7\",\"kind\":\"block\"}]}");
	cJSON *after = cJSON_Parse("{\"targets\":[{\"path\":\"/dev/nvme0n1\",\"health\":{"
				   "\"temperature_c\":52,\"data_units_written\":\"junk\"}}]}");
	ck_assert_ptr_nonnull(tb);
	ck_assert_ptr_nonnull(before);
	ck_assert_ptr_nonnull(after);
	testbed_add_health(tb, before, NULL);
	testbed_add_health(tb, before, after); /* again: replaced, not added twice */
	cJSON *n = cJSON_GetArrayItem(cJSON_GetObjectItem(tb, "drives"), 0),
	      *l = cJSON_GetArrayItem(cJSON_GetObjectItem(tb, "drives"), 1);
	cJSON *b = cJSON_GetObjectItem(n, "health_before"),
	      *a = cJSON_GetObjectItem(n, "health_after");
	ck_assert_int_eq(cJSON_GetArraySize(b), 6); /* the figures reviewers quote */
	ck_assert(cJSON_GetObjectItem(b, "data_units_written")->valuedouble == 1000);
	ck_assert_ptr_null(cJSON_GetObjectItem(b, "power_cycles"));
	ck_assert(cJSON_GetObjectItem(a, "temperature_c")->valuedouble == 52);
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(a, "data_units_written")));
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(a, "media_errors")));
	/* a loop device: both keys there, null */
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(l, "health_before")));
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(l, "health_after")));
	int count = 0;
	cJSON *x;
	cJSON_ArrayForEach(x, n) count += !strcmp(x->string, "health_before");
	ck_assert_int_eq(count, 1);
	cJSON_Delete(tb);
	cJSON_Delete(before);
	cJSON_Delete(after);
}
END_TEST

/* testbed_json()'s "cpu_power" in the fake tree (no targets). */
static cJSON *power(void)
{
	cJSON *tb = testbed_json(NULL, 0);
	ck_assert_ptr_nonnull(tb);
	cJSON *p = cJSON_DetachItemFromObject(tb, "cpu_power");
	cJSON_Delete(tb);
	ck_assert(cJSON_IsObject(p));
	return p;
}

static const char *pstr(const cJSON *p, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(p, key);
	ck_assert_msg(cJSON_IsString(v), "%s not a string", key);
	return v->valuestring;
}

static double pnum(const cJSON *p, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(p, key);
	ck_assert_msg(cJSON_IsNumber(v), "%s not a number", key);
	return v->valuedouble;
}

static void idle_state(unsigned i, const char *name, const char *lat, const char *disable)
{
	char rel[128];
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cpuidle/state%u/name", i);
	put(rel, name);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cpuidle/state%u/latency", i);
	put(rel, lat);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu0/cpuidle/state%u/disable", i);
	put(rel, disable);
}

START_TEST(test_power)
{
	/* none of it: no cpuidle, no cpufreq, nothing guessed */
	cJSON *p = power();
	ck_assert_str_eq(pstr(p, "idle_driver"), "none");
	ck_assert_str_eq(pstr(p, "idle_governor"), "none");
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(p, "guest_halt_poll_ns")));
	ck_assert_str_eq(pstr(p, "deepest_idle_state"), "unknown");
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(p, "deepest_idle_exit_us")));
	ck_assert_str_eq(pstr(p, "freq_governor"), "none");
	cJSON_Delete(p);

	/* a VM guest whose idle vCPU halts at once (this CI machine's kind) */
	put("sys/devices/system/cpu/cpuidle/current_driver", "haltpoll\n");
	put("sys/devices/system/cpu/cpuidle/current_governor", "haltpoll\n");
	put("sys/module/haltpoll/parameters/guest_halt_poll_ns", "0\n");
	idle_state(0, "POLL\n", "0\n", "0\n");
	idle_state(1, "haltpoll idle\n", "1\n", "0\n");
	p = power();
	ck_assert_str_eq(pstr(p, "idle_driver"), "haltpoll");
	ck_assert_str_eq(pstr(p, "idle_governor"), "haltpoll");
	ck_assert(pnum(p, "guest_halt_poll_ns") == 0);
	ck_assert_str_eq(pstr(p, "deepest_idle_state"), "haltpoll idle");
	ck_assert(pnum(p, "deepest_idle_exit_us") == 1);
	cJSON_Delete(p);

	/* a host: intel_idle, C6 disabled (the deepest enabled is C1E),
	 * cpufreq's performance governor; haltpoll's parameter is not its */
	put("sys/devices/system/cpu/cpuidle/current_driver", "intel_idle\n");
	put("sys/devices/system/cpu/cpuidle/current_governor", "menu\n");
	idle_state(1, "C1\n", "2\n", "0\n");
	idle_state(2, "C1E\n", "10\n", "0\n");
	idle_state(3, "C6\n", "133\n", "1\n");
	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
	p = power();
	ck_assert_str_eq(pstr(p, "idle_driver"), "intel_idle");
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(p, "guest_halt_poll_ns")));
	ck_assert_str_eq(pstr(p, "deepest_idle_state"), "C1E");
	ck_assert(pnum(p, "deepest_idle_exit_us") == 10);
	ck_assert_str_eq(pstr(p, "freq_governor"), "performance");
	cJSON_Delete(p);

	/* cpufreq there but its governor unreadable: unknown, not "none" */
	char g[PATH_MAX];
	snprintf(g, sizeof(g), "%s/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", dir);
	ck_assert_int_eq(unlink(g), 0);
	p = power();
	ck_assert_str_eq(pstr(p, "freq_governor"), "unknown");
	cJSON_Delete(p);
}
END_TEST

Suite *testbed_suite(void)
{
	Suite *s = suite_create("testbed");
	TCase *t = tcase_create("fake sysfs");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_link);
	tcase_add_test(t, test_speed);
	tcase_add_test(t, test_health);
	tcase_add_test(t, test_power);
	suite_add_tcase(s, t);
	return s;
}

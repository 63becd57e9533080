/* test_devmodel.c - the device model filled directly (no libnvme, no
 * sysfs): string trimming, lookup, capability reasons, JSON keys and
 * values, the table and tree, decoding of a hand-built SMART page, and a
 * list's copy and its "probing" marks (the console's scanner). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "dev/devmodel.h"
#include "dev/probe.h"
#include "dev/safety.h"

static struct dev_list *two_ctrls(void)
{
	struct dev_list *l = dev_list_new();
	struct dev_ctrl *c;
	struct dev_ns *n;
	struct dev_block *b;

	ck_assert_ptr_nonnull(l);
	c = dev_list_add_ctrl(l);
	ck_assert_ptr_nonnull(c);
	snprintf(c->name, sizeof(c->name), "nvme0");
	snprintf(c->path, sizeof(c->path), "/dev/nvme0");
	/* the kernel pads these with spaces */
	dev_strtrim(c->serial, sizeof(c->serial), "S4EWNX0R123456      ", 20);
	dev_strtrim(c->model, sizeof(c->model), "Samsung SSD 980 PRO 1TB                 ", 40);
	dev_strtrim(c->firmware, sizeof(c->firmware), "5B2QGXA7", 8);
	snprintf(c->transport, sizeof(c->transport), "pcie");
	snprintf(c->address, sizeof(c->address), "0000:01:00.0");
	snprintf(c->subsystem_nqn, sizeof(c->subsystem_nqn), "nqn.2014.08.org.nvmexpress:1");
	c->caps.caps_valid = true;
	c->caps.format = true;
	c->caps.dsm = true;
	c->caps.sanitize_crypto = true;
	n = dev_ctrl_add_ns(c);
	ck_assert_ptr_nonnull(n);
	n->nsid = 1;
	snprintf(n->name, sizeof(n->name), "nvme0n1");
	snprintf(n->block_device, sizeof(n->block_device), "/dev/nvme0n1");
	snprintf(n->generic_device, sizeof(n->generic_device), "/dev/ng0n1");
	n->size_bytes = 1000204886016ULL;
	n->used_bytes = 1000ULL * 1000 * 1000;
	n->used_valid = true;
	n->lba_size = 512;
	n->in_use.mounted = true;
	snprintf(n->in_use.mountpoint, sizeof(n->in_use.mountpoint), "/mnt");
	/* second controller: multipath-style naming, nvme1 reaches nvme0n2 */
	c = dev_list_add_ctrl(l);
	snprintf(c->name, sizeof(c->name), "nvme1");
	snprintf(c->path, sizeof(c->path), "/dev/nvme1");
	snprintf(c->serial, sizeof(c->serial), "SER2");
	snprintf(c->model, sizeof(c->model), "QEMU NVMe Ctrl");
	n = dev_ctrl_add_ns(c);
	n->nsid = 2;
	snprintf(n->block_device, sizeof(n->block_device), "/dev/nvme0n2");
	n->size_bytes = 4096ULL * 1000;
	n->lba_size = 4096;
	n->metadata_size = 8;
	b = dev_list_add_block(l);
	b->kind = DEV_KIND_BLOCK;
	snprintf(b->name, sizeof(b->name), "loop3");
	snprintf(b->path, sizeof(b->path), "/dev/loop3");
	snprintf(b->driver, sizeof(b->driver), "loop");
	b->size_bytes = 64 << 20;
	b->lba_size = 4096;
	return l;
}

START_TEST(test_trim)
{
	char b[8];

	ck_assert_str_eq(dev_strtrim(b, sizeof(b), "  ab c  ", 8), "ab c");
	ck_assert_str_eq(dev_strtrim(b, sizeof(b), "abcdefghij", 10), "abcdefg"); /* truncated */
	ck_assert_str_eq(dev_strtrim(b, sizeof(b), "xy\0\0\0", 5), "xy");        /* NUL padded */
	ck_assert_str_eq(dev_strtrim(b, sizeof(b), "NOTERM", 3), "NOT");         /* not terminated */
	ck_assert_str_eq(dev_strtrim(b, sizeof(b), "     ", 5), "");
	ck_assert_str_eq(dev_strtrim(b, sizeof(b), NULL, 0), "");
	snprintf(b, sizeof(b), " in ");
	ck_assert_str_eq(dev_strtrim(b, sizeof(b), b, sizeof(b)), "in"); /* in place */
}
END_TEST

START_TEST(test_find)
{
	struct dev_list *l = two_ctrls();
	const struct dev_ns *ns;
	const struct dev_ctrl *c;

	c = dev_list_find_nvme(l, "/dev/nvme0", &ns);
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_null(ns);
	ck_assert_str_eq(c->serial, "S4EWNX0R123456");
	c = dev_list_find_nvme(l, "/dev/ng0n1", &ns);
	ck_assert_ptr_nonnull(ns);
	ck_assert_uint_eq(ns->nsid, 1);
	/* the block device name does not tell the controller */
	c = dev_list_find_nvme(l, "/dev/nvme0n2", &ns);
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(c->name, "nvme1");
	ck_assert_uint_eq(ns->lba_size, 4096);
	ck_assert_ptr_null(dev_list_find_nvme(l, "/dev/nvme7n1", NULL));
	ck_assert_ptr_null(dev_list_find_nvme(l, "/dev/loop3", NULL));
	ck_assert_ptr_nonnull(dev_list_find_block(l, "/dev/loop3"));
	dev_list_free(l);
	dev_list_free(NULL);
}
END_TEST

START_TEST(test_supports)
{
	struct dev_list *l = two_ctrls();
	const char *why = NULL;

	ck_assert(dev_ctrl_supports(&l->ctrls[0], PURGE_FORMAT, &why));
	ck_assert_ptr_null(why);
	ck_assert(dev_ctrl_supports(&l->ctrls[0], PURGE_SANITIZE_CRYPTO, NULL));
	ck_assert(!dev_ctrl_supports(&l->ctrls[0], PURGE_SANITIZE_BLOCK, &why));
	ck_assert_ptr_nonnull(strstr(why, "SANICAP"));
	ck_assert(!dev_ctrl_supports(&l->ctrls[1], PURGE_TRIM, &why)); /* no Identify */
	ck_assert_ptr_nonnull(strstr(why, "Identify"));
	ck_assert(!dev_block_supports(&l->blocks[0], PURGE_TRIM, &why)); /* no discard */
	ck_assert_ptr_nonnull(strstr(why, "discard"));
	l->blocks[0].discard = true;
	ck_assert(dev_block_supports(&l->blocks[0], PURGE_TRIM, &why));
	ck_assert(!dev_block_supports(&l->blocks[0], PURGE_FORMAT, &why));
	ck_assert_ptr_nonnull(strstr(why, "NVMe"));
	dev_list_free(l);
}
END_TEST

static cJSON *get(cJSON *o, const char *k)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	ck_assert_msg(v != NULL, "missing key %s", k);
	return v;
}

START_TEST(test_json)
{
	struct dev_list *l = two_ctrls();
	cJSON *o = dev_list_to_json(l), *c, *n, *u, *b;
	char *s = cJSON_PrintUnformatted(o);
	cJSON *r = cJSON_Parse(s); /* what a reader sees */

	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(cJSON_GetArraySize(get(r, "controllers")), 2);
	c = cJSON_GetArrayItem(get(r, "controllers"), 0);
	ck_assert_str_eq(get(c, "name")->valuestring, "nvme0");
	ck_assert_str_eq(get(c, "serial")->valuestring, "S4EWNX0R123456");
	ck_assert_str_eq(get(c, "model")->valuestring, "Samsung SSD 980 PRO 1TB");
	ck_assert_str_eq(get(c, "firmware")->valuestring, "5B2QGXA7");
	ck_assert_str_eq(get(c, "transport")->valuestring, "pcie");
	ck_assert_str_eq(get(c, "address")->valuestring, "0000:01:00.0");
	ck_assert_str_eq(get(c, "subsystem_nqn")->valuestring, "nqn.2014.08.org.nvmexpress:1");
	ck_assert(cJSON_IsNull(get(c, "numa_node")));
	ck_assert(cJSON_IsTrue(get(get(c, "supports"), "sanitize_crypto")));
	ck_assert(cJSON_IsFalse(get(get(c, "supports"), "sanitize_block")));
	n = cJSON_GetArrayItem(get(c, "namespaces"), 0);
	ck_assert_int_eq(get(n, "nsid")->valueint, 1);
	ck_assert_str_eq(get(n, "block_device")->valuestring, "/dev/nvme0n1");
	ck_assert_str_eq(get(n, "generic_device")->valuestring, "/dev/ng0n1");
	ck_assert(get(n, "size_bytes")->valuedouble == 1000204886016.0);
	ck_assert_int_eq(get(n, "lba_size")->valueint, 512);
	ck_assert_int_eq(get(n, "metadata_size")->valueint, 0);
	u = get(n, "in_use");
	ck_assert(cJSON_IsTrue(get(u, "mounted")));
	ck_assert(cJSON_IsFalse(get(u, "partitioned")));
	ck_assert(cJSON_IsFalse(get(u, "filesystem")));
	ck_assert_str_eq(get(u, "mountpoint")->valuestring, "/mnt");
	c = cJSON_GetArrayItem(get(r, "controllers"), 1);
	n = cJSON_GetArrayItem(get(c, "namespaces"), 0);
	ck_assert(cJSON_IsNull(get(n, "generic_device")));
	ck_assert(cJSON_IsNull(get(n, "used_bytes")));
	ck_assert_int_eq(get(n, "metadata_size")->valueint, 8);
	ck_assert_int_eq(cJSON_GetArraySize(get(r, "block_devices")), 1);
	b = cJSON_GetArrayItem(get(r, "block_devices"), 0);
	ck_assert_str_eq(get(b, "path")->valuestring, "/dev/loop3");
	ck_assert(cJSON_IsFalse(get(b, "nvme")));
	ck_assert_int_eq(get(b, "lba_size")->valueint, 4096);
	free(s);
	cJSON_Delete(r);
	cJSON_Delete(o);
	dev_list_free(l);
}
END_TEST

/* Prints with @fn into a string the caller frees. */
static char *capture(void (*fn)(const struct dev_list *, FILE *), const struct dev_list *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	fn(l, f);
	fclose(f);
	return buf;
}

START_TEST(test_table)
{
	struct dev_list *l = two_ctrls();
	char *t = capture(dev_list_print_table, l), *line;

	/* one row per namespace, with node, generic node, SN, model, usage, format */
	line = strstr(t, "/dev/nvme0n1");
	ck_assert_ptr_nonnull(line);
	ck_assert_ptr_nonnull(strstr(line, "/dev/ng0n1"));
	ck_assert_ptr_nonnull(strstr(line, "S4EWNX0R123456 "));
	ck_assert_ptr_nonnull(strstr(line, "Samsung SSD 980 PRO 1TB"));
	ck_assert_ptr_nonnull(strstr(line, "1.00 GB / 1.00 TB"));
	ck_assert_ptr_nonnull(strstr(line, "512 B + 0 B"));
	ck_assert_ptr_nonnull(strstr(line, "5B2QGXA7"));
	ck_assert_ptr_nonnull(strstr(line, "mounted /mnt"));
	ck_assert_ptr_nonnull(strstr(t, "4096 B + 8 B"));
	ck_assert_ptr_nonnull(strstr(t, "Other targets"));
	ck_assert_ptr_nonnull(strstr(t, "/dev/loop3"));
	free(t);
	t = capture(dev_list_print_tree, l);
	ck_assert_ptr_nonnull(strstr(t, "/dev/nvme1  QEMU NVMe Ctrl  SN SER2"));
	ck_assert_ptr_nonnull(strstr(t, "`- ns 2  /dev/nvme0n2"));
	free(t);
	dev_list_free(l);
	l = dev_list_new();
	t = capture(dev_list_print_table, l);
	ck_assert_ptr_nonnull(strstr(t, "No NVMe controllers found"));
	free(t);
	dev_list_free(l);
}
END_TEST

START_TEST(test_files)
{
	struct dev_list *l = dev_list_new();
	char path[] = "/tmp/nvs-devmodel-XXXXXX";
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 12345), 0);
	close(fd);
	ck_assert_int_eq(dev_list_add_file(l, path), 0);
	ck_assert_int_eq(dev_list_add_file(l, "/nonexistent/x"), -ENOENT);
	ck_assert_uint_eq(l->nr_blocks, 1);
	ck_assert_int_eq(l->blocks[0].kind, DEV_KIND_FILE);
	ck_assert_uint_eq(l->blocks[0].size_bytes, 12345);
	ck_assert_ptr_nonnull(dev_list_find_block(l, path));
	unlink(path);
	dev_list_free(l);
}
END_TEST

static void put16(unsigned char *p, unsigned v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

START_TEST(test_health_decode)
{
	unsigned char log[512] = { 0 };
	struct dev_caps caps = { .caps_valid = true, .wctemp_k = 343 };
	struct dev_health h;
	cJSON *o, *a;

	log[0] = 0x05;        /* spare + reliability */
	put16(log + 1, 323);  /* 49.85 C */
	log[3] = 100, log[4] = 10, log[5] = 3;
	log[32] = 0x10, log[33] = 0x27; /* 10000 data units read */
	log[48] = 0xff, log[56] = 1;    /* written: > 2^64, saturates */
	log[128] = 42;                   /* power-on hours */
	log[144] = 7;                    /* unsafe shutdowns */
	log[192] = 5;                    /* warning temp time */
	put16(log + 200, 300);           /* sensor 1 */
	put16(log + 204, 310);           /* sensor 3; sensor 2 not reported */
	log[216] = 9;                    /* TMT1 transitions (but no HCTMA) */
	ck_assert_int_eq(dev_health_decode(log, 511, &caps, &h), -EINVAL);
	ck_assert_int_eq(dev_health_decode(log, sizeof(log), &caps, &h), 0);
	ck_assert_uint_eq(h.critical_warning, 5);
	ck_assert(h.temperature_valid);
	ck_assert(h.temperature_c > 49.84 && h.temperature_c < 49.86);
	ck_assert_uint_eq(h.avail_spare, 100);
	ck_assert_uint_eq(h.spare_thresh, 10);
	ck_assert_uint_eq(h.percent_used, 3);
	ck_assert_uint_eq(h.data_units_read, 10000);
	ck_assert(h.data_units_written == UINT64_MAX);
	ck_assert_uint_eq(h.power_on_hours, 42);
	ck_assert_uint_eq(h.unsafe_shutdowns, 7);
	ck_assert(h.warning_temp_valid && h.warning_temp_minutes == 5);
	ck_assert(!h.critical_temp_valid); /* CCTEMP 0 */
	ck_assert(!h.thm_valid);           /* no HCTMA */
	ck_assert(h.sensor_valid[0] && !h.sensor_valid[1] && h.sensor_valid[2]);
	ck_assert(h.sensors_c[2] > 36.8 && h.sensors_c[2] < 36.9);
	ck_assert(dev_units_to_tb(10000) > 0.00511 && dev_units_to_tb(10000) < 0.00513);
	ck_assert_str_eq(dev_cw_name(0), "available_spare");
	ck_assert_ptr_null(dev_cw_name(7));

	o = dev_health_to_json(&h, "/dev/nvme0");
	ck_assert_int_eq(get(o, "critical_warning")->valueint, 5);
	a = get(o, "critical_warning_names");
	ck_assert_int_eq(cJSON_GetArraySize(a), 2);
	ck_assert_str_eq(cJSON_GetArrayItem(a, 0)->valuestring, "available_spare");
	ck_assert_str_eq(cJSON_GetArrayItem(a, 1)->valuestring, "reliability");
	ck_assert(get(o, "temperature_c")->valuedouble > 49.8);
	a = get(o, "sensors_c");
	ck_assert_int_eq(cJSON_GetArraySize(a), 8);
	ck_assert(cJSON_IsNumber(cJSON_GetArrayItem(a, 0)));
	ck_assert(cJSON_IsNull(cJSON_GetArrayItem(a, 1)));
	ck_assert(cJSON_IsNull(get(o, "critical_temp_minutes")));
	ck_assert(cJSON_IsNull(get(o, "thermal_mgmt_t1_transitions")));
	ck_assert_int_eq(get(o, "power_on_hours")->valueint, 42);
	cJSON_Delete(o);

	/* composite temperature 0 K: not reported */
	put16(log + 1, 0);
	ck_assert_int_eq(dev_health_decode(log, sizeof(log), NULL, &h), 0);
	ck_assert(!h.temperature_valid);
	ck_assert(h.thm_valid && h.thm_trans_count[0] == 9); /* caps unknown: as reported */
	o = dev_health_to_json(&h, NULL);
	ck_assert(cJSON_IsNull(get(o, "temperature_c")));
	ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(o, "device"));
	cJSON_Delete(o);
}
END_TEST

/* The console's scanner hands copies over (dev/devscan.h): a copy holds
 * everything the list holds, health included, and owns it; marks not
 * probed yet are "probing", unknown, so in use. */
START_TEST(test_dup_pending)
{
	struct dev_list *l = two_ctrls();
	l->ctrls[0].health = calloc(1, sizeof(*l->ctrls[0].health));
	ck_assert_ptr_nonnull(l->ctrls[0].health);
	l->ctrls[0].health->temperature_c = 41;
	l->ctrls[0].health->temperature_valid = true;
	struct dev_list *d = dev_list_dup(l);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(d->nr_ctrls, 2);
	ck_assert_uint_eq(d->nr_blocks, 1);
	ck_assert_ptr_ne(d->ctrls, l->ctrls);
	ck_assert_ptr_ne(d->ctrls[0].namespaces, l->ctrls[0].namespaces);
	ck_assert_ptr_ne(d->ctrls[0].health, l->ctrls[0].health);
	ck_assert(d->ctrls[0].health->temperature_valid);
	ck_assert_ptr_null(d->ctrls[1].health);
	ck_assert_str_eq(d->ctrls[0].namespaces[0].in_use.mountpoint, "/mnt");
	ck_assert_str_eq(d->blocks[0].path, "/dev/loop3");
	dev_list_free(l); /* the copy stands alone */
	dev_list_mark_pending(d);
	ck_assert(probe_is_pending(&d->ctrls[0].namespaces[0].in_use));
	ck_assert(dev_usage_in_use(&d->ctrls[0].namespaces[0].in_use));
	ck_assert(dev_usage_in_use(&d->blocks[0].in_use));
	ck_assert(!probe_not_responding(&d->blocks[0].in_use));
	ck_assert(!d->ctrls[0].namespaces[0].in_use.mounted); /* nothing else is said */
	struct dev_list *e = dev_list_new();
	struct dev_list *ed = dev_list_dup(e); /* empty */
	ck_assert_ptr_nonnull(ed);
	ck_assert_uint_eq(ed->nr_ctrls + ed->nr_blocks, 0);
	dev_list_free(ed);
	dev_list_free(e);
	dev_list_free(d);
}
END_TEST

START_TEST(test_health_read_bad_path)
{
	struct dev_health h;
	char err[256] = "";
	int st = -1;

	ck_assert_int_eq(dev_health_read("/dev/null", &h, &st, err, sizeof(err)), -ENOTTY);
	ck_assert_ptr_nonnull(strstr(err, "not an NVMe device"));
	ck_assert_int_eq(dev_health_read("/nonexistent/nvme9", &h, &st, err, sizeof(err)),
			 -ENOENT);
	/* not NVMe: the path itself confirms */
	ck_assert_int_eq(safety_confirm_token("/dev/null", err, sizeof(err)), 0);
	ck_assert_str_eq(err, "/dev/null");
	ck_assert_int_eq(safety_confirm_token("/nonexistent/x", err, sizeof(err)), -ENOENT);
	ck_assert_str_eq(err, "");
}
END_TEST

/* The critical warning in the NVMe spec's words, one decoder for the
 * console and `nvscope health`. */
START_TEST(test_cw_text)
{
	struct dev_health h = { .critical_warning = 0x04 };
	char buf[160], *out = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_str_eq(dev_cw_label(0), "spare below threshold");
	ck_assert_str_eq(dev_cw_label(2), "reliability degraded");
	ck_assert_str_eq(dev_cw_label(5), "PMR read-only");
	ck_assert_ptr_null(dev_cw_label(6));
	ck_assert_uint_eq(dev_cw_text(0, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	dev_cw_text(0x04, buf, sizeof(buf));
	ck_assert_str_eq(buf, "reliability degraded");
	dev_cw_text(0x3f, buf, sizeof(buf));
	ck_assert_str_eq(buf, "spare below threshold, temperature, reliability degraded, "
			      "read-only, volatile backup failed, PMR read-only");
	dev_cw_text(0x88, buf, sizeof(buf));
	ck_assert_str_eq(buf, "read-only, reserved bit 7");
	/* a short buffer: cut, NUL-terminated, and the caller can tell */
	ck_assert_uint_gt(dev_cw_text(0x3f, buf, 10), 9);
	ck_assert_uint_eq(strlen(buf), 9);

	f = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(f);
	dev_health_print(&h, "/dev/nvme1", f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "0x04 reliability degraded\n"));
	free(out);
}
END_TEST

/* NVSCOPE_DEVICES: names and /dev paths as fnmatch patterns; a controller
 * kept with a namespace in scope or by its own name; bad entries refused */
START_TEST(test_scope)
{
	char err[256];
	ck_assert(dev_in_scope("sda"));
	ck_assert_int_eq(dev_scope_set("loop3,/dev/nvme1n*", err, sizeof(err)), 0);
	ck_assert(dev_in_scope("loop3"));
	ck_assert(!dev_in_scope("loop30"));
	ck_assert(!dev_in_scope("loop"));
	ck_assert(dev_in_scope("nvme1n1"));
	ck_assert(dev_in_scope("nvme1n12"));
	ck_assert(!dev_in_scope("nvme10n1"));
	ck_assert(!dev_in_scope("sda"));
	ck_assert_int_eq(dev_scope_set("loop1,,/dev/", err, sizeof(err)), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err, "\"/dev/\" is not a device name"));
	ck_assert(dev_in_scope("sda")); /* refused: every device again */
	ck_assert_int_eq(dev_scope_set(",", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(dev_scope_set("../sda", err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(dev_scope_set("nvme0", err, sizeof(err)), 0);
	ck_assert(dev_in_scope("nvme0"));
	ck_assert(!dev_in_scope("nvme0n1"));
	ck_assert_int_eq(dev_scope_set(NULL, err, sizeof(err)), 0);
	ck_assert(dev_in_scope("nvme0n1"));
}
END_TEST

Suite *devmodel_suite(void)
{
	Suite *s = suite_create("devmodel");
	TCase *t = tcase_create("model");

	tcase_add_test(t, test_trim);
	tcase_add_test(t, test_find);
	tcase_add_test(t, test_supports);
	tcase_add_test(t, test_json);
	tcase_add_test(t, test_table);
	tcase_add_test(t, test_files);
	tcase_add_test(t, test_health_decode);
	tcase_add_test(t, test_cw_text);
	tcase_add_test(t, test_health_read_bad_path);
	tcase_add_test(t, test_dup_pending);
	tcase_add_test(t, test_scope);
	suite_add_tcase(s, t);
	return s;
}

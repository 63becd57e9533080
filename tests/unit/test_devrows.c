/* test_devrows.c - the Devices pane rows from a device model built in
 * memory: NVMe tree first (controller, then namespaces), then block devices
 * and files; in-use and has-data marks; finding a row by path. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "run/source.h"
#include "ui/app.h"
#include "ui/devrows.h"

START_TEST(tree_and_marks)
{
	struct dev_list *l = dev_list_new();
	ck_assert_ptr_nonnull(l);
	struct dev_ctrl *c = dev_list_add_ctrl(l);
	snprintf(c->name, sizeof(c->name), "nvme0");
	snprintf(c->path, sizeof(c->path), "/dev/nvme0");
	snprintf(c->model, sizeof(c->model), "Intel DC P3700");
	snprintf(c->serial, sizeof(c->serial), "CVFT123");
	snprintf(c->firmware, sizeof(c->firmware), "8DV101H0");
	for (int i = 1; i <= 2; i++) {
		struct dev_ns *ns = dev_ctrl_add_ns(c);
		ns->nsid = (uint32_t)i;
		snprintf(ns->name, sizeof(ns->name), "nvme0n%d", i);
		snprintf(ns->block_device, sizeof(ns->block_device), "/dev/nvme0n%d", i);
		ns->size_bytes = 800ull * 1000 * 1000 * 1000;
		ns->lba_size = 4096;
		if (i == 2) {
			ns->in_use.filesystem = true;
			snprintf(ns->in_use.fstype, sizeof(ns->in_use.fstype), "xfs");
		}
	}
	struct dev_block *b = dev_list_add_block(l);
	b->kind = DEV_KIND_BLOCK;
	snprintf(b->name, sizeof(b->name), "vda");
	snprintf(b->path, sizeof(b->path), "/dev/vda");
	snprintf(b->driver, sizeof(b->driver), "virtio");
	b->size_bytes = 1ull << 30;
	b->lba_size = 512;
	b->in_use.mounted = true;
	snprintf(b->in_use.mountpoint, sizeof(b->in_use.mountpoint), "/");
	b = dev_list_add_block(l);
	snprintf(b->name, sizeof(b->name), "loop0");
	snprintf(b->path, sizeof(b->path), "/dev/loop0");
	b->read_only = true;

	struct devrow *r = NULL;
	int n = devrows_build(l, &r);
	ck_assert_int_eq(n, 5);
	/* controller row: not a target, depth 0 */
	ck_assert(!r[0].selectable);
	ck_assert(r[0].nvme);
	ck_assert_int_eq(r[0].depth, 0);
	ck_assert_str_eq(r[0].name, "nvme0");
	ck_assert_str_eq(r[0].serial, "CVFT123");
	/* namespaces under it */
	ck_assert(r[1].selectable && r[1].nvme);
	ck_assert_int_eq(r[1].depth, 1);
	ck_assert_str_eq(r[1].path, "/dev/nvme0n1");
	ck_assert_str_eq(r[1].ctrl, "/dev/nvme0");
	ck_assert_str_eq(r[1].model, "Intel DC P3700");
	ck_assert_uint_eq(r[1].lbs, 4096);
	ck_assert(!r[1].in_use && !r[1].has_data);
	ck_assert(!r[1].temp_valid && !r[1].used_valid); /* no health read: N/A */
	ck_assert(r[2].has_data && !r[2].in_use);
	ck_assert(strstr(r[2].usage, "xfs"));
	/* other block devices after the tree */
	ck_assert_str_eq(r[3].path, "/dev/vda");
	ck_assert(r[3].in_use && !r[3].nvme);
	ck_assert(strstr(r[3].model, "virtio"));
	ck_assert(r[4].in_use); /* read-only: never written */
	ck_assert_str_eq(r[4].usage, "read-only");

	ck_assert_int_eq(devrows_find(r, n, "/dev/nvme0n2"), 2);
	ck_assert_int_eq(devrows_find(r, n, "/dev/vda"), 3);
	ck_assert_int_eq(devrows_find(r, n, "/dev/nvme0"), -1); /* controller: not a target */
	ck_assert_int_eq(devrows_find(r, n, "/nonexistent"), -1);
	free(r);

	ck_assert_int_eq(devrows_build(NULL, &r), 0);
	free(r);
	dev_list_free(l);
}
END_TEST

/* While the scan has not heard from a device's probe, its row says so and
 * is in use (never a free row); the health comes from the list (read by
 * the scanner), nothing is read when the rows are built. */
START_TEST(probing_rows)
{
	struct dev_list *l = dev_list_new();
	struct dev_ctrl *c = dev_list_add_ctrl(l);
	snprintf(c->name, sizeof(c->name), "nvme0");
	snprintf(c->path, sizeof(c->path), "/dev/nvme0");
	struct dev_ns *ns = dev_ctrl_add_ns(c);
	snprintf(ns->name, sizeof(ns->name), "nvme0n1");
	snprintf(ns->block_device, sizeof(ns->block_device), "/dev/nvme0n1");
	struct dev_block *b = dev_list_add_block(l);
	snprintf(b->name, sizeof(b->name), "loop1");
	snprintf(b->path, sizeof(b->path), "/dev/loop1");
	dev_list_mark_pending(l);
	c->health = calloc(1, sizeof(*c->health));
	ck_assert_ptr_nonnull(c->health);
	c->health->temperature_c = 35;
	c->health->temperature_valid = true;
	struct devrow *r = NULL;
	int n = devrows_build(l, &r);
	ck_assert_int_eq(n, 3);
	ck_assert(r[1].probing && r[1].in_use);
	ck_assert_str_eq(r[1].usage, "probing...");
	ck_assert(r[1].temp_valid && r[0].temp_valid);
	ck_assert(r[2].probing && r[2].in_use);
	free(r);
	memset(&b->in_use, 0, sizeof(b->in_use)); /* its probe answered: free */
	n = devrows_build(l, &r);
	ck_assert(!r[2].probing && !r[2].in_use);
	ck_assert_str_eq(r[2].usage, "-");
	free(r);
	dev_list_free(l);
}
END_TEST

START_TEST(files_found_by_identity)
{
	char path[] = "/tmp/nvs-devrows-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	struct dev_list *l = dev_list_new();
	ck_assert_int_eq(dev_list_add_file(l, path), 0);
	struct devrow *r = NULL;
	int n = devrows_build(l, &r);
	ck_assert_int_eq(n, 1);
	ck_assert(r[0].selectable);
	char alias[64];
	snprintf(alias, sizeof(alias), "/tmp/../tmp/%s", path + 5); /* same file */
	ck_assert_int_eq(devrows_find(r, n, alias), 0);
	free(r);
	dev_list_free(l);
	close(fd);
	unlink(path);
}
END_TEST

/* Serials whole or not at all, never silently cut; the critical warning
 * on the controller's rows. */
START_TEST(fit_columns_health)
{
	char buf[64];
	ck_assert(!devrows_fit(buf, sizeof(buf), "S123", 6, false));
	ck_assert_str_eq(buf, "S123  ");
	ck_assert(devrows_fit(buf, sizeof(buf), "SAMSUNG MZQL21T9HCJR", 8, false));
	ck_assert_str_eq(buf, "SAMSUNG\xe2\x80\xa6");
	ck_assert(devrows_fit(buf, sizeof(buf), "SAMSUNG MZQL21T9HCJR", 8, true));
	ck_assert_str_eq(buf, "SAMSUNG~");
	ck_assert(!devrows_fit(buf, sizeof(buf), "12345678", 8, true));
	ck_assert_str_eq(buf, "12345678");

	struct devrow r[2];
	memset(r, 0, sizeof(r));
	snprintf(r[0].serial, sizeof(r[0].serial), "NVSVMSERIALB0002X"); /* 17 */
	snprintf(r[0].model, sizeof(r[0].model), "QEMU NVMe Ctrl");
	snprintf(r[0].path, sizeof(r[0].path), "/dev/nvme1");
	r[0].nvme = true;
	r[1] = r[0];
	r[1].depth = 1;
	snprintf(r[1].path, sizeof(r[1].path), "/dev/nvme1n1");
	snprintf(r[1].ctrl, sizeof(r[1].ctrl), "/dev/nvme1");
	struct devcols c;
	devrows_columns(r, 2, 132, &c);
	ck_assert_int_ge(c.serial, 17);
	ck_assert_int_ge(c.model, 14);
	ck_assert(!c.model_common);
	/* 80 columns: the serial stays whole, the model every row shares
	 * goes (to the title), before FW and LBA */
	devrows_columns(r, 2, 80, &c);
	ck_assert_int_ge(c.serial, 17);
	ck_assert_int_eq(c.model, 0);
	ck_assert(c.model_common);
	/* two models: each cut with a marker or left out, the serial whole */
	snprintf(r[1].model, sizeof(r[1].model), "Samsung SSD 990 PRO 2TB");
	snprintf(r[1].serial, sizeof(r[1].serial), "S6Z2NF0W123456X12345"); /* 20 */
	devrows_columns(r, 2, 80, &c);
	ck_assert_int_ge(c.serial, 20);
	ck_assert(!c.model_common);
	ck_assert(c.model == 0 || c.model >= 8);
	ck_assert_int_eq(c.fw, 0);
	devrows_columns(r, 2, 132, &c);
	ck_assert_int_ge(c.model, 23);
	ck_assert_int_eq(c.fw, 0); /* no row has firmware here */
	/* 60 columns: the serial cut with a marker only now */
	devrows_columns(r, 2, 60, &c);
	ck_assert_int_ge(c.serial, 6);
	ck_assert_int_lt(c.serial, 20);
	snprintf(r[1].model, sizeof(r[1].model), "QEMU NVMe Ctrl");

	struct dev_health h = {
	    .critical_warning = DEV_CW_RELIABILITY, .temperature_valid = true, .temperature_c = 50};
	devrows_set_health(r, 2, "/dev/nvme1", &h);
	ck_assert_uint_eq(r[0].crit, DEV_CW_RELIABILITY);
	ck_assert_uint_eq(r[1].crit, DEV_CW_RELIABILITY);
	ck_assert(r[0].temp_valid && r[1].used_valid);
	h.critical_warning = 0;
	devrows_set_health(r, 2, "/dev/nvme0", &h); /* another controller */
	ck_assert_uint_eq(r[0].crit, DEV_CW_RELIABILITY);
	/* the warned controller's words keep their room: "!reliability
	 * degraded" whole at 100 columns (the shared model goes first) */
	devrows_columns(r, 2, 100, &c);
	ck_assert_int_ge(c.last, (int)strlen("!reliability degraded"));
}
END_TEST

/* Generic nodes: found in the nvme-generic class when libnvme did not
 * name them, and listed under their namespace. */
START_TEST(generic_rows)
{
	char tmp[] = "/tmp/nvs-ngXXXXXX", p[256];
	ck_assert_ptr_nonnull(mkdtemp(tmp));
	snprintf(p, sizeof(p), "%s/ng1n1", tmp); /* stands for both class and /dev */
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	struct dev_list *l = dev_list_new();
	struct dev_ctrl *c = dev_list_add_ctrl(l);
	snprintf(c->name, sizeof(c->name), "nvme1");
	snprintf(c->path, sizeof(c->path), "/dev/nvme1");
	for (int i = 1; i <= 2; i++) {
		struct dev_ns *ns = dev_ctrl_add_ns(c);
		snprintf(ns->name, sizeof(ns->name), "nvme1n%d", i);
		snprintf(ns->block_device, sizeof(ns->block_device), "/dev/nvme1n%d", i);
	}
	dev_generic_fill(c, tmp, tmp);
	ck_assert_str_eq(c->namespaces[0].generic_device, p);
	ck_assert_str_eq(c->namespaces[1].generic_device, ""); /* no ng1n2 */
	struct devrow *r = NULL;
	int n = devrows_build(l, &r);
	ck_assert_int_eq(n, 4); /* nvme1, nvme1n1, ng1n1, nvme1n2 */
	ck_assert_str_eq(r[2].name, "ng1n1");
	ck_assert_int_eq(r[2].depth, 2);
	ck_assert_str_eq(r[2].path, p);
	ck_assert(!r[2].selectable);
	ck_assert_str_eq(r[3].name, "nvme1n2");
	/* the form's passthrough engine: a namespace's ng node, from its row */
	ck_assert_str_eq(devrows_generic(r, n, 1), p);
	ck_assert_str_eq(devrows_generic(r, n, 2), p);
	ck_assert_ptr_null(devrows_generic(r, n, 3)); /* nvme1n2: no ng node */
	ck_assert_ptr_null(devrows_generic(r, n, 0)); /* the controller */
	ck_assert_ptr_null(devrows_generic(r, n, 4));
	free(r);
	dev_list_free(l);
	unlink(p);
	rmdir(tmp);
}
END_TEST

/* The destroy dialog and the event list wrap with the words whole: the
 * serial the technician types, or a path, is never broken in its middle
 * (issue 22 item 2: the purge box wrapped "NVSCOPE-LONG-A0" / "001"). */
START_TEST(wrap_words_whole)
{
	const char *t = "format of /dev/nvme0n1 (nvme0 QEMU NVMe Ctrl, serial NVSCOPE-LONG-A0001): "
			"every namespace formatted is lost. Type the NVMe controller's serial.";
	char line[8][128];
	int n = 0, next;
	for (const char *p = t; *p && n < 8; p += next) {
		int l = devrows_wrap(p, 68, &next);
		ck_assert_int_le(l, 68);
		ck_assert_int_gt(next, 0);
		snprintf(line[n++], sizeof(line[0]), "%.*s", l, p);
	}
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(line[0], "format of /dev/nvme0n1 (nvme0 QEMU NVMe Ctrl, serial");
	ck_assert_str_eq(line[1],
			 "NVSCOPE-LONG-A0001): every namespace formatted is lost. Type the");
	ck_assert_str_eq(line[2], "NVMe controller's serial.");
	/* a word longer than the line is cut at its width; blanks at a break
	 * begin no line; UTF-8 counted in code points */
	ck_assert_int_eq(devrows_wrap("abcdefghij", 4, &next), 4);
	ck_assert_int_eq(next, 4);
	ck_assert_int_eq(devrows_wrap("ab   cd", 4, &next), 2);
	ck_assert_int_eq(next, 5);
	ck_assert_int_eq(devrows_wrap("ab cd", 5, &next), 5);
	ck_assert_int_eq(next, 5);
	ck_assert_int_eq(devrows_wrap("\xe2\x86\x91\xe2\x86\x91 x", 3, &next), 6);
	ck_assert_int_eq(next, 7);
	ck_assert_int_eq(devrows_wrap("", 10, &next), 0);
	ck_assert_int_eq(next, 0);
}
END_TEST

/* A controller's row (issue 22 item 10): its "In use" is the use of its
 * namespaces, never the transport ("pcie" read like a use); Space on it
 * marks nothing and says why (it did nothing silently, moving on). */
START_TEST(controller_row)
{
	struct dev_list *l = dev_list_new();
	struct dev_ctrl *c = dev_list_add_ctrl(l);
	snprintf(c->name, sizeof(c->name), "nvme0");
	snprintf(c->path, sizeof(c->path), "/dev/nvme0");
	snprintf(c->transport, sizeof(c->transport), "pcie");
	for (int i = 1; i <= 2; i++) {
		struct dev_ns *ns = dev_ctrl_add_ns(c);
		ns->nsid = (uint32_t)i;
		snprintf(ns->name, sizeof(ns->name), "nvme0n%d", i);
		snprintf(ns->block_device, sizeof(ns->block_device), "/dev/nvme0n%d", i);
		ns->size_bytes = 1ull << 30;
	}
	struct devrow *r = NULL;
	int n = devrows_build(l, &r);
	ck_assert_int_eq(n, 3);
	ck_assert(!strstr(r[0].usage, "pcie")); /* nothing in use: no transport either */
	free(r);
	c->namespaces[1].in_use.mounted = true;
	snprintf(c->namespaces[1].in_use.mountpoint, sizeof(c->namespaces[1].in_use.mountpoint),
		 "/");
	n = devrows_build(l, &r);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(r[0].usage, "1 of 2 ns in use");

	struct app *a = calloc(1, sizeof(*a));
	ck_assert_ptr_nonnull(a);
	source_none(&a->src);
	a->scr.screen = SCREEN_SETUP;
	a->scr.focus = PANE_DEVICES;
	a->dev.drows = r;
	a->dev.ndrows = n;
	keys_handle(a, ' ', false); /* on the controller's row */
	ck_assert(!r[0].marked);
	ck_assert_int_eq(a->dev.dev_cur, 0);
	ck_assert_msg(strstr(a->mq.msg, "nvme0 is a controller: mark its namespaces"), "'%s'",
		      a->mq.msg);
	a->dev.dev_cur = 1; /* a namespace: marked, the cursor moves on */
	keys_handle(a, ' ', false);
	ck_assert(r[1].marked);
	ck_assert_int_eq(a->dev.dev_cur, 2);
	free(a);
	free(r);
	dev_list_free(l);
}
END_TEST

Suite *devrows_suite(void)
{
	Suite *s = suite_create("devrows");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, tree_and_marks);
	tcase_add_test(tc, files_found_by_identity);
	tcase_add_test(tc, probing_rows);
	tcase_add_test(tc, fit_columns_health);
	tcase_add_test(tc, generic_rows);
	tcase_add_test(tc, wrap_words_whole);
	tcase_add_test(tc, controller_row);
	suite_add_tcase(s, tc);
	return s;
}

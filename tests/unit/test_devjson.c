/* test_devjson.c - another host's device list read back (dev/devjson.c):
 * the layout nvscope list --json writes, a controller's health, the usage
 * marks (a usage not reported is in use), and what is refused: a string
 * longer than its field (never cut), a number of the wrong sign, type or
 * size, not that layout. */
#include <check.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "dev/devmodel.h"

static struct dev_list *read_text(const char *text, char *err, size_t len)
{
	cJSON *j = cJSON_Parse(text);
	struct dev_list *l = dev_list_from_json(j, err, len);
	cJSON_Delete(j);
	return l;
}

START_TEST(test_devjson_reads_layout)
{
	char err[256] = "";
	struct dev_list *l = read_text(
	    "{\"controllers\":[{\"name\":\"nvme0\",\"path\":\"/dev/nvme0\",\"serial\":\"S1\","
	    "\"model\":\"M\",\"firmware\":\"1.0\",\"namespaces\":[{\"nsid\":1,\"name\":"
	    "\"nvme0n1\",\"block_device\":\"/dev/nvme0n1\",\"size_bytes\":1073741824,"
	    "\"lba_size\":4096,\"in_use\":{\"mounted\":false,\"any\":false}},{\"nsid\":2,"
	    "\"name\":\"nvme0n2\",\"block_device\":\"/dev/nvme0n2\",\"size_bytes\":512}],"
	    "\"health\":{\"critical_warning\":2,\"temperature_c\":41.5,\"percentage_used\":7}}],"
	    "\"block_devices\":[{\"name\":\"loop0\",\"path\":\"/dev/loop0\",\"type\":\"block\","
	    "\"size_bytes\":16777216,\"lba_size\":512,\"in_use\":{\"mounted\":true,"
	    "\"mountpoint\":\"/mnt\",\"any\":true}}],\"nvme_error\":null}",
	    err, sizeof(err));
	ck_assert_msg(l, "%s", err);
	ck_assert_uint_eq(l->nr_ctrls, 1);
	ck_assert_str_eq(l->ctrls[0].serial, "S1");
	ck_assert_uint_eq(l->ctrls[0].nr_namespaces, 2);
	ck_assert_uint_eq(l->ctrls[0].namespaces[0].size_bytes, 1073741824);
	ck_assert_uint_eq(l->ctrls[0].namespaces[0].lba_size, 4096);
	ck_assert(!dev_usage_in_use(&l->ctrls[0].namespaces[0].in_use));
	/* its usage not reported: unknown, so in use (fail closed) */
	ck_assert(dev_usage_in_use(&l->ctrls[0].namespaces[1].in_use));
	ck_assert_ptr_nonnull(l->ctrls[0].health);
	ck_assert(l->ctrls[0].health->temperature_valid);
	ck_assert(l->ctrls[0].health->temperature_c == 41.5);
	ck_assert_uint_eq(l->ctrls[0].health->percent_used, 7);
	ck_assert_uint_eq(l->ctrls[0].health->critical_warning, 2);
	ck_assert_uint_eq(l->nr_blocks, 1);
	ck_assert(l->blocks[0].in_use.mounted);
	ck_assert_str_eq(l->blocks[0].in_use.mountpoint, "/mnt");
	ck_assert(l->nvme_ok);
	dev_list_free(l);
}
END_TEST

START_TEST(test_devjson_refuses)
{
	static const char *const bad[] = {
	    "[]",
	    "{\"controllers\":[]}",
	    "{\"controllers\":{},\"block_devices\":[]}",
	    /* a serial longer than the field: refused, never cut */
	    "{\"controllers\":[{\"serial\":\"0123456789012345678901234567890123\"}],"
	    "\"block_devices\":[]}",
	    "{\"controllers\":[],\"block_devices\":[{\"size_bytes\":-1}]}",
	    "{\"controllers\":[],\"block_devices\":[{\"size_bytes\":1.5}]}",
	    "{\"controllers\":[],\"block_devices\":[{\"size_bytes\":1e300}]}",
	    "{\"controllers\":[],\"block_devices\":[{\"lba_size\":4294967296}]}",
	    "{\"controllers\":[],\"block_devices\":[{\"name\":7}]}",
	    "{\"controllers\":[],\"block_devices\":[{\"read_only\":\"yes\"}]}",
	    "{\"controllers\":[7],\"block_devices\":[]}",
	    "{\"controllers\":[{\"namespaces\":[1]}],\"block_devices\":[]}",
	    "{\"controllers\":[{\"health\":{\"percentage_used\":300}}],\"block_devices\":[]}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[256] = "";
		struct dev_list *l = read_text(bad[i], err, sizeof(err));
		ck_assert_msg(!l, "accepted: %s", bad[i]);
		ck_assert_msg(err[0], "no reason for: %s", bad[i]);
	}
}
END_TEST

Suite *devjson_suite(void)
{
	Suite *s = suite_create("devjson");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_devjson_reads_layout);
	tcase_add_test(tc, test_devjson_refuses);
	suite_add_tcase(s, tc);
	return s;
}

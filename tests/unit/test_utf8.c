/* test_utf8.c - UTF-8 validation and repair, and the JSON writers' helper
 * (json_print): invalid bytes from outside and non-finite numbers never
 * make invalid JSON. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "base/utf8.h"
#include "report/json.h"

static bool valid(const char *s)
{
	return utf8_valid(s, strlen(s));
}

START_TEST(test_valid)
{
	ck_assert(valid(""));
	ck_assert(valid("/dev/nvme0n1"));
	ck_assert(valid("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe"));
	ck_assert(valid("\xf4\x8f\xbf\xbf")); /* U+10FFFF */
	ck_assert(!valid("\xff"));
	ck_assert(!valid("a\x80"));	       /* lone continuation */
	ck_assert(!valid("\xc3"));	       /* truncated */
	ck_assert(!valid("\xc0\xaf"));	       /* overlong '/' */
	ck_assert(!valid("\xe0\x80\xaf"));     /* overlong */
	ck_assert(!valid("\xed\xa0\x80"));     /* surrogate D800 */
	ck_assert(!valid("\xf4\x90\x80\x80")); /* > U+10FFFF */
	ck_assert(!valid("\xe2\x82"));	       /* truncated */
}
END_TEST

START_TEST(test_repair)
{
	char *r = utf8_repair("a\xff"
			      "b\xc3");
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r, "a\xef\xbf\xbd"
			    "b\xef\xbf\xbd");
	ck_assert(valid(r));
	free(r);
	r = utf8_repair("caf\xc3\xa9");
	ck_assert_str_eq(r, "caf\xc3\xa9");
	free(r);
}
END_TEST

START_TEST(test_json_print)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "target", "/tmp/x\xff\xfey");
	cJSON_AddStringToObject(o, "bad\x80key", "v");
	cJSON_AddNumberToObject(o, "nan", NAN);
	cJSON_AddNumberToObject(o, "inf", INFINITY);
	cJSON *a = cJSON_AddArrayToObject(o, "list");
	cJSON_AddItemToArray(a, cJSON_CreateString("\xed\xa0\x80"));
	char *text = json_print(o);
	ck_assert_ptr_nonnull(text);
	ck_assert(valid(text));
	ck_assert_ptr_nonnull(strstr(text, "/tmp/x\xef\xbf\xbd\xef\xbf\xbdy"));
	ck_assert_ptr_null(strstr(text, "nan\":\tnan"));
	cJSON *back = cJSON_Parse(text);
	ck_assert_ptr_nonnull(back);
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(back, "nan")));
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(back, "inf")));
	cJSON_Delete(back);
	free(text);
	cJSON_Delete(o);
}
END_TEST

Suite *utf8_suite(void)
{
	Suite *s = suite_create("utf8");
	TCase *tc = tcase_create("utf8");
	tcase_add_test(tc, test_valid);
	tcase_add_test(tc, test_repair);
	tcase_add_test(tc, test_json_print);
	suite_add_tcase(s, tc);
	return s;
}

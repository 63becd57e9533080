/* devjson.c - fuzzes the device list another host's agent sends (dev/
 * devjson.c, dev_list_from_json: the console's --host rows).  The input is
 * JSON; a list accepted is written out again (dev_list_to_json) and read
 * back, which must give the same counts, names and sizes.  Any crash, leak,
 * undefined behaviour or a round trip that differs fails. */
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "dev/devmodel.h"
#include "fuzz.h"

static void same(const struct dev_list *a, const struct dev_list *b)
{
	if (a->nr_ctrls != b->nr_ctrls || a->nr_blocks != b->nr_blocks)
		abort();
	for (size_t i = 0; i < a->nr_ctrls; i++) {
		const struct dev_ctrl *x = &a->ctrls[i], *y = &b->ctrls[i];
		if (strcmp(x->serial, y->serial) || x->nr_namespaces != y->nr_namespaces ||
		    !x->health != !y->health)
			abort();
		for (size_t k = 0; k < x->nr_namespaces; k++)
			if (x->namespaces[k].size_bytes != y->namespaces[k].size_bytes ||
			    strcmp(x->namespaces[k].block_device, y->namespaces[k].block_device))
				abort();
	}
	for (size_t i = 0; i < a->nr_blocks; i++)
		if (strcmp(a->blocks[i].path, b->blocks[i].path) ||
		    a->blocks[i].size_bytes != b->blocks[i].size_bytes)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	cJSON *j = cJSON_ParseWithLength((const char *)data, size);
	struct dev_list *l = j ? dev_list_from_json(j, err, sizeof(err)) : NULL;

	cJSON_Delete(j);
	if (!l)
		return 0;
	cJSON *out = dev_list_to_json(l);
	/* health goes out under its controller only from the agent: put it back */
	cJSON *cs = cJSON_GetObjectItemCaseSensitive(out, "controllers");
	for (size_t i = 0; i < l->nr_ctrls; i++)
		if (l->ctrls[i].health)
			cJSON_AddItemToObject(cJSON_GetArrayItem(cs, (int)i), "health",
					      dev_health_to_json(l->ctrls[i].health, NULL));
	struct dev_list *back = out ? dev_list_from_json(out, err, sizeof(err)) : NULL;
	if (!back)
		abort(); /* what was accepted, written out, must be read back */
	same(l, back);
	dev_list_free(back);
	dev_list_free(l);
	cJSON_Delete(out);
	return 0;
}

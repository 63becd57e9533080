/* devjson.c - the device model read back from its JSON (declared in
 * devmodel.h): the inverse of dev_list_to_json for what another host's
 * agent lists (docs/hosts.md).  Outside input: every field's type and
 * range is checked, a string longer than its field refuses the list (never
 * cut), counts are bounded. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "dev/devmodel.h"

#define MAX_CTRLS  1024 /* a rack host has at most a few dozen */
#define MAX_NS	   1024
#define MAX_BLOCKS 4096
#define U64_MAX_D  18446744073709549568.0 /* the largest double below 2^64 */

struct rd {
	char *err;
	size_t len;
	int rc;
};

static void bad(struct rd *r, const char *what, const char *key)
{
	if (!r->rc)
		snprintf(r->err, r->len, "device list: %s \"%s\"", what, key);
	r->rc = -EPROTO;
}

/* String @key into @dst (@len bytes): absent or null is "", anything but a
 * string or one that does not fit is refused. */
static void str(struct rd *r, const cJSON *o, const char *key, char *dst, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	dst[0] = '\0';
	if (!v || cJSON_IsNull(v))
		return;
	if (!cJSON_IsString(v) || strlen(v->valuestring) >= len) {
		bad(r, cJSON_IsString(v) ? "too long a string in" : "not a string:", key);
		return;
	}
	memcpy(dst, v->valuestring, strlen(v->valuestring) + 1);
}

/* A whole number in [0, @max] (absent or null: 0, *@valid false). */
static uint64_t num(struct rd *r, const cJSON *o, const char *key, double max, bool *valid)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (valid)
		*valid = false;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0 ||
	    v->valuedouble > max || v->valuedouble != floor(v->valuedouble)) {
		bad(r, "a bad number in", key);
		return 0;
	}
	if (valid)
		*valid = true;
	return (uint64_t)v->valuedouble;
}

static bool flag(struct rd *r, const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (v && !cJSON_IsBool(v) && !cJSON_IsNull(v))
		bad(r, "not a boolean:", key);
	return cJSON_IsTrue(v);
}

static void usage(struct rd *r, const cJSON *o, struct dev_usage *u)
{
	if (!cJSON_IsObject(o)) { /* not said: unknown, so in use (fail closed) */
		u->unknown = true;
		snprintf(u->why, sizeof(u->why), "not reported");
		return;
	}
	u->mounted = flag(r, o, "mounted");
	u->partitioned = flag(r, o, "partitioned");
	u->filesystem = flag(r, o, "filesystem");
	u->swap = flag(r, o, "swap");
	u->held = flag(r, o, "held");
	u->loop_backing = flag(r, o, "loop_backing");
	u->ambivalent = flag(r, o, "ambivalent");
	u->unknown = flag(r, o, "unknown");
	str(r, o, "unknown_reason", u->why, sizeof(u->why));
	str(r, o, "found", u->found, sizeof(u->found));
	str(r, o, "fstype", u->fstype, sizeof(u->fstype));
	str(r, o, "mountpoint", u->mountpoint, sizeof(u->mountpoint));
	if (flag(r, o, "any") && !dev_usage_any(u)) { /* said busy, no reason known */
		u->unknown = true;
		snprintf(u->why, sizeof(u->why), "in use");
	}
}

static struct dev_health *health(struct rd *r, const cJSON *o)
{
	struct dev_health *h;
	const cJSON *t;

	if (!cJSON_IsObject(o))
		return NULL;
	if (!(h = calloc(1, sizeof(*h)))) {
		r->rc = -ENOMEM;
		return NULL;
	}
	h->critical_warning = (uint8_t)num(r, o, "critical_warning", 255, NULL);
	h->percent_used = (uint8_t)num(r, o, "percentage_used", 255, NULL);
	h->avail_spare = (uint8_t)num(r, o, "available_spare", 255, NULL);
	h->spare_thresh = (uint8_t)num(r, o, "available_spare_threshold", 255, NULL);
	h->media_errors = num(r, o, "media_errors", 9007199254740992.0, NULL);
	h->data_units_written = num(r, o, "data_units_written", 9007199254740992.0, NULL);
	t = cJSON_GetObjectItemCaseSensitive(o, "temperature_c");
	if (cJSON_IsNumber(t) && isfinite(t->valuedouble) && fabs(t->valuedouble) < 1000) {
		h->temperature_c = t->valuedouble;
		h->temperature_valid = true;
	} else if (t && !cJSON_IsNull(t)) {
		bad(r, "a bad number in", "temperature_c");
	}
	return h;
}

static void one_ns(struct rd *r, const cJSON *o, struct dev_ns *n)
{
	if (!cJSON_IsObject(o)) {
		bad(r, "not an object:", "namespaces");
		return;
	}
	n->nsid = (uint32_t)num(r, o, "nsid", 4294967295.0, NULL);
	str(r, o, "name", n->name, sizeof(n->name));
	str(r, o, "block_device", n->block_device, sizeof(n->block_device));
	str(r, o, "generic_device", n->generic_device, sizeof(n->generic_device));
	n->size_bytes = num(r, o, "size_bytes", U64_MAX_D, NULL);
	n->used_bytes = num(r, o, "used_bytes", U64_MAX_D, &n->used_valid);
	n->lba_size = (uint32_t)num(r, o, "lba_size", 4294967295.0, NULL);
	n->metadata_size = (uint32_t)num(r, o, "metadata_size", 4294967295.0, NULL);
	usage(r, cJSON_GetObjectItemCaseSensitive(o, "in_use"), &n->in_use);
}

static void one_ctrl(struct rd *r, const cJSON *o, struct dev_list *l)
{
	const cJSON *nss = cJSON_GetObjectItemCaseSensitive(o, "namespaces"), *x;
	struct dev_ctrl *c;

	if (!cJSON_IsObject(o) || (nss && !cJSON_IsArray(nss)) ||
	    cJSON_GetArraySize(nss) > MAX_NS) {
		bad(r, "a bad controller in", "controllers");
		return;
	}
	if (!(c = dev_list_add_ctrl(l))) {
		r->rc = -ENOMEM;
		return;
	}
	c->numa_node = -1;
	str(r, o, "name", c->name, sizeof(c->name));
	str(r, o, "path", c->path, sizeof(c->path));
	str(r, o, "serial", c->serial, sizeof(c->serial));
	str(r, o, "model", c->model, sizeof(c->model));
	str(r, o, "firmware", c->firmware, sizeof(c->firmware));
	str(r, o, "transport", c->transport, sizeof(c->transport));
	str(r, o, "state", c->state, sizeof(c->state));
	cJSON_ArrayForEach(x, nss)
	{
		struct dev_ns *n = r->rc ? NULL : dev_ctrl_add_ns(c);
		if (!n) {
			r->rc = r->rc ? r->rc : -ENOMEM;
			return;
		}
		one_ns(r, x, n);
	}
	c->health = health(r, cJSON_GetObjectItemCaseSensitive(o, "health"));
}

static void one_block(struct rd *r, const cJSON *o, struct dev_list *l)
{
	struct dev_block *b;
	char type[8];

	if (!cJSON_IsObject(o)) {
		bad(r, "not an object:", "block_devices");
		return;
	}
	if (!(b = dev_list_add_block(l))) {
		r->rc = -ENOMEM;
		return;
	}
	str(r, o, "type", type, sizeof(type));
	b->kind = !strcmp(type, "file") ? DEV_KIND_FILE : DEV_KIND_BLOCK;
	str(r, o, "name", b->name, sizeof(b->name));
	str(r, o, "path", b->path, sizeof(b->path));
	str(r, o, "driver", b->driver, sizeof(b->driver));
	str(r, o, "model", b->model, sizeof(b->model));
	b->size_bytes = num(r, o, "size_bytes", U64_MAX_D, NULL);
	b->lba_size = (uint32_t)num(r, o, "lba_size", 4294967295.0, NULL);
	b->rotational = flag(r, o, "rotational");
	b->read_only = flag(r, o, "read_only");
	b->discard = flag(r, o, "discard");
	usage(r, cJSON_GetObjectItemCaseSensitive(o, "in_use"), &b->in_use);
}

struct dev_list *dev_list_from_json(const void *json, char *err, size_t errlen)
{
	const cJSON *o = json, *ctrls, *blocks, *x;
	struct rd r = {err, errlen, 0};
	struct dev_list *l;

	ctrls = cJSON_GetObjectItemCaseSensitive(o, "controllers");
	blocks = cJSON_GetObjectItemCaseSensitive(o, "block_devices");
	if (!cJSON_IsObject(o) || !cJSON_IsArray(ctrls) || !cJSON_IsArray(blocks) ||
	    cJSON_GetArraySize(ctrls) > MAX_CTRLS || cJSON_GetArraySize(blocks) > MAX_BLOCKS) {
		snprintf(err, errlen, "device list: not a list of controllers and block devices");
		return NULL;
	}
	if (!(l = dev_list_new())) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	l->nvme_ok = true;
	cJSON_ArrayForEach(x, ctrls) if (!r.rc) one_ctrl(&r, x, l);
	cJSON_ArrayForEach(x, blocks) if (!r.rc) one_block(&r, x, l);
	if (!r.rc)
		str(&r, o, "nvme_error", l->nvme_err, sizeof(l->nvme_err));
	l->nvme_ok = !l->nvme_err[0];
	if (r.rc) {
		if (r.rc == -ENOMEM)
			snprintf(err, errlen, "out of memory");
		dev_list_free(l);
		return NULL;
	}
	return l;
}

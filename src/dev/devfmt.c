/* devfmt.c - output of the device model (declared in devmodel.h): JSON
 * (cJSON), the `nvme list`-like table and the controller/namespace tree. */
#include <stdio.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "nvscope.h"
#include "dev/devmodel.h"

static cJSON *usage_json(const struct dev_usage *u)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddBoolToObject(o, "mounted", u->mounted);
	cJSON_AddBoolToObject(o, "partitioned", u->partitioned);
	cJSON_AddBoolToObject(o, "filesystem", u->filesystem);
	cJSON_AddBoolToObject(o, "swap", u->swap);
	cJSON_AddBoolToObject(o, "held", u->held);
	cJSON_AddBoolToObject(o, "loop_backing", u->loop_backing);
	cJSON_AddBoolToObject(o, "ambivalent", u->ambivalent);
	/* could not be opened or probed: "in use" as far as writes go */
	cJSON_AddBoolToObject(o, "unknown", u->unknown);
	if (u->unknown)
		cJSON_AddStringToObject(o, "unknown_reason", u->why);
	if (u->found[0])
		cJSON_AddStringToObject(o, "found", u->found);
	if (u->fstype[0])
		cJSON_AddStringToObject(o, "fstype", u->fstype);
	else
		cJSON_AddNullToObject(o, "fstype");
	if (u->mountpoint[0])
		cJSON_AddStringToObject(o, "mountpoint", u->mountpoint);
	else
		cJSON_AddNullToObject(o, "mountpoint");
	cJSON_AddBoolToObject(o, "any", dev_usage_any(u));
	return o;
}

static void add_str_or_null(cJSON *o, const char *k, const char *v)
{
	if (v && v[0])
		cJSON_AddStringToObject(o, k, v);
	else
		cJSON_AddNullToObject(o, k);
}

static cJSON *ns_json(const struct dev_ns *n)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "nsid", n->nsid);
	cJSON_AddStringToObject(o, "name", n->name);
	cJSON_AddStringToObject(o, "block_device", n->block_device);
	add_str_or_null(o, "generic_device", n->generic_device);
	cJSON_AddNumberToObject(o, "size_bytes", (double)n->size_bytes);
	if (n->used_valid)
		cJSON_AddNumberToObject(o, "used_bytes", (double)n->used_bytes);
	else
		cJSON_AddNullToObject(o, "used_bytes");
	cJSON_AddNumberToObject(o, "lba_size", n->lba_size);
	cJSON_AddNumberToObject(o, "metadata_size", n->metadata_size);
	cJSON_AddItemToObject(o, "in_use", usage_json(&n->in_use));
	return o;
}

static cJSON *caps_json(const struct dev_ctrl *c)
{
	static const struct {
		const char *key;
		enum purge_method m;
	} ms[] = { { "format", PURGE_FORMAT },
		   { "sanitize_block", PURGE_SANITIZE_BLOCK },
		   { "sanitize_crypto", PURGE_SANITIZE_CRYPTO },
		   { "sanitize_overwrite", PURGE_SANITIZE_OVERWRITE },
		   { "trim", PURGE_TRIM } };
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddBoolToObject(o, "identify_valid", c->caps.caps_valid);
	for (size_t i = 0; i < NVS_ARRAY_SIZE(ms); i++)
		cJSON_AddBoolToObject(o, ms[i].key, dev_ctrl_supports(c, ms[i].m, NULL));
	cJSON_AddBoolToObject(o, "format_crypto_erase", c->caps.format_crypto);
	return o;
}

static cJSON *ctrl_json(const struct dev_ctrl *c)
{
	cJSON *o = cJSON_CreateObject(), *a;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "name", c->name);
	cJSON_AddStringToObject(o, "path", c->path);
	cJSON_AddStringToObject(o, "serial", c->serial);
	cJSON_AddStringToObject(o, "model", c->model);
	cJSON_AddStringToObject(o, "firmware", c->firmware);
	cJSON_AddStringToObject(o, "transport", c->transport);
	cJSON_AddStringToObject(o, "address", c->address);
	cJSON_AddStringToObject(o, "state", c->state);
	cJSON_AddStringToObject(o, "subsystem", c->subsystem);
	cJSON_AddStringToObject(o, "subsystem_nqn", c->subsystem_nqn);
	if (c->numa_node >= 0)
		cJSON_AddNumberToObject(o, "numa_node", c->numa_node);
	else
		cJSON_AddNullToObject(o, "numa_node");
	cJSON_AddNumberToObject(o, "cntlid", c->cntlid);
	cJSON_AddNumberToObject(o, "namespace_count", (double)c->nr_namespaces);
	cJSON_AddItemToObject(o, "supports", caps_json(c));
	a = cJSON_AddArrayToObject(o, "namespaces");
	for (size_t i = 0; a && i < c->nr_namespaces; i++)
		cJSON_AddItemToArray(a, ns_json(&c->namespaces[i]));
	return o;
}

static cJSON *block_json(const struct dev_block *b)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "name", b->name);
	cJSON_AddStringToObject(o, "path", b->path);
	cJSON_AddStringToObject(o, "type", b->kind == DEV_KIND_FILE ? "file" : "block");
	cJSON_AddStringToObject(o, "driver", b->driver);
	add_str_or_null(o, "model", b->model);
	cJSON_AddBoolToObject(o, "nvme", false);
	cJSON_AddNumberToObject(o, "size_bytes", (double)b->size_bytes);
	cJSON_AddNumberToObject(o, "lba_size", b->lba_size);
	cJSON_AddBoolToObject(o, "rotational", b->rotational);
	cJSON_AddBoolToObject(o, "read_only", b->read_only);
	cJSON_AddBoolToObject(o, "discard", b->discard);
	cJSON_AddItemToObject(o, "in_use", usage_json(&b->in_use));
	return o;
}

void *dev_list_to_json(const struct dev_list *l)
{
	cJSON *o = cJSON_CreateObject(), *a;

	if (!o)
		return NULL;
	a = cJSON_AddArrayToObject(o, "controllers");
	for (size_t i = 0; a && i < l->nr_ctrls; i++)
		cJSON_AddItemToArray(a, ctrl_json(&l->ctrls[i]));
	a = cJSON_AddArrayToObject(o, "block_devices");
	for (size_t i = 0; a && i < l->nr_blocks; i++)
		cJSON_AddItemToArray(a, block_json(&l->blocks[i]));
	if (l->nvme_ok)
		cJSON_AddNullToObject(o, "nvme_error");
	else
		cJSON_AddStringToObject(o, "nvme_error", l->nvme_err[0] ? l->nvme_err : "unknown");
	return o;
}

/* 1000-based human size, "268.44 MB". */
static const char *hsize(uint64_t b, char *buf, size_t len)
{
	static const char *const u[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
	double v = (double)b;
	unsigned i = 0;

	while (v >= 1000 && i + 1 < NVS_ARRAY_SIZE(u)) {
		v /= 1000;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)b);
	else
		snprintf(buf, len, "%.2f %s", v, u[i]);
	return buf;
}

void dev_list_print_table(const struct dev_list *l, FILE *f)
{
	char a[32], b[32], u[80], fmt[32], use[160];

	if (l->nr_ctrls) {
		fprintf(f, "%-16s %-14s %-20s %-28s %-9s %-22s %-13s %-8s %s\n", "Node",
			"Generic", "SN", "Model", "Namespace", "Usage", "Format", "FW Rev",
			"In use");
		fprintf(f, "%.16s %.14s %.20s %.28s %.9s %.22s %.13s %.8s %.12s\n",
			"--------------------------------", "--------------------------------",
			"--------------------------------", "--------------------------------",
			"--------------------------------", "--------------------------------",
			"--------------------------------", "--------------------------------",
			"--------------------------------");
	}
	for (size_t i = 0; i < l->nr_ctrls; i++) {
		const struct dev_ctrl *c = &l->ctrls[i];

		if (!c->nr_namespaces)
			fprintf(f, "%-16s %-14s %-20s %-28s %-9s %-22s %-13s %-8s %s\n", c->path,
				"-", c->serial, c->model, "-", "-", "-", c->firmware, "-");
		for (size_t j = 0; j < c->nr_namespaces; j++) {
			const struct dev_ns *n = &c->namespaces[j];

			if (n->used_valid)
				snprintf(u, sizeof(u), "%s / %s", hsize(n->used_bytes, a, sizeof(a)),
					 hsize(n->size_bytes, b, sizeof(b)));
			else
				snprintf(u, sizeof(u), "%s", hsize(n->size_bytes, b, sizeof(b)));
			snprintf(fmt, sizeof(fmt), "%u B + %u B", n->lba_size, n->metadata_size);
			fprintf(f, "%-16s %-14s %-20s %-28s %-9u %-22s %-13s %-8s %s\n",
				n->block_device, n->generic_device[0] ? n->generic_device : "-",
				c->serial, c->model, n->nsid, u, fmt, c->firmware,
				dev_usage_str(&n->in_use, use, sizeof(use)));
		}
	}
	if (!l->nr_ctrls)
		fprintf(f, "No NVMe controllers found%s%s.\n", l->nvme_ok ? "" : ": ",
			l->nvme_ok ? "" : l->nvme_err);
	if (!l->nr_blocks)
		return;
	fprintf(f, "\nOther targets (not NVMe):\n");
	fprintf(f, "%-16s %-8s %-12s %-6s %-32s %s\n", "Node", "Driver", "Size", "LBA",
		"Model / backing file", "In use");
	for (size_t i = 0; i < l->nr_blocks; i++) {
		const struct dev_block *d = &l->blocks[i];

		fprintf(f, "%-16s %-8s %-12s %-6u %-32.32s %s\n", d->path, d->driver,
			hsize(d->size_bytes, a, sizeof(a)), d->lba_size, d->model[0] ? d->model : "-",
			dev_usage_str(&d->in_use, use, sizeof(use)));
	}
}

void dev_list_print_tree(const struct dev_list *l, FILE *f)
{
	char a[32], use[64];

	for (size_t i = 0; i < l->nr_ctrls; i++) {
		const struct dev_ctrl *c = &l->ctrls[i];

		fprintf(f, "%s  %s  SN %s  FW %s  %s %s  %s  numa %d\n", c->path, c->model,
			c->serial, c->firmware, c->transport, c->address, c->state, c->numa_node);
		fprintf(f, "|  subsystem %s  %s\n", c->subsystem, c->subsystem_nqn);
		for (size_t j = 0; j < c->nr_namespaces; j++) {
			const struct dev_ns *n = &c->namespaces[j];

			fprintf(f, "%s- ns %u  %s  %s  %s  %u+%u  %s\n",
				j + 1 == c->nr_namespaces ? "`" : "+", n->nsid, n->block_device,
				n->generic_device[0] ? n->generic_device : "-",
				hsize(n->size_bytes, a, sizeof(a)), n->lba_size, n->metadata_size,
				dev_usage_str(&n->in_use, use, sizeof(use)));
		}
		if (!c->nr_namespaces)
			fprintf(f, "`- (no namespaces)\n");
	}
	if (!l->nr_ctrls)
		fprintf(f, "No NVMe controllers found%s%s.\n", l->nvme_ok ? "" : ": ",
			l->nvme_ok ? "" : l->nvme_err);
	if (l->nr_blocks)
		fprintf(f, "other targets\n");
	for (size_t i = 0; i < l->nr_blocks; i++) {
		const struct dev_block *d = &l->blocks[i];

		fprintf(f, "%s- %s  %s  %s  %s\n", i + 1 == l->nr_blocks ? "`" : "+", d->path,
			d->driver, hsize(d->size_bytes, a, sizeof(a)),
			dev_usage_str(&d->in_use, use, sizeof(use)));
	}
}

/* devrows.c - flattens the device model for the Devices pane. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "ui/devrows.h"

static int grow(struct devrow **rows, int n, int *cap)
{
	if (n < *cap)
		return 0;
	int nc = *cap ? *cap * 2 : 16;
	struct devrow *r = realloc(*rows, (size_t)nc * sizeof(*r));
	if (!r)
		return -ENOMEM;
	*rows = r;
	*cap = nc;
	return 0;
}

static void usage_of(const struct dev_usage *u, struct devrow *r)
{
	r->in_use = dev_usage_in_use(u); /* the safety module's reading */
	r->has_data = dev_usage_has_data(u);
	dev_usage_str(u, r->usage, sizeof(r->usage));
}

int devrows_build(const struct dev_list *l, bool health, struct devrow **out)
{
	struct devrow *rows = NULL;
	int n = 0, cap = 0;
	for (size_t c = 0; l && c < l->nr_ctrls; c++) {
		const struct dev_ctrl *ctl = &l->ctrls[c];
		struct dev_health h;
		char err[128];
		bool hv = health && !dev_health_read(ctl->path, &h, NULL, err, sizeof(err));
		if (grow(&rows, n, &cap))
			goto nomem;
		struct devrow *r = memset(&rows[n++], 0, sizeof(*rows));
		r->nvme = true;
		snprintf(r->path, sizeof(r->path), "%s", ctl->path);
		snprintf(r->name, sizeof(r->name), "%s", ctl->name);
		snprintf(r->model, sizeof(r->model), "%s", ctl->model);
		snprintf(r->serial, sizeof(r->serial), "%s", ctl->serial);
		snprintf(r->firmware, sizeof(r->firmware), "%s", ctl->firmware);
		snprintf(r->usage, sizeof(r->usage), "%s", ctl->transport);
		if (hv) {
			r->temp_valid = h.temperature_valid;
			r->temp_c = h.temperature_c;
			r->used_valid = true;
			r->pct_used = h.percent_used;
		}
		for (size_t i = 0; i < ctl->nr_namespaces; i++) {
			const struct dev_ns *ns = &ctl->namespaces[i];
			if (grow(&rows, n, &cap))
				goto nomem;
			r = memset(&rows[n++], 0, sizeof(*rows));
			r->depth = 1;
			r->nvme = true;
			r->selectable = true;
			snprintf(r->path, sizeof(r->path), "%s", ns->block_device);
			snprintf(r->ctrl, sizeof(r->ctrl), "%s", ctl->path);
			snprintf(r->name, sizeof(r->name), "%s", ns->name);
			snprintf(r->model, sizeof(r->model), "%s", ctl->model);
			snprintf(r->serial, sizeof(r->serial), "%s", ctl->serial);
			snprintf(r->firmware, sizeof(r->firmware), "%s", ctl->firmware);
			r->size = ns->size_bytes;
			r->lbs = ns->lba_size;
			usage_of(&ns->in_use, r);
			if (hv) {
				r->temp_valid = h.temperature_valid;
				r->temp_c = h.temperature_c;
				r->used_valid = true;
				r->pct_used = h.percent_used;
			}
		}
	}
	for (size_t b = 0; l && b < l->nr_blocks; b++) {
		const struct dev_block *blk = &l->blocks[b];
		if (grow(&rows, n, &cap))
			goto nomem;
		struct devrow *r = memset(&rows[n++], 0, sizeof(*rows));
		r->selectable = true;
		snprintf(r->path, sizeof(r->path), "%s", blk->path);
		snprintf(r->name, sizeof(r->name), "%s", blk->name);
		snprintf(r->model, sizeof(r->model), "%.15s%s%.46s", blk->driver,
			 blk->model[0] ? " " : "", blk->model);
		r->size = blk->size_bytes;
		r->lbs = blk->lba_size;
		usage_of(&blk->in_use, r);
		if (blk->read_only) {
			r->in_use = true;
			snprintf(r->usage, sizeof(r->usage), "read-only");
		}
	}
	*out = rows;
	return n;
nomem:
	free(rows);
	*out = NULL;
	return -ENOMEM;
}

int devrows_find(const struct devrow *rows, int n, const char *path)
{
	struct stat want, st;
	bool have = stat(path, &want) == 0;
	for (int i = 0; i < n; i++) {
		if (!rows[i].selectable)
			continue;
		if (!strcmp(rows[i].path, path))
			return i;
		if (have && !stat(rows[i].path, &st)) {
			bool same = S_ISBLK(want.st_mode) && S_ISBLK(st.st_mode)
					? want.st_rdev == st.st_rdev
					: want.st_dev == st.st_dev && want.st_ino == st.st_ino;
			if (same)
				return i;
		}
	}
	return -1;
}

/* devrows.c - flattens the device model for the Devices pane. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "dev/probe.h"
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
	r->probing = probe_is_pending(u); /* unknown, so in use, till it answers */
	if (r->probing)
		snprintf(r->usage, sizeof(r->usage), "probing...");
	else
		dev_usage_str(u, r->usage, sizeof(r->usage));
}

int devrows_build(const struct dev_list *l, struct devrow **out)
{
	struct devrow *rows = NULL;
	int n = 0, cap = 0;
	for (size_t c = 0; l && c < l->nr_ctrls; c++) {
		const struct dev_ctrl *ctl = &l->ctrls[c];
		const struct dev_health *hv = ctl->health; /* as the scanner read it */
		if (grow(&rows, n, &cap))
			goto nomem;
		struct devrow *r = memset(&rows[n++], 0, sizeof(*rows));
		r->nvme = true;
		snprintf(r->path, sizeof(r->path), "%s", ctl->path);
		snprintf(r->name, sizeof(r->name), "%s", ctl->name);
		snprintf(r->model, sizeof(r->model), "%s", ctl->model);
		snprintf(r->serial, sizeof(r->serial), "%s", ctl->serial);
		snprintf(r->firmware, sizeof(r->firmware), "%s", ctl->firmware);
		size_t ci = n - 1, busy = 0; /* its row: the usage of its namespaces */
		if (hv)
			devrows_set_health(r, 1, ctl->path, hv);
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
			busy += r->in_use;
			if (hv)
				devrows_set_health(r, 1, ctl->path, hv);
			if (!ns->generic_device[0])
				continue;
			/* its generic (passthrough) node, under it: shown, not a
			 * target of the screen's presets (io_uring_cmd) */
			if (grow(&rows, n, &cap))
				goto nomem;
			r = memset(&rows[n++], 0, sizeof(*rows));
			r->depth = 2;
			r->nvme = true;
			snprintf(r->path, sizeof(r->path), "%s", ns->generic_device);
			snprintf(r->ctrl, sizeof(r->ctrl), "%s", ctl->path);
			const char *base = strrchr(ns->generic_device, '/');
			snprintf(r->name, sizeof(r->name), "%s",
				 base ? base + 1 : ns->generic_device);
			snprintf(r->model, sizeof(r->model), "passthrough");
			r->size = ns->size_bytes;
			r->lbs = ns->lba_size;
			snprintf(r->usage, sizeof(r->usage), "io_uring_cmd");
			if (hv)
				devrows_set_health(r, 1, ctl->path, hv);
		}
		/* the controller's row: how many of its namespaces are in use (not
		 * the transport: the "In use" column is about use) */
		if (busy)
			snprintf(rows[ci].usage, sizeof(rows[ci].usage), "%zu of %zu ns in use",
				 busy, ctl->nr_namespaces);
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

/* @dst (@len bytes) is @a then @b; a whole that does not fit ends in "~"
 * (a cut is marked, never silent).  The rows are for display: the path of
 * a remote row names it for the cursor, nothing opens it. */
static void join(char *dst, size_t len, const char *a, const char *b)
{
	if ((size_t)snprintf(dst, len, "%s%s", a, b) >= len && len > 1)
		dst[len - 2] = '~';
}

int devrows_add_host(struct devrow **rows, int n, const char *host, const char *status, int tone,
		     const struct dev_list *l)
{
	struct devrow *mine = NULL, *all;
	int m = l ? devrows_build(l, &mine) : 0;

	if (m < 0 || !(all = realloc(*rows, (size_t)(n + m + 1) * sizeof(*all)))) {
		free(mine);
		return -ENOMEM;
	}
	struct devrow *h = memset(&all[n], 0, sizeof(*h));
	h->host_hdr = true;
	h->host_tone = tone;
	join(h->name, sizeof(h->name), host, "");
	join(h->path, sizeof(h->path), host, ":");
	join(h->status, sizeof(h->status), status, "");
	for (int i = 0; i < m; i++) {
		struct devrow *r = &all[n + 1 + i];
		*r = mine[i];
		join(r->path, sizeof(r->path), h->path, mine[i].path); /* "HOST:" PATH */
		r->ctrl[0] = '\0';
		r->selectable = r->marked = false;
		r->remote = true;
	}
	free(mine);
	*rows = all;
	return n + m + 1;
}

int devrows_find_exact(const struct devrow *rows, int n, const char *path)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].path, path))
			return i;
	return -1;
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

const char *devrows_generic(const struct devrow *rows, int n, int i)
{
	if (i < 0 || i >= n || !rows[i].nvme)
		return NULL;
	if (rows[i].depth == 2)
		return rows[i].path;
	if (rows[i].depth == 1 && i + 1 < n && rows[i + 1].depth == 2)
		return rows[i + 1].path;
	return NULL;
}

void devrows_set_health(struct devrow *rows, int n, const char *ctrl, const struct dev_health *h)
{
	for (int i = 0; i < n; i++) {
		struct devrow *r = &rows[i];
		if (!r->nvme || strcmp(r->depth ? r->ctrl : r->path, ctrl))
			continue;
		r->temp_valid = h->temperature_valid;
		r->temp_c = h->temperature_c;
		r->used_valid = true;
		r->pct_used = h->percent_used;
		r->crit = h->critical_warning;
	}
}

/* Display columns of UTF-8 @s. */
static int width_of(const char *s)
{
	int n = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

const char *devrows_size(uint64_t b, char *buf, size_t len)
{
	if (!b)
		snprintf(buf, len, "-");
	else if (b >= 1000ull * 1000 * 1000 * 1000)
		snprintf(buf, len, "%.1fTB", b / 1e12);
	else if (b >= 1000ull * 1000 * 1000)
		snprintf(buf, len, "%.1fGB", b / 1e9);
	else
		snprintf(buf, len, "%.0fMB", b / 1e6);
	return buf;
}

bool devrows_fit(char *dst, size_t len, const char *s, int w, bool ascii)
{
	const char *ell = ascii ? "~" : "\xe2\x80\xa6";
	bool cut = width_of(s) > w;
	int keep = cut ? w - 1 : w, cols = 0;
	size_t o = 0;
	if (!len)
		return cut;
	for (const char *p = s; *p && cols < keep;) {
		size_t b = 1;
		while (((unsigned char)p[b] & 0xc0) == 0x80)
			b++;
		if (o + b >= len)
			break;
		memcpy(dst + o, p, b);
		o += b, p += b, cols++;
	}
	if (cut && w > 0 && o + strlen(ell) < len) {
		memcpy(dst + o, ell, strlen(ell));
		o += strlen(ell), cols++;
	}
	while (cols < w && o + 1 < len)
		dst[o++] = ' ', cols++;
	dst[o] = '\0';
	return cut;
}

int devrows_wrap(const char *s, int cols, int *next)
{
	int b = 0, n = 0, brk = 0; /* brk: the last blank within @cols (0: none) */
	if (cols < 1)
		cols = 1;
	while (s[b] && n < cols) {
		if (s[b] == ' ')
			brk = b;
		b++;
		while (((unsigned char)s[b] & 0xc0) == 0x80)
			b++;
		n++;
	}
	int len = s[b] && s[b] != ' ' && brk > 0 ? brk : b; /* a word goes on: before it */
	int nx = len;
	while (s[nx] == ' ')
		nx++;
	while (len > 0 && s[len - 1] == ' ')
		len--;
	*next = nx;
	return len;
}

/* Columns of the Devices pane that @c shows, their blanks included: mark,
 * name, serial, model, FW, size, LBA, temperature, % used, and 18 kept for
 * "In use" ("mounted / [in use]"), which takes the rest of the line; a
 * controller's critical warning keeps room for its words ("!reliability
 * degraded", up to 40). */
static int cols_need(const struct devcols *c)
{
	int n = 2 + c->name + 1 + 8 + 1 + 5 + 1 + c->last;
	n += c->serial ? c->serial + 1 : 0;
	n += c->model ? c->model + 1 : 0;
	n += c->fw ? c->fw + 1 : 0;
	n += c->lbs ? c->lbs + 1 : 0;
	n += c->used ? c->used + 1 : 0;
	return n;
}

/* Does every row with a model have the same one (a batch of one model)? */
static bool one_model(const struct devrow *rows, int n)
{
	const char *m = NULL;
	for (int i = 0; i < n; i++) {
		if (!rows[i].model[0])
			continue;
		if (m && strcmp(m, rows[i].model))
			return false;
		m = rows[i].model;
	}
	return m != NULL;
}

void devrows_columns(const struct devrow *rows, int n, int width, struct devcols *c)
{
	int maxser = 0, maxmodel = 5, fw = 0; /* "Model" */
	for (int i = 0; i < n; i++) {
		fw = fw || rows[i].firmware[0];
		if (width_of(rows[i].serial) > maxser)
			maxser = width_of(rows[i].serial);
		if (width_of(rows[i].model) > maxmodel)
			maxmodel = width_of(rows[i].model);
	}
	if (maxser && maxser < 6)
		maxser = 6; /* "Serial"; no column (nor FW) where no row has one: files, loops */
	*c = (struct devcols){.name = 16,
			      .serial = maxser,
			      .model = maxmodel,
			      .fw = fw ? 8 : 0,
			      .lbs = 5,
			      .used = 5,
			      .last = 18};
	for (int i = 0; i < n; i++) /* the warning in the spec's words, whole */
		if (rows[i].crit && !rows[i].depth) {
			char cw[160];
			dev_cw_text(rows[i].crit, cw, sizeof(cw));
			int need = 1 + width_of(cw); /* "!words" (panes.c: dev_last) */
			if (need > c->last)
				c->last = need < 40 ? need : 40;
		}
	c->model_common = one_model(rows, n);
	/* what repeats or is rarely asked gives way first: a model every row
	 * shares (said once, in the pane's title), FW, LBA; then the model
	 * shrinks (cut with an ellipsis) or goes, the name narrows, % used
	 * goes; the serial (the tray's label and the purge token), size,
	 * temperature and "In use" stay */
	if (cols_need(c) > width && c->model_common)
		c->model = 0;
	if (cols_need(c) > width)
		c->fw = 0;
	if (cols_need(c) > width)
		c->lbs = 0;
	if (c->model && cols_need(c) > width) {
		int room = c->model - (cols_need(c) - width);
		c->model = room >= 8 ? room : 0;
	}
	if (cols_need(c) > width)
		c->name = 12;
	if (cols_need(c) > width)
		c->used = 0;
	if (c->serial && cols_need(c) > width) { /* narrower than ~60: cut, marked */
		int room = c->serial - (cols_need(c) - width);
		c->serial = room >= 6 ? room : 6;
	}
	c->model_common = c->model_common && !c->model;
}

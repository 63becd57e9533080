/* devrows.h - the Devices pane's rows: the device model (devmodel.h)
 * flattened into a tree of controller, namespace, block device and file
 * lines, with health (temperature, % used) and in-use marks.  No ncurses. */
#ifndef NVS_UI_DEVROWS_H
#define NVS_UI_DEVROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dev/devmodel.h"

struct devrow {
	int depth;	 /* 0 controller / block / file, 1 namespace, 2 its ngXnY */
	bool selectable; /* a target (namespaces, block devices, files) */
	bool nvme;	 /* an NVMe namespace or controller */
	bool marked;	 /* chosen as a target */
	char path[256];	 /* target path; controller path for controllers */
	char ctrl[64];	 /* controller path of an NVMe namespace, "" */
	char name[64];	 /* "nvme0", "nvme0n1", "loop0", file name */
	char model[64];
	char serial[32];
	char firmware[16];
	uint64_t size;	/* bytes, 0 unknown */
	uint32_t lbs;	/* logical block size, 0 unknown */
	bool in_use;	/* mounted, swap or held: never written */
	bool has_data;	/* partitions or a signature: writes need confirmation */
	bool probing;	/* its probe has not answered yet (a scan under way): in use */
	char usage[64]; /* "mounted /", "ext4", "-" */
	bool temp_valid;
	double temp_c;
	bool used_valid;
	unsigned pct_used;
	uint8_t crit; /* SMART critical warning bits (DEV_CW_*), 0 none */
	/* other hosts (docs/hosts.md, "The console") */
	bool host_hdr;	  /* a host's line above its drives: name is the host */
	int host_tone;	  /* its state: DEVROWS_HOST_UP, _WAIT, _LOST */
	char status[192]; /* host_hdr: "up, 3 drives, clock +0.4 ms", ... */
	bool remote;	  /* a drive of another host: path is "HOST:PATH", ctrl "";
			   * shown, never a target of this console's local actions */
};
enum { DEVROWS_HOST_UP, DEVROWS_HOST_WAIT, DEVROWS_HOST_LOST };

/* Column widths of the Devices pane for @width columns (0: not shown).
 * What a technician came for never drops: the serial (the tray's label and
 * the purge token, whole unless the pane is narrower than ~60 columns, then
 * cut with a marker), size, temperature and "In use".  What repeats drops
 * first: a model shared by every row (model_common: the caller says it once,
 * in the title), then FW, LBA; then the model is cut (with an ellipsis, see
 * devrows_fit) or left out, the name narrows from 16 to 12, % used goes. */
struct devcols {
	int name, serial, model, fw, lbs, used;
	int last;	   /* kept for "In use": 18, or a critical warning's "!words" */
	bool model_common; /* model left out because every row has this one */
};
void devrows_columns(const struct devrow *rows, int n, int width, struct devcols *c);
/* @s padded with blanks to exactly @w display columns in @dst (@len
 * bytes); a longer @s is cut to @w - 1 columns followed by "…" (by "~"
 * when @ascii), never silently.  Returns true when @s was cut. */
bool devrows_fit(char *dst, size_t len, const char *s, int w, bool ascii);
/* The next line of @s wrapped at @cols code points with its words whole
 * (a serial or a path is never broken in its middle): returns the bytes of
 * the line to draw (without the blanks at the break) and sets *@next to
 * the bytes to skip to the next line's start.  Only a word longer than
 * @cols is cut, at @cols.  0 and *@next 0 for an empty @s. */
int devrows_wrap(const char *s, int cols, int *next);
/* A capacity as every view of the console shows it (Devices, the check
 * view, the purge box): "168MB", "1.9TB"; "-" for 0 (unknown).  Decimal
 * units, as drives are sold. */
const char *devrows_size(uint64_t bytes, char *buf, size_t len);
/* Puts the health log @h (temperature, % used, critical warning) on the
 * rows of controller @ctrl (its row and its namespaces' rows). */
void devrows_set_health(struct devrow *rows, int n, const char *ctrl, const struct dev_health *h);

/* Builds rows from @l (NVMe tree first, then block devices and files),
 * with each controller's health log where the list has it (read by the
 * scanner, dev/devscan.h: building rows reads nothing from a device).
 * *@rows is malloc'ed (caller frees).  Returns the count or -ENOMEM. */
int devrows_build(const struct dev_list *l, struct devrow **rows);
/* Appends to *@rows (@n rows) a host's group: its line (@host, @status,
 * @tone) and, under it, the rows of its drives @l (NULL: none listed yet),
 * each a remote row.  The new count, or -ENOMEM (*@rows as it was). */
int devrows_add_host(struct devrow **rows, int n, const char *host, const char *status, int tone,
		     const struct dev_list *l);
/* Index of the row whose path is exactly @path, whatever its kind (a
 * host's line: its name), -1 when none: where the cursor was. */
int devrows_find_exact(const struct devrow *rows, int n, const char *path);
/* Index of the row whose target path is @path (or resolves to the same
 * file), -1 when none. */
int devrows_find(const struct devrow *rows, int n, const char *path);
/* The generic (passthrough) node of namespace row @i - the ngXnY row
 * listed under it - or NULL when it has none (not an NVMe namespace, or
 * no generic device).  A generic row itself gives its own path. */
const char *devrows_generic(const struct devrow *rows, int n, int i);

#endif

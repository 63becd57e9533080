/* devmodel.h - nvscope's own device model: NVMe controllers with their
 * namespaces, other block devices (/sys/block: virtio, loop, SCSI, ...) and
 * plain files, as plain structs freed in one call.  Independent from libnvme
 * (only src/dev/nvme.c includes it), so unit tests fill the model directly
 * with the dev_list_add_* builders.  Also: the SMART / health struct (each
 * optional field with a validity flag), JSON of both (cJSON) and the
 * `nvme list`-like table / tree formatters.
 *
 * Threading: a struct dev_list is owned by whoever scanned it; nothing here
 * keeps global state, so dev_scan() and dev_health_read() may run on any
 * thread that is not an I/O thread (they block on sysfs and admin commands). */
#ifndef NVS_DEVMODEL_H
#define NVS_DEVMODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "dev/purge.h"

/* Strings from the kernel are trimmed (no padding spaces). */
#define DEV_NAME_LEN 32
#define DEV_PATH_LEN 64

/* Is something on this device (or image file)?  Filled by the safety
 * module (safety_usage) from /proc/self/mountinfo, /proc/swaps,
 * /sys/block/X/holders, attached loop devices and libblkid: the same code
 * that refuses writes (docs/safety.md). */
struct dev_usage {
	bool mounted;         /* it or one of its partitions is mounted */
	bool swap;            /* used as swap */
	bool held;            /* held by dm/md/LVM (holders/ not empty) */
	bool loop_backing;    /* a regular file backing an attached loop device */
	bool partitioned;     /* has a partition table or partitions */
	bool filesystem;      /* libblkid found a filesystem/RAID/LVM signature */
	bool ambivalent;      /* libblkid found several signatures */
	char fstype[32];      /* "ext4", "" when none */
	char mountpoint[128]; /* first mount point, "" when none (display only) */
	char holder[64];      /* "dm-0", the loop device of a backing file, "" */
	char loop_rel[160];   /* with loop_backing: how it is tied to that loop
			       * device ("the backing file of /dev/loop3") */
	char found[160];      /* what libblkid found, "an ext4 filesystem", "" */
	bool unknown;         /* could not be opened or probed: unknown, */
	char why[64];         /* which counts as in use (fail closed); errno text */
};

/* In use: never written (mounted, swap, held, backing a loop device, or
 * unknown: what could not be checked is never taken for free). */
bool dev_usage_in_use(const struct dev_usage *u);
/* Holds data: written only with --force-destroy (partition table,
 * filesystem/RAID/LVM signature, ambivalent probe). */
bool dev_usage_has_data(const struct dev_usage *u);
/* True when anything at all is in use or present (either of the above). */
bool dev_usage_any(const struct dev_usage *u);
/* Short human form: "mounted /mnt", "ext4", "partitioned", "-" for none.
 * Returns @buf. */
const char *dev_usage_str(const struct dev_usage *u, char *buf, size_t len);

/* One NVMe namespace as seen through one controller (or its subsystem when
 * multipathed: the block device name then follows the subsystem, so
 * nvme0 does not necessarily own nvme0n1). */
struct dev_ns {
	uint32_t nsid;
	char name[DEV_NAME_LEN];            /* "nvme0n1" */
	char block_device[DEV_PATH_LEN];    /* "/dev/nvme0n1" */
	char generic_device[DEV_PATH_LEN];  /* "/dev/ng0n1", "" when absent */
	uint64_t size_bytes;                /* capacity (NSZE * LBA size) */
	uint64_t used_bytes;                /* utilization (NUSE * LBA size) */
	bool used_valid;
	uint32_t lba_size;                  /* data size of the in-use LBA format */
	uint32_t metadata_size;             /* metadata bytes per LBA */
	struct dev_usage in_use;
};

/* What the controller supports, from Identify Controller (caps_valid false
 * when Identify could not be read; then nothing is known). */
struct dev_caps {
	bool caps_valid;
	bool format;             /* OACS bit 1 */
	bool format_crypto;      /* FNA bit 2: cryptographic erase with format */
	bool sanitize_block;     /* SANICAP bit 1 */
	bool sanitize_crypto;    /* SANICAP bit 0 */
	bool sanitize_overwrite; /* SANICAP bit 2 */
	bool dsm;                /* ONCS bit 2: Dataset Management (deallocate) */
	bool write_uncor;        /* ONCS bit 1: Write Uncorrectable */
	bool write_zeroes;       /* ONCS bit 3: Write Zeroes */
	bool verify;             /* ONCS bit 7: Verify */
	bool hctma;              /* host controlled thermal management reported */
	uint16_t wctemp_k;       /* warning composite temperature threshold, K; 0 = none */
	uint16_t cctemp_k;       /* critical composite temperature threshold, K; 0 = none */
};

/* One NVMe controller (a dual-controller card shows as two of these). */
struct dev_ctrl {
	char name[DEV_NAME_LEN];      /* "nvme0" */
	char path[DEV_PATH_LEN];      /* "/dev/nvme0" */
	char model[64];
	char serial[32];
	char firmware[16];
	char transport[16];           /* "pcie", "tcp", "rdma", "fc", "loop" */
	char address[128];            /* PCIe BDF "0000:00:04.0", or traddr=... */
	char state[16];               /* "live", "resetting", ... */
	char subsystem[DEV_NAME_LEN]; /* "nvme-subsys0" */
	char subsystem_nqn[256];
	int numa_node;                /* -1 when unknown */
	uint32_t cntlid;
	struct dev_caps caps;
	size_t nr_namespaces;
	struct dev_ns *namespaces;    /* nr_namespaces entries */
	/* its SMART / health log as read by the list's scanner (the console's,
	 * dev/devscan.h), owned by the list; NULL when not read or unreadable */
	struct dev_health *health;
};

/* A block device that is not an NVMe namespace, or a plain file. */
enum dev_kind { DEV_KIND_BLOCK, DEV_KIND_FILE };
struct dev_block {
	enum dev_kind kind;
	char name[DEV_NAME_LEN];   /* "vda", "loop0"; a file's basename */
	char path[256];            /* "/dev/vda" or the file's path */
	char driver[16];           /* "virtio", "loop", "scsi", "md", "dm", "file", ... */
	char model[64];            /* from sysfs device/model, "" when none */
	uint64_t size_bytes;
	uint32_t lba_size;         /* logical block size (512 for files) */
	bool rotational;
	bool read_only;
	bool discard;              /* queue/discard_max_bytes > 0 (files: hole punching) */
	struct dev_usage in_use;
};

/* The whole list. */
struct dev_list {
	size_t nr_ctrls;
	struct dev_ctrl *ctrls;
	size_t nr_blocks;
	struct dev_block *blocks;
	bool nvme_ok;      /* the libnvme walk ran (false: error, see nvme_err) */
	char nvme_err[128];
};

/* Scans everything: NVMe controllers and namespaces (libnvme), every other
 * block device in /sys/block (partitions, zram and ram are skipped), with
 * in_use filled.  Having no NVMe is not an error (nr_ctrls = 0).  A libnvme
 * failure is not fatal either: the block devices are still listed and
 * nvme_ok/nvme_err say why.  Returns a list the caller frees with
 * dev_list_free(), or NULL with @err set (out of memory). */
struct dev_list *dev_scan(char *err, size_t errlen);
/* dev_scan() waits at most 2 s (PROBE_DEADLINE_MS) for the marks of all
 * devices together: each device is probed in a helper process (probe.h),
 * and one that has not answered by then is "not responding" (in_use
 * unknown, so in use) instead of blocking the program.  (The console
 * scans on a thread of its own, in steps: dev/devscan.h.) */
/* The devices without their marks, for callers that only identify a
 * device (its controller, serial, namespace, size): no block device is
 * opened or probed (a stalled one that is not the target is never
 * touched); every in_use is unknown ("not probed"), so in use, should
 * anyone read it.  Check, purge, plans and the safety module's token and
 * namespace look-ups use this. */
struct dev_list *dev_scan_ids(char *err, size_t errlen);
/* The scope of the scans (NVSCOPE_DEVICES, docs/cli.md): a comma list of
 * device names or /dev paths, each an fnmatch(3) pattern on the name
 * ("loop3", "/dev/nvme1n*"); only the block devices and NVMe namespaces it
 * names are listed, so only they are probed (a controller is listed with
 * its namespaces in scope, or when its own name is).  NULL or "": every
 * device (the default).  A shared lab machine limits a console to its
 * bays; the tests limit each test to its own loop devices (tests/lib.sh).
 * It narrows what is listed, never what is checked: a target outside it is
 * checked as any target is, and a look-up that needs it in the list (an
 * NVMe serial for the typed token) finds nothing and refuses.  0, -EINVAL
 * (an entry with no name: @err says which; the scope is then every
 * device), -ENOMEM.  Called before any scan (main), not while one runs. */
int dev_scope_set(const char *list, char *err, size_t errlen);
/* Is block device @name ("loop3", "nvme0n1") in the scope? */
bool dev_in_scope(const char *name);
/* Frees @l and everything in it.  NULL-safe. */
void dev_list_free(struct dev_list *l);
/* A copy of @l and everything in it (freed with dev_list_free), NULL when
 * out of memory. */
struct dev_list *dev_list_dup(const struct dev_list *l);
/* The marks of every namespace and block device of @l (as dev_scan fills
 * them): each probed in a helper process (probe.h), all side by side,
 * waiting at most @deadline_ms; @answered(@ctx) is called on the calling
 * thread each time a device's mark is in (may be NULL).  0 or -ENOMEM. */
int dev_list_probe(struct dev_list *l, unsigned deadline_ms, void (*answered)(void *ctx),
		   void *ctx);
/* Every mark of @l "probing" (probe_mark_pending: unknown, so in use):
 * the devices are listed, their probes not answered yet. */
void dev_list_mark_pending(struct dev_list *l);

/* Builders (used by dev_scan and by unit tests).  Each returns a zeroed
 * entry owned by the list, or NULL when out of memory.  Pointers into an
 * array stay valid only until the next add to that same array. */
struct dev_list *dev_list_new(void);
struct dev_ctrl *dev_list_add_ctrl(struct dev_list *l);
struct dev_ns *dev_ctrl_add_ns(struct dev_ctrl *c);
struct dev_block *dev_list_add_block(struct dev_list *l);
/* Adds a plain file (or any path) as a DEV_KIND_FILE target, with its size
 * from stat().  0 or -errno. */
int dev_list_add_file(struct dev_list *l, const char *path);

/* Fills the generic (passthrough) node of @c's namespaces that libnvme did
 * not name, from the nvme-generic class (@sysclass, normally
 * "/sys/class/nvme-generic": ng<controller>n<namespace>, present in
 * @devdir, normally "/dev").  Called by the scan. */
void dev_generic_fill(struct dev_ctrl *c, const char *sysclass, const char *devdir);
/* Finds @path ("/dev/nvme0", "/dev/nvme0n1", "/dev/ng0n1", "nvme0n1", a
 * symlink to one of them) among the controllers.  Returns the controller and,
 * when the path names a namespace, *@ns (else *@ns = NULL); NULL when it is
 * not an NVMe device of @l.  @ns may be NULL. */
const struct dev_ctrl *dev_list_find_nvme(const struct dev_list *l, const char *path,
					  const struct dev_ns **ns);
/* Finds a non-NVMe entry by path or name; NULL when absent. */
const struct dev_block *dev_list_find_block(const struct dev_list *l, const char *path);

/* Can @c do @m?  False with *@why set ("sanitize crypto erase not supported
 * (SANICAP)") when Identify says no or is unknown.  @why may be NULL. */
bool dev_ctrl_supports(const struct dev_ctrl *c, enum purge_method m, const char **why);

/* Can non-NVMe target @b be purged with @m?  Only PURGE_TRIM, and only
 * where the device supports discard; false with *@why set otherwise (@why
 * may be NULL). */
bool dev_block_supports(const struct dev_block *b, enum purge_method m, const char **why);

/* Reads the first line of @dir/@file (a sysfs attribute) into @buf,
 * trimmed.  0 or -errno (@buf = "" then). */
int dev_sysfs_read(const char *dir, const char *file, char *buf, size_t len);

/* Copies @src into @dst (size @len; @dst may equal @src), dropping leading and trailing
 * whitespace and NUL padding; @src need not be NUL-terminated within
 * @srclen bytes.  Returns @dst. */
char *dev_strtrim(char *dst, size_t len, const char *src, size_t srclen);

/* ---- health (SMART / Health Information log page 02h) ---- */

#define DEV_MAX_SENSORS 8
/* Critical warning bits (NVMe base spec, SMART log byte 0). */
enum {
	DEV_CW_SPARE = 1 << 0,       /* available spare below threshold */
	DEV_CW_TEMPERATURE = 1 << 1, /* temperature over/under threshold */
	DEV_CW_RELIABILITY = 1 << 2, /* NVM subsystem reliability degraded */
	DEV_CW_READ_ONLY = 1 << 3,   /* media placed in read-only mode */
	DEV_CW_VOLATILE_MEM = 1 << 4,/* volatile memory backup failed */
	DEV_CW_PMR_RO = 1 << 5,      /* persistent memory region read-only */
};

/* Counters that are 128-bit in the log page are saturated to UINT64_MAX. */
struct dev_health {
	uint8_t critical_warning;      /* raw bits, DEV_CW_* */
	double temperature_c;          /* composite */
	bool temperature_valid;        /* false when the drive reports 0 K */
	double sensors_c[DEV_MAX_SENSORS];
	bool sensor_valid[DEV_MAX_SENSORS];
	uint8_t avail_spare;           /* % */
	uint8_t spare_thresh;          /* % */
	uint8_t percent_used;          /* %, may exceed 100 */
	uint64_t data_units_read;      /* units of 1000 * 512 bytes */
	uint64_t data_units_written;
	uint64_t host_read_commands;
	uint64_t host_write_commands;
	uint64_t ctrl_busy_minutes;
	uint64_t power_cycles;
	uint64_t power_on_hours;
	uint64_t unsafe_shutdowns;
	uint64_t media_errors;
	uint64_t error_log_entries;
	/* valid when the controller reports WCTEMP/CCTEMP (Identify) */
	uint32_t warning_temp_minutes;
	bool warning_temp_valid;
	uint32_t critical_temp_minutes;
	bool critical_temp_valid;
	/* thermal management transitions: valid when HCTMA is supported */
	uint32_t thm_trans_count[2];   /* TMT1, TMT2 */
	uint32_t thm_total_seconds[2];
	bool thm_valid;
};

/* Reads the SMART / health log of the controller behind @path (a
 * controller "/dev/nvme0", a namespace "/dev/nvme0n1" or "/dev/ng0n1"),
 * controller-wide (NSID FFFFFFFFh).  Blocking admin command: call it off
 * the I/O threads (the console refreshes it every few seconds).  Returns 0,
 * -ENOTTY when @path is not an NVMe device, -ENOENT/-EACCES when it cannot
 * be opened, -EIO when the controller failed the command (its NVMe status
 * in *@nvme_status, may be NULL); one line in @err in every error case. */
int dev_health_read(const char *path, struct dev_health *h, int *nvme_status, char *err,
		    size_t errlen);
/* Decodes a raw 512-byte SMART / health log page (NVMe base spec layout,
 * little endian) into @h.  @caps (may be NULL or invalid: then every field
 * the page carries counts as reported) decides the validity of the
 * warning/critical temperature times (WCTEMP/CCTEMP) and of the thermal
 * management counters (HCTMA).  Returns 0, -EINVAL when @len < 512. */
int dev_health_decode(const void *log, size_t len, const struct dev_caps *caps,
		      struct dev_health *h);
/* Name of critical-warning bit @bit (0..7): "available_spare",
 * "temperature", "reliability", "read_only", "volatile_memory_backup",
 * "pmr_read_only", NULL for reserved bits. */
const char *dev_cw_name(unsigned bit);
/* Words of the NVMe Base Specification for critical-warning bit @bit
 * (0..7): "spare below threshold", "temperature", "reliability degraded",
 * "read-only", "volatile backup failed", "PMR read-only"; NULL for reserved
 * bits.  What people read (`nvscope health`, the console). */
const char *dev_cw_label(unsigned bit);
/* The set bits of @cw as their labels joined by ", " ("reliability
 * degraded, read-only"; reserved bits as "reserved bit N"), "" when @cw is
 * 0.  Writes at most @len bytes (NUL included) like snprintf and returns the
 * length the whole text needs: a caller can see it was cut. */
size_t dev_cw_text(uint8_t cw, char *buf, size_t len);
/* Data units (1000 * 512 bytes each) as terabytes (10^12 bytes). */
double dev_units_to_tb(uint64_t units);

/* ---- output ---- */

/* JSON of the list: {"controllers":[...], "block_devices":[...]}, keys as
 * in docs/nvme.md.  Caller frees with cJSON_Delete; NULL when out of memory.
 * (Returns a cJSON *, declared void * so this header needs no cJSON.) */
void *dev_list_to_json(const struct dev_list *l);
/* The list @json (a cJSON * of dev_list_to_json's layout, as another
 * host's agent sends it; a controller's "health" object, when present,
 * becomes its health log) read back: outside input, every field checked.
 * NULL with @err (not that layout, a bad field, out of memory).  A usage
 * not reported is unknown, so in use. */
struct dev_list *dev_list_from_json(const void *json, char *err, size_t errlen);
/* JSON of a health log: temperature_c, sensors_c[], critical_warning (int),
 * critical_warning_names[], ...; invalid optional fields are null.  @device
 * is put in as "device" when not NULL.  Caller frees with cJSON_Delete. */
void *dev_health_to_json(const struct dev_health *h, const char *device);
/* The `nvme list`-like table (node, generic, SN, model, namespace, usage,
 * format, FW) followed by the non-NVMe targets. */
void dev_list_print_table(const struct dev_list *l, FILE *f);
/* The controller -> namespace tree, then the other targets. */
void dev_list_print_tree(const struct dev_list *l, FILE *f);
/* Human health report, N/A for invalid fields. */
void dev_health_print(const struct dev_health *h, const char *device, FILE *f);

#endif

/* zbdev.h - the zoned device under zonemode=zbd (io/feat/zbd.h): what fio's
 * oslib/linux-blkzoned.c does for a zoned block device (BLKREPORTZONE,
 * BLKRESETZONE, BLKFINISHZONE, sysfs queue/zoned, max_open_zones,
 * max_active_zones) and engines/nvme.c for a zoned namespace through its
 * NVMe generic device /dev/ngXnY (Zone Management Receive 7Ah: report
 * zones; Zone Management Send 79h: reset / finish; the Identify data of
 * the Zoned command set through dev/nvme.h).  The parsers and command
 * builders are pure (unit-tested); a parser refuses a short or malformed
 * report (-EIO).
 *
 * Safety: zbdev_reset and zbdev_finish destroy a zone's data.  They act
 * only through a descriptor that target_open opened for writing, that is
 * through dev/safety.h (exclusive claim, judged: data refused without
 * --force-destroy); a device probed read-only (@writable false) gets
 * -EPERM and nothing is sent. */
#ifndef NVS_ZBDEV_H
#define NVS_ZBDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/nvme_ioctl.h>

struct target;

enum zbdev_model { ZBDEV_NONE, ZBDEV_HOST_AWARE, ZBDEV_HOST_MANAGED };
enum zbdev_kind { ZBDEV_BLOCK, ZBDEV_NVME };

/* Zone conditions: the block layer's BLK_ZONE_COND_* values, which are
 * also NVMe's zone states (ZS) */
enum {
	ZBDEV_COND_NOT_WP = 0x0,
	ZBDEV_COND_EMPTY = 0x1,
	ZBDEV_COND_IMP_OPEN = 0x2,
	ZBDEV_COND_EXP_OPEN = 0x3,
	ZBDEV_COND_CLOSED = 0x4,
	ZBDEV_COND_READONLY = 0xd,
	ZBDEV_COND_FULL = 0xe,
	ZBDEV_COND_OFFLINE = 0xf,
};

/* One zone, in bytes. */
struct zbdev_zone {
	uint64_t start, len, cap, wp;
	uint8_t cond;
	bool seq; /* sequential write required/preferred (false: conventional) */
};

/* A zoned device as probed. */
struct zbdev {
	enum zbdev_model model;
	enum zbdev_kind kind;
	int fd;	       /* the target's descriptor (not owned) */
	bool writable; /* opened for writing through dev/safety.h */
	uint32_t nsid; /* NVMe: namespace */
	uint32_t lba_shift;
	uint64_t zsize; /* bytes */
	uint64_t size;
	uint32_t max_open, max_active; /* 0: no limit */
};

/* NVMe zoned command set (NVMe ZNS command set spec). */
#define ZBDEV_OP_MGMT_SEND 0x79
#define ZBDEV_OP_MGMT_RECV 0x7a
#define ZBDEV_ZSA_CLOSE	   0x1
#define ZBDEV_ZSA_FINISH   0x2
#define ZBDEV_ZSA_OPEN	   0x3
#define ZBDEV_ZSA_RESET	   0x4
#define ZBDEV_ZRA_REPORT   0x0
#define ZBDEV_ZRAS_ALL	   0x0
#define ZBDEV_ZNS_HDR	   64 /* report header: number of zones, reserved */
#define ZBDEV_ZNS_DESC	   64 /* one zone descriptor */

/* Zone Management Receive (report zones from @slba, all states, partial
 * report bit set: the count is of the descriptors returned) into @buf of
 * @len bytes (a multiple of 4, at least the header). */
void zbdev_zns_recv_cmd(struct nvme_passthru_cmd *c, uint32_t nsid, uint64_t slba, void *buf,
			uint32_t len);
/* Zone Management Send with action @zsa on the zone starting at @slba. */
void zbdev_zns_send_cmd(struct nvme_passthru_cmd *c, uint32_t nsid, uint64_t slba, uint8_t zsa);
/* Parses an NVMe zone report of @len bytes (zone size @zsize bytes, LBAs
 * of 1 << @lba_shift) into at most @max zones: *@got of them.  -EIO on a
 * short report, a count beyond the buffer, a zone not where the previous
 * one ended, a write pointer outside its zone or a capacity over the
 * zone size. */
int zbdev_parse_zns(const void *buf, size_t len, uint32_t lba_shift, uint64_t zsize,
		    struct zbdev_zone *z, uint32_t max, uint32_t *got);
/* The same for the block layer's struct blk_zone_report of @len bytes. */
int zbdev_parse_blk(const void *buf, size_t len, struct zbdev_zone *z, uint32_t max, uint32_t *got);

/* Probes target @t (open as @t->fd; @writable: opened for writing through
 * dev/safety.h): model ZBDEV_NONE for a device or file that is not zoned
 * (0).  A zoned block device: sysfs queue/zoned, chunk_sectors,
 * max_open_zones, max_active_zones; an NVMe generic device: Identify
 * (dev/nvme.h nvs_nvme_zns).  -errno with @err. */
int zbdev_probe(const struct target *t, bool writable, struct zbdev *d, char *err, size_t errlen);
/* Reports zones from byte offset @off into @z (at most @n): *@got. */
int zbdev_report(const struct zbdev *d, uint64_t off, struct zbdev_zone *z, uint32_t n,
		 uint32_t *got);
/* Resets / finishes the zone at byte offset @off (a zone start). */
int zbdev_reset(const struct zbdev *d, uint64_t off);
int zbdev_finish(const struct zbdev *d, uint64_t off);

#endif

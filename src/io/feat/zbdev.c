/* zbdev.c - zone report, reset and finish on a zoned block device or a
 * zoned namespace (zbdev.h).
 *
 * fio 3.33 / master: oslib/linux-blkzoned.c reads the zone model from
 * sysfs queue/zoned, the zone size from BLKGETZONESZ (the same as
 * queue/chunk_sectors), the limits from queue/max_open_zones and
 * queue/max_active_zones, the zones with BLKREPORTZONE (capacity from the
 * report when BLK_ZONE_REP_CAPACITY) and resets with BLKRESETZONE, finishes
 * with BLKFINISHZONE.  engines/nvme.c: the model from Identify (CSI 2,
 * CNS 06h and 05h), the zone size from the LBA format extension's ZSZE,
 * max open zones MOR + 1, zones with Zone Management Receive (partial
 * report), reset and finish with Zone Management Send (ZSA 04h, 02h), all
 * through the NVMe generic device's NVME_IOCTL_IO_CMD. */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/blkzoned.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "base/num.h"
#include "dev/nvme.h"
#include "io/core/target.h"
#include "io/feat/zbdev.h"

#define ZBDEV_TIMEOUT_MS 30000

void zbdev_zns_recv_cmd(struct nvme_passthru_cmd *c, uint32_t nsid, uint64_t slba, void *buf,
			uint32_t len)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ZBDEV_OP_MGMT_RECV;
	c->nsid = nsid;
	c->addr = (uint64_t)(uintptr_t)buf;
	c->data_len = len;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw12 = (len >> 2) - 1; /* NUMD: dwords, zero based */
	/* ZRA report zones, ZRAS all states, partial report (bit 16) */
	c->cdw13 = ZBDEV_ZRA_REPORT | ZBDEV_ZRAS_ALL << 8 | 1u << 16;
	c->timeout_ms = ZBDEV_TIMEOUT_MS;
}

void zbdev_zns_send_cmd(struct nvme_passthru_cmd *c, uint32_t nsid, uint64_t slba, uint8_t zsa)
{
	memset(c, 0, sizeof(*c));
	c->opcode = ZBDEV_OP_MGMT_SEND;
	c->nsid = nsid;
	c->cdw10 = (uint32_t)slba;
	c->cdw11 = (uint32_t)(slba >> 32);
	c->cdw13 = zsa; /* select all (bit 8) stays clear: this zone only */
	c->timeout_ms = ZBDEV_TIMEOUT_MS;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return le64toh(v);
}

/* The checks every report gets: zones in order, one after another, the
 * write pointer of a zone that is writable inside it. */
static int check_zone(struct zbdev_zone *z, const struct zbdev_zone *prev)
{
	if (!z->len || z->cap > z->len || z->start + z->len < z->start)
		return -EIO;
	if (prev && z->start != prev->start + prev->len)
		return -EIO;
	switch (z->cond) {
	case ZBDEV_COND_NOT_WP:
		if (z->seq)
			return -EIO;
		z->wp = z->start; /* conventional: no write pointer */
		return 0;
	case ZBDEV_COND_FULL:
		z->wp = z->start + z->cap; /* its write pointer is undefined */
		return 0;
	case ZBDEV_COND_READONLY:
	case ZBDEV_COND_OFFLINE:
		z->wp = z->start; /* fio: treated as offline, not used */
		return 0;
	case ZBDEV_COND_EMPTY:
	case ZBDEV_COND_IMP_OPEN:
	case ZBDEV_COND_EXP_OPEN:
	case ZBDEV_COND_CLOSED:
		if (!z->seq || z->wp < z->start || z->wp > z->start + z->cap)
			return -EIO;
		return 0;
	default:
		return -EIO;
	}
}

int zbdev_parse_zns(const void *buf, size_t len, uint32_t lba_shift, uint64_t zsize,
		    struct zbdev_zone *z, uint32_t max, uint32_t *got)
{
	const uint8_t *p = buf;

	*got = 0;
	if (!buf || len < ZBDEV_ZNS_HDR || lba_shift < 9 || lba_shift > 16 || !zsize)
		return -EIO;
	uint64_t n = rd64(p);
	if (n > (len - ZBDEV_ZNS_HDR) / ZBDEV_ZNS_DESC)
		return -EIO; /* more zones than the buffer holds */
	for (uint64_t i = 0; i < n && i < max; i++) {
		const uint8_t *d = p + ZBDEV_ZNS_HDR + i * ZBDEV_ZNS_DESC;
		uint64_t zslba = rd64(d + 16), wp = rd64(d + 24), cap = rd64(d + 8);
		struct zbdev_zone *o = &z[i];
		o->cond = d[1] >> 4;
		/* full, read-only and offline zones have no valid write pointer
		 * (QEMU reports all ones): check_zone sets it */
		if (o->cond == ZBDEV_COND_FULL || o->cond == ZBDEV_COND_READONLY ||
		    o->cond == ZBDEV_COND_OFFLINE)
			wp = zslba;
		if (zslba >> (64 - lba_shift) || wp >> (64 - lba_shift) || cap >> (64 - lba_shift))
			return -EIO;
		o->start = zslba << lba_shift;
		o->len = zsize;
		o->cap = cap << lba_shift;
		o->wp = wp << lba_shift;
		if ((d[0] & 0xf) != 0x2) /* only sequential write required exists */
			return -EIO;
		o->seq = true;
		if (o->start % zsize || check_zone(o, i ? &z[i - 1] : NULL))
			return -EIO;
		*got = (uint32_t)i + 1;
	}
	return 0;
}

int zbdev_parse_blk(const void *buf, size_t len, struct zbdev_zone *z, uint32_t max, uint32_t *got)
{
	const struct blk_zone_report *r = buf;

	*got = 0;
	if (!buf || len < sizeof(*r))
		return -EIO;
	if (r->nr_zones > (len - sizeof(*r)) / sizeof(struct blk_zone))
		return -EIO;
	for (uint32_t i = 0; i < r->nr_zones && i < max; i++) {
		const struct blk_zone *b = &r->zones[i];
		struct zbdev_zone *o = &z[i];
		if (b->start >> 55 || b->len >> 55 || b->wp >> 55 || b->capacity >> 55)
			return -EIO;
		o->start = b->start << 9;
		o->len = b->len << 9;
		o->cap = (r->flags & BLK_ZONE_REP_CAPACITY ? b->capacity : b->len) << 9;
		o->wp = b->wp << 9;
		o->cond = b->cond;
		if (b->type == BLK_ZONE_TYPE_CONVENTIONAL)
			o->seq = false;
		else if (b->type == BLK_ZONE_TYPE_SEQWRITE_REQ ||
			 b->type == BLK_ZONE_TYPE_SEQWRITE_PREF)
			o->seq = true;
		else
			return -EIO;
		if (check_zone(o, i ? &z[i - 1] : NULL))
			return -EIO;
		*got = i + 1;
	}
	return 0;
}

/* sysfs queue/@attr of block device @rdev: 0 with *@v ("none" for zoned:
 * its first word), -ENOENT when absent. */
static int sysfs_str(dev_t rdev, const char *attr, char *v, size_t n)
{
	char p[128];
	int fd, len;

	if (snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/queue/%s", major(rdev), minor(rdev),
		     attr) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = (int)read(fd, v, n - 1);
	close(fd);
	if (len <= 0)
		return -EIO;
	v[len] = '\0';
	v[strcspn(v, " \n")] = '\0';
	return 0;
}

static uint32_t sysfs_u32(dev_t rdev, const char *attr)
{
	char v[32];
	unsigned u = 0;

	if (sysfs_str(rdev, attr, v, sizeof(v)) || num_parse_uint(v, 0, UINT32_MAX, &u))
		return 0;
	return u;
}

static int probe_blk(const struct target *t, struct zbdev *d, char *err, size_t errlen)
{
	char v[32];
	uint32_t sectors = 0;

	if (sysfs_str(t->rdev, "zoned", v, sizeof(v)) || !strcmp(v, "none"))
		return 0; /* not zoned (or a kernel without zoned support) */
	if (!strcmp(v, "host-managed"))
		d->model = ZBDEV_HOST_MANAGED;
	else if (!strcmp(v, "host-aware"))
		d->model = ZBDEV_HOST_AWARE;
	else
		return snprintf(err, errlen, "%s: queue/zoned says '%s'", t->path, v), -EINVAL;
	if (ioctl(t->fd, BLKGETZONESZ, &sectors) || !sectors)
		return snprintf(err, errlen, "%s: BLKGETZONESZ: %s", t->path,
				sectors ? strerror(errno) : "zone size 0"),
		       -EIO;
	d->kind = ZBDEV_BLOCK;
	d->zsize = (uint64_t)sectors << 9;
	d->max_open = sysfs_u32(t->rdev, "max_open_zones");
	d->max_active = sysfs_u32(t->rdev, "max_active_zones");
	return 0;
}

static int probe_nvme(const struct target *t, struct zbdev *d, char *err, size_t errlen)
{
	struct nvs_zns zn;
	int st = 0;
	char e2[256];

	/* fio: a namespace whose CSI 2 Identify fails is not zoned */
	int rc = nvs_nvme_zns(t->path, t->nsid, &zn, &st, e2, sizeof(e2));
	if (rc == -ENODEV || (rc == -EIO && st))
		return 0;
	if (rc)
		return snprintf(err, errlen, "%s", e2), rc;
	if (!zn.zsze || zn.zsze >> (64 - t->lba_shift - 1))
		return snprintf(err, errlen, "%s: Identify (zoned) gives zone size %llu LBAs",
				t->path, (unsigned long long)zn.zsze),
		       -EIO;
	d->model = ZBDEV_HOST_MANAGED;
	d->kind = ZBDEV_NVME;
	d->zsize = zn.zsze << t->lba_shift;
	d->max_open = zn.mor == UINT32_MAX ? 0 : zn.mor + 1;
	d->max_active = zn.mar == UINT32_MAX ? 0 : zn.mar + 1;
	return 0;
}

int zbdev_probe(const struct target *t, bool writable, struct zbdev *d, char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->fd = t->fd;
	d->writable = writable;
	d->nsid = t->nsid;
	d->lba_shift = t->lba_shift ? t->lba_shift : 9;
	d->size = t->size;
	if (t->kind == TARGET_BLOCK)
		return probe_blk(t, d, err, errlen);
	if (t->kind == TARGET_NVME_GENERIC)
		return probe_nvme(t, d, err, errlen);
	return 0;
}

#define REPORT_CHUNK 256u

int zbdev_report(const struct zbdev *d, uint64_t off, struct zbdev_zone *z, uint32_t n,
		 uint32_t *got)
{
	uint32_t have = 0;
	int rc = 0;
	size_t len = d->kind == ZBDEV_BLOCK
			 ? sizeof(struct blk_zone_report) + REPORT_CHUNK * sizeof(struct blk_zone)
			 : ZBDEV_ZNS_HDR + REPORT_CHUNK * ZBDEV_ZNS_DESC;
	void *buf = calloc(1, len);

	*got = 0;
	if (!buf)
		return -ENOMEM;
	while (have < n && off < d->size) {
		uint32_t k = 0, want = n - have < REPORT_CHUNK ? n - have : REPORT_CHUNK;
		memset(buf, 0, len);
		if (d->kind == ZBDEV_BLOCK) {
			struct blk_zone_report *r = buf;
			r->sector = off >> 9;
			r->nr_zones = want;
			if (ioctl(d->fd, BLKREPORTZONE, r)) {
				rc = -errno;
				break;
			}
			rc = zbdev_parse_blk(buf, len, z + have, want, &k);
		} else {
			struct nvme_passthru_cmd c;
			uint32_t l = (uint32_t)(ZBDEV_ZNS_HDR + want * ZBDEV_ZNS_DESC);
			zbdev_zns_recv_cmd(&c, d->nsid, off >> d->lba_shift, buf, l);
			int r = ioctl(d->fd, NVME_IOCTL_IO_CMD, &c);
			if (r) {
				rc = r < 0 ? -errno : -EIO;
				break;
			}
			rc = zbdev_parse_zns(buf, l, d->lba_shift, d->zsize, z + have, want, &k);
		}
		if (rc)
			break;
		if (!k || (have && z[have].start != z[have - 1].start + z[have - 1].len) ||
		    z[have].start != off) {
			rc = -EIO; /* a report that does not start where asked */
			break;
		}
		have += k;
		off = z[have - 1].start + z[have - 1].len;
	}
	free(buf);
	*got = have;
	return rc;
}

static int mgmt(const struct zbdev *d, uint64_t off, bool reset)
{
	/* only a descriptor opened for writing through dev/safety.h */
	if (!d->writable || d->fd < 0)
		return -EPERM;
	if (off % d->zsize || off >= d->size)
		return -EINVAL;
	if (d->kind == ZBDEV_BLOCK) {
		struct blk_zone_range r = {.sector = off >> 9, .nr_sectors = d->zsize >> 9};
		if (r.sector + r.nr_sectors > d->size >> 9) /* a smaller last zone */
			r.nr_sectors = (d->size >> 9) - r.sector;
		return ioctl(d->fd, reset ? BLKRESETZONE : BLKFINISHZONE, &r) ? -errno : 0;
	}
	struct nvme_passthru_cmd c;
	zbdev_zns_send_cmd(&c, d->nsid, off >> d->lba_shift,
			   reset ? ZBDEV_ZSA_RESET : ZBDEV_ZSA_FINISH);
	int r = ioctl(d->fd, NVME_IOCTL_IO_CMD, &c);
	return r < 0 ? -errno : r ? -EIO : 0;
}

int zbdev_reset(const struct zbdev *d, uint64_t off)
{
	return mgmt(d, off, true);
}

int zbdev_finish(const struct zbdev *d, uint64_t off)
{
	return mgmt(d, off, false);
}

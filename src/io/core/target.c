/* target.c - opening I/O targets and learning their size and block size. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "dev/nvme.h"
#include "dev/safety.h"
#include "io/core/target.h"

const char *target_kind_name(enum target_kind k)
{
	switch (k) {
	case TARGET_FILE:
		return "file";
	case TARGET_BLOCK:
		return "block";
	case TARGET_CHAR:
		return "char";
	case TARGET_NVME_GENERIC:
		return "nvme-generic";
	}
	return "?";
}

static uint32_t log2u(uint32_t v)
{
	uint32_t s = 0;
	while ((1u << s) < v)
		s++;
	return s;
}

static int identify(int fd, uint32_t nsid, uint32_t cns, unsigned char *id)
{
	struct nvme_admin_cmd cmd;

	memset(id, 0, 4096);
	memset(&cmd, 0, sizeof(cmd));
	cmd.opcode = 0x06; /* Identify */
	cmd.nsid = nsid;
	cmd.addr = (uint64_t)(uintptr_t)id;
	cmd.data_len = 4096;
	cmd.cdw10 = cns; /* CSI 0 (NVM) in CDW11 */
	return ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd) ? -(errno ? errno : EIO) : 0;
}

/* Identify Namespace (CNS 0) through the admin passthrough ioctl, which the
 * generic char device /dev/ngXnY accepts: size in LBAs and the in-use LBA
 * format (data size, metadata size, extended or not, PI type and place);
 * with PI, the guard format and storage tag size (Identify NVM namespace
 * ELBAF, dev/nvme.c through libnvme's structures) as fio reads them: when
 * that fails, the PI cannot be written or checked, and the open fails as
 * fio's does. */
static int generic_geometry(struct target *t, char *err, size_t errlen)
{
	unsigned char *id = NULL;
	int nsid = ioctl(t->fd, NVME_IOCTL_ID), rc;

	if (nsid <= 0) {
		snprintf(err, errlen, "%s: not an NVMe namespace (NVME_IOCTL_ID: %s)", t->path,
			 strerror(errno));
		return -ENOTTY;
	}
	if (posix_memalign((void **)&id, 4096, 4096))
		return -ENOMEM;
	rc = identify(t->fd, (uint32_t)nsid, 0, id); /* CNS 0: Identify Namespace */
	if (rc) {
		snprintf(err, errlen, "%s: Identify Namespace failed: %s", t->path, strerror(-rc));
		free(id);
		return rc;
	}
	uint64_t nsze;
	memcpy(&nsze, id, 8);
	/* FLBAS bits 3:0, and 6:5 above them with more than 16 formats */
	unsigned fidx = (id[26] & 0x0f) | (id[25] >= 16 ? ((id[26] >> 5) & 3u) << 4 : 0);
	uint32_t lbads = id[128 + 4 * fidx + 2];
	uint32_t ms = id[128 + 4 * fidx] | (uint32_t)id[128 + 4 * fidx + 1] << 8;
	t->fmt.ms = ms;
	t->fmt.ext = ms && (id[26] & 0x10);
	t->fmt.type = ms ? (uint8_t)(id[29] & 7) : 0;
	t->fmt.first = (id[29] & 8) != 0;
	if (t->fmt.type) { /* the guard format: fails with its reason in @err */
		rc = nvs_nvme_pi_format(t->fd, t->path, (uint32_t)nsid, fidx, &t->fmt.pif, &t->sts,
					NULL, err, errlen);
		if (rc) {
			free(id);
			return rc;
		}
	}
	free(id);
	if (lbads < 9 || lbads > 16) {
		snprintf(err, errlen, "%s: unusable LBA format (lbads %u)", t->path, lbads);
		return -EINVAL;
	}
	t->nsid = (uint32_t)nsid;
	t->lba_shift = lbads;
	t->lbs = 1u << lbads;
	t->nlba = nsze;
	t->fmt.lba_data = t->lbs;
	t->fmt.stride = t->fmt.ext ? t->lbs + ms : t->lbs;
	/* fio's size of an extended-LBA namespace: its LBAs with their metadata */
	t->size = nsze * t->fmt.stride;
	if (t->fmt.ext)
		t->lbs = t->fmt.stride;
	return 0;
}

/* Writes random data over [from, to) so reads of a new file hit real blocks,
 * as fio's layout does. */
static int layout(int fd, uint64_t from, uint64_t to)
{
	const size_t chunk = 1 << 20;
	unsigned char *buf = malloc(chunk);
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ from;

	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; i < chunk; i += 8) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		memcpy(buf + i, &x, 8);
	}
	for (uint64_t off = from; off < to;) {
		size_t n = to - off < chunk ? (size_t)(to - off) : chunk;
		ssize_t w = pwrite(fd, buf, n, (off_t)off);
		if (w <= 0) {
			free(buf);
			return w < 0 ? -errno : -EIO;
		}
		off += (uint64_t)w;
	}
	free(buf);
	return fsync(fd) ? -errno : 0;
}

/* Sets O_DIRECT on an open descriptor (after the safety probe and the
 * layout, which use unaligned buffers). */
static int set_direct(int fd, const char *path, char *err, size_t errlen)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0 && !fcntl(fd, F_SETFL, fl | O_DIRECT))
		return 0;
	int rc = -errno;
	snprintf(err, errlen, "%s: %s%s", path, strerror(-rc),
		 rc == -EINVAL ? " (O_DIRECT not supported: use --direct=0)" : "");
	return rc;
}

/* Opens through the safety module (docs/safety.md): exclusive claim first,
 * then the probe through the held descriptor.  A refusal is -EPERM. */
static int open_safe(struct target *t, struct safety_claims *cs, const char *path, int flags,
		     bool force, char *err, size_t errlen)
{
	char msg[768];
	int rc = safety_claims_open(cs, path, flags, force, &t->fd, &t->guard_fd, msg, sizeof(msg));

	if (rc == -EBUSY || rc == -EEXIST) {
		snprintf(err, errlen, "refusing to write: %s", msg);
		return -EPERM;
	}
	if (rc)
		snprintf(err, errlen, "%s", msg);
	return rc;
}

static int open_file(struct target *t, struct safety_claims *cs, const char *path, bool write,
		     bool force, bool direct, uint64_t want, uint64_t size, char *err,
		     size_t errlen)
{
	struct stat st;
	int rc;

	if (write || want > size) {
		/* written (or extended by the layout): judged like a device */
		rc = open_safe(t, cs, path, O_RDWR | O_CREAT, force, err, errlen);
		if (rc)
			return rc;
	} else {
		t->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (t->fd < 0) {
			rc = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(-rc));
			return rc;
		}
		if ((rc = safety_pin_verify_fd(t->fd, path, err, errlen)))
			goto close_fd;
	}
	if (fstat(t->fd, &st)) {
		rc = -errno;
		goto close_fd;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = -EAGAIN;
		snprintf(err, errlen, "%s changed while it was being opened", path);
		goto close_fd;
	}
	if (want && (uint64_t)st.st_size < want) {
		rc = layout(t->fd, (uint64_t)st.st_size, want);
		if (rc) {
			snprintf(err, errlen, "%s: cannot lay out %llu bytes: %s", path,
				 (unsigned long long)want, strerror(-rc));
			goto close_fd;
		}
		st.st_size = (off_t)want;
	}
	if (direct) {
		rc = set_direct(t->fd, path, err, errlen);
		if (rc)
			goto close_fd;
	}
	t->kind = TARGET_FILE;
	t->size = (uint64_t)st.st_size;
	t->lbs = 512;
	return 0;

close_fd:
	if (rc && !err[0])
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	target_close(t);
	return rc;
}

/* What the opened device @t is (its stat @st): a block device's size and
 * logical block size, an NVMe generic device's namespace geometry, a
 * character device of --size @want_size.  0, or -errno with @err (the
 * descriptor stays open: the caller closes it). */
static int device_geometry(struct target *t, const struct stat *st, const char *path,
			   uint64_t want_size, char *err, size_t errlen)
{
	t->rdev = st->st_rdev;
	if (S_ISBLK(st->st_mode)) {
		int lbs = 0;
		t->kind = TARGET_BLOCK;
		if (ioctl(t->fd, BLKGETSIZE64, &t->size) || ioctl(t->fd, BLKSSZGET, &lbs)) {
			int rc = -errno;
			snprintf(err, errlen, "%s: cannot read size: %s", path, strerror(errno));
			return rc;
		}
		t->lbs = (uint32_t)lbs;
	} else if (S_ISCHR(st->st_mode) && safety_is_nvme_generic(st->st_rdev)) {
		t->kind = TARGET_NVME_GENERIC;
		return generic_geometry(t, err, errlen);
	} else if (S_ISCHR(st->st_mode)) {
		t->kind = TARGET_CHAR;
		if (!want_size) {
			snprintf(err, errlen, "%s: a character device has no size: give --size",
				 path);
			return -EINVAL;
		}
		t->size = want_size;
		t->lbs = 512;
	} else {
		snprintf(err, errlen, "%s changed while it was being opened", path);
		return -EAGAIN;
	}
	return 0;
}

int target_open(struct target *t, const char *path, bool write, bool force, bool direct,
		uint64_t want_size, char *err, size_t errlen)
{
	return target_open_claims(t, NULL, path, write, force, direct, want_size, err, errlen);
}

int target_open_claims(struct target *t, struct safety_claims *cs, const char *path, bool write,
		       bool force, bool direct, uint64_t want_size, char *err, size_t errlen)
{
	struct stat st;
	int rc;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->guard_fd = -1;
	err[0] = '\0';
	if (strlen(path) >= sizeof(t->path)) {
		snprintf(err, errlen, "path too long: %s", path);
		return -ENAMETOOLONG;
	}
	snprintf(t->path, sizeof(t->path), "%s", path);
	if (stat(path, &st)) {
		if (errno != ENOENT || !want_size) {
			rc = -errno;
			snprintf(err, errlen, "%s: %s%s", path, strerror(errno),
				 errno == ENOENT ? " (give --size to create a file)" : "");
			return rc;
		}
		st.st_mode = S_IFREG;
		st.st_size = 0;
	}
	if (S_ISREG(st.st_mode)) {
		rc = open_file(t, cs, path, write, force, direct, want_size, (uint64_t)st.st_size,
			       err, errlen);
		goto done;
	}
	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a file or a device", path);
		return -EINVAL;
	}
	if (write) {
		/* the block device under an exclusive claim (no two writers, no
		 * mount or mkfs while it runs), judged through that descriptor;
		 * O_DIRECT is part of a claim its run group shares */
		int dflag = S_ISBLK(st.st_mode) && direct ? O_DIRECT : 0;
		rc = open_safe(t, cs, path, O_RDWR | dflag, force, err, errlen);
		if (rc)
			return rc;
		if (fstat(t->fd, &st)) {
			rc = -errno;
			goto close_fd;
		}
		if (S_ISBLK(st.st_mode) && direct) {
			rc = set_direct(t->fd, path, err, errlen);
			if (rc)
				goto close_fd;
		}
	} else {
		int flags = O_RDONLY | O_CLOEXEC | (S_ISBLK(st.st_mode) && direct ? O_DIRECT : 0);
		t->fd = open(path, flags);
		if (t->fd < 0 || fstat(t->fd, &st)) {
			rc = -errno;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			goto close_fd;
		}
		/* a read of a target pinned by a check or plan: the same device */
		if ((rc = safety_pin_verify_fd(t->fd, path, err, errlen)))
			goto close_fd;
	}
	if ((rc = device_geometry(t, &st, path, want_size, err, errlen)))
		goto close_fd;
done:
	if (!rc && !t->lba_shift)
		t->lba_shift = log2u(t->lbs);
	return rc;

close_fd:
	target_close(t);
	return rc;
}

void target_close(struct target *t)
{
	if (t && t->fd >= 0) {
		close(t->fd);
		t->fd = -1;
	}
	if (t && t->guard_fd > 0) {
		close(t->guard_fd);
		t->guard_fd = -1;
	}
}

/* purge.c - destructive preparation of a device: NVMe Format NVM and
 * Sanitize (through nvme.c), deallocation of the whole LBA span (NVMe
 * Dataset Management, BLKDISCARD for other block devices, hole punching
 * for regular files).
 *
 * Order of the checks, so that a refusal touches nothing: the device must
 * exist and be something we can purge with this method (Identify says so
 * for NVMe), the confirmation must name it (the controller's serial for
 * NVMe, the path otherwise: safety_confirmed), and then the write-safety
 * rule through exclusively held descriptors (safety_open: in use is never
 * purged, data only with o->force).  Format and sanitize act on every
 * namespace of the controller (sanitize: the whole NVM subsystem), so for
 * them every namespace is claimed and judged; a trim only its namespace. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "nvscope.h"
#include "dev/devmodel.h"
#include "dev/nvme.h"
#include "dev/purge.h"
#include "dev/safety.h"

#define DISCARD_CHUNK (1ULL << 30) /* bytes per BLKDISCARD: progress + interruptible */

static const struct {
	const char *name;
	enum purge_method m;
} methods[] = {
	{ "format", PURGE_FORMAT },
	{ "sanitize-block", PURGE_SANITIZE_BLOCK },
	{ "sanitize-crypto", PURGE_SANITIZE_CRYPTO },
	{ "sanitize-overwrite", PURGE_SANITIZE_OVERWRITE },
	{ "trim", PURGE_TRIM },
};

int purge_parse_method(const char *s, enum purge_method *m)
{
	for (size_t i = 0; s && i < NVS_ARRAY_SIZE(methods); i++)
		if (!strcmp(s, methods[i].name)) {
			*m = methods[i].m;
			return 0;
		}
	return -EINVAL;
}

static const char *method_name(enum purge_method m)
{
	for (size_t i = 0; i < NVS_ARRAY_SIZE(methods); i++)
		if (methods[i].m == m)
			return methods[i].name;
	return "?";
}

static void report(const struct purge_opts *o, double pct)
{
	if (o->progress)
		o->progress(pct, o->arg);
}

/* ---- regular files and non-NVMe block devices ---- */

/* Opens @dev for the purge under the write-safety rule (exclusive claim,
 * then the probe through the held descriptor). */
static int open_checked(const char *dev, const struct purge_opts *o, int *fd, char *err,
			size_t errlen)
{
	char msg[768];
	int r = safety_open(dev, O_WRONLY, o->force, fd, NULL, msg, sizeof(msg));

	if (r)
		snprintf(err, errlen, "%s: refusing to purge", msg);
	return r;
}

static int trim_file(const char *dev, const struct purge_opts *o, char *err, size_t errlen)
{
	struct stat st;
	int fd, r;

	r = open_checked(dev, o, &fd, err, errlen);
	if (r)
		return r;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		r = -EAGAIN;
		snprintf(err, errlen, "%s changed while it was being opened", dev);
		goto close_fd;
	}
	if (st.st_size && fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
				    st.st_size)) {
		r = -errno;
		snprintf(err, errlen, "%s: cannot punch a hole: %s", dev, strerror(-r));
		goto close_fd;
	}
	report(o, 100.0);
close_fd:
	close(fd);
	return r;
}

static uint64_t sys_u64(dev_t rdev, const char *file)
{
	char p[128], b[64] = "";
	FILE *f;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/%s", major(rdev), minor(rdev), file);
	f = fopen(p, "re");
	if (!f)
		return 0;
	if (!fgets(b, sizeof(b), f))
		b[0] = '\0';
	fclose(f);
	return strtoull(b, NULL, 10);
}

static int discard_block(const char *dev, const struct purge_opts *o, char *err, size_t errlen)
{
	struct stat st;
	uint64_t size = 0, off = 0, range[2];
	int fd, r = 0;

	r = open_checked(dev, o, &fd, err, errlen);
	if (r)
		return r;
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode)) {
		r = -EAGAIN;
		snprintf(err, errlen, "%s changed while it was being opened", dev);
		goto close_fd;
	}
	if (!sys_u64(st.st_rdev, "queue/discard_max_bytes")) {
		r = -EOPNOTSUPP;
		snprintf(err, errlen, "%s: the device does not support discard (TRIM)", dev);
		goto close_fd;
	}
	if (ioctl(fd, BLKGETSIZE64, &size)) {
		r = -errno;
		snprintf(err, errlen, "%s: cannot read the size: %s", dev, strerror(-r));
		goto close_fd;
	}
	while (off < size) {
		range[0] = off;
		range[1] = size - off < DISCARD_CHUNK ? size - off : DISCARD_CHUNK;
		if (ioctl(fd, BLKDISCARD, range)) {
			r = -errno;
			snprintf(err, errlen, "%s: BLKDISCARD at %llu failed: %s", dev,
				 (unsigned long long)off, strerror(-r));
			goto close_fd;
		}
		off += range[1];
		report(o, size ? off * 100.0 / (double)size : 100.0);
	}
	if (!size)
		report(o, 100.0);
close_fd:
	if (fd >= 0)
		close(fd);
	return r;
}

static int purge_other(const char *dev, const struct stat *st, const struct purge_opts *o,
		       char *err, size_t errlen)
{
	if (!S_ISREG(st->st_mode) && !S_ISBLK(st->st_mode)) {
		snprintf(err, errlen, "%s: not a block device, regular file or NVMe device", dev);
		return -ENOTTY;
	}
	if (o->method != PURGE_TRIM) {
		snprintf(err, errlen, "%s: %s needs an NVMe device (only trim works here)", dev,
			 method_name(o->method));
		return -EOPNOTSUPP;
	}
	if (!safety_confirmed(o->confirm, dev, NULL, 0)) {
		snprintf(err, errlen,
			 "%s: refusing to destroy data without confirmation: pass "
			 "--yes-destroy-data=%s",
			 dev, dev);
		return -EPERM;
	}
	if (S_ISREG(st->st_mode))
		return trim_file(dev, o, err, errlen);
	return discard_block(dev, o, err, errlen);
}

/* ---- NVMe ---- */

/* Claims (O_EXCL) and judges the block device of every namespace of @c (or
 * only @only, when not NULL) under the write-safety rule; the claims in
 * @fds (c->nr_namespaces entries, -1 when none) are held until the purge is
 * done, so nothing mounts or formats them in between.  0 or -errno. */
static int nvme_claim(const struct dev_ctrl *c, const struct dev_ns *only,
		      const struct purge_opts *o, int *fds, char *err, size_t errlen)
{
	for (size_t i = 0; i < c->nr_namespaces; i++) {
		const struct dev_ns *n = &c->namespaces[i];
		char msg[768];
		int r;

		if ((only && n != only) || !n->block_device[0])
			continue;
		r = safety_open(n->block_device, O_RDONLY, o->force, &fds[i], NULL, msg,
				sizeof(msg));
		if (r) {
			snprintf(err, errlen, "%s: refusing to purge %s", msg, c->name);
			return r;
		}
	}
	return 0;
}

static int nvme_trim_ns(const struct dev_ns *n, const struct purge_opts *o, int *st, char *err,
			size_t errlen)
{
	const char *node = n->generic_device[0] ? n->generic_device : n->block_device;
	int fd, r;

	if (!n->lba_size) {
		snprintf(err, errlen, "%s: LBA size unknown", n->block_device);
		return -EIO;
	}
	r = nvs_nvme_deallocate(node, n->nsid, n->size_bytes / n->lba_size, o->progress, o->arg,
				st, err, errlen);
	/* the block layer did not see the deallocation: drop its cached pages */
	fd = open(n->block_device, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (ioctl(fd, BLKFLSBUF, 0)) {
			/* not fatal: only stale cache for buffered readers */
		}
		close(fd);
	}
	return r;
}

static int purge_nvme(const char *dev, const struct purge_opts *o, int *st, char *err,
		      size_t errlen)
{
	struct dev_list *l = dev_scan_ids(err, errlen);
	const struct dev_ctrl *c;
	const struct dev_ns *ns = NULL;
	const char *why;
	int r = 0, *fds = NULL;

	if (!l)
		return -ENOMEM;
	c = dev_list_find_nvme(l, dev, &ns);
	if (!c) {
		snprintf(err, errlen, "%s: NVMe device not found in the topology%s%s", dev,
			 l->nvme_ok ? "" : ": ", l->nvme_ok ? "" : l->nvme_err);
		r = -ENODEV;
		goto free_list;
	}
	if (!dev_ctrl_supports(c, o->method, &why)) {
		snprintf(err, errlen, "%s (%s): %s", dev, c->name, why);
		r = -EOPNOTSUPP;
		goto free_list;
	}
	if (o->method == PURGE_FORMAT && o->ses == 2 && !c->caps.format_crypto) {
		snprintf(err, errlen, "%s (%s): cryptographic erase with format not supported (FNA)",
			 dev, c->name);
		r = -EOPNOTSUPP;
		goto free_list;
	}
	if (!safety_confirmed(o->confirm, dev, NULL, 0)) {
		snprintf(err, errlen,
			 "%s (%s %s, serial %s): refusing to destroy data without confirmation: "
			 "pass --yes-destroy-data=%s",
			 dev, c->name, c->model, c->serial, c->serial);
		r = -EPERM;
		goto free_list;
	}
	fds = malloc((c->nr_namespaces + 1) * sizeof(*fds));
	if (!fds) {
		r = -ENOMEM;
		goto free_list;
	}
	for (size_t i = 0; i < c->nr_namespaces; i++)
		fds[i] = -1;
	r = nvme_claim(c, o->method == PURGE_TRIM ? ns : NULL, o, fds, err, errlen);
	if (r)
		goto free_list;
	if (!ns && !c->nr_namespaces && o->method != PURGE_SANITIZE_BLOCK &&
	    o->method != PURGE_SANITIZE_CRYPTO && o->method != PURGE_SANITIZE_OVERWRITE) {
		snprintf(err, errlen, "%s: the controller has no namespaces", dev);
		r = -ENODEV;
		goto free_list;
	}
	switch (o->method) {
	case PURGE_FORMAT: {
		size_t done = 0, todo = ns ? 1 : c->nr_namespaces;

		for (size_t i = 0; !r && i < c->nr_namespaces; i++)
			if (!ns || ns == &c->namespaces[i]) {
				r = nvs_nvme_format(c->path, c->namespaces[i].nsid, o->ses, st, err,
						    errlen);
				if (!r)
					report(o, ++done * 100.0 / (double)todo);
			}
		break;
	}
	case PURGE_SANITIZE_BLOCK:
	case PURGE_SANITIZE_CRYPTO:
	case PURGE_SANITIZE_OVERWRITE:
		r = nvs_nvme_sanitize(c->path, o->method, o->progress, o->arg, st, err, errlen);
		break;
	case PURGE_TRIM:
		for (size_t i = 0; !r && i < c->nr_namespaces; i++)
			if (!ns || ns == &c->namespaces[i])
				r = nvme_trim_ns(&c->namespaces[i], o, st, err, errlen);
		break;
	}
free_list:
	for (size_t i = 0; fds && i < c->nr_namespaces; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	dev_list_free(l);
	return r;
}

int purge_run(const char *dev, const struct purge_opts *o, int *nvme_status, char *err,
	      size_t errlen)
{
	struct stat st;

	if (nvme_status)
		*nvme_status = 0;
	if (!dev || !o) {
		snprintf(err, errlen, "purge: no device");
		return -EINVAL;
	}
	if (o->method == PURGE_FORMAT && (o->ses < 0 || o->ses > 2)) {
		snprintf(err, errlen, "purge: secure erase setting %d: must be 0, 1 or 2", o->ses);
		return -EINVAL;
	}
	if (stat(dev, &st)) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", dev, strerror(e));
		return -e;
	}
	if (nvs_nvme_is_nvme(dev))
		return purge_nvme(dev, o, nvme_status, err, errlen);
	return purge_other(dev, &st, o, err, errlen);
}

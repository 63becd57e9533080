/* purge.h - destructive preparation: NVMe Format / Sanitize, and
 * deallocate (TRIM / BLKDISCARD) of the whole device. */
#ifndef NVS_PURGE_H
#define NVS_PURGE_H

#include <stdbool.h>
#include <stddef.h>

enum purge_method {
	PURGE_FORMAT,            /* Format NVM, secure erase setting below */
	PURGE_SANITIZE_BLOCK,
	PURGE_SANITIZE_CRYPTO,
	PURGE_SANITIZE_OVERWRITE,
	PURGE_TRIM,              /* Dataset Management deallocate / BLKDISCARD */
};

struct purge_opts {
	enum purge_method method;
	int ses;                 /* format: 0 none, 1 user data, 2 crypto */
	const char *confirm;     /* must equal the serial (NVMe) or the device path */
	bool force;              /* --force-destroy: purge where a partition table or
				  * filesystem/RAID/LVM signature is (docs/safety.md) */
	/* progress 0..100 while a sanitize or trim runs; may be NULL */
	void (*progress)(double pct, void *arg);
	void *arg;
};

/* Purges @dev (a namespace block device, generic device, controller, loop or
 * other block device) or regular file.  Refuses (-EPERM) without the right
 * confirmation (safety_confirmed), -EBUSY when in use, -EEXIST when it
 * holds data and o->force is false (the write-safety rule, checked through
 * exclusively held descriptors that stay open during the purge),
 * -EOPNOTSUPP when the device lacks the method.  NVMe
 * status codes come back in *@nvme_status (0 when none), not as errno.
 * Returns 0 or -errno with one line in @err. */
int purge_run(const char *dev, const struct purge_opts *o, int *nvme_status, char *err,
	      size_t errlen);
/* Parses "format", "sanitize-block", "sanitize-crypto", "sanitize-overwrite",
 * "trim".  0 or -EINVAL. */
int purge_parse_method(const char *s, enum purge_method *m);

#endif

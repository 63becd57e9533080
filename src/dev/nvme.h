/* nvme.h - everything nvscope does through libnvme (src/dev/nvme.c is the
 * only file that includes <libnvme.h>): the topology walk into the device
 * model, Identify, the SMART log, Format NVM, Sanitize (+ its log) and
 * Dataset Management.  Functions are prefixed nvs_nvme_ because libnvme
 * owns the nvme_ namespace.
 *
 * Error convention: 0 or -errno; when the controller answered with an NVMe
 * status, the call returns -EIO and stores the status (SCT/SC as libnvme
 * returns it) in *nvme_status (which may be NULL); @err gets one line. */
#ifndef NVS_DEV_NVME_H
#define NVS_DEV_NVME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "dev/devmodel.h"

/* Adds every NVMe controller (with its namespaces, Identify capabilities)
 * to @l.  No NVMe at all (no nvme driver loaded) returns 0 with nothing
 * added.  -ENOMEM, or another -errno when libnvme failed. */
int nvs_nvme_scan(struct dev_list *l, char *err, size_t errlen);

/* True when @path is a device node of the nvme driver: a controller
 * (/dev/nvme0), a namespace block device (/dev/nvme0n1, multipath head
 * included) or a generic device (/dev/ng0n1); decided through sysfs. */
bool nvs_nvme_is_nvme(const char *path);

/* Reads the 512-byte SMART / health log (NSID all) into @log and the
 * Identify Controller capabilities into @caps (caps_valid false when
 * Identify failed) for the controller behind @path. */
int nvs_nvme_smart(const char *path, uint8_t log[512], struct dev_caps *caps, int *nvme_status,
		   char *err, size_t errlen);

/* Format NVM of namespace @nsid through the controller or namespace node
 * @path, keeping its current LBA format, with Secure Erase Setting @ses
 * (0 none, 1 user data, 2 crypto). */
int nvs_nvme_format(const char *path, uint32_t nsid, int ses, int *nvme_status, char *err,
		    size_t errlen);

/* Starts Sanitize (@m: PURGE_SANITIZE_*) on the controller behind @path
 * and polls the Sanitize Status log once a second until it ends, calling
 * @progress (may be NULL) with 0..100. */
int nvs_nvme_sanitize(const char *path, enum purge_method m, void (*progress)(double, void *),
		      void *arg, int *nvme_status, char *err, size_t errlen);

/* Dataset Management / deallocate of LBAs 0..@nlbas-1 of namespace @nsid
 * through the namespace node @path (block or generic device), in chunks,
 * calling @progress (may be NULL). */
int nvs_nvme_deallocate(const char *path, uint32_t nsid, uint64_t nlbas,
			void (*progress)(double, void *), void *arg, int *nvme_status, char *err,
			size_t errlen);

/* Human text for an NVMe status value ("Invalid Field in Command"). */
const char *nvs_nvme_status_str(int status);

#endif

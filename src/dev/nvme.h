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

/* Reads only the Identify Controller capabilities (@caps) of the
 * controller behind @path (a controller, namespace or generic device):
 * what an I/O command set option needs to know (ONCS: Write Zeroes, Write
 * Uncorrectable, Verify, Dataset Management) before any I/O. */
int nvs_nvme_caps(const char *path, struct dev_caps *caps, int *nvme_status, char *err,
		  size_t errlen);

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

/* The protection information format of LBA format @fidx (0..63) of
 * namespace @nsid, asked through @fd, an open NVMe node of it (the
 * generic device the engine holds): when Identify Controller's CTRATT has
 * extended LBA formats (ELBAS), PIF (bits 8:7: 0 16-bit guard, 1 32-bit,
 * 2 64-bit) and STS (bits 6:0, storage tag bits) of ELBAF[@fidx] in the
 * Identify NVM Command Set namespace data (CNS 05h, CSI 00h); else 0 and
 * 0 (the 16-bit guard, no storage tag), as fio.  @path names the device
 * in @err. */
int nvs_nvme_pi_format(int fd, const char *path, uint32_t nsid, unsigned fidx, uint8_t *pif,
		       uint8_t *sts, int *nvme_status, char *err, size_t errlen);

/* Human text for an NVMe status value ("Invalid Field in Command"). */
const char *nvs_nvme_status_str(int status);

/* ---- device self-test (log page 06h) and error log (01h) ---- */

/* What the Device Self-test log says (NVMe base spec 5.14.1.6). */
struct nvs_selftest {
	bool supported;      /* Identify Controller OACS bit 4 */
	bool running;        /* a self-test is in progress */
	unsigned running_op; /* 1 short, 2 extended, 0xe vendor */
	unsigned percent;    /* completion of the running test, 0..100 */
	bool have_last;      /* the newest result entry is used */
	unsigned last_code;  /* its test code: 1 short, 2 extended */
	unsigned last_result; /* 0 no error, 1..9 aborted/failed as the spec, 0xf unused */
	unsigned last_segment; /* failing segment number (result 7) */
	uint64_t last_poh;   /* power-on hours when it ended */
};

/* Starts a short (@extended false) or extended device self-test of the
 * controller behind @path, all namespaces (NSID FFFFFFFFh).  -EOPNOTSUPP
 * (with @err) when OACS says self-test is not supported. */
int nvs_nvme_selftest_start(const char *path, bool extended, int *nvme_status, char *err,
			    size_t errlen);
/* Aborts a running device self-test of the controller behind @path. */
int nvs_nvme_selftest_abort(const char *path, int *nvme_status, char *err, size_t errlen);
/* Reads the Device Self-test log (and OACS) into @st.  A controller
 * without self-test support returns 0 with st->supported false. */
int nvs_nvme_selftest_status(const char *path, struct nvs_selftest *st, int *nvme_status,
			     char *err, size_t errlen);

/* The Error Information log, newest entry first. */
struct nvs_errlog {
	unsigned capacity;     /* entries the controller keeps (ELPE + 1) */
	unsigned used;         /* entries read with a non-zero error count */
	uint64_t newest_count; /* error count of the newest entry (0: none) */
	uint16_t newest_status; /* its status field (bit 0 = phase tag stripped) */
	uint16_t newest_sqid;
	uint32_t newest_nsid;
	uint64_t newest_lba;
};

/* Reads up to 64 entries of the Error Information log of the controller
 * behind @path into @e. */
int nvs_nvme_error_log(const char *path, struct nvs_errlog *e, int *nvme_status, char *err,
		       size_t errlen);

/* NVMe Flexible Data Placement of namespace @nsid (fio's fdp=1): what the
 * controller behind @path (its generic device /dev/ngXnY) says before any
 * write.  Read: Identify Controller CTRATT bit 19 (FDPS), Identify
 * Namespace ENDGID, Get Features FDP (FID 1Dh: enabled, configuration
 * index), the FDP Configurations log (log page 20h) and the reclaim unit
 * handle status (I/O Management Receive, opcode 12h, MO 1). */
#define NVS_FDP_MAX_RUHS 128 /* fio's FIO_MAX_DP_IDS */
struct nvs_fdp {
	uint16_t endgid;
	bool enabled;		/* Get Features FDP: FDPE */
	uint8_t cfg;		/* ... FDPCIDX: the configuration in use */
	uint16_t nconfigs;	/* log page 20h: configurations */
	uint16_t nruh;		/* ... the current one's reclaim unit handles */
	uint32_t nrg;		/* ... reclaim groups */
	uint64_t runs;		/* ... reclaim unit nominal size, bytes */
	uint16_t nruhsd;	/* RUH status descriptors (at most NVS_FDP_MAX_RUHS kept) */
	uint16_t pid[NVS_FDP_MAX_RUHS];	  /* each one's placement identifier */
	uint64_t ruamw[NVS_FDP_MAX_RUHS]; /* ... available media writes (LBAs) */
};
/* 0; -EOPNOTSUPP with @err when the controller has no FDP or it is not
 * enabled in the namespace's endurance group; -EIO/-errno otherwise. */
int nvs_nvme_fdp(const char *path, uint32_t nsid, struct nvs_fdp *f, int *nvme_status, char *err,
		 size_t errlen);

#endif

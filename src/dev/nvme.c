/* nvme.c - the libnvme side of nvscope (the only file including it).
 *
 * The topology walk follows libnvme's tree: root -> hosts -> subsystems ->
 * controllers -> namespaces.  A namespace hangs off the controller when it
 * is private (nvme0n1 under nvme0), or off the subsystem when the kernel's
 * native multipath is on: then the controller only has paths (nvme0c0n1)
 * and the block device (nvme0n1) is named after the subsystem instance, so
 * nvme1 may well reach nvme0n1.  We therefore collect, for each controller,
 * its private namespaces plus the namespace of each of its paths, and fall
 * back to all subsystem namespaces when libnvme linked no path. */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include <libnvme.h>
#include "nvscope.h"
#include "dev/nvme.h"

#define ADMIN_TIMEOUT_MS  60000
#define FORMAT_TIMEOUT_MS 600000

static void cpy(char *dst, size_t len, const char *src)
{
	dev_strtrim(dst, len, src, src ? strlen(src) : 0);
}

/* libnvme result -> 0 / -errno, NVMe status kept apart. */
static int nv_ret(int r, const char *what, const char *path, int *st, char *err, size_t errlen)
{
	if (r == 0)
		return 0;
	if (r > 0) {
		if (st)
			*st = r;
		snprintf(err, errlen, "%s: %s failed: NVMe status 0x%x (%s)", path, what, r,
			 nvs_nvme_status_str(r));
		return -EIO;
	}
	r = errno ? -errno : -EIO;
	snprintf(err, errlen, "%s: %s failed: %s", path, what, strerror(-r));
	return r;
}

const char *nvs_nvme_status_str(int status)
{
	return nvme_status_to_string(status, false);
}

static void caps_from_id(const struct nvme_id_ctrl *id, struct dev_caps *k)
{
	uint16_t oacs = le16toh(id->oacs), oncs = le16toh(id->oncs);
	uint32_t sanicap = le32toh(id->sanicap);

	memset(k, 0, sizeof(*k));
	k->caps_valid = true;
	k->format = oacs & NVME_CTRL_OACS_FORMAT;
	k->format_crypto = id->fna & NVME_CTRL_FNA_CRYPTO_ERASE;
	k->sanitize_crypto = sanicap & NVME_CTRL_SANICAP_CES;
	k->sanitize_block = sanicap & NVME_CTRL_SANICAP_BES;
	k->sanitize_overwrite = sanicap & NVME_CTRL_SANICAP_OWS;
	k->dsm = oncs & NVME_CTRL_ONCS_DSM;
	k->write_uncor = oncs & NVME_CTRL_ONCS_WRITE_UNCORRECTABLE;
	k->write_zeroes = oncs & NVME_CTRL_ONCS_WRITE_ZEROES;
	k->verify = oncs & NVME_CTRL_ONCS_VERIFY;
	k->hctma = le16toh(id->hctma) & 1;
	k->wctemp_k = le16toh(id->wctemp);
	k->cctemp_k = le16toh(id->cctemp);
}

/* ---- the topology walk ---- */

static bool ns_present(const struct dev_ctrl *c, const char *name)
{
	for (size_t i = 0; i < c->nr_namespaces; i++)
		if (!strcmp(c->namespaces[i].name, name))
			return true;
	return false;
}

static int add_ns(struct dev_ctrl *c, nvme_ns_t n)
{
	const char *name = nvme_ns_get_name(n), *g = nvme_ns_get_generic_name(n);
	struct dev_ns *d;
	uint64_t lbs;
	char p[DEV_PATH_LEN];

	if (!name || ns_present(c, name))
		return 0;
	d = dev_ctrl_add_ns(c);
	if (!d)
		return -ENOMEM;
	cpy(d->name, sizeof(d->name), name);
	snprintf(d->block_device, sizeof(d->block_device), "/dev/%s", d->name);
	if (g && g[0]) {
		if (snprintf(p, sizeof(p), "/dev/%s", g) < (int)sizeof(p) && access(p, F_OK) == 0)
			memcpy(d->generic_device, p, sizeof(p));
	}
	d->nsid = (uint32_t)nvme_ns_get_nsid(n);
	lbs = nvme_ns_get_lba_size(n) > 0 ? (uint64_t)nvme_ns_get_lba_size(n) : 0;
	d->lba_size = (uint32_t)lbs;
	d->metadata_size = nvme_ns_get_meta_size(n) > 0 ? (uint32_t)nvme_ns_get_meta_size(n) : 0;
	d->size_bytes = nvme_ns_get_lba_count(n) * lbs;
	d->used_bytes = nvme_ns_get_lba_util(n) * lbs;
	d->used_valid = lbs != 0;
	return 0;
}

static int add_ctrl(struct dev_list *l, nvme_subsystem_t s, nvme_ctrl_t c)
{
	struct dev_ctrl *d = dev_list_add_ctrl(l);
	struct nvme_id_ctrl id;
	nvme_ns_t n;
	nvme_path_t p;
	const char *numa, *dir = nvme_ctrl_get_sysfs_dir(c);
	char v[64];
	bool linked = false;
	int fd;

	if (!d)
		return -ENOMEM;
	cpy(d->name, sizeof(d->name), nvme_ctrl_get_name(c));
	snprintf(d->path, sizeof(d->path), "/dev/%s", d->name);
	cpy(d->model, sizeof(d->model), nvme_ctrl_get_model(c));
	cpy(d->serial, sizeof(d->serial), nvme_ctrl_get_serial(c));
	cpy(d->firmware, sizeof(d->firmware), nvme_ctrl_get_firmware(c));
	cpy(d->transport, sizeof(d->transport), nvme_ctrl_get_transport(c));
	cpy(d->address, sizeof(d->address), nvme_ctrl_get_address(c));
	cpy(d->state, sizeof(d->state), nvme_ctrl_get_state(c));
	cpy(d->subsystem, sizeof(d->subsystem), nvme_subsystem_get_name(s));
	cpy(d->subsystem_nqn, sizeof(d->subsystem_nqn), nvme_subsystem_get_nqn(s));
	numa = nvme_ctrl_get_numa_node(c);
	d->numa_node = numa && numa[0] ? atoi(numa) : -1;
	if (dir && !dev_sysfs_read(dir, "cntlid", v, sizeof(v)))
		d->cntlid = (uint32_t)strtoul(v, NULL, 0);
	fd = nvme_ctrl_get_fd(c);
	if (fd >= 0 && nvme_identify_ctrl(fd, &id) == 0)
		caps_from_id(&id, &d->caps);
	nvme_ctrl_for_each_ns(c, n) if (add_ns(d, n)) return -ENOMEM;
	nvme_ctrl_for_each_path(c, p)
	{
		n = nvme_path_get_ns(p);
		if (!n)
			continue;
		linked = true;
		if (add_ns(d, n))
			return -ENOMEM;
	}
	if (!linked && nvme_ctrl_first_path(c))
		nvme_subsystem_for_each_ns(s, n) if (add_ns(d, n)) return -ENOMEM;
	return 0;
}

int nvs_nvme_scan(struct dev_list *l, char *err, size_t errlen)
{
	nvme_root_t r;
	nvme_host_t h;
	nvme_subsystem_t s;
	nvme_ctrl_t c;
	FILE *quiet;
	int ret = 0;

	if (access("/sys/class/nvme", F_OK))
		return 0; /* no nvme driver loaded: no controllers */
	quiet = fopen("/dev/null", "we");
	r = nvme_create_root(quiet ? quiet : stderr, LOG_CRIT);
	if (!r) {
		ret = errno ? -errno : -ENOMEM;
		snprintf(err, errlen, "libnvme: cannot create the topology root");
		goto close_quiet;
	}
	if (nvme_scan_topology(r, NULL, NULL) < 0) {
		ret = errno ? -errno : -EIO;
		snprintf(err, errlen, "libnvme: topology scan failed: %s", strerror(-ret));
		goto free_tree;
	}
	nvme_for_each_host(r, h) nvme_for_each_subsystem(h, s) nvme_subsystem_for_each_ctrl(s, c)
	{
		ret = add_ctrl(l, s, c);
		if (ret) {
			snprintf(err, errlen, "out of memory");
			goto free_tree;
		}
	}
free_tree:
	nvme_free_tree(r);
close_quiet:
	if (quiet)
		fclose(quiet);
	return ret;
}

bool nvs_nvme_is_nvme(const char *path)
{
	struct stat st;
	char sys[64], rp[PATH_MAX];

	if (stat(path, &st) || !(S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))
		return false;
	snprintf(sys, sizeof(sys), "/sys/dev/%s/%u:%u", S_ISCHR(st.st_mode) ? "char" : "block",
		 major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(sys, rp))
		return false;
	return strstr(rp, "/nvme/") || strstr(rp, "/nvme-generic/") ||
	       strstr(rp, "/nvme-subsystem/");
}

/* Opens an NVMe node for admin/I/O passthrough; -ENOTTY when not NVMe. */
static int open_nvme(const char *path, bool write, char *err, size_t errlen)
{
	int fd;

	if (access(path, F_OK)) {
		int e = errno;

		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (!nvs_nvme_is_nvme(path)) {
		snprintf(err, errlen, "%s: not an NVMe device (controller, namespace or ngXnY)",
			 path);
		return -ENOTTY;
	}
	fd = open(path, (write ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(e));
		return -e;
	}
	return fd;
}

/* The start of every admin command here: the caller's NVMe status zeroed,
 * the controller opened read-only.  The descriptor, or -errno with @err. */
static int open_cmd(const char *path, int *nvme_status, char *err, size_t errlen)
{
	if (nvme_status)
		*nvme_status = 0;
	return open_nvme(path, false, err, errlen);
}

/* Identify Controller into @id: 0, or -errno / the NVMe status with @err. */
static int identify_ctrl(int fd, struct nvme_id_ctrl *id, const char *path, int *nvme_status,
			 char *err, size_t errlen)
{
	errno = 0;
	return nv_ret(nvme_identify_ctrl(fd, id), "Identify Controller", path, nvme_status, err,
		      errlen);
}

int nvs_nvme_smart(const char *path, uint8_t log[512], struct dev_caps *caps, int *nvme_status,
		   char *err, size_t errlen)
{
	struct nvme_id_ctrl id;
	struct nvme_smart_log sl;
	int fd, r;

	memset(caps, 0, sizeof(*caps));
	fd = open_cmd(path, nvme_status, err, errlen);
	if (fd < 0)
		return fd;
	if (nvme_identify_ctrl(fd, &id) == 0)
		caps_from_id(&id, caps);
	errno = 0;
	r = nvme_get_log_smart(fd, NVME_NSID_ALL, false, &sl);
	r = nv_ret(r, "SMART / health log", path, nvme_status, err, errlen);
	if (!r)
		memcpy(log, &sl, 512);
	close(fd);
	return r;
}

int nvs_nvme_caps(const char *path, struct dev_caps *caps, int *nvme_status, char *err,
		  size_t errlen)
{
	struct nvme_id_ctrl id;
	int fd, r;

	memset(caps, 0, sizeof(*caps));
	fd = open_cmd(path, nvme_status, err, errlen);
	if (fd < 0)
		return fd;
	r = identify_ctrl(fd, &id, path, nvme_status, err, errlen);
	if (!r)
		caps_from_id(&id, caps);
	close(fd);
	return r;
}

int nvs_nvme_pi_format(int fd, const char *path, uint32_t nsid, unsigned fidx, uint8_t *pif,
		       uint8_t *sts, int *nvme_status, char *err, size_t errlen)
{
	struct nvme_id_ctrl id;
	struct nvme_nvm_id_ns nvm;
	int r;

	_Static_assert(sizeof(nvm.elbaf) / sizeof(nvm.elbaf[0]) == 64, "ELBAF has 64 entries");
	*pif = *sts = 0;
	if (nvme_status)
		*nvme_status = 0;
	if (fidx >= 64) {
		snprintf(err, errlen, "%s: LBA format index %u out of range", path, fidx);
		return -EINVAL;
	}
	r = identify_ctrl(fd, &id, path, nvme_status, err, errlen);
	if (r || !(le32toh(id.ctratt) & NVME_CTRL_CTRATT_ELBAS))
		return r;
	errno = 0;
	r = nv_ret(nvme_identify_ns_csi(fd, nsid, NVME_UUID_NONE, NVME_CSI_NVM, &nvm),
		   "Identify NVM Command Set namespace (CNS 05h)", path, nvme_status, err, errlen);
	if (r)
		return r;
	uint32_t elbaf = le32toh(nvm.elbaf[fidx]);
	*sts = (uint8_t)(elbaf & NVME_NVM_ELBAF_STS_MASK);
	*pif = (uint8_t)((elbaf & NVME_NVM_ELBAF_PIF_MASK) >> 7);
	return 0;
}

int nvs_nvme_format(const char *path, uint32_t nsid, int ses, int *nvme_status, char *err,
		    size_t errlen)
{
	struct nvme_id_ns ns;
	struct nvme_format_nvm_args a;
	uint32_t result = 0;
	int fd, r;

	if (nvme_status)
		*nvme_status = 0;
	if (ses < 0 || ses > 2) {
		snprintf(err, errlen, "secure erase setting %d: must be 0, 1 or 2", ses);
		return -EINVAL;
	}
	fd = open_nvme(path, true, err, errlen);
	if (fd < 0)
		return fd;
	errno = 0;
	r = nv_ret(nvme_identify_ns(fd, nsid, &ns), "Identify Namespace", path, nvme_status, err,
		   errlen);
	if (r)
		goto close_fd;
	memset(&a, 0, sizeof(a));
	a.args_size = sizeof(a);
	a.result = &result;
	a.fd = fd;
	a.timeout = FORMAT_TIMEOUT_MS;
	a.nsid = nsid;
	a.lbaf = ns.flbas & 0xf;
	a.lbafu = (ns.flbas >> 5) & 0x3;
	a.mset = (ns.flbas >> 4) & 1 ? NVME_FORMAT_MSET_EXTENDED : NVME_FORMAT_MSET_SEPARATE;
	a.pi = (enum nvme_cmd_format_pi)(ns.dps & 0x7);
	a.pil = (enum nvme_cmd_format_pil)((ns.dps >> 3) & 1);
	a.ses = (enum nvme_cmd_format_ses)ses;
	errno = 0;
	/* the kernel sees the command's effects and revalidates the namespace */
	r = nv_ret(nvme_format_nvm(&a), "Format NVM", path, nvme_status, err, errlen);
close_fd:
	close(fd);
	return r;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int nvs_nvme_sanitize(const char *path, enum purge_method m, void (*progress)(double, void *),
		      void *arg, int *nvme_status, char *err, size_t errlen)
{
	struct nvme_sanitize_nvm_args a;
	struct nvme_sanitize_log_page lg;
	uint32_t result = 0;
	int fd, r, stat;

	if (nvme_status)
		*nvme_status = 0;
	memset(&a, 0, sizeof(a));
	switch (m) {
	case PURGE_SANITIZE_BLOCK:
		a.sanact = NVME_SANITIZE_SANACT_START_BLOCK_ERASE;
		break;
	case PURGE_SANITIZE_CRYPTO:
		a.sanact = NVME_SANITIZE_SANACT_START_CRYPTO_ERASE;
		break;
	case PURGE_SANITIZE_OVERWRITE:
		a.sanact = NVME_SANITIZE_SANACT_START_OVERWRITE;
		a.owpass = 1;
		break;
	default:
		snprintf(err, errlen, "not a sanitize method");
		return -EINVAL;
	}
	fd = open_nvme(path, true, err, errlen);
	if (fd < 0)
		return fd;
	a.args_size = sizeof(a);
	a.result = &result;
	a.fd = fd;
	a.timeout = ADMIN_TIMEOUT_MS;
	errno = 0;
	r = nv_ret(nvme_sanitize_nvm(&a), "Sanitize", path, nvme_status, err, errlen);
	if (r)
		goto close_fd;
	for (;;) {
		errno = 0;
		r = nv_ret(nvme_get_log_sanitize(fd, true, &lg), "Sanitize Status log", path,
			   nvme_status, err, errlen);
		if (r)
			break;
		stat = le16toh(lg.sstat) & NVME_SANITIZE_SSTAT_STATUS_MASK;
		if (stat == NVME_SANITIZE_SSTAT_STATUS_IN_PROGESS) {
			if (progress)
				progress(le16toh(lg.sprog) * 100.0 / 65536.0, arg);
			sleep_ms(1000);
			continue;
		}
		if (stat == NVME_SANITIZE_SSTAT_STATUS_COMPLETED_FAILED) {
			snprintf(err, errlen, "%s: sanitize failed (Sanitize Status log)", path);
			r = -EIO;
		} else if (progress) {
			progress(100.0, arg);
		}
		break;
	}
close_fd:
	close(fd);
	return r;
}

int nvs_nvme_deallocate(const char *path, uint32_t nsid, uint64_t nlbas,
			void (*progress)(double, void *), void *arg, int *nvme_status, char *err,
			size_t errlen)
{
	enum { NR_RANGES = 256 };
	struct nvme_dsm_range *rg;
	struct nvme_id_ctrl_nvm idn;
	struct nvme_dsm_args a;
	uint64_t per = UINT32_MAX, slba = 0;
	int fd, r = 0;

	if (nvme_status)
		*nvme_status = 0;
	fd = open_nvme(path, true, err, errlen);
	if (fd < 0)
		return fd;
	rg = calloc(NR_RANGES, sizeof(*rg));
	if (!rg) {
		r = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto close_fd;
	}
	/* DMRSL (max LBAs in one range) from the NVM command set Identify. */
	if (nvme_identify_ctrl_csi(fd, NVME_CSI_NVM, &idn) == 0 && le32toh(idn.dmrsl))
		per = le32toh(idn.dmrsl);
	while (slba < nlbas) {
		uint16_t nr = 0;

		while (nr < NR_RANGES && slba < nlbas) {
			uint64_t n = nlbas - slba < per ? nlbas - slba : per;

			rg[nr].cattr = 0;
			rg[nr].nlb = htole32((uint32_t)n);
			rg[nr].slba = htole64(slba);
			slba += n;
			nr++;
		}
		memset(&a, 0, sizeof(a));
		a.args_size = sizeof(a);
		a.fd = fd;
		a.timeout = ADMIN_TIMEOUT_MS;
		a.nsid = nsid;
		a.attrs = NVME_DSMGMT_AD;
		a.nr_ranges = nr;
		a.dsm = rg;
		errno = 0;
		r = nv_ret(nvme_dsm(&a), "Dataset Management (deallocate)", path, nvme_status, err,
			   errlen);
		if (r)
			break;
		if (progress)
			progress(slba * 100.0 / (double)nlbas, arg);
	}
	free(rg);
close_fd:
	close(fd);
	return r;
}

/* ---- device self-test and error log ---- */

static bool selftest_supported(int fd)
{
	struct nvme_id_ctrl id;

	return nvme_identify_ctrl(fd, &id) == 0 && (le16toh(id.oacs) & NVME_CTRL_OACS_SELF_TEST);
}

static int selftest_cmd(const char *path, enum nvme_dst_stc stc, int *nvme_status, char *err,
			size_t errlen);

int nvs_nvme_selftest_start(const char *path, bool extended, int *nvme_status, char *err,
			    size_t errlen)
{
	return selftest_cmd(path, extended ? NVME_DST_STC_LONG : NVME_DST_STC_SHORT, nvme_status,
			    err, errlen);
}

int nvs_nvme_selftest_abort(const char *path, int *nvme_status, char *err, size_t errlen)
{
	return selftest_cmd(path, NVME_DST_STC_ABORT, nvme_status, err, errlen);
}

static int selftest_cmd(const char *path, enum nvme_dst_stc stc, int *nvme_status, char *err,
			size_t errlen)
{
	struct nvme_dev_self_test_args a;
	uint32_t result = 0;
	int fd, r;

	fd = open_cmd(path, nvme_status, err, errlen);
	if (fd < 0)
		return fd;
	if (!selftest_supported(fd)) {
		snprintf(err, errlen, "%s: device self-test not supported (OACS)", path);
		r = -EOPNOTSUPP;
		goto close_fd;
	}
	memset(&a, 0, sizeof(a));
	a.args_size = sizeof(a);
	a.result = &result;
	a.fd = fd;
	a.timeout = ADMIN_TIMEOUT_MS;
	a.nsid = NVME_NSID_ALL;
	a.stc = stc;
	errno = 0;
	r = nv_ret(nvme_dev_self_test(&a), "Device Self-test", path, nvme_status, err, errlen);
close_fd:
	close(fd);
	return r;
}

int nvs_nvme_selftest_status(const char *path, struct nvs_selftest *st, int *nvme_status, char *err,
			     size_t errlen)
{
	struct nvme_self_test_log lg;
	int fd, r = 0;

	memset(st, 0, sizeof(*st));
	fd = open_cmd(path, nvme_status, err, errlen);
	if (fd < 0)
		return fd;
	st->supported = selftest_supported(fd);
	if (!st->supported)
		goto close_fd;
	errno = 0;
	r = nv_ret(nvme_get_log_device_self_test(fd, &lg), "Device Self-test log", path,
		   nvme_status, err, errlen);
	if (r)
		goto close_fd;
	st->running_op = lg.current_operation & NVME_ST_CURR_OP_MASK;
	st->running = st->running_op != NVME_ST_CURR_OP_NOT_RUNNING;
	st->percent = lg.completion & NVME_ST_CURR_OP_CMPL_MASK;
	if (st->percent > 100)
		st->percent = 100;
	st->last_result = lg.result[0].dsts & NVME_ST_RESULT_MASK;
	st->have_last = st->last_result != NVME_ST_RESULT_NOT_USED;
	st->last_code = (lg.result[0].dsts >> NVME_ST_CODE_SHIFT) & 0xf;
	st->last_segment = lg.result[0].seg;
	st->last_poh = le64toh(lg.result[0].poh);
close_fd:
	close(fd);
	return r;
}

int nvs_nvme_error_log(const char *path, struct nvs_errlog *e, int *nvme_status, char *err,
		       size_t errlen)
{
	enum { MAX_ENTRIES = 64 };
	struct nvme_error_log_page *lg = NULL;
	struct nvme_id_ctrl id;
	unsigned n = 1;
	int fd, r;

	memset(e, 0, sizeof(*e));
	fd = open_cmd(path, nvme_status, err, errlen);
	if (fd < 0)
		return fd;
	if (nvme_identify_ctrl(fd, &id) == 0)
		n = (unsigned)id.elpe + 1;
	e->capacity = n;
	if (n > MAX_ENTRIES)
		n = MAX_ENTRIES;
	lg = calloc(n, sizeof(*lg));
	if (!lg) {
		snprintf(err, errlen, "out of memory");
		r = -ENOMEM;
		goto close_fd;
	}
	errno = 0;
	r = nv_ret(nvme_get_log_error(fd, n, false, lg), "Error Information log", path, nvme_status,
		   err, errlen);
	if (r)
		goto free_log;
	for (unsigned i = 0; i < n; i++) {
		uint64_t c = le64toh(lg[i].error_count);

		if (!c)
			continue;
		e->used++;
		if (c > e->newest_count) {
			e->newest_count = c;
			e->newest_status = le16toh(lg[i].status_field) >> 1;
			e->newest_sqid = le16toh(lg[i].sqid);
			e->newest_nsid = le32toh(lg[i].nsid);
			e->newest_lba = le64toh(lg[i].lba);
		}
	}
free_log:
	free(lg);
close_fd:
	close(fd);
	return r;
}

/* The FDP configuration @idx of the FDP Configurations log @log (@len
 * bytes): each descriptor's size is its first field. */
static const struct nvme_fdp_config_desc *fdp_config(const uint8_t *log, size_t len, unsigned idx)
{
	size_t off = sizeof(struct nvme_fdp_config_log);

	for (unsigned i = 0; off + sizeof(struct nvme_fdp_config_desc) <= len; i++) {
		const struct nvme_fdp_config_desc *d = (const void *)(log + off);
		size_t sz = le16toh(d->size);
		if (sz < sizeof(*d) || off + sz > len)
			return NULL;
		if (i == idx)
			return d;
		off += sz;
	}
	return NULL;
}

/* The reclaim unit handles' status of namespace @nsid into @f (nruhsd,
 * and the first NVS_FDP_MAX_RUHS handles' placement IDs and writable
 * space).  0 or -errno with @err. */
static int fdp_ruh_status(int fd, uint32_t nsid, struct nvs_fdp *f, const char *path,
			  int *nvme_status, char *err, size_t errlen)
{
	struct nvme_fdp_ruh_status *rs = NULL;
	int r = 0;
	/* as fio: the header for the count, then the descriptors (a
	 * controller may refuse a buffer longer than the data) */
	for (unsigned pass = 0; pass < 2; pass++) {
		size_t len = sizeof(*rs) + (pass ? f->nruhsd : 0) * sizeof(rs->ruhss[0]);
		free(rs);
		if (!(rs = calloc(1, len))) {
			r = -ENOMEM;
			goto out;
		}
		r = nv_ret(nvme_fdp_reclaim_unit_handle_status(fd, nsid, (uint32_t)len, rs),
			   "I/O Management Receive (reclaim unit handle status)", path, nvme_status,
			   err, errlen);
		if (r)
			goto out;
		if (!pass)
			f->nruhsd = le16toh(rs->nruhsd);
		else if (le16toh(rs->nruhsd) < f->nruhsd)
			f->nruhsd = le16toh(rs->nruhsd);
	}
	for (unsigned i = 0; i < f->nruhsd && i < NVS_FDP_MAX_RUHS; i++) {
		f->pid[i] = le16toh(rs->ruhss[i].pid);
		f->ruamw[i] = le64toh(rs->ruhss[i].ruamw);
	}
	if (f->nruhsd > NVS_FDP_MAX_RUHS) /* fio keeps the first 128 */
		f->nruhsd = NVS_FDP_MAX_RUHS;
out:
	free(rs);
	return r;
}

int nvs_nvme_fdp(const char *path, uint32_t nsid, struct nvs_fdp *f, int *nvme_status, char *err,
		 size_t errlen)
{
	struct nvme_id_ctrl id;
	struct nvme_id_ns ns;
	struct nvme_fdp_config_log hdr;
	uint8_t *log = NULL;
	uint32_t feat = 0, size;
	int fd, r;

	memset(f, 0, sizeof(*f));
	fd = open_cmd(path, nvme_status, err, errlen);
	if (fd < 0)
		return fd;
	r = identify_ctrl(fd, &id, path, nvme_status, err, errlen);
	if (r)
		goto out;
	if (!(le32toh(id.ctratt) & NVME_CTRL_CTRATT_FDPS)) {
		snprintf(err, errlen,
			 "%s: the controller has no Flexible Data Placement (Identify Controller "
			 "CTRATT bit 19)",
			 path);
		r = -EOPNOTSUPP;
		goto out;
	}
	r = nv_ret(nvme_identify_ns(fd, nsid, &ns), "Identify Namespace", path, nvme_status, err,
		   errlen);
	if (r)
		goto out;
	f->endgid = le16toh(ns.endgid);
	struct nvme_get_features_args ga = {.args_size = sizeof(ga),
					    .fd = fd,
					    .result = &feat,
					    .timeout = NVME_DEFAULT_IOCTL_TIMEOUT,
					    .sel = NVME_GET_FEATURES_SEL_CURRENT,
					    .cdw11 = f->endgid,
					    .fid = NVME_FEAT_FID_FDP};
	r = nv_ret(nvme_get_features(&ga), "Get Features FDP", path, nvme_status, err, errlen);
	if (r)
		goto out;
	f->enabled = feat & 1;
	f->cfg = (uint8_t)(feat >> 8);
	if (!f->enabled) {
		snprintf(err, errlen,
			 "%s: Flexible Data Placement is not enabled in endurance group %u (Get "
			 "Features FDP)",
			 path, f->endgid);
		r = -EOPNOTSUPP;
		goto out;
	}
	r = nv_ret(nvme_get_log_fdp_configurations(fd, f->endgid, 0, sizeof(hdr), &hdr),
		   "Get Log Page FDP Configurations (20h)", path, nvme_status, err, errlen);
	if (r)
		goto out;
	size = le32toh(hdr.size);
	f->nconfigs = (uint16_t)(le16toh(hdr.n) + 1); /* zero based */
	if (size < sizeof(hdr) || size > (1u << 20) || !(log = calloc(1, size))) {
		snprintf(err, errlen, "%s: FDP Configurations log of %u bytes", path, size);
		r = -EIO;
		goto out;
	}
	r = nv_ret(nvme_get_log_fdp_configurations(fd, f->endgid, 0, size, log),
		   "Get Log Page FDP Configurations (20h)", path, nvme_status, err, errlen);
	if (r)
		goto out;
	const struct nvme_fdp_config_desc *d = fdp_config(log, size, f->cfg);
	if (d) {
		f->nruh = le16toh(d->nruh);
		f->nrg = le32toh(d->nrg);
		f->runs = le64toh(d->runs);
	}
	r = fdp_ruh_status(fd, nsid, f, path, nvme_status, err, errlen);
out:
	free(log);
	close(fd);
	return r;
}

int nvs_nvme_zns(const char *path, uint32_t nsid, struct nvs_zns *z, int *nvme_status, char *err,
		 size_t errlen)
{
	struct nvme_id_ns ns;
	struct nvme_zns_id_ns zn;
	struct nvme_zns_id_ctrl zc;
	uint8_t descs[NVME_IDENTIFY_DATA_SIZE];
	int fd, r;
	bool zoned = false;

	memset(z, 0, sizeof(*z));
	fd = open_cmd(path, nvme_status, err, errlen);
	if (fd < 0)
		return fd;
	errno = 0;
	r = nv_ret(nvme_identify_ns_descs(fd, nsid, (struct nvme_ns_id_desc *)descs),
		   "Identify NS descriptors", path, nvme_status, err, errlen);
	/* the list: type, length, 2 reserved, then length bytes; type 0 ends */
	for (size_t o = 0; !r && o + 4 < sizeof(descs) && descs[o];) {
		size_t l = descs[o + 1];
		if (o + 4 + l > sizeof(descs))
			break;
		if (descs[o] == NVME_NIDT_CSI && l == 1 && descs[o + 4] == NVME_CSI_ZNS)
			zoned = true;
		o += 4 + l;
	}
	if (!r && !zoned) {
		snprintf(err, errlen,
			 "%s: namespace %u is not a zoned namespace (its command set is not "
			 "CSI 2, Zoned Namespace)",
			 path, nsid);
		r = -ENODEV;
	}
	if (!r)
		r = nv_ret(nvme_zns_identify_ctrl(fd, &zc), "Identify Controller (CSI 2, zoned)",
			   path, nvme_status, err, errlen);
	if (!r)
		r = nv_ret(nvme_identify_ns(fd, nsid, &ns), "Identify Namespace", path, nvme_status,
			   err, errlen);
	if (!r)
		r = nv_ret(nvme_zns_identify_ns(fd, nsid, &zn), "Identify Namespace (CSI 2, zoned)",
			   path, nvme_status, err, errlen);
	if (!r) {
		unsigned f = (ns.flbas & 0xf) | ((ns.flbas >> 5) & 0x3) << 4;
		z->zsze = le64toh(zn.lbafe[f & 63].zsze);
		z->mor = le32toh(zn.mor);
		z->mar = le32toh(zn.mar);
		z->zoc = le16toh(zn.zoc);
		z->zasl = zc.zasl;
	}
	close(fd);
	return r;
}

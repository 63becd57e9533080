/* fdp.c - fio's Flexible Data Placement and atomic=1 options (fdp.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include "base/num.h"
#include "dev/nvme.h"
#include "io/feat/fdp.h"

/* plids=0,1,2-5 (fio's str_fdp_pli_cb: ids and ranges, at most 128; an
 * empty entry ends the list) */
static int set_ids(struct spec_fdp *f, const char *key, const char *v, char *err, size_t errlen)
{
	struct spec_fdp t = *f;
	const char *p = v;

	t.nids = 0;
	while (*p && *p != ',') {
		unsigned a, b;
		size_t n = strcspn(p, ",");
		char one[32], *dash;
		if (n >= sizeof(one))
			goto bad;
		memcpy(one, p, n);
		one[n] = '\0';
		dash = strchr(one, '-');
		if (dash)
			*dash = '\0';
		if (num_parse_uint(one, 0, 65535, &a) ||
		    (dash ? num_parse_uint(dash + 1, 0, 65535, &b) : (b = a, 0)) || a > b)
			goto bad;
		for (unsigned i = a; i <= b; i++) {
			if (t.nids == NVS_ARRAY_SIZE(t.ids))
				return snprintf(err, errlen,
						"%s: only %zu IDs supported (fio's limit)", key,
						NVS_ARRAY_SIZE(t.ids)),
				       -EINVAL;
			t.ids[t.nids++] = (uint16_t)i;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	*f = t;
	return 0;
bad:
	return snprintf(err, errlen, "%s: '%s' is not a list of placement ID indices (0,1,4-7)",
			key, v),
	       -EINVAL;
}

static int fdp_spec_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	struct spec_fdp *f = &s->fdp;

	if (!strcmp(key, "fdp") || !strcmp(key, "atomic") ||
	    !strcmp(key, "verify_write_sequence")) {
		bool b;
		if (spec_parse_bool(v, &b))
			return snprintf(err, errlen, "%s: '%s' is not a boolean (0/1)", key,
					v ? v : ""),
			       -EINVAL;
		if (key[0] == 'f')
			f->on = b;
		else if (key[0] == 'a')
			s->atomic = b;
		/* verify_write_sequence: nvscope's verify never checks the
		 * header's write sequence number (fio's =0; its default 1
		 * checks it: docs/cli.md) */
		return 0;
	}
	if (!strcmp(key, "dataplacement") || !strcmp(key, "data_placement")) {
		if (v && !strcmp(v, "fdp"))
			f->on = true, f->dp_none = false;
		else if (v && !strcmp(v, "none"))
			f->on = false, f->dp_none = true;
		else if (v && !strcmp(v, "streams"))
			return snprintf(err, errlen,
					"%s=streams: refused: NVMe Streams directives are not "
					"implemented (fdp is)",
					key),
			       -EINVAL;
		else
			return snprintf(err, errlen, "%s: '%s' is not none, fdp or streams", key,
					v ? v : ""),
			       -EINVAL;
		return 0;
	}
	if (!strcmp(key, "plids") || !strcmp(key, "fdp_pli")) {
		if (!v || !*v)
			return snprintf(err, errlen, "%s needs a value", key), -EINVAL;
		return set_ids(f, key, v, err, errlen);
	}
	if (!strcmp(key, "plid_select") || !strcmp(key, "fdp_pli_select")) {
		if (v && !strcmp(v, "random"))
			f->random = true;
		else if (v && !strcmp(v, "roundrobin"))
			f->random = false;
		else if (v && !strcmp(v, "scheme"))
			return snprintf(
				   err, errlen,
				   "%s=scheme: refused: placement by LBA ranges (dp_scheme) is "
				   "not implemented",
				   key),
			       -EINVAL;
		else
			return snprintf(err, errlen, "%s: '%s' is not random or roundrobin", key,
					v ? v : ""),
			       -EINVAL;
		return 0;
	}
	if (!strcmp(key, "dp_scheme"))
		return snprintf(err, errlen,
				"dp_scheme: refused: placement by LBA ranges is not implemented"),
		       -EINVAL;
	return -ENOENT;
}

/* The options this module sets: a row each, the family's setter above
 * (io/opt/opt.h). */
const struct opt_row fdp_opts[FDP_NOPTS] = {
    {.name = "atomic", .kind = OPT_CUSTOM, .set = fdp_spec_set},
    {.name = "data_placement", .kind = OPT_CUSTOM, .set = fdp_spec_set},
    {.name = "dataplacement", .kind = OPT_CUSTOM, .set = fdp_spec_set},
    {.name = "dp_scheme", .kind = OPT_CUSTOM, .set = fdp_spec_set},
    {.name = "fdp", .kind = OPT_CUSTOM, .set = fdp_spec_set},
    {.name = "fdp_pli", .kind = OPT_CUSTOM, .set = fdp_spec_set},
    {.name = "fdp_pli_select", .kind = OPT_CUSTOM, .set = fdp_spec_set},
    {.name = "plid_select", .kind = OPT_CUSTOM, .set = fdp_spec_set},
    {.name = "plids", .kind = OPT_CUSTOM, .set = fdp_spec_set},
    {.name = "verify_write_sequence", .kind = OPT_CUSTOM, .set = fdp_spec_set},
};

int fdp_spec_validate(const struct spec *s, char *err, size_t errlen)
{
#define BAD(...) return snprintf(err, errlen, __VA_ARGS__), -EINVAL
	char eng[32];

	if (s->fdp.on && s->fdp.dp_none)
		BAD("fdp=1 is not compatible with dataplacement=none (fio refuses it too)");
	if (s->fdp.on && s->ioengine != ENGINE_IO_URING_CMD)
		BAD("fdp: NVMe flexible data placement needs ioengine=io_uring_cmd on the "
		    "namespace's generic device /dev/ngXnY (fio: the engine lacks fetch ruhs)");
	if (!s->atomic || !spec_writes(s)) /* fio: atomic=1 without writes is off */
		return 0;
	snprintf(eng, sizeof(eng), "%s", s->fio_engine); /* a job file's, "" else */
	if (s->ioengine == ENGINE_IO_URING_CMD)
		BAD("atomic: ioengine=io_uring_cmd does not support atomic writes (fio refuses "
		    "it too; io_uring, libaio and pvsync2 do)");
	if (!strcmp(eng, "psync") || !strcmp(eng, "sync") || !strcmp(eng, "pvsync") ||
	    !strcmp(eng, "vsync"))
		BAD("atomic: ioengine=%s does not support atomic writes (fio refuses it too; "
		    "io_uring, libaio and pvsync2 do)",
		    eng);
	if (!s->direct)
		BAD("atomic: RWF_ATOMIC writes need direct=1 (O_DIRECT)");
	if (s->nbs > 1)
		BAD("atomic with several block sizes: not implemented (each write must be one "
		    "naturally aligned atomic unit)");
	return 0;
#undef BAD
}

int fdp_atomic_unit(dev_t rdev, uint32_t *min, uint32_t *max)
{
	static const char *const dir[] = {"queue", "../queue"}; /* a partition: its disk's */
	const char *name[] = {"atomic_write_unit_min_bytes", "atomic_write_unit_max_bytes"};
	uint32_t *out[] = {min, max};

	for (unsigned d = 0; d < 2; d++) {
		int rc = 0;
		for (unsigned k = 0; k < 2 && !rc; k++) {
			char p[128], buf[32];
			unsigned long long v;
			snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/%s/%s", major(rdev),
				 minor(rdev), dir[d], name[k]);
			FILE *fp = fopen(p, "re");
			if (!fp) {
				rc = -errno;
				break;
			}
			if (!fgets(buf, sizeof(buf), fp) || sscanf(buf, "%llu", &v) != 1 ||
			    v > UINT32_MAX)
				rc = -EIO;
			else
				*out[k] = (uint32_t)v;
			fclose(fp);
		}
		if (!rc)
			return 0;
		if (d == 1 || rc != -ENOENT)
			return rc;
	}
	return -ENOENT;
}

static int atomic_setup(const struct target *t, const struct spec *s, char *err, size_t errlen)
{
	uint32_t min = 0, max = 0, bs = s->bs[0].bs;
	int rc;

	if (t->kind != TARGET_BLOCK)
		return snprintf(err, errlen,
				"%s: atomic=1: refused: on a %s target not implemented (nvscope "
				"reads a block device's atomic write unit); nothing was written",
				t->path, target_kind_name(t->kind)),
		       -EOPNOTSUPP;
	rc = fdp_atomic_unit(t->rdev, &min, &max);
	if (rc == -ENOENT)
		return snprintf(err, errlen,
				"%s: atomic=1: refused: this kernel reports no atomic write unit "
				"(queue/atomic_write_unit_max_bytes, Linux 6.11+); nothing was "
				"written",
				t->path),
		       -EOPNOTSUPP;
	if (rc)
		return snprintf(err, errlen, "%s: atomic=1: its atomic write unit: %s", t->path,
				strerror(-rc)),
		       rc;
	if (!max)
		return snprintf(err, errlen,
				"%s: atomic=1: refused: the device has no atomic write support "
				"(atomic_write_unit_max_bytes is 0); nothing was written",
				t->path),
		       -EOPNOTSUPP;
	if (bs < min || bs > max || (bs & (bs - 1)))
		return snprintf(err, errlen,
				"%s: atomic=1: refused: block size %u is not a power of two within "
				"its atomic write unit (atomic_write_unit_min_bytes %u, "
				"atomic_write_unit_max_bytes %u); nothing was written",
				t->path, bs, min, max),
		       -EINVAL;
	return 0;
}

static int fdp_setup(struct target *t, const struct spec *s, char *err, size_t errlen)
{
	struct nvs_fdp *f = calloc(1, sizeof(*f));
	int rc;

	if (!f)
		return -ENOMEM;
	rc = nvs_nvme_fdp(t->path, t->nsid, f, NULL, err, errlen);
	if (rc)
		goto out;
	if (!f->nruhsd) {
		snprintf(err, errlen, "%s: fdp: the namespace reports no reclaim unit handles",
			 t->path);
		rc = -EOPNOTSUPP;
		goto out;
	}
	t->fdp_n = s->fdp.nids ? s->fdp.nids : f->nruhsd;
	for (unsigned i = 0; i < t->fdp_n; i++) {
		unsigned k = s->fdp.nids ? s->fdp.ids[i] : i;
		if (k >= f->nruhsd) { /* fio's words */
			snprintf(err, errlen,
				 "%s: fdp: PID index %u must be smaller than %u (FDP configuration "
				 "%u of %u: %u reclaim unit handles, %u reclaim groups, reclaim "
				 "units of %" PRIu64 " bytes)",
				 t->path, k, f->nruhsd, f->cfg, f->nconfigs, f->nruh, f->nrg,
				 f->runs);
			t->fdp_n = 0;
			rc = -EINVAL;
			goto out;
		}
		t->fdp_pid[i] = f->pid[k];
	}
out:
	free(f);
	return rc;
}

int fdp_target_setup(struct target *t, const struct spec *s, char *err, size_t errlen)
{
	t->fdp_n = 0;
	if (s->fdp.on && s->ioengine == ENGINE_IO_URING_CMD && spec_writes(s)) {
		int rc = fdp_setup(t, s, err, errlen);
		if (rc)
			return rc;
	}
	if (s->atomic && spec_writes(s))
		return atomic_setup(t, s, err, errlen);
	return 0;
}

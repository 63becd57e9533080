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

/* verify_write_sequence: a boolean that changes nothing: nvscope's verify
 * never checks the header's write sequence number (fio's =0; its default 1
 * checks it: docs/cli.md) */
static int set_no_wseq(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	bool b;

	(void)s;
	if (spec_parse_bool(v, &b))
		return snprintf(err, errlen, "%s: '%s' is not a boolean (0/1)", key, v ? v : ""),
		       -EINVAL;
	return 0;
}

/* dataplacement=none|fdp (streams refused) */
static int set_placement(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	struct spec_fdp *f = &s->fdp;

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

static int set_plids(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	if (!v || !*v)
		return snprintf(err, errlen, "%s needs a value", key), -EINVAL;
	return set_ids(&s->fdp, key, v, err, errlen);
}

/* plid_select=random|roundrobin (scheme refused) */
static int set_plid_select(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	if (v && !strcmp(v, "random"))
		s->fdp.random = true;
	else if (v && !strcmp(v, "roundrobin"))
		s->fdp.random = false;
	else if (v && !strcmp(v, "scheme"))
		return snprintf(err, errlen,
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

/* The options this module sets: a row each (io/opt/opt.h). */
#define ROW(n, fn)                                                                                 \
	{                                                                                          \
		.name = n, .kind = OPT_CUSTOM, .set = fn                                           \
	}
const struct opt_row fdp_opts[FDP_NOPTS] = {
    {.name = "atomic", .kind = OPT_BOOL, OPT_FIELD(atomic), .what = "a boolean (0/1)"},
    ROW("data_placement", set_placement),
    ROW("dataplacement", set_placement),
    {.name = "dp_scheme", .kind = OPT_REFUSED, .why = "placement by LBA ranges is not implemented"},
    {.name = "fdp", .kind = OPT_BOOL, OPT_FIELD(fdp.on), .what = "a boolean (0/1)"},
    ROW("fdp_pli", set_plids),
    ROW("fdp_pli_select", set_plid_select),
    ROW("plid_select", set_plid_select),
    ROW("plids", set_plids),
    ROW("verify_write_sequence", set_no_wseq),
};
#undef ROW

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

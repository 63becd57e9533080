/* nvcmd.c - fio's io_uring_cmd write_mode, deac and num_range (nvcmd.h).
 *
 * What fio (engines/io_uring.c, engines/nvme.c, io_u.c; fio master) does,
 * and this follows:
 * - write_mode=write|uncor|zeroes|verify replaces the Write command of every
 *   write by Write Uncorrectable (04h), Write Zeroes (08h) or Verify (0Ch)
 *   over the same LBA range, with no data buffer; CDW12 is NLB (zero based),
 *   plus DEAC (bit 25) on Write Zeroes only with deac=1.  They count as
 *   writes in the stats (their bytes are the range's).  A job without
 *   writes is refused.  mode/pct:mode/pct... mixes them per write: a draw
 *   in 0..99 against the cumulative percentages (fio's own seed; here the
 *   worker's PRNG); a blank percentage shares what the others leave.
 * - num_range=N (1..256): a trim is one Dataset Management command (AD)
 *   holding N ranges, each the next offset and block size of the job's
 *   offset stream (fio's fill_multi_range_io_u), fewer when the stream
 *   ends; it counts as ONE I/O of the ranges' total bytes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/num.h"
#include "dev/nvme.h"
#include "io/feat/nvcmd.h"
#include "io/opt/specdata.h"

static const char *const mode_names[] = {"write", "uncor", "zeroes", "verify"};

const char *nvcmd_mode_name(unsigned mode)
{
	return mode < 4 ? mode_names[mode] : "?";
}

static int mode_parse(const char *v, size_t n, uint8_t *mode, char *err, size_t errlen)
{
	for (unsigned i = 0; i < 4; i++)
		if (strlen(mode_names[i]) == n && !strncmp(v, mode_names[i], n)) {
			*mode = (uint8_t)i;
			return 0;
		}
	if (n == 11 && !strncmp(v, "zone_append", n))
		snprintf(err, errlen,
			 "write_mode=zone_append: refused: Zone Append commands are not "
			 "implemented (zonemode=zbd writes with Write commands at the write "
			 "pointer)");
	else
		snprintf(err, errlen,
			 "write_mode: '%.*s' is not write, uncor, zeroes or verify (or a mix "
			 "mode/pct:mode/pct)",
			 (int)(n > 64 ? 64 : n), v);
	return -EINVAL;
}

static int wmode_set(struct spec_nvcmd *n, const char *v, char *err, size_t errlen)
{
	struct spec_nvcmd t = *n;
	unsigned total = 0, blank = 0;
	bool is_blank[SPEC_MAX_WMODES] = {false};

	if (!v || !*v)
		return snprintf(err, errlen, "write_mode needs a value"), -EINVAL;
	if (!strchr(v, ':')) {
		if (mode_parse(v, strlen(v), &t.mode[0], err, errlen))
			return -EINVAL;
		t.nmode = 1;
		t.pct[0] = 100;
		*n = t;
		return 0;
	}
	t.nmode = 0;
	for (const char *p = v;;) {
		const char *end = strchr(p, ':'), *sl;
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (t.nmode == SPEC_MAX_WMODES)
			return snprintf(err, errlen, "write_mode: too many entries (at most %d)",
					SPEC_MAX_WMODES),
			       -EINVAL;
		sl = memchr(p, '/', len);
		if (!sl)
			return snprintf(err, errlen, "write_mode: '%.*s' has no /percentage",
					(int)(len > 64 ? 64 : len), p),
			       -EINVAL;
		if (mode_parse(p, (size_t)(sl - p), &t.mode[t.nmode], err, errlen))
			return -EINVAL;
		size_t plen = len - (size_t)(sl - p) - 1;
		if (plen == 0) {
			is_blank[t.nmode] = true;
			blank++;
			t.pct[t.nmode] = 0;
		} else {
			char num[8];
			unsigned pc;
			if (plen >= sizeof(num))
				plen = sizeof(num) - 1; /* too long a number: refused below */
			memcpy(num, sl + 1, plen);
			num[plen] = '\0';
			if (len - (size_t)(sl - p) - 1 >= sizeof(num) ||
			    num_parse_uint(num, 0, 100, &pc))
				return snprintf(err, errlen,
						"write_mode: '%.*s' is not a percentage 0..100",
						(int)(len > 64 ? 64 : len), p),
				       -EINVAL;
			t.pct[t.nmode] = (uint8_t)pc;
			total += pc;
		}
		t.nmode++;
		if (!end)
			break;
		p = end + 1;
	}
	if (t.nmode < 2)
		return snprintf(err, errlen, "write_mode: a mix needs at least 2 entries"), -EINVAL;
	if (total > 100)
		return snprintf(err, errlen, "write_mode: the percentages exceed 100"), -EINVAL;
	if (!blank && total != 100)
		return snprintf(err, errlen, "write_mode: the percentages must add up to 100"),
		       -EINVAL;
	/* fio: the blank entries share the rest evenly; what the division
	 * leaves goes to the last blank one (fio leaves it to none: a draw
	 * there fails the write) */
	unsigned fill = blank ? (100 - total) / blank : 0, last = 0;
	for (unsigned i = 0; i < t.nmode; i++)
		if (is_blank[i]) {
			t.pct[i] = (uint8_t)fill;
			last = i;
		}
	if (blank)
		t.pct[last] = (uint8_t)(t.pct[last] + (100 - total) - fill * blank);
	*n = t;
	return 0;
}

static int write_mode_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	(void)key;
	return wmode_set(&s->nvcmd, v, err, errlen);
}

const struct opt_row nvcmd_opts[NVCMD_NOPTS] = {
    {.name = "write_mode", .kind = OPT_CUSTOM, .set = write_mode_set},
    {.name = "deac", .kind = OPT_BOOL01, OPT_FIELD(nvcmd.deac), .what = "a boolean (0/1)"},
    {.name = "num_range",
     .kind = OPT_UINT,
     OPT_FIELD(nvcmd.num_range),
     .min = 1,
     .max = NVCMD_MAX_RANGES,
     .what = "a number 1..256"},
};

bool nvcmd_active(const struct spec *s)
{
	for (unsigned i = 0; i < s->nvcmd.nmode; i++)
		if (s->nvcmd.mode[i] != WMODE_WRITE && s->nvcmd.pct[i])
			return true;
	return false;
}

bool nvcmd_changes_data(const struct spec *s)
{
	if (s->ioengine != ENGINE_IO_URING_CMD || !s->nvcmd.nmode)
		return true;
	for (unsigned i = 0; i < s->nvcmd.nmode; i++)
		if (s->nvcmd.mode[i] != WMODE_VERIFY && s->nvcmd.pct[i])
			return true;
	return false;
}

static bool has_writes(const struct spec *s)
{
	switch (s->rw) {
	case RW_WRITE:
	case RW_RANDWRITE:
	case RW_TRIMWRITE:
	case RW_RANDTRIMWRITE:
		return true;
	case RW_RW:
	case RW_RANDRW:
		return s->rwmixread < 100;
	default:
		return false;
	}
}

int nvcmd_spec_validate(const struct spec *s, char *err, size_t errlen)
{
#define BAD(...) return snprintf(err, errlen, __VA_ARGS__), -EINVAL
	bool cmd = s->ioengine == ENGINE_IO_URING_CMD;
	unsigned nr = nvcmd_ranges(s);

	if (nvcmd_active(s)) {
		if (!cmd)
			BAD("write_mode: Write Uncorrectable, Write Zeroes and Verify are NVMe "
			    "commands: they need ioengine=io_uring_cmd on the namespace's generic "
			    "device (/dev/ngXnY)");
		if (s->replay.iolog[0])
			BAD("write_mode with a trace replay (read_iolog): not implemented");
		if (!has_writes(s))
			BAD("write_mode: rw=%s has no writes to send as other commands (fio "
			    "refuses it too)",
			    spec_rw_name(s->rw));
		if (s->verify)
			BAD("write_mode with verify=: not implemented (the blocks written as "
			    "zeroes, uncorrectable or verified carry no header to check)");
	}
	if (nr > 1 && specdata_trims(s)) {
		if (!cmd)
			BAD("num_range=%u: a trim of several ranges is one NVMe Dataset "
			    "Management command: it needs ioengine=io_uring_cmd (fio refuses other "
			    "engines too)",
			    nr);
		if (s->rw == RW_TRIMWRITE || s->rw == RW_RANDTRIMWRITE)
			BAD("num_range with rw=%s: trimwrite cannot use several ranges (fio "
			    "refuses it too)",
			    spec_rw_name(s->rw));
		if (s->fileset || s->stripe)
			BAD("num_range with several files in one job (filename=a:b, stripe): not "
			    "implemented");
		if (s->replay.write_iolog[0])
			BAD("num_range with write_iolog: not implemented (fio logs only each "
			    "trim's first range)");
		if (s->serialize_overlap)
			BAD("num_range with serialize_overlap: not implemented");
		for (unsigned i = 0; i < s->nbs; i++)
			if ((uint64_t)s->bs[i].bs * nr > (1u << 30))
				BAD("num_range=%u x block size %u: more than 1 GiB in one trim", nr,
				    s->bs[i].bs);
	}
	return 0;
#undef BAD
}

int nvcmd_caps_check(const struct spec *s, const struct dev_caps *k, const char *path, char *err,
		     size_t errlen)
{
	static const struct {
		const char *cmd;
		unsigned bit;
	} need[] = {{"Write", 0}, {"Write Uncorrectable", 1}, {"Write Zeroes", 3}, {"Verify", 7}};

	for (unsigned i = 0; i < s->nvcmd.nmode; i++) {
		unsigned m = s->nvcmd.mode[i];
		bool ok = m == WMODE_WRITE || !s->nvcmd.pct[i] ||
			  (k->caps_valid && (m == WMODE_UNCOR	 ? k->write_uncor
					     : m == WMODE_ZEROES ? k->write_zeroes
								 : k->verify));
		if (!ok)
			return snprintf(err, errlen,
					"%s: write_mode=%s: refused: %s %s (Identify Controller "
					"ONCS bit %u); nothing was sent",
					path, nvcmd_mode_name(m),
					k->caps_valid ? "the controller does not support"
						      : "Identify Controller could not be read, "
							"so no support is known for",
					need[m].cmd, need[m].bit),
			       -EOPNOTSUPP;
	}
	if (specdata_trims(s) && !(k->caps_valid && k->dsm))
		return snprintf(err, errlen,
				"%s: trims: refused: %s Dataset Management (Identify Controller "
				"ONCS bit 2); nothing was sent",
				path,
				k->caps_valid ? "the controller does not support"
					      : "Identify Controller could not be read, so no "
						"support is known for"),
		       -EOPNOTSUPP;
	return 0;
}

int nvcmd_probe(const struct spec *s, const char *path, char *err, size_t errlen)
{
	struct dev_caps k;
	int st = 0;

	if (s->ioengine != ENGINE_IO_URING_CMD || (!nvcmd_active(s) && !specdata_trims(s)))
		return 0;
	/* an unreadable Identify leaves k invalid: refused below, by name */
	char e2[256];
	if (nvs_nvme_caps(path, &k, &st, e2, sizeof(e2)))
		memset(&k, 0, sizeof(k));
	return nvcmd_caps_check(s, &k, path, err, errlen);
}

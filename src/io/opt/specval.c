/* specval.c - fio's value syntaxes that opt_set reads: "r,w" per
 * direction, block-size lists and ranges, rates, percentile lists, filename
 * escapes, and the table of fio options refused with the reason.  Internal
 * to src/io/opt/spec.c (and its tests). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/num.h"
#include "io/opt/specval.h"

static size_t fmt_dir_bs(const struct spec *s, int d, char *buf, size_t len)
{
	char a[32];
	size_t n = 0;
	unsigned parts = 0;

	for (unsigned i = 0; i < s->nbs; i++) {
		unsigned w = d ? s->bs[i].wweight : s->bs[i].weight;
		if (w)
			parts++;
	}
	for (unsigned i = 0; i < s->nbs && n < len; i++) {
		unsigned w = d ? s->bs[i].wweight : s->bs[i].weight;
		int k;
		if (!w)
			continue;
		spec_fmt_size(s->bs[i].bs, a, sizeof(a));
		k = parts > 1 ? snprintf(buf + n, len - n, "%s%s/%u", n ? ":" : "", a, w)
			      : snprintf(buf + n, len - n, "%s", a);
		n += k > 0 ? (size_t)k : 0;
	}
	return n < len ? n : len - 1;
}

const char *spec_fmt_bs(const struct spec *s, char *buf, size_t len)
{
	char a[32], b[32];
	size_t n;
	bool same = true;

	if (!len)
		return "bs";
	buf[0] = '\0';
	if (s->bsrange[0][1]) {
		snprintf(buf, len, "%s-%s", spec_fmt_size(s->bsrange[0][0], a, sizeof(a)),
			 spec_fmt_size(s->bsrange[0][1], b, sizeof(b)));
		if (memcmp(s->bsrange[0], s->bsrange[1], sizeof(s->bsrange[0]))) {
			n = strlen(buf);
			snprintf(buf + n, len - n, ",%s-%s",
				 spec_fmt_size(s->bsrange[1][0], a, sizeof(a)),
				 spec_fmt_size(s->bsrange[1][1], b, sizeof(b)));
		}
		return "bsrange";
	}
	for (unsigned i = 0; i < s->nbs; i++)
		same &= s->bs[i].weight == s->bs[i].wweight;
	n = fmt_dir_bs(s, 0, buf, len);
	if (!same && n + 1 < len) {
		buf[n++] = ',';
		fmt_dir_bs(s, 1, buf + n, len - n);
	}
	return strchr(buf, '/') ? "bssplit" : "bs";
}

/* One direction's "4k/50:8k/50" into @bs (weight only). */
static int parse_bslist(char *buf, struct spec_bs *bs, unsigned *nout, char *err, size_t errlen)
{
	char *save, *tok;
	unsigned n = 0, sum = 0, unweighted = 0;

	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		uint64_t size;
		uint64_t w = 0;

		if (n == NVS_MAX_BSSPLIT) {
			snprintf(err, errlen, "bssplit: more than %d block sizes", NVS_MAX_BSSPLIT);
			return -EINVAL;
		}
		if (slash)
			*slash = '\0';
		if (spec_parse_size(tok, &size) || !size || size > (64u << 20)) {
			snprintf(err, errlen, "bssplit: bad block size '%s'", tok);
			return -EINVAL;
		}
		if (slash && num_parse_u64(slash + 1, 0, 100, &w)) {
			snprintf(err, errlen, "bssplit: bad weight '%s' (percent)", slash + 1);
			return -EINVAL;
		}
		if (!slash || !*(slash + 1))
			unweighted++;
		bs[n++] = (struct spec_bs){(uint32_t)size, (uint32_t)w, 0};
		sum += (unsigned)w;
	}
	if (!n || sum > 100 || (!unweighted && sum != 100)) {
		snprintf(err, errlen, "bssplit: weights must add up to 100 (got %u)", sum);
		return -EINVAL;
	}
	/* fio: entries without a weight share what is left equally */
	for (unsigned i = 0, left = 100 - sum; i < n && unweighted; i++) {
		if (bs[i].weight == 0) {
			bs[i].weight = left / unweighted + (i == n - 1 ? left % unweighted : 0);
		}
	}
	*nout = n;
	return 0;
}

/* Sets s->bs from a read list and a write list (fio's "r,w"): one entry per
 * size, weight for reads, wweight for writes. */
static int merge_bs(struct spec *s, const struct spec_bs *r, unsigned nr, const struct spec_bs *w,
		    unsigned nw, char *err, size_t errlen)
{
	struct spec_bs out[NVS_MAX_BSSPLIT];
	unsigned n = 0;

	for (unsigned d = 0; d < 2; d++) {
		const struct spec_bs *l = d ? w : r;
		for (unsigned i = 0; i < (d ? nw : nr); i++) {
			unsigned k;
			for (k = 0; k < n && out[k].bs != l[i].bs; k++)
				;
			if (k == n) {
				if (n == NVS_MAX_BSSPLIT) {
					snprintf(err, errlen, "more than %d block sizes",
						 NVS_MAX_BSSPLIT);
					return -EINVAL;
				}
				out[n++] = (struct spec_bs){l[i].bs, 0, 0};
			}
			*(d ? &out[k].wweight : &out[k].weight) += l[i].weight;
		}
	}
	memcpy(s->bs, out, sizeof(out[0]) * n);
	s->nbs = n;
	memset(s->bsrange, 0, sizeof(s->bsrange));
	return 0;
}

/* bssplit=LIST or LIST,LIST (reads, writes: fio's per-direction split; an
 * empty part keeps fio's default 4k) */
int specval_bssplit(struct spec *s, const char *v, char *err, size_t errlen)
{
	char buf[2048], *part[2];
	struct spec_bs bs[2][NVS_MAX_BSSPLIT];
	unsigned n[2] = {0, 0};

	if (specval_split_rw(v, part, buf, sizeof(buf))) {
		snprintf(err, errlen,
			 "bssplit: longer than %zu characters, or a third "
			 "(trim) list that differs from the write list",
			 sizeof(buf) - 1);
		return -EINVAL;
	}
	for (int d = 0; d < 2; d++) {
		if (!*part[d]) {
			bs[d][0] = (struct spec_bs){4096, 100, 0};
			n[d] = 1;
		} else if (part[d] != part[0] || d == 0) {
			if (parse_bslist(part[d], bs[d], &n[d], err, errlen))
				return -EINVAL;
		}
	}
	if (part[1] == part[0]) { /* one list: both directions */
		memcpy(bs[1], bs[0], sizeof(bs[0]));
		n[1] = n[0];
	}
	return merge_bs(s, bs[0], n[0], bs[1], n[1], err, errlen);
}

/* bs=SIZE or bs=R,W */
int specval_bs(struct spec *s, const char *v, char *err, size_t errlen)
{
	char buf[128], *part[2];
	struct spec_bs bs[2];
	uint64_t sz;

	if (specval_split_rw(v, part, buf, sizeof(buf)))
		goto bad;
	for (int d = 0; d < 2; d++) {
		sz = 4096; /* an empty part: fio's default */
		/* above 64m: trims only (spec_bs_misfit, checked once rw= is known) */
		if (*part[d] && (spec_parse_size(part[d], &sz) || sz == 0 || sz > SPEC_MAX_TRIM_BS))
			goto bad;
		bs[d] = (struct spec_bs){(uint32_t)sz, 100, 0};
	}
	return merge_bs(s, &bs[0], 1, &bs[1], 1, err, errlen);
bad:
	snprintf(err, errlen,
		 "bs: '%s' is not a block size (512 .. 64m; trims up to 2g), or read,write sizes",
		 v);
	return -EINVAL;
}

/* bsrange=MIN-MAX[,MIN-MAX] */
int specval_bsrange(struct spec *s, const char *v, char *err, size_t errlen)
{
	char buf[128], *part[2];
	uint64_t mm[2][2];
	struct spec_bs out[4];
	unsigned n = 0;

	if (specval_split_rw(v, part, buf, sizeof(buf)))
		goto bad;
	for (int d = 0; d < 2; d++) {
		char *dash = strchr(part[d], '-');
		if (!*part[d]) {
			mm[d][0] = mm[d][1] = 4096;
			continue;
		}
		if (!dash)
			goto bad;
		*dash = '\0';
		if (spec_parse_size(part[d], &mm[d][0]) || spec_parse_size(dash + 1, &mm[d][1]) ||
		    !mm[d][0] || mm[d][0] > mm[d][1] || mm[d][1] > (64u << 20))
			goto bad;
		*dash = '-';
		if (part[1] == part[0]) {
			memcpy(mm[1], mm[0], sizeof(mm[0]));
			break;
		}
	}
	for (int d = 0; d < 2; d++)
		for (int k = 0; k < 2; k++) {
			unsigned i;
			for (i = 0; i < n && out[i].bs != mm[d][k]; i++)
				;
			if (i == n)
				out[n++] = (struct spec_bs){(uint32_t)mm[d][k], 0, 0};
		}
	out[0].weight = out[0].wweight = 100; /* unused: the range decides */
	memcpy(s->bs, out, sizeof(out[0]) * n);
	s->nbs = n;
	for (int d = 0; d < 2; d++) {
		s->bsrange[d][0] = (uint32_t)mm[d][0];
		s->bsrange[d][1] = (uint32_t)mm[d][1];
	}
	return 0;
bad:
	snprintf(err, errlen, "bsrange: '%s' is not MIN-MAX block sizes (4k-64k, or read,write)",
		 v);
	return -EINVAL;
}

/* fio's filename=: one path, or a ':' list of the files ONE job runs over
 * (fio's file set: each worker issues to them in turn, file_service_type);
 * "\\:" is a ':' in a path, as in fio.  Sets s->fileset for a list. */
int specval_filename(struct spec *s, const char *v, char *err, size_t errlen)
{
	char path[sizeof(s->targets[0])];
	size_t n = 0;
	unsigned first = s->ntargets;

	for (const char *p = v;; p++) {
		if (!*p || (*p == ':' && (p == v || p[-1] != '\\'))) {
			path[n] = '\0';
			if (!n) {
				snprintf(err, errlen, "filename: '%s': an empty file name", v);
				return -EINVAL;
			}
			if (s->ntargets == NVS_MAX_TARGETS) {
				snprintf(err, errlen, "too many targets (max %d)", NVS_MAX_TARGETS);
				return -EINVAL;
			}
			snprintf(s->targets[s->ntargets++], sizeof(s->targets[0]), "%s", path);
			n = 0;
			if (!*p)
				break;
			continue;
		}
		if (*p == '\\' && p[1] == ':')
			continue;
		if (n + 1 >= sizeof(path)) {
			snprintf(err, errlen, "target path longer than %zu bytes: %.60s...",
				 sizeof(path) - 1, v);
			return -EINVAL;
		}
		path[n++] = *p;
	}
	if (s->ntargets - first > 1)
		s->fileset = true;
	return 0;
}

/* One direction of fio's zoned split (options.c zone_split_ddir): "A/S"
 * entries, A% of the accesses to the next S% of the region; a missing S
 * shares what is left; the A must add up to 100, the S to at most 100. */
static int zoned_dir(char *list, uint8_t lo[100], uint8_t hi[100])
{
	unsigned acc[100], sz[100], n = 0, asum = 0, ssum = 0, smiss = 0;
	char *save, *tok;

	for (tok = strtok_r(list, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *sl = strchr(tok, '/');
		if (n == 100)
			return -EINVAL;
		if (sl)
			*sl++ = '\0';
		if (num_parse_uint(tok, 0, 100, &acc[n]))
			return -EINVAL;
		sz[n] = 0;
		if (sl && *sl && num_parse_uint(sl, 0, 100, &sz[n]))
			return -EINVAL;
		if (!sz[n])
			smiss++; /* fio: 0 or none is "missing" */
		asum += acc[n];
		ssum += sz[n];
		n++;
	}
	if (!n || asum != 100 || ssum > 100)
		return -EINVAL;
	for (unsigned i = 0; i < n; i++)
		if (!sz[i])
			sz[i] = smiss == 1 && n == 1 ? 100 : (100 - ssum) / smiss;
	/* fio's __td_zone_gen_index */
	unsigned a = 0, sp = 0;
	for (unsigned i = 0; i < n; i++) {
		for (unsigned j = a; j < a + acc[i]; j++) {
			lo[j] = (uint8_t)sp;
			hi[j] = (uint8_t)(sp + sz[i]);
		}
		a += acc[i];
		sp += sz[i];
	}
	return 0;
}

int specval_zoned(struct spec *s, const char *v, char *err, size_t errlen)
{
	char buf[1024], *part[2];
	uint8_t lo[2][100], hi[2][100];

	if (strncmp(v, "zoned:", 6) || specval_split_rw(v + 6, part, buf, sizeof(buf)))
		goto bad;
	if (part[1] == part[0]) { /* one list for every direction */
		if (zoned_dir(part[0], lo[0], hi[0]))
			goto bad;
		memcpy(lo[1], lo[0], 100);
		memcpy(hi[1], hi[0], 100);
	} else {
		for (int d = 0; d < 2; d++) {
			memset(hi[d], 0, 100);
			if (*part[d] && zoned_dir(part[d], lo[d], hi[d]))
				goto bad;
		}
	}
	memcpy(s->zone_lo, lo, sizeof(lo));
	memcpy(s->zone_hi, hi, sizeof(hi));
	s->dist = DIST_ZONED;
	s->dist_val = 0;
	s->dist_center = -1;
	return 0;
bad:
	snprintf(err, errlen,
		 "random_distribution: '%s' is not zoned:ACCESS/SIZE[:ACCESS/SIZE...] in "
		 "percent (accesses adding up to 100, sizes to at most 100; read,write lists)",
		 v);
	return -EINVAL;
}

/* fio's file_service_type=roundrobin|sequential|random[:N] (zipf, pareto
 * and normal file choice are refused). */
int specval_file_service(struct spec *s, const char *v, char *err, size_t errlen)
{
	static const char *const names[] = {"roundrobin", "sequential", "random"};
	const char *c = v ? strchr(v, ':') : NULL;
	size_t nl = c ? (size_t)(c - v) : v ? strlen(v) : 0;
	unsigned nr = 1;

	for (unsigned i = 0; v && i < NVS_ARRAY_SIZE(names); i++) {
		if (strlen(names[i]) != nl || strncmp(v, names[i], nl))
			continue;
		if (c && num_parse_uint(c + 1, 1, 1u << 30, &nr))
			break;
		s->file_service = (uint8_t)i;
		s->file_service_nr = nr;
		return 0;
	}
	snprintf(err, errlen,
		 "file_service_type: '%s' is not roundrobin, sequential or random[:N] (zipf, "
		 "pareto and normal file choice are not implemented)",
		 v ? v : "");
	return -EINVAL;
}

/* fio's "r,w[,t]" values (rate_iops, rate, bs): one value is for every
 * direction; an empty part leaves that direction at 0.  A trim part must be
 * empty or equal to the write part: nvscope has no separate trim stream. */
int specval_split_rw(const char *v, char *part[2], char *buf, size_t blen)
{
	char *c1, *c2;

	if (snprintf(buf, blen, "%s", v ? v : "") >= (int)blen)
		return -EINVAL;
	c1 = strchr(buf, ',');
	part[0] = buf;
	if (!c1) {
		part[1] = buf;
		return 0;
	}
	*c1 = '\0';
	part[1] = c1 + 1;
	c2 = strchr(part[1], ',');
	if (c2) {
		*c2 = '\0';
		if (c2[1] && strcmp(c2 + 1, part[1]))
			return -EINVAL;
	}
	return 0;
}

/* rate_iops=r,w (counts) or rate=r,w (bytes/s, fio's sizes) */
int specval_rate(uint64_t out[2], const char *v, bool bytes)
{
	char buf[128], *part[2];
	uint64_t val[2] = {0, 0};

	if (specval_split_rw(v, part, buf, sizeof(buf)))
		return -EINVAL;
	for (int d = 0; d < 2; d++) {
		if (!*part[d])
			continue;
		if (bytes ? spec_parse_size(part[d], &val[d])
			  : num_parse_u64(part[d], 0, 100000000, &val[d]))
			return -EINVAL;
	}
	if (!*part[0] && !*part[1])
		return -EINVAL;
	out[0] = val[0];
	out[1] = val[1];
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* percentile_list=99:99.9:99.99 (fio: ':' separated, 0..100, at most 20,
 * sorted as fio sorts it) */
int specval_pct_list(struct spec *s, const char *v, char *err, size_t errlen)
{
	char buf[512], *save, *tok;
	double p[NVS_ARRAY_SIZE(s->pct_list)];
	unsigned n = 0;

	if (snprintf(buf, sizeof(buf), "%s", v ? v : "") >= (int)sizeof(buf)) {
		snprintf(err, errlen, "percentile_list: longer than %zu characters",
			 sizeof(buf) - 1);
		return -EINVAL;
	}
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		if (n == NVS_ARRAY_SIZE(p) || num_parse_pct(tok, &p[n])) {
			snprintf(err, errlen,
				 "percentile_list: '%s' is not a percentile 0..100 (at most %zu)",
				 tok, NVS_ARRAY_SIZE(p));
			return -EINVAL;
		}
		n++;
	}
	if (!n) {
		snprintf(err, errlen, "percentile_list: empty");
		return -EINVAL;
	}
	qsort(p, n, sizeof(p[0]), cmp_double);
	memcpy(s->pct_list, p, n * sizeof(p[0]));
	s->npct = n;
	return 0;
}

/* fallocate: fio's none (or 0) asks for no preallocation, which is what
 * nvscope does; any other value is refused (nvscope lays out no files). */
static int fallocate(struct spec *s, const char *key, const char *key_in, const char *v, char *err,
		     size_t errlen)
{
	(void)s;
	(void)key;
	if (v && (!strcmp(v, "none") || !strcmp(v, "0")))
		return 0;
	snprintf(err, errlen, "%s: refused: %s", key_in,
		 "nvscope does not create or lay out files");
	return -EINVAL;
}

/* fio options storage reviewers use that nvscope refuses, each with why
 * (docs/cli.md's table lists them; tests/integration/option_table.sh checks
 * that every option has a row there). */
const struct opt_row specval_refused_opts[SPECVAL_NREFUSED] = {
    {.name = "nrfiles",
     .kind = OPT_REFUSED,
     .why = "fio creates these files (its generated file set), and nvscope never creates "
	    "files on a file system: list existing files or devices in filename=a:b"},
    {.name = "directory",
     .kind = OPT_REFUSED,
     .why = "fio creates its job files there, and nvscope never creates files on a file "
	    "system: give existing files or devices as filename="},
    {.name = "create_on_open", .kind = OPT_REFUSED, .why = "nvscope does not create files"},
    {.name = "fallocate", .kind = OPT_CUSTOM, .seti = fallocate},
    {.name = "unlink", .kind = OPT_REFUSED, .why = "nvscope does not create or remove files"},
    {.name = "trim_percentage",
     .kind = OPT_REFUSED,
     .why = "trim-then-verify of written blocks is not implemented"},
    {.name = "trim_backlog",
     .kind = OPT_REFUSED,
     .why = "trim-then-verify of written blocks is not implemented"},
    {.name = "fill_fs", .kind = OPT_REFUSED, .why = "nvscope does not fill file systems"},
    {.name = "lockmem", .kind = OPT_REFUSED, .why = "not implemented"},
};

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int specval_pattern(const char *str, uint8_t *out, size_t max)
{
	size_t n = 0;
	const char *p = str;

	if (!p || !*p)
		return -EINVAL;
	while (*p) {
		if (*p == '"') {
			const char *e = strchr(p + 1, '"');
			if (!e || e == p + 1 || (size_t)(e - p - 1) > max - n)
				return -EINVAL;
			memcpy(out + n, p + 1, (size_t)(e - p - 1));
			n += (size_t)(e - p - 1);
			p = e + 1;
		} else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
			size_t d = 0;
			p += 2;
			while (hexval(p[d]) >= 0 && !(p[d] == '0' && (p[d + 1] | 0x20) == 'x'))
				d++;
			if (!d || (d + 1) / 2 > max - n)
				return -EINVAL;
			/* fio: an odd count makes the first digit a byte of its own */
			for (size_t i = 0; i < d;) {
				size_t take = (i == 0 && d % 2) ? 1 : 2;
				int v = hexval(p[i]);
				if (take == 2)
					v = v * 16 + hexval(p[i + 1]);
				out[n++] = (uint8_t)v;
				i += take;
			}
			p += d;
		} else if ((*p >= '0' && *p <= '9') || *p == '-') {
			/* fio: a decimal in int range, little-endian, fewest bytes; a
			 * "0x" in the digits starts the next (hex) item */
			char num[16], *e;
			size_t k = *p == '-', d;
			for (d = k; p[d] >= '0' && p[d] <= '9'; d++)
				if (d > k && p[d] == '0' && (p[d + 1] | 0x20) == 'x')
					break;
			if (d == k || d >= sizeof(num))
				return -EINVAL;
			memcpy(num, p, d);
			num[d] = '\0';
			errno = 0;
			long long v = strtoll(num, &e, 10);
			if (*e || errno || v > 2147483647LL || v < -2147483648LL)
				return -EINVAL;
			e = (char *)p + d;
			uint32_t u = (uint32_t)v;
			if (!u) {
				if (n == max)
					return -EINVAL;
				out[n++] = 0;
			}
			for (; u; u >>= 8) {
				if (n == max)
					return -EINVAL;
				out[n++] = (uint8_t)u;
			}
			p = e;
		} else {
			return -EINVAL; /* 'file' patterns and formats are not supported */
		}
	}
	return (int)n;
}

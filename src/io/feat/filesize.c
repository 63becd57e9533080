/* filesize.c - fio's filesize= on given files and devices (see filesize.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "io/feat/filesize.h"

/* fio's filesize=SIZE or LOW-HIGH (LOW:HIGH). */
static int filesize_set(struct spec *s, const char *key, const char *v, char *err, size_t errlen)
{
	char lo[64];
	const char *dash;
	uint64_t a, b;

	(void)key;
	if (!v || !*v || strlen(v) >= sizeof(lo))
		goto bad;
	/* fio's range syntax: LOW-HIGH (or LOW:HIGH) */
	dash = strpbrk(v, "-:");
	snprintf(lo, sizeof(lo), "%.*s", (int)(dash ? (size_t)(dash - v) : strlen(v)), v);
	if (spec_parse_size(lo, &a) || !a)
		goto bad;
	b = a;
	if (dash && (spec_parse_size(dash + 1, &b) || b < a))
		goto bad;
	s->filesize[0] = a;
	s->filesize[1] = b;
	return 0;
bad:
	snprintf(err, errlen, "filesize: '%s' is not a size > 0 or a range LOW-HIGH (4k-1m)",
		 v ? v : "");
	return -EINVAL;
}

const struct opt_row filesize_opts[FILESIZE_NOPTS] = {
    {.name = "allow_file_create",
     .kind = OPT_BOOL,
     OPT_FIELD(no_file_create),
     .flags = OPT_INVERT,
     .what = "a boolean (0/1)"},
    {.name = "filesize", .kind = OPT_CUSTOM, .set = filesize_set},
};

int filesize_validate(const struct spec *s, char *err, size_t errlen)
{
	if (!s->filesize[0])
		return 0;
	if (s->stripe) {
		snprintf(err, errlen, "filesize with stripe: a RAID 0 set is not fio's file set");
		return -EINVAL;
	}
	if (s->fileset && s->size && !s->size_pct) {
		snprintf(err, errlen,
			 "filesize with size= over filename=a:b: fio's job total over per-file "
			 "sizes is not implemented (give one of them)");
		return -EINVAL;
	}
	return 0;
}

/* splitmix64: the per-file draw of a range (fio: its file_size_state) */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

int filesize_apply(const struct spec *s, struct target *t, unsigned idx, char *err, size_t errlen)
{
	uint64_t lo = s->filesize[0], hi = s->filesize[1], want = lo;
	uint32_t minbs = UINT32_MAX;

	if (!lo || (t->size >= lo && t->size <= hi))
		return 0; /* fio: a file within the range is used whole */
	for (unsigned i = 0; i < s->nbs; i++)
		if (s->bs[i].bs < minbs)
			minbs = s->bs[i].bs;
	if (hi > lo) { /* fio's get_rand_file_size */
		double r = (double)(mix(s->seed ^ (0x66696c6573ULL + idx)) >> 11) * 0x1.0p-53;
		want = lo + (uint64_t)((double)(hi - lo) * r);
		if (want > hi)
			want = hi;
		want -= want % minbs;
	}
	if (want <= t->size) {
		t->size = want;
		return 0;
	}
	if (t->kind == TARGET_FILE) {
		char a[32], b[32];
		snprintf(err, errlen,
			 "filesize: %s is %s, shorter than filesize %s: fio would extend the file, "
			 "nvscope does not create or grow files (give a file that large)",
			 t->path, spec_fmt_size(t->size, a, sizeof(a)),
			 spec_fmt_size(want, b, sizeof(b)));
		return -EINVAL;
	}
	return 0; /* a device: used whole, as fio goes no further */
}

int filesize_may_create(const struct spec *s, const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (!s->no_file_create || !stat(path, &st) || errno != ENOENT)
		return 0;
	snprintf(err, errlen, "%s: no such file, and allow_file_create=0 (as fio: none is created)",
		 path);
	return -ENOENT;
}

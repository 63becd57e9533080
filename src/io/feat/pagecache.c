/* pagecache.c - fio's invalidate= and fadvise_hint= (see pagecache.h). */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include "io/feat/pagecache.h"

static const char *const hint_names[] = {"1", "0", "random", "sequential", NULL};

/* fio's invalidate (stored inverted: 0 = fio's default, invalidate) and
 * fadvise_hint (enum pagecache_hint's order). */
const struct opt_row pagecache_opts[PAGECACHE_NOPTS] = {
    {.name = "invalidate",
     .kind = OPT_BOOL,
     OPT_FIELD(no_invalidate),
     .flags = OPT_INVERT,
     .what = "a boolean (0/1)"},
    {.name = "fadvise_hint",
     .kind = OPT_ENUM,
     OPT_FIELD(fadvise_hint),
     .values = hint_names,
     .what = "0, 1, random or sequential"},
};

static bool random_rw(enum spec_rw rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW || rw == RW_RANDTRIM ||
	       rw == RW_RANDTRIMWRITE;
}

int pagecache_advice(const struct spec *s)
{
	switch ((enum pagecache_hint)s->fadvise_hint) {
	case PAGECACHE_HINT_NONE:
		return -1;
	case PAGECACHE_HINT_RANDOM:
		return POSIX_FADV_RANDOM;
	case PAGECACHE_HINT_SEQUENTIAL:
		return POSIX_FADV_SEQUENTIAL;
	case PAGECACHE_HINT_PATTERN:
	default:
		return random_rw(s->rw) ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL;
	}
}

int pagecache_invalidate(const struct target *t)
{
	if (t->fd < 0 || (t->kind != TARGET_BLOCK && t->kind != TARGET_FILE))
		return 0; /* fio: "invalidate not supported" on character devices */
	if (t->kind == TARGET_BLOCK) {
		/* the kernel writes back what is dirty, then drops the clean
		 * pages: fio's blockdev_invalidate_cache */
		return ioctl(t->fd, BLKFLSBUF, 0) ? -errno : 0;
	}
	return -posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
}

bool pagecache_per_pass(const struct spec *s, const struct target *t)
{
	return !s->direct && !s->no_invalidate &&
	       (t->kind == TARGET_BLOCK || t->kind == TARGET_FILE);
}

int pagecache_prepare(const struct spec *s, const struct target *t)
{
	int rc = 0, adv;

	if (t->fd < 0 || (t->kind != TARGET_BLOCK && t->kind != TARGET_FILE))
		return 0;
	if (!s->no_invalidate)
		rc = pagecache_invalidate(t);
	adv = pagecache_advice(s);
	if (adv >= 0) {
		int e = posix_fadvise(t->fd, 0, 0, adv);
		if (e && !rc)
			rc = -e;
	}
	return rc;
}

/* diskstat.c - block device counters from sysfs (Documentation/block/stat.rst):
 * read I/Os, read merges, read sectors, read ticks, write I/Os, write merges,
 * write sectors, write ticks, in_flight, io_ticks, time_in_queue, ...  A
 * device node's st_rdev leads to /sys/dev/block/MAJ:MIN, which is the
 * partition's own directory for a partition. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "stats/diskstat.h"

int diskstat_parse(const char *line, struct diskstat *out)
{
	uint64_t v[11];
	int pos = 0;

	for (int i = 0; i < 11; i++) {
		int used = 0;
		if (sscanf(line + pos, " %" SCNu64 "%n", &v[i], &used) != 1)
			return -EINVAL;
		pos += used;
	}
	out->ios[0] = v[0];
	out->merges[0] = v[1];
	out->sectors[0] = v[2];
	out->ticks[0] = v[3];
	out->ios[1] = v[4];
	out->merges[1] = v[5];
	out->sectors[1] = v[6];
	out->ticks[1] = v[7];
	out->io_ticks = v[9];
	out->in_queue = v[10];
	return 0;
}

int diskstat_read(const char *path, struct diskstat *out)
{
	char sys[64], real[PATH_MAX], line[512];
	struct stat st;
	FILE *f;
	int rc;

	memset(out, 0, sizeof(*out));
	if (stat(path, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (!realpath(sys, real))
		return -errno;
	const char *base = strrchr(real, '/');
	base = base ? base + 1 : real;
	size_t blen = strlen(base);
	if (blen >= sizeof(out->name))
		return -ENAMETOOLONG;
	memcpy(out->name, base, blen + 1);
	if (strlen(real) + sizeof("/stat") > sizeof(real))
		return -ENAMETOOLONG;
	strcat(real, "/stat");
	f = fopen(real, "r");
	if (!f)
		return -errno;
	rc = fgets(line, sizeof(line), f) ? diskstat_parse(line, out) : -EIO;
	fclose(f);
	return rc;
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a >= b ? a - b : 0;
}

void diskstat_delta(const struct diskstat *before, const struct diskstat *after, double msec,
		    struct diskstat *d)
{
	memcpy(d->name, after->name, sizeof(d->name));
	for (int i = 0; i < 2; i++) {
		d->ios[i] = sub(after->ios[i], before->ios[i]);
		d->merges[i] = sub(after->merges[i], before->merges[i]);
		d->sectors[i] = sub(after->sectors[i], before->sectors[i]);
		d->ticks[i] = sub(after->ticks[i], before->ticks[i]);
	}
	d->io_ticks = sub(after->io_ticks, before->io_ticks);
	d->in_queue = sub(after->in_queue, before->in_queue);
	d->msec = msec > 0 ? msec : 0;
}

void diskstat_add(struct diskstat *dst, const struct diskstat *src)
{
	if (!dst->name[0])
		memcpy(dst->name, src->name, sizeof(dst->name));
	for (int i = 0; i < 2; i++) {
		dst->ios[i] += src->ios[i];
		dst->merges[i] += src->merges[i];
		dst->sectors[i] += src->sectors[i];
		dst->ticks[i] += src->ticks[i];
	}
	dst->io_ticks += src->io_ticks;
	dst->in_queue += src->in_queue;
	dst->msec += src->msec;
}

double diskstat_util(const struct diskstat *d)
{
	if (d->msec <= 0)
		return 0;
	double u = 100.0 * (double)d->io_ticks / d->msec;
	return u > 100.0 ? 100.0 : u;
}

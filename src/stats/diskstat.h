/* diskstat.h - a block device's kernel I/O counters (/sys/.../stat), read
 * before and after a job: fio's "disk_util". */
#ifndef NVS_DISKSTAT_H
#define NVS_DISKSTAT_H

#include <stdint.h>

struct diskstat {
	char name[64];	 /* kernel name: "nvme0n1", "loop3" */
	uint64_t ios[2]; /* completed reads, writes */
	uint64_t merges[2];
	uint64_t sectors[2];
	uint64_t ticks[2]; /* ms spent on reads, writes */
	uint64_t io_ticks; /* ms the device had I/O in flight */
	uint64_t in_queue; /* weighted ms (time_in_queue) */
	double msec;	   /* wall time the delta covers (diskstat_delta) */
};

/* Finds the block device behind @path (a block device node: its own
 * counters, also for a partition) and reads its counters into @out.
 * -ENOTBLK for anything but a block device (files,
 * NVMe generic char devices), -errno else. */
int diskstat_read(const char *path, struct diskstat *out);
/* @d = @after - @before (counters; msec = wall ms between the reads). */
void diskstat_delta(const struct diskstat *before, const struct diskstat *after, double msec,
		    struct diskstat *d);
/* Adds the counters of @src into @dst (same device, consecutive spans). */
void diskstat_add(struct diskstat *dst, const struct diskstat *src);
/* fio's util: % of the span the device was busy (io_ticks / msec). */
double diskstat_util(const struct diskstat *d);
/* Parses the 11+ numbers of a stat line into @out (name untouched).
 * 0 or -EINVAL. */
int diskstat_parse(const char *line, struct diskstat *out);

#endif

/* zbdev.c - fuzzes the zone report parsers (io/feat/zbdev.h): the input as an
 * NVMe Zone Management Receive report (512-byte and 4 KiB LBAs) and as the
 * block layer's BLKREPORTZONE report.  Every zone a parser accepts is
 * checked against the rules it promises. */
#include <stdlib.h>
#include "fuzz.h"
#include "io/feat/zbdev.h"

static void check(const struct zbdev_zone *z, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!z[i].len || z[i].cap > z[i].len || z[i].wp < z[i].start ||
		    z[i].wp > z[i].start + z[i].cap)
			abort();
		if (i && z[i].start != z[i - 1].start + z[i - 1].len)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zbdev_zone z[64];
	uint32_t n;

	if (size > 1 << 16)
		return -1;
	/* an aligned copy: the block layer's report is a struct */
	void *buf = malloc(size ? size : 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	if (!zbdev_parse_zns(buf, size, 9, 1 << 20, z, 64, &n))
		check(z, n);
	if (!zbdev_parse_zns(buf, size, 12, 1 << 24, z, 64, &n))
		check(z, n);
	if (!zbdev_parse_blk(buf, size, z, 64, &n))
		check(z, n);
	free(buf);
	return 0;
}

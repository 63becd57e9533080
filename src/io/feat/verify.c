/* verify.c - write fresh data, read it back, compare (see verify.h).
 * Synchronous pwrite/pread with O_DIRECT in chunks of bs: a function test,
 * not a measurement. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include "dev/safety.h"
#include "io/core/target.h"
#include "io/feat/verify.h"

#define SECTOR 512u

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t verify_pattern(void *buf, size_t len, uint64_t offset, uint64_t seed, bool check,
			uint64_t *first_bad)
{
	uint64_t bad = 0;
	uint64_t w[SECTOR / 8];

	for (size_t s = 0; s + SECTOR <= len; s += SECTOR) {
		uint64_t off = offset + s, x = seed ^ (off * 0xd6e8feb86659fd93ULL);
		uint64_t a = splitmix(&x), b = splitmix(&x);

		w[0] = off;
		w[1] = seed;
		for (unsigned i = 2; i < SECTOR / 8; i++) { /* xorshift128+ */
			uint64_t t = a, u = b;
			a = u;
			t ^= t << 23;
			b = t ^ u ^ (t >> 17) ^ (u >> 26);
			w[i] = b + u;
		}
		if (!check) {
			memcpy((char *)buf + s, w, SECTOR);
		} else if (memcmp((char *)buf + s, w, SECTOR)) {
			if (!bad && first_bad)
				*first_bad = off;
			bad++;
		}
	}
	return bad;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t pct_of(uint64_t size, double pct, uint32_t align)
{
	uint64_t v = (uint64_t)((double)size * pct / 100.0);
	return v / align * align;
}

/* One pass over [start, start+len): write (@rd false) or read and compare. */
static void pass(struct target *t, uint64_t start, uint64_t len, uint32_t bs, uint64_t seed,
		 bool rd, void *buf, const _Atomic int *cancel, void (*progress)(double, void *),
		 void *arg, struct verify_result *out)
{
	for (uint64_t done = 0; done < len;) {
		size_t n = len - done < bs ? (size_t)(len - done) : bs;
		uint64_t off = start + done;
		ssize_t r;

		if (cancel && atomic_load_explicit(cancel, memory_order_relaxed)) {
			out->cancelled = true;
			return;
		}
		if (!rd)
			verify_pattern(buf, n, off, seed, false, NULL);
		r = rd ? pread(t->fd, buf, n, (off_t)off) : pwrite(t->fd, buf, n, (off_t)off);
		if (r != (ssize_t)n) {
			out->io_errors++;
			out->first_errno = r < 0 ? errno : EIO;
			snprintf(out->msg, sizeof(out->msg), "%s at byte %llu: %s",
				 rd ? "read" : "write", (unsigned long long)off,
				 r < 0 ? strerror(errno) : "short transfer");
			return;
		}
		if (rd) {
			uint64_t fb = 0, bad = verify_pattern(buf, n, off, seed, true, &fb);
			if (bad && !out->mismatches)
				out->first_bad = fb;
			out->mismatches += bad;
			out->read += n;
		} else {
			out->written += n;
		}
		done += n;
		if (progress)
			progress((rd ? 50.0 : 0.0) + 50.0 * (double)done / (double)len, arg);
	}
}

int verify_run(const char *path, const struct verify_region *rg, bool force,
	       const _Atomic int *cancel, void (*progress)(double pct, void *arg), void *arg,
	       struct verify_result *out, char *err, size_t errlen)
{
	struct target t = {.fd = -1};
	void *buf = NULL;
	uint64_t seed = 0, start, len;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!rg->bs || rg->bs % SECTOR) {
		snprintf(err, errlen, "verify: block size %u is not a multiple of 512", rg->bs);
		return -EINVAL;
	}
	/* claim, then judge through the held descriptor (the safety rule) */
	rc = target_open(&t, path, true, force, true, rg->size_pct ? 0 : rg->offset + rg->size, err,
			 errlen);
	if (rc)
		return rc;
	if (t.kind != TARGET_BLOCK && t.kind != TARGET_FILE) {
		snprintf(err, errlen, "%s: verify needs a block device or a file", path);
		rc = -EINVAL;
		goto close;
	}
	if (rg->bs % t.lbs) {
		snprintf(err, errlen,
			 "%s: verify block size %u is not a multiple of the %u-byte "
			 "logical block",
			 path, rg->bs, t.lbs);
		rc = -EINVAL;
		goto close;
	}
	start = rg->offset_pct > 0 ? pct_of(t.size, rg->offset_pct, t.lbs) : rg->offset;
	if (start % t.lbs || start >= t.size) {
		snprintf(err, errlen, "%s: verify offset %llu is unaligned or past the end", path,
			 (unsigned long long)start);
		rc = -EINVAL;
		goto close;
	}
	len = rg->size_pct > 0 ? pct_of(t.size, rg->size_pct, t.lbs) : rg->size ? rg->size : t.size;
	if (len > t.size - start)
		len = t.size - start;
	len = len / t.lbs * t.lbs;
	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed)) {
		snprintf(err, errlen, "getrandom: %s", strerror(errno));
		rc = -errno;
		goto close;
	}
	if (posix_memalign(&buf, 4096, rg->bs)) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
		goto close;
	}
	out->bytes = len;
	double t0 = now_s();
	pass(&t, start, len, rg->bs, seed, false, buf, cancel, progress, arg, out);
	if (!out->io_errors && fsync(t.fd)) {
		out->io_errors++;
		out->first_errno = errno;
		snprintf(out->msg, sizeof(out->msg), "fsync: %s", strerror(errno));
	}
	out->write_s = now_s() - t0;
	if (!out->io_errors && !out->cancelled) {
		t0 = now_s();
		pass(&t, start, len, rg->bs, seed, true, buf, cancel, progress, arg, out);
		out->read_s = now_s() - t0;
	}
	free(buf);
close:
	target_close(&t);
	return rc;
}

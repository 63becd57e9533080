/* test_zbd.c - fio's zonemode=zbd with emulated zones (io/feat/zbd.h): the
 * options, writes at the write pointer, resets of full zones, the open
 * zone limits, zone_reset_threshold/frequency, reads below the write
 * pointer, trims as zone resets, the zone rounding of a region, and
 * concurrent claims that never overlap. */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io/core/target.h"
#include "io/feat/zbd.h"

#define MB (1024ull * 1024)

static int tmpfd(uint64_t size)
{
	char path[] = "/tmp/nvs-zbd-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	unlink(path);
	ck_assert_int_eq(ftruncate(fd, (off_t)size), 0);
	return fd;
}

static struct spec zspec(const char *rw, const char *bs, const char *extra[][2])
{
	struct spec s;
	char err[200];
	spec_init(&s);
	ck_assert_int_eq(opt_set(&s, "rw", rw, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "bs", bs, err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "zonemode", "zbd", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "zonesize", "1m", err, sizeof(err)), 0);
	for (int i = 0; extra && extra[i][0]; i++)
		ck_assert_msg(opt_set(&s, extra[i][0], extra[i][1], err, sizeof(err)) == 0, "%s",
			      err);
	ck_assert_msg(zbd_spec_validate(&s, err, sizeof(err)) == 0, "%s", err);
	return s;
}

/* zbd_join on a file target (not zoned: emulated zones) */
static int tjoin(int fd, uint64_t size, const struct spec *s, struct zbd **z, char *err,
		 size_t n)
{
	struct target t = {.fd = fd, .size = size, .kind = TARGET_FILE, .lbs = 512};
	return zbd_join(&t, true, s, z, err, n);
}

/* 16 zones of 1 MiB; the worker's side over the whole of them */
static struct zbd *zjoin(const struct spec *s, int fd, struct zbd_ws *ws)
{
	struct zbd *z;
	char err[200];
	ck_assert_msg(tjoin(fd, 16 * MB, s, &z, err, sizeof(err)) == 0, "%s", err);
	zbd_ws_init(ws, z, s, 0, 16 * MB);
	return z;
}

static int io(struct zbd *z, struct zbd_ws *ws, enum nvs_dir d, uint64_t *off, uint32_t *len,
	      uint64_t at, uint32_t l)
{
	*off = at;
	*len = l;
	return zbd_adjust(z, ws, off, len, &d);
}

START_TEST(test_options)
{
	struct spec s;
	char err[200];
	uint64_t n;
	spec_init(&s);
	ck_assert(zbd_spec_nz("524z", &n) && n == 524);
	ck_assert(!zbd_spec_nz("z", &n) && !zbd_spec_nz("1.5z", &n) && !zbd_spec_nz("-1z", &n) &&
		  !zbd_spec_nz("99999999999999999999z", &n) && !zbd_spec_nz("4k", &n));
	const char *bad[][2] = {{"max_open_zones", "-1"},	 {"max_open_zones", "nan"},
				{"max_open_zones", "5000"},	 {"zone_reset_threshold", "nan"},
				{"zone_reset_threshold", "1.5"}, {"zone_reset_frequency", "-0.1"},
				{"read_beyond_wp", "maybe"},	 {"zonecapacity", "inf"}};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(opt_set(&s, bad[i][0], bad[i][1], err, sizeof(err)) == -EINVAL,
			      "%s=%s", bad[i][0], bad[i][1]);
	/* sizes in zones resolve with the zone size */
	ck_assert_int_eq(opt_set(&s, "size", "8z", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "offset", "3z", err, sizeof(err)), 0);
	ck_assert_int_eq(zbd_spec_validate(&s, err, sizeof(err)), -EINVAL); /* no zonesize */
	ck_assert_int_eq(opt_set(&s, "zonemode", "zbd", err, sizeof(err)), 0);
	/* a zoned device gives it (zbd_probe); zbd_join refuses its absence
	 * on a device or file that is not zoned (test_emulated_needs_size) */
	ck_assert_msg(zbd_spec_validate(&s, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(opt_set(&s, "zonesize", "256m", err, sizeof(err)), 0);
	ck_assert_msg(zbd_spec_validate(&s, err, sizeof(err)) == 0, "%s", err);
	zbd_spec_resolve(&s);
	ck_assert_uint_eq(s.size, 8 * 256 * MB);
	ck_assert_uint_eq(s.offset, 3 * 256 * MB);
	/* fio's checks */
	ck_assert_int_eq(opt_set(&s, "job_max_open_zones", "2", err, sizeof(err)), 0);
	ck_assert_int_eq(zbd_spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "max_open_zones", "4", err, sizeof(err)), 0);
	ck_assert_msg(zbd_spec_validate(&s, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(opt_set(&s, "zonecapacity", "512m", err, sizeof(err)), 0);
	ck_assert_int_eq(zbd_spec_validate(&s, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(opt_set(&s, "zonecapacity", "0", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "zonesize", "1m", err, sizeof(err)), 0);
	ck_assert_int_eq(opt_set(&s, "rw", "randtrim", err, sizeof(err)), 0);
	ck_assert_int_eq(zbd_spec_validate(&s, err, sizeof(err)), -EINVAL); /* trim bs != zone */
	ck_assert_int_eq(opt_set(&s, "bs", "1m", err, sizeof(err)), 0);
	ck_assert_msg(zbd_spec_validate(&s, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(opt_set(&s, "bs", "2m", err, sizeof(err)), 0);
	ck_assert_int_eq(zbd_spec_validate(&s, err, sizeof(err)), -EINVAL); /* bs > zone */
}
END_TEST

START_TEST(test_write_at_wp)
{
	struct spec s = zspec("randwrite", "256k", NULL);
	struct zbd_ws ws;
	int fd = tmpfd(16 * MB);
	struct zbd *z = zjoin(&s, fd, &ws);
	uint64_t off;
	uint32_t len;

	ck_assert_uint_eq(zbd_nzones(z), 16);
	/* any offset in zone 3 writes at its write pointer */
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(io(z, &ws, NVS_WRITE, &off, &len, 3 * MB + 700 * 1024, 256 * 1024),
				 0);
		ck_assert_uint_eq(off, 3 * MB + (uint64_t)i * 256 * 1024);
		ck_assert_uint_eq(len, 256 * 1024);
	}
	ck_assert_uint_eq(zbd_wp(z, 3), 4 * MB);
	ck_assert_uint_eq(zbd_resets(z), 0);
	/* full: reset, written from its start again */
	ck_assert_int_eq(io(z, &ws, NVS_WRITE, &off, &len, 3 * MB + 5, 256 * 1024), 0);
	ck_assert_uint_eq(off, 3 * MB);
	ck_assert_uint_eq(zbd_resets(z), 1);
	ck_assert_uint_eq(zbd_wp(z, 3), 3 * MB + 256 * 1024);
	/* another job on the same device shares the zones */
	struct zbd *z2;
	char err[200];
	ck_assert_int_eq(tjoin(fd, 16 * MB, &s, &z2, err, sizeof(err)), 0);
	ck_assert_ptr_eq(z, z2);
	ck_assert_uint_eq(zbd_wp(z2, 3), 3 * MB + 256 * 1024);
	zbd_leave(z2, true);
	struct spec o = s;
	o.zone_size = 2 * MB; /* fio: one zone size per device */
	ck_assert_int_eq(tjoin(fd, 16 * MB, &o, &z2, err, sizeof(err)), -EINVAL);
	zbd_leave(z, true);
	close(fd);
}
END_TEST

START_TEST(test_capacity)
{
	const char *ex[][2] = {{"zonecapacity", "640k"}, {NULL, NULL}};
	struct spec s = zspec("randwrite", "256k", ex);
	struct zbd_ws ws;
	int fd = tmpfd(16 * MB);
	struct zbd *z = zjoin(&s, fd, &ws);
	uint64_t off;
	uint32_t len;

	ck_assert_int_eq(io(z, &ws, NVS_WRITE, &off, &len, 0, 256 * 1024), 0);
	ck_assert_int_eq(io(z, &ws, NVS_WRITE, &off, &len, 0, 256 * 1024), 0);
	/* 128k left below the capacity: less than the smallest write, reset */
	ck_assert_int_eq(io(z, &ws, NVS_WRITE, &off, &len, 0, 256 * 1024), 0);
	ck_assert_uint_eq(off, 0);
	ck_assert_uint_eq(zbd_resets(z), 1);
	uint64_t pos = 640 * 1024; /* a sequential stream at the capacity: the zone's end */
	ws.random = false;
	zbd_seq_pos(z, &ws, &pos);
	ck_assert_uint_eq(pos, MB);
	zbd_leave(z, true);
	close(fd);
}
END_TEST

START_TEST(test_max_open)
{
	const char *ex[][2] = {{"max_open_zones", "2"}, {NULL, NULL}};
	struct spec s = zspec("randwrite", "512k", ex);
	struct zbd_ws ws;
	int fd = tmpfd(16 * MB);
	struct zbd *z = zjoin(&s, fd, &ws);
	uint64_t off;
	uint32_t len;
	bool used[16] = {0};

	/* writes aimed at every zone land in at most 2 open zones at a time */
	for (int i = 0; i < 64; i++) {
		ck_assert_int_eq(
		    io(z, &ws, NVS_WRITE, &off, &len, (uint64_t)(i * 7 % 16) * MB, 512 * 1024), 0);
		ck_assert_uint_eq(off % (512 * 1024), 0);
		used[off / MB] = true;
		unsigned open = 0;
		for (uint32_t k = 0; k < 16; k++)
			open += zbd_wp(z, k) % MB != 0;
		ck_assert_uint_le(open, 2);
	}
	unsigned n = 0;
	for (int k = 0; k < 16; k++)
		n += used[k];
	ck_assert_uint_gt(n, 2); /* full zones close, others open */
	zbd_leave(z, true);
	close(fd);

	/* job_max_open_zones=1 below max_open_zones=4 */
	const char *ex2[][2] = {{"max_open_zones", "4"}, {"job_max_open_zones", "1"}, {NULL, NULL}};
	s = zspec("randwrite", "256k", ex2);
	fd = tmpfd(16 * MB);
	z = zjoin(&s, fd, &ws);
	ck_assert_int_eq(io(z, &ws, NVS_WRITE, &off, &len, 5 * MB, 256 * 1024), 0);
	ck_assert_uint_eq(off, 5 * MB);
	ck_assert_int_eq(io(z, &ws, NVS_WRITE, &off, &len, 9 * MB, 256 * 1024), 0);
	ck_assert_uint_eq(off, 5 * MB + 256 * 1024); /* into its one open zone */
	zbd_leave(z, true);
	close(fd);
}
END_TEST

START_TEST(test_reset_frequency)
{
	/* resets once half of the job's 16 MiB hold data, every 4th write */
	const char *ex[][2] = {
	    {"zone_reset_threshold", "0.5"}, {"zone_reset_frequency", "0.25"}, {NULL, NULL}};
	struct spec s = zspec("randwrite", "512k", ex);
	struct zbd_ws ws;
	int fd = tmpfd(16 * MB);
	struct zbd *z = zjoin(&s, fd, &ws);
	uint64_t off;
	uint32_t len;

	for (int i = 0; i < 16; i++) /* 8 MiB: zones 0..7 full */
		ck_assert_int_eq(
		    io(z, &ws, NVS_WRITE, &off, &len, (uint64_t)(i / 2) * MB, 512 * 1024), 0);
	ck_assert_uint_eq(zbd_resets(z), 0);
	const uint64_t to[4] = {8, 9, 10, 8};
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(io(z, &ws, NVS_WRITE, &off, &len, to[i] * MB, 512 * 1024), 0);
	ck_assert_uint_eq(zbd_resets(z), 1); /* the 4th: zone 8, half full, reset */
	ck_assert_uint_eq(off, 8 * MB);
	ck_assert_uint_eq(zbd_wp(z, 8), 8 * MB + 512 * 1024);
	zbd_leave(z, true);
	close(fd);
}
END_TEST

START_TEST(test_reads)
{
	struct spec s = zspec("randread", "128k", NULL);
	struct zbd_ws ws;
	int fd = tmpfd(16 * MB);
	struct zbd *z = zjoin(&s, fd, &ws);
	struct zbd_ws wr;
	uint64_t off;
	uint32_t len;

	/* nothing written: fio's read job ends at once */
	ck_assert_int_eq(io(z, &ws, NVS_READ, &off, &len, 4 * MB, 128 * 1024), -ENOSPC);
	struct spec w = zspec("randwrite", "128k", NULL);
	zbd_ws_init(&wr, z, &w, 0, 16 * MB);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(io(z, &wr, NVS_WRITE, &off, &len, 6 * MB, 128 * 1024), 0);
	/* a random read anywhere goes to the nearest zone with data, below its wp */
	for (uint64_t at = 0; at < 16 * MB; at += 333 * 1024) {
		ck_assert_int_eq(io(z, &ws, NVS_READ, &off, &len, at, 128 * 1024), 0);
		ck_assert_uint_ge(off, 6 * MB);
		ck_assert_uint_le(off + len, 6 * MB + 384 * 1024);
		ck_assert_uint_eq(len, 128 * 1024);
	}
	/* sequential: only later zones; past the data the job ends */
	struct spec q = zspec("read", "128k", NULL);
	struct zbd_ws sq;
	zbd_ws_init(&sq, z, &q, 0, 16 * MB);
	ck_assert_int_eq(io(z, &sq, NVS_READ, &off, &len, 2 * MB, 128 * 1024), 0);
	ck_assert_uint_eq(off, 6 * MB);
	ck_assert_int_eq(io(z, &sq, NVS_READ, &off, &len, 6 * MB + 256 * 1024, 128 * 1024), 0);
	ck_assert_uint_eq(off, 6 * MB + 256 * 1024);
	ck_assert_int_eq(io(z, &sq, NVS_READ, &off, &len, 6 * MB + 384 * 1024, 128 * 1024),
			 -ENOSPC);
	/* read_beyond_wp: untouched */
	sq.read_beyond_wp = true;
	ck_assert_int_eq(io(z, &sq, NVS_READ, &off, &len, 9 * MB, 128 * 1024), 0);
	ck_assert_uint_eq(off, 9 * MB);
	zbd_leave(z, true);
	close(fd);
}
END_TEST

START_TEST(test_mixed_first_write)
{
	struct spec s = zspec("randrw", "64k", NULL);
	struct zbd_ws ws;
	int fd = tmpfd(16 * MB);
	struct zbd *z = zjoin(&s, fd, &ws);
	uint64_t off = 5 * MB + 4096;
	uint32_t len = 64 * 1024;
	enum nvs_dir d = NVS_READ;

	ck_assert_int_eq(zbd_adjust(z, &ws, &off, &len, &d), 0);
	ck_assert_int_eq(d, NVS_WRITE); /* fio's zbd_adjust_ddir */
	ck_assert_uint_eq(off, 5 * MB);
	d = NVS_READ;
	ck_assert_int_eq(zbd_adjust(z, &ws, &off, &len, &d), 0);
	ck_assert_int_eq(d, NVS_READ);
	/* so a read-only mix writes: the safety rule must see a writer */
	char err[200];
	ck_assert_int_eq(opt_set(&s, "rwmixread", "100", err, sizeof(err)), 0);
	ck_assert(spec_writes(&s));
	s.zone_mode = SPEC_ZONE_NONE;
	ck_assert(!spec_writes(&s));
	zbd_leave(z, true);
	close(fd);
}
END_TEST

START_TEST(test_trim)
{
	struct spec s = zspec("randtrim", "1m", NULL);
	struct spec w = zspec("randwrite", "256k", NULL);
	struct zbd_ws ws, wr;
	int fd = tmpfd(16 * MB);
	struct zbd *z = zjoin(&s, fd, &ws);
	uint64_t off;
	uint32_t len;

	zbd_ws_init(&wr, z, &w, 0, 16 * MB);
	ck_assert_int_eq(io(z, &ws, NVS_TRIM, &off, &len, 3 * MB, MB), -ENOSPC);
	ck_assert_int_eq(io(z, &wr, NVS_WRITE, &off, &len, 12 * MB, 256 * 1024), 0);
	ck_assert_int_eq(io(z, &ws, NVS_TRIM, &off, &len, 3 * MB, MB), 0);
	ck_assert_uint_eq(off, 12 * MB); /* the nearest zone with data */
	ck_assert_uint_eq(zbd_wp(z, 12), 12 * MB);
	ck_assert_uint_eq(zbd_resets(z), 1);
	ck_assert_int_eq(io(z, &ws, NVS_TRIM, &off, &len, 3 * MB, MB), -ENOSPC);
	zbd_leave(z, true);
	close(fd);
}
END_TEST

START_TEST(test_region)
{
	struct spec s = zspec("randwrite", "64k", NULL);
	char err[200];
	uint64_t start = MB / 2, len = 3 * MB; /* [0.5, 3.5) MiB: zones 1 and 2 */
	ck_assert_int_eq(zbd_region(&s, &start, &len, err, sizeof(err)), 0);
	ck_assert_uint_eq(start, MB);
	ck_assert_uint_eq(len, 2 * MB);
	start = MB / 2, len = MB;
	ck_assert_int_eq(zbd_region(&s, &start, &len, err, sizeof(err)), -EINVAL);
	struct spec r = zspec("read", "64k", NULL); /* fio leaves reads as given */
	start = MB / 2, len = MB;
	ck_assert_int_eq(zbd_region(&r, &start, &len, err, sizeof(err)), 0);
	ck_assert_uint_eq(start, MB / 2);
}
END_TEST

/* concurrent writers: every claim at a write pointer, none overlapping */
struct thr {
	struct zbd *z;
	const struct spec *s;
	uint64_t offs[2000];
	uint32_t lens[2000];
};

static void *writer(void *arg)
{
	struct thr *t = arg;
	struct zbd_ws ws;
	zbd_ws_init(&ws, t->z, t->s, 0, 16 * MB);
	for (int i = 0; i < 2000; i++) {
		enum nvs_dir d = NVS_WRITE;
		t->offs[i] = (uint64_t)(i % 16) * MB;
		t->lens[i] = 64 * 1024;
		if (zbd_adjust(t->z, &ws, &t->offs[i], &t->lens[i], &d))
			t->lens[i] = 0;
	}
	return NULL;
}

START_TEST(test_concurrent)
{
	const char *ex[][2] = {{"max_open_zones", "3"}, {NULL, NULL}};
	struct spec s = zspec("randwrite", "64k", ex);
	struct zbd_ws ws;
	int fd = tmpfd(16 * MB);
	struct zbd *z = zjoin(&s, fd, &ws);
	static struct thr t[4];
	pthread_t th[4];

	for (int i = 0; i < 4; i++) {
		t[i].z = z;
		t[i].s = &s;
		ck_assert_int_eq(pthread_create(&th[i], NULL, writer, &t[i]), 0);
	}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	/* 8000 x 64k = 500 MiB through 16 MiB of zones: every block of a pass
	 * once; with no reset between, the blocks of a zone are its wp steps */
	uint64_t total = 0;
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 2000; k++) {
			ck_assert_uint_eq(t[i].lens[k], 64 * 1024);
			ck_assert_uint_eq(t[i].offs[k] % (64 * 1024), 0);
			total += t[i].lens[k];
		}
	ck_assert_uint_eq(total, 8000ull * 64 * 1024);
	unsigned open = 0;
	for (uint32_t k = 0; k < 16; k++)
		open += zbd_wp(z, k) % MB != 0;
	ck_assert_uint_le(open, 3);
	/* resets + full zones account for every byte */
	uint64_t held = 0;
	for (uint32_t k = 0; k < 16; k++)
		held += zbd_wp(z, k) - k * MB;
	ck_assert_uint_eq((total - held) % MB, 0);
	ck_assert_uint_eq(zbd_resets(z), (total - held) / MB);
	zbd_leave(z, true);
	close(fd);
}
END_TEST

/* a device or file that is not zoned has no zone size of its own */
START_TEST(test_emulated_needs_size)
{
	struct spec s = zspec("write", "4k", NULL);
	struct zbd *z = NULL;
	char err[200];
	int fd = tmpfd(16 * MB);
	s.zone_size = 0;
	ck_assert_int_eq(tjoin(fd, 16 * MB, &s, &z, err, sizeof(err)), -EINVAL);
	ck_assert_ptr_null(z);
	ck_assert_ptr_nonnull(strstr(err, "zonesize"));
	close(fd);
}
END_TEST

/* verify= with zones (fio's zbd_verify_bs, zbd_file_reset, zbd_open_zone):
 * the job's zones reset before it writes, no zone written twice (a full
 * zone is never reset: the writes go to the zones with room, then the
 * job ends), every bs a divisor of the zone size */
static void verify_fill(const char *extra[][2], unsigned max_open)
{
	struct spec s = zspec("randwrite", "256k", extra);
	struct zbd_ws ws;
	int fd = tmpfd(16 * MB);
	struct zbd *z = zjoin(&s, fd, &ws);
	uint64_t off;
	uint32_t len;
	bool seen[64] = {0};

	ck_assert(ws.verify);
	ws.verify = false; /* an earlier job's data: zone 3 partly, zone 5 full */
	ck_assert_int_eq(io(z, &ws, NVS_WRITE, &off, &len, 3 * MB, 256 * 1024), 0);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(io(z, &ws, NVS_WRITE, &off, &len, 5 * MB, 256 * 1024), 0);
	ck_assert_uint_eq(zbd_wp(z, 5), 6 * MB);
	ws.verify = true;
	uint64_t r0 = zbd_resets(z);
	ck_assert_int_eq(zbd_verify_reset(z, &ws), 0);
	ck_assert_uint_eq(zbd_resets(z), r0 + 2);
	for (uint32_t k = 0; k < 16; k++)
		ck_assert_uint_eq(zbd_wp(z, k), k * MB);
	/* 64 writes aimed at a few zones fill all 16 once, then the end */
	for (int i = 0; i < 64; i++) {
		ck_assert_int_eq(
		    io(z, &ws, NVS_WRITE, &off, &len, (uint64_t)(i * 5 % 3) * MB, 256 * 1024), 0);
		ck_assert_uint_eq(len, 256 * 1024);
		ck_assert_msg(!seen[off / (256 * 1024)], "offset %llu written twice",
			      (unsigned long long)off);
		seen[off / (256 * 1024)] = true;
		unsigned open = 0;
		for (uint32_t k = 0; k < 16; k++)
			open += zbd_wp(z, k) % MB != 0;
		if (max_open)
			ck_assert_uint_le(open, max_open);
	}
	ck_assert_uint_eq(zbd_resets(z), r0 + 2); /* none while writing */
	ck_assert_int_eq(io(z, &ws, NVS_WRITE, &off, &len, 7 * MB, 256 * 1024), -ENOSPC);
	zbd_leave(z, true);
	close(fd);
}

START_TEST(test_verify)
{
	const char *v[][2] = {{"verify", "crc32c"}, {NULL, NULL}};
	const char *vm[][2] = {{"verify", "crc32c"}, {"max_open_zones", "2"}, {NULL, NULL}};
	verify_fill(v, 0);
	verify_fill(vm, 2);
	/* what is not implemented, or fio refuses */
	struct spec s = zspec("write", "256k", v);
	char err[200];
	ck_assert_ptr_null(zbd_spec_verify_why(&s));
	const char *bad[][2] = {{"bs", "384k"},
				{"verify_backlog", "4"},
				{"loops", "2"},
				{"zone_reset_frequency", "0.5"},
				{"zonecapacity", "768k"}};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct spec b = s;
		ck_assert_int_eq(opt_set(&b, "time_based", "1", err, sizeof(err)), 0);
		ck_assert_msg(zbd_spec_validate(&b, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(opt_set(&b, bad[i][0], bad[i][1], err, sizeof(err)), 0);
		ck_assert_msg(zbd_spec_validate(&b, err, sizeof(err)) == -EINVAL, "%s=%s accepted",
			      bad[i][0], bad[i][1]);
	}
}
END_TEST

Suite *zbd_suite(void)
{
	Suite *su = suite_create("zbd");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_write_at_wp);
	tcase_add_test(tc, test_capacity);
	tcase_add_test(tc, test_max_open);
	tcase_add_test(tc, test_reset_frequency);
	tcase_add_test(tc, test_reads);
	tcase_add_test(tc, test_mixed_first_write);
	tcase_add_test(tc, test_trim);
	tcase_add_test(tc, test_region);
	tcase_add_test(tc, test_concurrent);
	tcase_add_test(tc, test_emulated_needs_size);
	tcase_add_test(tc, test_verify);
	suite_add_tcase(su, tc);
	return su;
}

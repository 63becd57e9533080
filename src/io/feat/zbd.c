/* zbd.c - fio's zonemode=zbd with emulated zones (zbd.h).
 *
 * What fio 3.33 does (zbd.c, model ZBD_NONE: a regular file, or a block
 * device whose queue/zoned is "none").  The device is cut into zones of
 * zonesize bytes, each with a write pointer that starts at the zone's
 * start: fio keeps the zones in memory and asks the device nothing, so a
 * fresh run sees every zone empty whatever the device holds.  A write goes
 * to the write pointer of the zone its generated offset falls in (random
 * jobs: a random zone; sequential ones: the stream's zone), cut to the
 * zone's capacity in multiples of the smallest write size; a zone too full
 * for one more smallest write is reset first (its write pointer back to
 * its start: for emulated zones nothing reaches the device).  With
 * max_open_zones, a write to a zone that is not open either opens it (a
 * free place in the open set, also within job_max_open_zones) or goes to
 * one of the open zones, the one at the offset's proportional place in the
 * set; when that one is full, the next zones after it are tried, then any
 * open zone with room.  A zone is closed when a write fills it.  With
 * zone_reset_frequency, once the bytes written below the write pointers of
 * the device reach zone_reset_threshold x the job's size, every 1/frequency
 * th write resets its zone first.  Reads (read_beyond_wp=0) stay below the
 * write pointer: a random read moves into the written part of its zone
 * (or of the nearest zone holding data), a sequential one to the next
 * zone holding data; with none the job ends (a fresh read job reads
 * nothing, as fio).  rw=randrw turns reads into writes while the device
 * holds no data.  A trim (fio: bs must be zonesize) resets a zone with
 * data (random: the nearest) instead of discarding: fio issues nothing to
 * the device for an emulated zone, and neither does nvscope (the worker
 * completes it as an io_uring no-op, counted as fio counts it).
 *
 * How the zones are shared.  fio locks a zone (a recursive mutex) from the
 * choice of an offset until the I/O completes, and the open set and the
 * counters with a device mutex; numjobs=16 threads on one device therefore
 * serialize on a zone, while one job's queue holds several I/Os to the
 * same zone.  Here the hot path takes no lock: a zone is a 64-bit write
 * pointer that a write claims by compare-and-swap (old wp -> old wp + len,
 * or zone start + len when it resets the zone), so every write gets its
 * own contiguous piece at the pointer, in the order of the claims, and two
 * workers never get the same bytes; the open set is an array of
 * max_open_zones slots taken and freed by compare-and-swap (a zone records
 * its slot), and a zone is written anew (reset) only while it is in the
 * set: a full zone still in the set is waited for until the worker that
 * filled it has closed it, so no written zone is ever left outside the set
 * (the unit test test_concurrent caught 4 zones open under max_open_zones=3
 * about once in 50 runs before).  The differences are of timing only: a zone is closed when
 * the write that fills it is claimed (fio: when it completes), and a reset
 * does not wait for the writes in flight to that zone (fio quiesces; for
 * emulated zones both orders write the same blocks).  The claims keep
 * fio's invariant, each write at its zone's write pointer.  The state is
 * one per device in a process-wide table (set up under a mutex, outside
 * the I/O path), shared by the jobs of a run as fio shares its zbd_info:
 * `nvscope run` holds the table over all of a job file's run groups
 * (zbd_hold), so a read job after a stonewall sees what the write job
 * before it wrote; elsewhere (plans, the console) a job's zones live as
 * long as its run group.
 *
 * Zoned devices (fio's models host-managed / host-aware: a zoned block
 * device, or a zoned namespace through io_uring_cmd; io/feat/zbdev.h).  The
 * zone size, each zone's capacity and write pointer come from the
 * device's report, the open set starts with the zones the device has
 * open, and max_open_zones defaults to (and may not exceed) the device's
 * limit.  The claims are the same; a reset is a device command: the
 * worker that finds the zone full (or due for a threshold reset) swaps
 * its write pointer to WP_BUSY (other claims wait), waits until the
 * device's write pointer has reached the claimed one (the writes in
 * flight to the zone are done; fio quiesces too), resets the zone on the
 * device and puts the write pointer back at the zone start.  A reset
 * goes only through the descriptor dev/safety.h judged for a writer
 * (zbdev_reset refuses any other).  Trims reset their zone on the device
 * the same way (the worker then completes a no-op).
 *
 * Verify (fio's zbd_file_reset, zbd_open_zone, zbd_verify_bs).  A job
 * that writes with verify= (ws->verify) has its zones reset before it
 * writes (zbd_verify_reset, at its set-up and before each time_based
 * pass: emulated zones in memory, a zoned device's zones on the device as
 * above), and then no zone is reset while it writes: a full zone is never
 * opened again (open_zone says OPEN_NOT), a claim that finds its zone
 * filled meanwhile goes back to the choice of a zone, so the writes go to
 * zones with room and end (-ENOSPC) when none is left.  Each block of the
 * job's zones is then written once, and the read-back (wverify.c) reads
 * the blocks the completed writes recorded, at the offsets these claims
 * gave them.  verify_only touches no zone (the worker reads the region).
 *
 * Not done: verify_backlog and loops with verify (refused), zoneskip with
 * zbd (refused), Zone Append,
 * zone finish (fio master finishes a random job's zone whose remainder
 * is below the smallest write; here it stays open until reset), and the
 * max_active_zones limit (read, not enforced, as fio). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sched.h>
#include <unistd.h>
#include "base/num.h"
#include "io/core/target.h"
#include "io/feat/zbd.h"
#include "io/feat/zbdev.h"

#define ZBD_MAX_DEVS 32
#define ZBD_MAX_OPEN 4096 /* fio's ZBD_MAX_OPEN_ZONES */

struct zbd_zone {
	_Atomic uint64_t wp;   /* WP_BUSY while a device zone is being reset */
	_Atomic uint32_t slot; /* its place in the open set + 1, 0: closed */
	uint64_t cap;	       /* zone capacity, bytes */
};

#define WP_BUSY UINT64_MAX

struct zbd {
	dev_t dev;
	ino_t ino;
	unsigned refs;
	uint64_t zsize, zcap, size;
	uint32_t nz, max_open;
	bool real;		    /* a zoned device: zones reported, reset on the device */
	unsigned writers;	    /* real: jobs joined to write it (at most one) */
	struct zbdev dv;	    /* the device (real) */
	_Atomic uint32_t *slots;    /* max_open: zone index + 1, 0: free */
	_Atomic uint64_t swd;	    /* fio's wp_sectors_with_data, bytes */
	_Atomic uint32_t write_cnt; /* fio's write_cnt: writes to the next reset */
	uint32_t cnt_init;
	_Atomic uint64_t resets;
	_Atomic int err; /* the first failed device reset */
	struct zbd_zone z[];
};

static pthread_mutex_t tab_lock = PTHREAD_MUTEX_INITIALIZER;
static struct zbd *tab[ZBD_MAX_DEVS];
static unsigned holds; /* zbd_hold: keep unused zones until zbd_release */

static void reset_cnt(struct zbd *z)
{
	atomic_store_explicit(&z->write_cnt, z->cnt_init, memory_order_relaxed);
}

/* The zones of the zoned device @d into @z (fio's parse_zone_info): the
 * device's zone size, capacity and write pointers; zones already open
 * take places in the open set (fio's zbd_setup_files). */
static int real_zones(struct zbd *z, const struct zbdev *d, const struct spec *s, char *err,
		      size_t errlen)
{
	struct zbdev_zone *dz = calloc(z->nz, sizeof(*dz));
	uint32_t got = 0;
	int rc;

	if (!dz)
		return -ENOMEM;
	rc = zbdev_report(d, 0, dz, z->nz, &got);
	if (!rc && got != z->nz)
		rc = -EIO;
	if (rc) {
		snprintf(err, errlen, "zonemode=zbd: the device's zone report failed: %s%s",
			 strerror(-rc), rc == -EIO ? " (short or malformed report)" : "");
		goto out;
	}
	z->real = true;
	z->dv = *d;
	unsigned nopen = 0;
	for (uint32_t i = 0; i < z->nz; i++) {
		bool bad = dz[i].cond == ZBDEV_COND_OFFLINE || dz[i].cond == ZBDEV_COND_READONLY;
		z->z[i].cap = bad ? 0 : dz[i].cap; /* fio: offline, not used */
		atomic_init(&z->z[i].wp, dz[i].wp);
		atomic_fetch_add_explicit(&z->swd, dz[i].wp - dz[i].start, memory_order_relaxed);
		if ((dz[i].cond == ZBDEV_COND_IMP_OPEN || dz[i].cond == ZBDEV_COND_EXP_OPEN) &&
		    z->max_open) {
			if (nopen >= z->max_open) {
				rc = -EINVAL;
				snprintf(err, errlen,
					 "zonemode=zbd: the device has more open zones than "
					 "max_open_zones=%u (as fio)",
					 z->max_open);
				goto out;
			}
			atomic_init(&z->slots[nopen], i + 1);
			atomic_init(&z->z[i].slot, ++nopen);
		}
	}
	(void)s;
out:
	free(dz);
	return rc;
}

/* fio's zbd_set_max_write_zones: the device's limit (host-managed, not
 * ignore_zone_limits) unless the job's is lower; larger is refused. */
static int max_open(const struct zbdev *d, const struct spec *s, unsigned *mo, char *err,
		    size_t errlen)
{
	*mo = s->max_open_zones;
	if (d->model != ZBDEV_HOST_MANAGED || s->ignore_zone_limits || !d->max_open)
		return 0;
	if (!*mo)
		*mo = d->max_open;
	else if (*mo > d->max_open)
		return snprintf(err, errlen,
				"max_open_zones=%u is larger than the device's %u (as fio)", *mo,
				d->max_open),
		       -EINVAL;
	if (*mo > ZBD_MAX_OPEN)
		return snprintf(err, errlen, "max_open_zones %u: more than %u", *mo, ZBD_MAX_OPEN),
		       -EINVAL;
	return 0;
}

/* The device @t for zonemode=zbd, checked against the job @s: its
 * identity (*@dev, *@ino: a file's inode), its zones read (@d: a zoned
 * device's, or none: emulated), the open-zone limit (*@mo).  0 or -errno
 * with @err. */
static int join_check(const struct target *t, bool writable, const struct spec *s, dev_t *dev,
		      ino_t *ino, struct zbdev *d, unsigned *mo, char *err, size_t errlen)
{
	struct stat st;
	int rc;

	if (fstat(t->fd, &st))
		return snprintf(err, errlen, "zonemode=zbd: fstat: %s", strerror(errno)), -errno;
	*dev = S_ISREG(st.st_mode) ? st.st_dev : st.st_rdev;
	*ino = S_ISREG(st.st_mode) ? st.st_ino : 0;
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode) && t->kind != TARGET_NVME_GENERIC)
		return snprintf(err, errlen,
				"zonemode=zbd needs a block device, a file or an NVMe generic "
				"device"),
		       -EINVAL;
	/* the descriptor of a writer was judged by dev/safety.h: only then
	 * may a zone be reset */
	rc = zbdev_probe(t, writable, d, err, errlen);
	if (rc)
		return rc;
	if (d->model != ZBDEV_NONE && d->zsize != s->zone_size)
		return snprintf(err, errlen, "zonemode=zbd: zone size changed"), -EINVAL;
	if (d->model == ZBDEV_NONE && !s->zone_size)
		return snprintf(err, errlen,
				"zonemode=zbd needs a zonesize on a device that is not zoned "
				"(zones are emulated, as fio 3.33)"),
		       -EINVAL;
	rc = max_open(d, s, mo, err, errlen);
	if (rc)
		return rc;
	if (t->size < s->zone_size)
		return snprintf(err, errlen,
				"zonemode=zbd: device size %llu is smaller than the zone size %llu",
				(unsigned long long)t->size, (unsigned long long)s->zone_size),
		       -EINVAL;
	return 0;
}

/* Another job joins the table's device @z (fio: every job on a device uses
 * its zone size and limit; writers at once are not implemented).  0 or
 * -EINVAL with @err.  Under tab_lock. */
static int join_existing(struct zbd *z, const struct target *t, bool writable, const struct spec *s,
			 unsigned mo, char *err, size_t errlen)
{
	if (z->zsize != s->zone_size)
		return snprintf(err, errlen,
				"zonesize %llu differs from another job's %llu on the same device "
				"(as fio)",
				(unsigned long long)s->zone_size, (unsigned long long)z->zsize),
		       -EINVAL;
	if (mo && mo != z->max_open)
		return snprintf(err, errlen, "different max_open_zones values (as fio)"), -EINVAL;
	if (z->real && writable && z->writers)
		/* two jobs' writes to one zone could reach the device out of
		 * claim order (fio's zone locks serialize them) */
		return snprintf(err, errlen,
				"%s: another job of this run group writes this zoned device: "
				"writers at once are not implemented (put a stonewall between "
				"them)",
				t->path),
		       -EINVAL;
	z->refs++;
	z->writers += z->real && writable;
	return 0;
}

/* A new table entry for the device (@dev, @ino) of @t: its zones, emulated
 * or read from the device @d.  0 or -errno with @err (*@out NULL). */
static int zbd_new(const struct target *t, bool writable, const struct spec *s, dev_t dev,
		   ino_t ino, const struct zbdev *d, unsigned mo, struct zbd **out, char *err,
		   size_t errlen)
{
	uint64_t nz = (t->size + s->zone_size - 1) / s->zone_size;
	struct zbd *z;
	int rc;

	*out = NULL;
	if (nz > UINT32_MAX - 1)
		return snprintf(err, errlen, "zonemode=zbd: too many zones"), -EINVAL;
	z = calloc(1, sizeof(*z) + nz * sizeof(z->z[0]));
	if (!z || (mo && !(z->slots = calloc(mo, sizeof(*z->slots))))) {
		free(z);
		return -ENOMEM;
	}
	z->dev = dev;
	z->ino = ino;
	z->refs = 1;
	z->zsize = s->zone_size;
	z->zcap = s->zone_capacity ? s->zone_capacity : s->zone_size;
	z->size = t->size;
	z->nz = (uint32_t)nz;
	z->max_open = mo;
	for (uint32_t i = 0; i < z->nz; i++) {
		atomic_init(&z->z[i].wp, (uint64_t)i * z->zsize);
		z->z[i].cap = z->zcap;
	}
	if (d->model != ZBDEV_NONE && (rc = real_zones(z, d, s, err, errlen))) {
		free(z->slots);
		free(z);
		return rc;
	}
	z->writers = z->real && writable;
	/* fio's _zbd_reset_write_cnt: 1 / frequency writes, UINT_MAX without */
	double f = s->zone_reset_frequency;
	z->cnt_init =
	    f > 0 ? (1.0 / f < 4294967295.0 ? (uint32_t)(1.0 / f) : UINT32_MAX) : UINT32_MAX;
	reset_cnt(z);
	*out = z;
	return 0;
}

int zbd_join(const struct target *t, bool writable, const struct spec *s, struct zbd **out,
	     char *err, size_t errlen)
{
	struct zbd *z = NULL;
	struct zbdev d;
	unsigned mo = 0;
	dev_t dev = 0;
	ino_t ino = 0;
	int rc, freei = -1;

	*out = NULL;
	if ((rc = join_check(t, writable, s, &dev, &ino, &d, &mo, err, errlen)))
		return rc;
	pthread_mutex_lock(&tab_lock);
	for (int i = 0; i < ZBD_MAX_DEVS; i++) {
		if (!tab[i])
			freei = freei < 0 ? i : freei;
		else if (tab[i]->dev == dev && tab[i]->ino == ino)
			z = tab[i];
	}
	if (z) {
		rc = join_existing(z, t, writable, s, mo, err, errlen);
	} else if (freei < 0) {
		rc = -EINVAL;
		snprintf(err, errlen, "zonemode=zbd: more than %d devices", ZBD_MAX_DEVS);
	} else if (!(rc = zbd_new(t, writable, s, dev, ino, &d, mo, &z, err, errlen))) {
		tab[freei] = z;
	}
	pthread_mutex_unlock(&tab_lock);
	*out = rc ? NULL : z;
	return rc;
}

static void drop(struct zbd *z)
{
	for (int i = 0; i < ZBD_MAX_DEVS; i++)
		if (tab[i] == z)
			tab[i] = NULL;
	free(z->slots);
	free(z);
}

void zbd_leave(struct zbd *z, bool writable)
{
	if (!z)
		return;
	pthread_mutex_lock(&tab_lock);
	if (z->real && writable && z->writers)
		z->writers--;
	if (--z->refs == 0 && !holds)
		drop(z);
	pthread_mutex_unlock(&tab_lock);
}

void zbd_hold(void)
{
	pthread_mutex_lock(&tab_lock);
	holds++;
	pthread_mutex_unlock(&tab_lock);
}

void zbd_release(void)
{
	pthread_mutex_lock(&tab_lock);
	if (holds && --holds == 0)
		for (int i = 0; i < ZBD_MAX_DEVS; i++)
			if (tab[i] && !tab[i]->refs)
				drop(tab[i]);
	pthread_mutex_unlock(&tab_lock);
}

static uint32_t zone_of(const struct zbd *z, uint64_t off)
{
	uint64_t i = off / z->zsize;
	return i < z->nz ? (uint32_t)i : z->nz;
}

static uint32_t min_bs(const struct spec *s, unsigned d)
{
	uint32_t m = UINT32_MAX;

	for (unsigned i = 0; i < s->nbs; i++)
		if ((d ? s->bs[i].wweight : s->bs[i].weight) && s->bs[i].bs < m)
			m = s->bs[i].bs;
	if (s->bsrange[d][1] && s->bsrange[d][0] < m)
		m = s->bsrange[d][0];
	for (unsigned i = 0; m == UINT32_MAX && i < s->nbs; i++)
		if (s->bs[i].bs < m)
			m = s->bs[i].bs;
	return m == UINT32_MAX ? 512 : m;
}

void zbd_ws_init(struct zbd_ws *ws, const struct zbd *z, const struct spec *s, uint64_t start,
		 uint64_t len)
{
	memset(ws, 0, sizeof(*ws));
	ws->fstart = start;
	ws->fsize = len;
	ws->zlo = zone_of(z, start);
	ws->zhi = zone_of(z, start + len);
	if (ws->zhi <= ws->zlo) /* a read region inside one zone */
		ws->zhi = ws->zlo + 1 <= z->nz ? ws->zlo + 1 : z->nz;
	ws->min_bs[0] = min_bs(s, 0);
	ws->min_bs[1] = min_bs(s, 1);
	ws->random = s->rw == RW_RANDREAD || s->rw == RW_RANDWRITE || s->rw == RW_RANDRW ||
		     s->rw == RW_RANDTRIM || s->rw == RW_RANDTRIMWRITE;
	ws->read_beyond_wp = s->read_beyond_wp;
	ws->mixed = s->rw == RW_RW || s->rw == RW_RANDRW;
	ws->job_max_open = s->job_max_open_zones;
	ws->verify = s->verify && !s->verify_only && spec_writes(s);
	if (s->zone_reset_frequency > 0)
		ws->reset_at = (uint64_t)((double)len * s->zone_reset_threshold);
}

static uint64_t zstart(const struct zbd *z, uint32_t i)
{
	return (uint64_t)i * z->zsize;
}

static uint64_t capend(const struct zbd *z, uint32_t i)
{
	return zstart(z, i) + z->z[i].cap;
}

/* Zone @i's write pointer; while a device zone is being reset (WP_BUSY,
 * zoned devices only, rare) its users wait for the reset to end. */
static uint64_t wp_get(const struct zbd *z, uint32_t i, memory_order mo)
{
	uint64_t w;

	while ((w = atomic_load_explicit(&((struct zbd *)z)->z[i].wp, mo)) == WP_BUSY)
		sched_yield();
	return w;
}

/* A zoned device's zone reset (fio's zbd_reset_zone): the caller owns the
 * zone (its wp swapped to WP_BUSY from @w).  The writes claimed below @w
 * may still be in flight: the device's write pointer must reach @w first
 * (fio waits for the zone's I/O too), then the zone is reset through the
 * descriptor dev/safety.h judged (zbdev_reset: -EPERM on a read-only one).
 * The write pointer is left at the zone start, or at @w on failure. */
static int dev_reset(struct zbd *z, uint32_t i, uint64_t w)
{
	struct zbdev_zone dz;
	uint32_t got = 0;
	int rc = 0;

	bool done = false;
	for (unsigned t = 0; !rc && !done && t < 300000; t++) { /* 30 s */
		rc = zbdev_report(&z->dv, zstart(z, i), &dz, 1, &got);
		done = !rc && got && (dz.wp >= w || dz.cond == ZBDEV_COND_FULL);
		if (!rc && !done)
			usleep(100);
	}
	if (!rc && !done)
		rc = -ETIMEDOUT; /* a write never reached it: no reset under it */
	if (!rc)
		rc = zbdev_reset(&z->dv, zstart(z, i));
	atomic_store_explicit(&z->z[i].wp, rc ? w : zstart(z, i), memory_order_release);
	int none = 0;
	if (rc)
		atomic_compare_exchange_strong(&z->err, &none, rc);
	if (!rc) {
		atomic_fetch_sub_explicit(&z->swd, w - zstart(z, i), memory_order_relaxed);
		atomic_fetch_add_explicit(&z->resets, 1, memory_order_relaxed);
	}
	return rc;
}

/* fio's zbd_close_zone: out of the open set. */
static void close_zone(struct zbd *z, struct zbd_ws *ws, uint32_t i)
{
	uint32_t sl = atomic_exchange_explicit(&z->z[i].slot, 0, memory_order_acq_rel);

	if (!sl)
		return;
	atomic_store_explicit(&z->slots[sl - 1], 0, memory_order_release);
	if (ws->nopen)
		ws->nopen--;
}

/* fio's zbd_open_zone: OPEN_NOT when zone @i is closed and cannot be
 * opened, OPEN_ALREADY when it is in the open set, OPEN_NOW when this call
 * put it there (its caller may then reset it: see zbd_write). */
enum { OPEN_NOT, OPEN_ALREADY, OPEN_NOW };

static int open_zone(struct zbd *z, struct zbd_ws *ws, uint32_t i)
{
	/* fio: with verify a full zone is never opened again (resetting it
	 * would lose data the read-back checks) */
	if (ws->verify && wp_get(z, i, memory_order_relaxed) + ws->min_bs[1] > capend(z, i))
		return OPEN_NOT;
	if (!z->max_open || atomic_load_explicit(&z->z[i].slot, memory_order_acquire))
		return OPEN_ALREADY;
	if (ws->job_max_open && ws->nopen >= ws->job_max_open)
		return OPEN_NOT;
	for (uint32_t k = 0; k < z->max_open; k++) {
		uint32_t zero = 0;
		if (!atomic_compare_exchange_strong(&z->slots[k], &zero, i + 1))
			continue;
		zero = 0;
		if (!atomic_compare_exchange_strong(&z->z[i].slot, &zero, k + 1)) {
			atomic_store(&z->slots[k], 0); /* another worker opened it */
			return OPEN_ALREADY;
		}
		ws->nopen++;
		return OPEN_NOW;
	}
	return OPEN_NOT;
}

static bool has_room(const struct zbd *z, uint32_t i, uint32_t mbs)
{
	return wp_get(z, i, memory_order_relaxed) + mbs <= capend(z, i);
}

/* fio's zbd_convert_to_open_zone: an open zone of the job's with room for
 * a smallest write, or a zone opened after the one picked; UINT32_MAX
 * when none.  *@op: how the zone came to be open (open_zone). */
static uint32_t convert(struct zbd *z, struct zbd_ws *ws, uint64_t off, int *op)
{
	*op = OPEN_ALREADY;
	uint32_t mbs = ws->min_bs[1], zi = UINT32_MAX;
	uint64_t k0 = ws->fsize ? (off - ws->fstart) * z->max_open / ws->fsize : 0;

	/* the open zone at the offset's place in the set (fio's
	 * pick_random_zone_idx), else the next one of this job's */
	for (uint32_t n = 0; n < z->max_open; n++) {
		uint32_t v =
		    atomic_load_explicit(&z->slots[(k0 + n) % z->max_open], memory_order_acquire);
		if (v && v - 1 >= ws->zlo && v - 1 < ws->zhi) {
			zi = v - 1;
			break;
		}
	}
	if (zi != UINT32_MAX && has_room(z, zi, mbs))
		return zi;
	if (zi == UINT32_MAX)
		zi = zone_of(z, off) < ws->zhi ? zone_of(z, off) : ws->zhi - 1;
	/* full: open another zone, the next ones after it (wrapping) */
	for (uint64_t n = ws->fsize / z->zsize; n > 0; n--) {
		zi = zi + 1 >= ws->zhi ? ws->zlo : zi + 1;
		if (atomic_load_explicit(&z->z[zi].slot, memory_order_acquire))
			continue;
		if ((*op = open_zone(z, ws, zi)) != OPEN_NOT)
			return zi;
		*op = OPEN_ALREADY;
	}
	/* any open zone of the job's with room */
	for (uint32_t k = 0; k < z->max_open; k++) {
		uint32_t v = atomic_load_explicit(&z->slots[k], memory_order_acquire);
		if (v && v - 1 >= ws->zlo && v - 1 < ws->zhi && has_room(z, v - 1, mbs))
			return v - 1;
	}
	return UINT32_MAX;
}

/* fio's zbd_dec_and_reset_write_cnt: true on every cnt_init-th call. */
static bool dec_write_cnt(struct zbd *z)
{
	uint32_t c = atomic_load_explicit(&z->write_cnt, memory_order_relaxed);

	do {
		if (c <= 1) {
			if (atomic_compare_exchange_weak(&z->write_cnt, &c, z->cnt_init))
				return true;
		} else if (atomic_compare_exchange_weak(&z->write_cnt, &c, c - 1)) {
			return false;
		}
	} while (1);
}

static int zbd_write(struct zbd *z, struct zbd_ws *ws, uint64_t *off, uint32_t *len)
{
	uint32_t mbs = ws->min_bs[1], zi = zone_of(z, *off);

	if (zi >= ws->zhi)
		zi = ws->zhi - 1;
	if (zi < ws->zlo)
		zi = ws->zlo;
	unsigned tries = 0;
	/* fio: the reset threshold and frequency, counted once per write */
	bool reset = ws->reset_at &&
		     atomic_load_explicit(&z->swd, memory_order_relaxed) >= ws->reset_at &&
		     dec_write_cnt(z);
retry:
	if (tries++ > 4)
		sched_yield(); /* the others are filling and closing zones */
	int op = open_zone(z, ws, zi);
	if (op == OPEN_NOT && (zi = convert(z, ws, *off, &op)) == UINT32_MAX)
		return -ENOSPC;
	uint64_t w = wp_get(z, zi, memory_order_relaxed), at, l;
	for (;;) {
		if (w == WP_BUSY) { /* another worker resets it */
			w = wp_get(z, zi, memory_order_relaxed);
			continue;
		}
		bool full = w + mbs > capend(z, zi), r = reset || full;
		if (full && ws->verify) {
			/* filled since open_zone: another zone (a remainder
			 * below the smallest write is closed, as fio) */
			if (z->max_open && w < capend(z, zi))
				close_zone(z, ws, zi);
			goto retry;
		}
		/* A zone is written anew only while it is in the open set:
		 * - closed (its filler closed it): open it again, or another;
		 * - full and still open, and not opened by this call: the
		 *   worker that filled it is closing it (after its claim):
		 *   resetting it now would leave a written zone outside the
		 *   set once that close lands, so wait for the close;
		 * - a remainder below this job's smallest write: fio closes
		 *   the zone and looks for another (zbd_adjust_block). */
		if (r && z->max_open) {
			if (!atomic_load_explicit(&z->z[zi].slot, memory_order_acquire))
				goto retry;
			if (full && op != OPEN_NOW) {
				if (w < capend(z, zi)) {
					close_zone(z, ws, zi);
					goto retry;
				}
				sched_yield();
				w = wp_get(z, zi, memory_order_relaxed);
				continue;
			}
		}
		if (r && z->real && w != zstart(z, zi)) {
			/* the device's zone: reset it, owning it meanwhile */
			if (!atomic_compare_exchange_weak(&z->z[zi].wp, &w, WP_BUSY))
				continue;
			if (dev_reset(z, zi, w))
				return -EIO;
			reset = false;
			w = zstart(z, zi);
		}
		at = r ? zstart(z, zi) : w;
		l = capend(z, zi) - at;
		l = (l < *len ? l : *len) / mbs * mbs;
		if (!l)
			return -ENOSPC; /* fio: zone capacity below the smallest write */
		if (atomic_compare_exchange_weak(&z->z[zi].wp, &w, at + l))
			break;
	}
	if (at != w) { /* reset: its data is gone (fio's zbd_reset_zone) */
		atomic_fetch_sub_explicit(&z->swd, w - at, memory_order_relaxed);
		atomic_fetch_add_explicit(&z->resets, 1, memory_order_relaxed);
	}
	atomic_fetch_add_explicit(&z->swd, l, memory_order_relaxed);
	if (at + l >= capend(z, zi) && z->max_open)
		close_zone(z, ws, zi); /* fio's zbd_end_zone_io */
	*off = at;
	*len = (uint32_t)l;
	return 0;
}

int zbd_verify_reset(struct zbd *z, struct zbd_ws *ws)
{
	for (uint32_t i = ws->zlo; i < ws->zhi; i++) {
		if (z->max_open)
			close_zone(z, ws, i);
		uint64_t w = wp_get(z, i, memory_order_acquire);
		/* (another job's set-up may reset the same zone: its CAS wins) */
		while (w != zstart(z, i) && z->z[i].cap) {
			if (z->real) { /* the device's zone, as zbd_write resets it */
				if (!atomic_compare_exchange_weak(&z->z[i].wp, &w, WP_BUSY)) {
					w = wp_get(z, i, memory_order_acquire);
					continue;
				}
				if (dev_reset(z, i, w))
					return -EIO;
				break;
			}
			if (atomic_compare_exchange_weak(&z->z[i].wp, &w, zstart(z, i))) {
				atomic_fetch_sub_explicit(&z->swd, w - zstart(z, i),
							  memory_order_relaxed);
				atomic_fetch_add_explicit(&z->resets, 1, memory_order_relaxed);
				break;
			}
		}
	}
	ws->nopen = 0;
	return 0;
}

static uint64_t data_of(const struct zbd *z, uint32_t i)
{
	return wp_get(z, i, memory_order_acquire) - zstart(z, i);
}

/* fio's zbd_find_zone: the next zone after @zi holding @min bytes, for
 * random jobs the nearest on either side; UINT32_MAX when none. */
static uint32_t find_zone(const struct zbd *z, const struct zbd_ws *ws, uint32_t zi, uint64_t min)
{
	for (uint32_t d = 1;; d++) {
		bool up = zi + d < ws->zhi, down = ws->random && zi >= ws->zlo + d;
		if (up && data_of(z, zi + d) >= min)
			return zi + d;
		if (!up && !ws->random)
			return UINT32_MAX;
		if (down && data_of(z, zi - d) >= min)
			return zi - d;
		if (!up && !down)
			return UINT32_MAX;
	}
}

static int zbd_read(struct zbd *z, struct zbd_ws *ws, uint64_t *off, uint32_t *len)
{
	uint32_t mbs = ws->min_bs[0], zi = zone_of(z, *off), orig;

	if (zi >= ws->zhi)
		zi = ws->zhi - 1;
	orig = zi;
	uint64_t w = wp_get(z, zi, memory_order_acquire);
	uint64_t range = w - zstart(z, zi);
	if (range < mbs || (!ws->random && *off + mbs > w)) {
		zi = find_zone(z, ws, zi, mbs);
		if (zi == UINT32_MAX)
			return -ENOSPC;
		w = wp_get(z, zi, memory_order_acquire);
		range = w - zstart(z, zi);
		if (!ws->random)
			*off = zstart(z, zi);
	}
	if (range <= *len)
		*off = zstart(z, zi);
	else if (ws->random)
		*off = zstart(z, zi) + (*off - zstart(z, orig)) % (range - *len) / mbs * mbs;
	uint64_t l = w - *off < *len ? w - *off : *len;
	l = l / mbs * mbs;
	if (!l)
		return -ENOSPC;
	*len = (uint32_t)l;
	return 0;
}

/* fio's DDIR_TRIM in zbd_adjust_block, then zbd_do_io_u_trim: the zone
 * (random: one holding data) reset; nothing reaches the device. */
static int zbd_trim(struct zbd *z, struct zbd_ws *ws, uint64_t *off)
{
	uint32_t zi = zone_of(z, *off);

	if (zi >= ws->zhi)
		zi = ws->zhi - 1;
	if (ws->random && !data_of(z, zi)) {
		zi = find_zone(z, ws, zi, 1);
		if (zi == UINT32_MAX)
			return -ENOSPC;
		*off = zstart(z, zi);
	}
	if (*off != zstart(z, zi))
		return -EINVAL; /* fio: "Trim offset not at zone start" */
	if (z->real) {		/* the device's zone is reset (fio's zbd_do_io_u_trim) */
		uint64_t w = wp_get(z, zi, memory_order_acquire);
		while (w != WP_BUSY && w != zstart(z, zi) &&
		       !atomic_compare_exchange_weak(&z->z[zi].wp, &w, WP_BUSY))
			;
		if (w == WP_BUSY)
			return zbd_trim(z, ws, off); /* another worker's reset: again */
		if (z->max_open)
			close_zone(z, ws, zi);
		return w == zstart(z, zi) ? 0 : dev_reset(z, zi, w) ? -EIO : 0;
	}
	uint64_t w = atomic_exchange_explicit(&z->z[zi].wp, zstart(z, zi), memory_order_acq_rel);
	if (z->max_open)
		close_zone(z, ws, zi);
	if (w != zstart(z, zi)) {
		atomic_fetch_sub_explicit(&z->swd, w - zstart(z, zi), memory_order_relaxed);
		atomic_fetch_add_explicit(&z->resets, 1, memory_order_relaxed);
	}
	return 0;
}

int zbd_adjust(struct zbd *z, struct zbd_ws *ws, uint64_t *off, uint32_t *len, enum nvs_dir *dir)
{
	/* fio's zbd_adjust_ddir: no read before there is data to read */
	if (*dir == NVS_READ && ws->mixed && !ws->read_beyond_wp &&
	    !atomic_load_explicit(&z->swd, memory_order_relaxed))
		*dir = NVS_WRITE;
	if (*dir == NVS_WRITE)
		return zbd_write(z, ws, off, len);
	if (*dir == NVS_TRIM)
		return zbd_trim(z, ws, off);
	if (ws->read_beyond_wp)
		return 0;
	return zbd_read(z, ws, off, len);
}

void zbd_seq_pos(const struct zbd *z, const struct zbd_ws *ws, uint64_t *pos)
{
	uint32_t zi = zone_of(z, *pos);

	if (!ws->random && zi < z->nz && z->z[zi].cap < z->zsize && *pos >= capend(z, zi))
		*pos = zstart(z, zi) + z->zsize;
}

int zbd_error(const struct zbd *z)
{
	return atomic_load_explicit(&((struct zbd *)z)->err, memory_order_acquire);
}

uint64_t zbd_resets(const struct zbd *z)
{
	return atomic_load_explicit(&z->resets, memory_order_relaxed);
}

uint64_t zbd_wp(const struct zbd *z, uint32_t i)
{
	return wp_get(z, i, memory_order_relaxed);
}

uint32_t zbd_nzones(const struct zbd *z)
{
	return z->nz;
}

/* zbd.h - fio's zonemode=zbd on a device or file that is not zoned (fio
 * 3.33's zbd.c with model ZBD_NONE: zones of zonesize are emulated in
 * memory; see zbd.c's head comment for the design), and on a zoned block
 * device or zoned namespace (io/feat/zbdev.h) the device's zones, reset on the
 * device.  The zone state of one
 * device is shared by every worker of every job on it (fio's zbd_info). */
#ifndef NVS_ZBD_H
#define NVS_ZBD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "nvscope.h"
#include "io/opt/spec.h"
#include "io/opt/opt.h"

struct zbd;

/* One worker's side (in its running state; fio's per-job fields). */
struct zbd_ws {
	uint32_t zlo, zhi;		    /* fio's min_zone, max_zone: the job's zones */
	uint64_t fstart, fsize;		    /* the job's region (fio's file_offset, io_size) */
	uint32_t min_bs[2];		    /* fio's min_bs per direction */
	bool random, read_beyond_wp, mixed; /* mixed: rw, randrw */
	uint32_t job_max_open, nopen;	    /* job_max_open_zones; zones it opened */
	uint64_t reset_at;		    /* zone_reset_threshold x fsize, bytes (0: off) */
	bool verify;			    /* verify= on a writer: no zone written twice */
};

/* fio's ignore_zone_limits, job_max_open_zones, max_open_zones, read_beyond_wp,
 * zone_reset_frequency, zone_reset_threshold, zonecapacity (the names in zbd_opts): a row each in
 * io/opt/opt.c's one table. */
#define ZBD_NOPTS 7
extern const struct opt_row zbd_opts[ZBD_NOPTS];
/* What verify= with zonemode=zbd does not implement in @s (a message
 * naming it), or NULL: verify_backlog, loops, time_based or verify_only
 * with a zonecapacity below the zonesize, and zone_reset_frequency (fio
 * asserts). */
const char *zbd_spec_verify_why(const struct spec *s);
/* fio's zone-count form "Nz" of size, offset, io_size: true (*@nz set)
 * when @v is one, false otherwise. */
bool zbd_spec_nz(const char *v, uint64_t *nz);
/* fio's zbd checks of a spec (zbd_verify_bs, init_zone_info): 0 or
 * -EINVAL with @err. */
int zbd_spec_validate(const struct spec *s, char *err, size_t errlen);
/* fio's zbd_recalc_options_with_zone_granularity: the "Nz" counts of
 * @s into bytes (before the regions are computed). */
void zbd_spec_resolve(struct spec *s);
/* fio's zbd_zone_align_file_sizes: a job that writes gets its region
 * [*@start, *@start + *@len) rounded in to whole zones; -EINVAL with @err
 * when no zone is left. */
int zbd_region(const struct spec *s, uint64_t *start, uint64_t *len, char *err, size_t errlen);

/* fio's zoned model check of target @t, before the regions: on a zoned
 * device (io/feat/zbdev.h) the spec's zonesize becomes the device's (a
 * different one given is refused, as fio) and the zbd checks run again;
 * a device that is not zoned changes nothing.  Writes at queue depth @qd
 * above 1 on a zoned device are refused.  0 or -errno with @err. */
struct target;
int zbd_probe(const struct target *t, struct spec *s, unsigned qd, char *err, size_t errlen);
/* The zone state of target @t (open; @writable: opened for writing
 * through dev/safety.h, the only descriptor a zone reset goes through):
 * shared with the other jobs on it, created at the first: emulated zones
 * on a device or file that is not zoned, the device's zones (report, write
 * pointers, capacity, max open zones) on a zoned one.  Set-up only (a
 * lock inside).  0, or -errno with @err. */
int zbd_join(const struct target *t, bool writable, const struct spec *s, struct zbd **out,
	     char *err, size_t errlen);
/* Drops a reference taken by zbd_join (@writable as given there); @z may
 * be NULL. */
void zbd_leave(struct zbd *z, bool writable);
/* Keep the zones of the devices used until zbd_release, even between
 * jobs (fio keeps them for its whole run): around a job file's groups.
 * Nested calls count. */
void zbd_hold(void);
void zbd_release(void);
/* The worker's side for its region [@start, @start + @len). */
void zbd_ws_init(struct zbd_ws *ws, const struct zbd *z, const struct spec *s, uint64_t start,
		 uint64_t len);

/* fio's zbd_file_reset with verify: the zones of the worker's region
 * are reset before it writes anything (emulated zones: their state only;
 * a zoned device's zones on the device, through the judged descriptor).
 * Set-up only: nothing of the region may be in flight.  0 or -errno. */
int zbd_verify_reset(struct zbd *z, struct zbd_ws *ws);

/* fio's zbd_adjust_ddir + zbd_adjust_block + zbd_queue_io, at issue: the
 * generated I/O (*@off, *@len, *@dir) moved to a zone's write pointer
 * (writes), below it (reads, read_beyond_wp=0), or to a zone with data
 * (trims: the zone is reset, in memory only, as fio does for emulated
 * zones: the caller issues no discard).  0, or -ENOSPC: the job ends
 * (fio's io_u_eof).  No lock, no allocation. */
int zbd_adjust(struct zbd *z, struct zbd_ws *ws, uint64_t *off, uint32_t *len, enum nvs_dir *dir);

/* fio's setup_zbd_zone_mode: a sequential write stream at @*pos past its
 * zone's capacity (zonecapacity < zonesize) jumps to the zone's end. */
void zbd_seq_pos(const struct zbd *z, const struct zbd_ws *ws, uint64_t *pos);

/* The first failed device zone reset (-errno; its job ended), else 0. */
int zbd_error(const struct zbd *z);
/* Zone resets so far (fio's nr_zone_resets, all jobs on the device). */
uint64_t zbd_resets(const struct zbd *z);
/* Zone @i's write pointer and the zone count (tests). */
uint64_t zbd_wp(const struct zbd *z, uint32_t i);
uint32_t zbd_nzones(const struct zbd *z);

#endif

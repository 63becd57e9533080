/* spec.h - the workload specification: one struct, fio's option names and
 * meanings, set key by key (CLI flags and INI/job files share opt_set) and
 * validated in one place (spec_validate). */
#ifndef NVS_SPEC_H
#define NVS_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "io/opt/specerr.h"
#include "nvscope.h"

enum spec_rw {
	RW_READ,
	RW_WRITE,
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_RW,
	RW_RANDRW,
	RW_TRIM,
	RW_RANDTRIM,
	RW_TRIMWRITE,
	RW_RANDTRIMWRITE /* fio's trims (NVS_TRIM) */
};
/* fio's sync=: writes with O_SYNC / O_DSYNC semantics (io/opt/specdata.c) */
enum spec_sync { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };
enum spec_engine { ENGINE_IO_URING, ENGINE_IO_URING_CMD };
enum spec_process { PROCESS_EVEN, PROCESS_POISSON };
#define SPEC_MAX_PATTERN 512 /* fio's MAX_PATTERN_SIZE */

struct spec_bs {
	uint32_t bs;	  /* bytes */
	uint32_t weight;  /* percent of reads; bssplit weights sum to 100 */
	uint32_t wweight; /* percent of writes (fio's bs=r,w, bssplit=r,w); = weight
			   * unless per-direction sizes were given */
};

/* Trace replay (io/trace/replay.c, fio's option names; docs/traces.md). */
struct spec_replay {
	char iolog[1024];	/* read_iolog: "" = no trace */
	bool no_stall;		/* replay_no_stall: as fast as the queue depth allows */
	unsigned time_scale;	/* replay_time_scale, percent of the recorded rate (100) */
	uint32_t align;		/* replay_align: offsets rounded down (power of two, 0 none) */
	uint64_t scale;		/* replay_scale: offsets divided by it (1 none) */
	unsigned copies;	/* trace_copies: concurrent copies, each on its own region */
	uint64_t stagger_ns;	/* trace_stagger: copy i starts i x this after the first */
	char write_iolog[1024]; /* write_iolog: issued I/Os as a fio v3 iolog ("" none) */
	char redirect[256];	/* replay_redirect: the one target the trace goes to ("") */
};

/* fio's I/O priorities (io/feat/prio.h), as given: prioclass and prio (-1: not
 * given), cmdprio_percentage, cmdprio_class and cmdprio per direction,
 * cmdprio_bssplit's entries, log_prio.  What the submit path reads (the
 * default priority, each direction's distinct priorities and which one an
 * I/O takes) is resolved once per job from these: struct prio_plan. */
struct spec_prio_split {
	uint32_t bs;
	uint8_t pct;   /* percent of this direction's I/Os of this size */
	int32_t given; /* class << 13 | level from the entry, -1: cmdprio's */
};
#define SPEC_MAX_PRIOS (1 + NVS_MAX_BSSPLIT)
struct spec_prio {
	int8_t cls, level;    /* prioclass, prio: -1 = not given */
	uint8_t pct[2];	      /* cmdprio_percentage=r,w */
	uint8_t cmd_cls[2];   /* cmdprio_class=r,w: 0 = fio's default, RT */
	uint8_t cmd_level[2]; /* cmdprio=r,w */
	struct spec_prio_split split[2][NVS_MAX_BSSPLIT];
	uint8_t nsplit[2];
	bool split_given; /* cmdprio_bssplit= was set (even to all zero) */
	bool log;	  /* log_prio: logs' last column in hex (fio) */
};

/* io_uring_cmd's NVMe command options (io/feat/nvcmd.c, fio's names): what each
 * write of the workload is sent as (write_mode: one mode, or a mix drawn per
 * write), Write Zeroes' DEAC bit (deac) and the ranges per trim (num_range). */
enum spec_wmode { WMODE_WRITE, WMODE_UNCOR, WMODE_ZEROES, WMODE_VERIFY };
#define SPEC_MAX_WMODES 5 /* fio's WMODE_SPLIT_MAX */
struct spec_nvcmd {
	uint8_t nmode;		       /* entries; 0 = write_mode not given (write) */
	uint8_t mode[SPEC_MAX_WMODES]; /* enum spec_wmode */
	uint8_t pct[SPEC_MAX_WMODES];  /* share of the writes; the entries sum to 100 */
	bool deac;		       /* Write Zeroes with DEAC (CDW12 bit 25) */
	unsigned num_range;	       /* ranges per trim, 1..256 (0 = 1) */
};

/* fio's job-running options (io/feat/xrun.c): the workers' nice value, the
 * thinktime variants, the queue's low-water mark, exitall_on_error, NUMA */
struct spec_xrun {
	bool nice_set;
	int8_t nice;		  /* -20..19 */
	uint64_t think_spin_ns;	  /* thinktime_spin: of thinktime, spent spinning */
	uint64_t think_iotime_ns; /* thinktime_iotime: pause after this much I/O time */
	bool think_blocks_set;	  /* thinktime_blocks given (counted with iotime too) */
	unsigned iodepth_low;	  /* 0 = the queue depth: refilled at once */
	bool exitall_error;	  /* exitall_on_error */
	uint64_t cpu_nodes;	  /* numa_cpu_nodes as a node mask (0 none) */
	int8_t mpol;		  /* numa_mem_policy: MPOL_* of linux/mempolicy.h, -1 none */
	uint64_t mem_nodes;	  /* its nodes (prefer: one) */
};

struct spec {
	char name[64];
	unsigned ntargets; /* targets[0 .. ntargets), at the struct's end */
	uint64_t stripe;   /* >0: targets form one RAID-0 set with this stripe (bytes) */

	enum spec_rw rw;
	unsigned rwmixread;		    /* % reads in mixed workloads */
	struct spec_bs bs[NVS_MAX_BSSPLIT]; /* bs= gives one entry at 100% */
	unsigned nbs;
	unsigned iodepth[NVS_MAX_QD_STEPS]; /* a list = queue-depth sweep */
	unsigned niodepth;
	unsigned numjobs;    /* workers per target */
	uint64_t runtime_ns; /* 0: until size/io_size is done */
	uint64_t ramp_ns;
	bool time_based; /* loop over the region until runtime */
	uint64_t size;	 /* region length in bytes; 0 = to the end */
	double size_pct; /* region length as % of the target (when > 0) */
	uint64_t offset; /* region start in bytes */
	double offset_pct;
	uint64_t io_size; /* bytes to transfer per worker; 0 = size * loops */
	unsigned loops;
	uint64_t rate_iops;	   /* total across directions per worker (rate_iops_total,
				    * vdbench's iorate: plans' rate curves); 0 = none */
	uint64_t rate_iops_dir[2]; /* fio's rate_iops=r,w: per job (worker) and
				    * direction, [NVS_READ], [NVS_WRITE]; 0 = none */
	uint64_t rate_bw_dir[2];   /* fio's rate=r,w: bytes/s per job and direction */
	uint64_t rate_min_bw[2], rate_min_iops[2]; /* rate_min, rate_iops_min: a
						    * measured interval below fails the job */
	enum spec_process rate_process;
	bool direct;	      /* O_DIRECT, default on */
	bool no_invalidate;   /* fio's invalidate=0 (io/feat/pagecache.h) */
	bool no_file_create;  /* fio's allow_file_create=0 (io/feat/filesize.h) */
	uint8_t fadvise_hint; /* enum pagecache_hint, 0 = fio's default 1 */
	bool norandommap;     /* uniform random offsets with replacement (no map) */
	bool rand_lfsr;	      /* random_generator=lfsr: every block once even with norandommap */
	bool rand_taus64;     /* random_generator=tausworthe64: fio's 64-bit stream */
	bool norandommap_set, rand_gen_set; /* given in the job (fio_option_is_set) */
	/* fio master's sprandom (io/feat/sprandom.h): spr_op 0 = 0.15, spr_regions
	 * 0 = 100 (fio's defaults), spr_cs bytes (0: no cache deferral) */
	bool sprandom;
	double spr_op;
	unsigned spr_regions;
	uint64_t spr_cs;
	uint32_t blockalign;	/* 0 = the smallest block size */
	uint32_t bsrange[2][2]; /* fio's bsrange=a-b[,c-d]: [dir][min, max], 0 = none;
				 * bs[] then lists min and max at weight 0 */
	bool bs_unaligned;	/* blocksize_unaligned: bsrange sizes in 512-byte
				 * steps (fio: any size), not multiples of min */
	unsigned seq_nr;	/* rw=randX:N: a new random offset every N I/Os (1) */
	uint64_t seq_add;	/* rw=X:SIZE: skip SIZE after each sequential I/O */
	bool seq_back;		/* rw=X:-SIZE: step SIZE back instead (fio's
				 * backwards sequential I/O) */
	uint8_t pct_random[2];	/* percentage_random=r,w (100) */
	enum spec_dist { DIST_UNIFORM, DIST_ZIPF, DIST_PARETO, DIST_GAUSS, DIST_ZONED } dist;
	double dist_val;	   /* zipf theta, pareto h, normal deviation (%) */
	double dist_center;	   /* 0..1, or -1: fio's random offset of the hot spot */
	uint64_t offset_increment; /* numjob k starts at offset + k * this */
	uint64_t offset_align;	   /* offset=N%: rounded up to this (0: smallest bs) */
	bool serialize_overlap;	   /* an I/O overlapping one in flight waits for it */
	uint64_t startdelay_ns;	   /* the job starts this late */
	uint64_t thinktime_ns;	   /* pause after thinktime_blocks I/Os (all completed) */
	unsigned thinktime_blocks;
	enum spec_engine ioengine;
	bool sqpoll, hipri, fixedbufs, registerfiles;
	unsigned batch_submit, batch_complete; /* 0 = automatic; _complete is _max */
	unsigned batch_complete_min;	       /* fio's iodepth_batch_complete(_min): wait for
						* this many completions (0/1 = one) */
	char cpus_allowed[128]; /* "0-3,6": every worker gets the set (fio's shared) */
	bool cpus_split;	/* cpus_allowed_policy=split: one CPU per worker */
	bool randrepeat_off;	/* randrepeat=0 without randseed: a new seed per run */
	bool seed_given;	/* randseed= was set */
	double pct_list[20];	/* percentile_list (sorted), fio's FIO_IO_U_LIST_MAX_LEN */
	unsigned npct;		/* 0 = fio's default list */
	uint64_t interval_ns;	/* sample interval, 100 ms .. 60 s, default 1 s */
	bool continue_on_error;
	struct specerr ignore_error; /* fio's ignore_error (io/opt/specerr.h) */
	bool error_dump;	     /* fio's error_dump: a line per error, ignored ones too */
	bool force_destroy;	     /* write even where a signature was found */
	uint64_t seed;
	/* fio's log files (report/fiolog.c): name prefixes, "" = none; one
	 * line per sample interval (log_avg_msec), written after the job */
	char log_iops[256], log_lat[256], log_bw[256], log_hist[256];
	/* bit i: log i (iops, lat, bw, hist) given bare, so named after the
	 * job: a later name= (a job file's section) renames it, as fio */
	uint8_t log_jobname;
	uint64_t log_hist_ns; /* log_hist_msec; 0 = the interval */
	bool per_job_logs;    /* fio's default 1 (file names only, see fiolog.h) */
	/* written data (fio's options and defaults; io/core/datagen.h): the three
	 * flags are -1 when not given, as fio tells "unset" from "set to 0" */
	int8_t scramble_buffers, refill_buffers, zero_buffers;
	unsigned compress_pct;	 /* buffer_compress_percentage 0..100 */
	uint32_t compress_chunk; /* buffer_compress_chunk, default 512; 0 = bs */
	unsigned dedupe_pct;	 /* dedupe_percentage 0..100 */
	bool dedupe_ws;		 /* dedupe_mode=working_set (else repeat) */
	unsigned dedupe_ws_pct;	 /* dedupe_working_set_percentage, default 5 */
	bool dedupe_global;	 /* dedupe_global: the working set across the run's jobs */
	uint8_t pattern[SPEC_MAX_PATTERN]; /* buffer_pattern */
	unsigned pattern_len;
	/* a fio job file's ioengine= as it named it (its default psync when it
	 * named none: fio_engine_default), "" when not a job file's; and the
	 * file's iodepth where that engine made it run at depth 1 (0 else).
	 * How the engine ran: preset_engine_note (config/preset.h) */
	char fio_engine[24];
	bool fio_engine_default;
	unsigned fio_iodepth;
	/* fio's grouping, from a job file (0 elsewhere): jobs with the same
	 * run_group run together in fio, a stonewall/wait_for_previous job starts
	 * the next one; report_group is fio's groupid (stonewall or new_group). */
	unsigned run_group, report_group;
	char wait_for[64]; /* fio's wait_for=NAME (job files): start once that
			    * earlier job of the run group has ended ("" none) */
	bool group_reporting;
	bool exitall;	   /* fio's exitall (any job of the file): when a job
			    * ends, exit_what others are stopped */
	uint8_t exit_what; /* fio's exit_what: 0 group (its report group),
			    * 1 stonewall (all running), 2 all (none start after) */
	/* fio's filename=a:b: ONE job over the files (fio's file set): each
	 * worker issues to them in turn, each file its own region (size split
	 * evenly, offset in each), reported as one job with per-file counts
	 * (result.member[]) -- not one worker per target as --target a,b */
	/* fio's in-job steady state (io/opt/specss.c, stats/fioss.h): steadystate=
	 * criterion (FIOSS_* bits) and limit, ss_given false = fio's default
	 * iops_slope:0.01%; ss_dur_s 0 = off; ss_ramp_ns from the measured start */
	unsigned ss_crit;
	double ss_limit;
	bool ss_given;
	unsigned ss_dur_s;
	uint64_t ss_ramp_ns;
	unsigned ss_check_s; /* fio master's steadystate_check_interval, s (default 1) */
	bool fileset;
	uint8_t file_service; /* file_service_type: 0 roundrobin, 1 sequential, 2 random */
	/* random_distribution=zoned:A/S:... (fio's zone-dist.c index): a draw
	 * v in 1..100 of direction d puts the offset in [zone_lo, zone_hi)
	 * percent of the region, zone_*[d][v - 1]; zone_hi 0 = uniform */
	uint8_t zone_lo[2][100], zone_hi[2][100];
	unsigned file_service_nr; /* I/Os before switching file (fio's ":N"); 0 = 1 */
	unsigned sq_cpu;	  /* sqthread_poll_cpu + 1: the SQPOLL thread's CPU; 0 none */
	struct spec_replay replay;
	struct spec_prio prio; /* fio's prio, prioclass, cmdprio_*, log_prio */
	struct spec_xrun xrun; /* nice, thinktime_*, iodepth_low, exitall_on_error, numa_* */
	/* fio's NVMe protection information options (io/feat/pi.h), io_uring_cmd only */
	struct spec_pi {
		uint32_t md_per_io;	      /* md_per_io_size: metadata bytes per I/O, 0 none */
		bool act;		      /* pi_act, fio's default 1 */
		uint32_t chk;		      /* pi_chk: PI_PRCHK_* bits */
		uint16_t apptag, apptag_mask; /* fio's defaults 0x1234, 0xffff */
		bool given;		      /* any of them was set */
	} pi;
	struct spec_nvcmd nvcmd; /* write_mode, deac, num_range (io/feat/nvcmd.h) */
	/* fio's fdp=1 (dataplacement=fdp), plids/fdp_pli, plid_select/
	 * fdp_pli_select; and atomic=1 (io/feat/fdp.h) */
	struct spec_fdp {
		bool on;
		bool random;	   /* plid_select=random, else roundrobin */
		bool dp_none;	   /* dataplacement=none given (fio: conflicts with fdp=1) */
		uint16_t nids;	   /* 0: every handle the namespace reports */
		uint16_t ids[128]; /* indices into the RUH status list */
	} fdp;
	bool atomic;
	/* fio's sync, fsync, fdatasync (io/opt/specdata.c): after every fsync_blocks
	 * (fdatasync_blocks) writes issued, an fsync (fdatasync) is issued */
	unsigned fsync_blocks, fdatasync_blocks;
	enum spec_sync sync;
	bool end_fsync; /* end_fsync / fsync_on_close: fsync once the writes end */
	/* fio's verify (io/feat/vhdr.h, io/opt/specdata.c): verify is an enum vhdr_type
	 * (0 = none); do_verify reads back what a write job wrote; verify_only
	 * reads and checks without writing; verify_fatal stops at the first bad
	 * block; verify_pattern fills (and is checked in) the data */
	uint8_t verify;
	bool do_verify, verify_only, verify_fatal;
	uint8_t vpattern[SPEC_MAX_PATTERN];
	unsigned vpattern_len;
	unsigned verify_backlog;  /* check every N blocks written, 0 = at the end */
	uint32_t verify_interval; /* bytes per header within a block, 0 = the block */
	bool verify_dump;	  /* a bad block's data into files (io/feat/wverify.c) */
	/* fio's latency target (io/feat/lattarget.h): 0 = off; lat_pct is
	 * latency_percentile (100), lat_run latency_run */
	uint64_t lat_target_ns, lat_window_ns;
	double lat_pct;
	bool lat_run;
	uint64_t filesize[2]; /* fio's filesize=LOW[-HIGH] (io/feat/filesize.h), 0 = none */
	uint64_t number_ios;  /* fio's number_ios: a worker issues at most this many
			       * I/Os (x loops), then ends; 0 = no limit */
	/* fio's flow control between jobs (io/feat/flow.h): weight (0 = none), id,
	 * the sleep of a job held back */
	unsigned flow, flow_id;
	uint64_t flow_sleep_ns;
	/* fio's zonemode=strided (io/feat/zones.h, io/core/offgen.h): zone_size bytes of
	 * I/O in each zone of zone_range bytes (0: zone_size), then zone_skip
	 * further; zone_size 0 = no zones */
	enum { SPEC_ZONE_UNSET, SPEC_ZONE_NONE, SPEC_ZONE_STRIDED, SPEC_ZONE_ZBD } zone_mode;
	uint64_t zone_size, zone_range, zone_skip;
	/* fio's zonemode=zbd (io/feat/zbd.h): zonecapacity (0: zonesize), open
	 * zone limits (0: none), zone_reset_threshold/_frequency, and the
	 * "Nz" zone counts of size, offset and io_size (0: bytes given) */
	uint64_t zone_capacity;
	unsigned max_open_zones, job_max_open_zones;
	double zone_reset_threshold, zone_reset_frequency;
	bool read_beyond_wp;
	bool ignore_zone_limits; /* zonemode=zbd: the device's max open zones not applied */
	uint64_t size_nz, offset_nz, io_size_nz;
	bool log_offset; /* fio's log_offset: windowed logs' offset column (0, as fio) */
	/* fio's disable_slat (and gtod_reduce, which sets it): SPEC_SLAT_*;
	 * slat_percentiles: slat_ns with percentiles.  See spec_slat(). */
	uint8_t slat;
	bool slat_pct;
	/* last, and only [0, ntargets) set (spec_init zeroes the first only):
	 * 128 KiB that most specs - a preset's jobs, a plan's steps - do not
	 * use, so neither cleared nor read (SPEC_USED_SIZE) */
	char targets[NVS_MAX_TARGETS][256];
};
/* The bytes of @s that carry meaning: all but the targets past ntargets. */
/* Copies @src's meaningful bytes (SPEC_USED_SIZE) into @dst: where specs
 * are made by the hundred (a job file's sections) the unused targets are
 * neither read nor written. */
void spec_copy(struct spec *dst, const struct spec *src);
#define SPEC_USED_SIZE(s)                                                                          \
	(offsetof(struct spec, targets) + (size_t)((s)->ntargets ? (s)->ntargets : 1) * 256)
/* spec.slat: not given (nvscope's runs: slat not measured), disable_slat=0
 * (a fio job file's default: measured), disable_slat=1 */
enum { SPEC_SLAT_DEFAULT, SPEC_SLAT_ON, SPEC_SLAT_OFF };

/* Is slat measured?  Measuring it makes each submission its own
 * io_uring_enter (fio's commit), so a QD1 I/O costs two; unmeasured, the
 * enter that waits submits too (one per I/O).  Asked by disable_slat=0 (the
 * default of a fio job file, as in fio) or slat_percentiles=1; never with
 * disable_slat=1 (gtod_reduce=1 too) or sqthread_poll (fio's io_uring
 * engine turns it off there: the submission is a ring write). */
static inline bool spec_slat(const struct spec *s)
{
	return !s->sqpoll && s->slat != SPEC_SLAT_OFF && (s->slat == SPEC_SLAT_ON || s->slat_pct);
}

/* Fills @s with the defaults (randread 4k QD1, 1 job, direct, 1 s interval). */
void spec_init(struct spec *s);
/* Sets option @key (fio's name; '-' and '_' equal) to @val (may be NULL for
 * flags).  Returns 0, -ENOENT for an unknown key, -EINVAL for a bad value;
 * @err gets one line saying why. */
int opt_set(struct spec *s, const char *key, const char *val, char *err, size_t errlen);
/* Checks the whole spec for consistency.  0 or -EINVAL with @err set. */
int spec_validate(const struct spec *s, char *err, size_t errlen);
/* True when the workload writes (or may: a trace replay, read_iolog). */
bool spec_writes(const struct spec *s);
/* A stripe set's I/O that spans chunks is split, one part per chunk (md's
 * RAID 0 does the same): the parts an I/O of the job may need at most, from
 * its largest block size and any 512-byte aligned start (1 without a
 * stripe); refused past SPEC_STRIPE_PARTS. */
#define SPEC_STRIPE_PARTS 64u
unsigned spec_stripe_parts(const struct spec *s);

/* Block sizes: reads and writes at most SPEC_MAX_BS (their buffers);
 * trims, which carry no data, up to SPEC_MAX_TRIM_BS (fio's zone reset of
 * a whole 256 MiB zone: zbd-rand-write-trim-gc.fio). */
#define SPEC_MAX_BS	 (64u << 20)
#define SPEC_MAX_TRIM_BS (2u << 30)
/* NULL when the block sizes fit the rw= mode, else why not (a size above
 * SPEC_MAX_BS in a job that is not rw=trim or randtrim). */
const char *spec_bs_misfit(const struct spec *s);
/* The block sizes in fio's syntax into @buf: the option's name ("bs",
 * "bssplit" or "bsrange") is returned, the value ("4k", "8k,4k",
 * "4k/20:64k/80,8k", "4k-32k") written; -ENOSPC never: cut values end
 * in "..." only past 256 bytes, which 16 sizes do not reach. */
const char *spec_fmt_bs(const struct spec *s, char *buf, size_t len);
/* Human name of @rw ("randread"). */
const char *spec_rw_name(enum spec_rw rw);
/* The rw value @name ("randread"...) as enum spec_rw, -1 when none. */
int spec_rw_parse(const char *name);
/* Parses "4k", "1M", "512", "1g" (binary units, fio style) into bytes.
 * Returns 0 or -EINVAL. */
/* fio's booleans: 1/0, true/false, yes/no, on/off; empty (a bare flag) is
 * true.  0 or -EINVAL. */
int spec_parse_bool(const char *v, bool *out);
int spec_parse_size(const char *str, uint64_t *out);
/* Parses "30", "30s", "500ms", "2m", "1h" into ns.  0 or -EINVAL. */
int spec_parse_time(const char *str, uint64_t *out_ns);
/* Writes "4k", "128k", "1m" for @bytes into @buf. */
const char *spec_fmt_size(uint64_t bytes, char *buf, size_t len);

#endif

/* run.h - running a check profile on a batch of drives: phase by phase
 * (health, self-test, each job in order, health again), every phase on all
 * drives at once, one thread (and one worker group) per drive, so that
 * siblings are measured side by side.  Then judge_batch().
 *
 * Threads: check_run() blocks; it starts one thread per drive per phase
 * and calls @tick about 5 times a second from the calling thread.  A
 * drive's progress (phase, percent) is atomic and may be read from any
 * thread; everything else of a drive is read after check_run returns. */
#ifndef NVS_CHECK_RUN_H
#define NVS_CHECK_RUN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "check/judge.h"
#include "check/profile.h"

/* Figures of one job on one drive (beside judge_job). */
struct check_jobres {
	double iops, mbps; /* reads + writes */
	double lat_mean_us, lat_p99_us;
	double seconds;
	uint64_t bytes;
};

struct check_drive {
	/* identity (filled by the caller: check_drive_identify) */
	char path[256]; /* the I/O target: namespace block device or other */
	char ctrl[64];	/* NVMe controller node ("/dev/nvme0"), "" otherwise */
	bool nvme;
	char serial[64]; /* NVMe serial; the device name for other devices */
	char model[64];
	char firmware[16];
	uint64_t capacity;
	bool write_ok; /* the caller checked the confirmation for this drive */
	/* results */
	struct judge_input in;
	struct check_jobres res[JUDGE_MAX_JOBS];
	struct judge_verdict verdict;
	double started, finished; /* unix time */
	/* live progress */
	_Atomic int phase; /* CHECK_PHASE_* or CHECK_PHASE_JOB + job index */
	_Atomic int permille;
	/* a drive that completed no I/O for the profile's stall_timeout while
	 * some was outstanding is not responding: its job is stopped (@cancel,
	 * which also follows the batch's), its later phases are not run, and
	 * its verdict is FAIL, never PASS; the other drives go on */
	_Atomic int cancel;
	_Atomic bool stalled;
};

enum {
	CHECK_PHASE_WAIT,
	CHECK_PHASE_HEALTH,
	CHECK_PHASE_SELFTEST,
	CHECK_PHASE_HEALTH_END,
	CHECK_PHASE_DONE,
	CHECK_PHASE_JOB
};

struct check_batch {
	const struct check_profile *prof;
	struct check_drive *d;
	size_t n;
	bool force;		   /* write over a signature (--force-destroy) */
	const _Atomic int *cancel; /* stops the run when non-zero (may be NULL) */
	const char *dir;	   /* results directory for the run data, or NULL */
	bool cancelled;		   /* out: stopped by @cancel */
	_Atomic int phase;	   /* the phase running now (CHECK_PHASE_*) */
	unsigned round;		   /* a performance phase: its round running now */
	/* resume: steps are the phases in order (check_steps); check_run starts
	 * at next_step (0: a new batch) and counts it up after each finished
	 * step, calling @checkpoint (may be NULL) then */
	unsigned next_step;
	void (*checkpoint)(struct check_batch *b, void *arg);
	void *checkpoint_arg;
	/* out: the first results file that could not be written or was refused
	 * (-errno, 0: none) and why; set by check_out_fail, read after check_run */
	_Atomic int out_rc;
	char out_err[512];
};

/* Fills @d's identity for @path from the device list @l (a dev_list *,
 * declared void * to keep devmodel out of callers that need not see it):
 * serial/model/firmware of the controller for NVMe, name/driver for other
 * devices.  0, -ENOENT (not found in @l) with @err. */
int check_drive_identify(struct check_drive *d, const char *path, const void *l, char *err,
			 size_t errlen);
/* Runs the profile on every drive, then judges.  Verify jobs run only on
 * drives with write_ok (the others get "not confirmed": refused).  Returns
 * 0, or -errno when a thread could not be started. */
int check_run(struct check_batch *b, void (*tick)(const struct check_batch *b, void *arg),
	      void *arg);
/* The phases of profile @p in order into @steps (at most 3 + JUDGE_MAX_JOBS);
 * returns how many. */
unsigned check_steps(const struct check_profile *p, int *steps);
/* Name of phase @phase ("health", "perf-4k-randread"): b->phase, or a
 * drive's. */
const char *check_phase_name(const struct check_batch *b, int phase);
/* Records that a results file of @b could not be written (@rc, -errno) with
 * @msg, when it is the first such error; safe from the drives' threads. */
void check_out_fail(struct check_batch *b, int rc, const char *msg);
/* @b->dir/SERIAL, the directory of drive @d's files.  0, or -ENAMETOOLONG
 * when it does not fit @len. */
int check_drive_dir(const struct check_batch *b, const struct check_drive *d, char *buf,
		    size_t len);
/* Longest results path nvscope check builds. */
#define CHECK_PATH_MAX 4096
/* A safe directory name for a serial (A-Z a-z 0-9 . _ -, others '_'). */
void check_safe_name(const char *serial, char *buf, size_t len);

#endif

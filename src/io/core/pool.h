/* pool.h - the worker thread pool: one job (a spec at one queue depth) over
 * one or more targets; each worker owns one io_uring and one sample ring.
 *
 * Life cycle (all calls from one controlling thread, e.g. the UI thread):
 *   pool_new -> pool_start -> { pool_drain ... } until !pool_running
 *   -> pool_join -> pool_result -> pool_free.
 * pool_stop may be called at any time (it only sets an atomic flag). */
#ifndef NVS_POOL_H
#define NVS_POOL_H

#include <stdbool.h>
#include <stdint.h>
#include "io/trace/replay.h"
#include "io/core/datagen.h"
#include "io/opt/spec.h"
#include "io/core/target.h"
#include "stats/result.h"
#include "stats/sample.h"

struct pool;

/* Validates @s, opens its targets (safety rules for writes included) and
 * prepares numjobs workers per target at queue depth @iodepth (0 = the
 * spec's first).  No thread runs yet.  Returns 0 with *@out owned by the
 * caller, or -errno with one line in @err: -EINVAL bad spec, -EPERM refused
 * for safety, other -errno from open/io_uring setup. */
int pool_new(const struct spec *s, unsigned iodepth, struct pool **out, char *err, size_t errlen);
/* pool_new() for one job of a run group that starts together: the devices
 * it writes are claimed through @claims (dev/safety.h, safety_claims_open:
 * claimed and judged once for the group, each job writing a device gets
 * its own open of the judged file).  The caller frees @claims after
 * every pool of the group.  @claims NULL is pool_new(). */
struct safety_claims;
int pool_new_claims(const struct spec *s, unsigned iodepth, struct safety_claims *claims,
		    struct pool **out, char *err, size_t errlen);
/* The job's place among the jobs of its run (io/core/datagen.h: fio's thread
 * numbers, the run's data seed), before pool_start; a pool not told is
 * a job run alone. */
void pool_set_place(struct pool *p, const struct datagen_place *pl);
/* Stops and joins any running worker, closes targets, frees.  NULL-safe. */
void pool_free(struct pool *p);
/* Starts the worker threads; the clock of the job starts here.  0 or -errno
 * (a worker that fails to set up its ring reports through pool_error). */
int pool_start(struct pool *p);
/* pool_start() in two steps, for jobs that start together (fio's
 * run_threads: every job of a run group set up, then all released at
 * once): pool_launch starts the threads and waits until each has set up
 * (0 or -errno as pool_start; on an error its workers will stop); then
 * pool_go, which must follow every pool_launch (its workers wait for it),
 * starts the clock of the @n pools @ps at one instant and lets them run. */
int pool_launch(struct pool *p);
void pool_go(struct pool *const *ps, unsigned n);
/* A gate the process's next pool_go waits at, once (then it is gone): the
 * far end of `nvscope run` over hosts (cmd/hostrun.c) sets it so that the
 * first job of the run starts when the client says go, on every host at
 * once, after every target was opened and judged.  @fn runs in the thread
 * calling pool_go, with the pools launched (set up, waiting).  NULL: none. */
void pool_set_gate(void (*fn)(void *arg), void *arg);
/* Asks every worker to finish its in-flight I/O and stop.  Async, idempotent. */
void pool_stop(struct pool *p);
/* True while any worker still runs. */
bool pool_running(const struct pool *p);
/* Waits for every worker to end. */
void pool_join(struct pool *p);
/* Pops every sample available in the workers' rings, in ring order, calling
 * @fn for each.  Consumer side: one thread only.  Returns the count.  Also
 * reaps the workers that ended (fio's reap_threads): they leave their flow
 * (fio's flow_exit_job), as pool_join does for the rest. */
size_t pool_drain(struct pool *p, void (*fn)(const struct sample *s, void *arg), void *arg);
/* After pool_join: final figures of target @t, or of all when @t < 0.
 * Returns 0, -EINVAL for a bad index. */
int pool_result(const struct pool *p, int t, struct result *out);
/* After pool_join: the figures of fio's copy @c of the job (numjobs=N runs
 * N copies, fio's clones: worker g * N + c of each target g), of target @t
 * or of all when @t < 0; numjobs is 1 in them.  0, -EINVAL for a bad index
 * or a trace replay (its copies: pool_copy). */
int pool_clone_result(const struct pool *p, unsigned c, int t, struct result *out);
/* The copy (0 .. numjobs - 1) worker @w belongs to. */
unsigned pool_worker_clone(const struct pool *p, unsigned w);
/* First setup or I/O error of the job as -errno (0 if none), with a message. */
int pool_error(const struct pool *p, char *msg, size_t len);

unsigned pool_nworkers(const struct pool *p);
/* Targets reported separately: the spec's, or 1 for a fio file set
 * (filename=a:b is one job; pool_target still reaches every file). */
unsigned pool_ntargets(const struct pool *p);
unsigned pool_iodepth(const struct pool *p);
/* Target of the spec at index @i (opened, with size and block size). */
const struct target *pool_target(const struct pool *p, unsigned i);
/* Target index that worker @w drives (0 for a stripe set). */
unsigned pool_worker_target(const struct pool *p, unsigned w);
/* Samples dropped so far on full rings, all workers. */
uint64_t pool_dropped(const struct pool *p);
/* ns since pool_start; and the planned length (ramp + runtime, 0 = by size). */
uint64_t pool_elapsed_ns(const struct pool *p);
uint64_t pool_planned_ns(const struct pool *p);
/* Trace replay (read_iolog): the trace, NULL when the job has none; and
 * after pool_join, copy @c's figures (worker @c: one per trace copy).
 * 0, or -EINVAL without a trace or for a bad index. */
const struct trace *pool_trace(const struct pool *p);
int pool_copy(const struct pool *p, unsigned c, struct result *res, const struct replay_stats **ts);

#endif

/* planexec.h - a test plan run by the console: the plan loaded and checked on
 * the UI thread, then planrun_run() (src/run/planrun.h) in a background
 * thread of its own.  The thread never touches ncurses; the UI follows it by
 * reading the results directory it writes (planview.h).  The only data
 * shared with the thread are two C11 atomics: the stop flag (UI -> thread)
 * and the done flag (thread -> UI); the exit status is read after the join.
 * All calls from the UI thread. */
#ifndef NVS_RUN_PLANEXEC_H
#define NVS_RUN_PLANEXEC_H

#include <stdbool.h>
#include <stddef.h>

struct planexec;

/* Loads plan @name (a file or a name in presets/plans) for the @n targets
 * @targets.  0 with *@out (free with planexec_free), or -ENOENT / -EINVAL /
 * -ENOMEM with one line in @err. */
int planexec_new(const char *name, const char *const *targets, unsigned n, struct planexec **out,
		 char *err, size_t errlen);
/* NULL-safe.  Stops and joins a running plan first. */
void planexec_free(struct planexec *pe);
/* Applies a duration override (key of plan_override: runtime, round,
 * max_rounds, fill, iodepth, window, range, slope, ramp_time).  0 or
 * -errno with @err. */
int planexec_override(struct planexec *pe, const char *key, const char *val, char *err,
		      size_t errlen);
/* The plan's name and whether it purges or writes. */
const char *planexec_name(const struct planexec *pe);
bool planexec_destroys(const struct planexec *pe);
/* Whether the comma list @confirm (--yes-destroy-data) confirms every
 * target; when not, @need gets what the first unconfirmed target needs
 * typed (its path, or the NVMe controller's serial) and @target its path. */
bool planexec_confirmed(const struct planexec *pe, const char *confirm, char *need, size_t nlen,
			char *target, size_t tlen);
/* Creates results directory @dir (must be empty or absent; NULL: the
 * default results/PLAN-DATE-TIME) with plan.ini, VERSION, meta.json and
 * state.json, locks it, sends stderr to DIR/plan.log while the plan runs
 * (the terminal belongs to ncurses) and starts the thread.  @confirm: the
 * confirmation list for planrun; @force: write over signatures.  0 or
 * -errno with @err (nothing started). */
int planexec_start(struct planexec *pe, const char *dir, const char *confirm, bool force, char *err,
		   size_t errlen);
/* True from the start until the thread has returned. */
bool planexec_running(const struct planexec *pe);
/* Asks the plan to stop (the state stays resumable). */
void planexec_stop(struct planexec *pe);
/* Joins the ended (or stopping) thread, restores stderr and writes
 * meta.json's final status.  Returns planrun_run's result (0 or -errno;
 * -EINVAL when never started); again after the first call: the same. */
int planexec_finish(struct planexec *pe);
/* The plan's in-memory feed of rows (struct planrun_pt, planrun.h): an SPSC
 * ring the plan's thread pushes into and the UI thread alone pops; NULL
 * when it could not be allocated. */
struct spsc *planexec_feed(const struct planexec *pe);
/* True once planexec_finish joined the thread, with its result in *@rc. */
bool planexec_ended(const struct planexec *pe, int *rc);
/* Target @i of the plan, NULL past the last. */
const char *planexec_target(const struct planexec *pe, unsigned i);
/* The results directory ("" before the start). */
const char *planexec_dir(const struct planexec *pe);
/* The command that resumes it (planrun_resume_cmd): with the typed
 * confirmation a plan that destroys data needs.  0 or -ENOSPC. */
int planexec_resume_cmd(const struct planexec *pe, char *buf, size_t len);

/* For plansrc.c's source_plan(): the started plan of @p, which is freed
 * (planstart.c). */
struct source_pending;
struct planexec *source_pending_take(struct source_pending *p);

#endif

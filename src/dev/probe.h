/* probe.h - looking at devices that are not the target without letting
 * one that stalls block the program (docs/safety.md, "Rule: a stalled
 * device blocks nothing").  The Devices pane and `nvscope list` open
 * every block device and probe it with libblkid; a read of a device that does not answer sleeps in
 * the kernel uninterruptibly (D state), and neither --runtime, Ctrl-C nor SIGKILL end it.  So each
 * probe runs in a helper process of its own (a child stuck in D state is left behind and the
 * parent goes on and exits normally; a stuck thread would keep the whole process from exiting),
 * and the caller waits for the answer at most a deadline.  A device that has not answered is
 * "not responding": its usage is unknown, and unknown counts as in use (never a free row, never
 * written).
 *
 * The helpers' parent is this same program started afresh, once per call:
 * posix_spawn() of /proc/self/exe with the hidden argument PROBE_HELPER_ARG
 * and the paths, which main() hands to probe_helper_main() first thing
 * (nvscope's and the unit-test runner's).  Not a fork() of the caller: the
 * console has threads, and a forked child inherits the locks the other
 * threads held at that moment (under ASan a child deadlocked on the
 * allocator's lock, holding the loop devices it had opened).  The parent
 * has one thread, so it forks one helper per device itself (starting a
 * program costs tens of ms of CPU, 100+ under ASan; a fork, one), reaps
 * them and ends after the last.  /proc/self/exe is the running binary even
 * when its file was replaced since, so the answer's layout is the caller's.
 * The parent starts in a process group of its own with the terminating
 * signals blocked, ignores them before unblocking them (its helpers
 * inherit both), gets the answer pipes on PROBE_FD.. and no other
 * descriptor (the spawn closes the rest, 0-2 included); each helper keeps
 * only its own pipe (it holds no O_EXCL claim, ring or terminal of the
 * caller while it is stuck), says "started", calls only safety_usage() and
 * _exit()s.  It is never killed (nor ended by Ctrl-C): a reader killed out
 * of a stalled device can make the last close of it, which waits for the
 * device with its open mutex held, and every later open of the device
 * would hang.
 *
 * Thread-safe: a small table (under a mutex) remembers helpers that did not
 * answer.  While a device's helper is still stuck, asking about that device
 * again answers "not responding" at once, without a new helper; once the
 * helper has answered (late), that answer is used: a rescan fills the
 * device in. */
#ifndef NVS_DEV_PROBE_H
#define NVS_DEV_PROBE_H

#include <stdbool.h>
#include <stddef.h>

struct dev_usage;

/* The deadline of the command-line tools: 2 s (docs/safety.md). */
#define PROBE_DEADLINE_MS 2000

/* Fills *@u[i] for @paths[i] (i < @n) as safety_usage() would, in helper
 * processes run side by side, waiting for each at most @deadline_ms from
 * the moment it started (it says so first: a machine too loaded to run it
 * at once does not make a device "not responding"; one that has not even
 * started after 10 s more is given up as well).  A device whose helper has not answered by then gets u->unknown
 * with u->why = "not responding (no answer in 2 s)".  Where no helper can
 * be started (out of processes or memory) the device is unknown as well
 * ("not probed: REASON"): it is never probed in the program itself. */
void probe_usage_many(const char *const *paths, struct dev_usage *const *u, size_t n,
		      unsigned deadline_ms);
/* The same, calling @answered(@ctx, i) on the calling thread as soon as
 * *@u[i] holds its final reading (an answer, "not responding" or "not
 * probed"), each i once: a caller can show every device as it comes. */
typedef void (*probe_answered_fn)(void *ctx, size_t i);
void probe_usage_each(const char *const *paths, struct dev_usage *const *u, size_t n,
		      unsigned deadline_ms, probe_answered_fn answered, void *ctx);
/* The same for one path, with PROBE_DEADLINE_MS. */
void probe_usage(const char *path, struct dev_usage *u);
/* Is @u the reading of a device that did not answer? */
bool probe_not_responding(const struct dev_usage *u);
/* Helpers that have not answered yet (devices still not responding). */
unsigned probe_pending(void);
/* A reading that is not there yet (a scan under way): unknown, so in use,
 * with the reason "probing: no answer yet"; and the test for it. */
void probe_mark_pending(struct dev_usage *u);
bool probe_is_pending(const struct dev_usage *u);

/* The hidden argument that makes the program a probe helper. */
#define PROBE_HELPER_ARG "--nvscope-probe-helper"
/* The first answer pipe of the helpers' parent (PATH i's: PROBE_FD + i). */
#define PROBE_FD 3
/* First thing in main() of every program that probes: when @argv is the
 * helpers' parent's ("PROG PROBE_HELPER_ARG PATH..."), probes each PATH in
 * a helper of its own, the answers to PROBE_FD + i (each must be a pipe:
 * run by hand it does nothing), and _exit()s once every helper has; returns
 * at once otherwise. */
void probe_helper_main(int argc, char **argv);

#endif

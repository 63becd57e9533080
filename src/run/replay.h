/* replay.h - a results directory written by a console run, played back
 * (`nvscope replay DIR`): samples.csv, the per-target target-N.csv named in
 * targets.txt, and the per-step rows of summary.json (fio layout) for the
 * per-QD table; a play position the console moves.  The console reads it
 * through its source table (source.h).  UI thread only. */
#ifndef NVS_RUN_REPLAY_H
#define NVS_RUN_REPLAY_H

#include <stddef.h>
#include "run/resdir.h"
#include "stats/series.h"

/* Reads DIR/summary.json: one row per job.  *@rows is malloc'ed (caller
 * frees).  Returns the count, or -errno (-ENOENT: no summary, -EINVAL: not
 * the expected JSON, with @err set). */
int replay_qd_rows(const char *dir, struct resdir_row **rows, char *err, size_t errlen);

struct replay;
struct source;
/* Reads results directory @dir (samples.csv must hold samples; targets and
 * summary.json are optional).  0 with *@out (replay_free), or -errno with
 * @err. */
int replay_open(const char *dir, struct replay **out, char *err, size_t errlen);
/* A replay of series @agg (its points are taken over; @agg is left empty),
 * shown as @title, without targets or rows: a finished plan's steps played
 * one after another (ui/planui.c).  0 with *@out, or -ENOMEM. */
int replay_from_series(const char *title, struct series *agg, struct replay **out);
/* Replaces the per-QD rows by @rows (malloc'ed, taken over; NULL: none). */
void replay_set_rows(struct replay *r, struct resdir_row *rows, int n);
/* The step shown in the title (" step 2/4 precondition x") and its kind
 * ("precondition"); copied. */
void replay_set_step(struct replay *r, const char *step, const char *kind);
/* NULL-safe. */
void replay_free(struct replay *r);
/* The play position and the last sample's time, in seconds. */
double replay_time(const struct replay *r);
double replay_end(const struct replay *r);
/* Moves the play position to @t, clamped to [0, end]. */
void replay_seek(struct replay *r, double t);
/* Every frame: moves the play position by @dt seconds times the speed
 * unless paused; at the end it pauses.  True when what is shown changed
 * (a sample more or less, paused or not). */
bool replay_play(struct replay *r, double dt);
/* Pauses (@pause 1), plays (0) or toggles (-1); playing at the end plays
 * from the start. */
void replay_pause(struct replay *r, int pause);
bool replay_paused(const struct replay *r);
/* Multiplies the play speed by @f, kept within 0.25 .. 4096 (1 at first). */
void replay_speed(struct replay *r, double f);
double replay_speed_of(const struct replay *r);
/* The console's view of @r (source.h): series, rows, the health readings
 * (health.csv), the step markers (events.log), a plan step's rounds
 * (rounds.csv, steady.json), the play controls; freeing the source frees
 * @r. */
void replay_source(struct replay *r, struct source *out);

#endif

/* app.h - the console's state, shared by its modules: console.c (loop,
 * terminal, actions), keys.c (key bindings), panes.c (what each pane draws)
 * and draw.c (widgets).  Everything here belongs to the UI thread, the only
 * thread that calls ncurses. */
#ifndef NVS_UI_APP_H
#define NVS_UI_APP_H

#include <curses.h>
#include <stdarg.h>
#include <stdbool.h>
#include "config/preset.h"
#include "config/settings.h"
#include "dev/devmodel.h"
#include "io/opt/spec.h"
#include "stats/collect.h"
#include "stats/cpu.h"
#include "ui/axis.h"
#include "ui/braille.h"
#include "ui/checkui.h"
#include "ui/devrows.h"
#include "ui/draw.h"
#include "ui/evlist.h"
#include "dev/devscan.h"
#include "dev/healthset.h"
#include "ui/healthui.h"
#include "ui/layout.h"
#include "ui/pane.h"
#include "ui/purgeui.h"
#include "run/source.h"
#include "ui/rounds.h"
#include "ui/theme.h"

enum prompt {
	PROMPT_NONE,
	PROMPT_QUIT,	/* y/n */
	PROMPT_DESTROY, /* type the device path to confirm */
	PROMPT_PATH,	/* a file or device path to add as a target */
	PROMPT_FIELD,	/* a value of the custom workload form */
	PROMPT_STOP,	/* y/n: stop the running plan */
	PROMPT_ASK,	/* y/n: showfloor mode asks before an A_ASK action (keys.c) */
};

#define FORM_NFIELDS 10

struct form_field {
	const char *key; /* opt_set key */
	const char *label;
	char val[64];
};

/* A button of the key bar (status line): @key then @what; a click runs
 * @code (a character, or -KEY_*), or @code2 when on @key's second character
 * ("+-": zoom in / out). */
struct keybtn {
	const char *key, *what;
	int code, code2;
};
#define KEYS_BAR_MAX 12

/* the theme and its list (theme.c) */
struct ui_look {
	struct theme theme;
	char theme_dir[512];
	char **theme_names;
	int ntheme, theme_idx;
	bool active; /* the terminal is the console's: colours can be set */
};

/* the screen: its panes, their windows and dirty marks (layout.c, console.c) */
struct ui_screen {
	int cols, rows;
	bool too_small;
	enum layout_screen screen;
	struct layout lay;
	WINDOW *win[PANE_COUNT];
	bool dirty[PANE_COUNT];
	WINDOW *input, *overlay;
	int focus;		   /* PANE_DEVICES, PANE_LAUNCH or PANE_FORM */
	int bar_end[KEYS_BAR_MAX]; /* x after each key-bar button drawn */
	int nbar;
	bool help;
};

/* the Devices pane (devrows.c, actions.c); the list is filled in by the
 * device scan on its own thread (dev/devscan.h), taken each loop turn */
struct ui_devpane {
	struct dev_list *devs; /* NULL until the first scan listed the devices */
	struct devrow *drows;
	int ndrows, dev_cur, dev_top;
	struct devscan *scan;	    /* the scan under way, NULL when none */
	bool scanning;		    /* the first scan is to come or under way: not
				     * every device and mark is in yet */
	bool scan_again;	    /* asked for while one ran: another at its end */
	bool scan_say;		    /* `r`: say "rescanned: N devices" at its end */
	struct source_hosts *hosts; /* other hosts watched (--host), NULL: none */
	unsigned long hosts_sig;    /* what their lines showed at the last rebuild */
	bool hosts_folded;	    /* `o`: each host one line, its drives hidden */
};

/* the Launch pane: presets and plans */
struct ui_launchpane {
	struct preset_info *presets;
	size_t npresets;
	int pre_cur, pre_top;
	bool jump;		   /* `/` typed in Presets: the next letter jumps */
	struct preset_info *plans; /* presets/plans/ for the Launch pane */
	size_t nplans;
	/* the plans are listed after the first frame (each is parsed to know
	 * whether it writes: the most of the console's start-up work) */
	bool plans_pending;
};

/* the custom workload form (panes.c) */
struct ui_form {
	struct form_field form[FORM_NFIELDS];
	int form_cur;
};

/* The answer to the destroy dialog, to whoever opened it (app_ask_token):
 * @ok when the typed token matched. */
struct app;
typedef void (*app_answer_fn)(struct app *a, bool ok);

/* the prompt: a line editor in the status bar (keys.c) */
struct ui_prompt {
	app_answer_fn answer; /* PROMPT_DESTROY: who asked */
	enum prompt prompt;
	char prompt_text[256];
	char confirm[512];	  /* what the destroy confirmation is about */
	const char *confirm_head; /* its box's first line; NULL: a workload's */
	char edit[256];
	int edit_len;
};

/* the status-line message (actions.c) */
struct ui_msgs {
	char msg[256];
	int msg_role;
	double msg_until;
	bool msg_event; /* the message shown is an event (app_event) */
	bool urgent;	/* the events posted now are shown at once (a run's end) */
};

/* launching workloads: the options given, the jobs waiting for their typed
 * confirmation, the runs started */
struct ui_launch {
	char results_dir[512]; /* --results, "" = default per run */
	struct spec base;      /* workload options given on the command line */
	struct spec *pending;  /* jobs waiting for the destroy confirmation */
	unsigned npending;
	char pending_name[64];
	char pending_path[256]; /* the token to type (safety_confirm_token) */
	unsigned pending_next;	/* first target still to confirm */
	char pending_log[1024]; /* overrides, for events.log once started */
	char run_name[64];
	unsigned nruns;	 /* runs started so far (results directory names) */
	bool run_writes; /* the workload writes: rescan the devices at its end */
	/* the workload's targets pinned by identity from before their check
	 * to the run's end (dev/safety.h): what is written is what was
	 * checked and confirmed */
	char pinned[NVS_MAX_TARGETS][256];
	unsigned npinned;
	/* the workload given on the command line: launched once the first
	 * device scan has ended (a scan under it would read its targets, and
	 * none runs while it does: the Devices pane would stay empty) */
	struct spec *cli_jobs;
	unsigned ncli;
	char cli_name[64];
};

/* showfloor (a trade-show booth: big figures, fat strips, the actions
 * marked A_LOCK in the key table refused, A_ASK ones asked) and the demo
 * (keys.c, console.c) */
struct ui_floor {
	bool showfloor;
	int asked_action; /* showfloor: the action asked about (y/n), -1 none */
	int cur_key;	  /* the key running the current action (keys.c) */
	bool demo;
	int demo_idx;
	double demo_next;
};

/* CPU (console.c, tables.c) */
struct ui_cpu {
	struct cpu *cpu;
	double cpu_next;
	double ui_cpu;	 /* this (UI) thread's CPU over the last second, % */
	double ui_cpu_s; /* its CPU time at the last reading, s */
};

/* the health strip's readers (console.c, strips.c) */
struct ui_health {
	struct healthset *hset; /* health readers of the running targets' controllers */
	char health_path[256];	/* the first one's: the strip's temperature */
	double thm_base;
	bool thm_base_valid;
};

/* steady state (steadyview.c, rounds.h) */
struct ui_steady {
	struct steady_params ss;
	bool ss_given;	      /* --window/--range/--slope: not from a plan */
	double round_s;	      /* round length, s */
	bool steady_on;	      /* the display under the IOPS strip */
	struct rounds rounds; /* the rounds shown */
	struct steady_view sv;
	double ss_origin; /* start of the rounds: the current step's start */
	bool was_left;
	size_t ss_n;		   /* points of the series at the last steady_update */
	struct steady_ovpt *ovbuf; /* the overlay's points, grown as needed */
	size_t ovcap;
};

/* a plan loaded and waiting for its typed confirmation (planui.c); once
 * started, the plan source (app.src) owns it */
struct ui_planwait {
	struct source_pending *loaded; /* a plan loaded, not started */
	char plan_name[64];
	char plan_target[256];
	char plan_confirm[256]; /* --yes-destroy-data list */
	bool pending_plan;	/* the destroy confirmation is for a->pl.loaded */
};

/* the event list (evlist.h; key E) and its view (evview.c); each event
 * also goes to the run's events.log through the source's note() */
struct ui_events {
	struct evlist *list;
	bool on;     /* shown */
	size_t back; /* scrolled back: newest events hidden below */
};

/* the views over the screen, each behind its own module; NULL when not
 * shown */
struct ui_views {
	struct checkui *chk;   /* the check view (checkui.c) */
	struct purgeui *purge; /* the purge menu and a running purge (purgeui.c) */
	struct healthui *hui;  /* the per-drive health view (healthui.c, key H) */
};

/* The console's state: one part per concern above, each read and written
 * by the modules named with it; the source shown; the views over the
 * screen (check, purge, health), each behind its own module. */
struct app {
	struct ui_look look;
	struct ui_screen scr;
	struct ui_devpane dev;
	struct ui_launchpane lp;
	struct ui_form fm;
	struct ui_prompt pr;
	struct ui_msgs mq;
	struct ui_launch run;
	struct ui_view view;
	struct ui_floor fl;
	struct ui_cpu cp;
	struct ui_health hl;
	struct ui_steady st;
	struct ui_planwait pl;
	struct paint paint; /* what the widgets draw with (draw.h) */
	/* what is shown (run/source.h): set when that changes, never chosen
	 * again in a getter */
	struct source src;
	struct ui_events ev;
	/* settings.ini as read (remember.c), saved on quit; NULL: --no-settings */
	struct settings *remembered;
	struct ui_views vw;
	double now; /* monotonic seconds, this frame */
	bool quit;
};

/* ---- core.c (the messages, the dirty marks, the source shown) and
 * actions.c (devices, launching) ---- */
/* Shows @fmt in the status bar for a few seconds in colour @role. */
void app_message(struct app *a, int role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An event: shown in the status bar, kept in the event list (a->ev.list)
 * with its time and appended to the run's events.log (the plan's or the
 * workload's; none in a replay). */
void app_event(struct app *a, int role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Starts preset @idx (of a->lp.presets) on the marked targets. */
void app_launch_preset(struct app *a, int idx);
/* Starts @n jobs (malloc'ed, ownership taken) named @name, after the
 * write-safety check (which may ask for a typed confirmation first). */
void app_launch_jobs(struct app *a, struct spec *jobs, unsigned n, const char *name);
/* Starts the custom workload form on the marked targets. */
void app_launch_form(struct app *a);
/* Releases the pins of the workload's targets (its end, a refusal, the
 * console's end). */
void app_unpin(struct app *a);
/* Answer to the destroy dialog: handed to whoever opened it (never
 * forced by it). */
void app_confirm_destroy(struct app *a, bool ok);
/* The console's write-safety check of target @t (docs/safety.md): 0 when it
 * may be written; else -errno and @msg (for data: that the typed token does
 * not override it, --force-destroy on the command line does).  A signature
 * overridden by --force-destroy appends an "override: ..." line to @log. */
int app_write_check(struct app *a, const char *t, char *msg, size_t len, char *log, size_t loglen);
/* Does writing @t need the typed token?  Block devices and NVMe nodes. */
bool app_needs_token(const char *t);
/* Opens the one destroy dialog for @target ("@what @target: everything on
 * it is lost."): type its token (the serial for NVMe, the path otherwise,
 * safety_confirm_token), kept in a->run.pending_path. */
void app_ask_token(struct app *a, const char *what, const char *target, app_answer_fn answer);
/* The opt_set key of form field @f for its current value (bs or bssplit). */
const char *form_key(const struct form_field *f);
/* The opt_set value of form field @f: the engine field's "passthrough"
 * is io_uring_cmd; every other value as it is. */
const char *form_value(const struct form_field *f);
/* The device scans of the console wait at most this long for the devices'
 * marks: one that has not answered shows "not responding" and is filled
 * in by the rescans of tick() (dev/probe.h).  Every scan runs on its own
 * thread (dev/devscan.h): the screen never waits for one. */
#define APP_PROBE_MS 1000
/* Starts a scan of the devices (the rows and marks are kept until its list
 * comes); one under way already is followed by another.  @progressive:
 * the console's first scan, shown as it fills in ("scanning..."). */
void app_scan(struct app *a, bool progressive);
/* Rescans devices, keeping the marks (app_scan, not progressive). */
void app_rescan(struct app *a);
/* Takes what the scan under way has found (each loop turn): the rows are
 * rebuilt from its newest list; at its end the next one asked for starts. */
void app_scan_poll(struct app *a);
/* Whether writing @path must wait for the scan: its row (or, before the
 * devices are listed, any row) has no answer from its probe yet, so its
 * use is unknown.  Says so in the status bar (@what: "purge", ...). */
bool app_probing(struct app *a, const char *path, const char *what);
/* Polls the other hosts (--host; each loop turn, never waits): their
 * events into the event list, their lines and drives into the rows. */
void app_hosts_poll(struct app *a);
/* `o`: the other hosts folded to one line each, or unfolded. */
void app_hosts_fold(struct app *a);
/* Row @r is a host's line or another host's drive: says that @what is not
 * done from this console for it (true), else false. */
bool app_remote_row(struct app *a, const struct devrow *r, const char *what);
/* Adds @path as a target row (a file or a device not listed) and marks it. */
int app_add_target(struct app *a, const char *path);
/* The same for @n paths at once (the rows rebuilt once); an empty or too
 * long path is left out and its error returned. */
int app_add_targets(struct app *a, const char *const *paths, unsigned n);
/* ---- look.c ---- */
/* Loads theme number @idx of the theme list (-1: by the name in @name)
 * and, once the terminal is the console's, applies it. */
int app_set_theme(struct app *a, int idx, const char *name, char *err, size_t len);
/* Lists the theme files and loads @name (NULL: "default", or the built-in
 * one when there are none).  0 or -errno with @err. */
int look_init(struct app *a, const char *name, char *err, size_t len);
/* The theme's roles as curses attributes and colour pairs in the painter
 * (the terminal must be the console's: a->look.active). */
void look_apply(struct app *a);
/* Marks every pane for redrawing. */
void app_dirty_all(struct app *a);
/* Whether a workload or plan of this console runs now. */
bool app_running(const struct app *a);
/* What the panes read (run/source.h): a->src, and its info. */
struct source app_source(const struct app *a);
void app_source_info(const struct app *a, struct source_info *out);
/* Shows @src from now on (the one that was shown is freed): a run, a
 * plan or a directory played; what was derived from the old one (rounds,
 * verdict, health readers, the time window) starts over. */
void app_show_source(struct app *a, struct source src);
/* The plan shown (NULL: none) and its state: the step shown (live: the
 * plan's current one; a plan replay: the one at the play position),
 * whether the plan is over there. */
const struct plan *app_plan(const struct app *a, struct source_plan_state *st);
/* Whether the source shown has capability @cap (SOURCE_CAN_*,
 * SOURCE_VIEW_ONLY, SOURCE_HAS_STEPS). */
bool app_can(const struct app *a, unsigned cap);
/* The series drawn: aggregate (@t < 0) or target @t, live or replayed
 * (replay: truncated at the play position).  Never NULL. */
const struct series *app_series(struct app *a, int t);
/* Series groups: the targets, or the copies of a trace storm. */
unsigned app_ntargets(const struct app *a);
/* The copies of a trace storm shown (live or replayed), 0 when not one. */
unsigned app_copies(const struct app *a);
/* Rows of the per-QD table of the source shown. */
unsigned app_nrows(const struct app *a);
/* Path of target @t of the run (live or replayed); "" when unknown. */
const char *app_target_name(const struct app *a, unsigned t);
/* The shown time range [*t0, *t1] of the strips. */
void app_time_range(struct app *a, double *t0, double *t1);

/* ---- keys.c ---- */
/* Handles key @ch (a wint_t from wget_wch, or KEY_*). */
void keys_handle(struct app *a, int ch, bool is_key);
/* The help lines of the key table that apply on the screen shown now (the
 * setup screen's, or the live screen's and a replay's, and those of any
 * screen): "KEYS      what", whole (the caller fits them, marking a cut);
 * in showfloor mode the locked ones say so.  At most @max; the count. */
#define KEYS_HELP_LEN 96
int keys_help(const struct app *a, char (*lines)[KEYS_HELP_LEN], int max);
/* Moves the cursor of the focused setup list (Devices, Presets, the form)
 * by @d rows, clamped; the caller marks the panes (an action by its
 * reaction, the mouse itself). */
void keys_move(struct app *a, int d);
/* The key bar of the current screen: its buttons in *@out, the count. */
int keys_bar(const struct app *a, const struct keybtn **out);
/* A mouse event at screen cell (@y, @x): a click (MOUSE_CLICK) selects
 * the row and pane under it or runs the key-bar button (as its key would,
 * through the one action table); the wheel moves a setup list or scrolls
 * the time axis.  Ignored while a prompt is open. */
enum mouse_ev { MOUSE_CLICK, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN };
void keys_mouse(struct app *a, int y, int x, enum mouse_ev ev);
/* KEY_MOUSE: the event curses decoded, to keys_mouse (keybar.c). */
void keys_mouse_event(struct app *a);

/* ---- panes.c ---- */
/* Draws pane @p into its window (erased first). */
void panes_draw(struct app *a, enum pane_id p);
/* The help overlay and the too-small message. */
void panes_draw_help(const char (*kl)[KEYS_HELP_LEN], int nk, bool view, struct paint *pa,
		     struct ui_screen *scr);
void panes_draw_too_small(struct paint *pa, int cols, int rows);
/* The box explaining a destroy confirmation (a->pr.confirm). */
void panes_draw_confirm(const struct ui_prompt *pr, struct paint *pa, struct ui_screen *scr);
/* Fills the form with its defaults. */
void panes_form_init(struct app *a);

/* ---- planui.c: plans ---- */
/* Lists presets/plans/NAME.ini into a->lp.plans (none in demo mode). */
void planui_list(struct app *a);
/* Loads plan file @path for the marked targets and begins it. */
void planui_launch(struct app *a, const char *path);
/* Begins the loaded a->pl.loaded: starts it, or asks the typed confirmation
 * when it destroys data and --yes-destroy-data does not cover it. */
void planui_begin(struct app *a);
/* Answer to that confirmation (the typed text matched or not). */
void planui_confirm(struct app *a, bool ok);
/* The step-list pane: per step its mark (done, failed, current), its
 * verdict, progress and planned or remaining time; the plan's ETA. */
void planui_draw_steps(const struct pane_ctx *c, WINDOW *w);
/* "ETA 1m05s" (">": steps of unknown length to come; "<=": a precondition
 * may end sooner), "done" at the end. */
void planui_eta(const struct pane_ctx *c, char *buf, size_t len);
/* ---- evview.c ---- */
/* The event-list overlay (key E) over the lower half of the screen. */
void panes_draw_events(struct ui_events *ev, struct paint *pa, struct ui_screen *scr);
/* Frees a plan waiting for its confirmation and the plan list. */
void planui_free(struct app *a);
/* The marked targets (or, when @cursor, the one under the Devices cursor)
 * into @s->targets; a message and -EINVAL when there is none. */
int app_marked_targets(struct app *a, struct spec *s, bool cursor);
/* Where the next run, plan or check writes when the console was given
 * --results DIR: DIR for the first, DIR-2, DIR-3... after (a->run.nruns
 * counts them).  False without --results (each its own default), and
 * when @len cannot hold the name (never cut). */
bool app_results_dir(const struct app *a, char *dir, size_t len);

/* ---- steadyview.c: live steady state ---- */
/* Rebuilds the rounds and the verdict from what is shown now (live or
 * replayed series, or a plan step's rounds.csv); warns in the status bar
 * when the drive leaves steady state. */
void steady_update(struct app *a);
/* Next round length of 10/30/60/300 s (key). */
void steady_cycle_round(struct app *a);
/* Rows the steady-state display takes at the bottom of an IOPS pane of
 * @h rows (0: hidden). */
int steady_rows(const struct ui_steady *st, const struct pane_ctx *c, int h);
/* Draws @st's window marker row (when @rows >= 2) and verdict line into
 * rows @y.. of @w, for a strip whose plot area starts at column @lw, is @pw
 * cells wide and shows [@t0, @t1]. */
void steady_draw(const struct ui_steady *st, const struct pane_ctx *c, WINDOW *w, int y, int rows,
		 int lw, int pw, double t0, double t1);
/* The steady-state lines on the IOPS strip: the window average with its
 * band of +- half the range limit (SNIA's 90 %/110 % lines) and the fitted
 * least-squares slope line over the window's rounds, as up to @room plot
 * series into @ser (their points are held until the next call).  Returns
 * the series added: 0 when there is no valid window (or MB/s is shown). */
struct plot_ser;
int steady_overlay(struct ui_steady *st, const struct pane_ctx *c, double t0, double t1, int pw,
		   struct plot_ser *ser, int room);
/* The step shown changed (SOURCE_CHANGED_STEP): the rounds and verdict
 * start over; the step's own rule (a plan's) replaces the one shown unless
 * the command line gave it. */
void steady_restart(struct app *a);

#endif

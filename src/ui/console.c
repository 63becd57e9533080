/* console.c - the console's main loop, terminal handling and actions.
 *
 * Loop: the UI thread waits for a key with a timeout that ends at the next
 * frame (10 Hz).  Each frame polls the source shown (a live run drains its rings), reads
 * /proc/stat once a second and the health reader's ring (healthmon.c), then redraws
 * only the panes marked dirty and ends with one doupdate().  Keys are
 * handled as they come and redraw at once.
 *
 * Terminal restore: SIGINT, SIGTERM and SIGHUP only set an atomic flag; the
 * loop sees it, stops the workload, writes the results and calls endwin().
 * An atexit() hook calls endwin() for any exit() path.  A crash signal
 * (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) cannot return to the loop, so
 * its handler uses only async-signal-safe calls: tcsetattr() with the
 * settings saved before newterm() and write() of the sequences that leave
 * the alternate screen and show the cursor, then re-raises the signal with
 * the previous handler (so sanitizer reports and core dumps still happen). */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "base/num.h"
#include "config/plan.h"
#include "dev/probe.h"
#include "dev/safety.h"
#include "ui/app.h"
#include "ui/esckey.h"
#include "ui/console.h"
#include "ui/remember.h"

static atomic_int sig_quit;
static atomic_bool term_active;
static struct termios saved_tio;
static bool saved_tio_ok;
static const int fatal_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
static struct sigaction old_fatal[NVS_ARRAY_SIZE(fatal_sigs)];

static void on_quit_signal(int sig)
{
	atomic_store_explicit(&sig_quit, sig, memory_order_relaxed);
}

/* events.log's line for a run the console's end stopped: which signal, or
 * the user's confirmed quit */
static const char *stop_reason(int sig)
{
	switch (sig) {
	case 0:
		return "stopped by the user (quit)";
	case SIGINT:
		return "stopped by Ctrl-C (SIGINT)";
	case SIGTERM:
		return "stopped by SIGTERM";
	case SIGHUP:
		return "stopped by SIGHUP (the terminal hung up)";
	default:
		return "stopped by a signal";
	}
}

static void on_fatal_signal(int sig)
{
	static const char reset[] = "\033[0m\033[?25h\033[?1049l\r\n";
	if (atomic_load_explicit(&term_active, memory_order_relaxed)) {
		if (saved_tio_ok)
			tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
		ssize_t r = write(STDOUT_FILENO, reset, sizeof(reset) - 1);
		(void)r;
	}
	for (size_t i = 0; i < NVS_ARRAY_SIZE(fatal_sigs); i++)
		if (fatal_sigs[i] == sig)
			sigaction(sig, &old_fatal[i], NULL);
	raise(sig);
}

static void term_restore(void)
{
	if (atomic_exchange(&term_active, false)) {
		endwin();
		fflush(stdout);
	}
}

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_quit_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < NVS_ARRAY_SIZE(fatal_sigs); i++)
		sigaction(fatal_sigs[i], &sa, &old_fatal[i]);
	/* a blocked mask is inherited through exec: under `perf record` the
	 * console got SIGWINCH blocked, so ncurses never saw a resize (and a
	 * blocked SIGINT would make Ctrl-C do nothing); before any thread */
	sigset_t want;
	sigemptyset(&want);
	sigaddset(&want, SIGWINCH);
	sigaddset(&want, SIGINT);
	sigaddset(&want, SIGTERM);
	sigaddset(&want, SIGHUP);
	pthread_sigmask(SIG_UNBLOCK, &want, NULL);
	static bool once;
	if (!once) {
		atexit(term_restore);
		once = true;
	}
}

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- state helpers ---- */

static void dirty_live(struct app *a)
{
	static const int live[] = {PANE_TITLE,	 PANE_IOPS, PANE_LAT,	  PANE_HEALTH,
				   PANE_TARGETS, PANE_QD,   PANE_NUMBERS, PANE_CPU};
	for (size_t i = 0; i < NVS_ARRAY_SIZE(live); i++)
		a->scr.dirty[live[i]] = true;
}

/* ---- per-frame work ---- */

static void relayout(struct app *a)
{
	struct layout_in in = {
	    .screen = app_can(a, SOURCE_VIEW_ONLY) ? SCREEN_LIVE : a->scr.screen,
	    .ntargets = app_ntargets(a),
	    .nqd = app_nrows(a),
	    .big = a->look.theme.bignum,
	    .showfloor = a->fl.showfloor,
	};
	struct source_info si;
	struct source_plan_state ps;
	const struct plan *pl = app_plan(a, &ps);
	app_source_info(a, &si);
	in.health = (si.valid & SOURCE_HAS_HEALTH) || a->hl.health_path[0] != '\0';
	in.nsteps = pl ? pl->nsteps : 0;
	getmaxyx(stdscr, in.rows, in.cols);
	static struct layout_in last;
	static bool have_last;
	if (have_last && !memcmp(&in, &last, sizeof(in)) && a->scr.win[PANE_TITLE] != NULL)
		return;
	last = in;
	have_last = true;
	a->scr.cols = in.cols;
	a->scr.rows = in.rows;
	for (int p = 0; p < PANE_COUNT; p++)
		if (a->scr.win[p]) {
			delwin(a->scr.win[p]);
			a->scr.win[p] = NULL;
		}
	a->scr.too_small = layout_compute(&in, &a->scr.lay) != 0;
	werase(stdscr);
	wnoutrefresh(stdscr);
	for (int p = 0; p < PANE_COUNT && !a->scr.too_small; p++) {
		const struct rect *r = &a->scr.lay.pane[p];
		if (r->w > 0 && r->h > 0)
			a->scr.win[p] = newwin(r->h, r->w, r->y, r->x);
	}
	app_dirty_all(a);
}

/* Takes the health readers' new readings (each reads every 5 s on its own
 * thread, so a slow controller never stalls the console): the first
 * controller's temperature on the strip, every controller's changes as
 * events (the strip's title sums up the warnings of all, strips.c). */
static void health_tick(struct app *a)
{
	struct healthmon_reading r;
	unsigned i;

	if (!a->hl.hset)
		return;
	if (!app_running(a)) {
		healthset_free(a->hl.hset);
		a->hl.hset = NULL;
		return;
	}
	while (healthset_poll(a->hl.hset, &i, &r)) {
		struct healthset_event ev[4];
		int ne = healthset_note(a->hl.hset, i, &r, ev, 4);
		for (int k = 0; k < ne; k++) /* a health change is an event */
			app_event(a,
				  ev[k].level == HEALTHMON_CW_WORSE   ? ROLE_ERROR
				  : ev[k].level == HEALTHMON_CW_FEWER ? ROLE_WARN
								      : ROLE_OK,
				  "%s", ev[k].text);
		if (ne)
			a->scr.dirty[PANE_HEALTH] = true;
		if (i != 0)
			continue;
		struct source_info in;
		app_source_info(a, &in);
		struct source_health p = {in.now_s, NAN, 0, 0};
		if (r.ok && r.h.temperature_valid)
			p.temp_c = r.h.temperature_c;
		if (r.ok)
			p.crit = r.h.critical_warning;
		if (r.ok && r.h.thm_valid) {
			double c = (double)r.h.thm_trans_count[0] + r.h.thm_trans_count[1];
			if (!a->hl.thm_base_valid) {
				a->hl.thm_base = c;
				a->hl.thm_base_valid = true;
			}
			p.throttle = c - a->hl.thm_base;
		}
		if (a->src.ops->add_health) {
			a->src.ops->add_health(a->src.ctx, &p);
			a->scr.dirty[PANE_HEALTH] = true;
		}
	}
}

static void demo_tick(struct app *a)
{
	if (!a->fl.demo || app_running(a) || !a->lp.npresets || a->pr.prompt != PROMPT_NONE)
		return;
	if (a->fl.demo_next == 0) {
		a->fl.demo_next = a->now + 5;
		return;
	}
	if (a->now < a->fl.demo_next)
		return;
	a->fl.demo_next = 0;
	a->fl.demo_idx = (a->fl.demo_idx + 1) % (int)a->lp.npresets;
	a->lp.pre_cur = a->fl.demo_idx;
	app_launch_preset(a, a->fl.demo_idx);
}

/* The UI thread's own CPU (RUSAGE_THREAD), to show that drawing is cheap. */
static void ui_cpu_tick(struct app *a, double dt)
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru)) {
		a->cp.ui_cpu = NAN;
		return;
	}
	double s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
		   ru.ru_stime.tv_usec / 1e6;
	a->cp.ui_cpu = dt > 0 ? (s - a->cp.ui_cpu_s) / dt * 100 : NAN;
	a->cp.ui_cpu_s = s;
}

static int event_role(enum source_level lv)
{
	return lv == SOURCE_EV_ERROR ? ROLE_ERROR : lv == SOURCE_EV_WARN ? ROLE_WARN : ROLE_OK;
}

/* What the source has new: its samples, its step, its events (a step's
 * result, the run's end: the devices rescanned when it wrote). */
static void source_tick(struct app *a, double dt)
{
	struct source_event ev;
	unsigned ch = a->src.ops->poll(a->src.ctx, dt);
	if (a->src.ops->window) { /* the targets' older points, read back where shown */
		double t0, t1;
		app_time_range(a, &t0, &t1);
		if (a->src.ops->window(a->src.ctx, t0, t1) > 0)
			ch |= SOURCE_CHANGED_DATA;
	}
	if (ch & SOURCE_CHANGED_STEP) {
		steady_restart(a);
		app_dirty_all(a);
	}
	while (a->src.ops->event(a->src.ctx, &ev)) {
		a->mq.urgent = ev.flags & SOURCE_EV_URGENT;
		if (ev.flags & SOURCE_EV_MESSAGE)
			app_message(a, event_role(ev.level), "%s", ev.text);
		else
			app_event(a, event_role(ev.level), "%s", ev.text);
		a->mq.urgent = false;
		if (ev.flags & SOURCE_EV_ENDED)
			app_unpin(a); /* the workload's targets: written no more */
		if ((ev.flags & SOURCE_EV_WROTE) ||
		    ((ev.flags & SOURCE_EV_ENDED) && a->run.run_writes))
			app_rescan(a); /* the Devices pane shows the new usage */
		ch |= SOURCE_CHANGED_DATA;
	}
	if (ch) {
		dirty_live(a);
		a->scr.dirty[PANE_STEPS] = true;
		steady_update(a);
	}
}

static void tick(struct app *a, double dt)
{
	static double next_second, last_second, next_probe;
	source_tick(a, dt);
	if (!app_can(a, SOURCE_VIEW_ONLY)) {
		/* a device that did not answer its probe is asked again
		 * every 2 s (answered at once while its helper is still
		 * stuck) and filled in once it answers (dev/probe.h); the
		 * scan runs on its own thread (dev/devscan.h), one at a time */
		if (!app_running(a) && !a->dev.scan && a->now >= next_probe && probe_pending())
			app_rescan(a);
		if (a->now >= next_probe)
			next_probe = a->now + 2;
		health_tick(a);
		demo_tick(a);
		checkui_tick(a);
		purgeui_tick(a);
		healthui_tick(a);
	}
	if (a->now >= next_second) {
		double dt_second = last_second > 0 ? a->now - last_second : 0;
		last_second = a->now;
		next_second = a->now + 1;
		if (a->cp.cpu && !cpu_update(a->cp.cpu))
			a->scr.dirty[PANE_CPU] = true;
		ui_cpu_tick(a, dt_second);
		a->scr.dirty[PANE_TITLE] = true;
	}
	if (a->mq.msg[0] && a->now >= a->mq.msg_until) {
		a->mq.msg[0] = '\0';
		a->scr.dirty[PANE_STATUS] = true;
	}
}

/* The status-line message shown now, NULL when none. */
static const char *msg_shown(const struct app *a)
{
	return a->mq.msg[0] && a->now < a->mq.msg_until ? a->mq.msg : NULL;
}

/* The help overlay: the key table's lines for the screen shown. */
static void draw_help(struct app *a)
{
	char kl[64][KEYS_HELP_LEN];
	int nk = keys_help(a, kl, 64);
	bool view = app_can(a, SOURCE_VIEW_ONLY) || a->scr.screen == SCREEN_LIVE;
	panes_draw_help((const char(*)[KEYS_HELP_LEN])kl, nk, view, &a->paint, &a->scr);
}

static void draw(struct app *a)
{
	relayout(a);
	bool any = a->scr.too_small;
	for (int p = 0; p < PANE_COUNT; p++)
		any |= a->scr.dirty[p];
	if (!any)
		return;
	if (checkui_active(a) && !a->scr.too_small) { /* the check view covers the screen */
		checkui_draw(a->vw.chk, &a->paint, &a->scr, msg_shown(a), a->mq.msg_role);
		if (a->ev.on)
			panes_draw_events(&a->ev, &a->paint, &a->scr);
		memset(a->scr.dirty, 0, sizeof(a->scr.dirty));
		doupdate();
		return;
	}
	if (healthui_active(a) && !a->scr.too_small) { /* so does the health view */
		healthui_draw(a->vw.hui, &a->paint, &a->scr);
		if (a->ev.on)
			panes_draw_events(&a->ev, &a->paint, &a->scr);
		memset(a->scr.dirty, 0, sizeof(a->scr.dirty));
		doupdate();
		return;
	}
	if (a->scr.too_small) {
		panes_draw_too_small(&a->paint, a->scr.cols, a->scr.rows);
	} else {
		bool any = false;
		for (int p = 0; p < PANE_COUNT; p++)
			if (a->scr.dirty[p] && a->scr.win[p]) {
				panes_draw(a, p);
				any = true;
			}
		if (a->scr.help && any)
			draw_help(a);
		else if (a->pr.prompt == PROMPT_DESTROY && any)
			panes_draw_confirm(&a->pr, &a->paint, &a->scr);
		else if (purgeui_menu_open(a) && any)
			purgeui_draw(a->vw.purge, &a->paint, &a->scr);
		else if (a->ev.on && any)
			panes_draw_events(&a->ev, &a->paint, &a->scr);
	}
	memset(a->scr.dirty, 0, sizeof(a->scr.dirty));
	doupdate();
}

/* ---- set-up and the loop ---- */

/* Does preset @p write (a job writes or trims)?  One that cannot be loaded
 * counts as writing: never shown as safe without knowing. */
static bool preset_writes(const struct preset_info *p)
{
	struct spec base, *jobs = NULL;
	unsigned n = 0;
	char err[256];
	bool writes = true;
	spec_init(&base);
	if (!preset_load(p->path, &base, &jobs, &n, err, sizeof(err))) {
		writes = false;
		for (unsigned j = 0; j < n; j++)
			writes |= spec_writes(&jobs[j]);
	}
	free(jobs);
	return writes;
}

static void load_presets(struct app *a)
{
	if (preset_list(&a->lp.presets, &a->lp.npresets)) {
		a->lp.presets = NULL;
		a->lp.npresets = 0;
		return;
	}
	/* marked in the Presets pane; in the demo not even shown */
	size_t keep = 0;
	for (size_t i = 0; i < a->lp.npresets; i++) {
		a->lp.presets[i].writes = preset_writes(&a->lp.presets[i]);
		if (!a->fl.demo || !a->lp.presets[i].writes)
			a->lp.presets[keep++] = a->lp.presets[i];
	}
	a->lp.npresets = keep;
}

/* A results directory shown instead of the setup screen: a run played, a
 * finished plan played, or a plan running elsewhere followed
 * (source_open() decides which). */
static int show_dir(struct app *a, const char *dir, char *err, size_t len)
{
	struct source src;
	struct source_info in;
	int ret = source_open(dir, &src, err, len);
	if (ret)
		return ret;
	app_show_source(a, src);
	app_source_info(a, &in);
	snprintf(a->run.run_name, sizeof(a->run.run_name), "%.63s", in.name);
	a->scr.screen = SCREEN_LIVE;
	return 0;
}

static void app_free(struct app *a)
{
	free(a->run.cli_jobs); /* quit before they were launched */
	app_unpin(a);
	healthset_free(a->hl.hset);
	a->hl.hset = NULL;
	planui_free(a);
	checkui_free(a);
	purgeui_free(a);
	healthui_free(a);
	evlist_free(a->ev.list);
	source_free(&a->src);
	for (int p = 0; p < PANE_COUNT; p++)
		if (a->scr.win[p])
			delwin(a->scr.win[p]);
	if (a->scr.overlay)
		delwin(a->scr.overlay);
	if (a->scr.input)
		delwin(a->scr.input);
	bcanvas_release(&a->paint.canvas);
	devscan_free(a->dev.scan); /* one under way ends on its own */
	source_hosts_free(a->dev.hosts);
	dev_list_free(a->dev.devs);
	free(a->dev.drows);
	free(a->st.ovbuf);
	free(a->lp.presets);
	free(a->run.pending);
	rounds_release(&a->st.rounds);
	free(a->remembered);
	theme_names_free(a->look.theme_names, a->look.ntheme);
	cpu_free(a->cp.cpu);
	free(a);
}

static int prepare(struct app *a, const struct console_opts *o, char *err, size_t len)
{
	int ret = look_init(a, o->theme, err, len);
	if (ret)
		return ret;
	if (source_live(&a->src)) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	if (o->show_dir) {
		if ((ret = show_dir(a, o->show_dir, err, len)))
			return ret;
		if (o->speed > 0 && a->src.ops->speed)
			a->src.ops->speed(a->src.ctx, o->speed);
		return 0;
	}
	load_presets(a);
	a->lp.plans_pending = true; /* listed after the first frame (loop) */
	panes_form_init(a);
	if (o->check) { /* the batch starts on the drives found: scanned first */
		a->dev.devs = devscan_run(APP_PROBE_MS, err, len);
		int n = devrows_build(a->dev.devs, &a->dev.drows);
		a->dev.ndrows = n > 0 ? n : 0;
	} else { /* the screen comes first, the devices after (first_scan) */
		a->dev.scanning = true;
	}
	app_add_targets(a, o->targets, o->ntargets);
	if (o->plan) { /* --plan: loaded and checked before the screen opens */
		if ((ret = source_pending_new(o->plan, o->targets, o->ntargets, &a->pl.loaded, err,
					      len)))
			return ret;
		for (unsigned i = 0; i < o->nplan_ovr; i++)
			if ((ret = source_pending_override(a->pl.loaded, o->plan_ovr[i][0],
							   o->plan_ovr[i][1], err, len)))
				return ret;
		if (o->confirm && strlen(o->confirm) >= sizeof(a->pl.plan_confirm)) {
			snprintf(err, len, "--yes-destroy-data: longer than %zu bytes",
				 sizeof(a->pl.plan_confirm) - 1);
			return -EINVAL;
		}
		snprintf(a->pl.plan_target, sizeof(a->pl.plan_target), "%s", o->targets[0]);
		snprintf(a->pl.plan_confirm, sizeof(a->pl.plan_confirm), "%s",
			 o->confirm ? o->confirm : "");
	}
	for (int i = 0; o->all_nvme && i < a->dev.ndrows; i++) /* the tray at the rack */
		a->dev.drows[i].marked |= a->dev.drows[i].nvme && a->dev.drows[i].depth == 1;
	for (int i = 0; i < a->dev.ndrows; i++)
		if (a->dev.drows[i].marked) {
			a->dev.dev_cur = i;
			break;
		}
	if (o->check) { /* --check: the batch starts as the screen opens */
		bool any = false;
		for (int i = 0; i < a->dev.ndrows; i++)
			any |= a->dev.drows[i].marked;
		if (!any) {
			snprintf(err, len, "--check: no drive to check%s",
				 o->all_nvme ? " (no NVMe namespace found)" : "");
			return -ENOENT;
		}
		if ((ret = checkui_open_start(a, o->check, err, len)))
			return ret;
	}
	return 0;
}

/* After an ESC: the rest of a sequence curses did not decode (terminfo
 * lacks it, as vt100's lacks Home/End/PgUp) is read here and decoded, or
 * dropped whole: never taken as letters.  A lone ESC is the Esc key. */
static void read_escape(struct app *a)
{
	char seq[16];
	size_t n = 0;
	wint_t c;
	wtimeout(a->scr.input, 60);
	while (n < sizeof(seq) && !esckey_complete(seq, n)) {
		int r = wget_wch(a->scr.input, &c);
		if (r == ERR)
			break;
		if (r == KEY_CODE_YES || c > 0x7e || c < 0x20) {
			n = sizeof(seq); /* not a sequence of ours: drop it */
			break;
		}
		seq[n++] = (char)c;
	}
	if (n == 0) {
		keys_handle(a, 27, false);
		return;
	}
	if (n == 2 && seq[0] == '[' && seq[1] == 'M') {
		/* an X10 mouse report curses did not decode: 3 raw bytes
		 * (button, column, row + 32 each), never letters */
		int b[3], i;
		for (i = 0; i < 3; i++) {
			if (wget_wch(a->scr.input, &c) != OK)
				return;
			b[i] = (int)c - 32;
		}
		int y = b[2] - 1, x = b[1] - 1;
		if (y < 0 || x < 0 || (b[0] & 32)) /* motion: ignored */
			return;
		if (b[0] & 64)
			keys_mouse(a, y, x, b[0] & 1 ? MOUSE_WHEEL_DOWN : MOUSE_WHEEL_UP);
		else if ((b[0] & 3) == 0)
			keys_mouse(a, y, x, MOUSE_CLICK);
		return;
	}
	int k = n < sizeof(seq) ? esckey_decode(seq, n) : 0;
	if (k)
		keys_handle(a, k, true);
}

/* Draw first, scan after: the console's first scan of the devices starts
 * once the first frame is on the screen (and nothing runs: no workload is
 * probed under), and fills the Devices pane in as it finds them
 * (dev/devscan.h).  A workload given on the command line starts once that
 * scan has ended, so the Devices pane has the devices while it runs (the
 * rack console's run on two drives watches the other's warnings there). */
static void first_scan(struct app *a)
{
	static bool tried;
	if (!tried && !a->dev.devs && !a->dev.scan && !app_can(a, SOURCE_VIEW_ONLY) &&
	    !app_running(a)) {
		tried = true;
		app_scan(a, true);
	}
	if (a->run.cli_jobs && !a->dev.scan && (tried || app_running(a))) {
		struct spec *jobs = a->run.cli_jobs;
		a->run.cli_jobs = NULL; /* app_launch_jobs owns them */
		app_launch_jobs(a, jobs, a->run.ncli, a->run.cli_name);
	}
}

static void loop(struct app *a)
{
	double next_frame = mono_now(), last_tick = next_frame;
	while (!a->quit && !atomic_load_explicit(&sig_quit, memory_order_relaxed)) {
		a->now = mono_now();
		int ms = (int)((next_frame - a->now) * 1000);
		int most = a->dev.scan && a->dev.scanning ? 20 : 100; /* devices as they come */
		wtimeout(a->scr.input, ms < 0 ? 0 : ms > most ? most : ms);
		wint_t ch;
		int r = wget_wch(a->scr.input, &ch);
		a->now = mono_now();
		if (r == OK && ch == 27)
			read_escape(a);
		else if (r != ERR)
			keys_handle(a, (int)ch, r == KEY_CODE_YES);
		if (a->now >= next_frame) {
			tick(a, a->now - last_tick);
			last_tick = a->now;
			next_frame = a->now + 0.1;
		}
		app_scan_poll(a); /* the devices found, not a frame late */
		app_hosts_poll(a);
		draw(a);
		if (a->lp.plans_pending) { /* the first frame is on the screen */
			a->lp.plans_pending = false;
			planui_list(a);
			a->scr.dirty[PANE_LAUNCH] = true;
		}
		first_scan(a);
	}
}

/* The console's state from its options, before any terminal work. */
static void app_defaults(struct app *a, const struct console_opts *o)
{
	a->paint.ascii = o->ascii || strcmp(nl_langinfo(CODESET), "UTF-8");
	a->fl.demo = o->demo;
	a->fl.showfloor = o->showfloor;
	if (a->fl.showfloor)
		a->view.style = PLOT_FILL;
	a->fl.demo_idx = -1;
	a->cp.ui_cpu = NAN;
	a->run.base = o->base;
	a->dev.hosts = o->hosts;
	a->scr.focus = PANE_DEVICES;
	a->view.follow = true;
	a->fl.asked_action = -1;
	a->st.round_s = o->round_s > 0 ? o->round_s : 60;
	a->st.steady_on = true;
	if (o->ss_given) {
		a->st.ss = o->ss;
		a->st.ss_given = true;
	} else {
		steady_params_init(&a->st.ss);
	}
	if (o->results)
		snprintf(a->run.results_dir, sizeof(a->run.results_dir), "%s", o->results);
}

/* The terminal taken: curses on it, the input window, the mouse where the
 * terminal has one (presses at once, no click timing).  NULL (said) when
 * $TERM is unknown: newterm, not initscr, returns instead of exiting. */
static SCREEN *term_open(struct app *a, const struct console_opts *o)
{
	saved_tio_ok = tcgetattr(STDIN_FILENO, &saved_tio) == 0;
	install_signals();
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		const char *term = getenv("TERM");
		fprintf(stderr, "nvscope: cannot use terminal type '%s' (set TERM)\n",
			term ? term : "");
		return NULL;
	}
	atomic_store(&term_active, true);
	cbreak();
	noecho();
	nonl();
	curs_set(0);
	set_escdelay(25);
	a->scr.input = newwin(1, 1, 0, 0);
	keypad(a->scr.input, TRUE);
	if (!o->no_mouse) {
		mouseinterval(0);
		mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	}
	return scr;
}

/* The command line's jobs, launched after the first scan (first_scan). */
static void take_cli_jobs(struct app *a, const struct console_opts *o)
{
	if (!o->njobs || app_can(a, SOURCE_VIEW_ONLY))
		return;
	struct spec *jobs = malloc(o->njobs * sizeof(*jobs));
	if (!jobs)
		return;
	memcpy(jobs, o->jobs, o->njobs * sizeof(*jobs));
	a->run.cli_jobs = jobs;
	a->run.ncli = o->njobs;
	snprintf(a->run.cli_name, sizeof(a->run.cli_name), "%s",
		 o->run_name ? o->run_name : "custom");
}

/* The source stopped and written (a plan: resumable), the terminal given
 * back, where the results are said, the settings saved. */
static void console_end(struct app *a, SCREEN *scr, int sig)
{
	char dir[512] = "", err[512];
	struct source_info in;

	app_source_info(a, &in);
	snprintf(dir, sizeof(dir), "%s", in.dir);
	if (a->src.ops->stop)
		a->src.ops->stop(a->src.ctx, stop_reason(sig));
	source_free(&a->src); /* joins and writes the results (a plan: resumable) */
	/* endwin leaves the cursor on the last line, where the key bar was; on
	 * a terminal without an alternate screen (vt100, a serial console) the
	 * rest of that bar stayed after the results path printed over it */
	move(LINES - 1, 0);
	clrtoeol();
	refresh();
	term_restore();
	delscreen(scr);
	if (dir[0])
		printf("nvscope: results in %s\n", dir);
	if (remember_save(a, err, sizeof(err)))
		fprintf(stderr, "nvscope: settings not saved: %s\n", err);
}

int console_run(const struct console_opts *o)
{
	char err[512] = "", smsg[300];
	struct app *a = calloc(1, sizeof(*a));
	if (!a) {
		source_hosts_free(o->hosts);
		fprintf(stderr, "nvscope: out of memory\n");
		return NVS_EXIT_IOERR;
	}
	setlocale(LC_ALL, "");
	app_defaults(a, o);
	if (prepare(a, o, err, sizeof(err))) {
		fprintf(stderr, "nvscope: %s\n", err);
		app_free(a);
		return NVS_EXIT_USAGE;
	}
	remember_load(a, o, smsg, sizeof(smsg));
	if (smsg[0])
		app_message(a, ROLE_WARN, "%s", smsg);
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "nvscope: the console needs a terminal (headless: nvscope run)\n");
		app_free(a);
		return NVS_EXIT_USAGE;
	}
	SCREEN *scr = term_open(a, o);
	if (!scr) {
		app_free(a);
		return NVS_EXIT_USAGE;
	}
	a->look.active = true;
	look_apply(a);
	a->cp.cpu = cpu_new();
	if (a->pl.loaded)
		planui_begin(a);
	take_cli_jobs(a, o);
	if (a->fl.showfloor) /* the setup screen (launches, targets) is locked */
		a->scr.screen = SCREEN_LIVE;
	loop(a);
	int sig = atomic_load(&sig_quit);
	console_end(a, scr, sig);
	app_free(a);
	return sig ? 128 + sig : NVS_EXIT_OK;
}

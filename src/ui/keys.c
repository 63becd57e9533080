/* keys.c - key bindings: the prompt's line editor first, then the help
 * overlay (any key closes it), then global keys, then the focused setup
 * pane's keys.  htop-like F-keys and single letters do the same things. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "ui/app.h"

static void open_prompt(struct app *a, enum prompt p, const char *text, const char *init)
{
	a->pr.prompt = p;
	snprintf(a->pr.prompt_text, sizeof(a->pr.prompt_text), "%s", text);
	snprintf(a->pr.edit, sizeof(a->pr.edit), "%s", init ? init : "");
	a->pr.edit_len = (int)strlen(a->pr.edit);
	a->scr.dirty[PANE_STATUS] = true;
}

static void close_prompt(struct app *a)
{
	if (a->pr.prompt == PROMPT_DESTROY)
		app_dirty_all(a); /* the confirmation box goes away */
	a->pr.prompt = PROMPT_NONE;
	a->scr.dirty[PANE_STATUS] = true;
}

static void commit_prompt(struct app *a)
{
	enum prompt p = a->pr.prompt;
	close_prompt(a);
	switch (p) {
	case PROMPT_PATH:
		if (a->pr.edit[0] && !app_add_target(a, a->pr.edit))
			app_message(a, ROLE_OK, "added and marked %s", a->pr.edit);
		break;
	case PROMPT_FIELD: {
		struct spec scratch;
		char err[200] = "";
		spec_init(&scratch);
		struct form_field *f = &a->fm.form[a->fm.form_cur], tmp = *f;
		snprintf(tmp.val, sizeof(tmp.val), "%.63s", a->pr.edit);
		if (a->pr.edit[0] &&
		    opt_set(&scratch, form_key(&tmp), form_value(&tmp), err, sizeof(err))) {
			app_message(a, ROLE_ERROR, "%s: %s", f->label, err);
			break;
		}
		*f = tmp;
		a->scr.dirty[PANE_FORM] = true;
		break;
	}
	case PROMPT_DESTROY:
		app_confirm_destroy(a, !strcmp(a->pr.edit, a->run.pending_path));
		break;
	default:
		break;
	}
}

static void run_asked(struct app *a);

static void prompt_key(struct app *a, int ch, bool is_key)
{
	if (a->pr.prompt == PROMPT_ASK) {
		close_prompt(a);
		if (!is_key && (ch == 'y' || ch == 'Y'))
			run_asked(a);
		return;
	}
	if (a->pr.prompt == PROMPT_QUIT) {
		close_prompt(a);
		if (!is_key && (ch == 'y' || ch == 'Y'))
			a->quit = true;
		return;
	}
	if (a->pr.prompt == PROMPT_STOP) {
		close_prompt(a);
		if (!is_key && (ch == 'y' || ch == 'Y') && a->src.ops->stop)
			a->src.ops->stop(a->src.ctx, NULL);
		else
			app_message(a, ROLE_OK, "the plan goes on");
		return;
	}
	if (!is_key && ch == 27) { /* Esc */
		if (a->pr.prompt == PROMPT_DESTROY)
			app_confirm_destroy(a, false);
		close_prompt(a);
		return;
	}
	if ((is_key && ch == KEY_ENTER) || (!is_key && (ch == '\n' || ch == '\r'))) {
		commit_prompt(a);
		return;
	}
	if ((is_key && ch == KEY_BACKSPACE) || (!is_key && (ch == 127 || ch == 8))) {
		if (a->pr.edit_len > 0)
			a->pr.edit[--a->pr.edit_len] = '\0';
	} else if (!is_key && ch == 21) { /* Ctrl-U */
		a->pr.edit_len = 0;
		a->pr.edit[0] = '\0';
	} else if (!is_key && ch >= 32 && ch < 127 &&
		   a->pr.edit_len < (int)sizeof(a->pr.edit) - 1) {
		a->pr.edit[a->pr.edit_len++] = (char)ch;
		a->pr.edit[a->pr.edit_len] = '\0';
	}
	a->scr.dirty[PANE_STATUS] = true;
}

/* What an action asks to have redrawn (htop's Htop_Reaction): the action
 * changes state, table_key() marks the panes.  0: the key was not taken
 * here (the next binding, or the focused pane, gets it). */
enum reaction {
	R_TAKEN = 1 << 0,   /* taken; nothing more to redraw */
	R_STRIPS = 1 << 1,  /* the time strips and the title */
	R_QD = 1 << 2,	    /* the per-QD table */
	R_TARGETS = 1 << 3, /* the per-target strips */
	R_IOPS = 1 << 4,    /* the IOPS strip (its steady-state display) */
	R_TITLE = 1 << 5,   /* the title bar (play speed) */
	R_SETUP = 1 << 6,   /* the setup panes (Devices, Launch, form) */
	R_ALL = 1 << 7,	    /* every pane */
};

static void dirty_strips(struct app *a)
{
	a->scr.dirty[PANE_IOPS] = a->scr.dirty[PANE_LAT] = a->scr.dirty[PANE_HEALTH] = true;
	a->scr.dirty[PANE_TARGETS] = a->scr.dirty[PANE_TITLE] = true;
}

static void dirty_setup(struct app *a)
{
	a->scr.dirty[PANE_DEVICES] = a->scr.dirty[PANE_LAUNCH] = a->scr.dirty[PANE_FORM] = true;
}

/* Marks what reaction @r asks for. */
static void react(struct app *a, unsigned r)
{
	if (r & R_ALL)
		app_dirty_all(a);
	if (r & R_STRIPS)
		dirty_strips(a);
	if (r & R_SETUP)
		dirty_setup(a);
	a->scr.dirty[PANE_QD] |= (r & R_QD) != 0;
	a->scr.dirty[PANE_TARGETS] |= (r & R_TARGETS) != 0;
	a->scr.dirty[PANE_IOPS] |= (r & R_IOPS) != 0;
	a->scr.dirty[PANE_TITLE] |= (r & R_TITLE) != 0;
}

static double data_end(struct app *a)
{
	const struct series *s = app_series(a, -1);
	return s->n ? s->pt[s->n - 1].t : 0;
}

static void zoom(struct app *a, bool in)
{
	double t0, t1;
	app_time_range(a, &t0, &t1);
	double full = t1 - t0;
	if (in) {
		if (a->view.span <= 0)
			a->view.span = full;
		a->view.span /= 2;
		if (a->view.span < 10)
			a->view.span = 10;
	} else if (a->view.span > 0) {
		a->view.span *= 2;
		double total = data_end(a);
		if (a->view.span >= total)
			a->view.span = 0;
	}
	if (!a->view.follow)
		a->view.view_end = t1;
}

static void scroll_time(struct app *a, int dir)
{
	if (a->view.span <= 0)
		return;
	double t0, t1;
	app_time_range(a, &t0, &t1);
	a->view.follow = false;
	a->view.view_end = t1 + dir * a->view.span / 4;
	if (a->view.view_end < a->view.span)
		a->view.view_end = a->view.span;
	if (a->view.view_end >= data_end(a)) {
		a->view.follow = true;
		a->view.view_end = 0;
	}
}

static void move_cursor(int *cur, int n, int delta)
{
	*cur += delta;
	if (*cur >= n)
		*cur = n - 1;
	if (*cur < 0)
		*cur = 0;
}

static void next_theme(struct app *a)
{
	char err[256];
	if (a->look.ntheme <= 0) {
		app_message(a, ROLE_WARN, "no theme files found: built-in theme only");
		return;
	}
	int idx = (a->look.theme_idx + 1) % a->look.ntheme;
	if (app_set_theme(a, idx, NULL, err, sizeof(err)))
		app_message(a, ROLE_ERROR, "%s", err);
	else
		app_message(a, ROLE_OK, "theme %s", a->look.theme.name);
}

/* ---- the key table: every global and view action, its keys, when it
 * applies and its help line (the help overlay is generated from it, as
 * htop's Action.c).  Keys are characters, or -KEY_* for curses codes. ---- */

enum kctx {
	K_ALL = 1,     /* any screen */
	K_VIEW = 2,    /* the live screen or a directory shown: the strips' time axis */
	K_PLAY = 4,    /* a source with a play position (SOURCE_CAN_PLAY) */
	K_SETUP = 8,   /* the setup screen (and the focused pane: focus below) */
	K_EVENTS = 16, /* the event list open (E): before every other meaning */
	/* the views that take the keys (keys_handle): only their own bindings */
	K_CHECK = 32,	/* the check view (c) */
	K_PURGE = 64,	/* the purge menu (P) */
	K_PURGING = 128 /* a purge running: never interrupted */
};
#define K_MODAL (K_CHECK | K_PURGE | K_PURGING)

/* What showfloor mode (a trade-show booth) does with an action. */
enum kflag {
	A_LOCK = 1, /* refused: it could write, launch or stop the show */
	A_ASK = 2   /* asked first (y/n) */
};

static unsigned act_quit(struct app *a)
{
	if (app_running(a))
		open_prompt(a, PROMPT_QUIT, "A workload is running: stop it and quit? (y/n) ", "");
	else
		a->quit = true;
	return R_TAKEN;
}

static unsigned act_help(struct app *a)
{
	a->scr.help = true;
	return R_ALL;
}

static unsigned act_theme(struct app *a)
{
	next_theme(a);
	return R_TAKEN;
}

static unsigned act_log(struct app *a)
{
	a->view.log = !a->view.log;
	return R_STRIPS;
}

static unsigned act_mbps(struct app *a)
{
	a->view.mbps = !a->view.mbps;
	return R_STRIPS;
}

static unsigned act_screen(struct app *a)
{
	if (app_can(a, SOURCE_VIEW_ONLY))
		return 0;
	a->scr.screen = a->scr.screen == SCREEN_SETUP ? SCREEN_LIVE : SCREEN_SETUP;
	return R_ALL;
}

static unsigned act_stop(struct app *a)
{
	if (!app_can(a, SOURCE_CAN_STOP))
		return 0;
	if (!app_running(a))
		return R_TAKEN;
	if (app_can(a, SOURCE_HAS_STEPS)) {
		/* a plan may have run for hours: a stop is confirmed */
		open_prompt(a, PROMPT_STOP,
			    "Stop the plan? (resumable with nvscope plan --resume) (y/n) ", "");
	} else {
		a->src.ops->stop(a->src.ctx, NULL);
		app_message(a, ROLE_WARN, "stopping the workload...");
	}
	return R_TAKEN;
}

static unsigned act_redraw(struct app *a)
{
	(void)a;
	clearok(curscr, TRUE);
	return R_ALL;
}

static unsigned act_zoom_in(struct app *a)
{
	zoom(a, true);
	return R_STRIPS;
}

static unsigned act_zoom_out(struct app *a)
{
	zoom(a, false);
	return R_STRIPS;
}

static unsigned act_left(struct app *a)
{
	scroll_time(a, -1);
	return R_STRIPS;
}

static unsigned act_right(struct app *a)
{
	scroll_time(a, 1);
	return R_STRIPS;
}

static unsigned act_whole(struct app *a)
{
	a->view.span = 0;
	a->view.follow = true;
	return R_STRIPS;
}

static unsigned act_follow(struct app *a)
{
	a->view.follow = true;
	a->view.view_end = 0;
	a->view.qd_back = 0;
	return R_QD | R_STRIPS;
}

static unsigned act_round(struct app *a)
{
	steady_cycle_round(a);
	return R_IOPS; /* the rounds and verdict under the IOPS strip */
}

static unsigned act_steady(struct app *a)
{
	a->st.steady_on = !a->st.steady_on;
	return R_IOPS;
}

static unsigned act_events(struct app *a)
{
	a->ev.on = !a->ev.on;
	a->ev.back = 0; /* opens on the newest */
	return R_ALL;
}

/* The event list scrolls back from its newest event (evview.c clamps). */
static unsigned act_events_scroll(struct app *a)
{
	int k = a->fl.cur_key;
	size_t n = evlist_count(a->ev.list), step = 1;
	if (k == 'K' || k == 'J' || k == -KEY_PPAGE || k == -KEY_NPAGE)
		step = 8;
	bool back = k == 'k' || k == -KEY_UP || k == 'K' || k == -KEY_PPAGE;
	if (k == 'g' || k == -KEY_HOME)
		a->ev.back = n ? n - 1 : 0; /* the oldest held at the top */
	else if (k == 'G' || k == -KEY_END)
		a->ev.back = 0;
	else if (back)
		a->ev.back = a->ev.back + step < n ? a->ev.back + step : (n ? n - 1 : 0);
	else
		a->ev.back = a->ev.back > step ? a->ev.back - step : 0;
	return R_ALL;
}

/* The per-QD table scrolls back from its newest rows (tables_qd clamps). */
static unsigned act_qd_scroll(struct app *a)
{
	int k = a->fl.cur_key, step = k == 'k' || k == -KEY_UP	   ? 1
				      : k == 'j' || k == -KEY_DOWN ? -1
				      : k == 'K'		   ? 8
				      : k == 'J'		   ? -8
				      : k == 'g'		   ? 100000
								   : -100000;
	int b = a->view.qd_back + step; /* tables_qd clamps it to the rows */
	a->view.qd_back = b < -100000 ? -100000 : b > 100000 ? 100000 : b;
	return R_QD;
}

static unsigned act_page_next(struct app *a)
{
	a->view.tgt_page++;
	return R_TARGETS;
}

static unsigned act_page_prev(struct app *a)
{
	a->view.tgt_page--;
	return R_TARGETS;
}

static unsigned act_play(struct app *a)
{
	if (a->src.ops->play)
		a->src.ops->play(a->src.ctx, -1);
	return R_ALL;
}

static unsigned speed(struct app *a, double f)
{
	if (a->src.ops->speed)
		a->src.ops->speed(a->src.ctx, f);
	return R_TITLE;
}

static unsigned act_slower(struct app *a)
{
	return speed(a, 0.5);
}

static unsigned act_faster(struct app *a)
{
	return speed(a, 2);
}

static unsigned act_restart(struct app *a)
{
	if (a->src.ops->seek) {
		a->src.ops->seek(a->src.ctx, 0);
		a->src.ops->play(a->src.ctx, 0);
	}
	return R_ALL;
}

static unsigned act_end(struct app *a)
{
	struct source_info in;
	app_source_info(a, &in);
	if (a->src.ops->seek)
		a->src.ops->seek(a->src.ctx, in.end_s);
	return R_ALL;
}

static unsigned act_style(struct app *a)
{
	static const char *const name[PLOT_NSTYLES] = {"dots", "thick", "fill"};
	a->view.style = (a->view.style + 1) % PLOT_NSTYLES;
	app_message(a, ROLE_OK, "strips: %s", name[a->view.style]);
	return R_STRIPS;
}

static unsigned act_showfloor(struct app *a)
{
	/* leaving is asked (the A_ASK flag of its row) */
	a->fl.showfloor = !a->fl.showfloor;
	if (a->fl.showfloor) {
		a->scr.screen = SCREEN_LIVE;
		if (a->view.style == PLOT_DOTS)
			a->view.style = PLOT_FILL;
	}
	app_message(a, ROLE_OK,
		    a->fl.showfloor ? "showfloor: destructive keys locked (b leaves)"
				    : "showfloor off");
	return R_ALL;
}

/* ---- the setup screen's actions (Devices, Presets, the form) ---- */

static unsigned act_pane(struct app *a)
{
	if (a->fl.cur_key == -KEY_BTAB)
		a->scr.focus = a->scr.focus == PANE_DEVICES ? (a->fl.demo ? PANE_LAUNCH : PANE_FORM)
			       : a->scr.focus == PANE_FORM  ? PANE_LAUNCH
							    : PANE_DEVICES;
	else
		a->scr.focus = a->scr.focus == PANE_DEVICES		    ? PANE_LAUNCH
			       : a->scr.focus == PANE_LAUNCH && !a->fl.demo ? PANE_FORM
									    : PANE_DEVICES;
	return R_TAKEN;
}

/* Moves the focused list's cursor by @d rows (clamped). */
void keys_move(struct app *a, int d)
{
	switch (a->scr.focus) {
	case PANE_DEVICES:
		move_cursor(&a->dev.dev_cur, a->dev.ndrows, d);
		break;
	case PANE_LAUNCH:
		move_cursor(&a->lp.pre_cur, (int)(a->lp.npresets + a->lp.nplans), d);
		break;
	case PANE_FORM:
		move_cursor(&a->fm.form_cur, FORM_NFIELDS, d);
		break;
	}
}

static unsigned act_step(struct app *a)
{
	keys_move(a, a->fl.cur_key == 'k' || a->fl.cur_key == -KEY_UP ? -1 : 1);
	return R_SETUP;
}

static unsigned act_page(struct app *a)
{
	keys_move(a, a->fl.cur_key == 'K' || a->fl.cur_key == -KEY_PPAGE ? -10 : 10);
	return R_SETUP;
}

static unsigned act_ends(struct app *a)
{
	keys_move(a, a->fl.cur_key == 'g' || a->fl.cur_key == -KEY_HOME ? -100000 : 100000);
	return R_SETUP;
}

static unsigned act_mark(struct app *a)
{
	if (a->dev.dev_cur >= a->dev.ndrows)
		return R_TAKEN;
	struct devrow *r = &a->dev.drows[a->dev.dev_cur];
	if (r->selectable) {
		r->marked = !r->marked;
		keys_move(a, 1);
	} else if (r->host_hdr || r->remote) { /* never silent: why nothing was marked */
		app_message(a, ROLE_WARN,
			    "%s: another host's drives are shown, not tested from this console "
			    "yet: nvscope run --target HOST:PATH",
			    r->host_hdr ? r->name : r->path);
	} else if (!r->depth) { /* never silent: why nothing was marked */
		app_message(a, ROLE_WARN,
			    "%s is a controller: mark its namespaces (the rows under it)", r->name);
	} else {
		app_message(a, ROLE_WARN,
			    "%s is a passthrough node: nvscope run --ioengine=io_uring_cmd "
			    "--target /dev/%s",
			    r->name, r->name);
	}
	return R_TAKEN;
}

static unsigned act_add(struct app *a)
{
	if (a->fl.demo)
		return 0;
	open_prompt(a, PROMPT_PATH, "Add target (file or device path): ", "");
	return R_TAKEN;
}

static unsigned act_check(struct app *a)
{
	if (a->fl.demo)
		return 0;
	checkui_open(a);
	return R_TAKEN;
}

static unsigned act_purge(struct app *a)
{
	purgeui_open(a);
	return R_TAKEN;
}

static unsigned act_fold(struct app *a)
{
	app_hosts_fold(a);
	return R_TAKEN;
}

static unsigned act_health(struct app *a)
{
	healthui_open(a);
	return R_TAKEN;
}

static unsigned act_rescan(struct app *a)
{
	/* on its own thread: "rescanned: N devices" once its list is in */
	app_message(a, ROLE_OK,
		    a->dev.scan ? "a scan is under way: another follows"
				: "rescanning the devices...");
	app_rescan(a);
	a->dev.scan_say |= a->dev.scan != NULL;
	return R_TAKEN;
}

static unsigned act_run_preset(struct app *a)
{
	int i = a->lp.pre_cur, np = (int)a->lp.npresets;
	if (i < np || i >= np + (int)a->lp.nplans)
		app_launch_preset(a, i);
	else if (purgeui_busy(a))
		app_message(a, ROLE_WARN, "a purge runs: wait for its end");
	else
		planui_launch(a, a->lp.plans[i - np].path);
	return R_TAKEN;
}

static unsigned act_jump(struct app *a)
{
	a->lp.jump = true;
	app_message(a, ROLE_OK, "jump to the preset starting with: (a letter)");
	return R_TAKEN;
}

static unsigned act_edit(struct app *a)
{
	struct form_field *f = &a->fm.form[a->fm.form_cur];
	if (!strcmp(f->key, "ioengine")) { /* two choices: Enter toggles */
		snprintf(f->val, sizeof(f->val), "%s",
			 strcmp(f->val, "passthrough") ? "passthrough" : "io_uring");
		app_message(a, ROLE_OK, "engine %s%s", f->val,
			    strcmp(f->val, "passthrough")
				? ""
				: ": NVMe passthrough on each marked namespace's /dev/ng node");
		return R_TAKEN;
	}
	char text[96];
	snprintf(text, sizeof(text), "%s = ", a->fm.form[a->fm.form_cur].label);
	open_prompt(a, PROMPT_FIELD, text, a->fm.form[a->fm.form_cur].val);
	return R_TAKEN;
}

static unsigned act_run_form(struct app *a)
{
	app_launch_form(a);
	return R_TAKEN;
}

/* Presets: a letter (or digit) after `/` jumps to the first entry, from
 * the top, whose name as shown starts with it ("plan:..." for plans, or
 * the plan's own name); a digit alone to the next one after the cursor
 * (again: the one after that).  Letters alone are keys. */
static bool jump_match(const struct app *a, int idx, int ch)
{
	bool plan = idx >= (int)a->lp.npresets;
	const char *nm =
	    plan ? a->lp.plans[idx - (int)a->lp.npresets].name : a->lp.presets[idx].name;
	return tolower((unsigned char)nm[0]) == tolower(ch) || (plan && tolower(ch) == 'p');
}

static void jump_key(struct app *a, int ch)
{
	bool first = a->lp.jump;
	int total = (int)(a->lp.npresets + a->lp.nplans);
	a->lp.jump = false;
	a->scr.dirty[PANE_LAUNCH] = true;
	for (int k = 0; k < total; k++) {
		int idx = first ? k : (a->lp.pre_cur + 1 + k) % total;
		if (jump_match(a, idx, ch)) {
			a->lp.pre_cur = idx;
			return;
		}
	}
}

/* the check view's and purge menu's keys (checkui.c, purgeui.c) */
static unsigned act_check_start(struct app *a)
{
	checkui_start(a);
	return R_TITLE;
}

static unsigned act_check_profile(struct app *a)
{
	checkui_next_profile(a);
	return R_TITLE;
}

static unsigned act_check_stop(struct app *a)
{
	checkui_stop(a);
	return R_TITLE;
}

static unsigned act_check_close(struct app *a)
{
	return checkui_close(a) ? R_ALL : R_TITLE;
}

static unsigned act_purge_move(struct app *a)
{
	int k = a->fl.cur_key;
	purgeui_move(a, k == 'j' || k == -KEY_DOWN ? 1 : -1);
	return R_ALL;
}

static unsigned act_purge_choose(struct app *a)
{
	purgeui_choose(a);
	return R_ALL;
}

static unsigned act_purge_close(struct app *a)
{
	purgeui_close(a);
	return R_ALL;
}

static unsigned act_purge_wait(struct app *a)
{
	purgeui_wait(a);
	return R_TAKEN;
}

#define F_DEV  (1u << PANE_DEVICES)
#define F_PRE  (1u << PANE_LAUNCH)
#define F_FORM (1u << PANE_FORM)
#define ENTER  '\r', '\n', -KEY_ENTER

static const struct action {
	int key[4];
	unsigned ctx;
	unsigned (*run)(struct app *a); /* enum reaction */
	const char *label, *help;
	unsigned focus; /* K_SETUP: the panes (F_*) it applies in, 0 = any */
	unsigned flags; /* enum kflag: what showfloor mode does with it */
} actions[] = {
    {{'q', -KEY_F(10)}, K_ALL, act_quit, "q F10", "quit (asks while work runs)", 0, A_ASK},
    {{'?', 'h', -KEY_F(1)}, K_ALL, act_help, "? h F1", "this help", 0, 0},
    {{'t', -KEY_F(2)}, K_ALL, act_theme, "t F2", "next theme", 0, 0},
    {{'l', -KEY_F(3)}, K_ALL, act_log, "l F3", "linear / log scale", 0, 0},
    {{'m'}, K_ALL, act_mbps, "m", "IOPS / MB/s", 0, 0},
    {{'v', -KEY_F(6)}, K_ALL, act_screen, "v F6", "setup / live screen", 0, A_LOCK},
    {{'s', -KEY_F(9)}, K_ALL, act_stop, "s F9", "stop (a plan: asks)", 0, A_LOCK},
    {{0x0c}, K_ALL, act_redraw, "Ctrl-L", "redraw", 0, 0},
    {{'d'}, K_ALL, act_style, "d", "strips: dots / thick / fill", 0, 0},
    {{'b'}, K_ALL, act_showfloor, "b", "showfloor on / off (asks)", 0, A_ASK},
    {{'E'}, K_ALL, act_events, "E", "event list (on / off)", 0, 0},
    /* the event list open: its keys before every other meaning */
    {{'k', -KEY_UP, 'j', -KEY_DOWN},
     K_EVENTS,
     act_events_scroll,
     "k j",
     "events: older / newer (Up Down)",
     0,
     0},
    {{'K', -KEY_PPAGE, 'J', -KEY_NPAGE},
     K_EVENTS,
     act_events_scroll,
     "K J",
     "events: page older / newer (PgUp PgDn)",
     0,
     0},
    {{'g', -KEY_HOME, 'G', -KEY_END},
     K_EVENTS,
     act_events_scroll,
     "g G",
     "events: oldest / newest (Home End)",
     0,
     0},
    /* playing before the live meanings of the same keys */
    {{' '}, K_PLAY, act_play, "Space", "replay: play / pause", 0, 0},
    {{'['}, K_PLAY, act_slower, "[", "replay: half speed", 0, 0},
    {{']'}, K_PLAY, act_faster, "]", "replay: double speed", 0, 0},
    {{'g', -KEY_HOME}, K_PLAY, act_restart, "g Home", "replay: restart", 0, 0},
    {{'G', -KEY_END}, K_PLAY, act_end, "G End", "replay: jump to the end", 0, 0},
    {{'+', '=', 'z'}, K_VIEW, act_zoom_in, "+ = z", "zoom the time axis in", 0, 0},
    {{'-', 'Z'}, K_VIEW, act_zoom_out, "- Z", "zoom out", 0, 0},
    {{'<', ',', -KEY_LEFT}, K_VIEW, act_left, "< Left", "scroll back (zoomed)", 0, 0},
    {{'>', '.', -KEY_RIGHT}, K_VIEW, act_right, "> Right", "scroll on (zoomed)", 0, 0},
    {{'0'}, K_VIEW, act_whole, "0", "whole run", 0, 0},
    {{'f', -KEY_END}, K_VIEW, act_follow, "f End", "follow the newest data", 0, 0},
    {{'r'}, K_VIEW, act_round, "r", "steady-state round length", 0, 0},
    {{'e'}, K_VIEW, act_steady, "e", "steady-state display", 0, 0},
    {{'k', -KEY_UP, 'j', -KEY_DOWN},
     K_VIEW,
     act_qd_scroll,
     "k j",
     "per-QD: up / down (Up Down)",
     0,
     0},
    {{'K', 'J', 'g', 'G'}, K_VIEW, act_qd_scroll, "K J g G", "per-QD: page, first, last", 0, 0},
    {{'n', -KEY_NPAGE}, K_VIEW, act_page_next, "n PgDn", "next per-target page", 0, 0},
    {{'p', -KEY_PPAGE}, K_VIEW, act_page_prev, "p PgUp", "previous per-target page", 0, 0},
    /* the setup screen: by the focused pane */
    {{'\t', -KEY_BTAB}, K_SETUP, act_pane, "Tab S-Tab", "next / previous pane", 0, 0},
    {{'j', -KEY_DOWN, 'k', -KEY_UP}, K_SETUP, act_step, "j k", "down / up (Down Up)", 0, 0},
    {{'J', -KEY_NPAGE, 'K', -KEY_PPAGE},
     K_SETUP,
     act_page,
     "J K",
     "page down / up (PgDn PgUp)",
     0,
     0},
    {{'g', -KEY_HOME, 'G', -KEY_END}, K_SETUP, act_ends, "g G", "first / last (Home End)", 0, 0},
    {{' '}, K_SETUP, act_mark, "Space", "Devices: mark a target", F_DEV, 0},
    {{'a'}, K_SETUP, act_add, "a", "Devices: add a path", F_DEV, A_LOCK},
    {{'c'}, K_SETUP, act_check, "c", "Devices: drive check", F_DEV, A_LOCK},
    {{'r'}, K_SETUP, act_rescan, "r", "Devices: rescan", F_DEV, 0},
    {{'H'}, K_SETUP, act_health, "H", "Devices: SMART health view", F_DEV, 0},
    {{'P'}, K_SETUP, act_purge, "P", "Devices: purge (erase)", F_DEV, A_LOCK},
    {{'o'}, K_SETUP, act_fold, "o", "Devices: other hosts folded / unfolded", F_DEV, 0},
    {{ENTER, -KEY_F(5)},
     K_SETUP,
     act_run_preset,
     "Enter F5",
     "run the preset or plan",
     F_DEV | F_PRE,
     A_LOCK},
    {{'/'}, K_SETUP, act_jump, "/ 0-9", "Presets: jump to a name", F_PRE, 0},
    {{ENTER}, K_SETUP, act_edit, "Enter", "form: edit the field", F_FORM, 0},
    {{'r', -KEY_F(5)}, K_SETUP, act_run_form, "r F5", "form: run the workload", F_FORM, A_LOCK},
    /* the check view: it takes every key but E */
    {{ENTER}, K_CHECK, act_check_start, "Enter", "check: start", 0, 0},
    {{'p'}, K_CHECK, act_check_profile, "p", "check: next profile (before the start)", 0, 0},
    {{'s'}, K_CHECK, act_check_stop, "s", "check: stop", 0, 0},
    {{'q', 27}, K_CHECK, act_check_close, "q Esc", "check: close the view", 0, 0},
    /* the purge menu: it takes every key */
    {{'j', -KEY_DOWN, 'k', -KEY_UP}, K_PURGE, act_purge_move, "j k", "purge: down / up", 0, 0},
    {{ENTER}, K_PURGE, act_purge_choose, "Enter", "purge: choose the method", 0, 0},
    {{27, 'q'}, K_PURGE, act_purge_close, "Esc q", "purge: close the menu", 0, 0},
    /* a purge running is never interrupted: these say so */
    {{27, 's', -KEY_F(9)}, K_PURGING, act_purge_wait, "Esc s F9", "purge: runs to its end", 0, 0},
    {{'q', -KEY_F(10)}, K_PURGING, act_purge_wait, "q F10", "purge: runs to its end", 0, 0},
};

/* ---- the key bar: each screen's buttons, each naming an action of the
 * table above (and, for "+-" and the like, a second one); a button's codes
 * are its actions' first keys, so a click runs what the key runs.  The
 * words are the bar's own (short: "Live" on the setup screen, "Setup" on
 * the live one, for the same action). ---- */
struct barbtn {
	const char *key, *what;
	unsigned (*run)(struct app *a), (*run2)(struct app *a);
};

static const struct barbtn bar_setup[] = {
    {"F1", "Help", act_help, NULL},  {"Tab", "Pane", act_pane, NULL},
    {"Spc", "Mark", act_mark, NULL}, {"Enter", "Run", act_run_preset, NULL},
    {"a", "AddFile", act_add, NULL}, {"H", "Health", act_health, NULL},
    {"v", "Live", act_screen, NULL}, {"t", "Theme", act_theme, NULL},
    {"q", "Quit", act_quit, NULL},
};
static const struct barbtn bar_live[] = {
    {"F1", "Help", act_help, NULL},   {"l", "Log", act_log, NULL},
    {"m", "MB/s", act_mbps, NULL},    {"+-", "Zoom", act_zoom_in, act_zoom_out},
    {"r", "Round", act_round, NULL},  {"s", "Stop", act_stop, NULL},
    {"v", "Setup", act_screen, NULL}, {"t", "Theme", act_theme, NULL},
    {"q", "Quit", act_quit, NULL},
};
static const struct barbtn bar_play[] = {
    {"F1", "Help", act_help, NULL},
    {"Spc", "Play", act_play, NULL},
    {"[]", "Speed", act_slower, act_faster},
    {"l", "Log", act_log, NULL},
    {"+-", "Zoom", act_zoom_in, act_zoom_out},
    {"<>", "Scroll", act_left, act_right},
    {"Home", "Restart", act_restart, NULL},
    {"t", "Theme", act_theme, NULL},
    {"q", "Quit", act_quit, NULL},
};
static const struct barbtn bar_floor[] = {
    {"SHOWFLOOR ", "", act_help, NULL}, {"b", "Leave", act_showfloor, NULL},
    {"d", "Style", act_style, NULL},	{"l", "Log", act_log, NULL},
    {"m", "MB/s", act_mbps, NULL},	{"t", "Theme", act_theme, NULL},
    {"?", "Help", act_help, NULL},	{"q", "Quit", act_quit, NULL},
};

/* The first key of the action that runs @run, 0 for none. */
static int first_key(unsigned (*run)(struct app *a))
{
	for (size_t i = 0; run && i < sizeof(actions) / sizeof(actions[0]); i++)
		if (actions[i].run == run)
			return actions[i].key[0];
	return 0;
}

int keys_bar(const struct app *a, const struct keybtn **out)
{
	static struct keybtn btn[KEYS_BAR_MAX];
	const struct barbtn *b = bar_live;
	size_t n = NVS_ARRAY_SIZE(bar_live);
	if (a->fl.showfloor)
		b = bar_floor, n = NVS_ARRAY_SIZE(bar_floor);
	else if (app_can(a, SOURCE_CAN_PLAY))
		b = bar_play, n = NVS_ARRAY_SIZE(bar_play);
	else if (a->scr.screen == SCREEN_SETUP)
		b = bar_setup, n = NVS_ARRAY_SIZE(bar_setup);
	if (n > KEYS_BAR_MAX)
		n = KEYS_BAR_MAX;
	for (size_t i = 0; i < n; i++)
		btn[i] =
		    (struct keybtn){b[i].key, b[i].what, first_key(b[i].run), first_key(b[i].run2)};
	*out = btn;
	return (int)n;
}

/* Does action @ac apply on the screen @a shows now (its context)? */
static bool applies_here(const struct app *a, const struct action *ac)
{
	bool view = app_can(a, SOURCE_VIEW_ONLY) || a->scr.screen == SCREEN_LIVE;
	switch (ac->ctx) {
	case K_VIEW:
		return view;
	case K_PLAY:
		return app_can(a, SOURCE_CAN_PLAY);
	case K_EVENTS:
		return a->ev.on;
	case K_SETUP:
		return !view && !a->fl.showfloor; /* showfloor: locked away */
	case K_CHECK:
		return checkui_active(a);
	case K_PURGE:
		return purgeui_menu_open(a);
	case K_PURGING:
		return purgeui_running(a);
	default:
		return true;
	}
}

int keys_help(const struct app *a, char (*lines)[KEYS_HELP_LEN], int max)
{
	int n = 0;
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]) && n < max; i++)
		if (applies_here(a, &actions[i]))
			snprintf(lines[n++], KEYS_HELP_LEN, "%-9s %s", actions[i].label,
				 a->fl.showfloor && (actions[i].flags & A_LOCK)
				     ? "(locked in showfloor)"
				     : actions[i].help);
	return n;
}

/* The action asked about in showfloor mode (PROMPT_ASK), answered yes. */
static void run_asked(struct app *a)
{
	int i = a->fl.asked_action;
	a->fl.asked_action = -1;
	if (i >= 0 && i < (int)(sizeof(actions) / sizeof(actions[0])))
		react(a, actions[i].run(a));
	app_dirty_all(a);
}

/* Showfloor mode: a locked action is refused, an asked one asked first
 * (true: handled here). */
static bool showfloor_gate(struct app *a, size_t i)
{
	const struct action *ac = &actions[i];
	if (!a->fl.showfloor)
		return false;
	if (ac->flags & A_LOCK) {
		app_message(a, ROLE_WARN, "%s: locked in showfloor mode (b leaves it, asks)",
			    ac->label);
		return true;
	}
	if (ac->flags & A_ASK) {
		char q[128], what[48], key[16];
		a->fl.asked_action = (int)i;
		snprintf(what, sizeof(what), "%s", ac->help);
		what[strcspn(what, "(")] = '\0'; /* "quit (asks ...)": "quit" */
		size_t wl = strlen(what);
		while (wl && what[wl - 1] == ' ')
			what[--wl] = '\0';
		snprintf(key, sizeof(key), "%s", ac->label);
		key[strcspn(key, " ")] = '\0';
		snprintf(q, sizeof(q), "Showfloor mode: '%s' (%s)? (y/n) ", key, what);
		open_prompt(a, PROMPT_ASK, q, "");
		return true;
	}
	return false;
}

/* Runs the first action of the table bound to @k that applies now. */
static bool table_key(struct app *a, int k)
{
	bool view = app_can(a, SOURCE_VIEW_ONLY) || a->scr.screen == SCREEN_LIVE;
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++) {
		const struct action *ac = &actions[i];
		if ((ac->ctx & K_MODAL) || (ac->ctx == K_VIEW && !view) ||
		    (ac->ctx == K_PLAY && !app_can(a, SOURCE_CAN_PLAY)) ||
		    (ac->ctx == K_EVENTS && !a->ev.on))
			continue;
		if (ac->ctx == K_SETUP &&
		    (view || (ac->focus && !(ac->focus & (1u << a->scr.focus)))))
			continue;
		for (int j = 0; j < 4 && ac->key[j]; j++) {
			if (ac->key[j] != k)
				continue;
			if (showfloor_gate(a, i))
				return true;
			a->fl.cur_key = k;
			unsigned r = ac->run(a);
			if (!r)
				break;
			/* a setup key moves or marks in its pane; a view key
			 * changes what the title says (zoom, follow...) */
			react(a, r | (ac->ctx == K_SETUP ? R_SETUP
				      : ac->ctx != K_ALL ? R_TITLE
							 : 0));
			return true;
		}
	}
	return false;
}

/* The keys of a view that takes them (K_MODAL: the check view, the purge
 * menu, a purge running): the first action of context @ctx bound to @k,
 * run; its reaction, 0 when none is bound to @k. */
static unsigned modal_key(struct app *a, unsigned ctx, int k)
{
	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		for (int j = 0; j < 4 && actions[i].key[j]; j++)
			if (actions[i].ctx == ctx && actions[i].key[j] == k) {
				a->fl.cur_key = k;
				return actions[i].run(a);
			}
	return 0;
}

void keys_handle(struct app *a, int ch, bool is_key)
{
	int k = is_key ? -ch : ch;
	unsigned r;
	if (is_key && ch == KEY_RESIZE) {
		app_dirty_all(a);
		return;
	}
	if (is_key && ch == KEY_MOUSE) {
		keys_mouse_event(a);
		return;
	}
	if (a->pr.prompt != PROMPT_NONE) {
		prompt_key(a, ch, is_key);
		return;
	}
	if (checkui_active(a) && k != 'E') { /* the view takes every key but E */
		r = modal_key(a, K_CHECK, k);
		react(a, r ? r : R_TITLE);
		return;
	}
	if (healthui_key(a, ch, is_key))
		return;
	if (a->scr.help) {
		a->scr.help = false;
		app_dirty_all(a);
		return;
	}
	if (purgeui_menu_open(a)) { /* the menu takes every key */
		r = modal_key(a, K_PURGE, k);
		react(a, r ? r : R_ALL);
		return;
	}
	if (purgeui_running(a) && (r = modal_key(a, K_PURGING, k))) {
		react(a, r);
		return;
	}
	bool setup = !app_can(a, SOURCE_VIEW_ONLY) && a->scr.screen == SCREEN_SETUP;
	bool jump_now = setup && a->scr.focus == PANE_LAUNCH && !is_key &&
			(isdigit(ch) || (a->lp.jump && isalnum(ch)));
	if (a->lp.jump && !jump_now) {
		a->lp.jump = false;
		a->scr.dirty[PANE_LAUNCH] = true;
	}
	if (jump_now) {
		jump_key(a, ch);
		return;
	}
	table_key(a, k);
}

/* keybar.c - the mouse: a click selects a row or a pane or runs a key-bar
 * button (the buttons are keys.c's, each naming an action of its table), the
 * wheel moves a list or the time axis.  Every action still goes through
 * keys_handle and the one action table in keys.c (confirmations, showfloor
 * locks). */
#include "ui/app.h"

static bool in_rect(const struct rect *r, int y, int x)
{
	return r->w > 0 && r->h > 0 && y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}

/* A click or the wheel over a setup pane: focus it, select the row. */
static void mouse_setup(struct app *a, int p, int row, enum mouse_ev ev)
{
	if (p == PANE_FORM && a->fl.demo)
		return;
	a->scr.focus = p;
	/* the wheel moves the cursor; a click selects the row under it (list
	 * rows start below the header: Devices: and its column line) */
	if (ev != MOUSE_CLICK)
		keys_move(a, ev == MOUSE_WHEEL_UP ? -3 : 3);
	else if (p == PANE_DEVICES && row >= 2 && a->dev.dev_top + row - 2 < a->dev.ndrows)
		a->dev.dev_cur = a->dev.dev_top + row - 2;
	else if (p == PANE_LAUNCH && row >= 1 &&
		 a->lp.pre_top + row - 1 < (int)(a->lp.npresets + a->lp.nplans))
		a->lp.pre_cur = a->lp.pre_top + row - 1;
	else if (p == PANE_FORM && row >= 1 && row - 1 < FORM_NFIELDS)
		a->fm.form_cur = row - 1;
	a->scr.dirty[PANE_DEVICES] = a->scr.dirty[PANE_LAUNCH] = a->scr.dirty[PANE_FORM] = true;
}

void keys_mouse(struct app *a, int y, int x, enum mouse_ev ev)
{
	/* a prompt (a typed confirmation above all) takes keys only */
	if (a->pr.prompt != PROMPT_NONE || a->scr.too_small || checkui_active(a) ||
	    purgeui_menu_open(a) || healthui_active(a))
		return;
	if (a->scr.help) {
		if (ev == MOUSE_CLICK)
			keys_handle(a, ' ', false); /* any key closes it */
		return;
	}
	const struct rect *st = &a->scr.lay.pane[PANE_STATUS];
	if (in_rect(st, y, x)) {
		if (ev != MOUSE_CLICK)
			return;
		const struct keybtn *k;
		int n = keys_bar(a, &k), x0 = st->x;
		for (int i = 0; i < n && i < a->scr.nbar; i++) {
			if (x < st->x + a->scr.bar_end[i]) {
				int code = k[i].code2 && x == x0 + 1 ? k[i].code2 : k[i].code;
				keys_handle(a, code < 0 ? -code : code, code < 0);
				return;
			}
			x0 = st->x + a->scr.bar_end[i] + 1;
		}
		return;
	}
	if (!app_can(a, SOURCE_VIEW_ONLY) && a->scr.screen == SCREEN_SETUP) {
		static const int setup[] = {PANE_DEVICES, PANE_LAUNCH, PANE_FORM};
		for (size_t i = 0; i < NVS_ARRAY_SIZE(setup); i++)
			if (in_rect(&a->scr.lay.pane[setup[i]], y, x)) {
				mouse_setup(a, setup[i], y - a->scr.lay.pane[setup[i]].y, ev);
				return;
			}
		return;
	}
	/* the live screen or a results directory: the wheel scrolls the time axis */
	if (ev == MOUSE_WHEEL_UP)
		keys_handle(a, '<', false);
	else if (ev == MOUSE_WHEEL_DOWN)
		keys_handle(a, '>', false);
}

void keys_mouse_event(struct app *a)
{
	MEVENT me;
	if (getmouse(&me) != OK)
		return;
	if (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
		keys_mouse(a, me.y, me.x, MOUSE_CLICK);
	else if (me.bstate & BUTTON4_PRESSED)
		keys_mouse(a, me.y, me.x, MOUSE_WHEEL_UP);
	else if (me.bstate & BUTTON5_PRESSED)
		keys_mouse(a, me.y, me.x, MOUSE_WHEEL_DOWN);
}

/* evview.c - the event list on screen (key E): the events of a->ev.list
 * (evlist.h) over the lower half of the screen, newest at the bottom, each
 * with its time; a long one wraps onto the next rows, never cut.  It
 * scrolls back (a->ev.back: newest events hidden below; k j K J g G
 * while it is open, keys.c), and says what it does not show: a marker
 * row above for the older events held and those the list dropped (the
 * run's events.log has them all), one below for the newer ones. */
#include <string.h>
#include <time.h>
#include "ui/app.h"
#include "ui/devrows.h"

/* Rows event @e takes at @tw columns (>= 1). */
static int event_rows(const struct evlist_item *e, int tw)
{
	int lines = 0, next;
	for (const char *p = e->text; *p; p += next, lines++)
		devrows_wrap(p, tw, &next);
	return lines < 1 ? 1 : lines;
}

/* How many events, newest first from index @from down, fit whole in
 * @rows rows. */
static size_t events_fit(const struct evlist *l, size_t from, int tw, int rows)
{
	size_t k = 0;
	for (size_t i = from + 1; i-- > 0; k++) {
		rows -= event_rows(evlist_get(l, i), tw);
		if (rows < 0)
			break;
	}
	return k;
}

/* Draws event @e with its last row at @y; its first row. */
static int draw_event(struct paint *pa, WINDOW *w, const struct evlist_item *e, int y, int tw)
{
	int lines = event_rows(e, tw), top = y - lines + 1, next;
	char ts[16];
	struct tm tm;
	strftime(ts, sizeof(ts), "%H:%M:%S", localtime_r(&e->t, &tm));
	if (top >= 1)
		draw_str(pa, w, top, 0, 9, ROLE_DIM, ts);
	const char *p = e->text;
	for (int l = 0; l < lines && *p; l++, p += next) {
		if (top + l < 1)
			continue; /* taller than the list: its end shows */
		char chunk[1024];
		snprintf(chunk, sizeof(chunk), "%.*s", devrows_wrap(p, tw, &next), p);
		draw_str(pa, w, top + l, 9, tw, e->role, chunk);
	}
	return top;
}

void panes_draw_events(struct ui_events *ev, struct paint *pa, struct ui_screen *scr)
{
	int bw = scr->cols, bh = scr->rows / 2;
	if (bh < 4 || bw < 20)
		return;
	if (scr->overlay)
		delwin(scr->overlay);
	scr->overlay = newwin(bh, bw, scr->rows - 1 - bh, 0);
	if (!scr->overlay)
		return;
	WINDOW *w = scr->overlay;
	for (int y = 0; y < bh; y++)
		draw_fill(pa, w, y, ROLE_NORMAL);
	size_t n = evlist_count(ev->list), dropped = evlist_total(ev->list) - n;
	int tw = bw - 10; /* "HH:MM:SS " then the text */
	if (ev->back >= n)
		ev->back = n ? n - 1 : 0;
	size_t newest = n ? n - 1 - ev->back : 0, newer = ev->back;
	/* rows 1..bh-1; the bottom one says how many newer events are
	 * hidden, the top one how many older (then only whole events fit) */
	int bottom = newer ? bh - 2 : bh - 1;
	size_t shown = n ? events_fit(ev->list, newest, tw, bottom) : 0;
	bool above = n && (shown <= newest || dropped);
	if (above)
		shown = events_fit(ev->list, newest, tw, bottom - 1);
	if (n && !shown)
		shown = 1; /* one event taller than the list: its end shows */
	char right[64];
	if (n)
		snprintf(right, sizeof(right), "%zu-%zu of %zu  E closes", newest + 2 - shown,
			 newest + 1, n);
	else
		snprintf(right, sizeof(right), "E closes");
	draw_header(pa, w, "Events", right);
	if (!n)
		draw_str(pa, w, 1, 1, bw - 2, ROLE_DIM, "no events yet");
	int y = bottom;
	for (size_t k = 0; k < shown; k++)
		y = draw_event(pa, w, evlist_get(ev->list, newest - k), y, tw) - 1;
	if (above) {
		size_t older = newest + 1 - shown;
		char m[160];
		if (dropped && !older)
			snprintf(m, sizeof(m),
				 "^ %zu oldest dropped (a run's events.log keeps all)", dropped);
		else if (dropped)
			snprintf(m, sizeof(m),
				 "^ %zu earlier (k PgUp g), %zu oldest dropped (runs: events.log)",
				 older, dropped);
		else
			snprintf(m, sizeof(m), "^ %zu earlier (k PgUp g)", older);
		draw_fill(pa, w, 1, ROLE_NORMAL);
		draw_str(pa, w, 1, 0, bw, ROLE_WARN, m);
	}
	if (newer) {
		char m[96];
		snprintf(m, sizeof(m), "v %zu newer (j PgDn G)", newer);
		draw_str(pa, w, bh - 1, 0, bw, ROLE_WARN, m);
	}
	wnoutrefresh(w);
}

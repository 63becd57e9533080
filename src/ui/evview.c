/* evview.c - the event list on screen (key E): the last events of
 * a->events (evlist.h) over the lower half of the screen, newest at the
 * bottom, each with its time; a long one wraps onto the next rows, never
 * cut. */
#include <string.h>
#include <time.h>
#include "ui/app.h"
#include "ui/devrows.h"

void panes_draw_events(struct app *a)
{
	/* the last events, newest at the bottom, above the status bar; a long
	 * one goes on over the next rows (never cut) */
	int bw = a->scr.cols, bh = a->scr.rows / 2;
	if (bh < 4 || bw < 20)
		return;
	if (a->scr.overlay)
		delwin(a->scr.overlay);
	a->scr.overlay = newwin(bh, bw, a->scr.rows - 1 - bh, 0);
	if (!a->scr.overlay)
		return;
	WINDOW *w = a->scr.overlay;
	for (int y = 0; y < bh; y++)
		draw_fill(&a->paint, w, y, ROLE_NORMAL);
	size_t n = evlist_count(a->events);
	char right[48];
	snprintf(right, sizeof(right), "%zu of %zu  E closes", n, evlist_total(a->events));
	draw_header(&a->paint, w, "Events", right);
	int tw = bw - 10; /* "HH:MM:SS " then the text */
	int y = bh - 1;
	if (!n)
		draw_str(&a->paint, w, 1, 1, bw - 2, ROLE_DIM, "no events yet");
	for (size_t k = n; k-- > 0 && y >= 1;) {
		const struct evlist_item *e = evlist_get(a->events, k);
		int lines = 0, next; /* wrapped with the words whole */
		for (const char *p = e->text; *p; p += next, lines++)
			devrows_wrap(p, tw, &next);
		if (lines < 1)
			lines = 1;
		if (y - lines + 1 < 1)
			break; /* only whole events */
		char ts[16];
		struct tm tm;
		strftime(ts, sizeof(ts), "%H:%M:%S", localtime_r(&e->t, &tm));
		int top = y - lines + 1;
		draw_str(&a->paint, w, top, 0, 9, ROLE_DIM, ts);
		const char *p = e->text;
		for (int l = 0; l < lines && *p; l++, p += next) {
			char chunk[1024];
			snprintf(chunk, sizeof(chunk), "%.*s", devrows_wrap(p, tw, &next), p);
			draw_str(&a->paint, w, top + l, 9, tw, e->role, chunk);
		}
		y = top - 1;
	}
	wnoutrefresh(w);
}

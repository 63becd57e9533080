/* evlist.h - the console's on-screen event list: the last N events
 * (steady-state verdicts, step results, confirmations, errors, health
 * changes) with their wall-clock time and display role, in a ring of fixed
 * capacity (the oldest is dropped).  Pure data, no ncurses; UI thread
 * only.  The same events go to the run's events.log (actions.c). */
#ifndef NVS_UI_EVLIST_H
#define NVS_UI_EVLIST_H

#include <stddef.h>
#include <time.h>

#define EVLIST_CAP 200 /* events kept on screen */

struct evlist_item {
	time_t t;   /* wall clock */
	int role;   /* theme role it is shown in */
	char *text; /* whole, never cut (malloc'ed) */
};

struct evlist;

/* An empty list of capacity @cap (>= 1).  NULL when out of memory. */
struct evlist *evlist_new(size_t cap);
/* NULL-safe. */
void evlist_free(struct evlist *l);
/* Appends a copy of @text; drops the oldest event when full.  0 or
 * -ENOMEM (the list unchanged). */
int evlist_push(struct evlist *l, time_t t, int role, const char *text);
/* Events held (<= capacity) and the total ever pushed. */
size_t evlist_count(const struct evlist *l);
size_t evlist_total(const struct evlist *l);
/* Event @i, 0 = the oldest held; NULL past the end. */
const struct evlist_item *evlist_get(const struct evlist *l, size_t i);

#endif

/* healthset.c - the health readers of a run's controllers (see healthset.h).
 * Everything here runs on the UI thread; each healthmon has its own reader
 * thread and ring. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dev/healthset.h"

struct watched {
	char path[256];
	struct healthmon *mon;
	bool have; /* a good reading taken */
	struct dev_health last;
};

struct healthset {
	unsigned n, left_out, next; /* next: where polling starts (fairness) */
	struct watched w[];
};

struct healthset *healthset_new(const char *const *paths, unsigned n, double period_s)
{
	struct healthset *s = calloc(1, sizeof(*s) + HEALTHSET_MAX * sizeof(struct watched));
	if (!s)
		return NULL;
	for (unsigned i = 0; i < n; i++) {
		bool dup = false;
		for (unsigned k = 0; k < s->n; k++)
			dup |= !strcmp(s->w[k].path, paths[i]);
		if (dup)
			continue;
		if (s->n == HEALTHSET_MAX || strlen(paths[i]) >= sizeof(s->w[0].path)) {
			s->left_out++;
			continue;
		}
		struct watched *w = &s->w[s->n++];
		snprintf(w->path, sizeof(w->path), "%s", paths[i]);
		if (period_s > 0)
			w->mon = healthmon_new(w->path, period_s);
	}
	return s;
}

unsigned healthset_count(const struct healthset *s)
{
	return s ? s->n : 0;
}

unsigned healthset_left_out(const struct healthset *s)
{
	return s ? s->left_out : 0;
}

const char *healthset_path(const struct healthset *s, unsigned i)
{
	return s && i < s->n ? s->w[i].path : "";
}

bool healthset_poll(struct healthset *s, unsigned *i, struct healthmon_reading *out)
{
	if (!s || !s->n)
		return false;
	for (unsigned k = 0; k < s->n; k++) {
		unsigned j = (s->next + k) % s->n;
		if (healthmon_poll(s->w[j].mon, out)) {
			*i = j;
			s->next = (j + 1) % s->n; /* a chatty one cannot starve the others */
			return true;
		}
	}
	return false;
}

static const char *short_name(const char *path)
{
	return strncmp(path, "/dev/", 5) ? path : path + 5;
}

static void add(struct healthset_event *ev, int max, int *n, int level, const char *path,
		const char *fmt, unsigned long long was, unsigned long long now)
{
	if (*n >= max)
		return;
	ev[*n].level = level;
	char what[160];
	snprintf(what, sizeof(what), fmt, was, now);
	snprintf(ev[*n].text, sizeof(ev[*n].text), "%s: %s", short_name(path), what);
	(*n)++;
}

int healthset_note(struct healthset *s, unsigned i, const struct healthmon_reading *r,
		   struct healthset_event *ev, int max)
{
	int n = 0;
	if (!s || i >= s->n || !r->ok)
		return 0;
	struct watched *w = &s->w[i];
	const struct dev_health *h = &r->h, *o = &w->last;
	if (w->have) {
		char txt[256];
		int c = healthmon_cw_change(o->critical_warning, h->critical_warning, txt,
					    sizeof(txt));
		if (c >= 0 && n < max) {
			ev[n].level = c;
			snprintf(ev[n].text, sizeof(ev[n].text), "%s: %s", short_name(w->path), txt);
			n++;
		}
		if (h->media_errors > o->media_errors)
			add(ev, max, &n, HEALTHMON_CW_WORSE, w->path, "media errors rose %llu -> %llu",
			    (unsigned long long)o->media_errors, (unsigned long long)h->media_errors);
		if (h->error_log_entries > o->error_log_entries)
			add(ev, max, &n, HEALTHMON_CW_FEWER, w->path,
			    "error log entries rose %llu -> %llu",
			    (unsigned long long)o->error_log_entries,
			    (unsigned long long)h->error_log_entries);
	}
	w->last = *h;
	w->have = true;
	return n;
}

const struct dev_health *healthset_latest(const struct healthset *s, unsigned i)
{
	return s && i < s->n && s->w[i].have ? &s->w[i].last : NULL;
}

unsigned healthset_summary(const struct healthset *s, char *buf, size_t len)
{
	unsigned warned = 0;
	size_t o = 0;
	if (!len)
		return 0;
	buf[0] = '\0';
	for (unsigned i = 0; s && i < s->n; i++)
		warned += s->w[i].have && s->w[i].last.critical_warning;
	if (!warned)
		return 0;
	int k = s->n == 1 ? snprintf(buf, len, "CRITICAL:")
			  : snprintf(buf, len, "%u drives, %u CRITICAL:", s->n + s->left_out, warned);
	o = k > 0 && (size_t)k < len ? (size_t)k : len - 1;
	bool first = true;
	for (unsigned i = 0; i < s->n && o + 1 < len; i++) {
		const struct watched *w = &s->w[i];
		char cw[200];
		if (!w->have || !w->last.critical_warning)
			continue;
		dev_cw_text(w->last.critical_warning, cw, sizeof(cw));
		if (s->n == 1)
			k = snprintf(buf + o, len - o, " %s", cw);
		else
			k = snprintf(buf + o, len - o, "%s %s %s", first ? "" : ",",
				     short_name(w->path), cw);
		o = k > 0 && o + (size_t)k < len ? o + (size_t)k : len - 1;
		first = false;
	}
	return warned;
}

void healthset_free(struct healthset *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->n; i++)
		healthmon_free(s->w[i].mon);
	free(s);
}

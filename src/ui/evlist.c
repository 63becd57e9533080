/* evlist.c - a ring of the last N console events (evlist.h). */
#include "ui/evlist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct evlist {
	struct evlist_item *it;
	size_t cap, head, n, total; /* head: index of the oldest */
};

struct evlist *evlist_new(size_t cap)
{
	if (!cap)
		return NULL;
	struct evlist *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->it = calloc(cap, sizeof(*l->it));
	if (!l->it) {
		free(l);
		return NULL;
	}
	l->cap = cap;
	return l;
}

void evlist_free(struct evlist *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->cap; i++)
		free(l->it[i].text);
	free(l->it);
	free(l);
}

int evlist_push(struct evlist *l, time_t t, int role, const char *text)
{
	char *copy = strdup(text ? text : "");
	if (!copy)
		return -ENOMEM;
	size_t slot;
	if (l->n < l->cap) {
		slot = (l->head + l->n) % l->cap;
		l->n++;
	} else { /* full: the oldest goes */
		slot = l->head;
		l->head = (l->head + 1) % l->cap;
		free(l->it[slot].text);
	}
	l->it[slot] = (struct evlist_item){t, role, copy};
	l->total++;
	return 0;
}

size_t evlist_count(const struct evlist *l)
{
	return l ? l->n : 0;
}

size_t evlist_total(const struct evlist *l)
{
	return l ? l->total : 0;
}

const struct evlist_item *evlist_get(const struct evlist *l, size_t i)
{
	if (!l || i >= l->n)
		return NULL;
	return &l->it[(l->head + i) % l->cap];
}

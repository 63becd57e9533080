/* series.c - the per-interval history container, see series.h. */
#include <errno.h>
#include <stdlib.h>
#include "stats/series.h"

int series_push(struct series *s, const struct point *p)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		struct point *np = realloc(s->pt, cap * sizeof(*np));
		if (!np)
			return -ENOMEM;
		s->pt = np;
		s->cap = cap;
	}
	s->pt[s->n++] = *p;
	return 0;
}

void series_release(struct series *s)
{
	free(s->pt);
	s->pt = NULL;
	s->n = s->cap = 0;
}

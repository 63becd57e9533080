/* pane.c - the figures a pane reads through its context's source (pane.h).
 * Calls nothing else of ui/. */
#include <string.h>
#include "ui/pane.h"

const struct series *pane_series(const struct pane_ctx *c, int t)
{
	return c->src.ops->series(c->src.ctx, t);
}

unsigned pane_ntargets(const struct pane_ctx *c)
{
	return c->src.ops->ntargets(c->src.ctx);
}

unsigned pane_copies(const struct pane_ctx *c)
{
	/* a storm's series are named "copy i" (live, and in targets.txt) */
	unsigned n = c->src.ops->ntargets(c->src.ctx);
	return n > 1 && !strncmp(c->src.ops->target(c->src.ctx, 0), "copy ", 5) ? n : 0;
}

const char *pane_target_name(const struct pane_ctx *c, unsigned t)
{
	return c->src.ops->target(c->src.ctx, t);
}

bool pane_can(const struct pane_ctx *c, unsigned cap)
{
	return (c->src.ops->caps & cap) != 0;
}

void pane_info(const struct pane_ctx *c, struct source_info *out)
{
	c->src.ops->info(c->src.ctx, out);
}

const struct plan *pane_plan(const struct pane_ctx *c, struct source_plan_state *st)
{
	memset(st, 0, sizeof(*st));
	if (!pane_can(c, SOURCE_HAS_STEPS))
		return NULL;
	c->src.ops->plan_state(c->src.ctx, st);
	return c->src.ops->plan(c->src.ctx);
}

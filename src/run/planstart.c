/* planstart.c - a plan the console starts, as source.h offers it: the
 * plan loaded and checked (planexec.c) behind the console's one header,
 * started, then handed to source_plan() (plansrc.c), which follows it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "run/planexec.h"
#include "run/planrun.h"
#include "run/source.h"

struct source_pending {
	struct planexec *pe;
};

int source_pending_new(const char *name, const char *const *targets, unsigned n,
		       struct source_pending **out, char *err, size_t len)
{
	struct source_pending *p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, len, "out of memory");
		return -ENOMEM;
	}
	int ret = planexec_new(name, targets, n, &p->pe, err, len);
	if (ret) {
		free(p);
		return ret;
	}
	*out = p;
	return 0;
}

void source_pending_free(struct source_pending *p)
{
	if (!p)
		return;
	planexec_free(p->pe);
	free(p);
}

struct planexec *source_pending_take(struct source_pending *p)
{
	struct planexec *pe = p->pe;
	free(p);
	return pe;
}

int source_pending_override(struct source_pending *p, const char *key, const char *val, char *err,
			    size_t len)
{
	return planexec_override(p->pe, key, val, err, len);
}

const char *source_pending_name(const struct source_pending *p)
{
	return planexec_name(p->pe);
}

bool source_pending_destroys(const struct source_pending *p)
{
	return planexec_destroys(p->pe);
}

bool source_pending_confirmed(const struct source_pending *p, const char *confirm, char *need,
			      size_t nlen, char *target, size_t tlen)
{
	return planexec_confirmed(p->pe, confirm, need, nlen, target, tlen);
}

const char *source_pending_target(const struct source_pending *p, unsigned i)
{
	return planexec_target(p->pe, i);
}

int source_pending_start(struct source_pending *p, const char *dir, const char *confirm, bool force,
			 char *err, size_t len)
{
	return planexec_start(p->pe, dir, confirm, force, err, len);
}

bool source_plan_writes(const struct plan *p)
{
	return planrun_destroys(p);
}

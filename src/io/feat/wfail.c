/* wfail.c - the first failure of a pool's workers (worker.h): whoever
 * fails first writes the message, everyone else is ignored.  Apart from
 * worker.c so that the worker's helpers (wstate, wverify, xrun) report
 * without calling back into it. */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include "io/core/worker.h"

void worker_fail(struct worker_shared *sh, int err, const char *fmt, ...)
{
	va_list ap;
	int expected = 0;

	/* the first claimant writes msg, then publishes error with release */
	if (!atomic_compare_exchange_strong_explicit(&sh->msg_claim, &expected, 1,
						     memory_order_acq_rel, memory_order_relaxed))
		return;
	va_start(ap, fmt);
	vsnprintf(sh->msg, sizeof(sh->msg), fmt, ap);
	va_end(ap);
	atomic_store_explicit(&sh->error, err, memory_order_release);
}

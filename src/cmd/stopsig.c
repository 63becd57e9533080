/* stopsig.c - see stopsig.h. */
#include <signal.h>
#include <stddef.h>
#include "cmd/stopsig.h"

static const int stop_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static void (*volatile user_handler)(int);

static void on_stop(int sig)
{
	if (sig == SIGHUP) {
		struct sigaction ign = {.sa_handler = SIG_IGN};
		sigemptyset(&ign.sa_mask);
		sigaction(SIGPIPE, &ign, NULL); /* async-signal-safe */
	}
	void (*h)(int) = user_handler;
	if (h)
		h(sig);
}

void stopsig_catch(void (*handler)(int), bool restart)
{
	struct sigaction sa = {.sa_handler = on_stop, .sa_flags = restart ? SA_RESTART : 0};

	user_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		sigaddset(&sa.sa_mask, stop_sigs[i]);
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		sigaction(stop_sigs[i], &sa, NULL);
}

void stopsig_default(void)
{
	for (size_t i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		signal(stop_sigs[i], SIG_DFL);
}

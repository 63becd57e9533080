/* stopsig.h - the signals that stop a headless command and keep what it
 * measured: SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal hung up: an SSH
 * session dropped) and SIGQUIT (Ctrl-\).  Each one calls the command's
 * handler (which records the signal number); the command then writes what
 * it has and exits 128 + that number.  After SIGHUP, SIGPIPE is ignored: a
 * message to a terminal or pipe that is gone fails, it does not kill the
 * program before its results are written. */
#ifndef NVS_CMD_STOPSIG_H
#define NVS_CMD_STOPSIG_H

#include <stdbool.h>

/* Installs @handler for the four signals; @restart: SA_RESTART (slow system
 * calls resume; without it they fail with EINTR, so a wait sees the stop). */
void stopsig_catch(void (*handler)(int), bool restart);
/* The default actions again (a signal now ends the program). */
void stopsig_default(void);

#endif

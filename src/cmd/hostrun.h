/* hostrun.h - `nvscope run` over hosts (docs/hosts.md): HOST:PATH targets,
 * each host's jobs run by its own nvscope (`nvscope agent`: the same
 * option parser, safety rules and fio-layout JSON as a local run), every
 * host prepared first and all started by one GO; the hosts' results
 * gathered as fio's client mode does ("client_stats", "All clients").
 * hostrun.c is the client, agentrun.c the far end. */
#ifndef NVS_CMD_HOSTRUN_H
#define NVS_CMD_HOSTRUN_H

#include <stdbool.h>
#include <stddef.h>
#include "cmd/cmd.h"
#include "cmd/hostcmd.h"

enum { HOSTRUN_O_CONFIRM = 1010 };

/* The options `run` takes for hosts (beside the workload options). */
/* clang-format off */
#define HOSTRUN_OPTS                                                                             \
	{{"host", required_argument, NULL, HOSTCMD_O_HOST}, 0, "DEST",                           \
	 "run on host DEST over ssh: each PATH target on every\n"                                \
	 "--host ([user@]host[:port]; a range rack3-n[01-16])"},                                 \
	{{"hosts", required_argument, NULL, HOSTCMD_O_HOSTS}, 0, "FILE",                          \
	 "run on the hosts of FILE (one a line, # comments)"},                                    \
	{{"ssh", required_argument, NULL, HOSTCMD_O_SSH}, 0, "CMD",                               \
	 "HOST:PATH targets: the ssh command, run by sh -c\n"                                    \
	 "(default $NVSCOPE_SSH, else ssh)"},                                                      \
	{{"remote-nvscope", required_argument, NULL, HOSTCMD_O_REMOTE}, 0, "PATH",                \
	 "HOST:PATH targets: nvscope on the hosts (default nvscope)"},                           \
	{{"connect-timeout", required_argument, NULL, HOSTCMD_O_TIMEOUT}, 0, "TIME",              \
	 "HOST:PATH targets: a host that has not answered\n"                                     \
	 "within TIME fails (default 10s)"},                                                      \
	{{"yes-destroy-data", required_argument, NULL, HOSTRUN_O_CONFIRM}, 0, "ID,...",            \
	 "HOST:PATH targets: a run that writes needs each\n"                                     \
	 "target's token (its serial, else its path)"}
/* clang-format on */

/* Is this run one over hosts (a HOST:PATH target, or a host option)? */
bool hostrun_wanted(const struct cmd_entry *e, const struct cmd_args *a);
/* `nvscope run` over hosts: an exit status. */
int hostrun_exec(const struct cmd_entry *e, struct cmd_args *a);
/* In `nvscope run` started by an agent (NVSCOPE_RUN_GATE_FD set by
 * agentrun.c, nobody else): the run's first start waits for the agent's
 * go (io/core/pool.h, pool_set_gate).  Nothing otherwise. */
void hostrun_gate_init(void);
/* A workload option that would make the far host read or write a path
 * other than the run's targets (an iolog, a log file, a directory, a
 * command): the option's name, or NULL when it may travel. */
const char *hostrun_refused_key(const char *key, size_t klen);

#endif

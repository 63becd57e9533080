/* agent.h - `nvscope agent`'s requests (agentreq.c), run in the agent's
 * worker thread: list, health, check, each with the same code as the
 * local command, under the agent's --allow list.  agent.c serves the
 * protocol; docs/hosts.md. */
#ifndef NVS_CMD_AGENT_H
#define NVS_CMD_AGENT_H

#include <stdatomic.h>
#include <stdint.h>

struct allow;
struct spsc;

/* A check's progress, from the worker to the serving loop (SPSC ring). */
struct agent_prog {
	int phase;
	unsigned drives;   /* drives in the batch */
	unsigned permille; /* the mean progress of those in this phase */
	char name[48];	   /* the phase's name */
};

/* One request: set by the serving loop before the worker starts, the
 * results set by the worker and read by the loop once @done (release /
 * acquire) is 1. */
struct agent_job {
	uint64_t id;
	char method[33];
	void *params; /* cJSON object or NULL */
	const struct allow *allow;
	struct spsc *prog; /* struct agent_prog, pushed by a check */
	_Atomic int cancel;
	_Atomic int go; /* a run: GO came (its one start) */
	/* results */
	int status;   /* the local command's exit status */
	void *result; /* cJSON object or NULL */
	char error[1024];
	_Atomic int done;
};

/* Runs @j (in the worker thread). */
void agent_job_run(struct agent_job *j);
/* The "run" request (agentrun.c): `nvscope run` with the client's options
 * as a child process on this host, held at its start until GO. */
int agentrun_do(struct agent_job *j);

#endif

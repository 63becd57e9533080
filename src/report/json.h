/* json.h - results as JSON in fio's layout (jobs[].read|write ...) plus an
 * "nvscope" key for what fio has not (series, drops, CPU per core, device). */
#ifndef NVS_JSON_H
#define NVS_JSON_H

#include <stdio.h>
#include "io/spec.h"
#include "stats/collect.h"
#include "stats/cpu.h"
#include "stats/result.h"

struct json_run {
	const struct spec *spec;
	const struct result *jobs; /* one per queue depth step / target */
	unsigned njobs;
	const struct result *targets; /* per target: [job * ntargets + t], or NULL */
	unsigned ntargets;
	const struct series *series; /* aggregate series of each job, or NULL */
	/* machine CPU per job (optional): [job * CPU_MAX + core], ncores[job] */
	const struct cpu_util *cores;
	const unsigned *ncores;
	uint64_t dropped;
	const char *extra_key;       /* optional extra object under "nvscope" */
	const char *extra_json;      /* ... its JSON text */
	const unsigned *groupid;     /* [njobs]: fio's groupid of each job, or NULL (the index) */
	const char *const *engine_note; /* [njobs]: how a job file's ioengine= ran, or NULL */
};

/* Reads and parses the JSON file @path (at most 256 MiB).  Returns a cJSON
 * tree the caller frees with cJSON_Delete (declared void * so this header
 * needs no cJSON), or NULL with errno set (EINVAL: not valid JSON). */
void *json_read_file(const char *path);

/* Writes the whole document to @f.  0 or -errno. */
int json_write_run(FILE *f, const struct json_run *run);

#endif

/* jsonss.h - fio's "steadystate" object of a job in fio's JSON (fio 3.33
 * stat.c show_thread_status_json), from a stats/fioss detector. */
#ifndef NVS_JSONSS_H
#define NVS_JSONSS_H

#include "stats/fioss.h"

/* Adds "steadystate" to the cJSON job object @job (void * so this header
 * needs no cJSON).  Nothing when @ss is NULL (fio: ss_dur 0). */
void jsonss_add(void *job, const struct fioss *ss);
/* Adds the steadystate options of @s to the cJSON "job options" object
 * @opts as fio echoes them (strings: "iops:50%", "3"); nothing when off. */
struct spec;
void jsonss_options(void *opts, const struct spec *s);

#endif

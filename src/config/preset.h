/* preset.h - presets and fio job files: `[global]` plus one section per job,
 * fio's option names (syntax: jobfile.c, values through opt_set). */
#ifndef NVS_PRESET_H
#define NVS_PRESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "io/opt/spec.h"

struct preset_info {
	char name[64]; /* file name without .ini */
	char path[512];
	char description[160]; /* the [global] description= line, may be empty */
	bool writes; /* a job writes (or trims): it destroys data; set by the lister's caller */
};

/* Resolves preset @name (or a path to an .ini/.fio file) into @path:
 * searched in $NVSCOPE_PRESETS, ./presets, the directory beside the binary's
 * ../share/nvscope/presets and /usr/share/nvscope/presets.  0 or -ENOENT. */
int preset_find(const char *name, char *path, size_t len);
/* Lists the presets of the first preset directory found (sorted by name).
 * *@out is malloc'ed (caller frees); 0 or -errno. */
int preset_list(struct preset_info **out, size_t *n);
/* Loads nvscope preset @path (nvscope's defaults: @base as given): each
 * job section starts from @base with [global] applied, then its own keys.
 * *@jobs is malloc'ed (caller frees).  The first error stops the load and
 * names the file, line and option ("presets/x.ini:7: bz: unknown option
 * 'bz'"); returns 0, -ENOENT, -EINVAL.  fio's ioengine= is mapped onto
 * io_uring (preset_engine_note says how) or refused. */
int preset_load(const char *path, const struct spec *base, struct spec **jobs, unsigned *njobs,
		char *err, size_t errlen);
/* The same for a fio job file, with fio's defaults where nvscope's differ:
 * rw=read, buffered (direct=0), ioengine=psync (queue depth 1), slat
 * measured (disable_slat=0); a file with no job section is refused. */
int preset_load_fio(const char *path, const struct spec *base, struct spec **jobs, unsigned *njobs,
		    char *err, size_t errlen);
/* The same from the @len bytes at @buf (named @name in messages), with
 * fio's defaults when @fio, reading no file (`include` is refused): for
 * fuzzing and tests. */
int preset_load_mem(const char *name, const char *buf, size_t len, bool fio,
		    const struct spec *base, struct spec **jobs, unsigned *njobs, char *err,
		    size_t errlen);
/* One line describing job @s as it will run (`nvscope run --parse-only`). */
void preset_print_job(FILE *f, const struct spec *s);
/* How a fio job file's ioengine= ran (spec.fio_engine), one line into
 * @buf ("ioengine=psync (fio's default) runs as io_uring at queue depth 1
 * ..."), "" when as named or not a job file's.  Returns @buf. */
#define PRESET_NOTE_LEN 320
const char *preset_engine_note(const struct spec *s, char *buf, size_t len);
/* Sections of a job file that are not jobs (a check profile's [thresholds]):
 * their keys go to @fn (0 to accept, -errno with @err to refuse). */
struct preset_extra {
	const char *const *sections; /* NULL-terminated names, or NULL */
	int (*fn)(void *arg, const char *section, const char *key, const char *value, char *err,
		  size_t errlen);
	void *arg;
	/* NULL, or each file read (the job file, then each `include`, as
	 * jobfile_ops.file): 0, or -errno with @err to refuse the load */
	int (*file)(void *arg, const char *path, char *err, size_t errlen);
};
/* preset_load with @x's sections handed to @x->fn and the files read to
 * @x->file (@x may be NULL). */
int preset_load_ex(const char *path, const struct spec *base, const struct preset_extra *x,
		   struct spec **jobs, unsigned *njobs, char *err, size_t errlen);
/* preset_load_fio with @x as preset_load_ex. */
int preset_load_fio_ex(const char *path, const struct spec *base, const struct preset_extra *x,
		       struct spec **jobs, unsigned *njobs, char *err, size_t errlen);

#endif

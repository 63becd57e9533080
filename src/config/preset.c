/* preset.c - fio job files and nvscope presets, parsed with inih.
 *
 * fio semantics kept: [global] keys apply to the job sections after them;
 * each other section is one job.  A file with only [global] is one job named
 * after the file.  Bare flags (`time_based`) are fio syntax that inih does
 * not take, so such lines become `flag=1` before parsing (line numbers are
 * kept).  Jobs run one after another (as if each had fio's stonewall). */
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/datadir.h"
#include "config/preset.h"

struct parse {
	const char *path;
	struct spec global;
	struct spec *jobs;
	unsigned njobs;
	bool in_global;
	char *err;
	size_t errlen;
	char section[64];
	const struct preset_extra *x;
};

static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct parse *ps = user;
	char msg[256];

	if (!name) /* a section header alone (inih calls this when built with it) */
		return 1;
	if (!section[0]) {
		snprintf(ps->err, ps->errlen, "'%s' outside a [section]", name);
		return 0;
	}
	for (unsigned i = 0; ps->x && ps->x->sections[i]; i++)
		if (!strcmp(section, ps->x->sections[i]))
			return ps->x->fn(ps->x->arg, section, name, value, ps->err, ps->errlen) ? 0 : 1;
	if (strcmp(section, ps->section)) {
		snprintf(ps->section, sizeof(ps->section), "%s", section);
		ps->in_global = !strcmp(section, "global");
		if (!ps->in_global) {
			struct spec *nj = realloc(ps->jobs, (ps->njobs + 1) * sizeof(*nj));
			if (!nj) {
				snprintf(ps->err, ps->errlen, "out of memory");
				return 0;
			}
			ps->jobs = nj;
			nj[ps->njobs] = ps->global;
			snprintf(nj[ps->njobs].name, sizeof(nj->name), "%s", section);
			ps->njobs++;
		}
	}
	struct spec *s = ps->in_global ? &ps->global : &ps->jobs[ps->njobs - 1];
	if (spec_set(s, name, value, msg, sizeof(msg))) {
		snprintf(ps->err, ps->errlen, "%s", msg);
		return 0;
	}
	return 1;
}

/* Reads @path and rewrites bare flag lines to "flag=1". */
static char *load_text(const char *path, int *rc)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	size_t cap = 4096, len = 0;
	char *out;

	if (!f) {
		*rc = -errno;
		return NULL;
	}
	out = malloc(cap);
	while (out && fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");
		size_t n = strlen(line);
		bool bare = *p && *p != '[' && *p != ';' && *p != '#' && *p != '\n' &&
			    *p != '\r' && !strchr(p, '=');
		if (bare) {
			line[strcspn(line, "\r\n")] = '\0';
			strcat(line, "=1\n");
			n = strlen(line);
		}
		if (len + n + 1 > cap) {
			char *no = realloc(out, cap * 2 + n);
			if (!no) {
				free(out);
				out = NULL;
				break;
			}
			out = no;
			cap = cap * 2 + n;
		}
		memcpy(out + len, line, n);
		len += n;
	}
	fclose(f);
	if (!out) {
		*rc = -ENOMEM;
		return NULL;
	}
	out[len] = '\0';
	*rc = 0;
	return out;
}

int preset_load(const char *path, const struct spec *base, struct spec **jobs, unsigned *njobs,
		char *err, size_t errlen)
{
	return preset_load_ex(path, base, NULL, jobs, njobs, err, errlen);
}

int preset_load_ex(const char *path, const struct spec *base, const struct preset_extra *x,
		   struct spec **jobs, unsigned *njobs, char *err, size_t errlen)
{
	struct parse ps = {.path = path, .global = *base, .err = err, .errlen = errlen, .x = x};
	int rc, line;
	char msg[256] = "";
	char *text = load_text(path, &rc);

	if (!text) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	ps.err = msg;
	ps.errlen = sizeof(msg);
	line = ini_parse_string(text, on_key, &ps);
	free(text);
	if (line) {
		snprintf(err, errlen, "%s:%d: %s", path, line,
			 msg[0] ? msg : "syntax error (expected [section] or key=value)");
		free(ps.jobs);
		return -EINVAL;
	}
	if (!ps.njobs) {
		const char *b = strrchr(path, '/');
		char name[64];
		snprintf(name, sizeof(name), "%s", b ? b + 1 : path);
		name[strcspn(name, ".")] = '\0';
		ps.jobs = malloc(sizeof(*ps.jobs));
		if (!ps.jobs)
			return -ENOMEM;
		ps.jobs[0] = ps.global;
		snprintf(ps.jobs[0].name, sizeof(ps.jobs[0].name), "%s", name);
		ps.njobs = 1;
	}
	*jobs = ps.jobs;
	*njobs = ps.njobs;
	return 0;
}

int preset_find(const char *name, char *path, size_t len)
{
	if (strchr(name, '/') || strstr(name, ".ini") || strstr(name, ".fio")) {
		if (access(name, R_OK))
			return -ENOENT;
		snprintf(path, len, "%s", name);
		return 0;
	}
	return datadir_find("presets", "NVSCOPE_PRESETS", NULL, name, ".ini", path, len);
}

static void read_description(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];

	out[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");
		if (strncmp(p, "description", 11))
			continue;
		p += 11;
		p += strspn(p, " \t");
		if (*p != '=')
			continue;
		p++;
		p += strspn(p, " \t");
		p[strcspn(p, "\r\n")] = '\0';
		snprintf(out, len, "%s", p);
		break;
	}
	fclose(f);
}

static int cmp_info(const void *a, const void *b)
{
	return strcmp(((const struct preset_info *)a)->name, ((const struct preset_info *)b)->name);
}

int preset_list(struct preset_info **out, size_t *n)
{
	char dirs[DATADIR_MAX][PATH_MAX];
	unsigned nd = datadir_list("presets", "NVSCOPE_PRESETS", NULL, dirs, DATADIR_MAX);
	DIR *d = NULL;
	unsigned i;
	struct preset_info *list = NULL;
	size_t count = 0;
	struct dirent *e;

	for (i = 0; i < nd && !d; i++)
		d = opendir(dirs[i]);
	*out = NULL;
	*n = 0;
	if (!d)
		return -ENOENT;
	i--;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l < 5 || l >= 64 + 4 || strcmp(e->d_name + l - 4, ".ini"))
			continue;
		struct preset_info *nl = realloc(list, (count + 1) * sizeof(*nl));
		if (!nl) {
			free(list);
			closedir(d);
			return -ENOMEM;
		}
		list = nl;
		struct preset_info *pi = &list[count++];
		snprintf(pi->name, sizeof(pi->name), "%.*s", (int)(l - 4), e->d_name);
		snprintf(pi->path, sizeof(pi->path), "%.400s/%.100s", dirs[i], e->d_name);
		read_description(pi->path, pi->description, sizeof(pi->description));
	}
	closedir(d);
	if (count) /* qsort(NULL, 0, ...) is undefined */
		qsort(list, count, sizeof(*list), cmp_info);
	*out = list;
	*n = count;
	return 0;
}

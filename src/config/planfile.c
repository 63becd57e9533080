/* planfile.c - plan files on disk: reading a plan file (plan_load) and
 * finding a shipped plan by name (plan_find).  Parsing is in plan.c. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/plan.h"

int plan_load(const char *path, const struct spec *base, struct plan **out, char *err,
	      size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0, cap = 0;
	int rc;

	*out = NULL;
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 16384;
			char *n = cap > (16u << 20) ? NULL : realloc(text, cap);
			if (!n) {
				snprintf(err, errlen, "%s: too large", path);
				rc = -EFBIG;
				goto out_text;
			}
			text = n;
		}
		size_t got = fread(text + len, 1, cap - len - 1, f);
		len += got;
		if (!got)
			break;
	}
	if (ferror(f)) {
		rc = -EIO;
		snprintf(err, errlen, "%s: read error", path);
		goto out_text;
	}
	text[len] = '\0';
	if (strlen(text) != len) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s: not a text file", path);
		goto out_text;
	}
	rc = plan_parse(text, path, base, out, err, errlen);
	if (!rc)
		snprintf((*out)->path, sizeof((*out)->path), "%s", path);
out_text:
	free(text);
	fclose(f);
	return rc;
}

/* The directories plans are searched in, in order: fills @buf (NDIRS x
 * PATH_MAX + 64) and returns how many. */
#define NDIRS 5
static unsigned plan_dirs(char (*buf)[PATH_MAX + 64])
{
	char exe[PATH_MAX];
	const char *env;
	unsigned nd = 0;

	if ((env = getenv("NVSCOPE_PRESETS")) && *env)
		snprintf(buf[nd++], PATH_MAX + 64, "%.*s/plans", PATH_MAX, env);
	snprintf(buf[nd++], PATH_MAX + 64, "presets/plans");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(buf[nd++], PATH_MAX + 64, "%s/../share/nvscope/presets/plans", exe);
		snprintf(buf[nd++], PATH_MAX + 64, "%s/presets/plans", exe); /* source tree */
	}
	snprintf(buf[nd++], PATH_MAX + 64, "/usr/share/nvscope/presets/plans");
	return nd;
}

int plan_find(const char *name, char *path, size_t len)
{
	static char dirs[NDIRS + 1][PATH_MAX + 64];

	if (strchr(name, '/') || access(name, R_OK) == 0) {
		if (access(name, R_OK))
			return -ENOENT;
		snprintf(path, len, "%s", name);
		return 0;
	}
	unsigned nd = plan_dirs(dirs);
	for (unsigned i = 0; i < nd; i++) {
		char cand[PATH_MAX + 300];
		snprintf(cand, sizeof(cand), "%.*s/%.200s.ini", PATH_MAX + 63, dirs[i], name);
		if (access(cand, R_OK) == 0) {
			snprintf(path, len, "%s", cand);
			return 0;
		}
	}
	return -ENOENT;
}

int plan_dir(char *dir, size_t len)
{
	static char dirs[NDIRS + 1][PATH_MAX + 64];
	unsigned nd = plan_dirs(dirs);
	for (unsigned i = 0; i < nd; i++)
		if (access(dirs[i], R_OK | X_OK) == 0) {
			snprintf(dir, len, "%s", dirs[i]);
			return 0;
		}
	return -ENOENT;
}

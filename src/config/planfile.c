/* planfile.c - plan files on disk: reading a plan file (plan_load) and
 * finding a shipped plan by name (plan_find).  Parsing is in plan.c. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/datadir.h"
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

int plan_find(const char *name, char *path, size_t len)
{
	if (strchr(name, '/') || access(name, R_OK) == 0)
		return datadir_file(name, path, len);
	return datadir_find("presets/plans", "NVSCOPE_PRESETS", "plans", name, ".ini", path, len);
}

int plan_dir(char *dir, size_t len)
{
	return datadir_first("presets/plans", "NVSCOPE_PRESETS", "plans", dir, len);
}

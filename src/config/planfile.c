/* planfile.c - plan files on disk: reading a plan file (plan_load) and
 * finding a shipped plan by name (plan_find).  Parsing is in plan.c. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/input.h"
#include "config/datadir.h"
#include "config/plan.h"

int plan_load(const char *path, const struct spec *base, struct plan **out, char *err,
	      size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	/* a regular file of at most PLAN_MAX_BYTES (base/input.h) */
	rc = input_read_all(path, PLAN_MAX_BYTES, "plan", &text, &len, err, errlen);
	if (rc)
		return rc;
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

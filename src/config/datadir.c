/* datadir.c - the search order of nvscope's data directories. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/datadir.h"

unsigned datadir_list(const char *sub, const char *env_var, const char *env_sub,
		      char dirs[][PATH_MAX], unsigned max)
{
	const char *env = env_var ? getenv(env_var) : NULL;
	char exe[PATH_MAX];
	unsigned n = 0;
	ssize_t len;

	/* a directory whose name does not fit is skipped, never cut short */
	if (env && *env && n < max &&
	    snprintf(dirs[n], PATH_MAX, "%s%s%s", env, env_sub ? "/" : "", env_sub ? env_sub : "") <
		PATH_MAX)
		n++;
	if (n < max)
		snprintf(dirs[n++], PATH_MAX, "%s", sub);
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (n < max && snprintf(dirs[n], PATH_MAX, "%s/%s", exe, sub) < PATH_MAX)
				n++;
			if (n < max && snprintf(dirs[n], PATH_MAX, "%s/../share/nvscope/%s", exe,
						sub) < PATH_MAX)
				n++;
		}
	}
	if (n < max)
		snprintf(dirs[n++], PATH_MAX, "/usr/share/nvscope/%s", sub);
	return n;
}

int datadir_first(const char *sub, const char *env_var, const char *env_sub, char *out,
		  size_t len)
{
	char dirs[DATADIR_MAX][PATH_MAX];
	unsigned n = datadir_list(sub, env_var, env_sub, dirs, DATADIR_MAX);

	for (unsigned i = 0; i < n; i++)
		if (!access(dirs[i], R_OK | X_OK))
			return snprintf(out, len, "%s", dirs[i]) < (int)len ? 0 : -ENAMETOOLONG;
	return -ENOENT;
}

int datadir_file(const char *name, char *path, size_t len)
{
	if (strlen(name) >= len)
		return -ENAMETOOLONG;
	if (access(name, R_OK))
		return -ENOENT;
	snprintf(path, len, "%s", name);
	return 0;
}

int datadir_find(const char *sub, const char *env_var, const char *env_sub, const char *name,
		 const char *suffix, char *path, size_t len)
{
	char dirs[DATADIR_MAX][PATH_MAX];
	unsigned n = datadir_list(sub, env_var, env_sub, dirs, DATADIR_MAX);

	for (unsigned i = 0; i < n; i++) {
		if (snprintf(path, len, "%s/%s%s", dirs[i], name, suffix) >= (int)len)
			continue; /* never probe a path cut short */
		if (!access(path, R_OK))
			return 0;
	}
	return -ENOENT;
}

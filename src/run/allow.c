/* allow.c - the agent's list of allowed paths (allow.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "run/allow.h"

struct allow {
	char **path;
	size_t n;
};

int allow_add(struct allow **a, const char *list, char *err, size_t errlen)
{
	if (!*a && !(*a = calloc(1, sizeof(**a))))
		return -ENOMEM;
	for (const char *p = list;; p++) {
		size_t len = strcspn(p, ",");
		if (!len || p[0] != '/') {
			snprintf(err, errlen, "--allow: '%.*s' is not an absolute path", (int)len,
				 p);
			return -EINVAL;
		}
		char **v = realloc((*a)->path, ((*a)->n + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		(*a)->path = v;
		if (!(v[(*a)->n] = strndup(p, len)))
			return -ENOMEM;
		(*a)->n++;
		p += len;
		if (!*p)
			return 0;
	}
}

/* Do @x and @y name the same thing? */
static bool same(const struct stat *x, const struct stat *y)
{
	if ((x->st_mode & S_IFMT) != (y->st_mode & S_IFMT))
		return false;
	if (S_ISBLK(x->st_mode) || S_ISCHR(x->st_mode))
		return x->st_rdev == y->st_rdev;
	return x->st_dev == y->st_dev && x->st_ino == y->st_ino;
}

int allow_check(const struct allow *a, const char *path, char *err, size_t errlen)
{
	struct stat st, al;

	if (!a)
		return 0;
	if (stat(path, &st)) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	for (size_t i = 0; i < a->n; i++)
		if (!stat(a->path[i], &al) && same(&st, &al))
			return 0;
	snprintf(err, errlen,
		 "refusing %s: not allowed on this host (the agent runs with --allow; %zu path%s "
		 "allowed)",
		 path, a->n, a->n == 1 ? "" : "s");
	return -EPERM;
}

size_t allow_count(const struct allow *a)
{
	return a ? a->n : 0;
}

void allow_free(struct allow *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++)
		free(a->path[i]);
	free(a->path);
	free(a);
}

/* hosts.c - TEMPORARY STUB (agent branch): see hosts.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/hosts.h"

int hosts_split_target(const char *target, char **dest, char **path, char *err, size_t errlen)
{
	const char *c = strchr(target, ':'), *s = strchr(target, '/');
	if (!c || (s && s < c))
		return 0;
	if (c == target) {
		snprintf(err, errlen, "%s: no host before ':'", target);
		return -EINVAL;
	}
	*dest = strndup(target, (size_t)(c - target));
	*path = strdup(c + 1);
	return 1;
}

int hosts_parse_dest(const char *dest, struct hosts_dest *out, char *err, size_t errlen)
{
	const char *at = strrchr(dest, '@'), *h = at ? at + 1 : dest, *c;
	memset(out, 0, sizeof(*out));
	if (dest[0] == '-' || !*h) {
		snprintf(err, errlen, "%s: not an ssh destination", dest);
		return -EINVAL;
	}
	c = strchr(h, ':');
	out->user = at ? strndup(dest, (size_t)(at - dest)) : NULL;
	out->host = c ? strndup(h, (size_t)(c - h)) : strdup(h);
	if (c)
		out->port = (unsigned)atoi(c + 1);
	return 0;
}

void hosts_dest_clear(struct hosts_dest *d)
{
	free(d->user);
	free(d->host);
	memset(d, 0, sizeof(*d));
}

struct hosts_list {
	char **v;
	size_t n;
};

struct hosts_list *hosts_list_new(void)
{
	return calloc(1, sizeof(struct hosts_list));
}

int hosts_list_add(struct hosts_list *l, const char *pattern, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	char **v = realloc(l->v, (l->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->v = v;
	l->v[l->n++] = strdup(pattern);
	return 0;
}

int hosts_list_add_file(struct hosts_list *l, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char line[512];
	if (!f) {
		snprintf(err, errlen, "%s: cannot open", path);
		return -ENOENT;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "#\r\n")] = 0;
		for (size_t n = strlen(line); n && line[n - 1] == ' '; n--)
			line[n - 1] = 0;
		if (line[0])
			hosts_list_add(l, line, err, errlen);
	}
	fclose(f);
	return 0;
}

size_t hosts_list_count(const struct hosts_list *l)
{
	return l->n;
}

const char *hosts_list_get(const struct hosts_list *l, size_t i)
{
	return l->v[i];
}

void hosts_list_free(struct hosts_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	free(l);
}

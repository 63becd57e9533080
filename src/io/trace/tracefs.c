/* tracefs.c - see tracefs.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io/trace/tracefs.h"

#define PREFIX "nvscope-"

/* A decimal of 1..20 digits without sign or leading zero, ending at @end. */
static bool parse_u64(const char *s, const char *end, unsigned long long *v)
{
	size_t n = (size_t)(end - s);
	*v = 0;
	if (!n || n > 20 || (s[0] == '0' && n > 1))
		return false;
	for (const char *p = s; p < end; p++) {
		if (*p < '0' || *p > '9')
			return false;
		unsigned d = (unsigned)(*p - '0');
		if (*v > (~0ULL - d) / 10)
			return false;
		*v = *v * 10 + d;
	}
	return true;
}

/* Field 22 (starttime) of @proc/@pid/stat: 0, -ENOENT when no such process,
 * -EIO when unreadable. */
static int start_time(const char *proc, unsigned long long pid, unsigned long long *st)
{
	char path[256], buf[1024];
	snprintf(path, sizeof(path), "%s/%llu/stat", proc, pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ENOENT : -EIO;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 && errno == ESRCH ? -ENOENT : -EIO;
	buf[n] = '\0';
	char *p = strrchr(buf, ')'); /* the name (field 2) may hold anything */
	if (!p)
		return -EIO;
	p++;
	/* p is before field 3; field 22 is 19 fields on */
	for (int f = 3; f < 22; f++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EIO;
	}
	char *e = strchr(p + 1, ' ');
	if (!e || !parse_u64(p + 1, e, st))
		return -EIO;
	return 0;
}

int tracefs_instance_name(char *buf, size_t len)
{
	unsigned long long st;
	int rc = start_time("/proc", (unsigned long long)getpid(), &st);
	if (rc)
		return rc;
	if ((size_t)snprintf(buf, len, PREFIX "%d-%llu", (int)getpid(), st) >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* 1 when @name is one of ours and stale, 0 when not (not ours, or its
 * process lives, or it cannot be told: kept). */
static int stale(const char *name, const char *proc)
{
	unsigned long long pid, want, have;
	if (strncmp(name, PREFIX, sizeof(PREFIX) - 1))
		return 0;
	const char *p = name + sizeof(PREFIX) - 1, *dash = strchr(p, '-');
	const char *end = p + strlen(p);
	if (!parse_u64(p, dash ? dash : end, &pid) || !pid || pid > 4194304)
		return 0;
	if (dash && !parse_u64(dash + 1, end, &want))
		return 0;
	int rc = start_time(proc, pid, &have);
	if (rc == -ENOENT)
		return 1;
	if (rc) /* could not tell: kept */
		return 0;
	return dash && have != want; /* the PID was reused */
}

int tracefs_sweep(const char *instances, const char *proc,
		  void (*removed)(const char *name, int err, void *arg), void *arg)
{
	DIR *d = opendir(instances);
	int n = 0;
	if (!d)
		return -errno;
	int dfd = dirfd(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!stale(e->d_name, proc))
			continue;
		int err = unlinkat(dfd, e->d_name, AT_REMOVEDIR) ? -errno : 0;
		if (!err)
			n++;
		if (removed)
			removed(e->d_name, err, arg);
	}
	closedir(d);
	return n;
}

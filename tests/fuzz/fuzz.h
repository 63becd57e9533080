/* fuzz.h - helpers shared by the libFuzzer harnesses (tests/fuzz/NAME.c): the
 * input as a NUL-terminated string, as a file (for readers that take a
 * path), and a private scratch directory for readers of a results
 * directory.  Built only by `make fuzz` / `make fuzz-smoke` (clang). */
#ifndef NVS_FUZZ_H
#define NVS_FUZZ_H

#include <dirent.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The input as a malloc'ed C string (an embedded NUL ends it early, as it
 * would for a caller holding a C string).  Aborts when out of memory. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* The input as the contents of a file (a memfd, rewritten per input; NUL
 * bytes are kept): returns "/proc/self/fd/N". */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	if (fd < 0) {
		fd = memfd_create("nvs-fuzz", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	return path;
}

static char fuzz_dir_path[256];

static inline void fuzz_rm_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char p[768];
	if (!d)
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
			if (unlink(p))
				fuzz_rm_tree(p);
		}
	closedir(d);
	rmdir(path);
}

static inline void fuzz_dir_remove(void)
{
	fuzz_rm_tree(fuzz_dir_path);
}

/* A private directory (mkdtemp, removed at exit). */
static inline const char *fuzz_dir(void)
{
	if (!fuzz_dir_path[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(fuzz_dir_path, sizeof(fuzz_dir_path), "%s/nvs-fuzz.XXXXXX",
			 t && *t ? t : "/tmp");
		if (!mkdtemp(fuzz_dir_path))
			abort();
		atexit(fuzz_dir_remove);
	}
	return fuzz_dir_path;
}

/* Writes @data to fuzz_dir()/@name (replacing it); NULL @data removes it. */
static inline void fuzz_put(const char *name, const uint8_t *data, size_t size)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", fuzz_dir(), name);
	unlink(p);
	if (!data)
		return;
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
}

#endif

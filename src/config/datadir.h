/* datadir.h - where nvscope's data files live (presets, plans, themes):
 * one search order for all of them. */
#ifndef NVS_DATADIR_H
#define NVS_DATADIR_H

#include <limits.h>
#include <stddef.h>

#define DATADIR_MAX 5

/* Fills @dirs with the candidate directories for @sub ("presets",
 * "presets/plans", "themes"), in search order: $@env_var (with @env_sub
 * appended when not NULL) if set, ./@sub, @sub beside the binary (a source
 * tree), ../share/nvscope/@sub beside the binary (an install), and
 * /usr/share/nvscope/@sub.  Returns how many (at most DATADIR_MAX).  The
 * directories need not exist. */
unsigned datadir_list(const char *sub, const char *env_var, const char *env_sub,
		      char dirs[][PATH_MAX], unsigned max);
/* The first of those that exists, into @out.  0 or -ENOENT. */
int datadir_first(const char *sub, const char *env_var, const char *env_sub, char *out,
		  size_t len);
/* Finds @name + @suffix in those directories, in order, into @path.
 * 0 or -ENOENT. */
int datadir_find(const char *sub, const char *env_var, const char *env_sub, const char *name,
		 const char *suffix, char *path, size_t len);

/* @name as the path of a file the user named (not a name to search for):
 * copied into @path when it is readable.  0, -ENAMETOOLONG or -ENOENT. */
int datadir_file(const char *name, char *path, size_t len);

#endif

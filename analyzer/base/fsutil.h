/* util.h - file-system helpers shared by the command and the tools. */
#ifndef SMEMLINT_UTIL_H
#define SMEMLINT_UTIL_H

#include <stddef.h>
#include <stdio.h>

/* Write `path` through a temporary file in the same directory plus rename,
 * keeping the mode of an existing file. writer returns 0 on success. On any
 * failure the original file is untouched and the temporary is removed.
 * Returns 0, or -1 with a message in err. */
int sm_write_atomic(const char *path, int (*writer)(FILE *f, void *ctx), void *ctx, char *err, size_t errlen);

/* A list of paths (malloc'd strings). */
struct sm_paths {
	char **v;
	size_t n, cap;
};

void sm_paths_push(struct sm_paths *p, const char *s);
void sm_paths_free(struct sm_paths *p);

/* Expand a path: a file is added as is; a directory is walked recursively
 * for .cu and .cuh files in sorted order, skipping hidden directories, build
 * directories (with CMakeCache.txt) and symlink loops. Excluded globs are
 * matched against the path and its base name. Returns the number of files
 * added, or -1 if the path does not exist (err filled). */
int sm_expand_path(const char *path, const char *const *excludes, int nexcludes, struct sm_paths *out,
		   char *err, size_t errlen);

/* The same with flags. Inside a git work tree, files and directories git
 * ignores (.gitignore, .git/info/exclude, core.excludesFile) are skipped,
 * found with one `git ls-files --others --ignored --directory` per walked
 * directory; without git, or outside a work tree, nothing is filtered. A
 * directory that is itself ignored is walked when named explicitly.
 * SM_WALK_NO_GITIGNORE turns the git filter off. */
#define SM_WALK_NO_GITIGNORE 1u
int sm_expand_path_ex(const char *path, const char *const *excludes, int nexcludes, unsigned flags,
		      struct sm_paths *out, char *err, size_t errlen);

#endif

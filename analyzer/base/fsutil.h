/* fsutil.h - file-system helpers shared by the command and the tools. */
#ifndef SMEMLINT_UTIL_H
#define SMEMLINT_UTIL_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

#include <stdbool.h>

/* Failures a test injects into sm_write_file (the command sets them from
 * its SMEMLINT_TEST_* variables; the library reads no environment). All
 * zero in use. */
struct sm_write_faults {
	bool fail_write;     /* a write fails (EIO) after the temporary is
	                      * written, before the rename */
	bool fail_in_place;  /* an in-place write fails (EIO) after its checks */
	const char *edit_before_rename; /* with expect: this text is appended to
	                      * the file just before the last look (an editor
	                      * saving at the worst moment); NULL: none */
};

/* How sm_write_file may treat an existing file (all zero: a report). */
struct sm_write_opts {
	const char *expect;  /* the file must still hold expect[0..expect_len)
	                      * just before the rename (--fix), else nothing is
	                      * written; it must then exist and be regular */
	size_t expect_len;
	bool keep_links;     /* a file with several hard links (with expect
	                      * only): rewritten in place from the finished
	                      * temporary instead of renamed over, so every
	                      * name keeps the one file (see copy_over) */
	bool keep_owner;     /* refuse when its owner cannot be kept */
	const struct sm_write_faults *faults; /* tests only; NULL: none */
};

/* Write `path`: a regular file (or a new one) through a temporary file in
 * its directory plus rename, keeping its mode and, where permitted, its
 * owner; a symbolic link's target is replaced, not the link. /dev/stdout,
 * /dev/stderr, /dev/fd/N and other files that are not regular (FIFOs,
 * devices) are written in place and never replaced. A directory, a dangling
 * link or a read-only file is refused. writer returns 0 on success. On any
 * failure the original file is untouched (or, for keep_links, rewritten
 * with its original text) and the temporary is removed.
 * Returns 0, or -1 with a message in err. */
int sm_write_file(const char *path, int (*writer)(FILE *f, void *ctx), void *ctx, const struct sm_write_opts *wo,
		  char *err, size_t errlen);

/* sm_write_file with no options (reports, baselines). */
int sm_write_atomic(const char *path, int (*writer)(FILE *f, void *ctx), void *ctx, char *err, size_t errlen);

/* ---- reading: regular files only, never blocking ----
 *
 * Open path for reading without blocking (a FIFO opens at once, a device
 * is never read) and check that it is a regular file. Returns the file
 * descriptor (close-on-exec, *st filled), -1 with errno set, or -2 when it
 * is not a regular file (*st filled: sm_file_kind names it). */
int sm_open_regular(const char *path, struct stat *st);

/* What the mode names, for messages: "a directory", "a FIFO", ... */
const char *sm_file_kind(unsigned mode);

/* Read all of fd into a malloc'd, NUL-terminated buffer, at most max bytes:
 * the limit is enforced while reading, whatever the size said. Returns 0,
 * -1 with errno set, or -2 when the file holds more than max bytes. */
int sm_read_fd(int fd, size_t max, char **out, size_t *len);

/* A regular file's whole text (sm_open_regular, then sm_read_fd with max
 * bytes, max_text naming the cap for people: "1 GiB"). Returns 0 with
 * *out (malloc'd, NUL-terminated) and *len, or -1 with the reason in err:
 * "cannot read 'path': it is a FIFO, not a regular file", "...: larger
 * than 1 GiB", "...: <strerror>". */
int sm_read_regular(const char *path, size_t max, const char *max_text, char **out, size_t *len, char *err,
		    size_t errlen);

/* A list of paths (malloc'd strings). */
struct sm_paths {
	char **v;
	size_t n, cap;
};

void sm_paths_push(struct sm_paths *p, const char *s);
void sm_paths_free(struct sm_paths *p);

/* A set of files by device and inode (open addressing). */
struct sm_inode {
	dev_t dev;
	ino_t ino;
	bool used;
};
struct sm_inode_set {
	struct sm_inode *v;
	size_t n, cap;
};

/* Add a file: 1 when it is new, 0 when it was there, -1 out of memory. */
int sm_inode_set_add(struct sm_inode_set *s, dev_t dev, ino_t ino);
void sm_inode_set_free(struct sm_inode_set *s);

/* Expand a path: a file is added as is; a directory is walked recursively
 * for .cu and .cuh files (regular files only: FIFOs, devices and sockets
 * are never opened) in sorted order, skipping hidden directories, build
 * directories (with CMakeCache.txt), and any directory walked already
 * (by device and inode: a symlink loop, or a DAG of links that would
 * otherwise be walked once per path). Excluded globs are matched against
 * the path and its base name. Returns the number of files added, or -1 if
 * the path does not exist (err filled). */
int sm_expand_path(const char *path, const char *const *excludes, int nexcludes, struct sm_paths *out,
		   char *err, size_t errlen);

/* The same with flags. Inside a git work tree, files and directories git
 * ignores (.gitignore, .git/info/exclude, core.excludesFile) are skipped,
 * found with one `git ls-files --others --ignored --directory` per walked
 * directory; without git, or outside a work tree, nothing is filtered. A
 * directory that is itself ignored is walked when named explicitly.
 * SM_WALK_NO_GITIGNORE turns the git filter off. What could not be walked
 * (an unreadable directory, one deeper than SM_MAX_DIR_DEPTH, a name that
 * cannot be examined) is added to skipped, one message naming it each,
 * when skipped is not NULL. */
#define SM_WALK_NO_GITIGNORE 1u
int sm_expand_path_ex(const char *path, const char *const *excludes, int nexcludes, unsigned flags,
		      struct sm_paths *out, struct sm_paths *skipped, char *err, size_t errlen);

#endif

/* util.c - atomic writes and source-tree walking. */
#define _GNU_SOURCE
#include "base/fsutil.h"
#include "base/grow.h"
#include "base/limits.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int sm_write_atomic(const char *path, int (*writer)(FILE *f, void *ctx), void *ctx, char *err, size_t errlen)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	if (!tmp) {
		snprintf(err, errlen, "out of memory writing '%s'", path);
		return -1;
	}
	snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	struct stat st;
	mode_t mode;
	if (stat(path, &st) == 0) {
		mode = st.st_mode & 07777;
	} else {
		mode_t um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	int rc = writer(f, ctx);
	int saved = errno;
	if (rc == 0 && fflush(f) != 0)
		rc = -1, saved = errno;
	if (rc == 0 && fsync(fileno(f)) != 0 && errno != EINVAL)
		rc = -1, saved = errno;
	if (rc == 0 && fchmod(fileno(f), mode) != 0)
		rc = -1, saved = errno;
	if (fclose(f) != 0 && rc == 0)
		rc = -1, saved = errno;
	if (rc == 0 && getenv("SMEMLINT_TEST_FAIL_WRITE"))
		rc = -1, saved = EIO; /* test hook: fail after writing, before rename */
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1, saved = errno;
	if (rc != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(saved ? saved : EIO));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

void sm_paths_push(struct sm_paths *p, const char *s)
{
	if (SM_ALLOC_GROW(p->v, p->n + 1, p->cap))
		return;
	char *d = strdup(s);
	if (d)
		p->v[p->n++] = d;
}

void sm_paths_free(struct sm_paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

static int excluded(const char *path, const char *const *ex, int nex)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (int i = 0; i < nex; i++)
		if (fnmatch(ex[i], path, 0) == 0 || fnmatch(ex[i], base, 0) == 0)
			return 1;
	return 0;
}

static int has_ext(const char *name)
{
	const char *dot = strrchr(name, '.');
	return dot && (!strcmp(dot, ".cu") || !strcmp(dot, ".cuh"));
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- git ignore: one `git ls-files` per walked root ---- */

/* The paths under root that git ignores, relative to root, sorted; ignored
 * directories end with '/'. Empty when root is not in a git work tree, git
 * is not installed or fails: walking then simply does not filter. */
static int git_ignored_run(const char *root, int collapse_dirs, struct sm_paths *out);

static void git_ignored(const char *root, struct sm_paths *out)
{
	/* --directory reports an ignored directory as one entry instead of
	 * every file in it; it reports "./" when everything under root is
	 * ignored, either because root itself is (then, named explicitly, it
	 * is walked unfiltered) or because each file in it is (then list
	 * them one by one) */
	if (git_ignored_run(root, 1, out) == 1) {
		sm_paths_free(out);
		char *argv[] = { "git", "-C", (char *)root, "check-ignore", "-q", ".", NULL };
		pid_t pid;
		posix_spawn_file_actions_t fa;
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
		int status = 0;
		int rc = posix_spawnp(&pid, "git", &fa, NULL, argv, environ);
		posix_spawn_file_actions_destroy(&fa);
		if (rc != 0)
			return;
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 1 && git_ignored_run(root, 0, out) != 0)
			sm_paths_free(out);
	}
}

/* Returns 0, 1 when git said "./", -1 when git failed. */
static int git_ignored_run(const char *root, int collapse_dirs, struct sm_paths *out)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	char *argv[] = { "git", "-C", (char *)root, "ls-files", "-z", "--others", "--ignored",
			 "--exclude-standard", collapse_dirs ? "--directory" : NULL, NULL };
	pid_t pid;
	int rc = posix_spawnp(&pid, "git", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return -1;
	}
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	for (;;) {
		if (buf && len == cap && SM_ALLOC_GROW(buf, len + 1, cap)) {
			free(buf);
			buf = NULL; /* out of memory: drain the pipe, then fail */
		}
		char sink[4096];
		ssize_t k = buf ? read(fds[0], buf + len, cap - len) : read(fds[0], sink, sizeof(sink));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		if (buf)
			len += (size_t)k;
	}
	close(fds[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!buf || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(buf);
		return -1;
	}
	int all = 0;
	for (size_t i = 0; i < len;) {
		size_t n = strnlen(buf + i, len - i);
		if (n == len - i)
			break; /* unterminated: git was cut off */
		const char *e = buf + i;
		if (!strcmp(e, "./")) {
			all = 1;
			break;
		}
		if (*e)
			sm_paths_push(out, e);
		i += n + 1;
	}
	free(buf);
	if (out->n > 1) /* qsort(NULL, 0, ...) is undefined */
		qsort(out->v, out->n, sizeof(char *), cmp_names);
	return all;
}

static int is_ignored(const struct sm_paths *ign, const char *rel, int is_dir)
{
	if (!ign->n || !*rel)
		return 0;
	char tmp[PATH_MAX + 2];
	const char *key = rel;
	if (is_dir) {
		snprintf(tmp, sizeof(tmp), "%s/", rel);
		key = tmp;
	}
	return bsearch(&key, ign->v, ign->n, sizeof(char *), cmp_names) != NULL;
}

struct visited {
	dev_t dev[SM_MAX_DIR_DEPTH];
	ino_t ino[SM_MAX_DIR_DEPTH];
	int n;
	struct sm_paths ignored;  /* git-ignored paths relative to the root */
	size_t root_len;          /* strlen of the root plus its '/' */
};

static int walk_dir(const char *dir, const char *const *ex, int nex, struct sm_paths *out, struct visited *seen)
{
	struct stat st;
	if (stat(dir, &st) != 0)
		return 0;
	for (int i = 0; i < seen->n; i++)
		if (seen->dev[i] == st.st_dev && seen->ino[i] == st.st_ino)
			return 0; /* a symlink loop back to an ancestor */
	if (seen->n >= SM_MAX_DIR_DEPTH)
		return 0;
	seen->dev[seen->n] = st.st_dev;
	seen->ino[seen->n] = st.st_ino;
	seen->n++;
	int count = 0;
	DIR *d = opendir(dir);
	if (!d) {
		seen->n--;
		return 0;
	}
	struct sm_paths names = { 0 };
	struct dirent *e;
	int is_build = 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (!strcmp(e->d_name, "CMakeCache.txt"))
			is_build = 1;
		sm_paths_push(&names, e->d_name);
	}
	closedir(d);
	if (!is_build) {
		if (names.n > 1)
			qsort(names.v, names.n, sizeof(char *), cmp_names);
		for (size_t i = 0; i < names.n; i++) {
			size_t len = strlen(dir) + strlen(names.v[i]) + 2;
			char *p = malloc(len);
			if (!p)
				break;
			if (dir[strlen(dir) - 1] == '/')
				snprintf(p, len, "%s%s", dir, names.v[i]);
			else
				snprintf(p, len, "%s/%s", dir, names.v[i]);
			struct stat cs;
			const char *rel = strlen(p) >= seen->root_len ? p + seen->root_len : "";
			if (!excluded(p, ex, nex) && stat(p, &cs) == 0 &&
			    !is_ignored(&seen->ignored, rel, S_ISDIR(cs.st_mode))) {
				if (S_ISDIR(cs.st_mode))
					count += walk_dir(p, ex, nex, out, seen);
				else if (S_ISREG(cs.st_mode) && has_ext(names.v[i])) {
					sm_paths_push(out, p);
					count++;
				}
			}
			free(p);
		}
	}
	sm_paths_free(&names);
	seen->n--;
	return count;
}

int sm_expand_path(const char *path, const char *const *excludes, int nexcludes, struct sm_paths *out, char *err,
		   size_t errlen)
{
	return sm_expand_path_ex(path, excludes, nexcludes, 0, out, err, errlen);
}

int sm_expand_path_ex(const char *path, const char *const *excludes, int nexcludes, unsigned flags,
		      struct sm_paths *out, char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		sm_paths_push(out, path);
		return 1;
	}
	struct visited *seen = calloc(1, sizeof(*seen));
	if (!seen) {
		snprintf(err, errlen, "out of memory walking '%s'", path);
		return -1;
	}
	if (!(flags & SM_WALK_NO_GITIGNORE))
		git_ignored(path, &seen->ignored);
	size_t pl = strlen(path);
	seen->root_len = pl && path[pl - 1] == '/' ? pl : pl + 1;
	int n = walk_dir(path, excludes, nexcludes, out, seen);
	sm_paths_free(&seen->ignored);
	free(seen);
	return n;
}

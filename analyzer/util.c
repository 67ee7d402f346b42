/* util.c - atomic writes and source-tree walking. */
#define _GNU_SOURCE
#include "smemlint/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	if (p->n == p->cap) {
		size_t nc = p->cap ? p->cap * 2 : 16;
		char **nv = realloc(p->v, nc * sizeof(*nv));
		if (!nv)
			return;
		p->v = nv;
		p->cap = nc;
	}
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

struct visited {
	dev_t dev[256];
	ino_t ino[256];
	int n;
};

static int walk_dir(const char *dir, const char *const *ex, int nex, struct sm_paths *out, struct visited *seen)
{
	struct stat st;
	if (stat(dir, &st) != 0)
		return 0;
	for (int i = 0; i < seen->n; i++)
		if (seen->dev[i] == st.st_dev && seen->ino[i] == st.st_ino)
			return 0; /* a symlink loop back to an ancestor */
	if (seen->n >= 256)
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
			if (!excluded(p, ex, nex) && stat(p, &cs) == 0) {
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
	int n = walk_dir(path, excludes, nexcludes, out, seen);
	free(seen);
	return n;
}

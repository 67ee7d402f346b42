/* pch_cache.c - the header cache (see pch_cache.h). */
#define _GNU_SOURCE
#include "front/pch_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/limits.h"
#include "smemlint/arena.h"

enum { PCH_BUILDING, PCH_READY, PCH_STALE, PCH_FAILED };

struct pch_entry {
	char key[33];
	char *path;
	int state;
	int rebuilds;
};

struct toolkit_id {
	char *root;
	uint64_t h;
};

struct sm_pch_cache {
	char *dir;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pch_entry **e;    /* the headers built or being built */
	size_t n, cap;           /* entries in e, its capacity */
	struct toolkit_id *tk;   /* toolkits whose include tree was hashed */
	size_t ntk, captk;       /* entries in tk, its capacity */
};

/* ---- hashing: FNV-1a 64, two streams make a 128-bit key ---- */

struct h128 {
	uint64_t a, b;
};

static void h_bytes(struct h128 *h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++) {
		h->a = (h->a ^ s[i]) * 0x100000001b3ull;
		h->b = (h->b ^ s[i]) * 0x100000001b3ull;
		h->b ^= h->b >> 29;
	}
}

static void h_str(struct h128 *h, const char *s)
{
	h_bytes(h, s ? s : "(null)", strlen(s ? s : "(null)") + 1);
}

static uint64_t fnv64(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t x = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		x = (x ^ s[i]) * 0x100000001b3ull;
	return x;
}

/* The identity of a toolkit's headers: every file under include/ by path,
 * size and mtime, combined order-independently (readdir order is not
 * sorted). depth guards against symlink loops. */
static uint64_t tree_id(const char *dir, int depth)
{
	if (depth > SM_PCH_TREE_DEPTH)
		return 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	uint64_t sum = 0;
	struct dirent *de;
	char p[PATH_MAX];
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		struct stat st;
		if (stat(p, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			sum += tree_id(p, depth + 1);
			continue;
		}
		struct {
			uint64_t name;
			int64_t size, sec, nsec;
		} rec = { fnv64(p, strlen(p)), (int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec,
			  (int64_t)st.st_mtim.tv_nsec };
		sum += fnv64(&rec, sizeof(rec)) | 1;
	}
	closedir(d);
	return sum;
}

static char *default_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME");
	char buf[PATH_MAX];
	if (x && x[0] == '/') {
		snprintf(buf, sizeof(buf), "%s/smemlint", x);
	} else {
		const char *home = getenv("HOME");
		if (!home || !*home)
			return NULL;
		snprintf(buf, sizeof(buf), "%s/.cache/smemlint", home);
	}
	return strdup(buf);
}

struct sm_pch_cache *sm_pch_cache_new(const char *dir)
{
	struct sm_pch_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->dir = dir ? strdup(dir) : default_dir();
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cond, NULL);
	return c;
}

void sm_pch_cache_free(struct sm_pch_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->e[i]->path);
		free(c->e[i]);
	}
	for (size_t i = 0; i < c->ntk; i++)
		free(c->tk[i].root);
	free(c->tk);
	free(c->e);
	free(c->dir);
	pthread_mutex_destroy(&c->lock);
	pthread_cond_destroy(&c->cond);
	free(c);
}

const char *sm_pch_cache_dir(const struct sm_pch_cache *c)
{
	return c ? c->dir : NULL;
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0755) != 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	if (mkdir(p, 0755) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

/* Flags a precompiled prefix cannot honour: they add user headers before
 * the file, which the PCH must not contain. */
static int unusable_flags(const struct sm_frontend_options *opt)
{
	for (int i = 0; i < opt->nargs; i++) {
		const char *a = opt->args[i];
		if (!strncmp(a, "-include", 8) || !strncmp(a, "-imacros", 8) || !strncmp(a, "--include", 9) ||
		    !strncmp(a, "-emit", 5) || !strcmp(a, "-Xclang"))
			return 1;
	}
	return 0;
}

/* Does a user flag name a relative path (-Iinc, -I inc, -isystem ../x)? */
static int relative_paths(const struct sm_frontend_options *opt)
{
	static const char *const pre[] = { "-I", "-isystem", "-iquote", "-idirafter", "--include-directory" };
	for (int i = 0; i < opt->nargs; i++) {
		const char *a = opt->args[i];
		for (unsigned k = 0; k < sizeof(pre) / sizeof(pre[0]); k++) {
			size_t n = strlen(pre[k]);
			if (strncmp(a, pre[k], n) != 0)
				continue;
			const char *p = a[n] == '=' ? a + n + 1 : a[n] ? a + n : i + 1 < opt->nargs ? opt->args[i + 1] : "/";
			if (p[0] != '/')
				return 1;
		}
	}
	return 0;
}

/* under c->lock */
static uint64_t toolkit_id_locked(struct sm_pch_cache *c, const char *root)
{
	for (size_t i = 0; i < c->ntk; i++)
		if (!strcmp(c->tk[i].root, root))
			return c->tk[i].h;
	char inc[PATH_MAX];
	snprintf(inc, sizeof(inc), "%s/include", root);
	uint64_t h = tree_id(inc, 0);
	if (!SM_ALLOC_GROW(c->tk, c->ntk + 1, c->captk)) {
		c->tk[c->ntk].root = strdup(root);
		c->tk[c->ntk].h = h;
		if (c->tk[c->ntk].root)
			c->ntk++;
	}
	return h;
}

static struct pch_entry *find_locked(struct sm_pch_cache *c, const char *key)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->e[i]->key, key))
			return c->e[i];
	return NULL;
}

/* libclang aborts the whole process (report_fatal_error) when writing a
 * PCH fails, so a PCH is built only with room to spare: a file size limit
 * (ulimit -f) and free space of at least SM_PCH_ROOM (base/limits.h). */

static int room_for_pch(const char *dir)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < SM_PCH_ROOM)
		return 0;
	struct statvfs vs;
	if (statvfs(dir, &vs) == 0 && (uint64_t)vs.f_bavail * vs.f_frsize < SM_PCH_ROOM)
		return 0;
	return 1;
}

static int build_file(struct sm_frontend *fe, const struct sm_frontend_options *opt, const char *dir,
		      const char *path)
{
	if (make_dirs(dir) != 0 || !room_for_pch(dir))
		return -1;
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	close(fd);
	char err[256];
	if (sm_frontend_build_pch(fe, opt, tmp, err, sizeof(err)) != 0 || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* ---- eviction: least recently used first ----
 *
 * A file's mtime is when a run last used it (renewed on first use in each
 * run), so the oldest mtimes are the least recently used. After a new PCH
 * is written, the directory is brought under its size cap by deleting the
 * oldest, never `keep` (the file just built); temporaries of writes that
 * never finished are deleted once they are SM_PCH_TMP_AGE_S old. A file
 * another process is reading stays readable until it closes it, and a
 * file deleted before another process opens it makes that parse fall back
 * to a plain one (sm_frontend_pch_rejected). */

struct cached_file {
	char *path;
	uint64_t size;
	struct timespec mtime;
};

static int older(const void *a, const void *b)
{
	const struct cached_file *x = a, *y = b;
	if (x->mtime.tv_sec != y->mtime.tv_sec)
		return x->mtime.tv_sec < y->mtime.tv_sec ? -1 : 1;
	if (x->mtime.tv_nsec != y->mtime.tv_nsec)
		return x->mtime.tv_nsec < y->mtime.tv_nsec ? -1 : 1;
	return strcmp(x->path, y->path);
}

static uint64_t cache_cap(void)
{
	const char *v = getenv("SMEMLINT_CACHE_MAX_MIB");
	char *end;
	if (v && *v) {
		unsigned long long mib = strtoull(v, &end, 10);
		if (!*end)
			return (uint64_t)mib << 20;
	}
	return SM_PCH_CACHE_BYTES;
}

static void evict(const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct cached_file *f = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	time_t now = time(NULL);
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "pch-", 4))
			continue;
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		struct stat st;
		if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (strstr(de->d_name, ".tmp.")) {
			if (now - st.st_mtim.tv_sec > SM_PCH_TMP_AGE_S)
				unlink(p);
			continue;
		}
		size_t l = strlen(de->d_name);
		if (l < 5 || strcmp(de->d_name + l - 4, ".pch"))
			continue;
		total += (uint64_t)st.st_size;
		if (keep && !strcmp(p, keep))
			continue;
		if (SM_ALLOC_GROW(f, n + 1, cap))
			break;
		f[n].path = strdup(p);
		f[n].size = (uint64_t)st.st_size;
		f[n].mtime = st.st_mtim;
		if (f[n].path)
			n++;
	}
	closedir(d);
	uint64_t limit = cache_cap();
	if (n > 1)
		qsort(f, n, sizeof(*f), older);
	for (size_t i = 0; i < n; i++) {
		if (total > limit && unlink(f[i].path) == 0)
			total -= f[i].size;
		free(f[i].path);
	}
	free(f);
}

const char *sm_pch_cache_get(struct sm_pch_cache *c, struct sm_frontend *fe, const struct sm_frontend_options *opt)
{
	/* the bundled header (no toolkit) parses in a few milliseconds:
	 * nothing to gain */
	if (!c || !c->dir || !fe || !opt->cuda_path || unusable_flags(opt))
		return NULL;
	struct sm_frontend_options o = *opt;
	o.pch = NULL;
	struct sm_arena A;
	sm_arena_init(&A, 0);
	int argc;
	const char **argv = sm_frontend_args(&o, &argc, &A);
	if (!argv) {
		sm_arena_release(&A);
		return NULL;
	}
	struct h128 h = { 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull };
	h_str(&h, "smemlint-pch-1");
	h_str(&h, sm_frontend_clang_version(&A));
	h_str(&h, sm_cuda_compat_header); /* forced in, and part of the PCH */
	for (int i = 0; i < argc; i++)
		h_str(&h, argv[i]);
	/* a relative include directory could shadow a toolkit header: then
	 * the working directory is part of the key (only then, so that runs
	 * from many directories share one file) */
	if (relative_paths(&o)) {
		char cwd[PATH_MAX];
		h_str(&h, getcwd(cwd, sizeof(cwd)) ? cwd : "");
	}
	sm_arena_release(&A);

	pthread_mutex_lock(&c->lock);
	if (o.cuda_path) {
		uint64_t t = toolkit_id_locked(c, o.cuda_path);
		h_bytes(&h, &t, sizeof(t));
	}
	char key[33];
	snprintf(key, sizeof(key), "%016llx%016llx", (unsigned long long)h.a, (unsigned long long)h.b);
	struct pch_entry *e = find_locked(c, key);
	while (e && e->state == PCH_BUILDING)
		pthread_cond_wait(&c->cond, &c->lock);
	if (e && e->state == PCH_READY) {
		pthread_mutex_unlock(&c->lock);
		return e->path;
	}
	if (e && e->state == PCH_FAILED) {
		pthread_mutex_unlock(&c->lock);
		return NULL;
	}
	int rebuild = 0;
	if (e) {
		rebuild = 1; /* stale */
		e->rebuilds++;
	} else {
		e = calloc(1, sizeof(*e));
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/pch-%s.pch", c->dir, key);
		if (e)
			e->path = strdup(path);
		if (!e || !e->path || SM_ALLOC_GROW(c->e, c->n + 1, c->cap)) {
			if (e)
				free(e->path);
			free(e);
			pthread_mutex_unlock(&c->lock);
			return NULL;
		}
		memcpy(e->key, key, sizeof(key));
		c->e[c->n++] = e;
	}
	e->state = PCH_BUILDING;
	pthread_mutex_unlock(&c->lock);

	struct stat st;
	int built = 0;
	int ok = (!rebuild && stat(e->path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) ||
		 (built = build_file(fe, &o, c->dir, e->path) == 0);
	if (ok && !built)
		utimensat(AT_FDCWD, e->path, NULL, 0); /* used now: least recently used goes first */
	if (built)
		evict(c->dir, e->path);

	pthread_mutex_lock(&c->lock);
	e->state = ok ? PCH_READY : PCH_FAILED;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	return ok ? e->path : NULL;
}

void sm_pch_cache_reject(struct sm_pch_cache *c, const char *pch)
{
	if (!c || !pch)
		return;
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < c->n; i++) {
		struct pch_entry *e = c->e[i];
		if (strcmp(e->path, pch) != 0 || e->state != PCH_READY)
			continue;
		e->state = e->rebuilds < 1 ? PCH_STALE : PCH_FAILED;
	}
	pthread_mutex_unlock(&c->lock);
}

/* pch_cache.c - the header cache (see pch_cache.h).
 *
 * Design: a PCH is built in a forked child process that writes into a
 * private temporary directory in the cache directory; the parent renames
 * the finished file into place and removes the directory whatever the
 * child did. libclang aborts the process when a PCH write fails (a full
 * disk, a quota, `ulimit -f`): in the child that is a failed build, a
 * note and plain parses, never a lost run, and nothing is left behind.
 * The session asks for each file's PCH before it starts its workers, so
 * the fork normally happens while the process has one thread; a rebuild
 * after a rejected PCH forks from a worker, and a child that hangs there
 * (a lock another thread held at the fork) is killed after
 * SM_PCH_BUILD_SECONDS. A temporary directory of a run killed mid-build is
 * named after its host and process and is removed by the next run once
 * that process is gone.
 *
 * Keys leave out the user's include directories when none of them holds
 * a file the PCH's headers could resolve to instead (checked against the
 * list of headers each PCH contains, `pch-<key>.deps`), so that targets
 * which differ only in their own include directories share one file.
 */
#define _GNU_SOURCE
#include "front/pch_cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
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
#include "base/proc.h"
#include "smemlint/arena.h"

enum { PCH_BUILDING, PCH_READY, PCH_STALE, PCH_FAILED };

struct pch_entry {
	char key[33];
	char *path;
	int state;
	int rebuilds;
	bool deps_read;          /* deps loaded (or found missing) */
	bool no_deps;            /* no list: every include directory counts */
	char **deps;             /* absolute names of the headers in the PCH */
	size_t ndeps;
};

struct toolkit_id {
	char *root;
	uint64_t h;
};

/* Does include directory `dir` hold a header that would replace one of
 * `base`'s? (memo: asked once per directory and key) */
struct shadow_memo {
	char *dir;
	const struct pch_entry *base;
	bool shadows;
};

struct sm_pch_cache {
	char *dir;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pch_entry **e;    /* the headers built or being built */
	size_t n, cap;           /* entries in e, its capacity */
	struct toolkit_id *tk;   /* toolkits whose include tree was hashed */
	size_t ntk, captk;       /* entries in tk, its capacity */
	struct shadow_memo *sh;  /* include directories checked */
	size_t nsh, capsh;
	char *failure;           /* why the first build that failed failed */
	bool swept;              /* leftovers of killed runs removed */
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
		for (size_t k = 0; k < c->e[i]->ndeps; k++)
			free(c->e[i]->deps[k]);
		free(c->e[i]->deps);
		free(c->e[i]->path);
		free(c->e[i]);
	}
	for (size_t i = 0; i < c->nsh; i++)
		free(c->sh[i].dir);
	free(c->sh);
	free(c->failure);
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

const char *sm_pch_cache_failure(struct sm_pch_cache *c)
{
	if (!c)
		return NULL;
	pthread_mutex_lock(&c->lock);
	const char *f = c->failure;
	pthread_mutex_unlock(&c->lock);
	return f;
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

/* Remember the first failure, for sm_pch_cache_failure (under c->lock). */
static void fail_locked(struct sm_pch_cache *c, const char *why)
{
	if (!c->failure && why && *why)
		c->failure = strdup(why);
}

/* ---- temporary directories ---- */

/* Remove a temporary directory of a build and what is in it (flat: the
 * PCH, its list and libclang's own temporary file). */
static void remove_tmp_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *de;
		while ((de = readdir(d)) != NULL) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			unlinkat(dirfd(d), de->d_name, 0);
		}
		closedir(d);
	}
	rmdir(dir);
}

static void host_name(char *h, size_t n)
{
	if (gethostname(h, n) != 0 || !h[0])
		snprintf(h, n, "host");
	h[n - 1] = 0;
	for (char *p = h; *p; p++)
		if (*p == '/' || *p == '.')
			*p = '_';
}

/* Is the temporary entry `name` (pch-<key>.tmp.<host>.<pid>.XXXXXX) left
 * by a process of this host that no longer runs? */
static bool builder_gone(const char *name)
{
	const char *t = strstr(name, ".tmp.");
	char host[64];
	host_name(host, sizeof(host));
	size_t hl = strlen(host);
	if (!t || strncmp(t + 5, host, hl) != 0 || t[5 + hl] != '.')
		return false;
	char *end;
	long pid = strtol(t + 6 + hl, &end, 10);
	if (pid <= 0 || *end != '.')
		return false;
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Is name one of this cache's own (pch-KEY then ".pch" or ".tmp.", KEY 32
 * lowercase hex digits as make_key writes it; ".pch.tmp." the older
 * temporaries)? Eviction and the sweep
 * delete nothing else a cache folder holds. */
static bool own_name(const char *name, const char *suffix)
{
	if (strncmp(name, "pch-", 4))
		return false;
	for (int i = 4; i < 36; i++)
		if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
			return false;
	return !strncmp(name + 36, suffix, strlen(suffix)) && (strcmp(suffix, ".pch") || !name[40]);
}

/* Remove what builds that never finished left in dir: temporaries of a
 * process of this host that is gone, and any older than SM_PCH_TMP_AGE_S
 * (other hosts sharing the directory, old file-style temporaries). */
static void sweep_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	time_t now = time(NULL);
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!own_name(de->d_name, ".tmp.") && !own_name(de->d_name, ".pch.tmp."))
			continue; /* an unfinished build's, or an old file-style temporary */
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		struct stat st;
		if (lstat(p, &st) != 0)
			continue;
		if (!builder_gone(de->d_name) && now - st.st_mtim.tv_sec <= SM_PCH_TMP_AGE_S)
			continue;
		if (S_ISDIR(st.st_mode))
			remove_tmp_dir(p);
		else if (S_ISREG(st.st_mode))
			unlink(p);
	}
	closedir(d);
}

/* ---- building, in a child process ---- */

/* Is there room to build? A build that fails in the child costs nothing
 * but time; this keeps a nearly full disk from being filled. */
static int room_for_pch(const char *dir, char *why, size_t n)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < SM_PCH_ROOM) {
		snprintf(why, n, "the file size limit (ulimit -f) is below %llu MiB",
			 (unsigned long long)(SM_PCH_ROOM >> 20));
		return 0;
	}
	struct statvfs vs;
	if (statvfs(dir, &vs) == 0 && (uint64_t)vs.f_bavail * vs.f_frsize < SM_PCH_ROOM) {
		snprintf(why, n, "'%s' has %llu MiB free, less than %llu MiB", dir,
			 (unsigned long long)(((uint64_t)vs.f_bavail * vs.f_frsize) >> 20),
			 (unsigned long long)(SM_PCH_ROOM >> 20));
		return 0;
	}
	return 1;
}

/* What the child that builds a PCH is given. */
struct build_job {
	struct sm_frontend *fe;
	const struct sm_frontend_options *o;
	const char *out, *deps;
};

/* The child: build into out and deps, say why not on fd 2 (the pipe). */
static int child_build(void *ctx, int pipe_fd)
{
	const struct build_job *b = ctx;
	(void)pipe_fd; /* it is fd 2 */
	/* test hook: a file size limit only here, to fail the write inside
	 * libclang the way a full disk does */
	if (b->o->test_pch_fsize) {
		struct rlimit rl = { (rlim_t)b->o->test_pch_fsize, (rlim_t)b->o->test_pch_fsize };
		setrlimit(RLIMIT_FSIZE, &rl);
	}
	char err[512];
	int rc = sm_frontend_build_pch(b->fe, b->o, b->out, b->deps, err, sizeof(err));
	if (rc != 0) {
		ssize_t w = write(2, err, strlen(err));
		(void)w;
	}
	return rc ? 1 : 0;
}

/* What the child wrote: the end is kept, the reason is the last thing
 * written. */
struct child_text {
	char buf[4096];
	size_t len;
};

static void keep_end(void *ctx, const char *b, size_t got)
{
	struct child_text *t = ctx;
	if (got >= sizeof(t->buf) - 1) {
		b += got - (sizeof(t->buf) - 1);
		got = sizeof(t->buf) - 1;
	}
	if (t->len + got >= sizeof(t->buf)) {
		size_t drop = t->len + got - (sizeof(t->buf) - 1);
		memmove(t->buf, t->buf + drop, t->len - drop);
		t->len -= drop;
	}
	memcpy(t->buf + t->len, b, got);
	t->len += got;
}

/* Why the child failed, from what it wrote: libclang's "LLVM ERROR: ..."
 * line if there is one, else the last line. */
static void child_reason(char *buf, size_t len, char *why, size_t n)
{
	buf[len] = 0;
	const char *l = strstr(buf, "ERROR: "); /* LLVM ERROR, LIBCLANG FATAL ERROR */
	if (l) {
		l += 7;
	} else {
		while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
			buf[--len] = 0;
		const char *nl = strrchr(buf, '\n');
		l = nl ? nl + 1 : buf;
	}
	size_t k = strcspn(l, "\n");
	snprintf(why, n, "%.*s", (int)(k > 300 ? 300 : k), l);
}

/* Build the PCH for key at path (its header list at path with .deps):
 * 0, or -1 with why filled. Never leaves a temporary behind. */
static int build_isolated(const char *dir, struct sm_frontend *fe, const struct sm_frontend_options *o,
			  const char *key, const char *path, char *why, size_t n)
{
	if (make_dirs(dir) != 0) {
		snprintf(why, n, "cannot create '%s': %s", dir, strerror(errno));
		return -1;
	}
	if (!room_for_pch(dir, why, n))
		return -1;
	char host[64], tmp[PATH_MAX], out[PATH_MAX + 16], deps[PATH_MAX + 16], final_deps[PATH_MAX];
	host_name(host, sizeof(host));
	if (snprintf(tmp, sizeof(tmp), "%s/pch-%s.tmp.%s.%ld.XXXXXX", dir, key, host, (long)getpid()) >= (int)sizeof(tmp) ||
	    !mkdtemp(tmp)) {
		snprintf(why, n, "cannot create a temporary directory in '%s': %s", dir, strerror(errno));
		return -1;
	}
	snprintf(out, sizeof(out), "%s/h.pch", tmp);
	snprintf(deps, sizeof(deps), "%s/h.deps", tmp);
	snprintf(final_deps, sizeof(final_deps), "%.*s.deps", (int)(strlen(path) - 4), path);
	struct build_job job = { fe, o, out, deps };
	struct sm_proc_spec spec = { .fn = child_build, .ctx = &job, .pipe = true,
				     .io = { SM_PROC_INHERIT, SM_PROC_INHERIT, SM_PROC_PIPE }, .die_with_parent = true };
	struct sm_proc child;
	if (sm_proc_start(&spec, &child) != 0) {
		snprintf(why, n, "cannot start a process to build '%s': %s", path, strerror(errno));
		remove_tmp_dir(tmp);
		return -1;
	}
	struct child_text text = { .len = 0 };
	struct sm_proc_end end;
	sm_proc_collect(&child, SM_PCH_BUILD_SECONDS, keep_end, &text, &end);
	bool timed_out = end.timed_out;
	struct stat st;
	int rc = -1;
	if (timed_out) {
		snprintf(why, n, "building '%s' took longer than %d s", path, SM_PCH_BUILD_SECONDS);
	} else if (end.code == 0 && stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
		   st.st_size > 0) {
		/* the list first: a PCH in place always has its list */
		if (rename(deps, final_deps) != 0 || rename(out, path) != 0)
			snprintf(why, n, "cannot rename into '%s': %s", path, strerror(errno));
		else
			rc = 0;
	} else {
		char reason[320];
		child_reason(text.buf, text.len, reason, sizeof(reason));
		if (end.signal)
			snprintf(why, n, "cannot write '%s': %s%s(signal %d, %s)", path, reason, *reason ? " " : "",
				 end.signal, strsignal(end.signal));
		else
			snprintf(why, n, "cannot write '%s': %s", path, *reason ? reason : "the build failed");
	}
	if (rc != 0)
		unlink(final_deps);
	remove_tmp_dir(tmp);
	return rc;
}

/* ---- eviction: least recently used first ----
 *
 * A file's mtime is when a run last used it (renewed on first use in each
 * run), so the oldest mtimes are the least recently used. After a new PCH
 * is written, the directory is brought under its size cap by deleting the
 * oldest (each with its .deps list), never `keep` (the file just built).
 * A file another process is reading stays readable until it closes it,
 * and a file deleted before another process opens it makes that parse
 * fall back to a plain one (sm_frontend_pch_rejected). */

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
	sweep_tmp(dir);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct cached_file *f = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (!own_name(de->d_name, ".pch"))
			continue;
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		struct stat st;
		if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue; /* another user's file is not ours to delete */
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
		if (total > limit && unlink(f[i].path) == 0) {
			total -= f[i].size;
			size_t l = strlen(f[i].path);
			memcpy(f[i].path + l - 4, ".dep", 4); /* pch-<key>.dep */
			char deps[PATH_MAX];
			snprintf(deps, sizeof(deps), "%ss", f[i].path);
			unlink(deps);
		}
		free(f[i].path);
	}
	free(f);
}

/* ---- keys ---- */

/* Is user flag i an include directory (-I, -isystem, -iquote, -idirafter,
 * --include-directory)? Sets *dir and *used (1 or 2 flags). */
static bool include_dir_flag(const struct sm_frontend_options *o, int i, const char **dir, int *used)
{
	static const char *const pre[] = { "--include-directory", "-isystem", "-iquote", "-idirafter", "-I" };
	const char *a = o->args[i];
	for (unsigned k = 0; k < sizeof(pre) / sizeof(pre[0]); k++) {
		size_t n = strlen(pre[k]);
		if (strncmp(a, pre[k], n) != 0)
			continue;
		if (a[n] == '=' || (a[n] && n == 2)) {
			*dir = a + n + (a[n] == '=');
			*used = 1;
			return true;
		}
		if (a[n])
			return false; /* -isystem-after and the like: keep */
		*dir = i + 1 < o->nargs ? o->args[i + 1] : "";
		*used = i + 1 < o->nargs ? 2 : 1;
		return true;
	}
	return false;
}

/* The key of the PCH for opt (its flags as the front end passes them). */
static void make_key(struct sm_pch_cache *c, const struct sm_frontend_options *opt, char key[33])
{
	struct sm_arena A;
	sm_arena_init(&A, 0);
	int argc = 0;
	const char **argv = sm_frontend_args(opt, &argc, &A);
	struct h128 h = { 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull };
	h_str(&h, "smemlint-pch-2");
	h_str(&h, sm_frontend_clang_version(&A));
	h_str(&h, sm_cuda_compat_header); /* forced in, and part of the PCH */
	for (int i = 0; argv && i < argc; i++)
		h_str(&h, argv[i]);
	/* a relative include directory could shadow a toolkit header: then
	 * the working directory is part of the key (only then, so that runs
	 * from many directories share one file) */
	if (relative_paths(opt)) {
		char cwd[PATH_MAX];
		h_str(&h, getcwd(cwd, sizeof(cwd)) ? cwd : "");
	}
	sm_arena_release(&A);
	pthread_mutex_lock(&c->lock);
	uint64_t t = toolkit_id_locked(c, opt->cuda_path);
	pthread_mutex_unlock(&c->lock);
	h_bytes(&h, &t, sizeof(t));
	snprintf(key, 33, "%016llx%016llx", (unsigned long long)h.a, (unsigned long long)h.b);
}

/* ---- shadowing: may an include directory replace a header of a PCH? ---- */

/* Read e's header list (under c->lock, e ready). */
static void read_deps_locked(struct pch_entry *e)
{
	if (e->deps_read)
		return;
	e->deps_read = true;
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%.*s.deps", (int)(strlen(e->path) - 4), e->path);
	FILE *f = fopen(p, "re");
	if (!f) {
		e->no_deps = true;
		return;
	}
	char line[PATH_MAX];
	size_t cap = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] != '/' || SM_ALLOC_GROW(e->deps, e->ndeps + 1, cap))
			continue;
		if ((e->deps[e->ndeps] = strdup(line)) != NULL)
			e->ndeps++;
	}
	if (ferror(f))
		e->no_deps = true;
	fclose(f);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Would `dir`, searched before the toolkit and system directories, hold
 * another file under a name some header of the PCH may have been included
 * by (any tail of its path: <cuda/std/x> as well as "x")? The same file (the toolkit's
 * own include directory given again) does not count. */
static bool shadows(const char *dir, const struct pch_entry *e, const char *toolkit)
{
	if (e->no_deps)
		return true;
	/* the toolkit's own include directories, which the PCH was built
	 * with (CMake often passes them again) */
	char real[PATH_MAX], tk[PATH_MAX + 32], tkreal[PATH_MAX];
	if (toolkit && realpath(dir, real)) {
		static const char *const sub[] = { "%s/include", "%s/include/cccl" };
		for (unsigned k = 0; k < 2; k++) {
			snprintf(tk, sizeof(tk), sub[k], toolkit);
			if (realpath(tk, tkreal) && !strcmp(real, tkreal))
				return false;
		}
	}
	DIR *d = opendir(dir);
	if (!d)
		return false; /* missing or unreadable: it holds nothing clang could find */
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	bool bad = false;
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (SM_ALLOC_GROW(names, n + 1, cap) || !(names[n] = strdup(de->d_name))) {
			bad = true;
			break;
		}
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_str);
	bool hit = bad;
	for (size_t i = 0; !hit && i < e->ndeps; i++) {
		const char *dep = e->deps[i];
		const char *s = dep + strlen(dep);
		for (;;) {
			/* s: the start of the last comp+1 components */
			while (s > dep && s[-1] != '/')
				s--;
			if (s <= dep + 1 || hit)
				break;
			size_t first = strcspn(s, "/");
			char name[NAME_MAX + 1];
			snprintf(name, sizeof(name), "%.*s", (int)first, s);
			const char *key = name;
			if (bsearch(&key, names, n, sizeof(*names), cmp_str)) {
				char cand[PATH_MAX];
				struct stat a, b;
				snprintf(cand, sizeof(cand), "%s/%s", dir, s);
				if (stat(cand, &a) == 0 && !S_ISDIR(a.st_mode) &&
				    (stat(dep, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino)) {
					hit = true;
				}
			}
			s--; /* onto the '/' before it */
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return hit;
}

/* Does any include directory of opt shadow base's headers? */
static bool any_shadow(struct sm_pch_cache *c, struct pch_entry *base, const struct sm_frontend_options *opt)
{
	pthread_mutex_lock(&c->lock);
	read_deps_locked(base);
	pthread_mutex_unlock(&c->lock);
	for (int i = 0; i < opt->nargs; i++) {
		const char *dir;
		int used;
		if (!include_dir_flag(opt, i, &dir, &used))
			continue;
		i += used - 1;
		int known = -1;
		pthread_mutex_lock(&c->lock);
		for (size_t k = 0; k < c->nsh; k++)
			if (c->sh[k].base == base && !strcmp(c->sh[k].dir, dir))
				known = c->sh[k].shadows;
		pthread_mutex_unlock(&c->lock);
		if (known < 0) {
			known = shadows(dir, base, opt->cuda_path);
			pthread_mutex_lock(&c->lock);
			if (!SM_ALLOC_GROW(c->sh, c->nsh + 1, c->capsh) && (c->sh[c->nsh].dir = strdup(dir)) != NULL) {
				c->sh[c->nsh].base = base;
				c->sh[c->nsh].shadows = known;
				c->nsh++;
			}
			pthread_mutex_unlock(&c->lock);
		}
		if (known)
			return true;
	}
	return false;
}

/* ---- get ---- */

/* The PCH for key (built from opt when missing or stale), or NULL; *out
 * the entry. */
static const char *ensure(struct sm_pch_cache *c, struct sm_frontend *fe, const struct sm_frontend_options *opt,
			  const char *key, struct pch_entry **out)
{
	*out = NULL;
	pthread_mutex_lock(&c->lock);
	bool sweep = !c->swept;
	c->swept = true;
	struct pch_entry *e = find_locked(c, key);
	while (e && e->state == PCH_BUILDING)
		pthread_cond_wait(&c->cond, &c->lock);
	if (e && (e->state == PCH_READY || e->state == PCH_FAILED)) {
		pthread_mutex_unlock(&c->lock);
		*out = e;
		return e->state == PCH_READY ? e->path : NULL;
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
		memcpy(e->key, key, 33);
		c->e[c->n++] = e;
	}
	e->state = PCH_BUILDING;
	pthread_mutex_unlock(&c->lock);

	if (sweep)
		sweep_tmp(c->dir);
	struct stat st;
	int built = 0;
	char why[PATH_MAX + 512] = "";
	int ok = (!rebuild && stat(e->path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) ||
		 (built = build_isolated(c->dir, fe, opt, key, e->path, why, sizeof(why)) == 0);
	if (ok && !built)
		utimensat(AT_FDCWD, e->path, NULL, 0); /* used now: least recently used goes first */
	if (built)
		evict(c->dir, e->path);

	pthread_mutex_lock(&c->lock);
	e->state = ok ? PCH_READY : PCH_FAILED;
	if (!ok)
		fail_locked(c, why);
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->lock);
	*out = e;
	return ok ? e->path : NULL;
}

const char *sm_pch_cache_get(struct sm_pch_cache *c, struct sm_frontend *fe, const struct sm_frontend_options *opt)
{
	/* the bundled header (no toolkit) parses in a few milliseconds:
	 * nothing to gain */
	if (!c || !c->dir || !fe || !opt->cuda_path || unusable_flags(opt))
		return NULL;
	struct sm_frontend_options o = *opt;
	o.pch = NULL;
	/* first the PCH of the flags without the user's include directories,
	 * shared by every target that differs only in those */
	const char **base_args = malloc(((size_t)(o.nargs > 0 ? o.nargs : 0) + 1) * sizeof(*base_args));
	if (!base_args)
		return NULL;
	struct sm_frontend_options b = o;
	b.args = base_args;
	b.nargs = 0;
	int ndirs = 0;
	for (int i = 0; i < o.nargs; i++) {
		const char *dir;
		int used;
		if (include_dir_flag(&o, i, &dir, &used)) {
			i += used - 1;
			ndirs++;
			continue;
		}
		base_args[b.nargs++] = o.args[i];
	}
	char key[33];
	make_key(c, &b, key);
	struct pch_entry *base;
	const char *p = ensure(c, fe, &b, key, &base);
	free(base_args);
	if (!p || !ndirs || !any_shadow(c, base, &o))
		return p;
	/* an include directory may replace one of its headers: the PCH of
	 * every flag */
	make_key(c, &o, key);
	struct pch_entry *full;
	return ensure(c, fe, &o, key, &full);
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

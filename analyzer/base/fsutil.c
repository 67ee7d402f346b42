/* fsutil.c - writing the user's files (reports, baselines, --fix) without
 * ever replacing what is not a regular file, and walking source trees. */
#define _GNU_SOURCE
#include "base/fsutil.h"
#include "base/grow.h"
#include "base/limits.h"
#include "base/proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


/* ---- writing a user's file ----
 *
 * What path names decides how it is written:
 *  - nothing: a new file, through a temporary in the same directory and a
 *    rename (mode from the umask);
 *  - a regular file: the same, renamed over it, keeping its mode and, where
 *    permitted, its owner and group; a symbolic link to one is resolved and
 *    its target replaced, so the link stays a link;
 *  - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the open file
 *    descriptor, written in place (as gawk does), never the link;
 *  - any other file that is not regular (a FIFO, a terminal, /dev/null):
 *    opened and written in place, never replaced;
 *  - a directory, a dangling link, a read-only file: refused with a message.
 * The temporary is ".smemlint.tmp.XXXXXX" (20 bytes, hidden from walks) so
 * that any name that fits NAME_MAX can be written.
 *
 * Signals: the report is written into an unnamed file in the target's
 * directory (O_TMPFILE), so a signal while it is written (the whole run,
 * for a streamed report), SIGKILL included, ends the process at once and
 * leaves nothing: the previous output stays as it was. Only the last steps
 * (naming the file, the checks, the rename) run with SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT blocked on the calling thread; one that arrives then
 * is delivered when they are unblocked, after the temporary is renamed or
 * gone, and ends the process as usual. No handler and no global list of
 * temporaries is needed. Where the file system has no O_TMPFILE (or /proc
 * is missing) the temporary is named from the start and the signals are
 * blocked from its creation to its rename or removal, as before; SIGKILL
 * then leaves a hidden file. */

/* Block the signals that end a process from a terminal or a service
 * manager (see above); *old receives the mask to restore. */
static void hold_signals(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static void release_signals(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

#define TMP_NAME "/.smemlint.tmp.XXXXXX"

/* The descriptor a special path names (/dev/stdout ...), or -1. */
static int fd_path(const char *path)
{
	if (!strcmp(path, "/dev/stdout") || !strcmp(path, "-"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	const char *n = NULL;
	if (!strncmp(path, "/dev/fd/", 8))
		n = path + 8;
	else if (!strncmp(path, "/proc/self/fd/", 14))
		n = path + 14;
	if (!n || !*n)
		return -1;
	char *end;
	long fd = strtol(n, &end, 10);
	return *end || fd < 0 || fd > INT_MAX ? -1 : (int)fd;
}

/* Run writer on f and flush it; 0 or an errno. */
static int run_writer(FILE *f, int (*writer)(FILE *f, void *ctx), void *ctx)
{
	errno = 0;
	int rc = writer(f, ctx);
	int saved = errno;
	if (fflush(f) != 0 || ferror(f))
		return errno ? errno : saved ? saved : EIO;
	if (rc != 0)
		return saved ? saved : EIO;
	return 0;
}

/* Write in place to what path names (a FIFO, a device, a descriptor). */
static int write_in_place(const char *path, int fd, int (*writer)(FILE *f, void *ctx), void *ctx, char *err,
			  size_t errlen)
{
	int own = fd < 0;
	if (own)
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_APPEND);
	else
		fd = dup(fd);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	int e = run_writer(f, writer, ctx);
	if (fclose(f) != 0 && !e)
		e = errno;
	if (e) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
		return -1;
	}
	return 0;
}

/* Does the file at fd hold exactly want[0..len)? */
static int same_content(int fd, const char *want, size_t len)
{
	char buf[65536];
	size_t off = 0;
	for (;;) {
		ssize_t k = read(fd, buf, sizeof(buf));
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return 0;
		if (k == 0)
			return off == len;
		if ((size_t)k > len - off || memcmp(buf, want + off, (size_t)k))
			return 0;
		off += (size_t)k;
	}
}

/* Write all of buf at offset off of fd. 0 or an errno. */
static int pwrite_all(int fd, const char *buf, size_t len, off_t off)
{
	while (len) {
		ssize_t k = pwrite(fd, buf, len, off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? errno : EIO;
		buf += k;
		len -= (size_t)k;
		off += k;
	}
	return 0;
}

/* Rewrite dst (a file with several hard links, holding wo->expect) in
 * place with the finished temporary's content, so that every name keeps
 * the one file. The new text is read whole first and the room for it is
 * reserved (posix_fallocate) before the first byte of dst changes, so a
 * full disk or quota refuses before anything is touched; a write that
 * still fails puts the original text back. The caller holds the signals it
 * can; only SIGKILL or a power cut inside the copy (one pwrite of a source
 * file) could leave dst mixed. Returns 0, or -1 with a message in err. */
static int copy_over(const char *tmp, const char *dst, const struct sm_write_opts *wo, char *err, size_t errlen)
{
	const char *orig = wo->expect;
	size_t olen = wo->expect_len;
	char *text = NULL;
	size_t len = 0;
	int sfd = open(tmp, O_RDONLY | O_CLOEXEC);
	int r = sfd < 0 ? -1 : sm_read_fd(sfd, (size_t)1 << 40, &text, &len);
	if (sfd >= 0)
		close(sfd);
	if (r != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", dst, strerror(errno));
		return -1;
	}
	int fd = open(dst, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	int e = fd < 0 ? errno : 0;
	if (!e && len > olen) {
		e = posix_fallocate(fd, 0, (off_t)len);
		if (e == EOPNOTSUPP || e == EINVAL)
			e = 0; /* a file system without it: the write below still checks */
	}
	if (e) {
		snprintf(err, errlen, "cannot write '%s': %s (the file is unchanged)", dst, strerror(e));
		free(text);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (wo->faults && wo->faults->fail_in_place)
		e = EIO; /* test hook: the in-place write fails after the checks */
	if (!e)
		e = pwrite_all(fd, text, len, 0);
	if (!e && ftruncate(fd, (off_t)len) != 0)
		e = errno;
	if (!e && fsync(fd) != 0 && errno != EINVAL)
		e = errno;
	free(text);
	if (e) {
		int back = pwrite_all(fd, orig, olen, 0) == 0 && ftruncate(fd, (off_t)olen) == 0;
		snprintf(err, errlen, "cannot write '%s': %s (%s)", dst, strerror(e),
			 back ? "its original text was put back" : "its original text could not be put back");
		close(fd);
		return -1;
	}
	if (close(fd) != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", dst, strerror(errno));
		return -1;
	}
	return 0;
}

/* Give the unnamed file fd (O_TMPFILE) the name tmp: the template
 * ".smemlint.tmp.XXXXXX" after its first dl bytes, made unique as
 * mkstemp makes it. Returns 0, or -1 with errno set. */
static int name_anonymous(int fd, char *tmp, size_t dl)
{
	char proc[64];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	for (int i = 0; i < 100; i++) {
		memcpy(tmp + dl, TMP_NAME, sizeof(TMP_NAME));
		int t = mkstemp(tmp);
		if (t < 0)
			return -1;
		close(t);
		unlink(tmp);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

int sm_write_file(const char *path, int (*writer)(FILE *f, void *ctx), void *ctx, const struct sm_write_opts *wo,
		  char *err, size_t errlen)
{
	static const struct sm_write_opts none = { 0 };
	if (!wo)
		wo = &none;
	int sfd = fd_path(path);
	if (sfd >= 0 && !wo->expect)
		return write_in_place(path, sfd, writer, ctx, err, errlen);
	struct stat lst, st;
	int exists = lstat(path, &lst) == 0;
	if (!exists && errno != ENOENT) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	if (exists && stat(path, &st) != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path,
			 errno == ENOENT ? "it is a symbolic link to a missing file" : strerror(errno));
		return -1;
	}
	if (!exists && wo->expect) {
		snprintf(err, errlen, "cannot write '%s': it no longer exists", path);
		return -1;
	}
	if (exists && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "cannot write '%s': it is a directory", path);
		return -1;
	}
	if (exists && !S_ISREG(st.st_mode)) {
		if (wo->expect) {
			snprintf(err, errlen, "cannot write '%s': it is not a regular file", path);
			return -1;
		}
		return write_in_place(path, -1, writer, ctx, err, errlen);
	}
	if (exists && !(st.st_mode & 0222)) {
		snprintf(err, errlen, "'%s' is read-only (mode %04o); not writing it", path,
			 (unsigned)(st.st_mode & 07777));
		return -1;
	}
	if (exists && st.st_nlink > 1 && !(wo->keep_links && wo->expect)) {
		snprintf(err, errlen, "'%s' has %lu hard links; not replacing it (that would split them)", path,
			 (unsigned long)st.st_nlink);
		return -1;
	}
	/* the file to replace: the target of a link, so the link stays */
	char *target = NULL;
	if (exists && S_ISLNK(lst.st_mode)) {
		target = realpath(path, NULL);
		if (!target) {
			snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
			return -1;
		}
	}
	const char *dst = target ? target : path;
	const char *slash = strrchr(dst, '/');
	size_t dl = slash ? (size_t)(slash - dst) : 1; /* "/x": 0, then "/.smemlint..." */
	char *tmp = malloc(dl + sizeof(TMP_NAME));
	if (!tmp) {
		snprintf(err, errlen, "out of memory writing '%s'", path);
		free(target);
		return -1;
	}
	if (slash)
		memcpy(tmp, dst, dl);
	else
		tmp[0] = '.';
	memcpy(tmp + dl, TMP_NAME, sizeof(TMP_NAME));
	/* an unnamed file in the target's directory while the report is
	 * written (O_TMPFILE): a signal or SIGKILL meanwhile ends the process
	 * at once and leaves nothing; it gets its temporary name only for the
	 * last steps, under held signals. Where the file system cannot, the
	 * named temporary from the start, under held signals throughout. */
	sigset_t held;
	bool anon = false, named = false;
	int fd = -1;
	if (access("/proc/self/fd", X_OK) == 0) {
		tmp[dl] = 0;
		fd = open(slash ? tmp : ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
		memcpy(tmp + dl, TMP_NAME, sizeof(TMP_NAME));
		anon = fd >= 0;
	}
	if (!anon) {
		hold_signals(&held);
		fd = mkstemp(tmp);
		named = fd >= 0;
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		release_signals(&held);
		free(tmp);
		free(target);
		return -1;
	}
	mode_t mode;
	if (exists) {
		mode = st.st_mode & 07777;
	} else {
		mode_t um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	}
	FILE *f = fdopen(fd, "w");
	int e = 0;
	if (!f) {
		e = errno;
		close(fd);
		if (anon)
			hold_signals(&held);
	} else {
		e = run_writer(f, writer, ctx);
		if (!e && fsync(fileno(f)) != 0 && errno != EINVAL)
			e = errno;
		if (!e && fchmod(fileno(f), mode) != 0)
			e = errno;
		/* the owner: root (or the owner) can keep it; --fix refuses a
		 * file whose owner it cannot keep */
		if (!e && exists && (st.st_uid != geteuid() || st.st_gid != getegid()) &&
		    fchown(fileno(f), st.st_uid, st.st_gid) != 0 && wo->keep_owner)
			e = errno;
		if (anon) {
			hold_signals(&held);
			if (!e && name_anonymous(fileno(f), tmp, dl) != 0)
				e = errno;
			named = !e;
		}
		if (fclose(f) != 0 && !e)
			e = errno;
	}
	if (!e && wo->faults && wo->faults->fail_write)
		e = EIO; /* test hook: fail after writing, before rename */
	if (!e && wo->expect) {
		/* test hook: an editor saving the file at the worst moment */
		const char *edit = wo->faults ? wo->faults->edit_before_rename : NULL;
		if (edit) {
			int efd = open(dst, O_WRONLY | O_APPEND | O_CLOEXEC);
			if (efd >= 0) {
				ssize_t w = write(efd, edit, strlen(edit));
				(void)w;
				close(efd);
			}
		}
		/* the last look before the rename: the same file, the same text */
		int cfd = open(dst, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		struct stat cs;
		int same = cfd >= 0 && fstat(cfd, &cs) == 0 && cs.st_dev == st.st_dev && cs.st_ino == st.st_ino &&
			   same_content(cfd, wo->expect, wo->expect_len);
		if (cfd >= 0)
			close(cfd);
		if (!same) {
			snprintf(err, errlen, "'%s' changed while it was being fixed; not fixing it", path);
			if (named)
				unlink(tmp);
			release_signals(&held);
			free(tmp);
			free(target);
			return -1;
		}
	}
	if (!e && exists && st.st_nlink > 1) {
		/* hard links: the file itself is rewritten, never replaced */
		if (copy_over(tmp, dst, wo, err, errlen) != 0) {
			unlink(tmp);
			release_signals(&held);
			free(tmp);
			free(target);
			return -1;
		}
		unlink(tmp);
	} else if (!e && rename(tmp, dst) != 0) {
		e = errno;
	}
	if (e) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(e));
		if (named)
			unlink(tmp);
	}
	release_signals(&held);
	free(tmp);
	free(target);
	return e ? -1 : 0;
}

int sm_write_atomic(const char *path, int (*writer)(FILE *f, void *ctx), void *ctx, char *err, size_t errlen)
{
	return sm_write_file(path, writer, ctx, NULL, err, errlen);
}

/* ---- reading ---- */

int sm_open_regular(const char *path, struct stat *st)
{
	/* refuse what stat says is special before opening it (opening a
	 * device can have effects); fstat again after, against a swap */
	if (stat(path, st) != 0)
		return -1;
	if (!S_ISREG(st->st_mode))
		return -2;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) != 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return -2;
	}
	return fd;
}

int sm_read_regular(const char *path, size_t max, const char *max_text, char **out, size_t *len, char *err,
		    size_t errlen)
{
	struct stat st;
	int fd = sm_open_regular(path, &st);
	*out = NULL;
	*len = 0;
	int rc = fd < 0 ? fd : sm_read_fd(fd, max, out, len);
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (rc == 0)
		return 0;
	if (fd == -2)
		snprintf(err, errlen, "cannot read '%s': it is %s, not a regular file", path, sm_file_kind(st.st_mode));
	else if (rc == -2)
		snprintf(err, errlen, "cannot read '%s': larger than %s", path, max_text);
	else
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(e));
	free(*out);
	*out = NULL;
	return -1;
}

const char *sm_file_kind(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	case S_IFREG: return "a regular file";
	default: return "not a regular file";
	}
}

int sm_read_fd(int fd, size_t max, char **out, size_t *len)
{
	size_t n = 0, cap = 0;
	char *buf = NULL;
	*out = NULL;
	*len = 0;
	for (;;) {
		if (n + 1 >= cap) {
			if (n > max) {
				free(buf);
				return -2;
			}
			if (SM_ALLOC_GROW(buf, n + 65536 + 1, cap)) {
				free(buf);
				errno = ENOMEM;
				return -1;
			}
		}
		/* read at most max + 1 bytes in all: one more says "too large" */
		size_t room = cap - n - 1, left = max + 1 - n;
		ssize_t k = read(fd, buf + n, room < left ? room : left);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return -1;
		}
		if (k == 0)
			break;
		n += (size_t)k;
		if (n > max) {
			free(buf);
			return -2;
		}
	}
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
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
		struct sm_proc_spec spec = { .file = "git", .argv = argv,
					     .io = { SM_PROC_NULL, SM_PROC_NULL, SM_PROC_NULL } };
		struct sm_proc p;
		struct sm_proc_end end;
		if (sm_proc_start(&spec, &p) != 0 || sm_proc_wait(&p, false, &end) != 0)
			return;
		if (end.code == 1 && git_ignored_run(root, 0, out) != 0)
			sm_paths_free(out);
	}
}

/* git's output, kept whole; NULL after running out of memory (the rest
 * is dropped and the run fails). */
struct git_out {
	char *buf;
	size_t len, cap;
};

static void git_take(void *ctx, const char *b, size_t n)
{
	struct git_out *g = ctx;
	if (g->buf && SM_ALLOC_GROW(g->buf, g->len + n, g->cap)) {
		free(g->buf);
		g->buf = NULL;
	}
	if (g->buf) {
		memcpy(g->buf + g->len, b, n);
		g->len += n;
	}
}

/* Returns 0, 1 when git said "./", -1 when git failed. */
static int git_ignored_run(const char *root, int collapse_dirs, struct sm_paths *out)
{
	char *argv[] = { "git", "-C", (char *)root, "ls-files", "-z", "--others", "--ignored",
			 "--exclude-standard", collapse_dirs ? "--directory" : NULL, NULL };
	struct sm_proc_spec spec = { .file = "git", .argv = argv, .pipe = true,
				     .io = { SM_PROC_NULL, SM_PROC_PIPE, SM_PROC_NULL } };
	struct sm_proc p;
	struct sm_proc_end end;
	struct git_out g = { malloc(4096), 0, 4096 };
	if (sm_proc_start(&spec, &p) != 0) {
		free(g.buf);
		return -1;
	}
	int rc = sm_proc_collect(&p, 0, git_take, &g, &end);
	char *buf = g.buf;
	size_t len = g.len;
	if (rc || !buf || end.code != 0) {
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

/* ---- a set of files by device and inode ---- */

static size_t inode_hash(dev_t d, ino_t i)
{
	uint64_t h = ((uint64_t)d * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)i * 0xc2b2ae3d27d4eb4full);
	return (size_t)(h ^ (h >> 29));
}

int sm_inode_set_add(struct sm_inode_set *s, dev_t dev, ino_t ino)
{
	if ((s->n + 1) * 2 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct sm_inode *v = calloc(cap, sizeof(*v));
		if (!v)
			return -1;
		for (size_t k = 0; k < s->cap; k++) {
			if (!s->v[k].used)
				continue;
			size_t h = inode_hash(s->v[k].dev, s->v[k].ino) & (cap - 1);
			while (v[h].used)
				h = (h + 1) & (cap - 1);
			v[h] = s->v[k];
		}
		free(s->v);
		s->v = v;
		s->cap = cap;
	}
	size_t h = inode_hash(dev, ino) & (s->cap - 1);
	for (; s->v[h].used; h = (h + 1) & (s->cap - 1))
		if (s->v[h].dev == dev && s->v[h].ino == ino)
			return 0;
	s->v[h] = (struct sm_inode){ dev, ino, true };
	s->n++;
	return 1;
}

void sm_inode_set_free(struct sm_inode_set *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* ---- the walk ---- */

struct walk {
	const char *const *ex;
	int nex;
	struct sm_paths *out;
	struct sm_paths *skipped;  /* what could not be walked, by name (or NULL) */
	struct sm_inode_set dirs;  /* every directory walked: a DAG or a loop of
	                            * links is walked once, in sorted order */
	int depth;
	struct sm_paths ignored;   /* git-ignored paths relative to the root */
	size_t root_len;           /* strlen of the root plus its '/' */
};

static void skipped(struct walk *w, const char *fmt, const char *path, const char *why)
{
	if (!w->skipped)
		return;
	char msg[PATH_MAX + 256];
	snprintf(msg, sizeof(msg), fmt, path, why);
	sm_paths_push(w->skipped, msg);
}

static int walk_dir(const char *dir, struct walk *w)
{
	struct stat st;
	if (stat(dir, &st) != 0) {
		skipped(w, "cannot read directory '%s': %s", dir, strerror(errno));
		return 0;
	}
	int fresh = sm_inode_set_add(&w->dirs, st.st_dev, st.st_ino);
	if (fresh == 0)
		return 0; /* walked already: through another link, or a loop */
	if (fresh < 0) {
		skipped(w, "cannot read directory '%s': %s", dir, strerror(ENOMEM));
		return 0;
	}
	if (w->depth >= SM_MAX_DIR_DEPTH) {
		char lim[24];
		snprintf(lim, sizeof(lim), "%d", SM_MAX_DIR_DEPTH);
		skipped(w, "directory '%s' is nested more than %s directories deep; it was not walked", dir, lim);
		return 0;
	}
	DIR *d = opendir(dir);
	if (!d) {
		skipped(w, "cannot read directory '%s': %s", dir, strerror(errno));
		return 0;
	}
	w->depth++;
	int count = 0;
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
			const char *rel = strlen(p) >= w->root_len ? p + w->root_len : "";
			if (excluded(p, w->ex, w->nex)) {
				free(p);
				continue;
			}
			if (stat(p, &cs) != 0) {
				/* a dangling link or a loop of links is a broken
				 * link, nothing to walk; anything else (a name too
				 * long, an I/O error) is said */
				if (errno != ENOENT && errno != ELOOP)
					skipped(w, "cannot read '%s': %s", p, strerror(errno));
			} else if (!is_ignored(&w->ignored, rel, S_ISDIR(cs.st_mode))) {
				if (S_ISDIR(cs.st_mode))
					count += walk_dir(p, w);
				else if (S_ISREG(cs.st_mode) && has_ext(names.v[i])) {
					sm_paths_push(w->out, p);
					count++;
				}
				/* FIFOs, devices and sockets are never opened */
			}
			free(p);
		}
	}
	sm_paths_free(&names);
	w->depth--;
	return count;
}

int sm_expand_path(const char *path, const char *const *excludes, int nexcludes, struct sm_paths *out, char *err,
		   size_t errlen)
{
	return sm_expand_path_ex(path, excludes, nexcludes, 0, out, NULL, err, errlen);
}

int sm_expand_path_ex(const char *path, const char *const *excludes, int nexcludes, unsigned flags,
		      struct sm_paths *out, struct sm_paths *skipped_dirs, char *err, size_t errlen)
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
	struct walk w = { .ex = excludes, .nex = nexcludes, .out = out, .skipped = skipped_dirs };
	if (!(flags & SM_WALK_NO_GITIGNORE))
		git_ignored(path, &w.ignored);
	size_t pl = strlen(path);
	w.root_len = pl && path[pl - 1] == '/' ? pl : pl + 1;
	int n = walk_dir(path, &w);
	sm_paths_free(&w.ignored);
	sm_inode_set_free(&w.dirs);
	return n;
}

/* proc.h - child processes, in one place: start one (a callback run in a
 * fork, or a program), read what it writes to a pipe, wait for it (EINTR
 * retried, killed past a deadline) and say how it ended.
 *
 * Every child smemlint starts goes through here: a file analyzed under
 * --timeout (driver/session_fork.c), a header cache build
 * (front/pch_cache.c), git for ignored files (base/fsutil.c) and the lint
 * run of --launcher (tools/launcher.c). */
#ifndef SMEMLINT_BASE_PROC_H
#define SMEMLINT_BASE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What one of the child's standard descriptors (0, 1, 2) is. */
enum sm_proc_io {
	SM_PROC_INHERIT = 0, /* the parent's */
	SM_PROC_NULL,        /* /dev/null */
	SM_PROC_PIPE,        /* the write end of the pipe (spec.pipe) */
	SM_PROC_STDERR,      /* the parent's standard error (stdout to stderr) */
};

/* How to start a child: fn in a fork, or the program file with argv. */
struct sm_proc_spec {
	int (*fn)(void *ctx, int pipe_fd); /* run in the forked child, which then
	                                    * exits with its return value; pipe_fd
	                                    * is the pipe's write end (-1: none) */
	void *ctx;
	const char *file;           /* without fn: the program to run (a name
	                             * without '/' is looked up in PATH) */
	char *const *argv;          /* its arguments, argv[0] first, NULL-ended */
	bool pipe;                  /* a pipe from the child to sm_proc.fd */
	enum sm_proc_io io[3];      /* the child's stdin, stdout, stderr */
	bool die_with_parent;       /* fn: SIGKILL when the parent dies (and
	                             * none of fn if it is already gone) */
};

/* A started child. */
struct sm_proc {
	pid_t pid;                  /* 0: none */
	int fd;                     /* the pipe's read end (close-on-exec), or -1 */
};

/* How a child ended. */
struct sm_proc_end {
	bool exited;                /* it returned or called exit */
	int code;                   /* its exit status when exited, else -1 */
	int signal;                 /* the signal that ended it, else 0 */
	bool timed_out;             /* killed by sm_proc_collect's deadline */
};

/* Start a child as spec says. Returns 0, or -1 with errno set (nothing
 * is left open). stdio is flushed before a fork, so that nothing buffered
 * is written twice. */
int sm_proc_start(const struct sm_proc_spec *spec, struct sm_proc *p);

/* Wait for p to end (EINTR retried), after SIGKILL when kill; closes its
 * pipe. Returns 0 with *end filled, or -1 (errno set). */
int sm_proc_wait(struct sm_proc *p, bool kill, struct sm_proc_end *end);

/* Read p's pipe to its end, each chunk handed to take (NULL: dropped),
 * then wait for p. Past seconds (0: no limit) the child is killed and
 * end->timed_out set. Returns sm_proc_wait's value. */
int sm_proc_collect(struct sm_proc *p, double seconds, void (*take)(void *ctx, const char *buf, size_t n),
		    void *ctx, struct sm_proc_end *end);

/* A monotonic clock in seconds, for deadlines. */
double sm_proc_now(void);

#endif

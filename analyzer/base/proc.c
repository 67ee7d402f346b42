/* proc.c - child processes (see proc.h).
 *
 * Models a child as start, pipe, wait: a callback child is a plain fork
 * (the callers fork while they have one thread, or, for a header cache
 * build, from a thread that holds none of the locks the child takes); a
 * program is started with posix_spawn, which is safe from any thread and
 * reports a program that cannot be run to the parent. Waiting retries
 * EINTR, so that a signal handled during a wait never leaves a zombie. */
#define _GNU_SOURCE
#include "base/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

double sm_proc_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* In the forked child: its standard descriptors as spec says. */
static void child_io(const struct sm_proc_spec *spec, int wfd)
{
	for (int k = 0; k < 3; k++) {
		int from = -1;
		switch (spec->io[k]) {
		case SM_PROC_INHERIT:
			continue;
		case SM_PROC_NULL:
			from = open("/dev/null", k == 0 ? O_RDONLY : O_WRONLY);
			if (from >= 0 && from != k) {
				dup2(from, k);
				close(from);
			}
			continue;
		case SM_PROC_PIPE:
			from = wfd;
			break;
		case SM_PROC_STDERR:
			from = 2;
			break;
		}
		if (from >= 0 && from != k)
			dup2(from, k);
	}
}

static int spawn_program(const struct sm_proc_spec *spec, int wfd, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	for (int k = 0; k < 3; k++) {
		switch (spec->io[k]) {
		case SM_PROC_INHERIT:
			break;
		case SM_PROC_NULL:
			posix_spawn_file_actions_addopen(&fa, k, "/dev/null", k == 0 ? O_RDONLY : O_WRONLY, 0);
			break;
		case SM_PROC_PIPE:
			posix_spawn_file_actions_adddup2(&fa, wfd, k);
			break;
		case SM_PROC_STDERR:
			posix_spawn_file_actions_adddup2(&fa, 2, k);
			break;
		}
	}
	int rc = strchr(spec->file, '/') ? posix_spawn(pid, spec->file, &fa, NULL, spec->argv, environ)
					 : posix_spawnp(pid, spec->file, &fa, NULL, spec->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return rc;
}

int sm_proc_start(const struct sm_proc_spec *spec, struct sm_proc *p)
{
	int fds[2] = { -1, -1 };
	p->pid = 0;
	p->fd = -1;
	if (spec->pipe && pipe2(fds, O_CLOEXEC) != 0)
		return -1;
	pid_t pid = -1;
	int e = 0;
	if (spec->fn) {
		fflush(NULL);
		pid_t parent = getpid();
		pid = fork();
		if (pid == 0) {
			if (fds[0] >= 0)
				close(fds[0]);
			if (spec->die_with_parent) {
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				if (getppid() != parent)
					_exit(1);
			}
			child_io(spec, fds[1]);
			_exit(spec->fn(spec->ctx, fds[1]));
		}
		e = pid < 0 ? errno : 0;
	} else {
		e = spawn_program(spec, fds[1], &pid);
	}
	if (fds[1] >= 0)
		close(fds[1]);
	if (e) {
		if (fds[0] >= 0)
			close(fds[0]);
		errno = e;
		return -1;
	}
	p->pid = pid;
	p->fd = fds[0];
	return 0;
}

int sm_proc_wait(struct sm_proc *p, bool kill_it, struct sm_proc_end *end)
{
	int status = 0, rc;
	if (kill_it)
		kill(p->pid, SIGKILL);
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	while ((rc = waitpid(p->pid, &status, 0)) < 0 && errno == EINTR)
		;
	p->pid = 0;
	end->exited = rc >= 0 && WIFEXITED(status);
	end->code = end->exited ? WEXITSTATUS(status) : -1;
	end->signal = rc >= 0 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	end->timed_out = kill_it;
	return rc < 0 ? -1 : 0;
}

int sm_proc_collect(struct sm_proc *p, double seconds, void (*take)(void *ctx, const char *buf, size_t n),
		    void *ctx, struct sm_proc_end *end)
{
	double deadline = seconds > 0 ? sm_proc_now() + seconds : 0;
	bool timed_out = false;
	while (p->fd >= 0) {
		int ms = -1;
		if (deadline) {
			double left = deadline - sm_proc_now();
			if (left <= 0) {
				timed_out = true;
				break;
			}
			ms = left > 1 ? 1000 : (int)(left * 1000) + 1;
		}
		struct pollfd pf = { p->fd, POLLIN, 0 };
		int r = poll(&pf, 1, ms);
		if (r < 0 && errno != EINTR)
			break;
		if (r <= 0)
			continue;
		char buf[4096];
		ssize_t got = read(p->fd, buf, sizeof(buf));
		if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN))
			break;
		if (got > 0 && take)
			take(ctx, buf, (size_t)got);
	}
	return sm_proc_wait(p, timed_out, end);
}

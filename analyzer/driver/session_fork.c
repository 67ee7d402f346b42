/* session_fork.c - each file analyzed in a child process (see
 * session_impl.h), so that one file's crash is one file's problem.
 *
 * A crash inside libclang or the engine cannot be recovered from inside
 * the process, and libclang cannot be interrupted from inside a thread, so
 * every file is analyzed in a forked child (base/proc.h; at most `jobs` at
 * a time, the analysis on a thread with the workers' large stack) that
 * tells the phase it enters ("#phase parsing" lines) and then sends its
 * sm_result back through a pipe (result_io.h). The parent is single
 * threaded while it forks, so the child inherits no held locks. A child
 * that dies of a signal makes its file an internal-error naming the phase;
 * with --timeout, a child past its deadline is killed with SIGKILL and the
 * file reported as timed out. Memory and CPU of a runaway parse go with
 * the child. */
#define _GNU_SOURCE
#include "driver/session_impl.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sys/resource.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/proc.h"
#include "driver/analyze.h"
#include "driver/result_io.h"

struct child {
	struct sm_proc proc;         /* proc.pid 0: a free slot */
	size_t idx;
	char *buf;
	size_t len, cap;
	double deadline;
	const char *pch;
};

#define PCH_REJECTED_EXIT 10
#define PHASE_MARK "#phase "

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SM_HAS_ASAN 1
#endif
#endif
#ifndef SM_HAS_ASAN
#define SM_HAS_ASAN 0
#endif

/* What a child analyzes. */
struct child_job {
	struct sm_session *s;
	size_t i;
	const struct sm_analysis_options *o;
	int fd;                      /* the pipe to the parent */
	int rc;                      /* the child's exit code */
};

/* Each phase, as a line before the result, so that the parent can name the
 * phase a crash ended (a plain write: nothing buffered is lost with the
 * process). */
static void tell_phase(void *ctx, const char *phase)
{
	const struct child_job *j = ctx;
	char line[64];
	int n = snprintf(line, sizeof(line), "%s%s\n", PHASE_MARK, phase);
	if (n > 0 && (size_t)n < sizeof(line) && write(j->fd, line, (size_t)n) != n) {
		/* the parent then names an earlier phase, or none */
	}
}

static void *child_work(void *ctx)
{
	struct child_job *j = ctx;
	const char *path = j->s->files[j->i].path;
	struct sm_frontend *fe = sm_frontend_new();
	struct sm_result r;
	struct sm_phase_watch w = { tell_phase, j };
	if (!fe)
		sm_session_no_parser(&r, path);
	else
		sm_analyze_path_watched(fe, path, j->o, &w, &r);
	FILE *f = fdopen(j->fd, "w");
	int rc = !f || sm_result_write(f, &r) != 0 || fflush(f) != 0;
	int rejected = j->o->fe.pch && fe && sm_frontend_pch_rejected(fe);
	j->rc = rc ? 3 : rejected ? PCH_REJECTED_EXIT : 0;
	/* released, so that the leak checkers (valgrind, LeakSanitizer) see a
	 * child that leaks nothing of its own */
	if (f)
		fclose(f);
	sm_result_free(&r);
	sm_frontend_free(fe);
	return NULL;
}

/* The child: the analysis runs on a thread with the workers' large stack
 * (deeply nested code needs it, as in session_pool.c). */
static int child_main(void *ctx, int fd)
{
	struct child_job *j = ctx;
	j->fd = fd;
	j->rc = 3;
#if !defined(__SANITIZE_ADDRESS__) && !SM_HAS_ASAN
	/* a runaway parse fails its allocation instead of taking the
	 * machine's memory (SM_FILE_ADDRESS_SPACE) */
	struct rlimit as;
	if (getrlimit(RLIMIT_AS, &as) == 0 && (as.rlim_cur == RLIM_INFINITY || as.rlim_cur > SM_FILE_ADDRESS_SPACE)) {
		as.rlim_cur = SM_FILE_ADDRESS_SPACE;
		(void)setrlimit(RLIMIT_AS, &as);
	}
#endif
	pthread_attr_t attr;
	pthread_t th;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, SM_WORKER_STACK);
	if (pthread_create(&th, &attr, child_work, j) == 0)
		pthread_join(th, NULL);
	else
		child_work(j);
	pthread_attr_destroy(&attr);
	return j->rc;
}

static int start_child(struct sm_session *s, struct sm_frontend *pfe, size_t i, struct child *c)
{
	struct sm_analysis_options o = s->files[i].opt;
	o.fe.pch = s->cache ? sm_pch_cache_get(s->cache, pfe, &o.fe) : NULL;
	struct child_job job = { s, i, &o, -1, 3 };
	struct sm_proc_spec spec = { .fn = child_main, .ctx = &job, .pipe = true, .die_with_parent = true };
	memset(c, 0, sizeof(*c));
	if (sm_proc_start(&spec, &c->proc) != 0)
		return -1;
	c->idx = i;
	c->deadline = s->o.timeout > 0 ? sm_proc_now() + s->o.timeout : HUGE_VAL;
	c->pch = o.fe.pch;
	return 0;
}

/* The phase lines at the start of what a child sent: the last one's name
 * into phase, and where its result starts. */
static size_t skip_phases(const char *buf, size_t len, char *phase, size_t cap)
{
	size_t at = 0, mark = strlen(PHASE_MARK);
	while (len - at > mark && !memcmp(buf + at, PHASE_MARK, mark)) {
		const char *nl = memchr(buf + at, '\n', len - at);
		if (!nl)
			break;
		size_t n = (size_t)(nl - (buf + at)) - mark;
		snprintf(phase, cap, "%.*s", (int)n, buf + at + mark);
		at = (size_t)(nl - buf) + 1;
	}
	return at;
}

static void finish_child(struct sm_session *s, struct child *c, const struct sm_proc_end *end)
{
	const char *path = s->files[c->idx].path;
	struct sm_result *r = &s->results[c->idx];
	struct sm_pos p0 = { 0, 0 };
	char phase[32] = "starting";
	size_t at = c->buf ? skip_phases(c->buf, c->len, phase, sizeof(phase)) : 0;
	if (end->timed_out) {
		sm_result_init(r, path);
		sm_result_problem(r, SM_PROBLEM_TIMED_OUT, p0,
			       "analysis timed out: '%s' took longer than %g seconds (--timeout) while %s; it was not analyzed",
			       path, s->o.timeout, phase);
	} else if (end->exited && (end->code == 0 || end->code == PCH_REJECTED_EXIT) &&
		   sm_result_read(c->buf ? c->buf + at : c->buf, c->len - at, path, r) == 0) {
		if (end->code == PCH_REJECTED_EXIT)
			sm_pch_cache_reject(s->cache, c->pch);
	} else {
		sm_result_init(r, path);
		if (end->signal)
			sm_result_problem(r, SM_PROBLEM_INTERNAL_ERROR, p0,
				       "internal error: the analysis of '%s' crashed while %s (signal %d, %s); "
				       "it was not analyzed, the other files were",
				       path, phase, end->signal, strsignal(end->signal));
		else
			sm_result_problem(r, SM_PROBLEM_ANALYSIS_FAILED, p0,
				       "analysis failed: '%s' was not analyzed (child exit %d while %s)", path, end->code, phase);
	}
	free(c->buf);
	c->buf = NULL;
}

/* Read what child c sent; returns true at its end of file. */
static bool drain_child(struct child *c, short revents)
{
	if (!(revents & (POLLIN | POLLHUP | POLLERR)))
		return false;
	SM_ALLOC_GROW(c->buf, c->len + 65536, c->cap); /* on failure: the read below reports EOF */
	ssize_t got = c->len < c->cap ? read(c->proc.fd, c->buf + c->len, c->cap - c->len) : -1;
	if (got > 0)
		c->len += (size_t)got;
	else if (got == 0 || (errno != EINTR && errno != EAGAIN))
		return true;
	return false;
}

static void reap(struct sm_session *s, struct child *c, bool timed_out)
{
	struct sm_proc_end end = { .code = -1 };
	sm_proc_wait(&c->proc, timed_out, &end);
	end.timed_out = timed_out;
	finish_child(s, c, &end);
}

/* Start children in the free slots; returns how many run. */
static int fill_slots(struct sm_session *s, struct sm_frontend *pfe, struct child *ch, int jobs, int running)
{
	for (int k = 0; k < jobs && s->next < s->nfiles; k++) {
		if (ch[k].proc.pid)
			continue;
		size_t i = s->next++;
		if (start_child(s, pfe, i, &ch[k]) != 0) {
			struct sm_pos p0 = { 0, 0 };
			sm_result_init(&s->results[i], s->files[i].path);
			sm_result_problem(&s->results[i], SM_PROBLEM_CANNOT_START_PROCESS, p0, "cannot start a process to analyze '%s': %s",
				       s->files[i].path, strerror(errno));
		} else {
			running++;
		}
	}
	return running;
}

void sm_session_run_forked(struct sm_session *s, int jobs)
{
	struct child *ch = calloc((size_t)jobs, sizeof(*ch));
	struct pollfd *pf = calloc((size_t)jobs, sizeof(*pf));
	struct sm_frontend *pfe = s->cache ? sm_frontend_new() : NULL; /* builds PCHs */
	int running = 0;
	if (!ch || !pf)
		jobs = 0;
	while ((running = fill_slots(s, pfe, ch, jobs, running)) > 0) {
		double t = sm_proc_now(), wait = 1e9;
		int np = 0;
		for (int k = 0; k < jobs; k++) {
			if (!ch[k].proc.pid)
				continue;
			pf[np++] = (struct pollfd){ .fd = ch[k].proc.fd, .events = POLLIN };
			if (ch[k].deadline - t < wait)
				wait = ch[k].deadline - t;
		}
		int ms = wait <= 0 ? 0 : wait > 1000 ? 1000 : (int)(wait * 1000) + 1;
		if (poll(pf, (nfds_t)np, ms) < 0 && errno != EINTR)
			break;
		t = sm_proc_now();
		for (int k = 0, p = 0; k < jobs; k++) {
			if (!ch[k].proc.pid)
				continue;
			bool eof = drain_child(&ch[k], pf[p++].revents);
			if (eof || t >= ch[k].deadline) {
				size_t idx = ch[k].idx;
				reap(s, &ch[k], !eof);
				sm_session_settle(s, idx);
				sm_session_stream_ready(s, idx);
				sm_session_file_done(s, idx);
				running--;
			}
		}
	}
	sm_frontend_free(pfe);
	free(ch);
	free(pf);
}


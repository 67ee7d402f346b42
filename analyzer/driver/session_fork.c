/* session_fork.c - --timeout: each file analyzed in a child process (see
 * session_impl.h).
 *
 * libclang cannot be interrupted from inside a thread, so with a timeout
 * every file is analyzed in a forked child (base/proc.h; at most `jobs` at
 * a time) that sends its sm_result back through a pipe (result_io.h). The
 * parent is single threaded while it forks, so the child inherits no held
 * locks. A child past its deadline is killed with SIGKILL and the file
 * reported as an error; a child that crashes is reported the same way.
 * Memory and CPU of a runaway parse go with the child. */
#define _GNU_SOURCE
#include "driver/session_impl.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
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

/* What a child analyzes. */
struct child_job {
	struct sm_session *s;
	size_t i;
	const struct sm_analysis_options *o;
};

static int child_main(void *ctx, int fd)
{
	const struct child_job *j = ctx;
	const char *path = j->s->files[j->i].path;
	struct sm_frontend *fe = sm_frontend_new();
	struct sm_result r;
	if (!fe)
		sm_session_no_parser(&r, path);
	else
		sm_analyze_path(fe, path, j->o, &r);
	FILE *f = fdopen(fd, "w");
	int rc = !f || sm_result_write(f, &r) != 0 || fflush(f) != 0;
	int rejected = j->o->fe.pch && fe && sm_frontend_pch_rejected(fe);
	return rc ? 3 : rejected ? PCH_REJECTED_EXIT : 0;
}

static int start_child(struct sm_session *s, struct sm_frontend *pfe, size_t i, struct child *c)
{
	struct sm_analysis_options o = s->files[i].opt;
	o.fe.pch = s->cache ? sm_pch_cache_get(s->cache, pfe, &o.fe) : NULL;
	struct child_job job = { s, i, &o };
	struct sm_proc_spec spec = { .fn = child_main, .ctx = &job, .pipe = true, .die_with_parent = true };
	memset(c, 0, sizeof(*c));
	if (sm_proc_start(&spec, &c->proc) != 0)
		return -1;
	c->idx = i;
	c->deadline = sm_proc_now() + s->o.timeout;
	c->pch = o.fe.pch;
	return 0;
}

static void finish_child(struct sm_session *s, struct child *c, const struct sm_proc_end *end)
{
	const char *path = s->files[c->idx].path;
	struct sm_result *r = &s->results[c->idx];
	struct sm_pos p0 = { 0, 0 };
	if (end->timed_out) {
		sm_result_init(r, path);
		sm_result_problem(r, SM_PROBLEM_TIMED_OUT, p0,
			       "analysis timed out: '%s' took longer than %g seconds (--timeout); it was not analyzed",
			       path, s->o.timeout);
	} else if (end->exited && (end->code == 0 || end->code == PCH_REJECTED_EXIT) &&
		   sm_result_read(c->buf, c->len, path, r) == 0) {
		if (end->code == PCH_REJECTED_EXIT)
			sm_pch_cache_reject(s->cache, c->pch);
	} else {
		sm_result_init(r, path);
		if (end->signal)
			sm_result_problem(r, SM_PROBLEM_ANALYSIS_CRASHED, p0, "analysis crashed: '%s' was not analyzed (signal %d, %s)",
				       path, end->signal, strsignal(end->signal));
		else
			sm_result_problem(r, SM_PROBLEM_ANALYSIS_FAILED, p0, "analysis failed: '%s' was not analyzed (child exit %d)",
				       path, end->code);
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


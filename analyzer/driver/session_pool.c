/* session_pool.c - a session's worker threads (see session_impl.h).
 *
 * Models the analysis of a run's files as a pool of threads, each with a
 * large stack and a front end of its own, taking the next file under the
 * session's lock; a file's result is settled and streamed by the thread
 * that analyzed it. The header cache (PCH) is asked for every file before
 * the first thread starts, so that a PCH build forks while the process has
 * one thread, and is told when a parse refused it. */
#define _GNU_SOURCE
#include "driver/session_impl.h"

#include <stdlib.h>
#include <unistd.h>

#include "base/limits.h"
#include "driver/analyze.h"

/* Analyze file i with front end fe (NULL: it could not be started). */
static void analyze_one(struct sm_session *s, struct sm_frontend *fe, size_t i)
{
	const struct sm_file_job *f = &s->files[i];
	struct sm_analysis_options o = f->opt;
	if (!fe) {
		sm_session_no_parser(&s->results[i], f->path);
	} else {
		o.fe.pch = s->cache ? sm_pch_cache_get(s->cache, fe, &o.fe) : NULL;
		sm_analyze_path(fe, f->path, &o, &s->results[i]);
		if (o.fe.pch && sm_frontend_pch_rejected(fe))
			sm_pch_cache_reject(s->cache, o.fe.pch);
	}
	sm_session_settle(s, i);
	sm_session_stream_ready(s, i);
}

/* One more file done: tell o.progress (under the lock: one call at a time). */
void sm_session_file_done(struct sm_session *s, size_t i)
{
	if (!s->o.progress)
		return;
	pthread_mutex_lock(&s->lock);
	s->done++;
	s->o.progress(s->o.progress_ctx, s->done, s->nfiles, s->files[i].path);
	pthread_mutex_unlock(&s->lock);
}

static void *worker(void *arg)
{
	struct sm_session *s = arg;
	struct sm_frontend *fe = sm_frontend_new();
	for (;;) {
		pthread_mutex_lock(&s->lock);
		size_t i = s->next++;
		pthread_mutex_unlock(&s->lock);
		if (i >= s->nfiles)
			break;
		analyze_one(s, fe, i);
		sm_session_file_done(s, i);
	}
	sm_frontend_free(fe);
	return NULL;
}

void sm_session_run_threads(struct sm_session *s, int jobs)
{
	/* even for one job: libclang parses on this thread (see
	 * sm_session_process_init), and deeply nested code needs more stack
	 * than the main thread's */
	pthread_t *th = calloc((size_t)jobs, sizeof(*th));
	int started = 0;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, SM_WORKER_STACK);
	for (int t = 0; th && t < jobs; t++)
		if (pthread_create(&th[t], &attr, worker, s) == 0)
			started++;
	pthread_attr_destroy(&attr);
	if (!started)
		worker(s);
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	free(th);
}


/* Ask for every file's PCH before any worker starts: a PCH is built in a
 * forked child (pch_cache.c), and a fork is safest while this process has
 * one thread. Files of equal flags ask once (their PCH is then ready). */
void sm_session_warm_cache(struct sm_session *s)
{
	if (!s->cache || !s->nfiles)
		return;
	struct sm_frontend *fe = sm_frontend_new();
	for (size_t i = 0; fe && i < s->nfiles; i++)
		sm_pch_cache_get(s->cache, fe, &s->files[i].opt.fe);
	sm_frontend_free(fe);
}

int sm_session_job_count(const struct sm_session *s)
{
	int jobs = s->o.jobs;
	if (jobs <= 0) {
		long nc = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = nc > 0 ? (int)nc : 1;
	}
	if ((size_t)jobs > s->nfiles)
		jobs = (int)(s->nfiles ? s->nfiles : 1);
	return jobs;
}


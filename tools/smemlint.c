/* smemlint.c - the command: options, file discovery, workers, output. */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "driver/analyze.h"
#include "driver/config.h"
#include "emit/emit.h"
#include "rules/explain.h"
#include "driver/report.h"
#include "driver/fix_apply.h"
#include "front/pch_cache.h"
#include "driver/result_io.h"
#include "base/fsutil.h"
#include "launcher.h"

#ifndef SMEMLINT_VERSION
#define SMEMLINT_VERSION "0.1.0"
#endif

/* main() returns early in many places (usage errors, --version, input
 * errors): these free what it allocated on every return, so that leak
 * checkers see no leaks (sm_paths_free may run twice: it resets). */
static void sm_free_ptr(void *p)
{
	free(*(void **)p);
}

static void sm_free_paths(struct sm_paths *p)
{
	sm_paths_free(p);
}

#define SM_AUTOFREE __attribute__((cleanup(sm_free_ptr)))
#define SM_AUTOPATHS __attribute__((cleanup(sm_free_paths)))
#define SM_AUTOCONFIG __attribute__((cleanup(sm_config_free)))

static void usage(FILE *f)
{
	fprintf(f,
		"usage: smemlint [options] PATH... [-- COMPILER-FLAGS...]\n"
		"\n"
		"Static analysis of CUDA shared-memory accesses: bank conflicts and barriers.\n"
		"PATH is a .cu/.cuh file or a directory (searched recursively).\n"
		"\n"
		"options:\n"
		"  --format=FMT          text (default), json, sarif (SARIF 2.1.0) or github\n"
		"                        (GitHub Actions workflow commands)\n"
		"  -o FILE               write the report to FILE (atomically)\n"
		"  --html FILE           also write a self-contained HTML report with bank maps\n"
		"  --block-dim X[,Y[,Z]] analyze every kernel with this block shape\n"
		"  --arch sm_NN          target architecture (default sm_90)\n"
		"  --cuda-path DIR       CUDA toolkit to parse with (default: $CUDA_PATH,\n"
		"                        /usr/local/cuda, or nvcc on PATH)\n"
		"  --no-cuda             parse with smemlint's bundled CUDA declarations\n"
		"  -p BUILD_DIR          read compile flags from BUILD_DIR/compile_commands.json\n"
		"  --enable RULE[,..]    enable rules (all are enabled by default)\n"
		"  --disable RULE[,..]   disable rules\n"
		"  --severity RULE=LEVEL[,..]  set a rule's level: error, warning, note or none\n"
		"  --config FILE         use this config instead of the nearest .smemlint.yaml\n"
		"  --dump-config         print the configuration in effect (YAML) and exit\n"
		"  --report-unused-suppressions  report inline suppressions that matched nothing\n"
		"  --baseline FILE       report only findings whose fingerprint is not in FILE\n"
		"  --write-baseline FILE write the fingerprints of the findings to FILE\n"
		"  --exclude GLOB        skip matching files and directories (repeatable)\n"
		"  -j N                  analyze N files in parallel (default: number of cores)\n"
		"  --shard K/N           analyze only the K-th of N shares of the files (1 <= K <= N)\n"
		"  --timeout SECONDS     give up on a file after SECONDS (each file then runs in\n"
		"                        a child process); it is reported as an error\n"
		"  --no-cache            do not use or write the precompiled CUDA header cache\n"
		"  --no-gitignore        walk directories without skipping what git ignores\n"
		"  --show-banks          text: print a lanes x banks map under each conflict\n"
		"  --fix                 apply padding fixes to the files in place\n"
		"  --all-accesses        json: list every shared access with its degree\n"
		"  --list-rules          list the rules and exit\n"
		"  --explain RULE        what a rule reports, an example, and the fix\n"
		"  --launcher -- CC ARGS...  lint the .cu files of a compile command, then run it\n"
		"                        (for CMAKE_CUDA_COMPILER_LAUNCHER)\n"
		"  --version             print the version and exit\n"
		"  -h, --help            this help\n"
		"\n"
		"exit status: 0 no findings, 1 findings, 2 usage or input error\n");
}

static const char *find_cuda(void)
{
	static const char *const cands[] = { NULL, "/usr/local/cuda" };
	const char *env = getenv("CUDA_PATH");
	char probe[PATH_MAX];
	if (env && *env) {
		snprintf(probe, sizeof(probe), "%s/include/cuda_runtime.h", env);
		if (access(probe, R_OK) == 0)
			return env;
	}
	for (unsigned i = 1; i < sizeof(cands) / sizeof(cands[0]); i++) {
		snprintf(probe, sizeof(probe), "%s/include/cuda_runtime.h", cands[i]);
		if (access(probe, R_OK) == 0)
			return cands[i];
	}
	/* nvcc on PATH: <root>/bin/nvcc */
	const char *path = getenv("PATH");
	if (!path)
		return NULL;
	char *copy = strdup(path);
	if (!copy)
		return NULL;
	static __thread char found[PATH_MAX];
	const char *res = NULL;
	for (char *tok = strtok(copy, ":"); tok; tok = strtok(NULL, ":")) {
		snprintf(probe, sizeof(probe), "%s/nvcc", tok);
		char real[PATH_MAX];
		if (access(probe, X_OK) == 0 && realpath(probe, real)) {
			char *s = strrchr(real, '/');
			if (s) {
				*s = 0;
				s = strrchr(real, '/');
				if (s) {
					*s = 0;
					snprintf(found, sizeof(found), "%s", real);
					snprintf(probe, sizeof(probe), "%s/include/cuda_runtime.h", found);
					if (access(probe, R_OK) == 0) {
						res = found;
						break;
					}
				}
			}
		}
	}
	free(copy);
	return res;
}

/* ---- compile_commands.json ---- */

struct ccdb_entry {
	char *file;      /* absolute, canonical */
	char **args;
	int nargs;
	char *arch;
};

struct ccdb {
	struct ccdb_entry *e;
	size_t n;
};

static void push_arg(struct ccdb_entry *e, const char *s)
{
	char **nv = realloc(e->args, (size_t)(e->nargs + 1) * sizeof(char *));
	if (!nv)
		return;
	e->args = nv;
	e->args[e->nargs++] = strdup(s);
}

static char *arch_of_gencode(const char *s)
{
	char buf[32];
	return sm_arch_of(s, buf, sizeof(buf)) ? strdup(buf) : NULL;
}

/* Translate one compiler command line (nvcc or clang) into the flags the
 * front end accepts: keep -I/-D/-U/-std/-include/-isystem, turn
 * -arch/-gencode into the target architecture, drop the rest. */
static void translate_args(struct ccdb_entry *e, char **argv, int argc, const char *dir)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
		char buf[PATH_MAX + 8];
		if ((!strcmp(a, "-I") || !strcmp(a, "-isystem") || !strcmp(a, "-D") || !strcmp(a, "-U") ||
		     !strcmp(a, "-include")) && i + 1 < argc) {
			val = argv[++i];
			if ((a[1] == 'I' || !strcmp(a, "-isystem") || !strcmp(a, "-include")) && val[0] != '/' && dir) {
				snprintf(buf, sizeof(buf), "%s/%s", dir, val);
				val = buf;
			}
			push_arg(e, a);
			push_arg(e, val);
		} else if (!strncmp(a, "-I", 2) || !strncmp(a, "-isystem", 8)) {
			const char *p = a[1] == 'I' ? a + 2 : a + 8;
			if (p[0] != '/' && dir) {
				snprintf(buf, sizeof(buf), "%s%s/%s", a[1] == 'I' ? "-I" : "-isystem", dir, p);
				push_arg(e, buf);
			} else {
				push_arg(e, a);
			}
		} else if (!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) || !strncmp(a, "-std=", 5)) {
			push_arg(e, a);
		} else if (!strcmp(a, "-gencode") && i + 1 < argc) {
			char *ar = arch_of_gencode(argv[++i]);
			if (ar) {
				free(e->arch);
				e->arch = ar;
			}
		} else if (!strncmp(a, "-gencode=", 9) || !strncmp(a, "--generate-code=", 16)) {
			char *ar = arch_of_gencode(a);
			if (ar) {
				free(e->arch);
				e->arch = ar;
			}
		} else if ((!strcmp(a, "-arch") || !strcmp(a, "--gpu-architecture")) && i + 1 < argc) {
			char *ar = arch_of_gencode(argv[++i]);
			if (ar) {
				free(e->arch);
				e->arch = ar;
			}
		} else if (!strncmp(a, "-arch=", 6) || !strncmp(a, "--gpu-architecture=", 19) ||
			   !strncmp(a, "--cuda-gpu-arch=", 16)) {
			char *ar = arch_of_gencode(strchr(a, '=') + 1);
			if (ar) {
				free(e->arch);
				e->arch = ar;
			}
		}
		/* everything else (-O3, -Xcompiler, --expt-*, -o, -c, ...) is dropped */
	}
}

static int split_command(const char *cmd, char ***out)
{
	/* shell-like split: whitespace, single and double quotes, backslash */
	int n = 0, cap = 16;
	char **v = malloc((size_t)cap * sizeof(char *));
	size_t len = strlen(cmd);
	char *buf = malloc(len + 1);
	if (!v || !buf) {
		free(v);
		free(buf);
		return -1;
	}
	const char *p = cmd;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		size_t b = 0;
		char q = 0;
		while (*p && (q || (*p != ' ' && *p != '\t' && *p != '\n'))) {
			if (q) {
				if (*p == q)
					q = 0;
				else if (*p == '\\' && q == '"' && p[1])
					buf[b++] = *++p;
				else
					buf[b++] = *p;
			} else if (*p == '"' || *p == '\'') {
				q = *p;
			} else if (*p == '\\' && p[1]) {
				buf[b++] = *++p;
			} else {
				buf[b++] = *p;
			}
			p++;
		}
		buf[b] = 0;
		if (n == cap) {
			cap *= 2;
			char **nv = realloc(v, (size_t)cap * sizeof(char *));
			if (!nv)
				break;
			v = nv;
		}
		v[n++] = strdup(buf);
	}
	free(buf);
	*out = v;
	return n;
}

static int ccdb_load(const char *dir, struct ccdb *db, char *err, size_t errlen)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/compile_commands.json", dir);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	if (!root) {
		snprintf(err, errlen, "cannot read '%s': %s (line %d)", path, je.text, je.line);
		return -1;
	}
	if (!json_is_array(root)) {
		snprintf(err, errlen, "invalid compilation database '%s': expected an array", path);
		json_decref(root);
		return -1;
	}
	size_t n = json_array_size(root);
	db->e = calloc(n + 1, sizeof(*db->e));
	db->n = 0;
	for (size_t i = 0; i < n && db->e; i++) {
		json_t *o = json_array_get(root, i);
		const char *file = json_string_value(json_object_get(o, "file"));
		const char *wd = json_string_value(json_object_get(o, "directory"));
		if (!file)
			continue;
		char full[PATH_MAX * 2], real[PATH_MAX];
		if (file[0] != '/' && wd)
			snprintf(full, sizeof(full), "%s/%s", wd, file);
		else
			snprintf(full, sizeof(full), "%s", file);
		struct ccdb_entry *e = &db->e[db->n];
		memset(e, 0, sizeof(*e));
		e->file = strdup(realpath(full, real) ? real : full);
		char **argv = NULL;
		int argc = 0;
		json_t *args = json_object_get(o, "arguments");
		if (json_is_array(args)) {
			argc = (int)json_array_size(args);
			argv = calloc((size_t)argc + 1, sizeof(char *));
			for (int k = 0; argv && k < argc; k++)
				argv[k] = strdup(json_string_value(json_array_get(args, (size_t)k)) ?: "");
		} else {
			const char *cmd = json_string_value(json_object_get(o, "command"));
			argc = cmd ? split_command(cmd, &argv) : 0;
		}
		if (argv)
			translate_args(e, argv, argc, wd);
		for (int k = 0; argv && k < argc; k++)
			free(argv[k]);
		free(argv);
		db->n++;
	}
	json_decref(root);
	return 0;
}

static const struct ccdb_entry *ccdb_find(const struct ccdb *db, const char *file)
{
	char real[PATH_MAX];
	if (!realpath(file, real))
		return NULL;
	for (size_t i = 0; i < db->n; i++)
		if (!strcmp(db->e[i].file, real))
			return &db->e[i];
	return NULL;
}

static void ccdb_free(struct ccdb *db)
{
	for (size_t i = 0; i < db->n; i++) {
		free(db->e[i].file);
		free(db->e[i].arch);
		for (int k = 0; k < db->e[i].nargs; k++)
			free(db->e[i].args[k]);
		free(db->e[i].args);
	}
	free(db->e);
}

/* ---- workers ---- */

struct job {
	struct sm_paths *files;
	struct sm_result *results;
	const struct sm_analysis_options *opt;
	const struct ccdb *db;
	const struct sm_analysis_options *fopt; /* per file (config files), or NULL */
	pthread_mutex_t lock;
	size_t next;
	struct sm_pch_cache *cache;  /* NULL: --no-cache */
};

/* The options for file i: the global ones plus its compile_commands.json
 * entry. *args (to free) holds the merged flags. */
static void job_file_options(const struct job *J, size_t i, struct sm_analysis_options *o, const char ***args)
{
	const char *path = J->files->v[i];
	const struct sm_analysis_options *base = J->fopt ? &J->fopt[i] : J->opt;
	*o = *base;
	*args = NULL;
	const struct ccdb_entry *e = J->db ? ccdb_find(J->db, path) : NULL;
	if (!e)
		return;
	*args = calloc((size_t)(e->nargs + base->fe.nargs) + 1, sizeof(char *));
	if (*args) {
		int n = 0;
		for (int k = 0; k < e->nargs; k++)
			(*args)[n++] = e->args[k];
		for (int k = 0; k < base->fe.nargs; k++)
			(*args)[n++] = base->fe.args[k];
		o->fe.args = *args;
		o->fe.nargs = n;
	}
	if (e->arch)
		o->fe.gpu_arch = e->arch;
}

static void *worker(void *arg)
{
	struct job *J = arg;
	struct sm_frontend *fe = sm_frontend_new();
	for (;;) {
		pthread_mutex_lock(&J->lock);
		size_t i = J->next++;
		pthread_mutex_unlock(&J->lock);
		if (i >= J->files->n)
			break;
		const char *path = J->files->v[i];
		struct sm_analysis_options o;
		const char **args;
		job_file_options(J, i, &o, &args);
		if (!fe) {
			sm_result_init(&J->results[i], path);
			struct sm_pos p0 = { 0, 0 };
			sm_result_note(&J->results[i], SM_LEVEL_ERROR, p0, "cannot start the parser for '%s'", path);
		} else {
			o.fe.pch = J->cache ? sm_pch_cache_get(J->cache, fe, &o.fe) : NULL;
			sm_analyze_path(fe, path, &o, &J->results[i]);
			if (o.fe.pch && sm_frontend_pch_rejected(fe))
				sm_pch_cache_reject(J->cache, o.fe.pch);
		}
		free(args);
	}
	sm_frontend_free(fe);
	return NULL;
}

/* ---- --timeout: one child process per file ----
 *
 * libclang cannot be interrupted from inside a thread, so with --timeout
 * every file is analyzed in a forked child (at most -j at a time) that
 * sends its sm_result back through a pipe (result_io.h). The parent is
 * single threaded while it forks, so the child inherits no held locks. A
 * child past its deadline is killed with SIGKILL and the file reported as
 * an error; a child that crashes is reported the same way. Memory and CPU
 * of a runaway parse go with the child. */

struct child {
	pid_t pid;
	int fd;
	size_t idx;
	char *buf;
	size_t len, cap;
	double deadline;
	const char *pch;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#define PCH_REJECTED_EXIT 10

static int start_child(struct job *J, struct sm_frontend *pfe, size_t i, double timeout, struct child *c)
{
	const char *path = J->files->v[i];
	struct sm_analysis_options o;
	const char **args;
	job_file_options(J, i, &o, &args);
	o.fe.pch = J->cache ? sm_pch_cache_get(J->cache, pfe, &o.fe) : NULL;
	int fds[2];
	if (pipe(fds) != 0) {
		free(args);
		return -1;
	}
	fflush(NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		free(args);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
		struct sm_frontend *fe = sm_frontend_new();
		struct sm_result r;
		if (!fe) {
			sm_result_init(&r, path);
			struct sm_pos p0 = { 0, 0 };
			sm_result_note(&r, SM_LEVEL_ERROR, p0, "cannot start the parser for '%s'", path);
		} else {
			sm_analyze_path(fe, path, &o, &r);
		}
		FILE *f = fdopen(fds[1], "w");
		int rc = !f || sm_result_write(f, &r) != 0 || fflush(f) != 0;
		int rejected = o.fe.pch && sm_frontend_pch_rejected(fe);
		_exit(rc ? 3 : rejected ? PCH_REJECTED_EXIT : 0);
	}
	close(fds[1]);
	free(args);
	memset(c, 0, sizeof(*c));
	c->pid = pid;
	c->fd = fds[0];
	c->idx = i;
	c->deadline = now_s() + timeout;
	c->pch = o.fe.pch;
	return 0;
}

static void finish_child(struct job *J, struct child *c, int status, int timed_out, double timeout)
{
	const char *path = J->files->v[c->idx];
	struct sm_result *r = &J->results[c->idx];
	struct sm_pos p0 = { 0, 0 };
	if (timed_out) {
		sm_result_init(r, path);
		sm_result_note(r, SM_LEVEL_ERROR, p0,
			       "analysis timed out: '%s' took longer than %g seconds (--timeout); it was not analyzed",
			       path, timeout);
	} else if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == PCH_REJECTED_EXIT) &&
		   sm_result_read(c->buf, c->len, path, r) == 0) {
		if (WEXITSTATUS(status) == PCH_REJECTED_EXIT)
			sm_pch_cache_reject(J->cache, c->pch);
	} else {
		sm_result_init(r, path);
		if (WIFSIGNALED(status))
			sm_result_note(r, SM_LEVEL_ERROR, p0, "analysis crashed: '%s' was not analyzed (signal %d, %s)",
				       path, WTERMSIG(status), strsignal(WTERMSIG(status)));
		else
			sm_result_note(r, SM_LEVEL_ERROR, p0, "analysis failed: '%s' was not analyzed (child exit %d)",
				       path, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	free(c->buf);
	c->buf = NULL;
	c->pid = 0;
}

static void run_forked(struct job *J, int jobs, double timeout)
{
	struct child *ch = calloc((size_t)jobs, sizeof(*ch));
	struct pollfd *pf = calloc((size_t)jobs, sizeof(*pf));
	struct sm_frontend *pfe = J->cache ? sm_frontend_new() : NULL; /* builds PCHs */
	size_t next = 0;
	int running = 0;
	if (!ch || !pf)
		jobs = 0;
	for (;;) {
		for (int s = 0; s < jobs && next < J->files->n; s++) {
			if (ch[s].pid)
				continue;
			if (start_child(J, pfe, next, timeout, &ch[s]) != 0) {
				struct sm_pos p0 = { 0, 0 };
				sm_result_init(&J->results[next], J->files->v[next]);
				sm_result_note(&J->results[next], SM_LEVEL_ERROR, p0,
					       "cannot start a process to analyze '%s': %s", J->files->v[next],
					       strerror(errno));
			} else {
				running++;
			}
			next++;
		}
		if (!running)
			break;
		double t = now_s(), wait = 1e9;
		int np = 0;
		for (int s = 0; s < jobs; s++) {
			if (!ch[s].pid)
				continue;
			pf[np].fd = ch[s].fd;
			pf[np].events = POLLIN;
			pf[np].revents = 0;
			np++;
			if (ch[s].deadline - t < wait)
				wait = ch[s].deadline - t;
		}
		int ms = wait <= 0 ? 0 : wait > 1000 ? 1000 : (int)(wait * 1000) + 1;
		if (poll(pf, (nfds_t)np, ms) < 0 && errno != EINTR)
			break;
		t = now_s();
		for (int s = 0, k = 0; s < jobs; s++) {
			if (!ch[s].pid)
				continue;
			struct child *c = &ch[s];
			short rev = pf[k++].revents;
			int eof = 0;
			if (rev & (POLLIN | POLLHUP | POLLERR)) {
				if (c->len == c->cap) {
					size_t nc = c->cap ? c->cap * 2 : 65536;
					char *nb = realloc(c->buf, nc);
					if (nb) {
						c->buf = nb;
						c->cap = nc;
					}
				}
				ssize_t got = c->len < c->cap ? read(c->fd, c->buf + c->len, c->cap - c->len) : -1;
				if (got > 0)
					c->len += (size_t)got;
				else if (got == 0 || (errno != EINTR && errno != EAGAIN))
					eof = 1;
			}
			int status = 0;
			if (eof) {
				close(c->fd);
				while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
					;
				finish_child(J, c, status, 0, timeout);
				running--;
			} else if (t >= c->deadline) {
				kill(c->pid, SIGKILL);
				close(c->fd);
				while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
					;
				finish_child(J, c, status, 1, timeout);
				running--;
			}
		}
	}
	sm_frontend_free(pfe);
	free(ch);
	free(pf);
}

/* --print-clang-args: what the front end passes to clang for each file, as
 * a compile_commands.json-like array (for clang -fsyntax-only comparisons
 * such as tools/bench). */
static int print_clang_args(struct job *J)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < J->files->n; i++) {
		struct sm_analysis_options o;
		const char **args;
		job_file_options(J, i, &o, &args);
		o.fe.pch = NULL;
		struct sm_arena A;
		sm_arena_init(&A, 0);
		const char *argv[128];
		int argc = sm_frontend_args(&o.fe, argv, 128, &A);
		json_t *a = json_array();
		for (int k = 0; k < argc; k++)
			json_array_append_new(a, json_string(argv[k]));
		json_array_append_new(arr, json_pack("{s:s, s:o}", "file", J->files->v[i], "arguments", a));
		sm_arena_release(&A);
		free(args);
	}
	int rc = json_dumpf(arr, stdout, JSON_INDENT(1)) != 0;
	putchar('\n');
	json_decref(arr);
	return rc ? 2 : 0;
}

struct out_ctx {
	int format;
	struct sm_result **res;
	unsigned n;
	struct sm_emit_options eo;
};

static int write_report(FILE *f, void *ctx)
{
	struct out_ctx *o = ctx;
	if (o->format == 1)
		return sm_emit_json(f, o->res, o->n, &o->eo);
	if (o->format == 2)
		return sm_emit_sarif(f, o->res, o->n, &o->eo);
	if (o->format == 3)
		return sm_emit_github(f, o->res, o->n, &o->eo);
	if (o->format == 4)
		return sm_emit_html(f, o->res, o->n, &o->eo);
	return sm_emit_text(f, o->res, o->n, &o->eo);
}

/* ---- configuration: .smemlint.yaml under the command line ---- */

/* The options for one file: the command line's base options, the file's
 * config, then the command line's rule choices, block shape and arch. args:
 * the config's flags followed by the command line's (malloc'd when the
 * config has flags, else NULL). */
static void file_options(const struct sm_analysis_options *base, const struct sm_config *cfg,
			 const struct sm_config *cli, struct sm_analysis_options *out, const char ***args)
{
	*out = *base;
	*args = NULL;
	if (cfg) {
		sm_config_apply(cfg, out);
		if (cfg->flags.n) {
			*args = calloc(cfg->flags.n + (size_t)base->fe.nargs + 1, sizeof(char *));
			if (*args) {
				int n = 0;
				for (size_t k = 0; k < cfg->flags.n; k++)
					(*args)[n++] = cfg->flags.v[k];
				for (int k = 0; k < base->fe.nargs; k++)
					(*args)[n++] = base->fe.args[k];
				out->fe.args = *args;
				out->fe.nargs = n;
			}
		}
	}
	sm_config_apply(cli, out);
}

/* --dump-config: the configuration that applies to `target`. */
static int dump_config(const char *target, const struct sm_config *fixed, const struct sm_config *cli,
		       const struct sm_analysis_options *base, const char *const *excludes, int nexcludes)
{
	struct sm_config found;
	sm_config_init(&found);
	const struct sm_config *cfg = fixed;
	char path[PATH_MAX], err[PATH_MAX + 256];
	if (!cfg && sm_config_find(target, path, sizeof(path))) {
		if (sm_config_load(path, &found, err, sizeof(err))) {
			fprintf(stderr, "smemlint: %s\n", err);
			sm_config_free(&found);
			return 2;
		}
		cfg = &found;
	}
	struct sm_analysis_options o;
	const char **args;
	file_options(base, cfg, cli, &o, &args);
	struct sm_paths ex = { 0 }, fl = { 0 };
	for (size_t k = 0; cfg && k < cfg->exclude.n; k++)
		sm_paths_push(&ex, cfg->exclude.v[k]);
	for (int k = 0; k < nexcludes; k++)
		sm_paths_push(&ex, excludes[k]);
	for (int k = 0; k < o.fe.nargs; k++)
		sm_paths_push(&fl, o.fe.args[k]);
	bool ru = cli->report_unused >= 0 ? cli->report_unused : cfg && cfg->report_unused > 0;
	int rc = sm_config_dump(stdout, cfg ? cfg->path : NULL, &o, &ex, &fl, ru) ? 2 : 0;
	free(args);
	sm_paths_free(&ex);
	sm_paths_free(&fl);
	sm_config_free(&found);
	return rc;
}

/* Stack of each worker thread: libclang's parser and the front end recurse
 * once per nesting level (up to a few KiB each, more under AddressSanitizer);
 * 256 MiB of address space holds 70,000 nested unary operators. */
#define SM_WORKER_STACK ((size_t)256 << 20)

int main(int argc, char **argv)
{
	/* Before any thread exists: libclang parses on the calling thread (our
	 * workers' large stacks) instead of a thread of its own with 8 MiB,
	 * which a few thousand nested parentheses overflow. And a write over
	 * `ulimit -f` fails with EFBIG, reported and cleaned up, instead of
	 * killing the process between temporary file and rename. */
	setenv("LIBCLANG_NOTHREADS", "1", 0);
	signal(SIGXFSZ, SIG_IGN);
	struct sm_analysis_options opt;
	sm_analysis_options_init(&opt);
	int format = 0, jobs = 0, no_cuda = 0, do_fix = 0;
	int no_cache = 0, no_gitignore = 0, print_args = 0;
	long shard_k = 0, shard_n = 0;
	double timeout = 0;
	const char *out_path = NULL, *cuda_path = NULL, *build_dir = NULL;
	struct sm_paths inputs SM_AUTOPATHS = { 0 };
	const char **excludes SM_AUTOFREE = calloc((size_t)argc + 1, sizeof(char *));
	int nexcludes = 0;
	const char **uargs SM_AUTOFREE = calloc((size_t)argc + 1, sizeof(char *));
	int nuargs = 0;
	struct sm_emit_options eo = { 0 };
	if (!excludes || !uargs)
		return 2;
	struct sm_config cli SM_AUTOCONFIG; /* the command line's rule choices: applied after config files */
	sm_config_init(&cli);
	const char *config_path = NULL, *baseline_path = NULL, *write_baseline = NULL, *html_path = NULL;
	int want_dump_config = 0;
	char cerr[PATH_MAX + 256];

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;
#define OPTVAL(name) \
	((!strcmp(a, name) && i + 1 < argc && (val = argv[++i])) || \
	 (!strncmp(a, name "=", strlen(name) + 1) && (val = a + strlen(name) + 1)))
		if (!strcmp(a, "--launcher")) {
			return sm_launcher_main(argc, argv, i);
		} else if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				uargs[nuargs++] = argv[i];
			break;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--version")) {
			printf("smemlint %s\n", SMEMLINT_VERSION);
			return 0;
		} else if (!strcmp(a, "--list-rules")) {
			for (int r = 0; r < SM_RULE__COUNT; r++)
				printf("%-20s %-8s %s\n", sm_rules[r].id, sm_level_name(sm_rules[r].level), sm_rules[r].summary);
			return 0;
		} else if (OPTVAL("--format")) {
			if (!strcmp(val, "text"))
				format = 0;
			else if (!strcmp(val, "json"))
				format = 1;
			else if (!strcmp(val, "sarif"))
				format = 2;
			else if (!strcmp(val, "github"))
				format = 3;
			else {
				fprintf(stderr, "smemlint: unknown format '%s' (text, json, sarif or github)\n", val);
				return 2;
			}
		} else if (OPTVAL("-o") || OPTVAL("--output")) {
			out_path = val;
		} else if (OPTVAL("--block-dim")) {
			if (sm_config_parse_block(val, &opt.block)) {
				fprintf(stderr, "smemlint: invalid block shape '%s': expected X[,Y[,Z]] with at most 1024 threads\n", val);
				return 2;
			}
			opt.has_block = true;
			cli.block = opt.block;
			cli.has_block = true;
		} else if (OPTVAL("--arch")) {
			if (strncmp(val, "sm_", 3) || !val[3]) {
				fprintf(stderr, "smemlint: invalid architecture '%s': expected sm_NN\n", val);
				return 2;
			}
			opt.arch = val;
			opt.fe.gpu_arch = val;
			free(cli.arch);
			cli.arch = strdup(val);
		} else if (OPTVAL("--cuda-path")) {
			cuda_path = val;
		} else if (!strcmp(a, "--no-cuda")) {
			no_cuda = 1;
		} else if (OPTVAL("-p")) {
			build_dir = val;
		} else if (OPTVAL("--enable") || OPTVAL("--disable")) {
			if (sm_config_rules(&cli, val, a[2] == 'e', cerr, sizeof(cerr))) {
				fprintf(stderr, "smemlint: %s\n", cerr);
				return 2;
			}
		} else if (OPTVAL("--severity")) {
			if (sm_config_severity(&cli, val, cerr, sizeof(cerr))) {
				fprintf(stderr, "smemlint: %s\n", cerr);
				return 2;
			}
		} else if (OPTVAL("--config")) {
			config_path = val;
		} else if (!strcmp(a, "--dump-config")) {
			want_dump_config = 1;
		} else if (!strcmp(a, "--report-unused-suppressions")) {
			cli.report_unused = 1;
		} else if (OPTVAL("--baseline")) {
			baseline_path = val;
		} else if (OPTVAL("--write-baseline")) {
			write_baseline = val;
		} else if (OPTVAL("--html")) {
			html_path = val;
		} else if (OPTVAL("--explain")) {
			int r = sm_rule_find(val);
			if (r < 0) {
				fprintf(stderr, "smemlint: unknown rule '%s' (see --list-rules)\n", val);
				return 2;
			}
			return sm_rule_explain(stdout, r, 0) ? 2 : 0;
		} else if (OPTVAL("--exclude")) {
			excludes[nexcludes++] = val;
		} else if (OPTVAL("-j") || (!strncmp(a, "-j", 2) && a[2] && (val = a + 2))) {
			char *end;
			long j = strtol(val, &end, 10);
			if (*end || j < 1 || j > 256) {
				fprintf(stderr, "smemlint: invalid job count '%s'\n", val);
				return 2;
			}
			jobs = (int)j;
		} else if (OPTVAL("--shard")) {
			char *end;
			errno = 0;
			shard_k = strtol(val, &end, 10);
			if (*end == '/')
				shard_n = strtol(end + 1, &end, 10);
			if (errno || *end || shard_n < 1 || shard_n > 100000 || shard_k < 1 || shard_k > shard_n) {
				fprintf(stderr, "smemlint: invalid shard '%s': expected K/N with 1 <= K <= N\n", val);
				return 2;
			}
		} else if (OPTVAL("--timeout")) {
			char *end;
			errno = 0;
			timeout = strtod(val, &end);
			if (errno || *end || end == val || !(timeout > 0) || timeout > 1e6) {
				fprintf(stderr, "smemlint: invalid timeout '%s': expected a positive number of seconds\n", val);
				return 2;
			}
		} else if (!strcmp(a, "--no-cache")) {
			no_cache = 1;
		} else if (!strcmp(a, "--no-gitignore")) {
			no_gitignore = 1;
		} else if (!strcmp(a, "--print-clang-args")) {
			print_args = 1;
		} else if (!strcmp(a, "--fix")) {
			do_fix = 1;
		} else if (!strcmp(a, "--show-banks")) {
			eo.show_banks = true;
		} else if (!strcmp(a, "--all-accesses")) {
			opt.all_accesses = true;
			eo.all_accesses = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "smemlint: unknown option '%s' (see --help)\n", a);
			return 2;
		} else {
			sm_paths_push(&inputs, a);
		}
#undef OPTVAL
	}
	struct sm_config fixed_cfg SM_AUTOCONFIG; /* --config FILE */
	sm_config_init(&fixed_cfg);
	if (config_path && sm_config_load(config_path, &fixed_cfg, cerr, sizeof(cerr))) {
		fprintf(stderr, "smemlint: %s\n", cerr);
		return 2;
	}
	if (want_dump_config) {
		opt.fe.args = uargs;
		opt.fe.nargs = nuargs;
		return dump_config(inputs.n ? inputs.v[0] : ".", config_path ? &fixed_cfg : NULL, &cli, &opt, excludes,
				   nexcludes);
	}
	struct sm_baseline baseline = { 0 };
	if (baseline_path && sm_baseline_load(baseline_path, &baseline, cerr, sizeof(cerr))) {
		fprintf(stderr, "smemlint: %s\n", cerr);
		return 2;
	}
	if (!inputs.n) {
		fprintf(stderr, "smemlint: no input files\n");
		usage(stderr);
		return 2;
	}
	if (cuda_path && !no_cuda) {
		char probe[PATH_MAX];
		snprintf(probe, sizeof(probe), "%s/include/cuda_runtime.h", cuda_path);
		if (access(probe, R_OK) != 0) {
			fprintf(stderr, "smemlint: no CUDA toolkit at '%s' (missing include/cuda_runtime.h)\n", cuda_path);
			return 2;
		}
		opt.fe.cuda_path = cuda_path;
	} else if (!no_cuda) {
		opt.fe.cuda_path = find_cuda();
	}
	opt.fe.args = uargs;
	opt.fe.nargs = nuargs;

	struct ccdb db = { 0 };
	char err[PATH_MAX + 256];
	if (build_dir && ccdb_load(build_dir, &db, err, sizeof(err))) {
		fprintf(stderr, "smemlint: %s\n", err);
		return 2;
	}

	/* expand directories; a missing path is an input error reported in
	 * order with the others */
	struct sm_paths files SM_AUTOPATHS = { 0 };
	struct sm_paths errors SM_AUTOPATHS = { 0 };
	for (size_t i = 0; i < inputs.n; i++) {
		int n = sm_expand_path_ex(inputs.v[i], excludes, nexcludes, no_gitignore ? SM_WALK_NO_GITIGNORE : 0, &files,
					  err, sizeof(err));
		if (n < 0) {
			sm_paths_push(&files, inputs.v[i]); /* reported by the analyzer */
		} else if (n == 0) {
			snprintf(err, sizeof(err), "no .cu or .cuh files under '%s'", inputs.v[i]);
			sm_paths_push(&errors, err);
		}
	}
	if (shard_n > 1) {
		/* round robin over the expanded, sorted list: every shard sees
		 * the same list, so the shards partition it */
		size_t k = 0;
		for (size_t i = 0; i < files.n; i++) {
			if ((long)(i % (size_t)shard_n) == shard_k - 1)
				files.v[k++] = files.v[i];
			else
				free(files.v[i]);
		}
		files.n = k;
	}

	/* each file's options: its config (the nearest .smemlint.yaml, or
	 * --config), then the command line; files its config excludes go */
	struct sm_config_cache ccache = { 0 };
	const struct sm_config **fcfg SM_AUTOFREE = calloc(files.n + 1, sizeof(*fcfg));
	struct sm_analysis_options *fopt SM_AUTOFREE = calloc(files.n + 1, sizeof(*fopt));
	const char ***fargs SM_AUTOFREE = calloc(files.n + 1, sizeof(*fargs));
	if (!fcfg || !fopt || !fargs)
		return 2;
	size_t nkept = 0;
	for (size_t i = 0; i < files.n; i++) {
		const struct sm_config *c = config_path ? &fixed_cfg : NULL;
		if (!config_path && sm_config_cache_lookup(&ccache, files.v[i], &c, cerr, sizeof(cerr))) {
			fprintf(stderr, "smemlint: %s\n", cerr);
			return 2;
		}
		if (c && sm_config_excluded(c, files.v[i])) {
			free(files.v[i]);
			continue;
		}
		files.v[nkept] = files.v[i];
		fcfg[nkept] = c;
		file_options(&opt, c, &cli, &fopt[nkept], &fargs[nkept]);
		nkept++;
	}
	files.n = nkept;

	struct sm_result *results = calloc(files.n + 1, sizeof(*results));
	struct sm_result **rp = calloc(files.n + 1, sizeof(*rp));
	if (!results || !rp)
		return 2;
	if (jobs <= 0) {
		long nc = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = nc > 0 ? (int)nc : 1;
	}
	if ((size_t)jobs > files.n)
		jobs = (int)(files.n ? files.n : 1);
	struct job J = { .files = &files, .results = results, .opt = &opt, .db = build_dir ? &db : NULL,
			 .fopt = fopt, .lock = PTHREAD_MUTEX_INITIALIZER };
	if (print_args) {
		int prc = print_clang_args(&J);
		free(results);
		free(rp);
		for (size_t i = 0; i < files.n; i++)
			free(fargs[i]);
		return prc;
	}
	if (!no_cache && !getenv("SMEMLINT_NO_CACHE"))
		J.cache = sm_pch_cache_new(NULL);
	if (timeout > 0) {
		run_forked(&J, jobs, timeout);
	} else {
		/* even for one job: libclang parses on this thread (see main),
		 * and deeply nested code needs more stack than the main thread's */
		pthread_t *th = calloc((size_t)jobs, sizeof(*th));
		int started = 0;
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, SM_WORKER_STACK);
		for (int t = 0; th && t < jobs; t++)
			if (pthread_create(&th[t], &attr, worker, &J) == 0)
				started++;
		pthread_attr_destroy(&attr);
		if (!started)
			worker(&J);
		for (int t = 0; t < started; t++)
			pthread_join(th[t], NULL);
		free(th);
	}

	/* inline suppressions, then the baseline (by fingerprint) */
	int ci_err = 0;
	for (size_t i = 0; i < files.n; i++) {
		rp[i] = &results[i];
		bool ru = cli.report_unused >= 0 ? cli.report_unused : fcfg[i] && fcfg[i]->report_unused > 0;
		sm_result_suppress(&results[i], ru, fopt[i].levels);
	}
	if (write_baseline && sm_baseline_write(write_baseline, rp, (unsigned)files.n, err, sizeof(err))) {
		fprintf(stderr, "smemlint: %s\n", err);
		ci_err = 1;
	}
	for (size_t i = 0; baseline_path && i < files.n; i++)
		sm_result_filter_baseline(&results[i], &baseline);

	int findings = 0, input_errors = (int)errors.n + ci_err;
	for (size_t i = 0; i < files.n; i++) {
		rp[i] = &results[i];
		findings += (int)results[i].ndiags;
		if (results[i].input_error)
			input_errors++;
	}
	for (size_t i = 0; i < errors.n; i++)
		fprintf(stderr, "smemlint: error: %s\n", errors.v[i]);

	if (do_fix) {
		/* changes are printed to stderr so that stdout stays the report */
		for (size_t i = 0; i < files.n; i++) {
			if (results[i].input_error)
				continue;
			if (sm_apply_fixes(&results[i], stderr, err, sizeof(err)) < 0) {
				fprintf(stderr, "smemlint: error: %s\n", err);
				input_errors++;
			}
		}
	}
	eo.version = SMEMLINT_VERSION;
	eo.errors = (const char *const *)errors.v;
	eo.nerrors = (unsigned)errors.n;
	struct out_ctx oc = { format, rp, (unsigned)files.n, eo };
	oc.eo.color = false;
	int werr = 0;
	if (out_path) {
		if (sm_write_atomic(out_path, write_report, &oc, err, sizeof(err))) {
			fprintf(stderr, "smemlint: %s\n", err);
			werr = 1;
		}
	} else {
		werr = write_report(stdout, &oc) != 0;
		fflush(stdout);
	}
	if (html_path) {
		struct out_ctx hc = oc;
		hc.format = 4;
		if (sm_write_atomic(html_path, write_report, &hc, err, sizeof(err))) {
			fprintf(stderr, "smemlint: %s\n", err);
			werr = 1;
		}
	}
	/* input errors also go to stderr in text form when the report is
	 * machine readable or written to a file */
	if (format != 0 || out_path) {
		for (size_t i = 0; i < files.n; i++)
			for (unsigned k = 0; k < results[i].nnotes; k++)
				if (results[i].notes[k].level == SM_LEVEL_ERROR)
					fprintf(stderr, "smemlint: error: %s\n", results[i].notes[k].message);
	}
	for (size_t i = 0; i < files.n; i++)
		sm_result_free(&results[i]);
	sm_pch_cache_free(J.cache);
	free(results);
	free(rp);
	for (size_t i = 0; i < files.n; i++) /* before files.n is reset */
		free(fargs[i]);
	sm_paths_free(&files);
	sm_paths_free(&inputs);
	sm_paths_free(&errors);
	ccdb_free(&db);
	sm_config_cache_free(&ccache);
	sm_config_free(&fixed_cfg);
	sm_config_free(&cli);
	sm_baseline_free(&baseline);
	if (werr || input_errors)
		return 2;
	if (write_baseline)
		return 0; /* writing a baseline accepts the findings it records */
	return findings ? 1 : 0;
}

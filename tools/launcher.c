/* launcher.c - the compiler-launcher mode (see launcher.h). The lint runs
 * in a child process (this same binary, with its stdout sent to stderr;
 * base/proc.h) so that nothing of the analysis stays in the process that
 * becomes the compiler. */
#define _GNU_SOURCE
#include "launcher.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/proc.h"
#include "front/compdb.h"

int sm_launcher_main(int argc, char **argv, int at)
{
	int dd = -1;
	for (int i = at + 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dd = i;
			break;
		}
	if (dd < 0 || dd + 1 >= argc) {
		fprintf(stderr, "smemlint: missing compiler command: expected 'smemlint --launcher -- COMPILER ARGS...'\n");
		return 2;
	}
	char **cc = argv + dd + 1;
	int ncc = argc - dd - 1;

	/* the one translator of compile commands (front/compdb.h); relative
	 * paths stay relative: the lint runs in the compiler's directory */
	struct sm_compile_flags cf;
	if (sm_compile_flags_translate((const char *const *)cc, ncc, NULL, &cf)) {
		fprintf(stderr, "smemlint: out of memory reading the compile command\n");
		return 2;
	}
	if (cf.problem)
		fprintf(stderr, "smemlint: warning: incomplete compile flags: %s\n", cf.problem);
	/* the lint command: our options, the sources, -- the flags */
	char **lint = calloc((size_t)argc + (size_t)cf.nsources + (size_t)cf.nflags + 8, sizeof(char *));
	if (!lint) {
		sm_compile_flags_free(&cf);
		return 2;
	}
	int n = 0, user_arch = 0;
	lint[n++] = argv[0];
	lint[n++] = "--quiet"; /* one closing line per compile would be noise */
	for (int i = 1; i < dd; i++) {
		if (i == at)
			continue;
		if (!strcmp(argv[i], "--arch") || !strncmp(argv[i], "--arch=", 7))
			user_arch = 1;
		lint[n++] = argv[i];
	}
	for (int i = 0; i < cf.nsources; i++)
		lint[n++] = cf.sources[i];
	char archopt[48];
	if (cf.arch[0] && !user_arch) {
		snprintf(archopt, sizeof(archopt), "--arch=%s", cf.arch);
		lint[n++] = archopt;
	}
	lint[n++] = "--";
	/* -x cu: its .cpp sources are CUDA; clang's spelling tells the lint */
	if (cf.as_cuda) {
		lint[n++] = "-x";
		lint[n++] = "cuda";
	}
	for (int i = 0; i < cf.nflags; i++)
		lint[n++] = cf.flags[i];
	lint[n] = NULL;
	int nsrc = cf.nsources;

	if (nsrc) {
		/* this same binary, its report on stderr (stdout is the
		 * compiler's) */
		struct sm_proc_spec spec = { .file = "/proc/self/exe", .argv = lint,
					     .io = { SM_PROC_INHERIT, SM_PROC_STDERR, SM_PROC_INHERIT } };
		struct sm_proc p;
		struct sm_proc_end end;
		fflush(stdout);
		fflush(stderr);
		int started = sm_proc_start(&spec, &p) == 0;
		if (!started) {
			spec.file = argv[0];
			started = sm_proc_start(&spec, &p) == 0;
		}
		if (started)
			sm_proc_wait(&p, false, &end);
		else
			fprintf(stderr, "smemlint: cannot run the linter: %s\n", strerror(errno));
	}
	free(lint);
	sm_compile_flags_free(&cf);
	execvp(cc[0], cc);
	fprintf(stderr, "smemlint: cannot run compiler '%s': %s\n", cc[0], strerror(errno));
	return 127;
}

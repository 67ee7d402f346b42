/* launcher.c - the compiler-launcher mode (see launcher.h). The lint runs
 * in a child process (this same binary, with its stdout sent to stderr) so
 * that nothing of the analysis stays in the process that becomes the
 * compiler. */
#define _GNU_SOURCE
#include "launcher.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* nvcc/clang options whose value is the next argument. */
static int takes_value(const char *a)
{
	static const char *const v[] = { "-o", "-x", "-MF", "-MT", "-MQ", "-Xcompiler", "-Xlinker", "-Xptxas",
					  "-Xnvlink", "-Xarchive", "-ccbin", "--compiler-bindir", "-odir",
					  "--output-directory", "--options-file", "-optf", "-rdc", "-code",
					  "--gpu-code", "-maxrregcount", "-t", "--threads", "-ldir", "-l", "-L",
					  "--dependency-output", NULL };
	for (int i = 0; v[i]; i++)
		if (!strcmp(a, v[i]))
			return 1;
	return 0;
}

static int is_cuda_source(const char *a)
{
	size_t n = strlen(a);
	return n > 3 && !strcmp(a + n - 3, ".cu");
}

/* "sm_80" from "sm_80", "compute_80", "arch=compute_80,code=sm_80". */
int sm_arch_of(const char *s, char *out, size_t n)
{
	const char *a = strstr(s, "code=sm_");
	a = a ? a + 5 : strstr(s, "sm_");
	int skip = 3;
	if (!a) {
		a = strstr(s, "compute_");
		skip = 8;
	}
	if (!a)
		return 0;
	const char *d = a + skip;
	size_t k = 0;
	char buf[32] = "sm_";
	k = 3;
	while (*d && ((*d >= '0' && *d <= '9') || (*d >= 'a' && *d <= 'z')) && k < sizeof(buf) - 1)
		buf[k++] = *d++;
	buf[k] = 0;
	if (k == 3)
		return 0;
	snprintf(out, n, "%s", buf);
	return 1;
}

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

	/* the lint command: our options, the sources, -- the flags */
	char **lint = calloc((size_t)argc * 2 + 8, sizeof(char *));
	if (!lint)
		return 2;
	int n = 0, user_arch = 0;
	lint[n++] = argv[0];
	for (int i = 1; i < dd; i++) {
		if (i == at)
			continue;
		if (!strcmp(argv[i], "--arch") || !strncmp(argv[i], "--arch=", 7))
			user_arch = 1;
		lint[n++] = argv[i];
	}
	char arch[32] = "", archopt[48];
	int nsrc = 0;
	char **flags = calloc((size_t)ncc * 2 + 1, sizeof(char *));
	int nflags = 0;
	if (!flags) {
		free(lint);
		return 2;
	}
	for (int i = 1; i < ncc; i++) {
		const char *a = cc[i];
		if ((!strcmp(a, "-I") || !strcmp(a, "-isystem") || !strcmp(a, "-D") || !strcmp(a, "-U") ||
		     !strcmp(a, "-include") || !strcmp(a, "--include-path") || !strcmp(a, "--define-macro")) &&
		    i + 1 < ncc) {
			flags[nflags++] = !strcmp(a, "--include-path") ? "-I" : !strcmp(a, "--define-macro") ? "-D" : cc[i];
			flags[nflags++] = cc[++i];
		} else if (!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) ||
			   !strncmp(a, "-isystem", 8) || !strncmp(a, "-std=", 5)) {
			flags[nflags++] = cc[i];
		} else if ((!strcmp(a, "-std") || !strcmp(a, "--std")) && i + 1 < ncc) {
			char *s = NULL;
			if (asprintf(&s, "-std=%s", cc[++i]) > 0)
				flags[nflags++] = s; /* freed with the process */
		} else if ((!strcmp(a, "-arch") || !strcmp(a, "--gpu-architecture") || !strcmp(a, "-gencode") ||
			    !strcmp(a, "--generate-code")) && i + 1 < ncc) {
			sm_arch_of(cc[++i], arch, sizeof(arch));
		} else if (!strncmp(a, "-arch=", 6) || !strncmp(a, "--gpu-architecture=", 19) ||
			   !strncmp(a, "-gencode=", 9) || !strncmp(a, "--generate-code=", 16) ||
			   !strncmp(a, "--cuda-gpu-arch=", 16)) {
			sm_arch_of(strchr(a, '=') + 1, arch, sizeof(arch));
		} else if (takes_value(a) && i + 1 < ncc) {
			i++;
		} else if (a[0] != '-' && is_cuda_source(a)) {
			lint[n++] = cc[i];
			nsrc++;
		}
	}
	if (arch[0] && !user_arch) {
		snprintf(archopt, sizeof(archopt), "--arch=%s", arch);
		lint[n++] = archopt;
	}
	lint[n++] = "--";
	for (int i = 0; i < nflags; i++)
		lint[n++] = flags[i];
	lint[n] = NULL;

	if (nsrc) {
		fflush(stdout);
		fflush(stderr);
		pid_t pid = fork();
		if (pid == 0) {
			dup2(2, 1);
			execv("/proc/self/exe", lint);
			execvp(argv[0], lint);
			fprintf(stderr, "smemlint: cannot run the linter: %s\n", strerror(errno));
			_exit(127);
		} else if (pid > 0) {
			int st;
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
		} else {
			fprintf(stderr, "smemlint: cannot start the linter: %s\n", strerror(errno));
		}
	}
	free(lint);
	free(flags);
	execvp(cc[0], cc);
	fprintf(stderr, "smemlint: cannot run compiler '%s': %s\n", cc[0], strerror(errno));
	return 127;
}

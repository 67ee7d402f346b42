/* embed.c - a program embedding smemlint, built by tests/test_install.py
 * against an installed tree only (its headers, its libraries, through
 * pkg-config or find_package): the session of smemlint/session.h over the
 * files named on the command line, its results written as JSON through
 * smemlint/emit.h. Exits with the session's status (0, 1 or 2). */
#include <stdio.h>

#include <smemlint/emit.h>
#include <smemlint/session.h>

int main(int argc, char **argv)
{
	char err[512];
	sm_session_process_init();
	struct sm_session *s = sm_session_new();
	if (!s) {
		fprintf(stderr, "embed: out of memory\n");
		return 2;
	}
	struct sm_session_options *o = sm_session_options(s);
	o->jobs = 2;
	o->no_cuda = true;  /* the bundled CUDA declarations: no toolkit needed */
	o->no_cache = true; /* write nothing under the user's cache directory */
	int status = 2;
	if (sm_session_prepare(s, err, sizeof err) != 0 ||
	    sm_session_run(s, (const char *const *)argv + 1, (size_t)(argc - 1), err, sizeof err) != 0) {
		fprintf(stderr, "embed: %s\n", err);
	} else {
		unsigned n = 0, nerr = 0;
		struct sm_result *const *res = sm_session_results(s, &n);
		struct sm_emit_options eo = {0};
		eo.errors = sm_session_errors(s, &nerr);
		eo.error_ids = sm_session_error_ids(s);
		eo.nerrors = nerr;
		if (sm_emit_json(stdout, res, n, &eo) != 0 || fflush(stdout) != 0)
			sm_session_fail(s);
		status = sm_session_exit_status(s);
	}
	sm_session_free(s);
	return status;
}

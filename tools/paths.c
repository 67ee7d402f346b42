/* paths.c - the command's file list on standard input ('-' among the
 * PATHs): read once, one path a line or one per NUL, each then what it
 * would be on the command line. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "cli.h"

/* Replace each "-" among the PATHs by the file list on standard input,
 * read once (a second "-" adds nothing): one path a line (a '\r' before
 * the '\n' is dropped, empty lines are skipped), or one per NUL when the
 * list holds a NUL (git ls-files -z, find -print0), so that any path can
 * be given. Each path is then what it would be on the command line; one
 * that starts with '-' is read as ./NAME (as it is written there).
 * Returns 0, or 1 with the status set (2) when the list cannot be read. */
int sm_cli_read_stdin_paths(struct cli *c)
{
	bool any = false, read_it = false;
	for (size_t i = 0; i < c->inputs.n; i++)
		any |= !strcmp(c->inputs.v[i], "-");
	if (!any)
		return 0;
	struct sm_paths all = { 0 };
	for (size_t i = 0; i < c->inputs.n; i++) {
		if (strcmp(c->inputs.v[i], "-")) {
			sm_paths_push(&all, c->inputs.v[i]);
			continue;
		}
		if (read_it)
			continue;
		read_it = true;
		char *buf;
		size_t len;
		int rc = sm_read_fd(0, SM_MAX_STDIN_LIST_BYTES, &buf, &len);
		if (rc) {
			if (rc == -2)
				fprintf(stderr, "smemlint: the file list on standard input is larger than %u bytes\n",
					SM_MAX_STDIN_LIST_BYTES);
			else
				fprintf(stderr, "smemlint: cannot read the file list from standard input: %s\n",
					strerror(errno));
			sm_paths_free(&all);
			c->status = 2;
			return 1;
		}
		char sep = memchr(buf, 0, len) ? '\0' : '\n';
		size_t before = all.n;
		for (size_t at = 0; at < len;) {
			char *p = buf + at, *end = memchr(p, sep, len - at);
			size_t n = end ? (size_t)(end - p) : len - at;
			at += n + 1;
			if (sep == '\n' && n && p[n - 1] == '\r')
				n--;
			p[n] = 0;
			if (n && p[0] == '-') {
				/* as it is written on the command line: clang
				 * would take "-x.cu" for one of its options */
				char *dot = malloc(n + 3);
				if (!dot) {
					fprintf(stderr, "smemlint: out of memory reading the file list\n");
					free(buf);
					sm_paths_free(&all);
					c->status = 2;
					return 1;
				}
				memcpy(dot, "./", 2);
				memcpy(dot + 2, p, n + 1);
				sm_paths_push(&all, dot);
				free(dot);
			} else if (n) {
				sm_paths_push(&all, p);
			}
		}
		free(buf);
		if (all.n == before)
			fprintf(stderr, "smemlint: warning: the file list on standard input is empty\n");
	}
	sm_paths_free(&c->inputs);
	c->inputs = all;
	return 0;
}


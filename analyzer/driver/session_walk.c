/* session_walk.c - which headers a directory walk analyzes on their own
 * (see session_impl.h).
 *
 * Models issue 27's rule "headers only through includers": a header found
 * by walking a directory (not one named on the command line) usually needs
 * the context of the file that includes it (its types, macros, templates),
 * so parsed alone it fails, and its kernels get no launch. So:
 *   - a walked header that some file of the run #includes, and whose code
 *     the header filter has converted with its includers (the default:
 *     headers under the current directory), is not an input of its own:
 *     its findings come through its includers, reported once at the header;
 *   - a walked header nobody includes (or one the filter leaves out) is
 *     parsed alone only if it defines a kernel (`__global__` in its text),
 *     and then "alone": its parse errors are one note, not an error;
 *   - any other walked header is dropped.
 * Includes are found in the text of every file of the run (`#include "x"`
 * and <x>), and a header is included when its path ends in /x (x with its
 * leading ./ and ../ removed): a file name match, which errs towards
 * "included" only for two headers of the same relative name.
 *
 * A walked `.cu` that another file of the run includes by a quoted name
 * resolved beside that file (`#include "needle_kernel.cu"`: a fragment,
 * as benchmark suites write kernels the including file's types and
 * constants complete) is a header in all but its name: nvcc never compiles
 * it alone, so it is analyzed only through its includers, under the same
 * filter. Here the name is resolved, not matched, since a tree holds many
 * `kernel.cu` files that are translation units of their own. */
#define _GNU_SOURCE
#include "driver/session_impl.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/limits.h"

static bool is_header(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	if (!dot || (slash && dot < slash))
		return false;
	static const char *const ext[] = { ".cuh", ".h", ".hpp", ".hh", ".hxx", ".inl" };
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (!strcmp(dot, ext[i]))
			return true;
	return false;
}

/* The text of path (a regular file of at most SM_MAX_FILE_BYTES), or NULL. */
static char *read_text(const char *path, size_t *len)
{
	struct stat st;
	int fd = sm_open_regular(path, &st);
	if (fd < 0)
		return NULL;
	char *buf = NULL;
	if (st.st_size > (off_t)SM_MAX_FILE_BYTES || sm_read_fd(fd, SM_MAX_FILE_BYTES, &buf, len) != 0)
		buf = NULL;
	close(fd);
	return buf;
}

static bool is_cu(const char *path)
{
	size_t n = strlen(path);
	return n > 3 && !strcmp(path + n - 3, ".cu");
}

/* A quoted include of a `.cu` named `name` (len bytes) from the file
 * `from`: its resolved path beside `from`, into frags. */
static void add_fragment(const char *from, const char *name, size_t len, struct sm_paths *frags)
{
	const char *slash = strrchr(from, '/');
	size_t dir = slash ? (size_t)(slash - from) + 1 : 0;
	char buf[PATH_MAX], real[PATH_MAX];
	if (dir + len >= sizeof(buf))
		return;
	memcpy(buf, from, dir);
	memcpy(buf + dir, name, len);
	buf[dir + len] = 0;
	if (is_cu(buf) && realpath(buf, real))
		sm_paths_push(frags, real);
}

/* Each `#include "x"` or <x> of text into names (x without leading ./ and
 * ../); a quoted `.cu` also into frags, resolved beside from. */
static void add_includes(const char *from, const char *text, size_t len, struct sm_paths *names,
			 struct sm_paths *frags)
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q = p, *stop = eol ? eol : end;
		while (q < stop && (*q == ' ' || *q == '\t'))
			q++;
		if (q < stop && *q == '#') {
			q++;
			while (q < stop && (*q == ' ' || *q == '\t'))
				q++;
			if (stop - q > 7 && !strncmp(q, "include", 7)) {
				q += 7;
				while (q < stop && (*q == ' ' || *q == '\t'))
					q++;
				char close = q < stop && *q == '"' ? '"' : q < stop && *q == '<' ? '>' : 0;
				const char *name = q + 1, *e = close ? memchr(name, close, (size_t)(stop - name)) : NULL;
				if (e && close == '"')
					add_fragment(from, name, (size_t)(e - name), frags);
				while (e && e - name >= 2 && name[0] == '.' && (name[1] == '/' || (name[1] == '.' && e - name >= 3 && name[2] == '/')))
					name += name[1] == '/' ? 2 : 3;
				if (e && e > name && e - name < PATH_MAX) {
					char buf[PATH_MAX];
					memcpy(buf, name, (size_t)(e - name));
					buf[e - name] = 0;
					sm_paths_push(names, buf);
				}
			}
		}
		p = eol ? eol + 1 : end;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Does path end in /name for a name in the sorted list? Tries each suffix
 * of path that starts after a '/'. */
static bool is_included(const char *path, const struct sm_paths *names)
{
	if (!names->n)
		return false;
	for (const char *s = path; s; s = strchr(s, '/')) {
		if (*s == '/')
			s++;
		const char *key = s;
		if (bsearch(&key, names->v, names->n, sizeof(char *), cmp_str))
			return true;
	}
	return false;
}

/* Does the header filter convert path's code with its includers? */
static bool filter_covers(const struct sm_session *s, const char *path)
{
	const regex_t *re = s->o.analysis.fe.header_filter;
	char real[PATH_MAX];
	return re && realpath(path, real) && regexec(re, real, 0, NULL, 0) == 0;
}

static bool defines_kernel(const char *text, size_t len)
{
	static const char kw[] = "__global__";
	return memmem(text, len, kw, sizeof(kw) - 1) != NULL;
}

void sm_session_plan_headers(const struct sm_session *s, struct sm_paths *all, bool *walked, bool *alone)
{
	bool any = false;
	for (size_t i = 0; i < all->n; i++)
		any |= walked[i];
	if (!any)
		return;
	struct sm_paths names = { 0 }, frags = { 0 };
	for (size_t i = 0; i < all->n; i++) {
		size_t len;
		char *text = read_text(all->v[i], &len);
		if (text)
			add_includes(all->v[i], text, len, &names, &frags);
		free(text);
	}
	if (names.n > 1)
		qsort(names.v, names.n, sizeof(char *), cmp_str);
	if (frags.n > 1)
		qsort(frags.v, frags.n, sizeof(char *), cmp_str);
	size_t kept = 0;
	for (size_t i = 0; i < all->n; i++) {
		bool keep = true, lone = false;
		if (walked[i] && is_cu(all->v[i]) && frags.n) {
			char real[PATH_MAX];
			const char *key = real;
			keep = !(realpath(all->v[i], real) && bsearch(&key, frags.v, frags.n, sizeof(char *), cmp_str) &&
				 filter_covers(s, all->v[i]));
		} else if (walked[i] && is_header(all->v[i])) {
			if (is_included(all->v[i], &names) && filter_covers(s, all->v[i])) {
				keep = false;
			} else {
				size_t len;
				char *text = read_text(all->v[i], &len);
				keep = !text || defines_kernel(text, len); /* unreadable: reported by the analysis */
				lone = true;
				free(text);
			}
		}
		if (!keep) {
			free(all->v[i]);
			continue;
		}
		all->v[kept] = all->v[i];
		walked[kept] = walked[i];
		alone[kept] = lone;
		kept++;
	}
	all->n = kept;
	sm_paths_free(&names);
	sm_paths_free(&frags);
}

/* compdb.c - the one translator of compile commands, and
 * compile_commands.json (see compdb.h). */
#define _GNU_SOURCE
#include "front/compdb.h"

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"

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
	char buf[32] = "sm_";
	size_t k = 3;
	while (*d && ((*d >= '0' && *d <= '9') || (*d >= 'a' && *d <= 'z')) && k < sizeof(buf) - 1)
		buf[k++] = *d++;
	buf[k] = 0;
	if (k == 3)
		return 0;
	snprintf(out, n, "%s", buf);
	return 1;
}

/* nvcc/clang options whose value is the next argument (dropped with it). */
static bool takes_value(const char *a)
{
	static const char *const v[] = { "-o", "-x", "-MF", "-MT", "-MQ", "-Xcompiler", "-Xlinker", "-Xptxas",
					  "-Xnvlink", "-Xarchive", "-ccbin", "--compiler-bindir", "-odir",
					  "--output-directory", "--options-file", "-optf", "-rdc", "-code",
					  "--gpu-code", "-maxrregcount", "-t", "--threads", "-ldir", "-l", "-L",
					  "--dependency-output", NULL };
	for (int i = 0; v[i]; i++)
		if (!strcmp(a, v[i]))
			return true;
	return false;
}

static bool is_cuda_source(const char *a)
{
	size_t n = strlen(a);
	return n > 3 && !strcmp(a + n - 3, ".cu");
}

static int push(char ***v, int *n, int *cap, const char *s)
{
	char *c = strdup(s);
	if (!c || SM_ALLOC_GROW(*v, *n + 1, *cap)) {
		free(c);
		return -1;
	}
	(*v)[(*n)++] = c;
	return 0;
}

static int flag(struct sm_compile_flags *f, const char *s)
{
	return push(&f->flags, &f->nflags, &f->cap_flags, s);
}

/* prefix + path, with a relative path made absolute against dir */
static int path_flag(struct sm_compile_flags *f, const char *prefix, const char *path, const char *dir)
{
	char buf[PATH_MAX * 2];
	if (path[0] != '/' && dir)
		snprintf(buf, sizeof(buf), "%s%s/%s", prefix, dir, path);
	else
		snprintf(buf, sizeof(buf), "%s%s", prefix, path);
	return flag(f, buf);
}

static bool has_prefix_in(const char *a, const char *const *prefixes)
{
	for (int i = 0; prefixes[i]; i++)
		if (!strncmp(a, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static bool is(const char *a, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (!strcmp(a, names[i]))
			return true;
	return false;
}

int sm_compile_flags_translate(const char *const *argv, int argc, const char *dir, struct sm_compile_flags *out)
{
	static const char *const path_opts[] = { "-I", "-isystem", "-include", "--include-path", NULL };
	static const char *const macro_opts[] = { "-D", "-U", "--define-macro", NULL };
	static const char *const std_opts[] = { "-std", "--std", NULL };
	static const char *const arch_opts[] = { "-arch", "--gpu-architecture", "-gencode", "--generate-code", NULL };
	static const char *const arch_eq[] = { "-arch=", "--gpu-architecture=", "-gencode=", "--generate-code=",
					       "--cuda-gpu-arch=", NULL };
	memset(out, 0, sizeof(*out));
	int rc = 0;
	for (int i = 1; i < argc && rc == 0; i++) {
		const char *a = argv[i];
		bool has_next = i + 1 < argc;
		if (is(a, path_opts) && has_next) {
			const char *val = argv[++i];
			const char *name = !strcmp(a, "--include-path") ? "-I" : a;
			rc = flag(out, name) || path_flag(out, "", val, dir);
		} else if (is(a, macro_opts) && has_next) {
			rc = flag(out, !strcmp(a, "--define-macro") ? "-D" : a) || flag(out, argv[++i]);
		} else if (!strncmp(a, "-isystem", 8)) {
			rc = path_flag(out, "-isystem", a + 8, dir);
		} else if (!strncmp(a, "-I", 2)) {
			rc = path_flag(out, "-I", a + 2, dir);
		} else if (!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) || !strncmp(a, "-std=", 5)) {
			rc = flag(out, a);
		} else if (is(a, std_opts) && has_next) {
			char buf[64];
			snprintf(buf, sizeof(buf), "-std=%s", argv[++i]);
			rc = flag(out, buf);
		} else if (is(a, arch_opts) && has_next) {
			sm_arch_of(argv[++i], out->arch, sizeof(out->arch));
		} else if (has_prefix_in(a, arch_eq)) {
			sm_arch_of(strchr(a, '=') + 1, out->arch, sizeof(out->arch));
		} else if (takes_value(a) && has_next) {
			i++;
		} else if (a[0] != '-' && is_cuda_source(a)) {
			rc = push(&out->sources, &out->nsources, &out->cap_sources, a);
		}
	}
	return rc ? -1 : 0;
}

void sm_compile_flags_free(struct sm_compile_flags *f)
{
	for (int i = 0; i < f->nflags; i++)
		free(f->flags[i]);
	for (int i = 0; i < f->nsources; i++)
		free(f->sources[i]);
	free(f->flags);
	free(f->sources);
	memset(f, 0, sizeof(*f));
}

/* Shell-like split of a "command" string: whitespace, single and double
 * quotes, backslash. Returns the count (argv malloc'd), or -1. */
static int split_command(const char *cmd, char ***out)
{
	char **v = NULL;
	int n = 0, cap = 0;
	size_t len = strlen(cmd);
	char *buf = malloc(len + 1);
	if (!buf)
		return -1;
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
		if (push(&v, &n, &cap, buf))
			break;
	}
	free(buf);
	*out = v;
	return n;
}

static void free_argv(char **v, int n)
{
	for (int k = 0; v && k < n; k++)
		free(v[k]);
	free(v);
}

int sm_compdb_load(const char *dir, struct sm_compdb *db, char *err, size_t errlen)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/compile_commands.json", dir);
	memset(db, 0, sizeof(*db));
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
		struct sm_compdb_entry *e = &db->e[db->n];
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
			sm_compile_flags_translate((const char *const *)argv, argc, wd, &e->cf);
		free_argv(argv, argc);
		db->n++;
	}
	json_decref(root);
	return 0;
}

const struct sm_compdb_entry *sm_compdb_find(const struct sm_compdb *db, const char *file)
{
	char real[PATH_MAX];
	if (!db || !realpath(file, real))
		return NULL;
	for (size_t i = 0; i < db->n; i++)
		if (!strcmp(db->e[i].file, real))
			return &db->e[i];
	return NULL;
}

void sm_compdb_free(struct sm_compdb *db)
{
	for (size_t i = 0; i < db->n; i++) {
		free(db->e[i].file);
		sm_compile_flags_free(&db->e[i].cf);
	}
	free(db->e);
	memset(db, 0, sizeof(*db));
}

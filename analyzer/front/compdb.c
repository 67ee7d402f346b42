/* compdb.c - the one translator of compile commands, and
 * compile_commands.json (see compdb.h). */
#define _GNU_SOURCE
#include "front/compdb.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/grow.h"
#include "base/limits.h"

#define SM_STR_(x) #x
#define SM_STR(x) SM_STR_(x)

/* The number of an architecture name at s ("90a" -> 90), and its suffix
 * compared after it; -1 when s does not start with digits. */
static int arch_number(const char *s)
{
	if (*s < '0' || *s > '9')
		return -1;
	return atoi(s);
}

/* The architectures a command line names, as its flags are read. */
struct arch_tally {
	char *lowest;    /* "sm_NN", the lowest named so far ("" none) */
	size_t lowest_n; /* the size of lowest's buffer */
	int *count;      /* how many distinct ones (counted only with seen) */
	char *seen;      /* " sm_a sm_b ": the distinct ones, or NULL */
	size_t seen_n;   /* the size of seen's buffer */
};

/* Note "sm_NN" (from "sm_NN" or "compute_NN": digits points after the
 * prefix) in t, and keep it as t->lowest when it is lower than what that
 * holds (numbers, then the name: sm_90 before sm_90a). */
static void keep_lowest(const char *digits, struct arch_tally *t)
{
	char buf[32] = "sm_";
	size_t k = 3;
	while (*digits && ((*digits >= '0' && *digits <= '9') || (*digits >= 'a' && *digits <= 'z')) && k < sizeof(buf) - 1)
		buf[k++] = *digits++;
	buf[k] = 0;
	if (k == 3 || arch_number(buf + 3) < 0)
		return;
	/* distinct ones, space separated, for the count */
	char probe[40];
	snprintf(probe, sizeof(probe), " %s ", buf);
	if (t->seen && !strstr(t->seen, probe)) {
		size_t l = strlen(t->seen);
		if (l + strlen(buf) + 2 < t->seen_n)
			snprintf(t->seen + (l ? l - 1 : 0), t->seen_n - (l ? l - 1 : 0), " %s ", buf);
		(*t->count)++;
	}
	int have = t->lowest[0] ? arch_number(t->lowest + 3) : -1;
	int now = arch_number(buf + 3);
	if (have < 0 || now < have || (now == have && strcmp(buf, t->lowest) < 0))
		snprintf(t->lowest, t->lowest_n, "%s", buf);
}

/* Every architecture an nvcc/clang flag value names: the real ones
 * (sm_NN, code=sm_NN, code=[compute_NN,sm_NN]); the virtual ones
 * (compute_NN) only when it names no real one. */
static int archs_of(const char *s, struct arch_tally *t)
{
	int found = 0;
	for (const char *a = strstr(s, "sm_"); a; a = strstr(a + 3, "sm_")) {
		keep_lowest(a + 3, t);
		found = 1;
	}
	for (const char *a = strstr(s, "compute_"); !found && a; a = strstr(a + 8, "compute_")) {
		keep_lowest(a + 8, t);
		found = 1;
	}
	return found;
}

int sm_arch_of(const char *s, char *out, size_t n)
{
	char lowest[32] = "";
	int count = 0;
	struct arch_tally t = { lowest, sizeof(lowest), &count, NULL, 0 };
	if (!archs_of(s, &t))
		return 0;
	snprintf(out, n, "%s", lowest);
	return 1;
}

/* nvcc/clang options whose value is the next argument (dropped with it). */
static bool takes_value(const char *a)
{
	static const char *const v[] = { "-o", "-x", "-MF", "-MT", "-MQ", "-Xcompiler", "-Xlinker", "-Xptxas",
					  "-Xnvlink", "-Xarchive", "-ccbin", "--compiler-bindir", "-odir",
					  "--output-directory", "-code",
					  "--gpu-code", "-maxrregcount", "-t", "--threads", "-ldir", "-l", "-L",
					  "--dependency-output", "--compiler-options", "--linker-options", "-Xcudafe",
					  "--keep-dir", "-keep-dir", "--archive-options", "--ptxas-options",
					  "--nvlink-options", "--relocatable-device-code", "-arch-ls", NULL };
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

/* A C or C++ source by its name: compiled as CUDA after -x cu (CMake
 * writes that for a .cpp whose LANGUAGE is CUDA). */
static bool is_c_source(const char *a)
{
	static const char *const ext[] = { ".c", ".cc", ".cp", ".cpp", ".cxx", ".c++", ".C", ".CPP", NULL };
	const char *dot = strrchr(a, '.'), *slash = strrchr(a, '/');
	if (!dot || dot == a || (slash && dot < slash + 2))
		return false;
	for (int i = 0; ext[i]; i++)
		if (!strcmp(dot, ext[i]))
			return true;
	return false;
}

/* The language an -x option names, when argv[*i] is one (-x L, --x L,
 * -x=L, --x=L, -xL): 1 CUDA (nvcc's cu, clang's cuda), 0 another one; -1
 * when argv[*i] is no -x (then *i is unchanged). */
static int x_language(char **v, int n, int *i)
{
	const char *a = v[*i], *lang = NULL;
	if ((!strcmp(a, "-x") || !strcmp(a, "--x")) && *i + 1 < n)
		lang = v[++*i];
	else if (!strncmp(a, "-x=", 3) || !strncmp(a, "--x=", 4))
		lang = strchr(a, '=') + 1;
	else if (!strncmp(a, "-x", 2) && a[2] && a[2] != '-')
		lang = a + 2;
	else
		return -1;
	return !strcmp(lang, "cu") || !strcmp(lang, "cuda");
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

/* ---- response files ---- */

static int split_command(const char *cmd, char ***out);
static void free_argv(char **v, int n);

struct flat {
	char **v;
	int n, cap;
};

static void note_problem(struct sm_compile_flags *out, const char *fmt, const char *a, const char *b)
{
	if (out->problem)
		return; /* the first one explains the rest */
	char buf[PATH_MAX * 2 + 256];
	snprintf(buf, sizeof(buf), fmt, a, b);
	out->problem = strdup(buf);
}

/* The response file an argument names, with *skip = 1 when its name is
 * the next argument: --options-file F, --options-file=F, -optf F,
 * -optf=F, @F. NULL when a is none. */
static const char *rsp_name(const char *a, const char *next, int *skip)
{
	*skip = 0;
	if (a[0] == '@' && a[1])
		return a + 1;
	static const char *const opts[] = { "--options-file", "-optf", NULL };
	for (int k = 0; opts[k]; k++) {
		size_t l = strlen(opts[k]);
		if (strncmp(a, opts[k], l))
			continue;
		if (a[l] == '=')
			return a + l + 1;
		if (!a[l] && next) {
			*skip = 1;
			return next;
		}
	}
	return NULL;
}

/* Flattening a command line's response files. */
struct expansion {
	const char *dir;              /* response files are read relative to it */
	struct flat *f;               /* the arguments so far */
	struct sm_compile_flags *out; /* notes a response file that cannot be read */
};

/* argv[from..argc) into x->f, response files replaced by their arguments
 * (read relative to x->dir, as the compiler in dir would); depth: the
 * response files being read. */
static int expand(struct expansion *x, const char *const *argv, int argc, int from, int depth)
{
	const char *dir = x->dir;
	struct flat *f = x->f;
	struct sm_compile_flags *out = x->out;
	for (int i = from; i < argc; i++) {
		int skip;
		const char *name = rsp_name(argv[i], i + 1 < argc ? argv[i + 1] : NULL, &skip);
		if (!name) {
			if (push(&f->v, &f->n, &f->cap, argv[i]))
				return -1;
			continue;
		}
		i += skip;
		char path[PATH_MAX * 2];
		if (name[0] != '/' && dir)
			snprintf(path, sizeof(path), "%s/%s", dir, name);
		else
			snprintf(path, sizeof(path), "%s", name);
		if (depth >= SM_MAX_RSP_DEPTH) {
			note_problem(out, "response file '%s' is nested deeper than %s files; its flags are missing", path,
				     SM_STR(SM_MAX_RSP_DEPTH));
			continue;
		}
		/* a regular file only (a FIFO would block the run, or the
		 * build under --launcher), at most SM_MAX_RSP_BYTES */
		char *text, why[PATH_MAX * 2 + 128];
		size_t len;
		int rc = sm_read_regular(path, SM_MAX_RSP_BYTES, "1 MiB", &text, &len, why, sizeof(why));
		if (rc == 0 && memchr(text, 0, len)) {
			free(text);
			rc = -1;
			snprintf(why, sizeof(why), "cannot read response file '%s': it is binary", path);
		}
		if (rc != 0) {
			/* why names the file: "cannot read 'x': it is a FIFO, ..." */
			note_problem(out, "%.1200s%s; its flags are missing", why, "");
			continue;
		}
		text[len] = 0;
		char **sub = NULL;
		int nsub = split_command(text, &sub);
		free(text);
		if (nsub < 0)
			return -1;
		rc = expand(x, (const char *const *)sub, nsub, 0, depth + 1);
		free_argv(sub, nsub);
		if (rc)
			return -1;
	}
	return 0;
}

static bool is_true(const char *v)
{
	return !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes");
}

int sm_compile_flags_translate(const char *const *argv, int argc, const char *dir, struct sm_compile_flags *out)
{
	static const char *const path_opts[] = { "-I", "-isystem", "-include", "--include-path", "--system-include",
						  "--pre-include", NULL };
	static const char *const macro_opts[] = { "-D", "-U", "--define-macro", "--undefine-macro", NULL };
	static const char *const std_opts[] = { "-std", "--std", NULL };
	static const char *const arch_opts[] = { "-arch", "--gpu-architecture", "-gencode", "--generate-code",
						  "--gpu-code", "-code", NULL };
	static const char *const arch_eq[] = { "-arch=", "--gpu-architecture=", "-gencode=", "--generate-code=",
					       "--cuda-gpu-arch=", "--gpu-code=", "-code=", "--offload-arch=", NULL };
	memset(out, 0, sizeof(*out));
	struct flat f = { 0 };
	struct expansion x = { dir, &f, out };
	if (argc > 0 && expand(&x, argv, argc, 1, 0)) {
		free_argv(f.v, f.n);
		return -1;
	}
	char seen[sizeof(out->archs)] = "";
	struct arch_tally archs = { out->arch, sizeof(out->arch), &out->narchs, seen, sizeof(seen) };
	int rc = 0, lang;
	int rdc = -1;                     /* -rdc: 1 on, 0 off, -1 not said */
	bool x_cuda = false;              /* an -x cu before the sources */
	for (int i = 0; i < f.n && rc == 0; i++) {
		const char *a = f.v[i];
		bool has_next = i + 1 < f.n;
		if ((lang = x_language(f.v, f.n, &i)) >= 0) {
			x_cuda = lang == 1;
		} else if (is(a, path_opts) && has_next) {
			const char *val = f.v[++i];
			const char *name = !strcmp(a, "--include-path") ? "-I"
					   : !strcmp(a, "--system-include") ? "-isystem"
					   : !strcmp(a, "--pre-include") ? "-include" : a;
			rc = flag(out, name) || path_flag(out, "", val, dir);
		} else if (is(a, macro_opts) && has_next) {
			rc = flag(out, !strcmp(a, "--define-macro") ? "-D" : !strcmp(a, "--undefine-macro") ? "-U" : a) ||
			     flag(out, f.v[++i]);
		} else if (!strncmp(a, "--include-path=", 15)) {
			rc = path_flag(out, "-I", a + 15, dir);
		} else if (!strncmp(a, "--system-include=", 17)) {
			rc = flag(out, "-isystem") || path_flag(out, "", a + 17, dir);
		} else if (!strncmp(a, "--define-macro=", 15)) {
			char buf[PATH_MAX];
			snprintf(buf, sizeof(buf), "-D%s", a + 15);
			rc = flag(out, buf);
		} else if (!strncmp(a, "-isystem", 8)) {
			rc = path_flag(out, "-isystem", a + 8, dir);
		} else if (!strncmp(a, "-I", 2)) {
			rc = path_flag(out, "-I", a + 2, dir);
		} else if (!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) || !strncmp(a, "-std=", 5)) {
			rc = flag(out, a);
		} else if (!strncmp(a, "--std=", 6)) {
			rc = flag(out, a + 1);
		} else if (is(a, std_opts) && has_next) {
			char buf[64];
			snprintf(buf, sizeof(buf), "-std=%s", f.v[++i]);
			rc = flag(out, buf);
		} else if (is(a, arch_opts) && has_next) {
			archs_of(f.v[++i], &archs);
		} else if (has_prefix_in(a, arch_eq)) {
			archs_of(strchr(a, '=') + 1, &archs);
		} else if (!strcmp(a, "-rdc") || !strcmp(a, "--relocatable-device-code")) {
			if (has_next)
				rdc = is_true(f.v[++i]);
		} else if (!strncmp(a, "-rdc=", 5) || !strncmp(a, "--relocatable-device-code=", 26)) {
			rdc = is_true(strchr(a, '=') + 1);
		} else if (!strcmp(a, "-dc") || !strcmp(a, "--device-c") || !strcmp(a, "-fgpu-rdc")) {
			rdc = true;
		} else if (!strcmp(a, "-fno-gpu-rdc")) {
			rdc = false;
		} else if (takes_value(a) && has_next) {
			i++;
		} else if (a[0] != '-' && (is_cuda_source(a) || (x_cuda && is_c_source(a)))) {
			rc = push(&out->sources, &out->nsources, &out->cap_sources, a);
			out->as_cuda |= x_cuda;
		}
	}
	/* relocatable device code: extern __device__ declarations and device
	 * calls across files (dynamic parallelism) parse only with it; the
	 * front end assumes it (frontend.c) unless the command turns it off */
	if (rc == 0 && rdc >= 0)
		rc = flag(out, rdc ? "-fgpu-rdc" : "-fno-gpu-rdc");
	snprintf(out->archs, sizeof(out->archs), "%s", seen[0] == ' ' ? seen + 1 : seen);
	size_t l = strlen(out->archs);
	if (l && out->archs[l - 1] == ' ')
		out->archs[l - 1] = 0;
	free_argv(f.v, f.n);
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
	free(f->problem);
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
	/* a regular file only (a FIFO would block), at most
	 * SM_MAX_COMPDB_BYTES */
	char *text;
	size_t len;
	if (sm_read_regular(path, SM_MAX_COMPDB_BYTES, "1 GiB", &text, &len, err, errlen))
		return -1;
	json_error_t je;
	json_t *root = json_loadb(text, len, 0, &je);
	free(text);
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

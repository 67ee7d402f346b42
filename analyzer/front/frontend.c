/* frontend.c - libclang to IR: the entry points of frontend.h.
 *
 * It parses one file (its contents handed in as an unsaved file, so that
 * what is analyzed is exactly what was read) with the flags of
 * sm_frontend_args, hands the translation unit to the conversion of
 * convert.h (cv_convert_tu), which walks the kernels, device functions and
 * host launch sites of the main file into the structured IR of ir.h, and
 * disposes of the translation unit before returning. A precompiled header
 * that clang refuses is dropped and the file parsed again without it.
 * sm_frontend_build_pch makes those headers for the cache (pch_cache.c).
 *
 * Only front/ includes clang-c. Cursors never leave it: every node is
 * copied into the arena at the boundary.
 */
#define _GNU_SOURCE
#include "front/frontend.h"
#include "front/convert.h"
#include "front/source_dialect.h"
#include "base/arch.h"

#include <clang-c/Index.h>

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sm_frontend {
	CXIndex index;
	int pch_rejected;  /* the last parse could not use its opt->pch */
};

struct sm_frontend *sm_frontend_new(void)
{
	struct sm_frontend *fe = calloc(1, sizeof(*fe));
	if (!fe)
		return NULL;
	/* 1: declarations that come from a precompiled header are not
	 * visited (they are never in the main file anyway) */
	fe->index = clang_createIndex(1, 0);
	return fe;
}

void sm_frontend_free(struct sm_frontend *fe)
{
	if (!fe)
		return;
	clang_disposeIndex(fe->index);
	free(fe);
}

/* Toolkit headers that code includes by name; without a toolkit each is an
 * empty file in a virtual directory (everything is in the forced stub). */
#define SM_CUDA_STUB_DIR "/<smemlint>/include"
#define SM_NSTUB_INCLUDES 18
static const struct {
	const char *path;
} sm_stub_includes[SM_NSTUB_INCLUDES] = {
	{ SM_CUDA_STUB_DIR "/cuda_runtime.h" },      { SM_CUDA_STUB_DIR "/cuda_runtime_api.h" },
	{ SM_CUDA_STUB_DIR "/cuda.h" },              { SM_CUDA_STUB_DIR "/cuda_fp16.h" },
	{ SM_CUDA_STUB_DIR "/cuda_bf16.h" },         { SM_CUDA_STUB_DIR "/cooperative_groups.h" },
	{ SM_CUDA_STUB_DIR "/device_launch_parameters.h" }, { SM_CUDA_STUB_DIR "/math_constants.h" },
	{ SM_CUDA_STUB_DIR "/device_functions.h" },  { SM_CUDA_STUB_DIR "/vector_types.h" },
	{ SM_CUDA_STUB_DIR "/cuda_fp16.hpp" },       { SM_CUDA_STUB_DIR "/driver_types.h" },
	{ SM_CUDA_STUB_DIR "/cooperative_groups/reduce.h" }, { SM_CUDA_STUB_DIR "/cooperative_groups/scan.h" },
	{ SM_CUDA_STUB_DIR "/cuda_pipeline.h" },     { SM_CUDA_STUB_DIR "/cuda_pipeline_primitives.h" },
	{ SM_CUDA_STUB_DIR "/mma.h" },               { SM_CUDA_STUB_DIR "/cuda_bf16.hpp" },
};
static const char sm_stub_include_text[] = "#pragma once\n/* provided by smemlint_cuda.h */\n";

/* The two headers smemlint forces into a parse (the bundled stub without
 * a toolkit, the compat declarations with one), as unsaved files u[0..2). */
static void set_forced_headers(struct CXUnsavedFile *u)
{
	u[0].Filename = SM_CUDA_STUB_PATH;
	u[0].Contents = sm_cuda_stub_header;
	u[0].Length = (unsigned long)strlen(sm_cuda_stub_header);
	u[1].Filename = SM_CUDA_COMPAT_PATH;
	u[1].Contents = sm_cuda_compat_header;
	u[1].Length = (unsigned long)strlen(sm_cuda_compat_header);
}

const char *sm_frontend_resource_dir(char *buf, size_t n)
{
	Dl_info info;
	char lib[PATH_MAX];
	if (!dladdr((void *)clang_getClangVersion, &info) || !info.dli_fname || !realpath(info.dli_fname, lib))
		return NULL;
	char *slash = strrchr(lib, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	/* the major version from "... clang version 22.1.8 ..." */
	CXString v = clang_getClangVersion();
	const char *vs = clang_getCString(v);
	const char *at = vs ? strstr(vs, "version ") : NULL;
	int major = at ? atoi(at + 8) : 0;
	clang_disposeString(v);
	if (major <= 0)
		return NULL;
	/* <libdir>/clang/N (LLVM's own layout), <libdir>/../lib/clang/N, and
	 * Debian's, where the loaded copy is /usr/lib/<triple>/libclang-N.so
	 * and the headers are under /usr/lib/llvm-N/lib/clang/N */
	static const char *const rel[] = { "%s/clang/%d", "%s/../lib/clang/%d", "%s/../llvm-%d/lib/clang/%d" };
	for (unsigned k = 0; k < sizeof(rel) / sizeof(rel[0]); k++) {
		char dir[PATH_MAX + 64], probe[PATH_MAX + 128], real[PATH_MAX];
		if (k < 2)
			snprintf(dir, sizeof(dir), rel[k], lib, major);
		else
			snprintf(dir, sizeof(dir), rel[k], lib, major, major);
		snprintf(probe, sizeof(probe), "%s/include/cuda_wrappers", dir);
		if (access(probe, R_OK) == 0 && realpath(dir, real) && snprintf(buf, n, "%s", real) < (int)n)
			return buf;
	}
	return NULL;
}

const char *sm_frontend_host_include(char *buf, size_t n)
{
	glob_t g;
	const char *found = NULL;
	if (glob("/usr/lib/gcc/*/*/include/omp.h", 0, NULL, &g) != 0)
		return NULL;
	long best = -1;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		/* .../<triple>/<version>/include/omp.h: the highest major version */
		const char *p = g.gl_pathv[i], *inc = strstr(p, "/include/omp.h"), *v = inc;
		while (v > p && v[-1] != '/')
			v--;
		long major = strtol(v, NULL, 10);
		if (inc && major > best && (size_t)(inc - p) + 8 < n) {
			best = major;
			snprintf(buf, n, "%.*s/include", (int)(inc - p), p);
			found = buf;
		}
	}
	globfree(&g);
	return found;
}

/* smemlint's own flags before the user's: at most this many */
#define SM_OWN_ARGS 28

const char **sm_frontend_args(const struct sm_frontend_options *opt, int *argc, struct sm_arena *A)
{
	int n = 0, nuser = opt->nargs > 0 ? opt->nargs : 0;
	/* sized for every flag: no flag is ever dropped */
	const char **argv = sm_arena_alloc(A, ((size_t)nuser + SM_OWN_ARGS + 1) * sizeof(*argv));
	*argc = 0;
	if (!argv)
		return NULL;
#define ADD(s) do { argv[n++] = (s); } while (0)
	ADD("-x");
	ADD("cuda");
	ADD("--cuda-device-only");
	ADD(sm_arena_printf(A, "--cuda-gpu-arch=%s", opt->gpu_arch ? opt->gpu_arch : SM_DEFAULT_ARCH));
	ADD("-nocudalib");
	ADD("-Wno-unknown-cuda-version");
	ADD("-Xclang");
	ADD("-target-sdk-version=12.9");
	ADD("-std=c++17");
	ADD("-w");
	/* errors by default in clang, warnings in nvcc (doc/trees.md "Code
	 * nvcc accepts"): `register` under C++17, and a narrowing conversion
	 * inside braces ({n * 1.5f} into an int) */
	ADD("-Wno-register");
	ADD("-Wno-c++11-narrowing");
	/* clang stops parsing after 20 errors by default, and the errors of
	 * code nvcc accepts (front/nvcc_dialect.c) count: a file with many
	 * `__shared__ cuda::barrier` would lose its later kernels */
	ADD(sm_arena_printf(A, "-ferror-limit=%d", SM_FE_ERROR_LIMIT));
	/* kernels that launch kernels (dynamic parallelism) parse, as under
	 * nvcc -rdc=true, which every project using them builds with */
	ADD("-fgpu-rdc");
	if (opt->resource_dir)
		ADD(sm_arena_printf(A, "-resource-dir=%s", opt->resource_dir));
	if (opt->cuda_path) {
		ADD(sm_arena_printf(A, "--cuda-path=%s", opt->cuda_path));
		/* CUDA 13 keeps libcu++ (cuda/std/...), CUB and Thrust under
		 * include/cccl, which nvcc adds by itself and clang does not */
		const char *cccl = sm_arena_printf(A, "%s/include/cccl", opt->cuda_path);
		if (cccl && access(cccl, R_OK) == 0) {
			ADD("-isystem");
			ADD(cccl);
		}
		ADD("-include");
		ADD(SM_CUDA_COMPAT_PATH);
		/* cooperative_groups declares cluster_group and this_cluster()
		 * only under nvcc or with this defined; clang has the cluster
		 * intrinsics they call (sm_90) */
		ADD("-D_CG_CLUSTER_INTRINSICS_AVAILABLE");
	} else {
		ADD("-nocudainc");
		ADD("-include");
		ADD(SM_CUDA_STUB_PATH);
		ADD("-isystem");
		ADD(SM_CUDA_STUB_DIR);
	}
	if (opt->pch) {
		ADD("-include-pch");
		ADD(opt->pch);
	}
	if (opt->host_include) {
		ADD("-idirafter");
		ADD(opt->host_include);
	}
	_Static_assert(SM_OWN_ARGS >= 25, "room for smemlint's own flags");
	for (int i = 0; i < nuser; i++)
		ADD(opt->args[i]);
#undef ADD
	for (int i = 0; i < n; i++)
		if (!argv[i])
			return NULL; /* the arena ran out in sm_arena_printf */
	*argc = n;
	return argv;
}

/* Did loading the precompiled header fail? Any error that names it or
 * precompiled headers / AST files (stale input files, a corrupt or foreign
 * file, mismatched macros) counts. */
static int pch_problem(CXTranslationUnit tu, const char *pch)
{
	unsigned n = clang_getNumDiagnostics(tu);
	int bad = 0;
	for (unsigned i = 0; i < n && !bad; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			CXString s = clang_getDiagnosticSpelling(d);
			const char *m = clang_getCString(s);
			if (m && (strstr(m, pch) || strstr(m, "precompiled") || strstr(m, "AST file") || strstr(m, "PCH")))
				bad = 1;
			clang_disposeString(s);
		}
		clang_disposeDiagnostic(d);
	}
	return bad;
}

int sm_frontend_pch_rejected(const struct sm_frontend *fe)
{
	return fe ? fe->pch_rejected : 0;
}

/* clang_getInclusions visitor: one absolute file name a line */
static void list_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
	(void)stack;
	(void)depth;
	CXString n = clang_getFileName(f);
	const char *s = clang_getCString(n);
	if (s && s[0] == '/' && strncmp(s, "/<smemlint>", 11) != 0)
		fprintf((FILE *)data, "%s\n", s);
	clang_disposeString(n);
}

/* Write the headers tu includes to `path`: 0, or -1 */
static int write_inclusions(CXTranslationUnit tu, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	clang_getInclusions(tu, list_inclusion, f);
	int bad = ferror(f);
	return (fclose(f) != 0 || bad) ? -1 : 0;
}

int sm_frontend_build_pch(struct sm_frontend *fe, const struct sm_frontend_options *opt, const char *out,
			  const char *deps, char *err, size_t errlen)
{
	struct sm_arena A;
	sm_arena_init(&A, 0);
	struct sm_frontend_options o = *opt;
	o.pch = NULL;
	int argc;
	const char **argv = sm_frontend_args(&o, &argc, &A);
	if (!argv) {
		snprintf(err, errlen, "out of memory precompiling the CUDA headers");
		sm_arena_release(&A);
		return -1;
	}
	static const char main_name[] = "/<smemlint>/smemlint_pch.cu";
	struct CXUnsavedFile unsaved[3];
	unsaved[0].Filename = main_name;
	unsaved[0].Contents = "";
	unsaved[0].Length = 0;
	set_forced_headers(unsaved + 1);
	CXTranslationUnit tu = NULL;
	unsigned flags = CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization;
	enum CXErrorCode e = clang_parseTranslationUnit2(fe->index, main_name, argv, argc, unsaved, 3u, flags, &tu);
	int rc = -1;
	if (e != CXError_Success || !tu) {
		snprintf(err, errlen, "cannot precompile the CUDA headers (libclang error %d)", (int)e);
	} else {
		unsigned n = clang_getNumDiagnostics(tu);
		int errors = 0;
		for (unsigned i = 0; i < n; i++) {
			CXDiagnostic d = clang_getDiagnostic(tu, i);
			if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error)
				errors++;
			clang_disposeDiagnostic(d);
		}
		if (errors)
			snprintf(err, errlen, "cannot precompile the CUDA headers: %d errors", errors);
		else if (deps && write_inclusions(tu, deps) != 0)
			snprintf(err, errlen, "cannot write '%s': %s", deps, strerror(errno));
		else if (clang_saveTranslationUnit(tu, out, clang_defaultSaveOptions(tu)) != CXSaveError_None)
			snprintf(err, errlen, "cannot write '%s'", out);
		else
			rc = 0;
		clang_disposeTranslationUnit(tu);
	}
	sm_arena_release(&A);
	return rc;
}

const char *sm_frontend_clang_version(struct sm_arena *A)
{
	CXString s = clang_getClangVersion();
	const char *v = sm_arena_strdup(A, clang_getCString(s));
	clang_disposeString(s);
	return v;
}

struct sm_file *sm_frontend_parse(struct sm_frontend *fe, const char *path, const char *text, size_t len,
				  const struct sm_frontend_options *opt, struct sm_arena *A)
{
	return sm_frontend_parse_streamed(fe, path, text, len, opt, A, NULL);
}

struct sm_file *sm_frontend_parse_streamed(struct sm_frontend *fe, const char *path, const char *text, size_t len,
					   const struct sm_frontend_options *opt, struct sm_arena *A,
					   const struct sm_kernel_stream *ks)
{
	struct sm_file *F = sm_arena_alloc(A, sizeof(*F));
	if (!F)
		return NULL;
	F->path = sm_arena_strdup(A, path);
	F->text = text;
	F->text_len = len;

	int argc;
	const char **argv = sm_frontend_args(opt, &argc, A);
	if (!argv)
		return NULL; /* the arena is exhausted */
	/* headers are parsed as CUDA too: -x cuda is already first */
	struct CXUnsavedFile unsaved[3 + SM_NSTUB_INCLUDES];
	unsigned nspaced = 0;
	unsaved[0].Filename = path;
	/* clang reads what nvcc's lexer reads: spaced launch brackets closed
	 * up, every offset kept (F->text, which reports quote, is as written) */
	unsaved[0].Contents = sm_dialect_launch_brackets(text, len, A, &nspaced);
	unsigned nglued = 0; /* extern "C"__global__ */
	unsaved[0].Contents = sm_dialect_extern_c(unsaved[0].Contents, len, A, &nglued);
	unsaved[0].Length = (unsigned long)len;
	set_forced_headers(unsaved + 1);
	int nunsaved = 3;
	if (!opt->cuda_path) {
		/* without a toolkit, #include <cuda_runtime.h> and friends find
		 * empty stand-ins: the declarations come from the forced stub */
		for (int i = 0; i < SM_NSTUB_INCLUDES; i++) {
			unsaved[nunsaved].Filename = sm_stub_includes[i].path;
			unsaved[nunsaved].Contents = sm_stub_include_text;
			unsaved[nunsaved].Length = (unsigned long)strlen(sm_stub_include_text);
			nunsaved++;
		}
	}

	CXTranslationUnit tu = NULL;
	unsigned flags = CXTranslationUnit_KeepGoing | CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles;
	enum CXErrorCode err = clang_parseTranslationUnit2(fe->index, path, argv, argc, unsaved,
							  (unsigned)nunsaved, flags, &tu);
	fe->pch_rejected = 0;
	if (opt->pch && (err != CXError_Success || !tu || pch_problem(tu, opt->pch))) {
		/* a stale, corrupt or incompatible precompiled header: parse
		 * again without it, so that the result is what a plain parse
		 * gives, and tell the caller (sm_frontend_pch_rejected) */
		if (tu)
			clang_disposeTranslationUnit(tu);
		tu = NULL;
		fe->pch_rejected = 1;
		struct sm_frontend_options plain = *opt;
		plain.pch = NULL;
		argv = sm_frontend_args(&plain, &argc, A);
		if (!argv)
			return NULL;
		err = clang_parseTranslationUnit2(fe->index, path, argv, argc, unsaved, (unsigned)nunsaved, flags, &tu);
	}
	if (err != CXError_Success || !tu) {
		F->parse_failed = true;
		F->notes = sm_arena_alloc(A, sizeof(struct sm_note));
		if (F->notes) {
			F->notes[0].level = 2;
			F->notes[0].message = sm_arena_printf(A, "clang could not parse the file (libclang error %d)", (int)err);
			F->nnotes = 1;
		}
		return F;
	}
	cv_convert_tu(tu, path, opt, F, A, ks);
	clang_disposeTranslationUnit(tu);
	return F;
}

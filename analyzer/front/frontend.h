/* frontend.h - the wall around libclang.
 *
 * Nothing outside analyzer/front/ includes clang-c. The front end parses
 * one file and converts it into the IR of ir.h, then disposes of the
 * translation unit; all IR lives in the caller's arena.
 */
#ifndef SMEMLINT_FRONTEND_H
#define SMEMLINT_FRONTEND_H

#include <stddef.h>

#include "smemlint/arena.h"
#include "smemlint/ir.h"
#include "smemlint/options.h"


struct sm_frontend; /* one per worker thread: holds a CXIndex */

struct sm_frontend *sm_frontend_new(void);
void sm_frontend_free(struct sm_frontend *fe);

/* Parse `path` whose contents are text[0..len) and convert it to IR in
 * `arena`. Never returns NULL unless the arena is exhausted; parse problems
 * are recorded as notes, and file->parse_failed is set when clang produced
 * no AST at all. */
struct sm_file *sm_frontend_parse(struct sm_frontend *fe, const char *path,
				  const char *text, size_t len,
				  const struct sm_frontend_options *opt,
				  struct sm_arena *arena);

/* Where a streamed parse hands each __global__ kernel. */
struct sm_kernel_stream {
	/* called once per kernel, with its launches and opt-ins attached, as
	 * soon as it is converted; K and everything it points to (but F and
	 * what F holds) are released when the call returns */
	void (*kernel)(void *ctx, const struct sm_file *F, struct sm_kernel *K);
	void *ctx;
};

/* sm_frontend_parse, but the kernels (and the __device__ functions
 * analyzed on their own) of a file that declares no file-scope __shared__
 * array are converted one at a time, each in an arena of its own (a limit
 * as big as arena's), handed to ks and released: the IR of a file of
 * thousands of kernels is then one kernel's, not all of them. F->kernels
 * keeps what was not streamed: every kernel of a file with file-scope
 * shared arrays (converted whole). F->ir_partial is set when a kernel's
 * arena ran out. */
struct sm_file *sm_frontend_parse_streamed(struct sm_frontend *fe, const char *path, const char *text, size_t len,
					   const struct sm_frontend_options *opt, struct sm_arena *arena,
					   const struct sm_kernel_stream *ks);

/* The compiler flags the front end uses for a file, for `clang -fsyntax-only`
 * comparisons and the header cache: smemlint's own, then every one of the
 * user's (none is dropped: the array is sized for them). Returns the array
 * (in `arena`, as its strings) and sets *argc, or NULL when the arena is
 * exhausted. */
const char **sm_frontend_args(const struct sm_frontend_options *opt, int *argc, struct sm_arena *arena);

/* Precompile the headers a parse with `opt` includes before the file (the
 * toolkit's CUDA runtime wrapper, or the bundled header) into `out`, for
 * opt->pch of later parses with the same flags, and (deps not NULL) list
 * the absolute names of the headers it contains in `deps`, one a line.
 * Returns 0, or -1 with a message in err (nothing usable at out). A write
 * that fails inside libclang aborts the process: the header cache calls
 * this in a child process (pch_cache.c). */
int sm_frontend_build_pch(struct sm_frontend *fe, const struct sm_frontend_options *opt,
			  const char *out, const char *deps, char *err, size_t errlen);

/* 1 when the last sm_frontend_parse could not use opt->pch (stale, corrupt,
 * built with other flags) and parsed without it instead. */
int sm_frontend_pch_rejected(const struct sm_frontend *fe);

/* libclang's version string, e.g. "Debian clang version 22.x" (in A). */
const char *sm_frontend_clang_version(struct sm_arena *A);

/* The bundled CUDA declarations used when no toolkit is found. */
extern const char sm_cuda_stub_header[];
#define SM_CUDA_STUB_PATH "/<smemlint>/smemlint_cuda.h"
/* What nvcc declares and clang's headers do not (cuda_compat.h): forced
 * into every parse with a toolkit. */
extern const char sm_cuda_compat_header[];
#define SM_CUDA_COMPAT_PATH "/<smemlint>/smemlint_compat.h"

/* The resource directory of the clang that libclang is (its builtin
 * headers and include/cuda_wrappers), found from where libclang was
 * loaded: <libdir>/clang/<major>. libclang's own driver has no executable
 * path and looks for cuda_wrappers under a relative "lib/clang/N", so
 * without -resource-dir device code cannot use placement new (<new>), CUB
 * or libcu++. Writes it into buf and returns buf, or NULL when not found. */
const char *sm_frontend_resource_dir(char *buf, size_t n);

/* The host compiler's own header directory, where nvcc's host compiler
 * finds <omp.h> and clang does not: the newest
 * /usr/lib/gcc/<triple>/<version>/include holding omp.h. Writes it into
 * buf and returns buf, or NULL when there is none. */
const char *sm_frontend_host_include(char *buf, size_t n);

#endif

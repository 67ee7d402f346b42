/* compdb.h - compile commands: what an nvcc or clang command line tells the
 * front end (include paths, macros, language standard, target
 * architecture, the CUDA sources it compiles), and compile_commands.json.
 *
 * One translator serves both `-p BUILD_DIR` (every entry of the database)
 * and `--launcher` (the command CMake runs). Response files
 * (--options-file F, -optf F, @F, as CMake's Makefile generator writes
 * includes_CUDA.rsp) are expanded first, read relative to the command's
 * directory. Flags the front end accepts are kept (-I, -isystem, -D, -U,
 * -include, -std=, and nvcc's long --include-path/--define-macro/--std
 * forms); -rdc=true, --relocatable-device-code, -dc become -fgpu-rdc; the
 * architecture is the lowest real one that -arch/-gencode/--generate-code/
 * --gpu-architecture/--cuda-gpu-arch name (the code for every architecture
 * is the same source; the lowest is what every build of it must fit);
 * -x cu (nvcc) or -x cuda (clang) makes the C and C++ sources after it
 * CUDA sources too (CMake writes it for a .cpp whose LANGUAGE is CUDA);
 * everything else (-O3, -Xcompiler ..., --expt-relaxed-constexpr,
 * --extended-lambda, -o ...) is dropped with its value. */
#ifndef SMEMLINT_FRONT_COMPDB_H
#define SMEMLINT_FRONT_COMPDB_H

#include <stdbool.h>
#include <stddef.h>

/* What one compile command says, in malloc'd strings. */
struct sm_compile_flags {
	char **flags;        /* for the front end, in command-line order */
	int nflags, cap_flags;
	char arch[32];       /* the lowest real one named ("sm_80"), or "" */
	char archs[160];     /* every distinct one named, space separated */
	int narchs;          /* how many archs holds */
	char *problem;       /* a response file that could not be read (the
	                      * first one), or NULL */
	char **sources;      /* the .cu files it compiles, as written, and the
	                      * C/C++ ones after -x cu */
	bool as_cuda;        /* a source was compiled as CUDA by -x cu / -x cuda */
	int nsources, cap_sources;
};

/* Translate argv[1..argc) (argv[0] is the compiler). dir: the directory the
 * command runs in; relative -I/-isystem/-include paths are made absolute
 * against it (NULL: kept as written). Returns 0, or -1 when out of memory. */
int sm_compile_flags_translate(const char *const *argv, int argc, const char *dir, struct sm_compile_flags *out);
void sm_compile_flags_free(struct sm_compile_flags *f);

/* The target architecture an nvcc/clang flag value names: "sm_80" from
 * "sm_80", "compute_80" or "arch=compute_80,code=sm_80"; the lowest real
 * one of "arch=compute_80,code=[compute_80,sm_80,sm_90]". Returns 1 with
 * out filled, 0 when it names none. */
int sm_arch_of(const char *s, char *out, size_t n);

/* One entry of compile_commands.json. */
struct sm_compdb_entry {
	char *file;          /* absolute, canonical */
	struct sm_compile_flags cf;
};

struct sm_compdb {
	struct sm_compdb_entry *e;
	size_t n;
};

/* Read dir/compile_commands.json ("arguments" arrays or "command"
 * strings, split as a shell would). Returns 0, or -1 with err naming the
 * file and the problem. */
int sm_compdb_load(const char *dir, struct sm_compdb *db, char *err, size_t errlen);

/* The entry for file (compared after realpath), or NULL. */
const struct sm_compdb_entry *sm_compdb_find(const struct sm_compdb *db, const char *file);

void sm_compdb_free(struct sm_compdb *db);

#endif

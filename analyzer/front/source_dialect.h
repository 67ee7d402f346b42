/* source_dialect.h - nvcc's dialect at the level of the source text: what
 * nvcc's lexer reads differently from clang's, mended in the bytes clang is
 * handed (the file as written stays what reports quote). No libclang here:
 * the text in, the text out, so the tests can drive it directly. The
 * errors clang reports on code nvcc accepts are nvcc_dialect.h's. */
#ifndef SMEMLINT_FRONT_SOURCE_DIALECT_H
#define SMEMLINT_FRONT_SOURCE_DIALECT_H

#include <stddef.h>

#include "smemlint/arena.h"

/* nvcc's lexer reads a launch's brackets written with spaces,
 * `k << <grid, block >> > (...)` (clang-format's spelling of `<<<`), as
 * `<<<` and `>>>`; clang reads a shift and a comparison and gives up on
 * the launch. sm_dialect_launch_brackets returns a copy of text in A with
 * each such pair closed up in place (`<<< ` ... `>>> `: every byte keeps
 * its offset, so lines and columns do not move), or text itself when
 * there is none (or the arena is spent). Only a `<< <` that is not
 * `operator<< <T>` counts, and only together with the `>> >` that closes
 * it at the same nesting before the statement ends: `A<B<C>> >` alone
 * stays a template's closing brackets. Comments and literals are skipped.
 * *nfixed gets the number of launches closed up. */
const char *sm_dialect_launch_brackets(const char *text, size_t len, struct sm_arena *A, unsigned *nfixed);

/* nvcc reads `extern "C"__global__ void k()` (no blank after the linkage
 * string, as some trees write it) as a linkage and a kernel; clang, by
 * C++11's rules, as a string literal with the user-defined suffix
 * `__global__`, an error. sm_dialect_extern_c returns a copy of text in A
 * with the blank before each such "C" or "C++" moved after it
 * (`extern"C" __global__`: the identifier keeps its offset, the literal
 * moves one byte left), or text itself when there is none. *nfixed gets
 * how many were mended. */
const char *sm_dialect_extern_c(const char *text, size_t len, struct sm_arena *A, unsigned *nfixed);

#endif

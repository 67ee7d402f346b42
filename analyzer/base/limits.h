/* limits.h - every cap smemlint puts on its input and its work, in one
 * place (as SQLite's sqliteLimit.h): the value, why that value, and what
 * happens past it. The README's Limits table is checked against this file
 * by a test (tests/test_limits.py). */
#ifndef SMEMLINT_BASE_LIMITS_H
#define SMEMLINT_BASE_LIMITS_H

#include <stddef.h>

/* Largest source file read, in bytes. 16 MiB is far above any hand-written
 * CUDA file (generated ones reach a few MiB) and keeps a stray binary or
 * log from being parsed. Past it: the file gets input problem
 * file-too-large and is not analyzed; the others still are. */
#define SM_MAX_FILE_BYTES (16u * 1024 * 1024)

/* Bytes of IR (the arena of one translation unit) before the analysis of a
 * file stops. 1 GiB leaves room for kernels of thousands of statements on
 * a 2-core, 8 GiB CI runner with two workers. Past it: the file's results
 * are partial (input problem partial-results). */
#define SM_IR_ARENA_LIMIT ((size_t)1 << 30)

/* Distinct block shapes a kernel is analyzed with (launch sites with
 * different constant shapes). Eight covers every kernel of the corpus and
 * of the public collections tried; more costs a full evaluation each. Past
 * it: the first eight launch shapes in source order are used. */
#define SM_MAX_BLOCK_SHAPES 8

/* Threads in a block shape given with --block-dim or block-dim:, as CUDA
 * allows on every architecture smemlint models. Past it: a usage error. */
#define SM_MAX_BLOCK_THREADS 1024

/* Stack of each worker thread: libclang's parser and the front end recurse
 * once per nesting level (up to a few KiB each, more under
 * AddressSanitizer); 256 MiB of address space holds 70,000 nested unary
 * operators. Past it: recursion stops at the stack floor (base/stack.h)
 * and the file's results are partial. */
#define SM_WORKER_STACK ((size_t)256 << 20)

/* Arguments the front end passes to clang for one file (toolkit, target,
 * the user's -I/-D/-std flags). Past it: the rest are dropped. */
#define SM_MAX_CLANG_ARGS 128

/* Files analyzed in parallel (-j). More workers than this only add
 * memory: each holds a front end and one file's IR. Past it: a usage
 * error. */
#define SM_MAX_JOBS 256

/* Shares a tree can be split into (--shard K/N): far more CI jobs than any
 * matrix runs. Past it: a usage error. */
#define SM_MAX_SHARDS 100000

/* Longest --timeout, in seconds (about 11.6 days): anything longer is a
 * typo. Past it: a usage error. */
#define SM_MAX_TIMEOUT_S 1e6

#endif

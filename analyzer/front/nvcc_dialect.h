/* nvcc_dialect.h - clang errors on code nvcc accepts. smemlint parses with
 * clang, which is stricter than nvcc (EDG) in a few places; where the
 * difference shows as a clang error, the error is matched here against a
 * table of the known differences (nvcc_dialect.c, doc/trees.md "Code nvcc
 * accepts", one test snippet each in tests/dialect/) and becomes the note
 * nvcc-accepts instead of a parse error. Differences that a declaration
 * can close (host max/min, isfinite, __stcs) are closed in cuda_compat.h
 * instead and never reach this table. */
#ifndef SMEMLINT_FRONT_NVCC_DIALECT_H
#define SMEMLINT_FRONT_NVCC_DIALECT_H

#include <clang-c/Index.h>

#include "smemlint/arena.h"
#include "smemlint/ir.h"

/* When clang error d of tu is one the table knows nvcc accepts, make note
 * (already filled, as an error or by cv_host_code_note as an error in
 * host-only code, which some rows require) a note of kind SM_NOTE_NVCC_ACCEPTS, level
 * note, whose message says what clang rejected, what nvcc does with it and
 * what the analysis leaves out; return 1. Otherwise leave note alone and
 * return 0. */
int cv_nvcc_accepts_note(CXTranslationUnit tu, CXDiagnostic d, struct sm_note *note, struct sm_arena *A);

#endif

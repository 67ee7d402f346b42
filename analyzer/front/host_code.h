/* host_code.h - is a clang error in host-only code? smemlint parses the
 * device side of a file (--cuda-device-only), as nvcc's device pass does,
 * but nvcc's pass never sees the bodies of host-only functions (cudafe
 * strips them first) while clang parses them: code under
 * #ifndef __CUDA_ARCH__, host-only libraries and intrinsics then fail to
 * parse although nvcc compiles the file. Such an error is reported as the
 * input problem host-code-error (a warning: the device code, analyzed
 * apart, is whole) instead of parse-error (an error that fails the run). */
#ifndef SMEMLINT_FRONT_HOST_CODE_H
#define SMEMLINT_FRONT_HOST_CODE_H

#include <clang-c/Index.h>

#include "smemlint/arena.h"
#include "smemlint/ir.h"

/* When clang error d of tu lies in the body of a host-only function (no
 * __device__, __global__ or constexpr) and in no lambda
 * inside it, make note (already filled as an error) a host-code note:
 * kind SM_NOTE_HOST_CLANG, level warning, and the function named in its
 * message. Errors anywhere else (device and host-device functions,
 * declarations at namespace or class scope, which device code may use)
 * are left as they are. */
void cv_host_code_note(CXTranslationUnit tu, CXDiagnostic d, struct sm_note *note, struct sm_arena *A);

#endif

/*
 * Stand-ins for GPUVerify's specification annotations, written for
 * smemlint's run of GPUVerify's CUDA test suite (tools/suites.py): the
 * suite's kernels call them as statements, loop-condition terms and
 * predicates. Each is a no-op or a constant here: smemlint checks the
 * kernels' shared memory and barriers, not the specifications, so an
 * annotation must only parse and must not read or write memory.
 * Force-included with -include by tools/suites.py; not part of smemlint.
 */
#ifndef SMEMLINT_GPUVERIFY_ANNOTATIONS_H
#define SMEMLINT_GPUVERIFY_ANNOTATIONS_H

/* GPUVerify's name for a group's barrier (its cuda.h also brings in
   cooperative_groups.h and curand_kernel.h, which tools/suites.py
   force-includes for the kernels that use them) */
template <class Group> __device__ void synchronize(Group &g) { g.sync(); }

/* statements and loop-invariant terms: no effect */
#define __requires(...) ((void)0)
#define __ensures(...) ((void)0)
#define __assert(...) ((void)0)
#define __assume(...) ((void)0)
#define __invariant(...) ((void)0)
#define __global_invariant(...) ((void)0)
#define __function_wide_invariant(...) ((void)0)
#define __axiom(...) ((void)0)
#define __requires_fresh_array(...) ((void)0)

/* predicates: true, so that they constrain nothing */
#define __implies(a, b) (!(a) || (b))
#define __enabled() 1
#define __uniform_int(x) 1
#define __uniform_bool(x) 1
#define __distinct_int(x) 1
#define __all(x) (x)
#define __at_most_one(x) 1
#define __no_read(p) 1
#define __no_write(p) 1
#define __read(p) 0
#define __write(p) 0
#define __read_implies(p, c) 1
#define __write_implies(p, c) 1
#define __read_offset_bytes(p) 0
#define __write_offset_bytes(p) 0
#define __ptr_offset_bytes(p) 0
#define __other_int(x) (x)
#define __mod_pow2(x, y) ((x) & ((y) - 1))

/* the callee's result in a postcondition: never evaluated here */
#define __return_val_int() 0
#define __return_val_ptr() 0
#define __return_val_funptr(t) ((t)0)
#define __return_val(...) 0

#endif

/* smemlint_compat.h - what nvcc accepts and clang's CUDA headers (with a
 * toolkit, device-only parse) do not declare. Forced into every parse with
 * a toolkit (-include), after clang's CUDA runtime wrapper; without a
 * toolkit the bundled smemlint_cuda.h declares the same. Declarations
 * only where a body would not change the analysis: none of these touch
 * shared memory.
 *
 * - __stcs/__stcg/__stwb: the cache-hinted stores of CUDA's
 *   sm_32_intrinsics.h, which clang's wrapper does not include (clang
 *   defines __stwt and the __ld* loads itself). Templates, so that every
 *   pointer type nvcc takes is taken; the toolkit's non-template overloads
 *   (__half, __nv_bfloat16) stay the better match.
 * - host max/min: nvcc's crt/math_functions.hpp declares them __host__
 *   __device__; clang's __clang_cuda_math.h only __device__, so host code
 *   calling max(int, int) has no candidate. The same overload set as nvcc,
 *   mixed signedness included, so that no call becomes ambiguous. */
#pragma once
#ifndef SMEMLINT_CUDA_COMPAT
#define SMEMLINT_CUDA_COMPAT 1

template <class T, class U> __device__ void __stcs(T *, U);
template <class T, class U> __device__ void __stcg(T *, U);
template <class T, class U> __device__ void __stwb(T *, U);

#define SMEMLINT_HOST_MINMAX(R, A, B) \
	static inline __host__ R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; } \
	static inline __host__ R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }
SMEMLINT_HOST_MINMAX(int, int, int)
SMEMLINT_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
SMEMLINT_HOST_MINMAX(unsigned int, int, unsigned int)
SMEMLINT_HOST_MINMAX(unsigned int, unsigned int, int)
SMEMLINT_HOST_MINMAX(long, long, long)
SMEMLINT_HOST_MINMAX(unsigned long, unsigned long, unsigned long)
SMEMLINT_HOST_MINMAX(unsigned long, long, unsigned long)
SMEMLINT_HOST_MINMAX(unsigned long, unsigned long, long)
SMEMLINT_HOST_MINMAX(long long, long long, long long)
SMEMLINT_HOST_MINMAX(unsigned long long, unsigned long long, unsigned long long)
SMEMLINT_HOST_MINMAX(unsigned long long, long long, unsigned long long)
SMEMLINT_HOST_MINMAX(unsigned long long, unsigned long long, long long)
SMEMLINT_HOST_MINMAX(float, float, float)
SMEMLINT_HOST_MINMAX(double, double, double)
SMEMLINT_HOST_MINMAX(double, float, double)
SMEMLINT_HOST_MINMAX(double, double, float)
#undef SMEMLINT_HOST_MINMAX

#endif

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
 *   mixed signedness included, so that no call becomes ambiguous.
 * - host isfinite/isnan/isinf/signbit: nvcc declares them host and device
 *   in the global namespace; clang's __clang_cuda_cmath.h only __device__
 *   (and <cmath> puts the host ones in std::), so a host function calling
 *   isfinite(x) (llm.c's validate_result) has no candidate. Templates for
 *   the arithmetic types, so that a later `using std::isfinite;` (a
 *   non-template of the same signature, preferred) never conflicts.
 * - <time.h>: nvcc's cuda_runtime.h brings it (crt/common_functions.h,
 *   which also makes clock() host and device); clang's wrapper declares
 *   only the device clock(), so host code timing itself with clock() and
 *   CLOCKS_PER_SEC without including <time.h> (llm.c's permute.cu) did not
 *   parse. */
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

/* the argument type each classification takes for T: integers as double */
template <class T> struct __smemlint_host_real {};
#define SMEMLINT_HOST_REAL(T, R) \
	template <> struct __smemlint_host_real<T> { typedef R type; };
SMEMLINT_HOST_REAL(float, float)
SMEMLINT_HOST_REAL(double, double)
SMEMLINT_HOST_REAL(long double, long double)
SMEMLINT_HOST_REAL(char, double)
SMEMLINT_HOST_REAL(signed char, double)
SMEMLINT_HOST_REAL(unsigned char, double)
SMEMLINT_HOST_REAL(short, double)
SMEMLINT_HOST_REAL(unsigned short, double)
SMEMLINT_HOST_REAL(int, double)
SMEMLINT_HOST_REAL(unsigned int, double)
SMEMLINT_HOST_REAL(long, double)
SMEMLINT_HOST_REAL(unsigned long, double)
SMEMLINT_HOST_REAL(long long, double)
SMEMLINT_HOST_REAL(unsigned long long, double)
#undef SMEMLINT_HOST_REAL
#define SMEMLINT_HOST_CLASSIFY(F, B) \
	template <class T> static inline __host__ bool F(T x, typename __smemlint_host_real<T>::type = 0) \
	{ return B(static_cast<typename __smemlint_host_real<T>::type>(x)); }
SMEMLINT_HOST_CLASSIFY(isfinite, __builtin_isfinite)
SMEMLINT_HOST_CLASSIFY(isnan, __builtin_isnan)
SMEMLINT_HOST_CLASSIFY(isinf, __builtin_isinf)
SMEMLINT_HOST_CLASSIFY(signbit, __builtin_signbit)
#undef SMEMLINT_HOST_CLASSIFY

#include <time.h>

#endif

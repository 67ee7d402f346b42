/* smemlint_cuda.h - the small set of CUDA declarations smemlint parses with
 * when no CUDA toolkit is found. It declares what kernels and their host
 * launch code use; it is not a substitute for the toolkit when compiling.
 * Installed with smemlint; forced into every parse with -include. */
#pragma once
#ifndef SMEMLINT_CUDA_STUB
#define SMEMLINT_CUDA_STUB 1
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
/* the C and C++ math headers as clang's CUDA wrapper takes them: every
 * function host and device, so that host-device code may call them and
 * the declarations below do not clash with glibc's */
#pragma clang force_cuda_host_device begin
#include <math.h>
#ifdef __cplusplus
#include <cmath>
#endif
#pragma clang force_cuda_host_device end
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
#define CUDART_VERSION 13000
#include "__clang_cuda_builtin_vars.h"

struct dim3 {
	unsigned int x, y, z;
	__host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
};
typedef struct dim3 dim3;

typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char uchar;
#define SMEMLINT_VEC(T, N, A) \
	struct __align__(A) T##1 { T x; }; \
	struct __align__(2 * A) T##2 { T x, y; }; \
	struct T##3 { T x, y, z; }; \
	struct __align__(4 * A) T##4 { T x, y, z, w; };
SMEMLINT_VEC(float, 4, 4)
SMEMLINT_VEC(int, 4, 4)
SMEMLINT_VEC(uint, 4, 4)
SMEMLINT_VEC(short, 2, 2)
SMEMLINT_VEC(ushort, 2, 2)
SMEMLINT_VEC(char, 1, 1)
SMEMLINT_VEC(uchar, 1, 1)
SMEMLINT_VEC(long, 8, 8)
SMEMLINT_VEC(double, 8, 8)
#undef SMEMLINT_VEC
#define SMEMLINT_MAKE(T) \
	static __host__ __device__ inline T##2 make_##T##2(T a, T b) { T##2 r; r.x = a; r.y = b; return r; } \
	static __host__ __device__ inline T##4 make_##T##4(T a, T b, T c, T d) { T##4 r; r.x = a; r.y = b; r.z = c; r.w = d; return r; }
SMEMLINT_MAKE(float)
SMEMLINT_MAKE(int)
SMEMLINT_MAKE(double)
#undef SMEMLINT_MAKE

struct __align__(2) __half { unsigned short __x;
	__half() = default;
	__host__ __device__ __half(float f);
	__host__ __device__ operator float() const; };
typedef struct __half half;
struct __align__(4) __half2 { __half x, y; };
typedef struct __half2 half2;
__host__ __device__ __half __float2half(float);
__host__ __device__ float __half2float(__half);
__device__ __half __hadd(__half, __half);
__device__ __half __hmul(__half, __half);
__device__ __half operator+(__half, __half);
__device__ __half2 __hmul2(__half2, __half2);
__device__ __half2 __hadd2(__half2, __half2);
struct __align__(2) __nv_bfloat16 { unsigned short __x;
	__nv_bfloat16() = default;
	__host__ __device__ __nv_bfloat16(float f);
	__host__ __device__ operator float() const; };
typedef struct __nv_bfloat16 nv_bfloat16;
__host__ __device__ __nv_bfloat16 __float2bfloat16(float);
__host__ __device__ float __bfloat162float(__nv_bfloat16);

/* tensor-core fragments (mma.h): the calls smemlint models by their
 * fragment's type, spelled as the toolkit spells it */
namespace nvcuda {
namespace wmma {
struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
namespace precision {
struct tf32;
}
enum layout_t { mem_row_major, mem_col_major };
template <class Use, int m, int n, int k, class T, class Layout = void> struct fragment {
	int num_elements;
	float x[8];
};
template <class U, int m, int n, int k, class T, class L>
__device__ void load_matrix_sync(fragment<U, m, n, k, T, L> &a, const void *p, unsigned ldm);
template <class U, int m, int n, int k, class T, class L>
__device__ void load_matrix_sync(fragment<U, m, n, k, T, L> &a, const void *p, unsigned ldm, layout_t layout);
template <class U, int m, int n, int k, class T, class L>
__device__ void store_matrix_sync(void *p, const fragment<U, m, n, k, T, L> &a, unsigned ldm, layout_t layout);
template <class U, int m, int n, int k, class T, class L, class V>
__device__ void fill_fragment(fragment<U, m, n, k, T, L> &a, const V &v);
template <class D, class A, class B, class C> __device__ void mma_sync(D &d, const A &a, const B &b, const C &c);
template <class D, class A, class B, class C>
__device__ void mma_sync(D &d, const A &a, const B &b, const C &c, bool satf);
}
}
__host__ __device__ __half2 __floats2half2_rn(float, float);
__host__ __device__ float2 __half22float2(__half2);
__device__ __half operator*(__half, __half);

extern "C" {
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ unsigned int __activemask();
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ long long clock64(void);
__device__ int clock(void);
__device__ int printf(const char *, ...);
}
__device__ int atomicAdd(int *, int);
__device__ unsigned int atomicAdd(unsigned int *, unsigned int);
__device__ float atomicAdd(float *, float);
__device__ int atomicSub(int *, int);
__device__ int atomicMax(int *, int);
__device__ int atomicMin(int *, int);
__device__ int atomicExch(int *, int);
__device__ float atomicExch(float *, float);
__device__ int atomicCAS(int *, int, int);
__device__ unsigned int atomicInc(unsigned int *, unsigned int);
__device__ int atomicOr(int *, int);
__device__ int atomicAnd(int *, int);
template <class T> __device__ T __shfl_sync(unsigned, T, int, int = 32);
template <class T> __device__ T __shfl_xor_sync(unsigned, T, int, int = 32);
template <class T> __device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32);
template <class T> __device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32);
__device__ unsigned __ballot_sync(unsigned, int);
__device__ int __all_sync(unsigned, int);
__device__ int __any_sync(unsigned, int);
__device__ int __uni_sync(unsigned, int);
__device__ int __reduce_add_sync(unsigned, int);
__device__ unsigned __reduce_add_sync(unsigned, unsigned);
__device__ int __reduce_min_sync(unsigned, int);
__device__ unsigned __reduce_min_sync(unsigned, unsigned);
__device__ int __reduce_max_sync(unsigned, int);
__device__ unsigned __reduce_max_sync(unsigned, unsigned);
__device__ unsigned __reduce_and_sync(unsigned, unsigned);
__device__ unsigned __reduce_or_sync(unsigned, unsigned);
__device__ unsigned __reduce_xor_sync(unsigned, unsigned);
__device__ int __popc(unsigned);
__device__ unsigned int __brev(unsigned int);
__device__ unsigned long long __brevll(unsigned long long);
__device__ int __clz(int);
__device__ int __ffs(int);
__device__ int __mul24(int, int);
__device__ float __fdividef(float, float);
__device__ float rsqrtf(float);
__host__ __device__ static inline int min(int a, int b) { return a < b ? a : b; }
__host__ __device__ static inline int max(int a, int b) { return a > b ? a : b; }
__host__ __device__ static inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
__host__ __device__ static inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
template <class T> __device__ T __ldg(const T *);
/* asynchronous copies (cuda_pipeline.h) and the shared window */
__device__ size_t __cvta_generic_to_shared(const void *);
__device__ void __pipeline_memcpy_async(void *, const void *, size_t, size_t = 0);
__device__ void __pipeline_commit();
__device__ void __pipeline_wait_prior(size_t);
template <class T> __device__ T __ldcs(const T *);
template <class T> __device__ T __ldcg(const T *);
template <class T> __device__ T __ldlu(const T *);
template <class T> __device__ T __ldcv(const T *);
template <class T, class U> __device__ void __stcs(T *, U);
template <class T, class U> __device__ void __stcg(T *, U);
template <class T, class U> __device__ void __stwb(T *, U);
template <class T, class U> __device__ void __stwt(T *, U);

namespace cooperative_groups {
struct thread_group {
	__device__ void sync() const;
	__device__ unsigned thread_rank() const;
	__device__ unsigned size() const;
	__device__ unsigned long long num_threads() const;
};
struct thread_block {
	__device__ void sync() const;
	__device__ unsigned thread_rank() const;
	__device__ unsigned size() const;
	__device__ unsigned num_threads() const;
	__device__ dim3 group_index() const;
	__device__ dim3 thread_index() const;
	__device__ dim3 dim_threads() const;
	__device__ dim3 group_dim() const;
	__device__ operator thread_group() const;
};
__device__ thread_block this_thread_block();
__device__ void sync(const thread_block &);
template <unsigned N, class Parent = void> struct thread_block_tile {
	__device__ thread_block_tile();
	template <class P> __device__ thread_block_tile(const thread_block_tile<N, P> &);
	__device__ void sync() const;
	__device__ unsigned thread_rank() const;
	__device__ unsigned size() const;
	__device__ unsigned num_threads() const;
	__device__ unsigned meta_group_rank() const;
	__device__ unsigned meta_group_size() const;
	template <class T> __device__ T shfl(T, int) const;
	template <class T> __device__ T shfl_down(T, unsigned) const;
	template <class T> __device__ T shfl_up(T, unsigned) const;
	template <class T> __device__ T shfl_xor(T, unsigned) const;
	__device__ int any(int) const;
	__device__ int all(int) const;
	__device__ unsigned ballot(int) const;
	__device__ operator thread_group() const;
};
struct coalesced_group {
	__device__ void sync() const;
	__device__ unsigned thread_rank() const;
	__device__ unsigned size() const;
	__device__ unsigned num_threads() const;
	__device__ unsigned meta_group_rank() const;
	__device__ unsigned meta_group_size() const;
	template <class T> __device__ T shfl(T, int) const;
	__device__ int any(int) const;
	__device__ int all(int) const;
	__device__ unsigned ballot(int) const;
	__device__ operator thread_group() const;
};
struct cluster_group {
	struct arrival_token {};
	__device__ void sync() const;
	__device__ arrival_token barrier_arrive() const;
	__device__ void barrier_wait() const;
	__device__ void barrier_wait(arrival_token &&) const;
	__device__ unsigned block_rank() const;
	__device__ unsigned num_blocks() const;
	__device__ unsigned thread_rank() const;
	__device__ unsigned num_threads() const;
	__device__ dim3 block_index() const;
	__device__ dim3 dim_blocks() const;
	__device__ unsigned query_shared_rank(const void *) const;
	template <class T> __device__ T *map_shared_rank(T *, unsigned) const;
	template <class T> __device__ T &map_shared_rank(T &, unsigned) const;
};
__device__ cluster_group this_cluster();
struct grid_group {
	__device__ void sync() const;
	__device__ unsigned long long thread_rank() const;
	__device__ unsigned long long num_threads() const;
	__device__ unsigned long long size() const;
};
template <class T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(T a, T b) const { return a < b ? a : b; } };
template <class T> struct greater { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
template <class T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };
template <class Group, class T, class Op> __device__ T reduce(const Group &, T, Op);
template <class Group, class T, class Op> __device__ T inclusive_scan(const Group &, T, Op);
template <class Group, class T, class Op> __device__ T exclusive_scan(const Group &, T, Op);
template <class Group, class T> __device__ T inclusive_scan(const Group &, T);
template <class Group, class T> __device__ T exclusive_scan(const Group &, T);
template <unsigned N, class Parent> __device__ thread_block_tile<N, Parent> tiled_partition(const Parent &);
__device__ thread_group tiled_partition(const thread_block &, unsigned);
__device__ coalesced_group coalesced_threads();
template <class Group> __device__ coalesced_group labeled_partition(const Group &, int);
template <class Group> __device__ coalesced_group binary_partition(const Group &, bool);
__device__ grid_group this_grid();
template <class Group> __device__ void sync(const Group &);
}

typedef enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1 } cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9 };
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };
extern "C" {
cudaError_t cudaMalloc(void **, size_t);
cudaError_t cudaFree(void *);
cudaError_t cudaMemcpy(void *, const void *, size_t, enum cudaMemcpyKind);
cudaError_t cudaMemset(void *, int, size_t);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t);
const char *cudaGetErrorName(cudaError_t);
cudaError_t cudaFuncSetAttribute(const void *, enum cudaFuncAttribute, int);
int __cudaPushCallConfiguration(dim3, dim3, size_t = 0, cudaStream_t = 0);
cudaError_t cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);
/* a launch compiled for the device: dynamic parallelism, and a launch in
 * a lambda, which clang takes as __host__ __device__ */
__device__ void *cudaGetParameterBuffer(size_t, size_t);
__device__ cudaError_t cudaLaunchDevice(void *, void *, dim3, dim3, unsigned int, cudaStream_t);
}
template <class T> static inline cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
template <class T> static inline cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value)
{
	return cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T> static inline cudaError_t cudaMemcpyToSymbol(const T &sym, const void *src, size_t n, size_t off = 0,
								 enum cudaMemcpyKind k = cudaMemcpyHostToDevice);
template <class T> static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &sym, size_t n, size_t off = 0,
								   enum cudaMemcpyKind k = cudaMemcpyDeviceToHost);
#ifndef INFINITY
#define INFINITY __builtin_inff()
#endif
#ifndef NAN
#define NAN __builtin_nanf("")
#endif
#endif

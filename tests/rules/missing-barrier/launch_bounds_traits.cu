// __launch_bounds__ read through a kernel's traits struct, as CUB-based
// extensions write it: `__launch_bounds__(Ktraits::kNThreads)` with
// Ktraits a type template parameter. The bound is the member's value in
// each instantiation, and a 1-D kernel whose launch computes its block at
// run time is analyzed at it. 'halves' stores two halves of a 2 * kWidth
// buffer, one element a thread in each. With Traits<128, 128> each
// element has one writer: no race. With Traits<128, 96> (Overlap) thread
// 0's second store hits thread 96's first: reported at the bound's shape.
// Before, the bound was not read and the race was missed (the shapes
// assumed instead were cut away for overflowing the buffer).
#include <cuda_runtime.h>

template <int N, int W> struct Traits {
	static constexpr int kNThreads = N;
	static constexpr int kWidth = W;
};

template <typename Ktraits>
__global__ __launch_bounds__(Ktraits::kNThreads) void halves(float *o, const float *in)
{
	constexpr int kNThreads = Ktraits::kNThreads;
	constexpr int kWidth = Ktraits::kWidth;
	__shared__ float s[2 * kWidth];
	s[threadIdx.x] = in[threadIdx.x];
	s[threadIdx.x + kWidth] = in[threadIdx.x + kNThreads];
	__syncthreads();
	o[threadIdx.x] = s[2 * kWidth - 1 - threadIdx.x];
}

using Fit = Traits<128, 128>;
using Overlap = Traits<128, 96>;

void run(float *o, const float *in, int threads)
{
	halves<Fit><<<1, threads>>>(o, in);
	halves<Overlap><<<1, threads>>>(o, in);
}

/*
 * check-output-start
 * tests/rules/missing-barrier/launch_bounds_traits.cu:25:2: error: missing barrier: write-after-write race on 's': thread 0 writes s[96], which thread 96 wrote at line 24, with no __syncthreads() in between (different warps) in kernel 'halves' with blockDim (128,1,1) from __launch_bounds__(128) [missing-barrier]
 *   	s[threadIdx.x + kWidth] = in[threadIdx.x + kNThreads];
 *   	^~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/launch_bounds_traits.cu:24:2: note: the racing write of 's' by thread 96
 * tests/rules/missing-barrier/launch_bounds_traits.cu:23:2: note: 's' declared here
 * tests/rules/missing-barrier/launch_bounds_traits.cu:25:2: note: add __syncthreads() between the two accesses
 * check-output-end
 */

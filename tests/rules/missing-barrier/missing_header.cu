// A torch extension linted without torch: the headers are not there, and
// what they declare (at::Half, TORCH_CHECK, torch::Tensor) is unknown
// (the headers are named under absent/ so that an installed torch does
// not change the test).
// The file is reported once, as partly parsed, naming the headers; every
// error after them is folded into that report. 'scaled' uses at::Half
// and 'via_helper' calls a helper that does: neither is analyzed (their
// races would rest on declarations nobody has seen). 'plain' needs
// nothing from the headers: it is analyzed at the launch the host code
// gives it, torch::Tensor around it notwithstanding, and its race (the
// read of s[t + 1] before any barrier) is reported. With
// --fail-on-missing-headers the run fails (exit 2): missing_header_fail.cu.
#include <absent/torch/extension.h>
#include <absent/ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

__global__ void scaled(at::Half *out, const float *in)
{
	__shared__ float s[129];
	int t = threadIdx.x;
	s[t] = in[t];
	out[t] = s[t + 1];
}

__device__ float twice(c10::BFloat16 v) { return 2.0f * static_cast<float>(v); }

__global__ void via_helper(float *out, const float *in)
{
	__shared__ float s[129];
	int t = threadIdx.x;
	s[t] = in[t];
	out[t] = twice(s[t + 1]);
}

__global__ void plain(float *out, const float *in)
{
	__shared__ float s[129];
	int t = threadIdx.x;
	s[t] = in[t];
	out[t] = s[t + 1];
}

torch::Tensor run(torch::Tensor x)
{
	TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
	auto y = torch::empty_like(x);
	float *o = y.data_ptr<float>();
	const float *i = x.data_ptr<float>();
	plain<<<1, 128>>>(o, i);
	return y;
}

/*
 * check-output-start
 * tests/rules/missing-barrier/missing_header.cu:13:10: warning: partly parsed: 'absent/torch/extension.h', 'absent/ATen/cuda/CUDAContext.h' not found (7 errors follow from what they would declare); not analyzed, as they rest on those declarations: 'scaled', 'via_helper', 'twice'; every other kernel and device function is analyzed
 * tests/rules/missing-barrier/missing_header.cu:40:11: error: missing barrier: read-after-write race on 's': thread 31 reads s[32], which thread 32 wrote at line 39, with no __syncthreads() in between (different warps) in kernel 'plain' with blockDim (128,1,1) from the launch on line 49 [missing-barrier]
 *   	out[t] = s[t + 1];
 *   	         ^~~~~~~~
 * tests/rules/missing-barrier/missing_header.cu:39:2: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/missing_header.cu:37:2: note: 's' declared here
 * tests/rules/missing-barrier/missing_header.cu:40:11: note: add __syncthreads() between the two accesses
 * check-output-end
 */

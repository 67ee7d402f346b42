// A kernel template is analyzed as the specializations the file launches
// or instantiates explicitly. One that nothing names is not analyzed, and
// a note says so: a clean run must not read as a clean kernel. Here
// 'unused' is never launched, and 'behind_library' is launched only from
// host code whose library type is missing (a torch extension linted
// without torch's headers): both get the note, which names the file's
// parse errors as a likely cause.
// 'launched' and 'explicit_inst' are analyzed, and their races found.
// The included header's template gets no note: another file launches it.
#include "tmpl_kernels.cuh"

template <int N>
__global__ void unused(float *o)
{
	__shared__ float s[64];
	s[threadIdx.x] = o[threadIdx.x];
	o[threadIdx.x] = s[63 - threadIdx.x] * N;
}

template <int N>
__global__ void behind_library(float *o)
{
	__shared__ float s[64];
	s[threadIdx.x] = o[threadIdx.x];
	o[threadIdx.x] = s[63 - threadIdx.x] * N;
}

void run_library(missing_lib::Tensor t)
{
	behind_library<2><<<1, 64>>>(t.data());
}

template <int N>
__global__ void launched(float *o)
{
	__shared__ float s[64];
	s[threadIdx.x] = o[threadIdx.x];
	o[threadIdx.x] = s[63 - threadIdx.x] * N;
}

void run(float *o)
{
	launched<2><<<1, 64>>>(o);
}

template <int N>
__global__ void explicit_inst(float *o)
{
	__shared__ float s[64];
	s[threadIdx.x] = o[threadIdx.x];
	o[threadIdx.x] = s[63 - threadIdx.x] * N;
}

template __global__ void explicit_inst<4>(float *);

/*
 * check-args: -- -Itests/rules/missing-barrier/inc
 * check-output-start
 * tests/rules/missing-barrier/template_not_launched.cu:28:18: warning: use of undeclared identifier 'missing_lib' (in host function 'run_library', which nvcc's device pass does not compile; the device code is analyzed)
 * tests/rules/missing-barrier/template_not_launched.cu:12:1: note: kernel template 'unused' not analyzed: no launch in this file names its template arguments (its launches may be in code that did not parse); lint the file that launches it, or make that launch's code parse
 * tests/rules/missing-barrier/template_not_launched.cu:20:1: note: kernel template 'behind_library' not analyzed: no launch in this file names its template arguments (its launches may be in code that did not parse); lint the file that launches it, or make that launch's code parse
 * tests/rules/missing-barrier/template_not_launched.cu:38:19: error: missing barrier: read-after-write race on 's': thread 0 reads s[63], which thread 63 wrote at line 37, with no __syncthreads() in between (different warps) in kernel 'launched' with blockDim (64,1,1) from the launch on line 43 [missing-barrier]
 *   	o[threadIdx.x] = s[63 - threadIdx.x] * N;
 *   	                 ^~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/template_not_launched.cu:37:2: note: the racing write of 's' by thread 63
 * tests/rules/missing-barrier/template_not_launched.cu:36:2: note: 's' declared here
 * tests/rules/missing-barrier/template_not_launched.cu:38:19: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/template_not_launched.cu:51:19: assumed: missing barrier: read-after-write race on 's': thread 0 reads s[63], which thread 63 wrote at line 50, with no __syncthreads() in between (different warps) in kernel 'explicit_inst' with blockDim (64,1,1) (assumed; not a race for blockDim (32,1,1)) [missing-barrier]
 *   	o[threadIdx.x] = s[63 - threadIdx.x] * N;
 *   	                 ^~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/template_not_launched.cu:50:2: note: the racing write of 's' by thread 63
 * tests/rules/missing-barrier/template_not_launched.cu:49:2: note: 's' declared here
 * tests/rules/missing-barrier/template_not_launched.cu:51:19: note: add __syncthreads() between the two accesses
 * check-output-end
 */

// A helper whose barrier is optional (`bool sync = true`, a library's
// store-to-shared helper), called under a thread-dependent condition with
// `false`: inlined with that constant, its `if (sync)` never runs the
// barrier, so nothing diverges. Before, the arm was walked as if it might
// run. The twins pass true, or a kernel parameter the call cannot decide,
// and stay reported. The same holds for a test that repeats a guard in
// force (the same condition, nothing loaded between): its other arm never
// runs, and a barrier there is dead, not divergent; its twin tests another
// condition and stays reported.
#include <cuda_runtime.h>

__device__ void store_row(float *s, int tid, float v, bool sync = true)
{
	s[tid] = v;
	if (sync)
		__syncthreads();
}

__global__ void helper_without_sync(const float *in, float *o)
{
	__shared__ float s[256];
	store_row(s, threadIdx.x, in[threadIdx.x]);
	if (threadIdx.x < 32)
		store_row(s, threadIdx.x + 224, in[threadIdx.x] * 2, false);
	__syncthreads();
	o[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void helper_with_sync_twin(const float *in, float *o)
{
	__shared__ float s[256];
	if (threadIdx.x < 32)
		store_row(s, threadIdx.x, in[threadIdx.x], true);
	__syncthreads();
	o[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void helper_param_sync_twin(const float *in, float *o, bool sync)
{
	__shared__ float s[256];
	if (threadIdx.x < 32)
		store_row(s, threadIdx.x, in[threadIdx.x], sync);
	__syncthreads();
	o[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void repeated_guard(const float *in, float *o)
{
	__shared__ float s[256];
	if (threadIdx.x < 32) {
		s[threadIdx.x] = in[threadIdx.x];
		if (threadIdx.x < 32)
			s[threadIdx.x + 32] = in[threadIdx.x];
		else
			__syncthreads();
	}
	__syncthreads();
	o[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void repeated_guard_twin(const float *in, float *o)
{
	__shared__ float s[256];
	if (threadIdx.x < 32) {
		s[threadIdx.x] = in[threadIdx.x];
		if (threadIdx.x < 16)
			s[threadIdx.x + 32] = in[threadIdx.x];
		else
			__syncthreads();
	}
	__syncthreads();
	o[threadIdx.x] = s[255 - threadIdx.x];
}

void run(const float *in, float *o, bool sync)
{
	repeated_guard<<<4, 256>>>(in, o);
	repeated_guard_twin<<<4, 256>>>(in, o);
	helper_without_sync<<<4, 256>>>(in, o);
	helper_with_sync_twin<<<4, 256>>>(in, o);
	helper_param_sync_twin<<<4, 256>>>(in, o, sync);
}

/*
 * check-output-start
 * tests/rules/divergent-barrier/callsite_constant.cu:16:3: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'threadIdx.x < 32' in 'store_row' called from kernel 'helper_param_sync_twin' at line 42 at the launch on line 81 [divergent-barrier]
 *   		__syncthreads();
 *   		^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/callsite_constant.cu:41:6: note: thread-dependent condition 'threadIdx.x < 32'
 * tests/rules/divergent-barrier/callsite_constant.cu:16:3: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/callsite_constant.cu:16:3: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'threadIdx.x < 32' in 'store_row' called from kernel 'helper_with_sync_twin' at line 33 at the launch on line 80 [divergent-barrier]
 *   		__syncthreads();
 *   		^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/callsite_constant.cu:32:6: note: thread-dependent condition 'threadIdx.x < 32'
 * tests/rules/divergent-barrier/callsite_constant.cu:16:3: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/callsite_constant.cu:69:4: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'threadIdx.x < 16' in kernel 'repeated_guard_twin' at the launch on line 78 [divergent-barrier]
 *   			__syncthreads();
 *   			^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/callsite_constant.cu:66:7: note: thread-dependent condition 'threadIdx.x < 16'
 * tests/rules/divergent-barrier/callsite_constant.cu:69:4: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * check-output-end
 */

// Values every thread of a block computes alike, written in the ways real
// extensions and renderers write them, each judged per thread before (a
// barrier under them was called divergent):
//  - a pointer parameter tested against nullptr (an optional bias);
//  - an element of a pointer held in a parameter struct, at a block-uniform
//    index (`p.cnt[blockIdx.z]`), and the same through a reference to a
//    struct in global memory (`const P &q = pp[blockIdx.z]; q.done[...]`);
//  - a parameter updated in place (`n /= 4`), as `n = n / 4` already was.
// Each has a twin that reads the thread and stays reported.
#include <cuda_runtime.h>

struct P {
	const int *cnt;
	int lim;
	const bool *done;
	int caps[4];
};

// an array member of a parameter struct, at a uniform index (a renderer's
// per-image parameters), and its twin at a thread's index
__global__ void member_array(P p, float *o)
{
	__shared__ float s[256];
	if (p.caps[blockIdx.z & 3] > p.lim)
		return;
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	o[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void member_array_twin(P p, float *o)
{
	__shared__ float s[256];
	if (p.caps[threadIdx.x & 3] > p.lim)
		return;
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	o[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void optional_bias(const float *bias, float *o)
{
	__shared__ float s[256];
	if (bias != nullptr) {
		s[threadIdx.x] = bias[threadIdx.x];
		__syncthreads();
		o[threadIdx.x] = s[255 - threadIdx.x];
	}
}

__global__ void optional_bias_twin(const float *bias, float *o)
{
	__shared__ float s[256];
	if (bias != nullptr && bias[threadIdx.x] > 0.0f) {
		s[threadIdx.x] = bias[threadIdx.x];
		__syncthreads();
		o[threadIdx.x] = s[255 - threadIdx.x];
	}
}

__global__ void member_count(P p, float *o)
{
	__shared__ float s[256];
	if (p.cnt[blockIdx.z] > p.lim)
		return;
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	o[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void member_count_twin(P p, float *o)
{
	__shared__ float s[256];
	if (p.cnt[threadIdx.x] > p.lim)
		return;
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	o[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void through_reference(const P *pp, float *o)
{
	__shared__ float s[256];
	const P &q = pp[blockIdx.z];
	if (q.done[blockIdx.y])
		return;
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	o[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void through_reference_twin(const P *pp, float *o)
{
	__shared__ float s[256];
	const P &q = pp[blockIdx.z];
	if (q.done[threadIdx.x])
		return;
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	o[threadIdx.x] = s[255 - threadIdx.x];
}

__global__ void divided_bound(float *g, int n)
{
	__shared__ float s[256];
	n /= 4;
	for (int w = 0; w < n; w += 256) {
		s[threadIdx.x] = g[w + threadIdx.x];
		__syncthreads();
		g[w + threadIdx.x] = s[255 - threadIdx.x];
		__syncthreads();
	}
}

__global__ void divided_bound_twin(float *g, int n)
{
	__shared__ float s[256];
	n /= threadIdx.x + 1;
	for (int w = 0; w < n; w += 256) {
		s[threadIdx.x] = g[w + threadIdx.x];
		__syncthreads();
		g[w + threadIdx.x] = s[255 - threadIdx.x];
		__syncthreads();
	}
}

void run(const float *b, float *o, P p, const P *pp, int n)
{
	member_array<<<4, 256>>>(p, o);
	member_array_twin<<<4, 256>>>(p, o);
	optional_bias<<<4, 256>>>(b, o);
	optional_bias_twin<<<4, 256>>>(b, o);
	member_count<<<4, 256>>>(p, o);
	member_count_twin<<<4, 256>>>(p, o);
	through_reference<<<4, 256>>>(pp, o);
	through_reference_twin<<<4, 256>>>(pp, o);
	divided_bound<<<4, 256>>>(o, n);
	divided_bound_twin<<<4, 256>>>(o, n);
}

/*
 * check-output-start
 * tests/rules/divergent-barrier/uniform_params.cu:37:2: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'p.caps[threadIdx.x & 3] > p.lim') in kernel 'member_array_twin' at every launch [divergent-barrier]
 *   	__syncthreads();
 *   	^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_params.cu:34:6: note: thread-dependent condition 'p.caps[threadIdx.x & 3] > p.lim'
 * tests/rules/divergent-barrier/uniform_params.cu:35:3: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/uniform_params.cu:37:2: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * tests/rules/divergent-barrier/uniform_params.cu:56:3: error: divergent barrier: '__syncthreads()' is under thread-dependent condition 'bias != nullptr && bias[threadIdx.x] > 0.0f' in kernel 'optional_bias_twin' at every launch [divergent-barrier]
 *   		__syncthreads();
 *   		^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_params.cu:54:6: note: thread-dependent condition 'bias != nullptr && bias[threadIdx.x] > 0.0f'
 * tests/rules/divergent-barrier/uniform_params.cu:56:3: note: threads for which the condition differs never reach it; make the condition uniform across the block or move the barrier out of it
 * tests/rules/divergent-barrier/uniform_params.cu:77:2: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'p.cnt[threadIdx.x] > p.lim') in kernel 'member_count_twin' at every launch [divergent-barrier]
 *   	__syncthreads();
 *   	^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_params.cu:74:6: note: thread-dependent condition 'p.cnt[threadIdx.x] > p.lim'
 * tests/rules/divergent-barrier/uniform_params.cu:75:3: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/uniform_params.cu:77:2: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * tests/rules/divergent-barrier/uniform_params.cu:99:2: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'q.done[threadIdx.x]') in kernel 'through_reference_twin' at every launch [divergent-barrier]
 *   	__syncthreads();
 *   	^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_params.cu:96:6: note: thread-dependent condition 'q.done[threadIdx.x]'
 * tests/rules/divergent-barrier/uniform_params.cu:97:3: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/uniform_params.cu:99:2: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * tests/rules/divergent-barrier/uniform_params.cu:121:3: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 'w < n') in kernel 'divided_bound_twin' at every launch (and 1 more barrier after it) [divergent-barrier]
 *   		__syncthreads();
 *   		^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_params.cu:119:18: note: thread-dependent condition 'w < n'
 * tests/rules/divergent-barrier/uniform_params.cu:123:3: note: '__syncthreads()', made divergent by the same condition
 * tests/rules/divergent-barrier/uniform_params.cu:121:3: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * check-output-end
 */

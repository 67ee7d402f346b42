// Two more values every thread of a block computes alike:
//  - a member of an element of a global array at a block-uniform index
//    (`box[blockIdx.x].nn`, a neighbour list's count), read in a loop
//    bound: every thread loads the same address;
//  - threadIdx.y where every launch of the kernel is one thread tall
//    (`int m = blockIdx.y + threadIdx.y` under dim3(32, 1)): it is 0.
// Before, both were taken per thread and the barrier after them called
// divergent. The twins read the thread (box[threadIdx.x]), launch two
// rows, or have no launch that fixes y, and stay reported.
#include <cuda_runtime.h>

struct Box {
	int nn;
	int first;
};

__global__ void element_member(const Box *box, float *o)
{
	__shared__ float s[64];
	for (int k = 0; k < 1 + box[blockIdx.x].nn; k++) {
		s[threadIdx.x] = k;
		__syncthreads();
		o[threadIdx.x] += s[63 - threadIdx.x];
		__syncthreads();
	}
}

__global__ void element_member_twin(const Box *box, float *o)
{
	__shared__ float s[64];
	for (int k = 0; k < 1 + box[threadIdx.x].nn; k++) {
		s[threadIdx.x] = k;
		__syncthreads();
		o[threadIdx.x] += s[63 - threadIdx.x];
		__syncthreads();
	}
}

__global__ void one_row(float *o, int rows)
{
	__shared__ float s[32];
	int m = blockIdx.y + threadIdx.y;
	if (m >= rows)
		return;
	s[threadIdx.x] = 1;
	__syncthreads();
	o[threadIdx.x] = s[31 - threadIdx.x];
}

__global__ void two_rows_twin(float *o, int rows)
{
	__shared__ float s[64];
	int m = blockIdx.y * 2 + threadIdx.y;
	if (m >= rows)
		return;
	s[threadIdx.y * 32 + threadIdx.x] = 1;
	__syncthreads();
	o[threadIdx.x] = s[63 - threadIdx.x];
}

// no launch in the file: y is not known to be 1
__global__ void unlaunched_twin(float *o, int rows)
{
	__shared__ float s[32];
	int m = blockIdx.y + threadIdx.y;
	if (m >= rows)
		return;
	s[threadIdx.x] = 1;
	__syncthreads();
	o[threadIdx.x] = s[31 - threadIdx.x];
}

void run(const Box *b, float *o, int n)
{
	element_member<<<16, 64>>>(b, o);
	element_member_twin<<<16, 64>>>(b, o);
	one_row<<<dim3(1, n), dim3(32, 1)>>>(o, n);
	two_rows_twin<<<dim3(1, n), dim3(32, 2)>>>(o, n);
}

/*
 * check-output-start
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:33:3: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 'k < 1 + box[threadIdx.x].nn') in kernel 'element_member_twin' at every launch (and 1 more barrier after it) [divergent-barrier]
 *   		__syncthreads();
 *   		^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:31:18: note: thread-dependent condition 'k < 1 + box[threadIdx.x].nn'
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:35:3: note: '__syncthreads()', made divergent by the same condition
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:33:3: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:57:2: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'm >= rows') in kernel 'two_rows_twin' at every launch [divergent-barrier]
 *   	__syncthreads();
 *   	^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:54:6: note: thread-dependent condition 'm >= rows'
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:55:3: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:57:2: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:68:2: note: benign race: threads write the same constant to 's': thread (0,0) writes s[0], which thread (0,1) also writes in the same statement, threads of different warps (the value is the same whichever write lands) in kernel 'unlaunched_twin' with blockDim (32,8,1) (assumed: no launch site, __launch_bounds__ or --block-dim gives it) [same-value-write]
 *   	s[threadIdx.x] = 1;
 *   	^~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:68:2: note: the same constant written by thread (0,1)
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:64:2: note: 's' declared here
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:68:2: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:69:2: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'm >= rows') in kernel 'unlaunched_twin' at every launch [divergent-barrier]
 *   	__syncthreads();
 *   	^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:66:6: note: thread-dependent condition 'm >= rows'
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:67:3: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/uniform_shapes_loads.cu:69:2: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * check-output-end
 */

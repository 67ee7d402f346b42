// One thread chosen by a value every thread reads alike: `if (threadIdx.x
// == owner)` with the owner loaded from one shared address after a barrier
// (a scan's last valid thread), or passed as a parameter. Only the thread
// whose index equals the value runs the store, so no two threads write.
// Before, the value was taken as any per-thread unknown, and threads 0 and
// 32 were both let through. The twins keep a value that differs between
// threads (an element indexed by the thread), or a test two threads pass
// alike (the lane against the owner), and stay reported.
#include <cuda_runtime.h>

struct Smem {
	int last;
	float carry[16];
};

__global__ void loaded_owner(const int *len, float *o)
{
	__shared__ int last;
	__shared__ float carry[16];
	if (threadIdx.x == 0)
		last = min(len[blockIdx.x], 128) - 1;
	__syncthreads();
	const int owner = last;
	if (threadIdx.x == owner)
		carry[0] = o[threadIdx.x];
	__syncthreads();
	o[threadIdx.x] = carry[0];
}

// the same through a struct laid over dynamic shared memory
__global__ void struct_owner(const int *len, float *o)
{
	extern __shared__ char raw[];
	Smem &sm = *reinterpret_cast<Smem *>(raw);
	if (threadIdx.x == 0)
		sm.last = len[blockIdx.x] % 128;
	__syncthreads();
	if (sm.last == threadIdx.x)
		sm.carry[1] = o[threadIdx.x];
	__syncthreads();
	o[threadIdx.x] = sm.carry[1];
}

__global__ void param_owner(float *o, int who)
{
	__shared__ float carry[16];
	if (threadIdx.x == who)
		carry[2] = o[threadIdx.x];
	__syncthreads();
	o[threadIdx.x] = carry[2];
}

// twin: each thread reads its own element, so many may match
__global__ void per_thread_owner_twin(const int *len, float *o)
{
	__shared__ int last[128];
	__shared__ float carry[16];
	last[threadIdx.x] = len[threadIdx.x];
	__syncthreads();
	if (threadIdx.x == last[threadIdx.x])
		carry[0] = o[threadIdx.x];
	__syncthreads();
	o[threadIdx.x] = carry[0];
}

// twin: the lane of every warp matches the same owner
__global__ void lane_owner_twin(const int *len, float *o)
{
	__shared__ int last;
	__shared__ float carry[16];
	if (threadIdx.x == 0)
		last = len[blockIdx.x] % 32;
	__syncthreads();
	if (threadIdx.x % 32 == last)
		carry[0] = o[threadIdx.x];
	__syncthreads();
	o[threadIdx.x] = carry[0];
}

void run(const int *len, float *o, int who)
{
	loaded_owner<<<4, 128>>>(len, o);
	struct_owner<<<4, 128, sizeof(Smem)>>>(len, o);
	param_owner<<<4, 128>>>(o, who);
	per_thread_owner_twin<<<4, 128>>>(len, o);
	lane_owner_twin<<<4, 128>>>(len, o);
}

/*
 * check-output-start
 * tests/rules/missing-barrier/one_owner.cu:61:3: error: missing barrier: write-after-write race on 'carry': thread 0 writes carry[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'per_thread_owner_twin' with blockDim (128,1,1) from the launch on line 85 [missing-barrier]
 *   		carry[0] = o[threadIdx.x];
 *   		^~~~~~~~
 * tests/rules/missing-barrier/one_owner.cu:61:3: note: the racing write of 'carry' by thread 32
 * tests/rules/missing-barrier/one_owner.cu:57:2: note: 'carry' declared here
 * tests/rules/missing-barrier/one_owner.cu:61:3: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/one_owner.cu:75:3: error: missing barrier: write-after-write race on 'carry': thread 0 writes carry[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'lane_owner_twin' with blockDim (128,1,1) from the launch on line 86 [missing-barrier]
 *   		carry[0] = o[threadIdx.x];
 *   		^~~~~~~~
 * tests/rules/missing-barrier/one_owner.cu:75:3: note: the racing write of 'carry' by thread 32
 * tests/rules/missing-barrier/one_owner.cu:70:2: note: 'carry' declared here
 * tests/rules/missing-barrier/one_owner.cu:75:3: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * check-output-end
 */

// The lane read from PTX's special register, as sorting and scan libraries
// write it: `asm("mov.u32 %0, %%laneid;" : "=r"(id))`. It is the thread's
// lane (linear id % 32), not an unknown per thread. 'per_warp' stores one
// slot per warp from lane 0 alone: no race (it was reported as lanes 0
// and 1 both writing the slot). 'skip_lane0' adds the left neighbour in
// every lane but lane 0: no thread reads across a warp boundary (it was
// reported as thread 32 reading s[31] while thread 31 writes it), but
// within a warp lane 2 reads s[1] while lane 1 rewrites it with no
// __syncwarp: that race stays. 'two_lanes', the twin of 'per_warp' where
// lanes 0 and 1 both store into the slot, stays reported.
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned lane_id()
{
	unsigned id;
	asm("mov.u32 %0, %%laneid;" : "=r"(id));
	return id;
}

__global__ void per_warp(unsigned *out, const unsigned *in)
{
	__shared__ unsigned s[8];
	unsigned v = in[threadIdx.x];
	if (lane_id() == 0)
		s[threadIdx.x >> 5] = v;
	__syncthreads();
	out[threadIdx.x] = s[threadIdx.x & 7];
}

__global__ void two_lanes(unsigned *out, const unsigned *in)
{
	__shared__ unsigned s[8];
	unsigned v = in[threadIdx.x];
	if (lane_id() < 2)
		s[threadIdx.x >> 5] = v;
	__syncthreads();
	out[threadIdx.x] = s[threadIdx.x & 7];
}

__global__ void skip_lane0(unsigned *out, const unsigned *in)
{
	__shared__ unsigned s[256];
	s[threadIdx.x] = in[threadIdx.x];
	__syncthreads();
	if (lane_id())
		s[threadIdx.x] += s[threadIdx.x - 1];
	__syncthreads();
	out[threadIdx.x] = s[threadIdx.x];
}

void run(unsigned *o, const unsigned *i)
{
	per_warp<<<1, 256>>>(o, i);
	two_lanes<<<1, 256>>>(o, i);
	skip_lane0<<<1, 256>>>(o, i);
}

/*
 * check-output-start
 * tests/rules/warp-sync/laneid_asm.cu:35:3: warning: unsynchronized warp exchange on 's': lane 0 of warp 0 writes s[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'two_lanes' with blockDim (256,1,1) from the launch on line 54 [warp-sync]
 *   		s[threadIdx.x >> 5] = v;
 *   		^~~~~~~~~~~~~~~~~~~
 * tests/rules/warp-sync/laneid_asm.cu:35:3: note: the other lane's write of 's'
 * tests/rules/warp-sync/laneid_asm.cu:32:2: note: 's' declared here
 * tests/rules/warp-sync/laneid_asm.cu:35:3: note: let one lane write it, or give each lane its own element
 * tests/rules/warp-sync/laneid_asm.cu:46:3: warning: unsynchronized warp exchange on 's': lane 1 of warp 0 overwrites s[1], which lane 2 read at line 46, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'skip_lane0' with blockDim (256,1,1) from the launch on line 55 [warp-sync]
 *   		s[threadIdx.x] += s[threadIdx.x - 1];
 *   		^~~~~~~~~~~~~~
 * tests/rules/warp-sync/laneid_asm.cu:46:21: note: the other lane's read of 's'
 * tests/rules/warp-sync/laneid_asm.cu:42:2: note: 's' declared here
 * tests/rules/warp-sync/laneid_asm.cu:46:3: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */

// Paths no thread runs. A condition alike in every thread of the block and
// fixed within an iteration takes one arm at every if on it, and a loop's
// counter is at its start in the first iteration: two `if (flag)` take
// both arms or neither, and `if (t == 0)` in `for (t = 0; ...)` is taken
// in the first iteration and in no later one. The race graph keeps these
// (path variables), so a barrier behind one if orders the access behind
// the other (flash attention's `if (tile_K_seqlen == 0) { wait;
// __syncthreads(); }` before the first tile's reads was 76 false
// missing-barrier findings). Different flags, a thread-dependent
// condition, `t == 1` and a flag changed between the two ifs still race.
#include <stdint.h>

#define CP_ASYNC_CG(dst, src) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src))
#define CP_ASYNC_COMMIT_GROUP() asm volatile("cp.async.commit_group;\n" ::)
#define CP_ASYNC_WAIT_GROUP(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))

// clean: both arms or neither
__global__ void same_flag(float *out, int flag)
{
	__shared__ float s[256];
	s[threadIdx.x] = out[threadIdx.x];
	if (flag)
		__syncthreads();
	if (flag)
		out[threadIdx.x] = s[255 - threadIdx.x];
}

// clean: the first iteration takes the barrier
__global__ void first_tile(float *out, int n)
{
	__shared__ float s[256];
	s[threadIdx.x] = out[threadIdx.x];
	for (int t = 0; t < n; ++t) {
		if (t == 0)
			__syncthreads();
		out[t * 256 + threadIdx.x] = s[255 - threadIdx.x];
	}
}

// clean: only the first iteration writes, and a barrier follows it
__global__ void later_tiles(float *out, int n)
{
	__shared__ float s[256];
	for (int t = 0; t < n; ++t) {
		if (t == 0) {
			s[threadIdx.x] = out[threadIdx.x];
			__syncthreads();
		}
		out[t * 256 + threadIdx.x] = s[255 - threadIdx.x];
	}
}

// clean: the tile copied before the loop, waited for at the first tile
// (after an inner loop of copies), read by every tile
__global__ void prefetch_first(const uint4 *g, uint4 *out, int ntiles)
{
	__shared__ __align__(16) uint4 q[256];
	__shared__ __align__(16) uint4 k[2][256];
	int t = threadIdx.x;
	CP_ASYNC_CG((uint32_t)__cvta_generic_to_shared(&q[t]), &g[t]);
	CP_ASYNC_COMMIT_GROUP();
	for (int tile = 0; tile < ntiles; ++tile) {
		if (tile == 0) {
			for (int i = 0; i < 2; ++i)
				CP_ASYNC_CG((uint32_t)__cvta_generic_to_shared(&k[i][t]), &g[256 + i * 256 + t]);
			CP_ASYNC_COMMIT_GROUP();
			CP_ASYNC_WAIT_GROUP(0);
			__syncthreads();
		}
		uint4 a = q[255 - t];
		if (tile == 0)
			a = k[1][255 - t];
		out[tile * 256 + t] = a;
	}
}

// races: the barrier waits for `flag`, the read for `other`
__global__ void two_flags(float *out, int flag, int other)
{
	__shared__ float s[256];
	s[threadIdx.x] = out[threadIdx.x];
	if (flag)
		__syncthreads();
	if (other)
		out[threadIdx.x] = s[255 - threadIdx.x];
}

// races: the flag changes between the two ifs
__global__ void flag_changed(float *out, int flag)
{
	__shared__ float s[256];
	s[threadIdx.x] = out[threadIdx.x];
	if (flag)
		__syncthreads();
	flag = !flag;
	if (flag)
		out[threadIdx.x] = s[255 - threadIdx.x];
}

// races: the first tile reads before any barrier (t == 1 takes it later)
__global__ void second_tile(float *out, int n)
{
	__shared__ float s[256];
	s[threadIdx.x] = out[threadIdx.x];
	for (int t = 0; t < n; ++t) {
		if (t == 1)
			__syncthreads();
		out[t * 256 + threadIdx.x] = s[255 - threadIdx.x];
	}
}

// races: a thread-dependent condition splits the block between the arms
__global__ void by_thread(float *out)
{
	__shared__ float s[256];
	if (threadIdx.x < 128)
		s[threadIdx.x] = out[threadIdx.x];
	if (threadIdx.x >= 128)
		out[threadIdx.x] = s[threadIdx.x - 128];
}

void launch(float *p, const uint4 *g, uint4 *o, int a, int b)
{
	same_flag<<<1, 256>>>(p, a);
	first_tile<<<1, 256>>>(p, a);
	later_tiles<<<1, 256>>>(p, a);
	prefetch_first<<<1, 256>>>(g, o, a);
	two_flags<<<1, 256>>>(p, a, b);
	flag_changed<<<1, 256>>>(p, a);
	second_tile<<<1, 256>>>(p, a);
	by_thread<<<1, 256>>>(p);
}

/*
 * check-output-start
 * tests/rules/missing-barrier/uniform_paths.cu:85:22: error: missing barrier: read-after-write race on 's': thread 0 reads s[255], which thread 255 wrote at line 81, with no __syncthreads() in between (different warps) in kernel 'two_flags' with blockDim (256,1,1) from the launch on line 128 [missing-barrier]
 *   		out[threadIdx.x] = s[255 - threadIdx.x];
 *   		                   ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/uniform_paths.cu:81:2: note: the racing write of 's' by thread 255
 * tests/rules/missing-barrier/uniform_paths.cu:80:2: note: 's' declared here
 * tests/rules/missing-barrier/uniform_paths.cu:85:22: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/uniform_paths.cu:97:22: error: missing barrier: read-after-write race on 's': thread 0 reads s[255], which thread 255 wrote at line 92, with no __syncthreads() in between (different warps) in kernel 'flag_changed' with blockDim (256,1,1) from the launch on line 129 [missing-barrier]
 *   		out[threadIdx.x] = s[255 - threadIdx.x];
 *   		                   ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/uniform_paths.cu:92:2: note: the racing write of 's' by thread 255
 * tests/rules/missing-barrier/uniform_paths.cu:91:2: note: 's' declared here
 * tests/rules/missing-barrier/uniform_paths.cu:97:22: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/uniform_paths.cu:108:32: error: missing barrier: read-after-write race on 's': thread 0 reads s[255], which thread 255 wrote at line 104, with no __syncthreads() in between (different warps) in kernel 'second_tile' with blockDim (256,1,1) from the launch on line 130 [missing-barrier]
 *   		out[t * 256 + threadIdx.x] = s[255 - threadIdx.x];
 *   		                             ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/uniform_paths.cu:104:2: note: the racing write of 's' by thread 255
 * tests/rules/missing-barrier/uniform_paths.cu:103:2: note: 's' declared here
 * tests/rules/missing-barrier/uniform_paths.cu:108:32: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/uniform_paths.cu:119:22: error: missing barrier: read-after-write race on 's': thread 128 reads s[0], which thread 0 wrote at line 117, with no __syncthreads() in between (different warps) in kernel 'by_thread' with blockDim (256,1,1) from the launch on line 131 [missing-barrier]
 *   		out[threadIdx.x] = s[threadIdx.x - 128];
 *   		                   ^~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/uniform_paths.cu:117:3: note: the racing write of 's' by thread 0
 * tests/rules/missing-barrier/uniform_paths.cu:115:2: note: 's' declared here
 * tests/rules/missing-barrier/uniform_paths.cu:119:22: note: add __syncthreads() between the two accesses
 * check-output-end
 */

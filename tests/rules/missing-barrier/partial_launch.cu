// A launch shape partly known: the host fixes some dimensions and computes
// the others at run time. What it fixes is kept and only the rest is
// assumed (the finding says which). 'column_stencil' is launched
// `dim3 block(1, cols)` (a benchmark suite's stencil): x is 1, so each
// thread owns its column, and there is no race (at an assumed 32x8 there
// was one). Its twin 'pair_stencil', launched (2, cols), has two threads a
// row whose halo rows overlap: that race stays. 'fields' gets its block
// one field at a time (`dim3 f; f.x = 32; f.y = 4;`): a known 32x4 launch,
// with its 32-way column read. 'fields_maybe' sets y only under a
// condition: y is not known, and x alone is kept.
#include <cuda_runtime.h>

__global__ void column_stencil(float *d, int n)
{
	extern __shared__ float sh[];
	int r = threadIdx.x, c = threadIdx.y, w = blockDim.y;
	for (int i = 0; i < n + 2; i++)
		sh[(r + i) * (w + 2) + c + 1] = d[i * w + c];
	__syncthreads();
	d[c] = sh[c + 1];
}

__global__ void pair_stencil(float *d, int n)
{
	extern __shared__ float sh[];
	int r = threadIdx.x, c = threadIdx.y, w = blockDim.y;
	for (int i = 0; i < n + 2; i++)
		sh[(r + i) * (w + 2) + c + 1] = d[i * w + c];
	__syncthreads();
	d[c] = sh[c + 1];
}

__global__ void fields(float *o)
{
	__shared__ float s[32][32];
	s[threadIdx.y][threadIdx.x] = threadIdx.x;
	__syncthreads();
	o[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
}

__global__ void fields_maybe(float *o)
{
	__shared__ float s[32][32];
	s[threadIdx.y][threadIdx.x] = threadIdx.x;
	__syncthreads();
	o[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
}

void run(float *d, int n, int cols, bool big)
{
	dim3 block(1, cols);
	column_stencil<<<1, block, 4096>>>(d, n);
	dim3 pairs(2, cols);
	pair_stencil<<<1, pairs, 4096>>>(d, n);
	dim3 f;
	f.x = 32;
	f.y = 4;
	fields<<<1, f>>>(d);
	dim3 g(32, 8);
	if (big)
		g.y = 16;
	fields_maybe<<<1, g>>>(d);
}

/*
 * check-output-start
 * tests/rules/missing-barrier/partial_launch.cu:28:3: warning: 2-way bank conflict on store of 'sh' (float[]) in kernel 'pair_stencil' with blockDim (2,256,1) (assumed: the launch fixes blockDim.x and z and computes y at run time, and no __launch_bounds__ or --block-dim gives it); lanes 1 and 4 of warp 0 hit bank 3 (byte offsets 1036 and 12) [bank-conflict]
 *   		sh[(r + i) * (w + 2) + c + 1] = d[i * w + c];
 *   		^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/partial_launch.cu:25:2: note: 'sh' declared here
 * tests/rules/missing-barrier/partial_launch.cu:28:3: warning: unsynchronized warp exchange on 'sh': lane 0 of warp 0 writes sh[259], which lane 1 wrote at line 28 in the previous iteration, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'pair_stencil' with blockDim (2,256,1) (assumed: the launch fixes blockDim.x and z and computes y at run time, and no __launch_bounds__ or --block-dim gives it; also a race for the 4 other block shapes tried, 64 to 1024 threads) [warp-sync]
 *   		sh[(r + i) * (w + 2) + c + 1] = d[i * w + c];
 *   		^~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/partial_launch.cu:28:3: note: the other lane's write of 'sh'
 * tests/rules/missing-barrier/partial_launch.cu:25:2: note: 'sh' declared here
 * tests/rules/missing-barrier/partial_launch.cu:28:3: note: add __syncwarp() between the write and the access that depends on it
 * tests/rules/missing-barrier/partial_launch.cu:38:38: warning: 32-way bank conflict on load of 's' (float[32][32]) in kernel 'fields' with blockDim (32,4,1) from the launch on line 58; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *   	o[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
 *   	                                    ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/partial_launch.cu:35:2: note: 's' declared here
 * tests/rules/missing-barrier/partial_launch.cu:38:38: note: declare 's' as `float s[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free
 * fix-it:"tests/rules/missing-barrier/partial_launch.cu":{35:20-35:28}:"[32][33]"
 * tests/rules/missing-barrier/partial_launch.cu:46:38: warning: 32-way bank conflict on load of 's' (float[32][32]) in kernel 'fields_maybe' with blockDim (32,32,1) (assumed: the launch fixes blockDim.x and z and computes y at run time, and no __launch_bounds__ or --block-dim gives it); lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *   	o[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.x][threadIdx.y];
 *   	                                    ^~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/partial_launch.cu:43:2: note: 's' declared here
 * tests/rules/missing-barrier/partial_launch.cu:46:38: note: declare 's' as `float s[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free
 * fix-it:"tests/rules/missing-barrier/partial_launch.cu":{43:20-43:28}:"[32][33]"
 * check-output-end
 */

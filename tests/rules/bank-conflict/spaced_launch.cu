// A launch written `k << <grid, block >> > (...)`, as clang-format spells
// `<<<` in C++ mode: nvcc reads it as a launch, and so does smemlint now
// (its block shape decides the degree). Before, clang read a shift and a
// comparison, the host function was a host-code-error, and the kernel was
// analyzed under an assumed shape. The column-major read of 'tile' is
// 32-way at the 32x8 launch; in 'columns_narrow', launched (1, 32), a
// warp's lanes differ in y alone, so it is the row-major store that is
// 32-way and the read is conflict-free. A nested template's
// `>> >` and an `operator<< <T>` call are left as they are.
#include <cuda_runtime.h>

template <typename T> struct wrap { T v; };
struct sink { int n; };
template <typename T> sink &operator<<(sink &s, const T &) { return s; }

__global__ void columns(float *out)
{
	__shared__ float tile[32][32];
	tile[threadIdx.y][threadIdx.x] = threadIdx.x;
	__syncthreads();
	out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void columns_narrow(float *out)
{
	__shared__ float tile[32][32];
	tile[threadIdx.y][threadIdx.x] = threadIdx.x;
	__syncthreads();
	out[threadIdx.y] = tile[threadIdx.x][threadIdx.y];
}

void run(float *o, sink &log)
{
	wrap<wrap<int>> w{};
	wrap<wrap<wrap<int>> > nested{};
	operator<< <int>(log, w.v.v + nested.v.v.v);
	dim3 block(32, 8);
	columns << <1, block >> > (o);
	columns_narrow << < 1, dim3(1, 32) >> >(o);
}

/*
 * check-output-start
 * tests/rules/bank-conflict/spaced_launch.cu:21:40: warning: 32-way bank conflict on load of 'tile' (float[32][32]) in kernel 'columns' with blockDim (32,8,1) from the launch on line 38; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *   	out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
 *   	                                      ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/spaced_launch.cu:18:2: note: 'tile' declared here
 * tests/rules/bank-conflict/spaced_launch.cu:21:40: note: declare 'tile' as `float tile[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free
 * fix-it:"tests/rules/bank-conflict/spaced_launch.cu":{18:23-18:31}:"[32][33]"
 * tests/rules/bank-conflict/spaced_launch.cu:27:2: warning: 32-way bank conflict on store of 'tile' (float[32][32]) in kernel 'columns_narrow' with blockDim (1,32,1) from the launch on line 39; lanes 0 and 1 of warp 0 hit bank 0 (byte offsets 0 and 128) [bank-conflict]
 *   	tile[threadIdx.y][threadIdx.x] = threadIdx.x;
 *   	^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/bank-conflict/spaced_launch.cu:26:2: note: 'tile' declared here
 * tests/rules/bank-conflict/spaced_launch.cu:27:2: note: declare 'tile' as `float tile[32][33]`: +128 bytes per block (4096 -> 4224 bytes of static shared memory); 1 of 1 conflicting accesses become conflict-free
 * fix-it:"tests/rules/bank-conflict/spaced_launch.cu":{26:23-26:31}:"[32][33]"
 * check-output-end
 */

// missing-barrier: bulk copies out of shared memory (the TMA store) and
// the proxy fence the threads' writes need before it. Reported: a fence
// on one arm of a branch only (fence_one_arm: the other arm's path has
// none); a cp.async wait_group does not complete a bulk group, nor a bulk
// wait a cp.async group (groups_apart: thread 0's write after
// cp.async.wait_group 0, before any bulk wait); a fence written for the
// global state space (fence_global). Clean: the fence in a helper on
// every path (fence_helper), a wait that keeps the newest bulk group in
// flight while an older tile is rewritten (two_buffers), and the bulk
// copy of another array than the one written (other_array). Bundled
// declarations (--no-cuda).
__device__ __forceinline__ unsigned smem(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void store_tile(float *dst, const float *tile)
{
	asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 512;" ::"l"(dst), "r"(smem(tile)) : "memory");
	asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

__device__ __forceinline__ void fence()
{
	asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

__global__ void fence_one_arm(const float *in, float *out, int n)
{
	__shared__ alignas(128) float tile[128];
	int t = threadIdx.x;
	tile[t] = in[t];
	if (n > 4)
		fence();
	__syncthreads();
	if (t == 0) {
		store_tile(out, tile);
		asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
	}
}

__global__ void fence_helper(const float *in, float *out)
{
	__shared__ alignas(128) float tile[128];
	int t = threadIdx.x;
	tile[t] = in[t];
	fence();
	__syncthreads();
	if (t == 0) {
		store_tile(out, tile);
		asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
	}
}

__global__ void groups_apart(const float *in, float *out)
{
	__shared__ alignas(128) float tile[128];
	__shared__ alignas(16) float stage[128];
	int t = threadIdx.x;
	tile[t] = in[t];
	fence();
	__syncthreads();
	if (t == 0) {
		store_tile(out, tile);
		asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem(&stage[0])), "l"(in) : "memory");
		asm volatile("cp.async.commit_group;" ::: "memory");
		asm volatile("cp.async.wait_group 0;" ::: "memory");
		tile[0] = stage[0];
		asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
	}
}

__global__ void fence_global(const float *in, float *out)
{
	__shared__ alignas(128) float tile[128];
	int t = threadIdx.x;
	tile[t] = in[t];
	asm volatile("fence.proxy.async.global;" ::: "memory");
	__syncthreads();
	if (t == 0) {
		store_tile(out, tile);
		asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
	}
}

__global__ void two_buffers(const float *in, float *out)
{
	__shared__ alignas(128) float a[128];
	__shared__ alignas(128) float b[128];
	int t = threadIdx.x;
	a[t] = in[t];
	fence();
	__syncthreads();
	if (t == 0)
		store_tile(out, a);
	b[t] = in[128 + t];
	fence();
	__syncthreads();
	if (t == 0) {
		store_tile(out + 128, b);
		asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
		a[0] = 0.0f;
		asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
	}
}

__global__ void other_array(const float *in, float *out)
{
	__shared__ alignas(128) float tile[128];
	__shared__ float scratch[128];
	int t = threadIdx.x;
	tile[t] = in[t];
	fence();
	__syncthreads();
	scratch[t] = 2.0f * tile[127 - t];
	if (t == 0) {
		store_tile(out, tile);
		asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
	}
	out[128 + t] = scratch[t];
}

void launch(const float *in, float *out)
{
	fence_one_arm<<<1, 128>>>(in, out, 3);
	fence_helper<<<1, 128>>>(in, out);
	groups_apart<<<1, 128>>>(in, out);
	fence_global<<<1, 128>>>(in, out);
	two_buffers<<<1, 128>>>(in, out);
	other_array<<<1, 128>>>(in, out);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/bulk_store_proxy.cu:19:1: error: missing proxy fence: bulk copy out of 'tile' may read stale bytes: the bulk copy (cp.async.bulk) thread 0 issues reads tile[0], which thread 0 wrote at line 77 through the generic proxy, with no fence.proxy.async between the write and the copy (a __syncthreads() orders the threads, not the generic and async proxies) in 'store_tile' called from kernel 'fence_global' at line 81 with blockDim (128,1,1) from the launch on line 128 [missing-barrier]
 *   	asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 512;" ::"l"(dst), "r"(smem(tile)) : "memory");
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/bulk_store_proxy.cu:77:2: note: the generic-proxy write of 'tile' by thread 0
 * tests/rules/missing-barrier/bulk_store_proxy.cu:75:2: note: 'tile' declared here
 * tests/rules/missing-barrier/bulk_store_proxy.cu:19:1: note: after the writes, before the __syncthreads() that hands the tile to the issuing thread: asm volatile("fence.proxy.async.shared::cta;") (cuda::ptx::fence_proxy_async(cuda::ptx::space_shared))
 * tests/rules/missing-barrier/bulk_store_proxy.cu:19:1: error: missing proxy fence: bulk copy out of 'tile' may read stale bytes: the bulk copy (cp.async.bulk) thread 0 issues reads tile[0], which thread 0 wrote at line 32 through the generic proxy, with no fence.proxy.async between the write and the copy (a __syncthreads() orders the threads, not the generic and async proxies) in 'store_tile' called from kernel 'fence_one_arm' at line 37 with blockDim (128,1,1) from the launch on line 125 [missing-barrier]
 *   	asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 512;" ::"l"(dst), "r"(smem(tile)) : "memory");
 *   ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/bulk_store_proxy.cu:32:2: note: the generic-proxy write of 'tile' by thread 0
 * tests/rules/missing-barrier/bulk_store_proxy.cu:30:2: note: 'tile' declared here
 * tests/rules/missing-barrier/bulk_store_proxy.cu:19:1: note: after the writes, before the __syncthreads() that hands the tile to the issuing thread: asm volatile("fence.proxy.async.shared::cta;") (cuda::ptx::fence_proxy_async(cuda::ptx::space_shared))
 * tests/rules/missing-barrier/bulk_store_proxy.cu:68:3: error: missing wait: write of 'tile' before its bulk copy out of shared memory has read it: thread 0 overwrites tile[0], which its own bulk copy (cp.async.bulk) at line 19 may still be reading: no cp.async.bulk.wait_group.read completes the copy's bulk group before the write in kernel 'groups_apart' with blockDim (128,1,1) from the launch on line 127 [missing-barrier]
 *   		tile[0] = stage[0];
 *   		^~~~~~~
 * tests/rules/missing-barrier/bulk_store_proxy.cu:19:1: note: the bulk copy out of 'tile' by thread 0
 * tests/rules/missing-barrier/bulk_store_proxy.cu:57:2: note: 'tile' declared here
 * tests/rules/missing-barrier/bulk_store_proxy.cu:68:3: note: wait for the copy's bulk group (cp.async.bulk.wait_group.read N, N no larger than the bulk groups committed after it) before writing its bytes
 * check-output-end
 */

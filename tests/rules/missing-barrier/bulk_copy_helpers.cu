// missing-barrier: a bulk asynchronous copy (cp.async.bulk, the non-tensor
// TMA copy) written, as real code writes it, in __device__ helpers that
// take the shared addresses as 32-bit integers (__cvta_generic_to_shared)
// and wait in a retry loop whose label is made unique with %=. The copy is
// thread 0's store of the whole tile, complete at the mbarrier's wait.
// Reported: the read behind __syncthreads() with the copy still in flight
// (tile_barrier_only) and thread 0's own read before the wait
// (tile_own_early). Clean: the read after the wait (tile_waited). A struct
// passed by value to a helper is a value, not a place (sum_pairs: the
// lanes' exchange inside add() is reported once, at the write, as for a
// scalar). Bundled declarations (--no-cuda).
struct f3 {
	float x, y, z;
};

__device__ __forceinline__ unsigned smem(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void arm_and_copy(unsigned dst, const float *src, unsigned bar)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "n"(512) : "memory");
	asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
		     ::"r"(dst), "l"(src), "n"(512), "r"(bar) : "memory");
}

__device__ __forceinline__ void wait_phase(unsigned bar)
{
	asm volatile("{\n\t.reg .pred p;\nW_%=:\n\tmbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0;\n\t"
		     "@!p bra W_%=;\n}" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void setup(unsigned bar)
{
	if (threadIdx.x == 0)
		asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
	__syncthreads();
}

__global__ void tile_waited(const float *in, float *out)
{
	__shared__ alignas(128) float tile[128];
	__shared__ alignas(8) unsigned long long bar;
	setup(smem(&bar));
	if (threadIdx.x == 0)
		arm_and_copy(smem(tile), in, smem(&bar));
	wait_phase(smem(&bar));
	out[threadIdx.x] = tile[127 - threadIdx.x];
}

__global__ void tile_barrier_only(const float *in, float *out)
{
	__shared__ alignas(128) float tile[128];
	__shared__ alignas(8) unsigned long long bar;
	setup(smem(&bar));
	if (threadIdx.x == 0)
		arm_and_copy(smem(tile), in, smem(&bar));
	__syncthreads();
	out[threadIdx.x] = tile[127 - threadIdx.x];
	wait_phase(smem(&bar));
}

__global__ void tile_own_early(const float *in, float *out)
{
	__shared__ alignas(128) float tile[128];
	__shared__ alignas(8) unsigned long long bar;
	setup(smem(&bar));
	float first = 0;
	if (threadIdx.x == 0) {
		arm_and_copy(smem(tile), in, smem(&bar));
		first = tile[5];
	}
	wait_phase(smem(&bar));
	out[threadIdx.x] = tile[threadIdx.x] + first;
}

__device__ void add(f3 &a, f3 b)
{
	a.x += b.x;
	a.y += b.y;
	a.z += b.z;
}

__global__ void sum_pairs(float *out)
{
	__shared__ f3 s[16];
	int i = threadIdx.x;
	s[i] = f3{1.0f * i, 0.0f, 0.0f};
	__syncwarp();
	add(s[i], s[i ^ 8]);
	__syncwarp();
	out[i] = s[i].x;
}

void launch(const float *in, float *out)
{
	tile_waited<<<1, 128>>>(in, out);
	tile_barrier_only<<<1, 128>>>(in, out);
	tile_own_early<<<1, 128>>>(in, out);
	sum_pairs<<<1, 16>>>(out);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/bulk_copy_helpers.cu:60:21: error: missing barrier: read-after-write race on 'tile': thread 32 reads tile[95], which thread 0 wrote at line 25, while that asynchronous copy may still be in flight: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes it before the __syncthreads() between (different warps) in kernel 'tile_barrier_only' with blockDim (128,1,1) from the launch on line 99 [missing-barrier]
 *   	out[threadIdx.x] = tile[127 - threadIdx.x];
 *   	                   ^~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/bulk_copy_helpers.cu:25:1: note: the racing write of 'tile' by thread 0
 * tests/rules/missing-barrier/bulk_copy_helpers.cu:54:2: note: 'tile' declared here
 * tests/rules/missing-barrier/bulk_copy_helpers.cu:60:21: note: wait for the copy (__pipeline_wait_prior(0), cp.async.wait_group 0, pipe.consumer_wait() or bar.arrive_and_wait()) before the __syncthreads() that publishes it
 * tests/rules/missing-barrier/bulk_copy_helpers.cu:72:11: error: missing wait: read of 'tile' before its asynchronous copy completes: thread 0 reads tile[5], which its own asynchronous copy at line 25 may still be writing: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes the copy's group before the read in kernel 'tile_own_early' with blockDim (128,1,1) from the launch on line 100 [missing-barrier]
 *   		first = tile[5];
 *   		        ^~~~~~~
 * tests/rules/missing-barrier/bulk_copy_helpers.cu:25:1: note: the asynchronous copy into 'tile' by thread 0
 * tests/rules/missing-barrier/bulk_copy_helpers.cu:66:2: note: 'tile' declared here
 * tests/rules/missing-barrier/bulk_copy_helpers.cu:72:11: note: wait for the copy's group before reading its bytes (__pipeline_wait_prior(N) or cp.async.wait_group N with N no larger than the groups committed after it, pipe.consumer_wait())
 * tests/rules/missing-barrier/bulk_copy_helpers.cu:80:2: warning: unsynchronized warp exchange on 's': lane 0 of warp 0 overwrites s[0], which lane 8 read at line 91, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in 'add' called from kernel 'sum_pairs' at line 91 with blockDim (16,1,1) from the launch on line 101 [warp-sync]
 *   	a.x += b.x;
 *   	^~~
 * tests/rules/missing-barrier/bulk_copy_helpers.cu:91:12: note: the other lane's read of 's'
 * tests/rules/missing-barrier/bulk_copy_helpers.cu:87:2: note: 's' declared here
 * tests/rules/missing-barrier/bulk_copy_helpers.cu:80:2: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */

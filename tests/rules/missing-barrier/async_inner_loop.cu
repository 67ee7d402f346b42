// A multistage GEMM's main loop: each iteration copies the next stage with
// cp.async, reads the current one in an inner loop of ldmatrix, then waits
// and synchronizes. The copies are issued before the inner loop, so they
// are not carried over the inner loop's back edge: the correct kernel is
// clean (the inner loop once made each read "the previous iteration's"
// copy, a false missing wait on every LeetCUDA multistage hgemm). With
// two stages and a wait that leaves one group in flight (LEFT = 1, where
// K_STAGE - 2 = 0 is right), the read of the stage the previous iteration
// copied is reported.
#include <stdint.h>

#define CP_ASYNC_CG(dst, src) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src))
#define CP_ASYNC_COMMIT_GROUP() asm volatile("cp.async.commit_group;\n" ::)
#define CP_ASYNC_WAIT_GROUP(n) asm volatile("cp.async.wait_group %0;\n" ::"n"(n))
#define LDMATRIX_X4(R, addr)                                                   \
	asm volatile("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];\n" \
		     : "=r"(R[0]), "=r"(R[1]), "=r"(R[2]), "=r"(R[3])           \
		     : "r"(addr))

template <int K_STAGE, int LEFT>
__global__ void stages(const uint4 *g, unsigned *out, int ntiles)
{
	__shared__ __align__(16) unsigned s[K_STAGE][1024];
	int t = threadIdx.x;
	uint32_t base = __cvta_generic_to_shared(&s[0][0]);
	CP_ASYNC_CG(base + t * 16, &g[t]);
	CP_ASYNC_COMMIT_GROUP();
	CP_ASYNC_WAIT_GROUP(0);
	__syncthreads();
	unsigned acc = 0;
	for (int k = K_STAGE - 1; k < ntiles; ++k) {
		int sel = (k + 1) % K_STAGE, next = k % K_STAGE;
		CP_ASYNC_CG(base + next * 4096 + t * 16, &g[k * 256 + t]);
		CP_ASYNC_COMMIT_GROUP();
		for (int i = 0; i < 4; ++i) {
			uint32_t r[4];
			LDMATRIX_X4(r, base + sel * 4096 + i * 1024 + (t % 32) * 16);
			acc += r[0] + r[3];
		}
		CP_ASYNC_WAIT_GROUP(LEFT);
		__syncthreads();
	}
	out[t] = acc;
}

void run(const uint4 *g, unsigned *o)
{
	stages<2, 0><<<1, 256>>>(g, o, 8);
	stages<2, 1><<<1, 256>>>(g, o, 8);
}

/*
 * check-output-start
 * tests/rules/missing-barrier/async_inner_loop.cu:37:4: error: missing barrier: read-after-write race on 's': thread 32 reads s[1][0], which thread 0 wrote at line 33 in the previous iteration, while that asynchronous copy may still be in flight: no wait (__pipeline_wait_prior, cp.async.wait_group, consumer_wait, arrive_and_wait, an mbarrier's try_wait) completes it before the __syncthreads() between (different warps) in kernel 'stages' with blockDim (256,1,1) from the launch on line 49 [missing-barrier]
 *   			LDMATRIX_X4(r, base + sel * 4096 + i * 1024 + (t % 32) * 16);
 *   			^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/async_inner_loop.cu:33:3: note: the racing write of 's' by thread 0
 * tests/rules/missing-barrier/async_inner_loop.cu:23:2: note: 's' declared here
 * tests/rules/missing-barrier/async_inner_loop.cu:37:4: note: wait for the copy (__pipeline_wait_prior(0), cp.async.wait_group 0, pipe.consumer_wait() or bar.arrive_and_wait()) before the __syncthreads() that publishes it
 * check-output-end
 */

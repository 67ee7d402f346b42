// A loop whose body ends in a barrier skipped in its last iteration only
// (ggml's fattn-vec: `if (j_VKQ < ncols-1) __syncthreads();`): the
// barrier runs whenever another iteration follows, so the next
// iteration's write of KQ never meets this iteration's read. Found
// equal by testing the condition against the loop's, for a template
// constant and for a parameter. The twin skips the barrier one iteration
// early: the last two iterations race.

template <int ncols>
__global__ void const_count(float *dst)
{
    __shared__ float KQ[512];
    for (int j = 0; j < ncols; ++j) {
        KQ[threadIdx.y * 32 + threadIdx.x] = j;
        __syncthreads();
        dst[threadIdx.x] = KQ[(threadIdx.x + 32) % 256];
        if (j < ncols - 1) {
            __syncthreads();
        }
    }
}
template __global__ void const_count<2>(float *);

__global__ void param_count(float *dst, int n)
{
    __shared__ float KQ[512];
    for (int j = 0; j < n; ++j) {
        KQ[threadIdx.y * 32 + threadIdx.x] = j;
        __syncthreads();
        dst[threadIdx.x] = KQ[(threadIdx.x + 32) % 256];
        if (j == n - 1) {
        } else {
            __syncthreads();
        }
    }
}

__global__ void one_early(float *dst, int n)
{
    __shared__ float KQ[512];
    for (int j = 0; j < n; ++j) {
        KQ[threadIdx.y * 32 + threadIdx.x] = j;
        __syncthreads();
        dst[threadIdx.x] = KQ[(threadIdx.x + 32) % 256];
        if (j + 2 < n) {
            __syncthreads();
        }
    }
}

/*
 * check-args: --block-dim 32,8
 * check-output-start
 * tests/rules/missing-barrier/last_iteration_barrier.cu:42:9: error: missing barrier: write-after-read race on 'KQ': thread (0,1) overwrites KQ[32], which thread (0,0) read at line 44 in the previous iteration, with no __syncthreads() in between (different warps) in kernel 'one_early' with blockDim (32,8,1) from --block-dim [missing-barrier]
 *           KQ[threadIdx.y * 32 + threadIdx.x] = j;
 *           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/last_iteration_barrier.cu:44:28: note: the racing read of 'KQ' by thread (0,0)
 * tests/rules/missing-barrier/last_iteration_barrier.cu:40:5: note: 'KQ' declared here
 * tests/rules/missing-barrier/last_iteration_barrier.cu:42:9: note: add __syncthreads() at the end of the loop body, before the next iteration overwrites what this one reads
 * check-output-end
 */

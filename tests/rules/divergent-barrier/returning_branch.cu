// A branch that every thread entering it leaves by a return (ggml's mmq
// stream-k fixup: `if (!ids_dst) { ... if (j > j_max) return; ...
// return; }`): which return a thread takes inside it does not matter to
// the barrier after the if, only who entered it. Under a uniform
// condition nobody skips that barrier; under a thread-dependent one the
// finding names that condition, not a return inside.

__global__ void uniform_entry(float *dst, const int *ids, int n)
{
    __shared__ int sh[256];
    const int i = threadIdx.x + blockIdx.x * 256;
    if (!ids) {
        if (i > n)
            return;
        for (int j = 0; j < 4; j++) {
            if (j + threadIdx.x > n)
                return;
            dst[j * 256 + i] = 1.0f;
        }
        return;
    }
    sh[threadIdx.x] = ids[i];
    __syncthreads();
    dst[i] = sh[255 - threadIdx.x];
}

__global__ void per_thread_entry(float *dst, const int *ids, int n)
{
    __shared__ int sh[256];
    const int i = threadIdx.x + blockIdx.x * 256;
    if (threadIdx.x < 5) {
        if (i > n)
            return;
        dst[i] = 1.0f;
        return;
    }
    sh[threadIdx.x] = ids[i];
    __syncthreads();
    dst[i] = sh[255 - threadIdx.x];
}

/*
 * check-args: --block-dim 256
 * check-output-start
 * tests/rules/divergent-barrier/returning_branch.cu:38:5: error: divergent barrier: '__syncthreads()' follows a thread-dependent 'return' (under 'threadIdx.x < 5') in kernel 'per_thread_entry' at every launch [divergent-barrier]
 *       __syncthreads();
 *       ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/returning_branch.cu:31:9: note: thread-dependent condition 'threadIdx.x < 5'
 * tests/rules/divergent-barrier/returning_branch.cu:35:9: note: the 'return' that skips the barrier
 * tests/rules/divergent-barrier/returning_branch.cu:38:5: note: threads that jumped never arrive; guard the work instead of leaving early, so every thread reaches the barrier
 * check-output-end
 */

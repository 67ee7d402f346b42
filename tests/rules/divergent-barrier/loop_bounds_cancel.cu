// A loop whose start and bound carry the same thread part runs the same
// trip count in every thread (ggml's gla.cu and wkv.cu: t from base + tid
// while t < end + tid): its barriers do not diverge (issue 23). The sides
// are compared as signed ints; with unsigned arithmetic (threadIdx.x
// itself, which wraps) or unequal thread parts the loop still diverges.

__global__ void same_thread_part(const float *in, float *o, int T, int C, int H)
{
    __shared__ float s[64];
    const int tid = threadIdx.x;
    const int b = blockIdx.x / H;
    for (int t = b * T * C + tid; t < (b + 1) * T * C + tid; t += C) {
        __syncthreads();
        s[tid] = in[t];
        __syncthreads();
        o[t] = s[63 - tid];
    }
}

// control: unsigned sides may wrap, so their order differs between threads
__global__ void unsigned_sides(const float *in, unsigned n, unsigned m)
{
    __shared__ float s[64];
    for (unsigned t = m + threadIdx.x; t < n + threadIdx.x; t += 64) {
        __syncthreads();
        s[threadIdx.x] = in[t];
    }
}

// control: the bound grows twice as fast as the start
__global__ void unequal_parts(const float *in, int n, int m)
{
    __shared__ float s[64];
    const int tid = threadIdx.x;
    for (int t = m + tid; t < n + 2 * tid; t += 64) {
        __syncthreads();
        s[tid] = in[t];
    }
}

/*
 * check-output-start
 * tests/rules/divergent-barrier/loop_bounds_cancel.cu:25:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 't < n + threadIdx.x') in kernel 'unsigned_sides' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/loop_bounds_cancel.cu:24:40: note: thread-dependent condition 't < n + threadIdx.x'
 * tests/rules/divergent-barrier/loop_bounds_cancel.cu:25:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * tests/rules/divergent-barrier/loop_bounds_cancel.cu:36:9: error: divergent barrier: '__syncthreads()' is in a loop whose trip count depends on the thread (condition 't < n + 2 * tid') in kernel 'unequal_parts' at every launch [divergent-barrier]
 *           __syncthreads();
 *           ^~~~~~~~~~~~~~~
 * tests/rules/divergent-barrier/loop_bounds_cancel.cu:35:27: note: thread-dependent condition 't < n + 2 * tid'
 * tests/rules/divergent-barrier/loop_bounds_cancel.cu:36:9: note: threads run the loop different numbers of times; give every thread the same trip count and guard the work instead
 * check-output-end
 */

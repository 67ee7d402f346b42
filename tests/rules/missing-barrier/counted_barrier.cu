// missing-barrier: bar.sync with a thread count orders the threads that
// reach it when its guards select exactly that many threads in whole
// warps for the block (here threads 64..127 for `bar.sync 1, 64`), not
// the first 64 threads of the block.
__global__ void upper_half(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    if (t >= 64) {
        s[t] = in[t];
        asm volatile("bar.sync 1, 64;");
        out[t] = s[191 - t];    // 64..127 among themselves: ordered
    }
}

// the same after an early return: the guard is the return's condition
__global__ void upper_half_return(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    if (t < 64)
        return;
    s[t] = in[t];
    asm volatile("bar.sync 2, 64;");
    out[t] = s[191 - t];
}

// the upper half reads what the lower half wrote: bar.sync 1, 64 orders
// only threads 64..127 (reported, naming the barrier)
__global__ void reads_lower_half(const float *in, float *out)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    if (t >= 64) {
        asm volatile("bar.sync 1, 64;");
        out[t] = s[t - 64];
    }
}

int main()
{
    upper_half<<<1, 128>>>(0, 0);
    upper_half_return<<<1, 128>>>(0, 0);
    reads_lower_half<<<1, 128>>>(0, 0);
    return 0;
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/counted_barrier.cu:37:18: error: missing barrier: read-after-write race on 's': thread 64 reads s[0], which thread 0 wrote at line 34, with no barrier ordering both threads in between ('bar.sync' at line 36 orders only the 64 threads taking part (its count); different warps) in kernel 'reads_lower_half' with blockDim (128,1,1) from the launch on line 45 [missing-barrier]
 *           out[t] = s[t - 64];
 *                    ^~~~~~~~~
 * tests/rules/missing-barrier/counted_barrier.cu:34:5: note: the racing write of 's' by thread 0
 * tests/rules/missing-barrier/counted_barrier.cu:32:5: note: 's' declared here
 * tests/rules/missing-barrier/counted_barrier.cu:37:18: note: order the two threads with a barrier whose scope holds both (__syncthreads() for threads of different tiles or warps)
 * check-output-end
 */

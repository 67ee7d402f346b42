// A loop bound on a kernel parameter, and the same parameter in an
// address (issue 23, llm.c's layernorm_backward_kernel10): the bound
// `i < R` and the offset `R + i` take one value of R in a witness. The two
// halves [0, R) and [R, 2R) below each have one writer per element.
__global__ void __launch_bounds__(512) halves(float *out, int C)
{
    extern __shared__ float shared[];
    int R = ((C + 127) / 128) * 128;
    float *lo = shared;
    float *hi = shared + R;
    for (int i = threadIdx.x * 4; i < R; i += blockDim.x * 4) {
        *reinterpret_cast<float4 *>(lo + i) = make_float4(0, 0, 0, 0);
        *reinterpret_cast<float4 *>(hi + i) = make_float4(0, 0, 0, 0);
    }
    __syncthreads();
    out[threadIdx.x] = shared[threadIdx.x];
}

// control: the bound reads n, the addresses do not; the loop runs for
// large enough n, and thread 0 reads what thread 100 may still be writing
__global__ void __launch_bounds__(256) bound_alone(float *out, int n)
{
    __shared__ float s[256];
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s[i % 256] = out[i];
    out[threadIdx.x] = s[(threadIdx.x + 100) % 256];
}

// control: the bound and the address both read R, and the witness holds
// at one value of R: thread 32 writes shared[R + 32] in its first
// iteration (32 < R), which thread 0 reads with no barrier between
__global__ void __launch_bounds__(512) one_value(float *out, int C)
{
    extern __shared__ float shared[];
    int R = ((C + 127) / 128) * 128;
    for (int i = threadIdx.x; i < R; i += blockDim.x)
        shared[R + i % 64] = out[i];
    out[threadIdx.x] = shared[R + (threadIdx.x + 32) % 64];
}

/*
 * check-output-start
 * tests/rules/missing-barrier/loop_bound_unknown.cu:26:24: error: missing barrier: read-after-write race on 's': thread 0 reads s[100], which thread 100 wrote at line 25, with no __syncthreads() in between (different warps) in kernel 'bound_alone' with blockDim (256,1,1) from __launch_bounds__(256) [missing-barrier]
 *       out[threadIdx.x] = s[(threadIdx.x + 100) % 256];
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/loop_bound_unknown.cu:25:9: note: the racing write of 's' by thread 100
 * tests/rules/missing-barrier/loop_bound_unknown.cu:23:5: note: 's' declared here
 * tests/rules/missing-barrier/loop_bound_unknown.cu:26:24: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/loop_bound_unknown.cu:37:9: error: missing barrier: write-after-write race on 'shared': thread 0 writes shared[128], which thread 64 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'one_value' with blockDim (512,1,1) from __launch_bounds__(512) [missing-barrier]
 *           shared[R + i % 64] = out[i];
 *           ^~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/loop_bound_unknown.cu:37:9: note: the racing write of 'shared' by thread 64
 * tests/rules/missing-barrier/loop_bound_unknown.cu:34:5: note: 'shared' declared here
 * tests/rules/missing-barrier/loop_bound_unknown.cu:37:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/loop_bound_unknown.cu:38:24: error: missing barrier: read-after-write race on 'shared': thread 0 reads shared[160], which thread 32 wrote at line 37, with no __syncthreads() in between (different warps) in kernel 'one_value' with blockDim (512,1,1) from __launch_bounds__(512) [missing-barrier]
 *       out[threadIdx.x] = shared[R + (threadIdx.x + 32) % 64];
 *                          ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/loop_bound_unknown.cu:37:9: note: the racing write of 'shared' by thread 32
 * tests/rules/missing-barrier/loop_bound_unknown.cu:34:5: note: 'shared' declared here
 * tests/rules/missing-barrier/loop_bound_unknown.cu:38:24: note: add __syncthreads() between the two accesses
 * check-output-end
 */

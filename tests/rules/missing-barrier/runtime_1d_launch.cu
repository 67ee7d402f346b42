// A kernel that reads threadIdx.y but is launched with a block size known
// only at run time: the host code still says how many dimensions the
// block has. An integer block (`<<<1, n>>>`) and dim3(n, 1, 1), directly
// or through a local never written after, are 1-D, so no two threads
// share threadIdx.x and `one_d` stores no element twice. Its twin
// `two_d`, launched dim3(n, m), keeps the race at the level `assumed`
// (a 2-D block of the assumption has it, one warp does not).

__global__ void one_d(float *out)
{
    __shared__ float s[1024];
    unsigned t = threadIdx.x;
    s[t] = threadIdx.y;
    __syncthreads();
    out[t] = s[t];
}

__global__ void one_d_var(float *out)
{
    __shared__ float s[1024];
    unsigned t = threadIdx.x;
    s[t] = threadIdx.y;
    __syncthreads();
    out[t] = s[t];
}

__global__ void two_d(float *out)
{
    __shared__ float s[1024];
    unsigned t = threadIdx.x;
    s[t] = threadIdx.y;
    __syncthreads();
    out[t] = s[t];
}

void launch(float *out, int n, int m)
{
    one_d<<<1, n>>>(out);
    one_d<<<2, dim3(n, 1, 1)>>>(out);
    dim3 block(n, 1, 1);
    one_d_var<<<1, block>>>(out);
    two_d<<<1, dim3(n, m)>>>(out);
}

/*
 * check-args: --no-cuda
 * check-exit: 0
 * check-output-start
 * tests/rules/missing-barrier/runtime_1d_launch.cu:31:5: assumed: missing barrier: write-after-write race on 's': thread (0,0) writes s[0], which thread (0,1) also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'two_d' with blockDim (32,8,1) (assumed; not a race for blockDim (32,1,1)) [missing-barrier]
 *       s[t] = threadIdx.y;
 *       ^~~~
 * tests/rules/missing-barrier/runtime_1d_launch.cu:31:5: note: the racing write of 's' by thread (0,1)
 * tests/rules/missing-barrier/runtime_1d_launch.cu:29:5: note: 's' declared here
 * tests/rules/missing-barrier/runtime_1d_launch.cu:31:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * check-output-end
 */

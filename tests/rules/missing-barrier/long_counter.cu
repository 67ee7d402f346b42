// missing-barrier: a counter stepped by a constant thousands of times
// (unrolled code, a chain of `if (--c > 0) goto L;`) stays one value deep:
// the resolver folds (c - 1) - 1 into c - 2, so the guard below is decided
// (3,200 steps; unfolded it would be deeper than the evaluator follows and
// be assumed to hold).
#define D4 c -= 1; c = c - 1; c -= 1; c = c - 1;
#define D16 D4 D4 D4 D4
#define D64 D16 D16 D16 D16
#define D320 D64 D64 D64 D64 D64
#define D3200 D320 D320 D320 D320 D320 D320 D320 D320 D320 D320

// c ends at 800: the store under c < 0 never runs (clean)
__global__ void never_runs(float *out)
{
    __shared__ float s[128];
    int c = 4000;
    D3200
    if (c < 0)
        s[0] = threadIdx.x;
    out[threadIdx.x] = c;
}

// the same counter from a parameter (4000 at the launch): clean as well
__global__ void never_runs_param(float *out, int n)
{
    __shared__ float s[128];
    int c = n;
    D3200
    if (c < 0)
        s[0] = threadIdx.x;
    out[threadIdx.x] = c;
}

// c > 0 holds: every thread stores its id to s[0] (reported)
__global__ void runs(float *out)
{
    __shared__ float s[128];
    int c = 4000;
    D3200
    if (c > 0)
        s[0] = threadIdx.x;
    out[threadIdx.x] = s[0];
}

int main()
{
    never_runs<<<1, 128>>>(0);
    never_runs_param<<<1, 128>>>(0, 4000);
    runs<<<1, 128>>>(0);
    return 0;
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/long_counter.cu:41:9: error: missing barrier: write-after-write race on 's': thread 0 writes s[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'runs' with blockDim (128,1,1) from the launch on line 49 [missing-barrier]
 *           s[0] = threadIdx.x;
 *           ^~~~
 * tests/rules/missing-barrier/long_counter.cu:41:9: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/long_counter.cu:37:5: note: 's' declared here
 * tests/rules/missing-barrier/long_counter.cu:41:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/long_counter.cu:42:24: error: missing barrier: read-after-write race on 's': thread 0 reads s[0], which thread 32 wrote at line 41, with no __syncthreads() in between (different warps) in kernel 'runs' with blockDim (128,1,1) from the launch on line 49 [missing-barrier]
 *       out[threadIdx.x] = s[0];
 *                          ^~~~
 * tests/rules/missing-barrier/long_counter.cu:41:9: note: the racing write of 's' by thread 32
 * tests/rules/missing-barrier/long_counter.cu:37:5: note: 's' declared here
 * tests/rules/missing-barrier/long_counter.cu:42:24: note: add __syncthreads() between the two accesses
 * check-output-end
 */

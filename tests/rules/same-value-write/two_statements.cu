// Values every thread writes alike (issue 23): a constant from two
// statements, the address of a __shared__ array, a load from one global
// address through __ldg, one constant stored plainly and by atomicExch.
// Each is the benign same-value note, never an error; the controls race.

// one constant (a floating literal) from two statements
__global__ void float_twice(float *o, int n)
{
    __shared__ float flag;
    if (threadIdx.x < n)
        flag = 1.0f;
    if (threadIdx.x > 3)
        flag = 1.0f;
    __syncthreads();
    o[threadIdx.x] = flag;
}

// control: two different constants
__global__ void float_differ(float *o, int n)
{
    __shared__ float flag;
    if (threadIdx.x < n)
        flag = 1.0f;
    if (threadIdx.x > 3)
        flag = 2.0f;
    __syncthreads();
    o[threadIdx.x] = flag;
}

// the address of a __shared__ array is the same in every thread
__global__ void shared_address(float *o)
{
    __shared__ float a[256];
    __shared__ float *sp;
    sp = a;
    __syncthreads();
    sp[threadIdx.x] = o[threadIdx.x];
}

// __ldg at an index every thread computes alike: one value; a parameter
// written from two statements likewise
__global__ void ldg_uniform(float *o, const float *__restrict__ g, float v)
{
    __shared__ float s[4];
    s[threadIdx.x & 3] = __ldg(&g[blockIdx.x]);
    __syncthreads();
    o[threadIdx.x] = s[threadIdx.x & 3];
    __syncthreads();
    if (threadIdx.x < 8)
        s[0] = v;
    if (threadIdx.x > 100)
        s[0] = v;
    __syncthreads();
    o[threadIdx.x] = s[0];
}

// control: __ldg at a per-thread index
__global__ void ldg_per_thread(float *o, const float *__restrict__ g)
{
    __shared__ float s[4];
    s[threadIdx.x & 3] = __ldg(&g[threadIdx.x]);
    __syncthreads();
    o[threadIdx.x] = s[threadIdx.x & 3];
}

// one flag set by an atomic exchange in some threads and by a plain store
// in others, both of 1 (cuda-samples' bisection kernel; 1u converted to
// int is the exchange's 1): one value
__global__ void exchange_and_store(int *o)
{
    __shared__ int done;
    if (threadIdx.x == 0)
        done = 0;
    __syncthreads();
    if (o[threadIdx.x] > 0)
        atomicExch(&done, 1);
    if (o[threadIdx.x] < -5)
        done = 1u;
    __syncthreads();
    o[threadIdx.x] = done;
}

// control: the exchange stores another value
__global__ void exchange_other(int *o)
{
    __shared__ int done2;
    if (threadIdx.x == 0)
        done2 = 0;
    __syncthreads();
    if (o[threadIdx.x] > 0)
        atomicExch(&done2, 2);
    if (o[threadIdx.x] < -5)
        done2 = 1;
    __syncthreads();
    o[threadIdx.x] = done2;
}

/*
 * check-args: --block-dim 256 --no-cuda
 * check-output-start
 * tests/rules/same-value-write/two_statements.cu:11:9: note: benign race: threads write the same constant to 'flag': thread 0 writes flag, which thread 32 also writes in the same statement, threads of different warps (the value is the same whichever write lands) in kernel 'float_twice' with blockDim (256,1,1) from --block-dim [same-value-write]
 *           flag = 1.0f;
 *           ^~~~
 * tests/rules/same-value-write/two_statements.cu:11:9: note: the same constant written by thread 32
 * tests/rules/same-value-write/two_statements.cu:9:5: note: 'flag' declared here
 * tests/rules/same-value-write/two_statements.cu:11:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/two_statements.cu:13:9: note: benign race: threads write the same constant to 'flag': thread 4 writes flag, which thread 32 wrote at line 11, threads of different warps (the value is the same whichever write lands) in kernel 'float_twice' with blockDim (256,1,1) from --block-dim [same-value-write]
 *           flag = 1.0f;
 *           ^~~~
 * tests/rules/same-value-write/two_statements.cu:11:9: note: the same constant written by thread 32
 * tests/rules/same-value-write/two_statements.cu:9:5: note: 'flag' declared here
 * tests/rules/same-value-write/two_statements.cu:13:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/two_statements.cu:23:9: note: benign race: threads write the same constant to 'flag': thread 0 writes flag, which thread 32 also writes in the same statement, threads of different warps (the value is the same whichever write lands) in kernel 'float_differ' with blockDim (256,1,1) from --block-dim [same-value-write]
 *           flag = 1.0f;
 *           ^~~~
 * tests/rules/same-value-write/two_statements.cu:23:9: note: the same constant written by thread 32
 * tests/rules/same-value-write/two_statements.cu:21:5: note: 'flag' declared here
 * tests/rules/same-value-write/two_statements.cu:23:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/two_statements.cu:25:9: error: missing barrier: write-after-write race on 'flag': thread 4 writes flag, which thread 32 wrote at line 23, with no __syncthreads() in between (different warps) in kernel 'float_differ' with blockDim (256,1,1) from --block-dim [missing-barrier]
 *           flag = 2.0f;
 *           ^~~~
 * tests/rules/same-value-write/two_statements.cu:23:9: note: the racing write of 'flag' by thread 32
 * tests/rules/same-value-write/two_statements.cu:21:5: note: 'flag' declared here
 * tests/rules/same-value-write/two_statements.cu:25:9: note: add __syncthreads() between the two accesses
 * tests/rules/same-value-write/two_statements.cu:35:5: note: benign race: threads write the same value to 'sp': thread 0 writes sp, which thread 32 also writes in the same statement, threads of different warps (the value is the same whichever write lands) in kernel 'shared_address' with blockDim (256,1,1) from --block-dim [same-value-write]
 *       sp = a;
 *       ^~
 * tests/rules/same-value-write/two_statements.cu:35:5: note: the same value written by thread 32
 * tests/rules/same-value-write/two_statements.cu:34:5: note: 'sp' declared here
 * tests/rules/same-value-write/two_statements.cu:35:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/two_statements.cu:45:5: note: benign race: threads write the same value to 's': thread 0 writes s[0], which thread 32 also writes in the same statement, threads of different warps (the value is the same whichever write lands) in kernel 'ldg_uniform' with blockDim (256,1,1) from --block-dim [same-value-write]
 *       s[threadIdx.x & 3] = __ldg(&g[blockIdx.x]);
 *       ^~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/two_statements.cu:45:5: note: the same value written by thread 32
 * tests/rules/same-value-write/two_statements.cu:44:5: note: 's' declared here
 * tests/rules/same-value-write/two_statements.cu:45:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/two_statements.cu:50:9: note: benign race: threads write the same value to 's': thread 0 writes s[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'ldg_uniform' with blockDim (256,1,1) from --block-dim [same-value-write]
 *           s[0] = v;
 *           ^~~~
 * tests/rules/same-value-write/two_statements.cu:50:9: note: the same value written by thread 1
 * tests/rules/same-value-write/two_statements.cu:44:5: note: 's' declared here
 * tests/rules/same-value-write/two_statements.cu:50:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/two_statements.cu:52:9: note: benign race: threads write the same value to 's': thread 101 writes s[0], which thread 0 wrote at line 50, threads of different warps (the value is the same whichever write lands) in kernel 'ldg_uniform' with blockDim (256,1,1) from --block-dim [same-value-write]
 *           s[0] = v;
 *           ^~~~
 * tests/rules/same-value-write/two_statements.cu:50:9: note: the same value written by thread 0
 * tests/rules/same-value-write/two_statements.cu:44:5: note: 's' declared here
 * tests/rules/same-value-write/two_statements.cu:52:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/two_statements.cu:61:5: error: missing barrier: write-after-write race on 's': thread 0 writes s[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'ldg_per_thread' with blockDim (256,1,1) from --block-dim [missing-barrier]
 *       s[threadIdx.x & 3] = __ldg(&g[threadIdx.x]);
 *       ^~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/two_statements.cu:61:5: note: the racing write of 's' by thread 32
 * tests/rules/same-value-write/two_statements.cu:60:5: note: 's' declared here
 * tests/rules/same-value-write/two_statements.cu:61:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/same-value-write/two_statements.cu:78:9: note: benign race: threads write the same constant to 'done': thread 0 writes done, which thread 32 wrote at line 76, threads of different warps (the value is the same whichever write lands) in kernel 'exchange_and_store' with blockDim (256,1,1) from --block-dim [same-value-write]
 *           done = 1u;
 *           ^~~~
 * tests/rules/same-value-write/two_statements.cu:76:21: note: the same constant written by thread 32
 * tests/rules/same-value-write/two_statements.cu:71:5: note: 'done' declared here
 * tests/rules/same-value-write/two_statements.cu:78:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/two_statements.cu:93:9: error: missing barrier: write-after-write race on 'done2': thread 0 writes done2, which thread 32 wrote at line 91, with no __syncthreads() in between (different warps) in kernel 'exchange_other' with blockDim (256,1,1) from --block-dim [missing-barrier]
 *           done2 = 1;
 *           ^~~~~
 * tests/rules/same-value-write/two_statements.cu:91:21: note: the racing atomic of 'done2' by thread 32
 * tests/rules/same-value-write/two_statements.cu:86:5: note: 'done2' declared here
 * tests/rules/same-value-write/two_statements.cu:93:9: note: add __syncthreads() between the two accesses
 * check-output-end
 */

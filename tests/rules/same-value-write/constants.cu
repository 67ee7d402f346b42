// A constant written by every thread: a benign race, reported as a note
// under its own id (issue 14, item 1); the thread-dependent twin is a race.

__global__ void flag_const(int *o)
{
    __shared__ int s_flag;
    s_flag = 1;
    __syncthreads();
    o[threadIdx.x] = s_flag;
}

__global__ void float_const(float *o)
{
    __shared__ float s_zero[4];
    s_zero[2] = 0.0f;
    __syncthreads();
    o[threadIdx.x] = s_zero[2];
}

// two stores of one integer by threads of different warps
__global__ void two_stores(int *o)
{
    __shared__ int s_two;
    if (threadIdx.x < 32)
        s_two = 7;
    else
        s_two = 7;
    __syncthreads();
    o[threadIdx.x] = s_two;
}

// the twin: the value depends on the thread, a real race
__global__ void flag_tid(int *o)
{
    __shared__ int s_tid;
    s_tid = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s_tid;
}

// different constants: a real race (which one lands is undefined)
__global__ void two_values(int *o)
{
    __shared__ int s_tv;
    if (threadIdx.x < 32)
        s_tv = 1;
    else
        s_tv = 2;
    __syncthreads();
    o[threadIdx.x] = s_tv;
}

void launch(int *o, float *f)
{
    flag_const<<<1, 64>>>(o);
    float_const<<<1, 64>>>(f);
    two_stores<<<1, 64>>>(o);
    flag_tid<<<1, 64>>>(o);
    two_values<<<1, 64>>>(o);
}

/*
 * check-output-start
 * tests/rules/same-value-write/constants.cu:7:5: note: benign race: threads write the same constant to 's_flag': thread 0 writes s_flag, which thread 32 also writes in the same statement, threads of different warps (the value is the same whichever write lands) in kernel 'flag_const' with blockDim (64,1,1) from the launch on line 55 [same-value-write]
 *       s_flag = 1;
 *       ^~~~~~
 * tests/rules/same-value-write/constants.cu:7:5: note: the same constant written by thread 32
 * tests/rules/same-value-write/constants.cu:6:5: note: 's_flag' declared here
 * tests/rules/same-value-write/constants.cu:7:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/constants.cu:15:5: note: benign race: threads write the same constant to 's_zero': thread 0 writes s_zero[2], which thread 32 also writes in the same statement, threads of different warps (the value is the same whichever write lands) in kernel 'float_const' with blockDim (64,1,1) from the launch on line 56 [same-value-write]
 *       s_zero[2] = 0.0f;
 *       ^~~~~~~~~
 * tests/rules/same-value-write/constants.cu:15:5: note: the same constant written by thread 32
 * tests/rules/same-value-write/constants.cu:14:5: note: 's_zero' declared here
 * tests/rules/same-value-write/constants.cu:15:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/constants.cu:25:9: note: benign race: threads write the same constant to 's_two': thread 0 writes s_two, which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'two_stores' with blockDim (64,1,1) from the launch on line 57 [same-value-write]
 *           s_two = 7;
 *           ^~~~~
 * tests/rules/same-value-write/constants.cu:25:9: note: the same constant written by thread 1
 * tests/rules/same-value-write/constants.cu:23:5: note: 's_two' declared here
 * tests/rules/same-value-write/constants.cu:25:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/constants.cu:27:9: note: benign race: threads write the same constant to 's_two': thread 32 writes s_two, which thread 0 wrote at line 25, threads of different warps (the value is the same whichever write lands) in kernel 'two_stores' with blockDim (64,1,1) from the launch on line 57 [same-value-write]
 *           s_two = 7;
 *           ^~~~~
 * tests/rules/same-value-write/constants.cu:25:9: note: the same constant written by thread 0
 * tests/rules/same-value-write/constants.cu:23:5: note: 's_two' declared here
 * tests/rules/same-value-write/constants.cu:27:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/constants.cu:36:5: error: missing barrier: write-after-write race on 's_tid': thread 0 writes s_tid, which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'flag_tid' with blockDim (64,1,1) from the launch on line 58 [missing-barrier]
 *       s_tid = threadIdx.x;
 *       ^~~~~
 * tests/rules/same-value-write/constants.cu:36:5: note: the racing write of 's_tid' by thread 32
 * tests/rules/same-value-write/constants.cu:35:5: note: 's_tid' declared here
 * tests/rules/same-value-write/constants.cu:36:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/same-value-write/constants.cu:46:9: note: benign race: threads write the same constant to 's_tv': thread 0 writes s_tv, which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'two_values' with blockDim (64,1,1) from the launch on line 59 [same-value-write]
 *           s_tv = 1;
 *           ^~~~
 * tests/rules/same-value-write/constants.cu:46:9: note: the same constant written by thread 1
 * tests/rules/same-value-write/constants.cu:44:5: note: 's_tv' declared here
 * tests/rules/same-value-write/constants.cu:46:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/constants.cu:48:9: error: missing barrier: write-after-write race on 's_tv': thread 32 writes s_tv, which thread 0 wrote at line 46, with no __syncthreads() in between (different warps) in kernel 'two_values' with blockDim (64,1,1) from the launch on line 59 [missing-barrier]
 *           s_tv = 2;
 *           ^~~~
 * tests/rules/same-value-write/constants.cu:46:9: note: the racing write of 's_tv' by thread 0
 * tests/rules/same-value-write/constants.cu:44:5: note: 's_tv' declared here
 * tests/rules/same-value-write/constants.cu:48:9: note: add __syncthreads() between the two accesses
 * check-output-end
 */

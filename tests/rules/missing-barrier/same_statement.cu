// Races between two executions of one statement by different threads
// (issue 14, item 1), each with its correct twin.

// every thread writes its own id to element 0: 64 threads, two warps
__global__ void one_element(int *o)
{
    __shared__ int s_a[64];
    s_a[0] = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s_a[0];
}

// correct twin: one thread writes
__global__ void one_element_ok(int *o)
{
    __shared__ int s_a1[64];
    if (threadIdx.x == 0)
        s_a1[0] = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s_a1[0];
}

// a shared scalar written by every thread
__global__ void scalar(int *o)
{
    __shared__ int s_x;
    s_x = threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s_x;
}

// threads t and t+32 (different warps) write one element
__global__ void modulo(const float *in, float *o)
{
    __shared__ float s_m[32];
    s_m[threadIdx.x % 32] = in[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = s_m[threadIdx.x % 32];
}

// correct twin: each thread its own element
__global__ void modulo_ok(const float *in, float *o)
{
    __shared__ float s_m1[64];
    s_m1[threadIdx.x % 64] = in[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = s_m1[threadIdx.x % 64];
}

// a guard every thread of the launch passes
__global__ void guarded(int *o, int n)
{
    __shared__ int s_d;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        s_d = i;
    __syncthreads();
    o[i] = s_d;
}

// a loop every thread runs: all write B[i]
__global__ void loop_all(const int *in, int *o)
{
    __shared__ int s_b[10];
    for (int i = 0; i < 10; i++)
        s_b[i] = in[i] + threadIdx.x;
    __syncthreads();
    o[threadIdx.x] = s_b[threadIdx.x % 10];
}

// correct twin: the loop's elements are split between the threads
__global__ void loop_split(const int *in, int *o)
{
    __shared__ int s_b1[640];
    for (int i = 0; i < 10; i++)
        s_b1[i * 64 + threadIdx.x] = in[i];
    __syncthreads();
    o[threadIdx.x] = s_b1[threadIdx.x];
}

// lanes of one warp write one element: warp-sync's (t and t+16)
__global__ void lanes(const float *in, float *o)
{
    __shared__ float s_l[64];
    s_l[threadIdx.x % 16 + (threadIdx.x / 32) * 32] = in[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = s_l[threadIdx.x];
}

void launch(int *o, float *f, const float *fi, const int *ii)
{
    one_element<<<1, 64>>>(o);
    one_element_ok<<<1, 64>>>(o);
    scalar<<<1, 64>>>(o);
    modulo<<<1, 64>>>(fi, f);
    modulo_ok<<<1, 64>>>(fi, f);
    guarded<<<1, 64>>>(o, 64);
    loop_all<<<1, 64>>>(ii, o);
    loop_split<<<1, 64>>>(ii, o);
    lanes<<<1, 64>>>(fi, f);
}

/*
 * check-output-start
 * tests/rules/missing-barrier/same_statement.cu:8:5: error: missing barrier: write-after-write race on 's_a': thread 0 writes s_a[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'one_element' with blockDim (64,1,1) from the launch on line 92 [missing-barrier]
 *       s_a[0] = threadIdx.x;
 *       ^~~~~~
 * tests/rules/missing-barrier/same_statement.cu:8:5: note: the racing write of 's_a' by thread 32
 * tests/rules/missing-barrier/same_statement.cu:7:5: note: 's_a' declared here
 * tests/rules/missing-barrier/same_statement.cu:8:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/same_statement.cu:27:5: error: missing barrier: write-after-write race on 's_x': thread 0 writes s_x, which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'scalar' with blockDim (64,1,1) from the launch on line 94 [missing-barrier]
 *       s_x = threadIdx.x;
 *       ^~~
 * tests/rules/missing-barrier/same_statement.cu:27:5: note: the racing write of 's_x' by thread 32
 * tests/rules/missing-barrier/same_statement.cu:26:5: note: 's_x' declared here
 * tests/rules/missing-barrier/same_statement.cu:27:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/same_statement.cu:36:5: error: missing barrier: write-after-write race on 's_m': thread 0 writes s_m[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'modulo' with blockDim (64,1,1) from the launch on line 95 [missing-barrier]
 *       s_m[threadIdx.x % 32] = in[threadIdx.x];
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/same_statement.cu:36:5: note: the racing write of 's_m' by thread 32
 * tests/rules/missing-barrier/same_statement.cu:35:5: note: 's_m' declared here
 * tests/rules/missing-barrier/same_statement.cu:36:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/same_statement.cu:56:9: error: missing barrier: write-after-write race on 's_d': thread 0 writes s_d, which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'guarded' with blockDim (64,1,1) from the launch on line 97 [missing-barrier]
 *           s_d = i;
 *           ^~~
 * tests/rules/missing-barrier/same_statement.cu:56:9: note: the racing write of 's_d' by thread 32
 * tests/rules/missing-barrier/same_statement.cu:53:5: note: 's_d' declared here
 * tests/rules/missing-barrier/same_statement.cu:56:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/same_statement.cu:66:9: error: missing barrier: write-after-write race on 's_b': thread 0 writes s_b[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'loop_all' with blockDim (64,1,1) from the launch on line 98 [missing-barrier]
 *           s_b[i] = in[i] + threadIdx.x;
 *           ^~~~~~
 * tests/rules/missing-barrier/same_statement.cu:66:9: note: the racing write of 's_b' by thread 32
 * tests/rules/missing-barrier/same_statement.cu:64:5: note: 's_b' declared here
 * tests/rules/missing-barrier/same_statement.cu:66:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * tests/rules/missing-barrier/same_statement.cu:85:5: warning: unsynchronized warp exchange on 's_l': lane 0 of warp 0 writes s_l[0], which lane 16 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'lanes' with blockDim (64,1,1) from the launch on line 100 [warp-sync]
 *       s_l[threadIdx.x % 16 + (threadIdx.x / 32) * 32] = in[threadIdx.x];
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/same_statement.cu:85:5: note: the other lane's write of 's_l'
 * tests/rules/missing-barrier/same_statement.cu:84:5: note: 's_l' declared here
 * tests/rules/missing-barrier/same_statement.cu:85:5: note: let one lane write it, or give each lane its own element
 * check-output-end
 */

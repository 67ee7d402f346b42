// Races between two executions of one statement by different threads, a
// benign same-constant write, and one early exit before several barriers
// (issue 14). Each racy kernel has a correct twin.
#include "common.cuh"

#define SBLOCK 64

// every thread writes its own id to one element
__global__ void same_elem_tid(int *out)
{
    __shared__ int s_e[SBLOCK];
    s_e[0] = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * SBLOCK + threadIdx.x] = s_e[0];
}

// correct twin: one thread writes
__global__ void same_elem_one(int *out)
{
    __shared__ int s_e1[SBLOCK];
    if (threadIdx.x == 0)
        s_e1[0] = blockIdx.x;
    __syncthreads();
    out[blockIdx.x * SBLOCK + threadIdx.x] = s_e1[0];
}

// a shared scalar written by every thread
__global__ void scalar_tid(int *out)
{
    __shared__ int s_sc;
    s_sc = threadIdx.x;
    __syncthreads();
    out[blockIdx.x * SBLOCK + threadIdx.x] = s_sc;
}

// threads t and t+32 (two warps) write one element
__global__ void modulo_warps(const float *in, float *out)
{
    __shared__ float s_mw[32];
    int i = blockIdx.x * SBLOCK + threadIdx.x;
    s_mw[threadIdx.x % 32] = in[i];
    __syncthreads();
    out[i] = s_mw[threadIdx.x % 32];
}

// correct twin: one element per thread
__global__ void modulo_own(const float *in, float *out)
{
    __shared__ float s_mo[SBLOCK];
    int i = blockIdx.x * SBLOCK + threadIdx.x;
    s_mo[threadIdx.x % SBLOCK] = in[i];
    __syncthreads();
    out[i] = s_mo[threadIdx.x % SBLOCK];
}

// a loop every thread runs, each writing every element
__global__ void loop_every_thread(const int *in, int *out)
{
    __shared__ int s_lp[10];
    for (int k = 0; k < 10; k++)
        s_lp[k] = in[k] + threadIdx.x;
    __syncthreads();
    out[blockIdx.x * SBLOCK + threadIdx.x] = s_lp[threadIdx.x % 10];
}

// stores in the two arms of a thread-dependent if, different values
__global__ void two_arms(int *out)
{
    __shared__ int s_ta;
    if (threadIdx.x < 32)
        s_ta = 1;
    else
        s_ta = 2;
    __syncthreads();
    out[blockIdx.x * SBLOCK + threadIdx.x] = s_ta;
}

// benign: every thread writes the same constant
__global__ void same_constant(int *out)
{
    __shared__ int s_flag;
    s_flag = 1;
    __syncthreads();
    out[blockIdx.x * SBLOCK + threadIdx.x] = s_flag;
}

// lanes t and t+16 of one warp write one element
__global__ void lanes_one_warp(const float *in, float *out)
{
    __shared__ float s_lw[SBLOCK];
    int i = blockIdx.x * SBLOCK + threadIdx.x;
    s_lw[threadIdx.x % 16 + (threadIdx.x / 32) * 32] = in[i];
    __syncthreads();
    out[i] = s_lw[threadIdx.x];
}

int main()
{
    const int blocks = 2;
    const size_t n = blocks * SBLOCK;
    int *d_i, *d_io;
    float *d_f, *d_fo;
    CUDA_CHECK(cudaMalloc(&d_i, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_io, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_f, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_fo, n * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_i, 0, n * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_f, 0, n * sizeof(float)));

    same_elem_tid<<<blocks, SBLOCK>>>(d_io);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    same_elem_one<<<blocks, SBLOCK>>>(d_io);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    scalar_tid<<<blocks, SBLOCK>>>(d_io);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    modulo_warps<<<blocks, SBLOCK>>>(d_f, d_fo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    modulo_own<<<blocks, SBLOCK>>>(d_f, d_fo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    loop_every_thread<<<blocks, SBLOCK>>>(d_i, d_io);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    two_arms<<<blocks, SBLOCK>>>(d_io);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    same_constant<<<blocks, SBLOCK>>>(d_io);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    lanes_one_warp<<<blocks, SBLOCK>>>(d_f, d_fo);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_i));
    CUDA_CHECK(cudaFree(d_io));
    CUDA_CHECK(cudaFree(d_f));
    CUDA_CHECK(cudaFree(d_fo));
    return 0;
}

/*
 * check-output-start
 * corpus/races_same_access.cu:12:5: error: missing barrier: write-after-write race on 's_e': thread 0 writes s_e[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'same_elem_tid' with blockDim (64,1,1) from the launch on line 110 [missing-barrier]
 *       s_e[0] = threadIdx.x;
 *       ^~~~~~
 * corpus/races_same_access.cu:12:5: note: the racing write of 's_e' by thread 32
 * corpus/races_same_access.cu:11:5: note: 's_e' declared here
 * corpus/races_same_access.cu:12:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * corpus/races_same_access.cu:31:5: error: missing barrier: write-after-write race on 's_sc': thread 0 writes s_sc, which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'scalar_tid' with blockDim (64,1,1) from the launch on line 118 [missing-barrier]
 *       s_sc = threadIdx.x;
 *       ^~~~
 * corpus/races_same_access.cu:31:5: note: the racing write of 's_sc' by thread 32
 * corpus/races_same_access.cu:30:5: note: 's_sc' declared here
 * corpus/races_same_access.cu:31:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * corpus/races_same_access.cu:41:5: error: missing barrier: write-after-write race on 's_mw': thread 0 writes s_mw[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'modulo_warps' with blockDim (64,1,1) from the launch on line 122 [missing-barrier]
 *       s_mw[threadIdx.x % 32] = in[i];
 *       ^~~~~~~~~~~~~~~~~~~~~~
 * corpus/races_same_access.cu:41:5: note: the racing write of 's_mw' by thread 32
 * corpus/races_same_access.cu:39:5: note: 's_mw' declared here
 * corpus/races_same_access.cu:41:5: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * corpus/races_same_access.cu:61:9: error: missing barrier: write-after-write race on 's_lp': thread 0 writes s_lp[0], which thread 32 also writes in the same statement, threads of different warps at once (no barrier orders one statement's executions) in kernel 'loop_every_thread' with blockDim (64,1,1) from the launch on line 130 [missing-barrier]
 *           s_lp[k] = in[k] + threadIdx.x;
 *           ^~~~~~~
 * corpus/races_same_access.cu:61:9: note: the racing write of 's_lp' by thread 32
 * corpus/races_same_access.cu:59:5: note: 's_lp' declared here
 * corpus/races_same_access.cu:61:9: note: let one thread write it (if (threadIdx.x == 0)) and __syncthreads() before it is read, or give each thread its own element
 * corpus/races_same_access.cu:71:9: note: benign race: threads write the same constant to 's_ta': thread 0 writes s_ta, which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'two_arms' with blockDim (64,1,1) from the launch on line 134 [same-value-write]
 *           s_ta = 1;
 *           ^~~~
 * corpus/races_same_access.cu:71:9: note: the same constant written by thread 1
 * corpus/races_same_access.cu:69:5: note: 's_ta' declared here
 * corpus/races_same_access.cu:71:9: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * corpus/races_same_access.cu:73:9: error: missing barrier: write-after-write race on 's_ta': thread 32 writes s_ta, which thread 0 wrote at line 71, with no __syncthreads() in between (different warps) in kernel 'two_arms' with blockDim (64,1,1) from the launch on line 134 [missing-barrier]
 *           s_ta = 2;
 *           ^~~~
 * corpus/races_same_access.cu:71:9: note: the racing write of 's_ta' by thread 0
 * corpus/races_same_access.cu:69:5: note: 's_ta' declared here
 * corpus/races_same_access.cu:73:9: note: add __syncthreads() between the two accesses
 * corpus/races_same_access.cu:82:5: note: benign race: threads write the same constant to 's_flag': thread 0 writes s_flag, which thread 32 also writes in the same statement, threads of different warps (the value is the same whichever write lands) in kernel 'same_constant' with blockDim (64,1,1) from the launch on line 138 [same-value-write]
 *       s_flag = 1;
 *       ^~~~~~
 * corpus/races_same_access.cu:82:5: note: the same constant written by thread 32
 * corpus/races_same_access.cu:81:5: note: 's_flag' declared here
 * corpus/races_same_access.cu:82:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * corpus/races_same_access.cu:92:5: warning: unsynchronized warp exchange on 's_lw': lane 0 of warp 0 writes s_lw[0], which lane 16 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'lanes_one_warp' with blockDim (64,1,1) from the launch on line 142 [warp-sync]
 *       s_lw[threadIdx.x % 16 + (threadIdx.x / 32) * 32] = in[i];
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/races_same_access.cu:92:5: note: the other lane's write of 's_lw'
 * corpus/races_same_access.cu:90:5: note: 's_lw' declared here
 * corpus/races_same_access.cu:92:5: note: let one lane write it, or give each lane its own element
 * check-output-end
 */

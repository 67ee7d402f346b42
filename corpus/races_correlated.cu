// Guards that read shared memory (issue 14, item 4). A thread's guard that
// tests the element it alone writes in ways no value satisfies keeps that
// thread from writing exactly when others read the element: clean. The
// uncorrelated twins race, and racecheck shows it.
#include "common.cuh"

#define CN 32
#define RBLOCK 128

// one step of a transitive closure per k: thread (y, x) writes only
// b[y][x] and only while it is 0; in iteration k == x it would need
// b[y][x] == 0 and b[y][k] != 0 at once, so row y reads b[y][k] safely
__global__ void closure(int *g)
{
    __shared__ int b[CN][CN];
    int y = threadIdx.y, x = threadIdx.x;
    b[y][x] = g[y * CN + x];
    __syncthreads();
    for (int k = 0; k < CN; k++) {
        if (b[y][x] == 0 && b[y][k] != 0 && b[k][x] != 0)
            b[y][x] = k + 2;
        __syncthreads();
    }
    g[y * CN + x] = b[y][x];
}

// twin without the own-element test: thread (y, k) overwrites c[y][k]
// while the rest of row y reads it in the same iteration
__global__ void closure_racy(int *g)
{
    __shared__ int c[CN][CN];
    int y = threadIdx.y, x = threadIdx.x;
    c[y][x] = g[y * CN + x];
    __syncthreads();
    for (int k = 0; k < CN; k++) {
        if (c[y][k] != 0 && c[k][x] != 0)
            c[y][x] = c[y][x] + 1;
        __syncthreads();
    }
    g[y * CN + x] = c[y][x];
}

// s[t] < 0 and !(s[t] < 0) in one condition: no thread writes, so the
// neighbour's read before the barrier is safe
__global__ void never_written(int *g)
{
    __shared__ int s_n[RBLOCK];
    int t = threadIdx.x;
    s_n[t] = g[blockIdx.x * RBLOCK + t];
    __syncthreads();
    int r = s_n[(t + RBLOCK - 1) % RBLOCK];
    if (s_n[t] < 0 && !(s_n[t % RBLOCK] < 0))
        s_n[t] = 1;
    g[blockIdx.x * RBLOCK + t] = r;
}

// twin: s[t] > 0 and s[t] < 5 hold together, so the write races with the
// neighbour's read (threads 31 and 32, 63 and 64, ...: different warps)
__global__ void written_in_range(int *g)
{
    __shared__ int s_w[RBLOCK];
    int t = threadIdx.x;
    s_w[t] = g[blockIdx.x * RBLOCK + t];
    __syncthreads();
    int r = s_w[(t + RBLOCK - 1) % RBLOCK];
    if (s_w[t] > 0 && s_w[t % RBLOCK] < 5)
        s_w[t] = 7;
    g[blockIdx.x * RBLOCK + t] = r;
}

int main()
{
    const int n = CN * CN;
    int h[CN * CN];
    // a sparse graph: edges i -> i+1 and a few zeros on the diagonal
    for (int i = 0; i < n; i++) {
        int y = i / CN, x = i % CN;
        h[i] = (x == (y + 1) % CN || (x == y && y % 3 != 0)) ? 1 : 0;
    }
    int *d_g;
    CUDA_CHECK(cudaMalloc(&d_g, n * sizeof(int)));

    CUDA_CHECK(cudaMemcpy(d_g, h, n * sizeof(int), cudaMemcpyHostToDevice));
    closure<<<1, dim3(CN, CN)>>>(d_g);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    // every element nonzero: every thread writes in every iteration
    for (int i = 0; i < n; i++)
        h[i] = 1;
    CUDA_CHECK(cudaMemcpy(d_g, h, n * sizeof(int), cudaMemcpyHostToDevice));
    closure_racy<<<1, dim3(CN, CN)>>>(d_g);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaMemcpy(d_g, h, n * sizeof(int), cudaMemcpyHostToDevice));
    never_written<<<2, RBLOCK>>>(d_g);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaMemcpy(d_g, h, n * sizeof(int), cudaMemcpyHostToDevice));
    written_in_range<<<2, RBLOCK>>>(d_g);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_g));
    printf("races_correlated: ok\n");
    return 0;
}

/*
 * check-output-start
 * corpus/races_correlated.cu:37:13: error: missing barrier: write-after-read race on 'c': thread (0,0) overwrites c[0][0], which thread (0,1) read at line 36, with no __syncthreads() in between (different warps) in kernel 'closure_racy' with blockDim (32,32,1) from the launch on line 92 [missing-barrier]
 *               c[y][x] = c[y][x] + 1;
 *               ^~~~~~~
 * corpus/races_correlated.cu:36:29: note: the racing read of 'c' by thread (0,1)
 * corpus/races_correlated.cu:31:5: note: 'c' declared here
 * corpus/races_correlated.cu:37:13: note: add __syncthreads() between the two accesses
 * corpus/races_correlated.cu:67:9: error: missing barrier: write-after-read race on 's_w': thread 31 overwrites s_w[31], which thread 32 read at line 65, with no __syncthreads() in between (different warps) in kernel 'written_in_range' with blockDim (128,1,1) from the launch on line 102 [missing-barrier]
 *           s_w[t] = 7;
 *           ^~~~~~
 * corpus/races_correlated.cu:65:13: note: the racing read of 's_w' by thread 32
 * corpus/races_correlated.cu:61:5: note: 's_w' declared here
 * corpus/races_correlated.cu:67:9: note: add __syncthreads() between the two accesses
 * check-output-end
 */

// Paths no thread runs (engine/cfg.h, path variables). A condition alike in
// every thread of the block takes one arm at every if on it, and a loop's
// counter is at its start in the first iteration, so a barrier behind one
// `if (flag)` or `if (t == 0)` orders the access behind another. The flags
// come from the command line here: smemlint cannot know them, the GPU runs
// one value. The clean kernels run the branch that orders; the racy twins
// differ in the flag, the iteration or the thread, and racecheck shows it.
#include "common.cuh"
#include <stdint.h>

#define N 256

// clean: both ifs on one flag (1 here): the read is behind the barrier
__global__ void same_flag(float *out, int flag)
{
    __shared__ float s_a[N];
    s_a[threadIdx.x] = out[threadIdx.x];
    if (flag)
        __syncthreads();
    if (flag)
        out[threadIdx.x] = s_a[N - 1 - threadIdx.x];
}

// clean: the first iteration takes the barrier before its read
__global__ void first_tile(float *out, int n)
{
    __shared__ float s_b[N];
    s_b[threadIdx.x] = out[threadIdx.x];
    for (int t = 0; t < n; ++t) {
        if (t == 0)
            __syncthreads();
        out[t * N + threadIdx.x] = s_b[N - 1 - threadIdx.x];
    }
}

// clean: only the first iteration writes, and a barrier follows it
__global__ void later_tiles(float *out, int n)
{
    __shared__ float s_c[N];
    for (int t = 0; t < n; ++t) {
        if (t == 0) {
            s_c[threadIdx.x] = out[threadIdx.x];
            __syncthreads();
        }
        out[t * N + threadIdx.x] = s_c[N - 1 - threadIdx.x];
    }
}

// clean: a tile copied with cp.async before the loop, waited for at the
// first tile after a loop of copies (flash attention's Q and K), read by
// every tile
__global__ void prefetch_first(const uint4 *g, uint4 *out, int ntiles)
{
    __shared__ __align__(16) uint4 q[N];
    __shared__ __align__(16) uint4 kv[2][N];
    int t = threadIdx.x;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"((uint32_t)__cvta_generic_to_shared(&q[t])),
                 "l"(&g[t]));
    asm volatile("cp.async.commit_group;\n" ::);
    for (int tile = 0; tile < ntiles; ++tile) {
        if (tile == 0) {
            for (int i = 0; i < 2; ++i)
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n"
                             ::"r"((uint32_t)__cvta_generic_to_shared(&kv[i][t])), "l"(&g[N + i * N + t]));
            asm volatile("cp.async.commit_group;\n" ::);
            asm volatile("cp.async.wait_group 0;\n" ::);
            __syncthreads();
        }
        out[tile * N + t] = q[N - 1 - t];
        if (tile == 0)
            out[t] = kv[1][N - 1 - t];
    }
}

// races: the barrier waits for `flag` (0 here), the read for `other` (1)
__global__ void two_flags(float *out, int flag, int other)
{
    __shared__ float s_d[N];
    s_d[threadIdx.x] = out[threadIdx.x];
    if (flag)
        __syncthreads();
    if (other)
        out[threadIdx.x] = s_d[N - 1 - threadIdx.x];
}

// races: the flag (0 here) changes between the two ifs
__global__ void flag_changed(float *out, int flag)
{
    __shared__ float s_e[N];
    s_e[threadIdx.x] = out[threadIdx.x];
    if (flag)
        __syncthreads();
    flag = !flag;
    if (flag)
        out[threadIdx.x] = s_e[N - 1 - threadIdx.x];
}

// races: the first tile reads before any barrier (t == 1 takes it later)
__global__ void second_tile(float *out, int n)
{
    __shared__ float s_f[N];
    s_f[threadIdx.x] = out[threadIdx.x];
    for (int t = 0; t < n; ++t) {
        if (t == 1)
            __syncthreads();
        out[t * N + threadIdx.x] = s_f[N - 1 - threadIdx.x];
    }
}

// races: a thread-dependent condition splits the block between the arms
__global__ void by_thread(float *out)
{
    __shared__ float s_g[N];
    if (threadIdx.x < N / 2)
        s_g[threadIdx.x] = out[threadIdx.x];
    if (threadIdx.x >= N / 2)
        out[threadIdx.x] = s_g[threadIdx.x - N / 2];
}

int main(int argc, char **argv)
{
    (void)argv;
    int on = argc < 100, off = argc > 100; // 1 and 0, not known to smemlint
    float *d_f;
    uint4 *d_g, *d_o;
    CUDA_CHECK(cudaMalloc(&d_f, 4 * N * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_g, 3 * N * sizeof(uint4)));
    CUDA_CHECK(cudaMalloc(&d_o, 4 * N * sizeof(uint4)));
    CUDA_CHECK(cudaMemset(d_f, 0, 4 * N * sizeof(float)));
    CUDA_CHECK(cudaMemset(d_g, 0, 3 * N * sizeof(uint4)));

    same_flag<<<1, N>>>(d_f, on);
    first_tile<<<1, N>>>(d_f, 4);
    later_tiles<<<1, N>>>(d_f, 4);
    prefetch_first<<<1, N>>>(d_g, d_o, 4);
    two_flags<<<1, N>>>(d_f, off, on);
    flag_changed<<<1, N>>>(d_f, off);
    second_tile<<<1, N>>>(d_f, 4);
    by_thread<<<1, N>>>(d_f);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_f));
    CUDA_CHECK(cudaFree(d_g));
    CUDA_CHECK(cudaFree(d_o));
    printf("races_uniform_paths: ok\n");
    return 0;
}

/*
 * check-output-start
 * corpus/races_uniform_paths.cu:83:28: error: missing barrier: read-after-write race on 's_d': thread 0 reads s_d[255], which thread 255 wrote at line 79, with no __syncthreads() in between (different warps) in kernel 'two_flags' with blockDim (256,1,1) from the launch on line 136 [missing-barrier]
 *           out[threadIdx.x] = s_d[N - 1 - threadIdx.x];
 *                              ^~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/races_uniform_paths.cu:79:5: note: the racing write of 's_d' by thread 255
 * corpus/races_uniform_paths.cu:78:5: note: 's_d' declared here
 * corpus/races_uniform_paths.cu:83:28: note: add __syncthreads() between the two accesses
 * corpus/races_uniform_paths.cu:95:28: error: missing barrier: read-after-write race on 's_e': thread 0 reads s_e[255], which thread 255 wrote at line 90, with no __syncthreads() in between (different warps) in kernel 'flag_changed' with blockDim (256,1,1) from the launch on line 137 [missing-barrier]
 *           out[threadIdx.x] = s_e[N - 1 - threadIdx.x];
 *                              ^~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/races_uniform_paths.cu:90:5: note: the racing write of 's_e' by thread 255
 * corpus/races_uniform_paths.cu:89:5: note: 's_e' declared here
 * corpus/races_uniform_paths.cu:95:28: note: add __syncthreads() between the two accesses
 * corpus/races_uniform_paths.cu:106:36: error: missing barrier: read-after-write race on 's_f': thread 0 reads s_f[255], which thread 255 wrote at line 102, with no __syncthreads() in between (different warps) in kernel 'second_tile' with blockDim (256,1,1) from the launch on line 138 [missing-barrier]
 *           out[t * N + threadIdx.x] = s_f[N - 1 - threadIdx.x];
 *                                      ^~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/races_uniform_paths.cu:102:5: note: the racing write of 's_f' by thread 255
 * corpus/races_uniform_paths.cu:101:5: note: 's_f' declared here
 * corpus/races_uniform_paths.cu:106:36: note: add __syncthreads() between the two accesses
 * corpus/races_uniform_paths.cu:117:28: error: missing barrier: read-after-write race on 's_g': thread 128 reads s_g[0], which thread 0 wrote at line 115, with no __syncthreads() in between (different warps) in kernel 'by_thread' with blockDim (256,1,1) from the launch on line 139 [missing-barrier]
 *           out[threadIdx.x] = s_g[threadIdx.x - N / 2];
 *                              ^~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/races_uniform_paths.cu:115:9: note: the racing write of 's_g' by thread 0
 * corpus/races_uniform_paths.cu:113:5: note: 's_g' declared here
 * corpus/races_uniform_paths.cu:117:28: note: add __syncthreads() between the two accesses
 * check-output-end
 */

// Guards in nested ifs and the barriers of a thread-block cluster (sm_90),
// for the race model: the GPU's racecheck is the judge.
// - closure_nested: the transitive-closure step with the thread's own
//   element tested in an outer if and the row's in an inner one, nothing
//   written between: in iteration k == x the two tests exclude each other,
//   so the owner never writes while its row reads. Clean.
// - closure_nested_racy: no own-element test; with every element nonzero
//   each thread writes in every iteration while its row reads. Races.
// - cluster_member_sync, cluster_split, cluster_ptx: cluster.sync(), the
//   split barrier_arrive()/barrier_wait() and PTX barrier.cluster.arrive /
//   .wait order the block's own threads too. Clean.
// - cluster_relaxed: barrier.cluster.arrive.relaxed orders no memory (PTX
//   ISA): the exchange behind its wait races by the model.
#include "common.cuh"
#include <cooperative_groups.h>
#include <utility>
namespace cg = cooperative_groups;

#define NN 32
#define CB 128

__global__ void closure_nested(int *g)
{
    __shared__ int b[NN][NN];
    int y = threadIdx.y, x = threadIdx.x;
    b[y][x] = g[y * NN + x];
    __syncthreads();
    for (int k = 0; k < NN; k++) {
        if (b[y][x] == 0) {
            if (b[y][k] != 0 && b[k][x] != 0)
                b[y][x] = k + 2;
        }
        __syncthreads();
    }
    g[y * NN + x] = b[y][x];
}

__global__ void closure_nested_racy(int *g)
{
    __shared__ int c[NN][NN];
    int y = threadIdx.y, x = threadIdx.x;
    c[y][x] = g[y * NN + x];
    __syncthreads();
    for (int k = 0; k < NN; k++) {
        if (c[y][k] != 0) {
            if (c[k][x] != 0)
                c[y][x] = c[y][x] + 1;
        }
        __syncthreads();
    }
    g[y * NN + x] = c[y][x];
}

__global__ void __cluster_dims__(2, 1, 1) cluster_member_sync(float *out)
{
    __shared__ float s[CB];
    cg::cluster_group cluster = cg::this_cluster();
    int t = threadIdx.x;
    s[t] = t + blockIdx.x;
    cluster.sync();
    out[blockIdx.x * CB + t] = s[CB - 1 - t];
}

__global__ void __cluster_dims__(2, 1, 1) cluster_split(float *out)
{
    __shared__ float s[CB];
    cg::cluster_group cluster = cg::this_cluster();
    int t = threadIdx.x;
    s[t] = t + blockIdx.x;
    auto token = cluster.barrier_arrive();
    cluster.barrier_wait(std::move(token));
    out[blockIdx.x * CB + t] = s[CB - 1 - t];
}

__global__ void __cluster_dims__(2, 1, 1) cluster_ptx(float *out)
{
    __shared__ float s[CB];
    int t = threadIdx.x;
    s[t] = t + blockIdx.x;
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
    out[blockIdx.x * CB + t] = s[CB - 1 - t];
}

__global__ void __cluster_dims__(2, 1, 1) cluster_relaxed(float *out)
{
    __shared__ float s[CB];
    int t = threadIdx.x;
    s[t] = t + blockIdx.x;
    asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
    out[blockIdx.x * CB + t] = s[CB - 1 - t];
}

int main()
{
    const int n = NN * NN;
    int h[NN * NN];
    // a sparse graph: edges i -> i+1 and a few zeros on the diagonal
    for (int i = 0; i < n; i++) {
        int y = i / NN, x = i % NN;
        h[i] = (x == (y + 1) % NN || (x == y && y % 3 != 0)) ? 1 : 0;
    }
    int *d_g;
    float *d_o;
    CUDA_CHECK(cudaMalloc(&d_g, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_o, 2 * CB * sizeof(float)));

    CUDA_CHECK(cudaMemcpy(d_g, h, n * sizeof(int), cudaMemcpyHostToDevice));
    closure_nested<<<1, dim3(NN, NN)>>>(d_g);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    // every element nonzero: every thread writes in every iteration
    for (int i = 0; i < n; i++)
        h[i] = 1;
    CUDA_CHECK(cudaMemcpy(d_g, h, n * sizeof(int), cudaMemcpyHostToDevice));
    closure_nested_racy<<<1, dim3(NN, NN)>>>(d_g);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    cluster_member_sync<<<2, CB>>>(d_o);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    cluster_split<<<2, CB>>>(d_o);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    cluster_ptx<<<2, CB>>>(d_o);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    cluster_relaxed<<<2, CB>>>(d_o);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_g));
    CUDA_CHECK(cudaFree(d_o));
    printf("races_nested_cluster: ok\n");
    return 0;
}

/*
 * check-output-start
 * corpus/races_nested_cluster.cu:47:17: error: missing barrier: write-after-read race on 'c': thread (0,0) overwrites c[0][0], which thread (0,1) read at line 46, with no __syncthreads() in between (different warps) in kernel 'closure_nested_racy' with blockDim (32,32,1) from the launch on line 116 [missing-barrier]
 *                   c[y][x] = c[y][x] + 1;
 *                   ^~~~~~~
 * corpus/races_nested_cluster.cu:46:17: note: the racing read of 'c' by thread (0,1)
 * corpus/races_nested_cluster.cu:40:5: note: 'c' declared here
 * corpus/races_nested_cluster.cu:47:17: note: add __syncthreads() between the two accesses
 * corpus/races_nested_cluster.cu:90:32: error: missing barrier: read-after-write race on 's': thread 0 reads s[127], which thread 127 wrote at line 88, with no __syncthreads() in between (different warps) in kernel 'cluster_relaxed' with blockDim (128,1,1) from the launch on line 129 [missing-barrier]
 *       out[blockIdx.x * CB + t] = s[CB - 1 - t];
 *                                  ^~~~~~~~~~~~~
 * corpus/races_nested_cluster.cu:88:5: note: the racing write of 's' by thread 127
 * corpus/races_nested_cluster.cu:86:5: note: 's' declared here
 * corpus/races_nested_cluster.cu:90:32: note: add __syncthreads() between the two accesses
 * check-output-end
 */

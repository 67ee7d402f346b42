// Loop and launch shapes from real trees (issue 23; the patterns of
// ggml's flash-attention and mmf kernels, written afresh). A loop whose
// body ends in a barrier skipped only in its last iteration orders every
// next iteration: clean; the twin skips it one iteration early and the
// last two iterations race, as racecheck shows. A kernel bounded by
// __launch_bounds__(warp_size() * nwarps) and launched with a runtime
// block shape has one warp in its one-warp instance, so its barrier
// under `nwarps > 1` is never needed there; its twin exchanges lanes in
// that warp with no __syncwarp.
#include "common.cuh"
#include <cstdlib>

#define KB 256

template <int ncols>
__global__ void tail_barrier(float *g)
{
    __shared__ float kq[KB];
    int t = threadIdx.y * 32 + threadIdx.x;
    for (int j = 0; j < ncols; ++j) {
        kq[t] = g[j * KB + t];
        __syncthreads();
        g[j * KB + t] = kq[(t + 32) % KB];
        if (j < ncols - 1)
            __syncthreads();
    }
}

// twin: the barrier is skipped in the last two iterations
__global__ void tail_barrier_early(float *g, int n)
{
    __shared__ float kq2[KB];
    int t = threadIdx.y * 32 + threadIdx.x;
    for (int j = 0; j < n; ++j) {
        kq2[t] = g[j * KB + t];
        __syncthreads();
        g[j * KB + t] = kq2[(t + 32) % KB];
        if (j + 2 < n)
            __syncthreads();
    }
}

static constexpr __device__ int warp_width() { return 32; }

template <int nwarps>
__launch_bounds__(warp_width() * nwarps, 1)
__global__ void warp_rows(float *g)
{
    constexpr int ws = warp_width();
    __shared__ float rows[8 * ws];
    int t = threadIdx.y * ws + threadIdx.x;
    rows[t] = g[t];
    if (nwarps > 1)
        __syncthreads();
    g[t] = rows[((threadIdx.y + 1) % nwarps) * ws + threadIdx.x];
}

// twin: in its one warp, each lane reads its neighbour's element
template <int nwarps>
__launch_bounds__(warp_width() * nwarps, 1)
__global__ void warp_lanes(float *g)
{
    constexpr int ws = warp_width();
    __shared__ float lanes[8 * ws];
    int t = threadIdx.y * ws + threadIdx.x;
    lanes[t] = g[t];
    if (nwarps > 1)
        __syncthreads();
    g[t] = lanes[((threadIdx.y + 1) % nwarps) * ws + (threadIdx.x + 1) % ws];
}

int main(int argc, char **argv)
{
    const int n = 3 * KB;
    float h[n];
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    float *d_g;
    CUDA_CHECK(cudaMalloc(&d_g, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_g, h, n * sizeof(float), cudaMemcpyHostToDevice));

    tail_barrier<3><<<1, dim3(32, 8)>>>(d_g);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    tail_barrier_early<<<1, dim3(32, 8)>>>(d_g, 3);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    // the block shape comes from the command line (one warp by default),
    // as ggml picks its warp count at run time
    int nw = argc > 1 ? atoi(argv[1]) : 1;
    warp_rows<1><<<1, dim3(32, nw)>>>(d_g);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    warp_lanes<1><<<1, dim3(32, nw)>>>(d_g);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    CUDA_CHECK(cudaFree(d_g));
    printf("races_loops: ok\n");
    return 0;
}

/*
 * check-output-start
 * corpus/races_loops.cu:35:9: error: missing barrier: write-after-read race on 'kq2': thread (0,0) overwrites kq2[0], which thread (0,7) read at line 37 in the previous iteration, with no __syncthreads() in between (different warps) in kernel 'tail_barrier_early' with blockDim (32,8,1) from the launch on line 86 [missing-barrier]
 *           kq2[t] = g[j * KB + t];
 *           ^~~~~~
 * corpus/races_loops.cu:37:25: note: the racing read of 'kq2' by thread (0,7)
 * corpus/races_loops.cu:32:5: note: 'kq2' declared here
 * corpus/races_loops.cu:35:9: note: add __syncthreads() at the end of the loop body, before the next iteration overwrites what this one reads
 * corpus/races_loops.cu:69:12: warning: unsynchronized warp exchange on 'lanes': lane 0 of warp 0 reads lanes[1], which lane 1 wrote at line 66, with no __syncwarp() in between (a race under independent thread scheduling, volatile or not) in kernel 'warp_lanes' with blockDim (32,1,1) (assumed within __launch_bounds__(32): the launch computes it at run time, and no --block-dim gives it) [warp-sync]
 *       g[t] = lanes[((threadIdx.y + 1) % nwarps) * ws + (threadIdx.x + 1) % ws];
 *              ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * corpus/races_loops.cu:66:5: note: the other lane's write of 'lanes'
 * corpus/races_loops.cu:64:5: note: 'lanes' declared here
 * corpus/races_loops.cu:69:12: note: add __syncwarp() between the write and the access that depends on it
 * check-output-end
 */

// missing-barrier: the barriers of a thread-block cluster (sm_90) order the
// threads of each of its blocks too. cluster.sync(), cg::sync(cluster),
// the split cluster.barrier_arrive() / barrier_wait(token) and PTX
// barrier.cluster.arrive / barrier.cluster.wait are barriers of the block
// as well; an arrive written .relaxed orders no memory, so the exchange
// behind its wait still races. Run with the bundled declarations
// (--no-cuda); tests/dialect/cluster_group.cu parses the same API with the
// toolkit, whose cooperative_groups.h declares it under nvcc only.
#include <cooperative_groups.h>
#include <utility>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) member_sync(float *out)
{
    __shared__ float a[64];
    cg::cluster_group cluster = cg::this_cluster();
    a[threadIdx.x] = threadIdx.x;
    cluster.sync();
    out[threadIdx.x] = a[63 - threadIdx.x];
}

__global__ void __cluster_dims__(2, 1, 1) free_sync(float *out)
{
    __shared__ float b[64];
    b[threadIdx.x] = threadIdx.x;
    cg::sync(cg::this_cluster());
    out[threadIdx.x] = b[63 - threadIdx.x];
}

__global__ void __cluster_dims__(2, 1, 1) split_barrier(float *out)
{
    __shared__ float c[64];
    cg::cluster_group cluster = cg::this_cluster();
    c[threadIdx.x] = threadIdx.x;
    auto token = cluster.barrier_arrive();
    cluster.barrier_wait(std::move(token));
    out[threadIdx.x] = c[63 - threadIdx.x];
}

__global__ void __cluster_dims__(2, 1, 1) ptx_barrier(float *out)
{
    __shared__ float d[64];
    d[threadIdx.x] = threadIdx.x;
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
    out[threadIdx.x] = d[63 - threadIdx.x];
}

// the relaxed arrive: the threads meet, their writes are not ordered
__global__ void __cluster_dims__(2, 1, 1) ptx_relaxed(float *out)
{
    __shared__ float e[64];
    e[threadIdx.x] = threadIdx.x;
    asm volatile("barrier.cluster.arrive.relaxed;\n\tbarrier.cluster.wait;" ::: "memory");
    out[threadIdx.x] = e[63 - threadIdx.x];
}

void launch(float *out)
{
    member_sync<<<2, 64>>>(out);
    free_sync<<<2, 64>>>(out);
    split_barrier<<<2, 64>>>(out);
    ptx_barrier<<<2, 64>>>(out);
    ptx_relaxed<<<2, 64>>>(out);
}

/*
 * check-args: --no-cuda
 * check-output-start
 * tests/rules/missing-barrier/cluster_barriers.cu:54:24: error: missing barrier: read-after-write race on 'e': thread 0 reads e[63], which thread 63 wrote at line 52, with no __syncthreads() in between (different warps) in kernel 'ptx_relaxed' with blockDim (64,1,1) from the launch on line 63 [missing-barrier]
 *       out[threadIdx.x] = e[63 - threadIdx.x];
 *                          ^~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/cluster_barriers.cu:52:5: note: the racing write of 'e' by thread 63
 * tests/rules/missing-barrier/cluster_barriers.cu:51:5: note: 'e' declared here
 * tests/rules/missing-barrier/cluster_barriers.cu:54:24: note: add __syncthreads() between the two accesses
 * check-output-end
 */

// A __shared__ cuda::barrier that thread 0 initializes must be published by
// a barrier before other threads use it: init writes the barrier's state,
// every use (memcpy_async on it, arrive_and_wait) reads it. The twin
// synchronizes the block after init: no finding.
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void barrier_uninit(const float *in, float *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float s[64];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    int t = threadIdx.x;
    cuda::memcpy_async(&s[t], &in[t], sizeof(float), bar);
    bar.arrive_and_wait();
    out[t] = s[63 - t];
}
__global__ void barrier_init_synced(const float *in, float *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ float s[64];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0)
        init(&bar, block.size());
    block.sync();
    int t = threadIdx.x;
    cuda::memcpy_async(&s[t], &in[t], sizeof(float), bar);
    bar.arrive_and_wait();
    out[t] = s[63 - t];
}
void go(const float *a, float *o) { barrier_uninit<<<1, 64>>>(a, o); barrier_init_synced<<<1, 64>>>(a, o); }

/*
 * check-output-start
 * tests/rules/missing-barrier/libcu_barrier_init.cu:10:56: note: __shared__ 'bar' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/libcu_barrier_init.cu:22:56: note: __shared__ 'bar' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/libcu_barrier_init.cu:16:5: error: missing barrier: cuda::barrier 'bar' used before its initialization is visible: read-after-write race: thread 32 reads bar, which thread 0 wrote at line 14, with no __syncthreads() in between (different warps) in kernel 'barrier_uninit' with blockDim (64,1,1) from the launch on line 33 [missing-barrier]
 *       cuda::memcpy_async(&s[t], &in[t], sizeof(float), bar);
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/libcu_barrier_init.cu:14:9: note: the racing write of 'bar' by thread 0
 * tests/rules/missing-barrier/libcu_barrier_init.cu:10:5: note: 'bar' declared here
 * tests/rules/missing-barrier/libcu_barrier_init.cu:16:5: note: __syncthreads() (or block.sync()) after init(&bar, count), before any thread uses the barrier
 * tests/rules/missing-barrier/libcu_barrier_init.cu:17:5: error: missing barrier: cuda::barrier 'bar' used before its initialization is visible: read-after-write race: thread 32 reads bar, which thread 0 wrote at line 14, with no __syncthreads() in between (different warps) in kernel 'barrier_uninit' with blockDim (64,1,1) from the launch on line 33 [missing-barrier]
 *       bar.arrive_and_wait();
 *       ^~~~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/libcu_barrier_init.cu:14:9: note: the racing write of 'bar' by thread 0
 * tests/rules/missing-barrier/libcu_barrier_init.cu:10:5: note: 'bar' declared here
 * tests/rules/missing-barrier/libcu_barrier_init.cu:17:5: note: __syncthreads() (or block.sync()) after init(&bar, count), before any thread uses the barrier
 * check-output-end
 */

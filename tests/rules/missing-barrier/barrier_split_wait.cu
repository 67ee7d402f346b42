// A block cuda::barrier's split phase: bar.arrive() returns a token and
// bar.wait(token) blocks until every thread arrived, so what a thread
// wrote before its arrive is visible to every thread after its wait.
// - split_ok: write, arrive, wait, read a neighbour's element. Clean.
// - split_early: the read comes before the wait. A race.
// - alias_ok: split_ok with the barrier declared through an alias (clang
//   rejects the declaration and keeps the alias's type). Clean.
// - other_wait: a wait(...) of another object (not a barrier) is an
//   unknown call whose argument is still a read: a race.
#include <cuda/barrier>
#include <utility>

__global__ void split_ok(const float *in, float *out)
{
    __shared__ float tile[512];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x;
    if (t == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    tile[t] = in[t];
    cuda::barrier<cuda::thread_scope_block>::arrival_token tok = bar.arrive();
    bar.wait(std::move(tok));
    out[t] = tile[(t + 1) % 512];
}

__global__ void split_early(const float *in, float *out)
{
    __shared__ float tile[512];
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    int t = threadIdx.x;
    if (t == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    tile[t] = in[t];
    cuda::barrier<cuda::thread_scope_block>::arrival_token tok = bar.arrive();
    out[t] = tile[(t + 1) % 512];
    bar.wait(std::move(tok));
}

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void alias_ok(const float *in, float *out)
{
    __shared__ float tile[512];
    __shared__ block_barrier bar;
    int t = threadIdx.x;
    if (t == 0)
        init(&bar, blockDim.x);
    __syncthreads();
    tile[t] = in[t];
    block_barrier::arrival_token tok = bar.arrive();
    bar.wait(std::move(tok));
    out[t] = tile[(t + 1) % 512];
}

struct Waiter {
    __device__ void wait(float v) const;
};

__global__ void other_wait(const float *in, float *out)
{
    __shared__ float tile[512];
    Waiter w;
    int t = threadIdx.x;
    tile[t] = in[t];
    w.wait(tile[511 - t]);
}

void run(const float *in, float *out)
{
    other_wait<<<1, 512>>>(in, out);
    alias_ok<<<1, 512>>>(in, out);
    split_ok<<<1, 512>>>(in, out);
    split_early<<<1, 512>>>(in, out);
}

/*
 * check-output-start
 * tests/rules/missing-barrier/barrier_split_wait.cu:16:56: note: __shared__ 'bar' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/barrier_split_wait.cu:30:56: note: __shared__ 'bar' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/barrier_split_wait.cu:46:30: note: __shared__ 'bar' is declared without an initializer but its type has a constructor: clang rejects it, nvcc ignores the constructor with a warning; analyzed as nvcc compiles it
 * tests/rules/missing-barrier/barrier_split_wait.cu:37:14: error: missing barrier: read-after-write race on 'tile': thread 31 reads tile[32], which thread 32 wrote at line 35, with no __syncthreads() in between (different warps) in kernel 'split_early' with blockDim (512,1,1) from the launch on line 75 [missing-barrier]
 *       out[t] = tile[(t + 1) % 512];
 *                ^~~~~~~~~~~~~~~~~~~
 * tests/rules/missing-barrier/barrier_split_wait.cu:35:5: note: the racing write of 'tile' by thread 32
 * tests/rules/missing-barrier/barrier_split_wait.cu:29:5: note: 'tile' declared here
 * tests/rules/missing-barrier/barrier_split_wait.cu:37:14: note: add __syncthreads() between the two accesses
 * tests/rules/missing-barrier/barrier_split_wait.cu:67:12: error: missing barrier: read-after-write race on 'tile': thread 0 reads tile[511], which thread 511 wrote at line 66, with no __syncthreads() in between (different warps) in kernel 'other_wait' with blockDim (512,1,1) from the launch on line 72 [missing-barrier]
 *       w.wait(tile[511 - t]);
 *              ^~~~~~~~~~~~~
 * tests/rules/missing-barrier/barrier_split_wait.cu:66:5: note: the racing write of 'tile' by thread 511
 * tests/rules/missing-barrier/barrier_split_wait.cu:63:5: note: 'tile' declared here
 * tests/rules/missing-barrier/barrier_split_wait.cu:67:12: note: add __syncthreads() between the two accesses
 * check-output-end
 */

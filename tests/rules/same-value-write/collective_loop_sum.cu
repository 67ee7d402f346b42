// A warp's collective of a value summed in a loop (llm.c's norm_kernel1):
// the warp's one value, stored by its lanes to block_result[warp] (benign).
// The collective keeps its input (what it reduced), which the loop's sum
// must not turn into a value of the loop's iterations.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void __launch_bounds__(256) norm(const float *data, float *out, int count)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    __shared__ float block_result[8];
    __shared__ int votes[8];
    float acc = 0.f;
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        acc += data[i] * data[i];
    block_result[warp.meta_group_rank()] = cg::reduce(warp, acc, cg::plus<float>{});
    votes[threadIdx.x / 32] = __reduce_add_sync(0xffffffff, acc > 1.0f);
    block.sync();
    if (threadIdx.x == 0)
        out[blockIdx.x] = block_result[1] + votes[1];
}

// control: the lanes store their own sums, not the warp's
__global__ void __launch_bounds__(256) own_sums(const float *data, float *out, int count)
{
    __shared__ float block_result[8];
    float acc = 0.f;
    for (int i = threadIdx.x; i < count; i += blockDim.x)
        acc += data[i];
    block_result[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = block_result[1];
}

void launch(const float *d, float *o, int n)
{
    norm<<<4, 256>>>(d, o, n);
    own_sums<<<4, 256>>>(d, o, n);
}

/*
 * check-output-start
 * tests/rules/same-value-write/collective_loop_sum.cu:18:5: note: benign race: threads write the same value to 'block_result': thread 0 writes block_result[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'norm' with blockDim (256,1,1) from the launch on line 40 [same-value-write]
 *       block_result[warp.meta_group_rank()] = cg::reduce(warp, acc, cg::plus<float>{});
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/collective_loop_sum.cu:18:5: note: the same value written by thread 1
 * tests/rules/same-value-write/collective_loop_sum.cu:13:5: note: 'block_result' declared here
 * tests/rules/same-value-write/collective_loop_sum.cu:18:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/collective_loop_sum.cu:19:5: note: benign race: threads write the same value to 'votes': thread 0 writes votes[0], which thread 1 also writes in the same statement, lanes of one warp (the value is the same whichever write lands) in kernel 'norm' with blockDim (256,1,1) from the launch on line 40 [same-value-write]
 *       votes[threadIdx.x / 32] = __reduce_add_sync(0xffffffff, acc > 1.0f);
 *       ^~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/collective_loop_sum.cu:19:5: note: the same value written by thread 1
 * tests/rules/same-value-write/collective_loop_sum.cu:14:5: note: 'votes' declared here
 * tests/rules/same-value-write/collective_loop_sum.cu:19:5: note: harmless as written; let one thread write it (if (threadIdx.x == 0)) to make the intent plain, or disable same-value-write
 * tests/rules/same-value-write/collective_loop_sum.cu:32:5: warning: unsynchronized warp exchange on 'block_result': lane 0 of warp 0 writes block_result[0], which lane 1 also writes in the same statement, lanes of one warp in one statement (which lane's write lands is undefined) in kernel 'own_sums' with blockDim (256,1,1) from the launch on line 41 [warp-sync]
 *       block_result[threadIdx.x / 32] = acc;
 *       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
 * tests/rules/same-value-write/collective_loop_sum.cu:32:5: note: the other lane's write of 'block_result'
 * tests/rules/same-value-write/collective_loop_sum.cu:28:5: note: 'block_result' declared here
 * tests/rules/same-value-write/collective_loop_sum.cu:32:5: note: let one lane write it, or give each lane its own element
 * check-output-end
 */
